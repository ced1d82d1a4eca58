//! `ldd-sets corpora` against a loopback HTTP server serving real PUD text packed as a
//! zip, a tar.gz and plain gzip files (the same formats as OPUS and WMT).

mod common;

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use common::*;

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
        // Built into the binary: no config directory needed.
        let (pair, origin) = ldd_sets::config::Pair::resolve(&p.parse().unwrap(), None)
            .unwrap_or_else(|e| panic!("{p}: {e}"));
        assert!(
            matches!(
                origin,
                ldd_sets::config::PairOrigin::Shipped | ldd_sets::config::PairOrigin::File(_)
            ),
            "{p}: {origin:?}"
        );
        assert!(!pair.corpus.is_empty());
        let model = pair.model.as_ref().expect("a model");
        // The URL comes from the registry: LINDAT's handle 11234/1-3131 and the file name.
        let source = ldd_sets::config::Pair::model_source(model, None).unwrap();
        assert_eq!(
            source.url.as_deref(),
            Some(
                format!(
                    "https://lindat.mff.cuni.cz/repository/xmlui/bitstream/handle/11234/1-3131/{}",
                    model.name
                )
                .as_str()
            )
        );
        for c in &pair.corpus {
            assert!(c.members.contains_key(&pair.source) && c.members.contains_key(&pair.target));
        }
        // the shared corpora are discovered by the naming convention
        let found = ldd_sets::pipeline::read::discover::discover(&pair, &data("parallel")).unwrap();
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

/// Corpus downloads are verified before use: an HTML page (with or without a
/// `Content-Type` saying so) and a file whose SHA-256 differs from the config's are
/// rejected, and no file of the corpus is left behind; the right SHA-256 is accepted.
#[test]
fn corpus_downloads_are_verified() {
    use sha2::{Digest, Sha256};
    let de = std::fs::read(data("parallel/pud.de-en.de")).unwrap();
    let en = std::fs::read(data("parallel/pud.de-en.en")).unwrap();
    let page =
        b"<!DOCTYPE html>\n<html><head><title>Service unavailable</title></head></html>\n".to_vec();
    let mut zipped = std::io::Cursor::new(Vec::new());
    {
        let mut z = zip::ZipWriter::new(&mut zipped);
        let o = zip::write::SimpleFileOptions::default();
        z.start_file("a.de", o).unwrap();
        z.write_all(&de).unwrap();
        z.start_file("a.en", o).unwrap();
        z.write_all(&en).unwrap();
        z.finish().unwrap();
    }
    let zipped = zipped.into_inner();
    let zip_sha: String = Sha256::digest(&zipped)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let files = std::collections::HashMap::from([
        ("/html.de".to_string(), (None, page.clone())),
        ("/html.en".to_string(), (None, en.clone())),
        (
            "/typed.de".to_string(),
            (Some("text/html; charset=utf-8"), de.clone()),
        ),
        ("/typed.en".to_string(), (None, en.clone())),
        ("/c.zip".to_string(), (None, zipped)),
    ]);
    let base = serve_typed(files, 16);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("corpora");
    let corpora = |name: &str, corpus: &str| {
        let p = tmp.path().join(format!("{name}.toml"));
        std::fs::write(
            &p,
            format!("source = \"de\"\ntarget = \"en\"\nfiles = \"de-en\"\n[[corpus]]\n{corpus}"),
        )
        .unwrap();
        run(&[
            "corpora",
            "--pair",
            p.to_str().unwrap(),
            "--dir",
            dir.to_str().unwrap(),
            "-q",
        ])
    };
    for (name, why) in [("html", "HTML page"), ("typed", "Content-Type text/html")] {
        let o = corpora(
            name,
            &format!("name = \"{name}\"\nurl = \"{base}/{name}.{{lang}}\"\nformat = \"plain\"\n"),
        );
        assert_eq!(o.status.code(), Some(6), "{}", stderr(&o));
        assert!(stderr(&o).contains(why), "{name}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("{base}/{name}.")),
            "{}",
            stderr(&o)
        );
        assert_eq!(listing(&dir), Vec::<String>::new(), "{name}: nothing left");
    }
    let wrong = "0".repeat(64);
    let zip_corpus = |sha: &str| {
        format!(
            "name = \"z\"\nurl = \"{base}/c.zip\"\nformat = \"zip\"\nsha256 = \"{sha}\"\n\
             members = {{ de = \"a.de\", en = \"a.en\" }}\n"
        )
    };
    let o = corpora("wrong", &zip_corpus(&wrong));
    assert_eq!(o.status.code(), Some(6), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!(
            "SHA-256 mismatch: expected {wrong}, got {zip_sha}"
        )),
        "{}",
        stderr(&o)
    );
    assert_eq!(listing(&dir), Vec::<String>::new());
    // The published hash (upper case accepted): the corpus is written.
    let o = corpora("right", &zip_corpus(&zip_sha.to_uppercase()));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(listing(&dir), ["z.de-en.de.gz", "z.de-en.en.gz"]);
    assert_eq!(
        gunzip_lines(&dir.join("z.de-en.en.gz")),
        String::from_utf8(en).unwrap().lines().collect::<Vec<_>>()
    );
}
