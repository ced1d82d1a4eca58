//! Challenge-set files: the per-set writer ([`SetWriter`]), the writers of every lexical set
//! of a run ([`SetWriters`]), and what the manifest says of each set.
//!
//! A set `OUT/<phenomenon>/<bucket>` is five line-aligned files: `.<src>` and `.<tgt>`
//! (the corpus lines as read, minus line terminator and BOM), `.ids` (1-based corpus line
//! numbers, ascending), `.conllu` (the source trees) and `.marked.<src>` (the source
//! tokens with the matched words marked, see [`crate::format::marked`]); reorder sets also
//! have `.marked.<tgt>`. Beside them, `.locus.tsv` has a row per locus
//! ([`crate::format::locus`]).
//!
//! A [`SetWriter`] holds no open file: it buffers each file's text and appends it to the
//! file when the buffer is full (and at the end), so any number of sets can be written
//! under the common limit of 1,024 open files.

use std::path::{Path, PathBuf};

use crate::error::Result;
use crate::format::locus::{self, Locus};
use crate::format::marked::mark_pairs;
use crate::format::sets::{SetEntry, SetFiles, SetKind};
use crate::pipeline::bucket::Bucket;
use crate::pipeline::detect::line::Detected;
use crate::pipeline::detect::rules::RuleSet;
use crate::pipeline::read::lockstep::Line;

/// Bytes buffered per file before they are appended to it.
const FLUSH_BYTES: usize = 1 << 16;

/// One selected sentence, ready to be written to a set.
pub struct Entry<'a> {
    /// 1-based corpus line number.
    pub id: u64,
    /// Source line.
    pub source: &'a str,
    /// Target line.
    pub target: &'a str,
    /// CoNLL-U text of the tree (ends with a blank line).
    pub conllu: &'a str,
    /// The marked source line.
    pub marked: &'a str,
    /// The marked target line (reorder sets only).
    pub marked_target: Option<&'a str>,
    /// Pairs that qualify the sentence for this set.
    pub pairs: u64,
    /// The locus rows of the sentence (its qualifying pairs or marked links).
    pub loci: &'a [Locus],
    /// Source length in words.
    pub words: u64,
}

/// Writes one set's files and counts what it wrote.
pub struct SetWriter {
    root: PathBuf,
    files: SetFiles,
    /// Text not yet appended, one buffer per file of [`SetFiles::all`].
    pending: Vec<Vec<u8>>,
    /// Locus rows not yet appended (the header first).
    locus_pending: Vec<u8>,
    sentences: u64,
    pairs: u64,
    source_words: u64,
}

impl SetWriter {
    /// Creates the (empty) files of a set under `root`.
    pub fn create(root: &Path, files: SetFiles) -> Result<SetWriter> {
        for rel in files.all() {
            let path = root.join(rel);
            ldd_io::fs::create_parent(&path)?;
            ldd_io::fs::create_new(&path)?;
        }
        let mut locus_pending = Vec::new();
        if let Some(rel) = &files.locus {
            ldd_io::fs::create_new(&root.join(rel))?;
            locus_pending.extend_from_slice(locus::HEADER.as_bytes());
            locus_pending.push(b'\n');
        }
        Ok(SetWriter {
            pending: vec![Vec::new(); files.all().len()],
            locus_pending,
            root: root.to_path_buf(),
            files,
            sentences: 0,
            pairs: 0,
            source_words: 0,
        })
    }

    /// The set's file names.
    pub fn files(&self) -> &SetFiles {
        &self.files
    }

    /// Appends one sentence to every file of the set.
    pub fn write(&mut self, entry: &Entry<'_>) -> Result<()> {
        let mut itoa = itoa::Buffer::new();
        let fields: [&[u8]; 5] = [
            entry.source.as_bytes(),
            entry.target.as_bytes(),
            itoa.format(entry.id).as_bytes(),
            entry.conllu.as_bytes(),
            entry.marked.as_bytes(),
        ];
        for (k, f) in fields.iter().enumerate() {
            self.pending[k].extend_from_slice(f);
            if k != 3 {
                self.pending[k].push(b'\n');
            }
        }
        if let (Some(buf), Some(m)) = (self.pending.get_mut(5), entry.marked_target) {
            buf.extend_from_slice(m.as_bytes());
            buf.push(b'\n');
        }
        if self.files.locus.is_some() {
            for l in entry.loci {
                self.locus_pending.extend_from_slice(l.row().as_bytes());
                self.locus_pending.push(b'\n');
            }
        }
        self.sentences += 1;
        self.pairs += entry.pairs;
        self.source_words += entry.words;
        if self.locus_pending.len() >= FLUSH_BYTES
            || self.pending.iter().any(|b| b.len() >= FLUSH_BYTES)
        {
            self.flush()?;
        }
        Ok(())
    }

    /// Appends the buffered text to the files.
    fn flush(&mut self) -> Result<()> {
        let names: Vec<String> = self.files.all().into_iter().map(String::from).collect();
        for (rel, buf) in names.iter().zip(self.pending.iter_mut()) {
            if buf.is_empty() {
                continue;
            }
            let path = self.root.join(rel);
            ldd_io::fs::append(&path, buf)?;
            buf.clear();
        }
        if let (Some(rel), false) = (&self.files.locus, self.locus_pending.is_empty()) {
            ldd_io::fs::append(&self.root.join(rel), &self.locus_pending)?;
            self.locus_pending.clear();
        }
        Ok(())
    }

    /// Writes what is buffered and describes the set for the manifest.
    pub fn finish(mut self, kind: SetKind, phenomenon: &str, bucket: Bucket) -> Result<SetEntry> {
        self.flush()?;
        let sentences = self.sentences;
        Ok(SetEntry {
            kind,
            phenomenon: phenomenon.to_string(),
            bucket: bucket.to_string(),
            min_distance: bucket.min_distance(),
            exact: bucket.is_exact(),
            sentences,
            pairs: self.pairs,
            mean_source_words: if sentences == 0 {
                0.0
            } else {
                self.source_words as f64 / sentences as f64
            },
            files: self.files,
        })
    }
}

/// The writers of every lexical set: one row per phenomenon of the rules, one writer per
/// bucket.
pub struct SetWriters {
    buckets: Vec<Bucket>,
    rows: Vec<(String, Vec<SetWriter>)>,
}

impl SetWriters {
    /// Creates the (empty) files of every set of `rules` under `root`, named for the
    /// languages `(source, target)`.
    pub fn create(root: &Path, rules: &RuleSet, (src, tgt): (&str, &str)) -> Result<SetWriters> {
        let buckets = Bucket::all(rules.max_distance);
        let mut rows = Vec::new();
        for p in &rules.phenomena {
            let mut row = Vec::new();
            for b in &buckets {
                let files = SetFiles::new(&p.name, &b.to_string(), src, tgt);
                row.push(SetWriter::create(root, files)?);
            }
            rows.push((p.name.clone(), row));
        }
        Ok(SetWriters { buckets, rows })
    }

    /// Writes corpus line `id` (`line`, with what detection found in it, `detected`) to every set
    /// it qualifies for.
    pub fn write(&mut self, line: &Line, id: u64, detected: &Detected) -> Result<()> {
        for (pi, (_, row)) in self.rows.iter_mut().enumerate() {
            for (b, w) in self.buckets.iter().zip(row.iter_mut()) {
                let q = b.qualifying(&detected.matches, pi);
                if q.is_empty() {
                    continue;
                }
                let pairs: Vec<(u32, u32)> = q.iter().map(|m| (m.dependent, m.head)).collect();
                let marked = mark_pairs(&detected.tokens, detected.words as usize, &pairs);
                let loci = crate::pipeline::detect::locus::lexical(id, &q, &detected.forms, None);
                w.write(&Entry {
                    id,
                    source: &line.source,
                    target: &line.target,
                    conllu: &detected.conllu,
                    marked: &marked,
                    marked_target: None,
                    pairs: q.len() as u64,
                    loci: &loci,
                    words: u64::from(detected.words),
                })?;
            }
        }
        Ok(())
    }

    /// Writes what is buffered and describes every set for the manifest, by phenomenon,
    /// then bucket.
    pub fn finish(self) -> Result<Vec<SetEntry>> {
        let mut written = Vec::new();
        for (p, row) in self.rows {
            for (b, w) in self.buckets.iter().zip(row) {
                written.push(w.finish(SetKind::Lexical, &p, *b)?);
            }
        }
        Ok(written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A write error names the file that failed, not the set's first file.
    #[test]
    fn errors_name_the_file_that_failed() {
        let dir = tempfile::tempdir().unwrap();
        let files = SetFiles::new("p", "ge1", "de", "en");
        let mut w = SetWriter::create(dir.path(), files).unwrap();
        // Make the ids file impossible to append to.
        let ids = dir.path().join("p/ge1.ids");
        std::fs::remove_file(&ids).unwrap();
        std::fs::create_dir(&ids).unwrap();
        w.write(&Entry {
            id: 1,
            source: "a",
            target: "b",
            conllu: "1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n\n",
            marked: "a",
            marked_target: None,
            pairs: 1,
            loci: &[],
            words: 1,
        })
        .unwrap();
        let e = w
            .finish(SetKind::Lexical, "p", Bucket::AtLeast(1))
            .unwrap_err();
        assert!(e.to_string().contains("p/ge1.ids"), "{e}");
        assert!(std::fs::read_to_string(dir.path().join("p/ge1.de")).unwrap() == "a\n");
    }
}
