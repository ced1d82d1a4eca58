//! `ldd-sets corpora`: download a pair's corpora and normalise them.
//!
//! Each corpus of `config/pairs/<pair>.toml` is downloaded (zip, tar.gz, or one plain
//! or gzip file per language with `{lang}` in the URL), its two sides are taken from
//! the archive members named in the config, and written as
//! `DIR/<name>.<files>.<lang>.gz`: UTF-8 checked, BOM and `\r` removed, one sentence
//! per line, both sides with the same number of lines. Files are written under a
//! temporary name and renamed when complete; corpora already present are skipped.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;

use crate::error::{Error, Result};
use crate::pairs::{CorpusSpec, Pair};

/// Downloads and normalises every corpus of `pair` into `dir`; returns the files.
pub fn fetch_corpora(pair: &Pair, dir: &Path, quiet: bool) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut written = Vec::new();
    for c in &pair.corpus {
        let langs = [pair.source.as_str(), pair.target.as_str()];
        let finals: Vec<PathBuf> = langs
            .iter()
            .map(|l| dir.join(format!("{}.{}.{l}.gz", c.name, pair.files)))
            .collect();
        if finals.iter().all(|p| p.is_file()) {
            if !quiet {
                eprintln!("ldd-sets: {} already present in {}", c.name, dir.display());
            }
            written.extend(finals);
            continue;
        }
        let mut counts = Vec::new();
        match c.format.as_str() {
            "zip" | "tgz" => {
                let archive = dir.join(format!(".{}.download", c.name));
                download(&c.url, &archive, quiet)?;
                for (lang, fin) in langs.iter().zip(&finals) {
                    let member = member(c, lang)?;
                    let n = if c.format == "zip" {
                        from_zip(&archive, member, fin)?
                    } else {
                        from_tgz(&archive, member, fin)?
                    };
                    counts.push(n);
                }
                let _ = std::fs::remove_file(&archive);
            }
            "plain" => {
                for (lang, fin) in langs.iter().zip(&finals) {
                    let url = c.url.replace("{lang}", lang);
                    let tmp = dir.join(format!(".{}.{lang}.download", c.name));
                    download(&url, &tmp, quiet)?;
                    let f = File::open(&tmp).map_err(|e| Error::io(&tmp, e))?;
                    counts.push(normalise(f, &url, fin)?);
                    let _ = std::fs::remove_file(&tmp);
                }
            }
            other => {
                return Err(Error::Config(format!(
                    "corpus `{}`: unknown format `{other}` (zip, tgz or plain)",
                    c.name
                )))
            }
        }
        if counts[0] != counts[1] {
            for f in &finals {
                let _ = std::fs::remove_file(f);
            }
            return Err(Error::Data(format!(
                "corpus `{}` from {}: the {} side has {} lines but the {} side has {}",
                c.name, c.url, langs[0], counts[0], langs[1], counts[1]
            )));
        }
        if !quiet {
            eprintln!(
                "ldd-sets: {}: {} line pairs in {}",
                c.name,
                counts[0],
                dir.display()
            );
        }
        written.extend(finals);
    }
    Ok(written)
}

fn member<'a>(c: &'a CorpusSpec, lang: &str) -> Result<&'a str> {
    c.members.get(lang).map(String::as_str).ok_or_else(|| {
        Error::Config(format!(
            "corpus `{}`: no archive member for language `{lang}` in `members`",
            c.name
        ))
    })
}

/// Downloads `url` to `dest` (via a temporary file).
fn download(url: &str, dest: &Path, quiet: bool) -> Result<()> {
    if !quiet {
        eprintln!("ldd-sets: downloading {url}");
    }
    let fail = |e: String| {
        Error::Resource(format!(
            "could not download {url}: {e}\n(offline? put the corpus files, named \
             <name>.<pair>.<lang>[.gz], in a directory and pass CORPORA=DIR / --corpora DIR)"
        ))
    };
    let resp = ureq::get(url).call().map_err(|e| fail(e.to_string()))?;
    let mut body = resp.into_body().into_reader();
    let tmp = dest.with_extension("part");
    let mut f = File::create(&tmp).map_err(|e| Error::io(&tmp, e))?;
    io::copy(&mut body, &mut f).map_err(|e| fail(e.to_string()))?;
    f.sync_all().map_err(|e| Error::io(&tmp, e))?;
    std::fs::rename(&tmp, dest).map_err(|e| Error::io(dest, e))
}

fn from_zip(archive: &Path, member: &str, fin: &Path) -> Result<u64> {
    let f = File::open(archive).map_err(|e| Error::io(archive, e))?;
    let mut z = zip::ZipArchive::new(f)
        .map_err(|e| Error::Data(format!("{}: not a zip archive: {e}", archive.display())))?;
    let entry = z
        .by_name(member)
        .map_err(|e| Error::Data(format!("{}: no member `{member}`: {e}", archive.display())))?;
    normalise(entry, member, fin)
}

fn from_tgz(archive: &Path, member: &str, fin: &Path) -> Result<u64> {
    let f = File::open(archive).map_err(|e| Error::io(archive, e))?;
    let mut tar = tar::Archive::new(MultiGzDecoder::new(BufReader::new(f)));
    let bad =
        |e: io::Error| Error::Data(format!("{}: not a tar.gz archive: {e}", archive.display()));
    for entry in tar.entries().map_err(bad)? {
        let entry = entry.map_err(bad)?;
        let path = entry.path().map_err(bad)?.to_string_lossy().into_owned();
        if path.trim_start_matches("./") == member {
            return normalise(entry, member, fin);
        }
    }
    Err(Error::Data(format!(
        "{}: no member `{member}`",
        archive.display()
    )))
}

/// Writes `input` (plain or gzip) to `fin` as gzip, line by line; returns the lines.
fn normalise(input: impl Read, name: &str, fin: &Path) -> Result<u64> {
    let mut r = BufReader::new(input);
    let gz = r
        .fill_buf()
        .map(|b| b.starts_with(&[0x1f, 0x8b]))
        .unwrap_or(false);
    let mut r: Box<dyn BufRead> = if gz {
        Box::new(BufReader::new(MultiGzDecoder::new(r)))
    } else {
        Box::new(r)
    };
    let tmp = fin.with_extension("gz.tmp");
    let out = File::create(&tmp).map_err(|e| Error::io(&tmp, e))?;
    let mut w = GzEncoder::new(io::BufWriter::new(out), flate2::Compression::default());
    let mut buf = Vec::new();
    let mut n = 0u64;
    let src = Path::new(name);
    loop {
        buf.clear();
        if r.read_until(b'\n', &mut buf)
            .map_err(|e| Error::io(src, e))?
            == 0
        {
            break;
        }
        n += 1;
        while matches!(buf.last(), Some(b'\n' | b'\r')) {
            buf.pop();
        }
        let mut line: &[u8] = &buf;
        if n == 1 {
            line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        }
        if let Err(e) = std::str::from_utf8(line) {
            let _ = std::fs::remove_file(&tmp);
            return Err(Error::input(
                src,
                n,
                format!("invalid UTF-8 at byte {} of the line", e.valid_up_to() + 1),
            ));
        }
        w.write_all(line)
            .and_then(|_| w.write_all(b"\n"))
            .map_err(|e| Error::io(&tmp, e))?;
    }
    let out = w.finish().map_err(|e| Error::io(&tmp, e))?;
    out.into_inner()
        .map_err(|e| Error::io(&tmp, e.into_error()))?
        .sync_all()
        .map_err(|e| Error::io(&tmp, e))?;
    std::fs::rename(&tmp, fin).map_err(|e| Error::io(fin, e))?;
    Ok(n)
}
