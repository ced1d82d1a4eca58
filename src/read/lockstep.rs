//! Source, target and CoNLL-U read in lockstep: line *i* of each side with tree *i*.

use std::path::Path;

use ldd_conllu::{Block, Reader, Sentence};
use ldd_io::{FileInfo, Input};

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

/// The three inputs of a run, read together.
pub struct Lockstep {
    src: Input,
    tgt: Input,
    trees: Reader,
}

impl Lockstep {
    /// Opens the three inputs (plain or gzip).
    pub fn open(source: &Path, target: &Path, conllu: &Path) -> Result<Lockstep> {
        Ok(Lockstep {
            src: Input::open(source)?,
            tgt: Input::open(target)?,
            trees: Reader::open(conllu)?,
        })
    }

    /// The path of the CoNLL-U input (for messages).
    pub fn conllu_path(&self) -> &Path {
        self.trees.path()
    }

    /// Reads the next line of each input into `line`; `false` when all three ended
    /// together. An input that ends before the others is an error giving the line counts
    /// of all three.
    pub fn next(&mut self, line: &mut Line) -> Result<bool> {
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

    /// Counts the rest of all three inputs and reports their line counts.
    fn mismatch(&mut self) -> Error {
        let describe = |n: ldd_io::Result<u64>, path: &Path, what: &str| match n {
            Ok(n) => format!("{} has {n} {what}", ldd_io::text::shown(path)),
            Err(e) => format!("({e})"),
        };
        let s = describe(self.src.count_rest(), self.src.path(), "lines");
        let t = describe(self.tgt.count_rest(), self.tgt.path(), "lines");
        let c = describe(self.trees.count_rest(), self.trees.path(), "sentences");
        Error::Data(format!("inputs are not line-aligned: {s}, {t}, {c}"))
    }

    /// Finishes reading and describes the three inputs: source, target, CoNLL-U (whose
    /// `lines` are sentences).
    pub fn finish(self) -> Result<[FileInfo; 3]> {
        Ok([self.src.finish()?, self.tgt.finish()?, self.trees.finish()?])
    }
}

/// Text without the characters a tokenizer or parser may add, drop or replace: white
/// space, control characters, line and paragraph separators.
fn squeezed(text: &str) -> String {
    text.chars()
        .filter(|&c| !(c.is_whitespace() || c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')))
        .collect()
}

/// Checks that a tree belongs to its corpus line: its `# text` comment, or else its surface
/// tokens, equal the source line up to white space (a tokenizer's spacing). On a mismatch,
/// returns the tree's text as compared.
pub fn check_belongs(tree: &Sentence<'_>, source: &str) -> std::result::Result<(), String> {
    let text = match tree.comment("text") {
        Some(t) => t.to_string(),
        None => tree
            .tokens()
            .iter()
            .map(|t| t.form)
            .collect::<Vec<_>>()
            .join(" "),
    };
    if squeezed(&text) == squeezed(source) {
        Ok(())
    } else {
        Err(text)
    }
}
