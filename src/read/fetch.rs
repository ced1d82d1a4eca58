//! `ldd-sets corpora`: download a pair's corpora and normalise them.
//!
//! Each corpus of `config/pairs/<pair>.toml` is downloaded (zip, tar.gz, or one plain
//! or gzip file per language with `{lang}` in the URL), its two sides are taken from
//! the archive members named in the config, and written as
//! `DIR/<name>.<files>.<lang>.gz`: UTF-8 checked, BOM and `\r` removed, one sentence
//! per line, both sides with the same number of lines. Files are written under a
//! temporary name and renamed when complete; corpora already present are skipped.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use flate2::write::GzEncoder;
use ldd_io::{AtomicFile, Input};

use crate::config::{CorpusSpec, Pair};
use crate::error::{Error, Result};

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
                    counts.push(normalise(Input::open(&tmp)?, fin)?);
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

/// Downloads `url` to `dest` (all-or-nothing).
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
    let mut f = AtomicFile::create(dest)?;
    io::copy(&mut body, &mut f).map_err(|e| fail(e.to_string()))?;
    f.commit()?;
    Ok(())
}

fn from_zip(archive: &Path, member: &str, fin: &Path) -> Result<u64> {
    let f = File::open(archive).map_err(|e| Error::io(archive, e))?;
    let mut z = zip::ZipArchive::new(f).map_err(|e| {
        Error::Data(format!(
            "{}: not a zip archive: {e}",
            ldd_io::text::shown(archive)
        ))
    })?;
    let entry = z.by_name(member).map_err(|e| {
        Error::Data(format!(
            "{}: no member `{member}`: {e}",
            ldd_io::text::shown(archive)
        ))
    })?;
    let input = Input::from_reader(Path::new(member), entry)?;
    let lines = normalise(input, fin)?;
    Ok(lines)
}

fn from_tgz(archive: &Path, member: &str, fin: &Path) -> Result<u64> {
    let mut tar = tar::Archive::new(Input::open(archive)?);
    let bad = |e: io::Error| {
        Error::Data(format!(
            "{}: not a tar.gz archive: {e}",
            ldd_io::text::shown(archive)
        ))
    };
    for entry in tar.entries().map_err(bad)? {
        let entry = entry.map_err(bad)?;
        let path = entry.path().map_err(bad)?.to_string_lossy().into_owned();
        if path.trim_start_matches("./") == member {
            return normalise(Input::from_reader(Path::new(member), entry)?, fin);
        }
    }
    Err(Error::Data(format!(
        "{}: no member `{member}`",
        ldd_io::text::shown(archive)
    )))
}

/// Writes the lines of `input` (plain or gzip) to `fin` as gzip; returns the lines.
fn normalise<R: Read>(mut input: Input<R>, fin: &Path) -> Result<u64> {
    let mut w = GzEncoder::new(AtomicFile::create(fin)?, flate2::Compression::default());
    while let Some(line) = input.next_line()? {
        w.write_all(line.as_bytes())
            .and_then(|_| w.write_all(b"\n"))
            .map_err(|e| Error::io(fin, e))?;
    }
    w.finish().map_err(|e| Error::io(fin, e))?.commit()?;
    Ok(input.line_no())
}
