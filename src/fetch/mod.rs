//! Stage **fetch**: `ldd-sets corpora` — download a pair's corpora and normalise them.
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
//!
//! In short (what enters → what leaves): a pair's config → its corpora downloaded, verified
//! and normalised into `<name>.<files>.<lang>.gz` (`corpora`)

use std::path::{Path, PathBuf};

use ldd_io::message::say;
use ldd_io::{gzip_lines, gzip_member, Archive, AtomicFile, Input};

use crate::config::{CorpusSpec, Pair};
use crate::error::{Error, Result};

/// Downloads and normalises every corpus of `pair` into `dir`; returns the files. A `dir`
/// that does not exist yet is made whole or not at all: the corpora go into a staging
/// directory beside it, moved into place once every one of them is there, so that a
/// failed download leaves no `dir` behind (and `make extract`, which downloads when `dir`
/// is missing, downloads again). Into an existing `dir`, each corpus is added whole (both
/// sides or neither).
pub fn fetch_corpora(pair: &Pair, dir: &Path, quiet: bool) -> Result<Vec<PathBuf>> {
    if ldd_io::fs::kind(dir).is_some() {
        return fetch_into(pair, dir, dir, quiet);
    }
    let staging = ldd_io::Staging::new(dir, &|_| false, &[])?;
    let staged = fetch_into(pair, staging.path(), dir, quiet)?;
    staging.commit(&|_| false)?;
    Ok(staged
        .iter()
        .filter_map(|p| p.file_name().map(|n| dir.join(n)))
        .collect())
}

/// [`fetch_corpora`] into the existing directory `into` (`dir` in messages: where the
/// corpora end up).
fn fetch_into(pair: &Pair, into: &Path, dir: &Path, quiet: bool) -> Result<Vec<PathBuf>> {
    ldd_io::fs::create_dir_all(into)?;
    let mut written = Vec::new();
    for job in plan(pair, into)? {
        if job.present {
            if !quiet {
                say(&format!(
                    "ldd-sets: {} already present in {}",
                    job.name,
                    dir.display()
                ));
            }
        } else {
            // Both sides or neither: they are moved into place together (also when stopped
            // by a signal), and a failure keeps no side.
            let lines = job.fetch(quiet)?;
            if !quiet {
                say(&format!(
                    "ldd-sets: {}: {lines} line pairs in {}",
                    job.name,
                    dir.display()
                ));
            }
        }
        written.extend(job.finals);
    }
    Ok(written)
}

/// One corpus to fetch: its config, its languages and the two files it becomes.
struct Job<'a> {
    name: &'a str,
    spec: &'a CorpusSpec,
    langs: [&'a str; 2],
    dir: &'a Path,
    finals: [PathBuf; 2],
    /// Both files are there already.
    present: bool,
}

/// What fetching `pair`'s corpora into `dir` does, corpus by corpus. One side there without
/// the other is not something `corpora` leaves (unless killed between its two renames), and
/// never replaced or removed, since it may be the user's: refused before any download.
fn plan<'a>(pair: &'a Pair, dir: &'a Path) -> Result<Vec<Job<'a>>> {
    let langs = [pair.source.as_str(), pair.target.as_str()];
    let mut jobs = Vec::new();
    for c in &pair.corpus {
        let finals = langs.map(|l| crate::layout::corpus_side(dir, &c.name, &pair.files, l));
        let present = finals.iter().all(|p| p.is_file());
        if !present {
            if let Some(there) = finals.iter().find(|p| ldd_io::fs::kind(p).is_some()) {
                // (Corpus names are checked file names: nothing to escape.)
                return Err(Error::Config(format!(
                    "{}: exists, but the other side of corpus {} does not; ldd-sets does not \
                     replace a file it may not have written — move it away and run `corpora` again",
                    ldd_io::error::shown(there),
                    c.name
                )));
            }
        }
        jobs.push(Job {
            name: &c.name,
            spec: c,
            langs,
            dir,
            finals,
            present,
        });
    }
    Ok(jobs)
}

impl Job<'_> {
    /// Downloads the corpus and writes its two sides, moved into place together
    /// ([`AtomicFile::commit_together`]); returns their line count.
    fn fetch(&self, quiet: bool) -> Result<u64> {
        let c = self.spec;
        let format = match c.format.as_str() {
            "zip" => Unpack::Zip,
            "tgz" => Unpack::Tgz,
            "plain" => Unpack::Plain,
            other => {
                return Err(Error::Config(format!(
                    "corpus `{}`: unknown format `{other}` (zip, tgz or plain)",
                    c.name
                )))
            }
        };
        // An archive holds both sides; a plain corpus is a file per side ({lang} in its URL).
        let urls: Vec<(String, Option<&str>, PathBuf)> = match format {
            Unpack::Plain => self
                .langs
                .iter()
                .map(|l| {
                    let temp = self.dir.join(format!("{}.{l}.download", c.name));
                    (c.url.replace("{lang}", l), Some(*l), temp)
                })
                .collect(),
            _ => vec![(
                c.url.clone(),
                None,
                self.dir.join(format!("{}.download", c.name)),
            )],
        };
        let mut files = Vec::new();
        for (url, lang, temp) in &urls {
            files.push(download(url, temp, c.sha256_for(*lang), quiet)?);
        }
        let mut sides = Vec::new();
        let mut counts = [0u64; 2];
        for (k, (lang, fin)) in self.langs.iter().zip(&self.finals).enumerate() {
            let file = files[k.min(files.len() - 1)].path();
            let (side, n) = match format {
                Unpack::Zip => gzip_member(file, Archive::Zip, member(c, lang)?, fin)?,
                Unpack::Tgz => gzip_member(file, Archive::Tgz, member(c, lang)?, fin)?,
                Unpack::Plain => gzip_lines(Input::open(file)?, fin)?,
            };
            sides.push(side);
            counts[k] = n;
        }
        if counts[0] != counts[1] {
            return Err(Error::Data(format!(
                "corpus `{}` from {}: the {} side has {} lines but the {} side has {}",
                c.name, c.url, self.langs[0], counts[0], self.langs[1], counts[1]
            )));
        }
        AtomicFile::commit_together(sides)?;
        Ok(counts[0])
    }
}

/// How a corpus download becomes its two sides.
#[derive(Clone, Copy)]
enum Unpack {
    /// A zip archive with a member per side.
    Zip,
    /// A tar.gz archive with a member per side.
    Tgz,
    /// A plain or gzip file per side.
    Plain,
}

fn member<'a>(spec: &'a CorpusSpec, lang: &str) -> Result<&'a str> {
    spec.members.get(lang).map(String::as_str).ok_or_else(|| {
        Error::Config(format!(
            "corpus `{}`: no archive member for language `{lang}` in `members`",
            spec.name
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
        say(&format!("ldd-sets: downloading {url}"));
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
