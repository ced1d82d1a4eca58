//! Detection in one corpus line (`extract` runs it over a chunk of lines in parallel):
//! the tree parsed and checked against its line, the rules' matches, and the tokens the
//! aligner needs.

use std::path::Path;

use ldd_conllu::parse_block;

use super::alignment::pair_tokens;
use super::reorder::ReorderOptions;
use super::rules::{Match, Matcher};
use crate::error::{Error, Result};
use crate::read::belongs::{check_belongs, where_they_differ, Belongs};
use crate::read::lockstep::Line;

/// What detection found in one corpus line.
#[derive(Debug, Default)]
pub struct Detected {
    /// The rules' matches (none on an empty line).
    pub matches: Vec<Match>,
    /// UD words of the tree.
    pub words: u32,
    /// The source or the target line is empty.
    pub empty: bool,
    /// The tree matched its line only after normalisation.
    pub normalised: bool,
    /// The tree differs from its line in one small, local place (tolerated).
    pub tolerated: bool,
    /// The tree as CoNLL-U (lines with a match).
    pub conllu: String,
    /// The tree's tokens with their word ranges, for marking (lines with a match).
    pub tokens: Vec<(String, u32, u32)>,
    /// The tree's word forms (lines with a match).
    pub forms: Vec<String>,
    /// Source words and target tokens, when reorder sets are built.
    pub align_pair: Option<(Vec<String>, Vec<String>)>,
}

/// Detects in `line` (its tree from the CoNLL-U file `conllu`): the tree parsed and, unless
/// `trust`, checked to belong to the source line; the matches of `matcher`; and, with
/// `reorder`, the tokens the aligner needs.
pub fn detect_line(
    line: &Line,
    matcher: &Matcher,
    conllu: &Path,
    reorder: Option<&ReorderOptions>,
    trust: bool,
) -> Result<Detected> {
    let s = parse_block(&line.block, conllu)?;
    let belongs = if trust {
        None
    } else {
        Some(check_belongs(&s, &line.source).map_err(|text| {
            let (tree, source) = where_they_differ(&text, &line.source);
            Error::input(
                conllu,
                line.block.first_line,
                format!(
                    "this tree does not belong to its corpus line: its text `{}` and the \
                     source line `{}` differ in their letters and digits there, by more than \
                     two in one place (compared after undoing tokenizer escapes, Unicode NFKC and \
                     lower-casing); the CoNLL-U must have one tree per corpus line, in corpus \
                     order (--trust-conllu skips this check for a parse you trust)",
                    ldd_io::error::escape(&tree),
                    ldd_io::error::escape(&source)
                ),
            )
        })?)
    };
    let mut d = Detected {
        words: s.len() as u32,
        normalised: belongs == Some(Belongs::Normalised),
        tolerated: belongs == Some(Belongs::Tolerated),
        empty: line.source.trim().is_empty() || line.target.trim().is_empty(),
        ..Detected::default()
    };
    if let Some(r) = reorder {
        d.align_pair = Some(pair_tokens(
            &s,
            &line.source,
            &line.target,
            r.align.pretokenized,
        ));
    }
    if d.empty {
        return Ok(d);
    }
    matcher.detect(&s, &mut d.matches);
    if !d.matches.is_empty() {
        d.conllu = s.to_conllu();
        d.tokens = s.owned_tokens();
        d.forms = s.words.iter().map(|w| w.form.to_string()).collect();
    }
    Ok(d)
}
