//! Source, target and CoNLL-U read in lockstep: line *i* of each side with tree *i*; a
//! run's corpus ([`CorpusFiles`]) opened for the whole corpus or a shard's lines.

use std::path::{Path, PathBuf};

use ldd_conllu::{Block, Reader};
use ldd_io::{Counted, FileInfo, Input, LineRange};

use super::shard::ShardRun;
use crate::error::{Error, Result};

/// One corpus line: both sides and the text of its tree.
#[derive(Debug, Default, Clone)]
pub struct Line {
    /// Source line (as read, minus terminator and BOM).
    pub source: String,
    /// Target line.
    pub target: String,
    /// The tree's CoNLL-U block.
    pub block: Block,
}

/// The corpus to extract from: its files, read in lockstep.
#[derive(Debug, Clone)]
pub struct CorpusFiles {
    /// Source side of the corpus (plain or gzip).
    pub source: PathBuf,
    /// Target side.
    pub target: PathBuf,
    /// CoNLL-U parse of the source side, one tree per corpus line.
    pub conllu: PathBuf,
    /// Do not check that each tree belongs to its corpus line (`--trust-conllu`).
    pub trust_conllu: bool,
    /// Only the lines of one shard (`None`: the whole corpus).
    pub shard: Option<ShardRun>,
}

impl CorpusFiles {
    /// The inputs read in lockstep: the whole corpus, or the shard's lines.
    pub fn open(&self) -> Result<Lockstep> {
        match &self.shard {
            Some(s) => Lockstep::open_lines(
                &self.source,
                &self.target,
                &self.conllu,
                s.lines,
                s.corpus_lines,
                s.parse.is_none(),
            ),
            None => Lockstep::open(&self.source, &self.target, &self.conllu),
        }
    }

    /// The corpus line number of the first line read.
    pub fn first_line(&self) -> u64 {
        self.shard.as_ref().map_or(1, |s| s.lines.first)
    }
}

/// The three inputs of a run, read together.
pub struct Lockstep {
    src: Input,
    tgt: Input,
    trees: Reader,
    range: Option<Ranged>,
}

/// Reading the lines of one shard.
struct Ranged {
    lines: LineRange,
    /// Lines of the range not read yet.
    left: u64,
    /// Lines of the whole corpus.
    total: u64,
    /// Whether the CoNLL-U holds the whole corpus's trees (else the range's only).
    whole_parse: bool,
}

impl Lockstep {
    /// Opens the three inputs (plain or gzip).
    pub fn open(source: &Path, target: &Path, conllu: &Path) -> Result<Lockstep> {
        Ok(Lockstep {
            src: Input::open(source)?,
            tgt: Input::open(target)?,
            trees: Reader::open(conllu)?,
            range: None,
        })
    }

    /// Opens the inputs to read corpus lines `lines` only, of a corpus of `total` lines (a
    /// shard): the lines before are skipped unread; the CoNLL-U holds the trees of the whole
    /// corpus when `whole_parse`, else of the range only. [`Lockstep::finish`] still reads
    /// every file to its end (checksums, line counts).
    pub fn open_lines(
        source: &Path,
        target: &Path,
        conllu: &Path,
        lines: LineRange,
        total: u64,
        whole_parse: bool,
    ) -> Result<Lockstep> {
        let mut l = Lockstep::open(source, target, conllu)?;
        // The corpus's count is known: no side is read past it.
        let why = format!(
            "the shard's range was computed on a corpus of {total} lines (did a file change \
             since?)"
        );
        l.src = l.src.limit_lines(total, why.clone());
        l.tgt = l.tgt.limit_lines(total, why);
        let skip = lines.first - 1;
        l.src.skip_lines(skip)?;
        l.tgt.skip_lines(skip)?;
        if whole_parse {
            l.trees.skip_blocks(skip)?;
        }
        l.range = Some(Ranged {
            lines,
            left: lines.count,
            total,
            whole_parse,
        });
        Ok(l)
    }

    /// The path of the CoNLL-U input (for messages).
    pub fn conllu_path(&self) -> &Path {
        self.trees.path()
    }

    /// Reads the next line of each input into `line`; `false` when all three ended
    /// together. An input that ends before the others is an error giving the line counts
    /// of all three.
    pub fn next(&mut self, line: &mut Line) -> Result<bool> {
        if let Some(r) = &mut self.range {
            if r.left == 0 {
                return Ok(false);
            }
            r.left -= 1;
        }
        let s = self.src.next_line()?.map(|l| {
            line.source.clear();
            line.source.push_str(l);
        });
        let t = self.tgt.next_line()?.map(|l| {
            line.target.clear();
            line.target.push_str(l);
        });
        let b = self.trees.next_block(&mut line.block)?;
        match (s.is_some(), t.is_some(), b) {
            (true, true, true) => Ok(true),
            (false, false, false) => Ok(false),
            _ => Err(self.mismatch()),
        }
    }

    /// Reports the line counts of the three inputs once one ended before another: the
    /// longer ones are counted no further than one line past where they went on (an
    /// endless or far longer file is not read to its end).
    fn mismatch(&mut self) -> Error {
        let describe = |n: ldd_io::Result<Counted>, path: &Path, what: &str| match n {
            Ok(n) => format!("{} has {n} {what}", ldd_io::error::shown(path)),
            Err(e) => format!("({e})"),
        };
        // The inputs that went on read one line more than the shortest has.
        let past = self
            .src
            .line_no()
            .max(self.tgt.line_no())
            .max(self.trees.sentences());
        let s = describe(self.src.count_rest_up_to(past), self.src.path(), "lines");
        let t = describe(self.tgt.count_rest_up_to(past), self.tgt.path(), "lines");
        let c = describe(
            self.trees.count_rest_up_to(past),
            self.trees.path(),
            "sentences",
        );
        Error::Data(format!("inputs are not line-aligned: {s}, {t}, {c}"))
    }

    /// Finishes reading and describes the three inputs: source, target, CoNLL-U (whose
    /// `lines` are sentences).
    pub fn finish(self) -> Result<[FileInfo; 3]> {
        let range = self.range;
        let infos = [self.src.finish()?, self.tgt.finish()?, self.trees.finish()?];
        if let Some(r) = range {
            let trees = if r.whole_parse {
                r.total
            } else {
                r.lines.count
            };
            let [s, t, c] = &infos;
            if s.lines != r.total || t.lines != r.total || c.lines != trees {
                return Err(Error::Data(format!(
                    "inputs are not line-aligned: {} has {} lines, {} has {} lines, {} has {} \
                     sentences; this shard (lines {}..{}) expects {} lines and {trees} sentences \
                     (did a file change since the shard's range was computed?)",
                    ldd_io::error::shown(&s.path),
                    s.lines,
                    ldd_io::error::shown(&t.path),
                    t.lines,
                    ldd_io::error::shown(&c.path),
                    c.lines,
                    r.lines.first,
                    r.lines.end() - 1,
                    r.total
                )));
            }
        }
        Ok(infos)
    }
}
