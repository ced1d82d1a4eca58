//! Stage 0, **fetch**: `ldd-sets corpora` — download a pair's corpora and normalise them.
//!
//! What enters: a pair's config (its corpora's URLs, archive members, SHA-256) and a
//! directory. What leaves: `DIR/<name>.<files>.<lang>.gz`, the corpus files every later
//! stage reads.
//!
//! Each corpus of `config/pairs/<pair>.toml` is downloaded (zip, tar.gz, or one plain
//! or gzip file per language with `{lang}` in the URL), its two sides are taken from
//! the archive members named in the config, and written as
//! `DIR/<name>.<files>.<lang>.gz`: UTF-8 checked, BOM and `\r` removed, one sentence
//! per line, both sides with the same number of lines. Downloads are verified before use
//! (`ldd_io::download`): an HTML page (an error or login page) is rejected, and so is a
//! file whose SHA-256 differs from the config's `sha256`. Files are written under a
//! temporary name and renamed when complete; a corpus that fails leaves none of its files
//! behind; corpora already present are skipped.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use flate2::write::GzEncoder;
use ldd_io::{AtomicFile, Input};

use crate::config::{CorpusSpec, Pair};
use crate::error::{Error, Result};

/// Downloads and normalises every corpus of `pair` into `dir`; returns the files.
pub fn fetch_corpora(pair: &Pair, dir: &Path, quiet: bool) -> Result<Vec<PathBuf>> {
    ldd_io::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for c in &pair.corpus {
        let langs = [pair.source.as_str(), pair.target.as_str()];
        let finals: Vec<PathBuf> = langs
            .iter()
            .map(|l| crate::layout::corpus_side(dir, &c.name, &pair.files, l))
            .collect();
        if finals.iter().all(|p| p.is_file()) {
            if !quiet {
                eprintln!("ldd-sets: {} already present in {}", c.name, dir.display());
            }
            written.extend(finals);
            continue;
        }
        // One side there without the other: not something `corpora` leaves (unless killed
        // between its two renames); never replaced or removed, since it may be the user's.
        if let Some(there) = finals.iter().find(|p| ldd_io::fs::kind(p).is_some()) {
            return Err(Error::Config(format!(
                "{}: exists, but the other side of corpus {} does not; ldd-sets does not \
                 replace a file it may not have written — move it away and run `corpora` again",
                ldd_io::text::shown(there),
                ldd_io::text::escape(&c.name)
            )));
        }
        // Both sides or neither: they are moved into place together (also when stopped by
        // a signal), and a failure keeps no side.
        let counts = fetch_one(c, dir, &langs, &finals, quiet)?;
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

/// Downloads one corpus and writes its two sides, moved into place together
/// ([`AtomicFile::commit_together`]); returns their line counts.
fn fetch_one(
    c: &CorpusSpec,
    dir: &Path,
    langs: &[&str; 2],
    finals: &[PathBuf],
    quiet: bool,
) -> Result<[u64; 2]> {
    let mut counts = [0u64; 2];
    let mut sides = Vec::new();
    match c.format.as_str() {
        "zip" | "tgz" => {
            let temp = dir.join(format!("{}.download", c.name));
            let archive = download(&c.url, &temp, c.sha256_for(None), quiet)?;
            for (k, (lang, fin)) in langs.iter().zip(finals).enumerate() {
                let member = member(c, lang)?;
                let (side, n) = if c.format == "zip" {
                    from_zip(archive.path(), member, fin)?
                } else {
                    from_tgz(archive.path(), member, fin)?
                };
                sides.push(side);
                counts[k] = n;
            }
        }
        "plain" => {
            for (k, (lang, fin)) in langs.iter().zip(finals).enumerate() {
                let url = c.url.replace("{lang}", lang);
                let temp = dir.join(format!("{}.{lang}.download", c.name));
                let file = download(&url, &temp, c.sha256_for(Some(lang)), quiet)?;
                let (side, n) = normalise(Input::open(file.path())?, fin)?;
                sides.push(side);
                counts[k] = n;
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
        return Err(Error::Data(format!(
            "corpus `{}` from {}: the {} side has {} lines but the {} side has {}",
            c.name, c.url, langs[0], counts[0], langs[1], counts[1]
        )));
    }
    AtomicFile::commit_together(sides)?;
    Ok(counts)
}

fn member<'a>(c: &'a CorpusSpec, lang: &str) -> Result<&'a str> {
    c.members.get(lang).map(String::as_str).ok_or_else(|| {
        Error::Config(format!(
            "corpus `{}`: no archive member for language `{lang}` in `members`",
            c.name
        ))
    })
}

/// The most bytes a corpus download may have.
pub const MAX_CORPUS_BYTES: u64 = 16 << 30;

/// Downloads `url` into a hidden temporary file beside `temp` (never persisted), verified
/// (not an HTML page; `sha256` when given); the file is removed when the returned value is
/// dropped.
fn download(
    url: &str,
    temp: &Path,
    sha256: Option<&str>,
    quiet: bool,
) -> Result<ldd_io::download::Download> {
    if !quiet {
        eprintln!("ldd-sets: downloading {url}");
    }
    let expect = ldd_io::download::Expect {
        sha256,
        size: None,
        max_bytes: MAX_CORPUS_BYTES,
    };
    ldd_io::download::download(url, temp, &expect).map_err(|e| {
        Error::Resource(format!(
            "could not download {url}: {e}\n(offline? put the corpus files, named \
             <name>.<pair>.<lang>[.gz], in a directory and pass CORPORA=DIR / --corpora DIR)"
        ))
    })
}

fn from_zip(archive: &Path, member: &str, fin: &Path) -> Result<(AtomicFile, u64)> {
    let f = ldd_io::fs::open_raw(archive)?;
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
    normalise(input, fin)
}

fn from_tgz(archive: &Path, member: &str, fin: &Path) -> Result<(AtomicFile, u64)> {
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

/// Writes the lines of `input` (plain or gzip) as gzip to a temporary file for `fin`;
/// returns it, complete but not yet in place, and the number of lines.
fn normalise<R: Read>(mut input: Input<R>, fin: &Path) -> Result<(AtomicFile, u64)> {
    let mut w = GzEncoder::new(AtomicFile::create(fin)?, flate2::Compression::default());
    while let Some(line) = input.next_line()? {
        w.write_all(line.as_bytes())
            .and_then(|_| w.write_all(b"\n"))
            .map_err(|e| Error::io(fin, e))?;
    }
    let file = w.finish().map_err(|e| Error::io(fin, e))?;
    Ok((file, input.line_no()))
}
