//! Content-addressed cache of the analyses of tokenized lines: the references and outputs
//! that locus accuracy judges, tagged and parsed by the target language's model
//! ([`Parser::analyse`]) as the aligner tokenized them.
//!
//! One entry per batch of lines: `K.analyses.gz` in the cache directory, `K` the SHA-256 of
//! [`ANALYSES_FORMAT`], the model's SHA-256 and every line's tokens (tab-separated, one line
//! each), so the same lines and model hit whatever file they came from. The entry holds one
//! block per line — a row per token, `lemma TAB upos TAB xpos TAB feats TAB head TAB deprel`,
//! then an empty line — after a first line `# ldd-analyses LINES`. It is written whole or
//! not at all ([`ldd_io::AtomicFile`]); an entry that does not read back as the lines'
//! analyses (another count of lines or tokens, a malformed row) is analysed again and
//! replaced, never used.

use std::io::Write;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::error::{ParseError, Result};
use crate::{Parser, Tag};

/// Version of the entry format and of what the analyses are made of; part of every key.
pub const ANALYSES_FORMAT: &str = "ldd-analyses-v1/udpipe-1.4.1-dev";

/// A directory of analysed lines.
#[derive(Debug, Clone)]
pub struct AnalysisCache {
    dir: PathBuf,
}

/// The key of `lines` analysed by the model whose SHA-256 is `model_sha256`.
fn key(model_sha256: &str, lines: &[Vec<String>]) -> String {
    let mut h = Sha256::new();
    h.update(ANALYSES_FORMAT.as_bytes());
    h.update(b"\n");
    h.update(model_sha256.as_bytes());
    h.update(b"\n");
    for l in lines {
        for (k, t) in l.iter().enumerate() {
            if k > 0 {
                h.update(b"\t");
            }
            h.update(t.as_bytes());
        }
        h.update(b"\n");
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// A cell of a row: a tab or line break inside it as a space.
fn cell(text: &str) -> String {
    text.replace(['\t', '\n', '\r'], " ")
}

impl AnalysisCache {
    /// The cache in `dir` (created when an entry is first written).
    pub fn new(dir: impl Into<PathBuf>) -> AnalysisCache {
        AnalysisCache { dir: dir.into() }
    }

    /// The entry file of `lines` analysed by the model of SHA-256 `model_sha256`.
    pub fn path(&self, model_sha256: &str, lines: &[Vec<String>]) -> PathBuf {
        self.dir
            .join(format!("{}.analyses.gz", key(model_sha256, lines)))
    }

    /// The analyses of every line of `lines` (each a tokenized sentence) by `parser`, whose
    /// model file has SHA-256 `model_sha256`: read from the cache, else analysed in
    /// parallel (rayon's pool) and stored. `line_ids` name the lines in errors (the i-th
    /// line is `line_ids[i]`).
    pub fn get_or_analyse(
        &self,
        parser: &Parser,
        model_sha256: &str,
        lines: &[Vec<String>],
        line_ids: &[u64],
    ) -> Result<Vec<Vec<Tag>>> {
        let path = self.path(model_sha256, lines);
        if let Some(found) = read_entry(&path, lines) {
            return Ok(found);
        }
        let analysed = Self::analyse(parser, lines, line_ids)?;
        self.write_entry(&path, &analysed)?;
        Ok(analysed)
    }

    /// The analyses of every line of `lines` by `parser`, in parallel (rayon's pool),
    /// without the cache; `line_ids` name the lines in errors.
    pub fn analyse(
        parser: &Parser,
        lines: &[Vec<String>],
        line_ids: &[u64],
    ) -> Result<Vec<Vec<Tag>>> {
        lines
            .par_iter()
            .enumerate()
            .map(|(i, l)| {
                let toks: Vec<&str> = l.iter().map(String::as_str).collect();
                parser.analyse(&toks).map_err(|message| ParseError::Udpipe {
                    line: line_ids.get(i).copied().unwrap_or(i as u64 + 1),
                    message,
                })
            })
            .collect()
    }

    /// Writes an entry whole (a cache that cannot be written is not an error of the run:
    /// the analyses are returned all the same, and made again next time).
    fn write_entry(&self, path: &Path, analysed: &[Vec<Tag>]) -> Result<()> {
        if std::fs::create_dir_all(&self.dir).is_err() {
            return Ok(());
        }
        let Ok(mut file) = ldd_io::AtomicFile::create(path) else {
            return Ok(());
        };
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let mut text = format!("# ldd-analyses {}\n", analysed.len());
        for line in analysed {
            for t in line {
                text.push_str(&format!(
                    "{}\t{}\t{}\t{}\t{}\t{}\n",
                    cell(&t.lemma),
                    cell(&t.upos),
                    cell(&t.xpos),
                    cell(&t.feats),
                    t.head,
                    cell(&t.deprel)
                ));
            }
            text.push('\n');
        }
        let bytes = gz
            .write_all(text.as_bytes())
            .and_then(|()| gz.finish())
            .map_err(ParseError::Output)?;
        if file.write_all(&bytes).is_ok() {
            let _ = file.commit();
        }
        Ok(())
    }
}

/// The analyses an entry holds, when it reads back as those of `lines`.
fn read_entry(path: &Path, lines: &[Vec<String>]) -> Option<Vec<Vec<Tag>>> {
    if !path.is_file() {
        return None;
    }
    let rows = ldd_io::input::read_lines(path).ok()?;
    let mut rows = rows.into_iter().map(Ok::<String, ()>);
    let first = rows.next()?.ok()?;
    let count: usize = first.strip_prefix("# ldd-analyses ")?.parse().ok()?;
    if count != lines.len() {
        return None;
    }
    let mut out: Vec<Vec<Tag>> = Vec::with_capacity(count);
    let mut block = Vec::new();
    for row in rows {
        let row = row.ok()?;
        if row.is_empty() {
            out.push(std::mem::take(&mut block));
            continue;
        }
        let f: Vec<&str> = row.split('\t').collect();
        let [lemma, upos, xpos, feats, head, deprel] = f[..] else {
            return None;
        };
        block.push(Tag {
            lemma: lemma.into(),
            upos: upos.into(),
            xpos: xpos.into(),
            feats: feats.into(),
            head: head.parse().ok()?,
            deprel: deprel.into(),
        });
    }
    let whole = block.is_empty()
        && out.len() == lines.len()
        && out.iter().zip(lines).all(|(a, l)| a.len() == l.len());
    whole.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_the_lines_and_the_model() {
        let a = vec![vec!["Er".to_string(), "kam".into()]];
        let b = vec![vec!["Er kam".to_string()]];
        assert_ne!(key("m", &a), key("m", &b));
        assert_ne!(key("m", &a), key("n", &a));
        assert_eq!(key("m", &a), key("m", &a.clone()));
    }

    #[test]
    fn an_entry_is_used_only_when_it_is_the_lines_analyses() {
        let dir = tempfile::tempdir().unwrap();
        let cache = AnalysisCache::new(dir.path());
        let lines = vec![vec!["a".to_string(), "b".into()], vec![]];
        let tags = vec![
            vec![
                Tag {
                    lemma: "a".into(),
                    upos: "X".into(),
                    head: 0,
                    deprel: "root".into(),
                    ..Tag::default()
                },
                Tag {
                    lemma: "b b".into(),
                    head: 1,
                    deprel: "dep".into(),
                    ..Tag::default()
                },
            ],
            vec![],
        ];
        let path = cache.path("m", &lines);
        cache.write_entry(&path, &tags).unwrap();
        assert_eq!(read_entry(&path, &lines), Some(tags));
        // Another count of tokens: not these lines' analyses.
        let other = vec![vec!["a".to_string()], vec![]];
        assert_eq!(read_entry(&path, &other), None);
        // A damaged entry is not read.
        std::fs::write(&path, b"not gzip").unwrap();
        assert_eq!(read_entry(&path, &lines), None);
    }
}
