//! Challenge-set files: buckets, the per-set writer and the marked format.
//!
//! A set `OUT/<phenomenon>/<bucket>` is five line-aligned files: `.<src>` and
//! `.<tgt>` (the corpus lines as read, minus line terminator and BOM), `.ids`
//! (1-based corpus line numbers, ascending), `.conllu` (the source trees) and
//! `.marked.<src>` (the source tokens with the matched words marked, see [`mark`]).

use std::fmt;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::{Error, Result};
use crate::manifest::SetEntry;

/// A distance bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bucket {
    /// Pairs with distance at least `d` (`geD`).
    AtLeast(u32),
    /// Pairs with distance exactly `d` (`eqD`).
    Exactly(u32),
}

impl Bucket {
    /// All buckets up to `max`: `ge0..=geMax` then `eq0..=eqMax`.
    pub fn all(max: u32) -> Vec<Bucket> {
        (0..=max)
            .map(Bucket::AtLeast)
            .chain((0..=max).map(Bucket::Exactly))
            .collect()
    }

    /// Whether a pair at distance `d` belongs to this bucket.
    pub fn admits(self, d: u32) -> bool {
        match self {
            Bucket::AtLeast(k) => d >= k,
            Bucket::Exactly(k) => d == k,
        }
    }

    /// The minimum distance of the bucket.
    pub fn min_distance(self) -> u32 {
        match self {
            Bucket::AtLeast(k) | Bucket::Exactly(k) => k,
        }
    }
}

impl fmt::Display for Bucket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bucket::AtLeast(k) => write!(f, "ge{k}"),
            Bucket::Exactly(k) => write!(f, "eq{k}"),
        }
    }
}

/// Paths of a set's files, relative to the output directory.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct SetFiles {
    /// Source sentences.
    pub source: String,
    /// Target sentences.
    pub target: String,
    /// 1-based corpus line ids.
    pub ids: String,
    /// Source trees.
    pub conllu: String,
    /// Marked source tokens.
    pub marked: String,
    /// Marked target tokens (reorder sets only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub marked_target: Option<String>,
}

impl SetFiles {
    /// File names of set `dir/name` for the two languages.
    pub fn new(dir: &str, name: &str, src: &str, tgt: &str) -> SetFiles {
        let p = |ext: &str| format!("{dir}/{name}.{ext}");
        SetFiles {
            source: p(src),
            target: p(tgt),
            ids: p("ids"),
            conllu: p("conllu"),
            marked: p(&format!("marked.{src}")),
            marked_target: None,
        }
    }
}

/// Writes one set's five files and counts what it wrote.
pub struct SetWriter {
    root: PathBuf,
    files: SetFiles,
    out: [BufWriter<File>; 5],
    marked_target: Option<BufWriter<File>>,
    /// Sentences written.
    pub sentences: u64,
    /// Matched pairs over those sentences.
    pub pairs: u64,
    /// Sum of the source lengths (words) of those sentences.
    pub source_words: u64,
}

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
    /// Source length in words.
    pub words: u64,
}

impl SetWriter {
    /// Creates the (empty) files of a set under `root`.
    pub fn create(root: &Path, files: SetFiles) -> Result<SetWriter> {
        let open = |rel: &str| -> Result<BufWriter<File>> {
            let path = root.join(rel);
            if let Some(dir) = path.parent() {
                fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
            }
            let f = File::create(&path).map_err(|e| Error::io(&path, e))?;
            Ok(BufWriter::with_capacity(1 << 14, f))
        };
        let out = [
            open(&files.source)?,
            open(&files.target)?,
            open(&files.ids)?,
            open(&files.conllu)?,
            open(&files.marked)?,
        ];
        let marked_target = match &files.marked_target {
            Some(f) => Some(open(f)?),
            None => None,
        };
        Ok(SetWriter {
            marked_target,
            root: root.to_path_buf(),
            files,
            out,
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
    pub fn write(&mut self, e: &Entry<'_>) -> Result<()> {
        let res = (|| -> std::io::Result<()> {
            writeln!(self.out[0], "{}", e.source)?;
            writeln!(self.out[1], "{}", e.target)?;
            writeln!(self.out[2], "{}", e.id)?;
            self.out[3].write_all(e.conllu.as_bytes())?;
            writeln!(self.out[4], "{}", e.marked)?;
            if let (Some(w), Some(m)) = (&mut self.marked_target, e.marked_target) {
                writeln!(w, "{m}")?;
            }
            Ok(())
        })();
        res.map_err(|err| Error::io(&self.root.join(&self.files.source), err))?;
        self.sentences += 1;
        self.pairs += e.pairs;
        self.source_words += e.words;
        Ok(())
    }

    /// Flushes all files and describes the set for the manifest.
    pub fn finish(
        mut self,
        kind: &'static str,
        phenomenon: &str,
        bucket: Bucket,
    ) -> Result<SetEntry> {
        for w in self.out.iter_mut().chain(self.marked_target.as_mut()) {
            w.flush()
                .map_err(|e| Error::io(&self.root.join(&self.files.source), e))?;
        }
        let sentences = self.sentences;
        Ok(SetEntry {
            kind,
            phenomenon: phenomenon.to_string(),
            bucket: bucket.to_string(),
            min_distance: bucket.min_distance(),
            exact: matches!(bucket, Bucket::Exactly(_)),
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

/// Renders tokens with marks. `marks[k]` lists, for word id `k + 1`, the tags it
/// carries (e.g. `d1`, `h1`): a token is written as `<d1>form</d1>`, tags nested in
/// list order. A multiword token carries the tags of all its words. Tokens are
/// joined by single spaces.
pub fn mark(tokens: &[(String, u32, u32)], marks: &[Vec<String>]) -> String {
    let mut s = String::new();
    for (i, (form, first, last)) in tokens.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let tags: Vec<&String> = (*first..=*last)
            .filter_map(|id| marks.get(id as usize - 1))
            .flatten()
            .collect();
        for t in &tags {
            s.push('<');
            s.push_str(t);
            s.push('>');
        }
        s.push_str(form);
        for t in tags.iter().rev() {
            s.push_str("</");
            s.push_str(t);
            s.push('>');
        }
    }
    s
}
