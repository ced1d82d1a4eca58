//! `ldd-sets corpora` against a loopback HTTP server serving real PUD text packed as a
//! zip, a tar.gz and plain gzip files (the same formats as OPUS and WMT).

mod common;

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;

use common::*;

/// Serves `files` on 127.0.0.1 for at most `max` requests; returns the base URL.
fn serve(files: HashMap<String, Vec<u8>>, max: usize) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(max) {
            let Ok(mut s) = stream else { continue };
            let mut req = Vec::new();
            let mut buf = [0u8; 1024];
            while !req.windows(4).any(|w| w == b"\r\n\r\n") {
                match s.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => req.extend_from_slice(&buf[..n]),
                }
            }
            let req = String::from_utf8_lossy(&req);
            let path = req.split_whitespace().nth(1).unwrap_or("/").to_string();
            let resp = match files.get(&path) {
                Some(body) => {
                    let mut r = format!(
                        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                        body.len()
                    )
                    .into_bytes();
                    r.extend_from_slice(body);
                    r
                }
                None => b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    .to_vec(),
            };
            let _ = s.write_all(&resp);
        }
    });
    format!("http://{addr}")
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn gunzip_lines(p: &Path) -> Vec<String> {
    ldd_io::read_lines(p).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn downloads_zip_tgz_and_plain_corpora_and_normalises_them() {
    let de = std::fs::read_to_string(data("parallel/pud.de-en.de")).unwrap();
    let en = std::fs::read_to_string(data("parallel/pud.de-en.en")).unwrap();
    // what OPUS-like archives may contain: a BOM and CRLF line ends
    let de_crlf = format!("\u{feff}{}", de.replace('\n', "\r\n"));

    let mut zipped = std::io::Cursor::new(Vec::new());
    {
        let mut z = zip::ZipWriter::new(&mut zipped);
        let o = zip::write::SimpleFileOptions::default();
        z.start_file("Books.de-en.de", o).unwrap();
        z.write_all(de_crlf.as_bytes()).unwrap();
        z.start_file("Books.de-en.en", o).unwrap();
        z.write_all(en.as_bytes()).unwrap();
        z.finish().unwrap();
    }
    let mut tarball = tar::Builder::new(Vec::new());
    for (name, text) in [("dev/newstest2013.de", &de), ("dev/newstest2013.en", &en)] {
        let mut h = tar::Header::new_gnu();
        h.set_size(text.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        tarball.append_data(&mut h, name, text.as_bytes()).unwrap();
    }
    let tgz = gz(&tarball.into_inner().unwrap());
    let short_en: String = en.lines().take(10).map(|l| format!("{l}\n")).collect();
    let files = HashMap::from([
        ("/books.zip".to_string(), zipped.into_inner()),
        ("/dev.tgz".to_string(), tgz),
        ("/plain.de.gz".to_string(), gz(de.as_bytes())),
        ("/plain.en.gz".to_string(), gz(en.as_bytes())),
        ("/bad.de.gz".to_string(), gz(de.as_bytes())),
        ("/bad.en.gz".to_string(), gz(short_en.as_bytes())),
    ]);
    let base = serve(files, 32);
    let tmp = tempfile::tempdir().unwrap();
    let pair = tmp.path().join("pair.toml");
    std::fs::write(
        &pair,
        format!(
            r#"source = "de"
target = "en"
files = "de-en"
[model]
name = "german-small.udpipe"
[[corpus]]
name = "books"
url = "{base}/books.zip"
format = "zip"
members = {{ de = "Books.de-en.de", en = "Books.de-en.en" }}
[[corpus]]
name = "news"
url = "{base}/dev.tgz"
format = "tgz"
members = {{ de = "dev/newstest2013.de", en = "dev/newstest2013.en" }}
[[corpus]]
name = "plain"
url = "{base}/plain.{{lang}}.gz"
format = "plain"
"#
        ),
    )
    .unwrap();
    let dir = tmp.path().join("corpora");
    run_ok(&[
        "corpora",
        "--pair",
        pair.to_str().unwrap(),
        "--dir",
        dir.to_str().unwrap(),
        "-q",
    ]);
    let want_de: Vec<String> = de.lines().map(str::to_string).collect();
    let want_en: Vec<String> = en.lines().map(str::to_string).collect();
    assert_eq!(want_de.len(), 1000);
    for name in ["books", "news", "plain"] {
        assert_eq!(
            gunzip_lines(&dir.join(format!("{name}.de-en.de.gz"))),
            want_de,
            "{name}"
        );
        assert_eq!(
            gunzip_lines(&dir.join(format!("{name}.de-en.en.gz"))),
            want_en,
            "{name}"
        );
    }
    // A second run finds them present and does not download again (the server would
    // still answer, so check the files are untouched).
    let before = std::fs::metadata(dir.join("books.de-en.de.gz"))
        .unwrap()
        .modified()
        .unwrap();
    run_ok(&[
        "corpora",
        "--pair",
        pair.to_str().unwrap(),
        "--dir",
        dir.to_str().unwrap(),
        "-q",
    ]);
    let after = std::fs::metadata(dir.join("books.de-en.de.gz"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(before, after);

    // Sides of different length are rejected, and nothing is left behind.
    let bad = tmp.path().join("bad.toml");
    std::fs::write(
        &bad,
        format!(
            "source = \"de\"\ntarget = \"en\"\nfiles = \"de-en\"\n[model]\nname = \"m\"\n\
             [[corpus]]\nname = \"bad\"\nurl = \"{base}/bad.{{lang}}.gz\"\nformat = \"plain\"\n"
        ),
    )
    .unwrap();
    let o = run(&[
        "corpora",
        "--pair",
        bad.to_str().unwrap(),
        "--dir",
        dir.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the de side has 1000 lines but the en side has 10"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("bad.de-en.de.gz").exists());

    // An unreachable server is a clear "missing resource" error.
    let gone = tmp.path().join("gone.toml");
    std::fs::write(
        &gone,
        "source = \"de\"\ntarget = \"en\"\nfiles = \"de-en\"\n[model]\nname = \"m\"\n\
         [[corpus]]\nname = \"gone\"\nurl = \"http://127.0.0.1:9/x.zip\"\nformat = \"zip\"\n\
         members = { de = \"a\", en = \"b\" }\n",
    )
    .unwrap();
    let o = run(&[
        "corpora",
        "--pair",
        gone.to_str().unwrap(),
        "--dir",
        dir.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(6), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("could not download http://127.0.0.1:9/x.zip"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn shipped_pair_configs_load() {
    for p in ["de-en", "en-de", "en-ru"] {
        let pair = ldd_sets::config::Pair::load(
            Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/config")),
            p,
        )
        .unwrap_or_else(|e| panic!("{p}: {e}"));
        assert!(!pair.corpus.is_empty());
        assert!(pair
            .model
            .url
            .as_deref()
            .is_some_and(|u| u.ends_with(".udpipe")));
        for c in &pair.corpus {
            assert!(c.members.contains_key(&pair.source) && c.members.contains_key(&pair.target));
        }
        // the shared corpora are discovered by the naming convention
        let found = ldd_sets::read::discover::discover(&pair, &data("parallel")).unwrap();
        let names: Vec<&str> = found.iter().map(|c| c.name.as_str()).collect();
        match p {
            "en-ru" => assert_eq!(names, ["books-tok"]),
            _ => assert_eq!(
                names,
                ["books-sample", "multi30k-train", "newstest2013", "pud"]
            ),
        }
    }
}
