//! Detection in one corpus line ([`detect_line`]): the tree parsed and checked against its
//! line, the rules' matches, and the tokens the aligner needs; and over a whole corpus
//! ([`detect_lines`]), a chunk of lines at a time in parallel.
//!
//! Source, target and CoNLL-U are read in lockstep, in chunks of [`CHUNK_LINES`] lines;
//! each chunk's trees are parsed and matched in parallel (rayon) and then handed on in
//! corpus order, so the output does not depend on the thread count. Memory is bounded by
//! the chunk size, plus 4 bytes per corpus line for the source lengths (kept for
//! length-matched controls) and, for reordering sets, the token ids of the whole corpus
//! (alignment EM needs them).

use std::path::Path;

use ldd_align::Corpus;
use ldd_conllu::parse_block;
use rayon::prelude::*;

use super::matcher::Matcher;
use super::reorder::{check_shard_reorder, ReorderOptions};
use super::rules::{Match, RuleSet};
use crate::error::{Error, Result};
use crate::format::manifest::{CorpusStats, Distances, Inputs};
use crate::pipeline::align::pair_tokens;
use crate::pipeline::read::belongs::{check_belongs, where_they_differ, Belongs};
use crate::pipeline::read::lockstep::{CorpusFiles, Line};

/// Lines per parallel chunk.
pub const CHUNK_LINES: usize = 2048;

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
    /// The small, local places in which the tree differs from its line (tolerated; 0:
    /// none).
    pub tolerated: u32,
    /// Its `# sent_id` comment was glued to its first word line (read as two lines).
    pub glued: bool,
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
                     two in one place, or in too many places (compared after undoing tokenizer \
                     escapes, Unicode NFKC and lower-casing); the CoNLL-U must have one tree per \
                     corpus line, in corpus order (--trust-conllu skips this check for a parse \
                     you trust)",
                    ldd_io::error::escape(&tree),
                    ldd_io::error::escape(&source)
                ),
            )
        })?)
    };
    let mut d = Detected {
        words: s.len() as u32,
        normalised: belongs == Some(Belongs::Normalised),
        tolerated: match belongs {
            Some(Belongs::Tolerated(places)) => places,
            _ => 0,
        },
        empty: line.source.trim().is_empty() || line.target.trim().is_empty(),
        glued: s.glued,
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

/// What detection counted over a corpus ([`detect_lines`]).
pub struct Scanned {
    /// The three inputs read (their sizes, checksums and lines).
    pub inputs: Inputs,
    /// Corpus statistics.
    pub stats: CorpusStats,
    /// Pairs per distance of every phenomenon, in rule order.
    pub distances: Vec<Distances>,
    /// Source length in words of every line read (0 for empty lines).
    pub lengths: Vec<u32>,
    /// Source words and target tokens of every line read, when reorder sets are built
    /// (else empty).
    pub pairs: Corpus,
}

/// Reads `corpus` (its lines in lockstep with their trees, to the end of every file) and
/// detects the phenomena of `rules` in every line (with `reorder`, also the tokens the
/// aligner needs), a chunk of lines at a time in parallel; hands each line with a match,
/// its corpus line number and what was found in it to `found`, in corpus order. A shard
/// whose reordering sets would train an aligner on its lines alone is refused first
/// ([`check_shard_reorder`]).
pub fn detect_lines(
    corpus: &CorpusFiles,
    rules: &RuleSet,
    reorder: Option<&ReorderOptions>,
    mut found: impl FnMut(&Line, u64, &Detected) -> Result<()>,
) -> Result<Scanned> {
    if let Some(s) = &corpus.shard {
        check_shard_reorder(s.shard, reorder)?;
    }
    let mut input = corpus.open()?;
    let (trust, first) = (corpus.trust_conllu, corpus.first_line());
    let matcher = rules.compile();
    let mut stats = CorpusStats::default();
    let mut distances: Vec<Distances> = rules
        .phenomena
        .iter()
        .map(|p| Distances {
            phenomenon: p.name.clone(),
            counts: Vec::new(),
        })
        .collect();
    let (mut lengths, mut pairs) = (Vec::new(), Corpus::new());
    let mut lines: Vec<Line> = (0..CHUNK_LINES).map(|_| Line::default()).collect();
    let mut done = false;
    while !done {
        let mut n = 0;
        while n < CHUNK_LINES {
            if !input.next(&mut lines[n])? {
                done = true;
                break;
            }
            n += 1;
        }
        let conllu = input.conllu_path();
        let detected: Vec<Result<Detected>> = lines[..n]
            .par_iter()
            .map(|l| detect_line(l, &matcher, conllu, reorder, trust))
            .collect();
        for (line, d) in lines[..n].iter().zip(detected) {
            let d = d?;
            if let Some((s, t)) = &d.align_pair {
                pairs.push_pair(s, t);
            }
            let id = first + stats.lines;
            stats.lines += 1;
            stats.normalised_lines += u64::from(d.normalised);
            stats.tolerated_lines += u64::from(d.tolerated > 0);
            stats.tolerated_places += u64::from(d.tolerated);
            stats.glued_comments += u64::from(d.glued);
            stats.unchecked_lines += u64::from(trust);
            stats.source_words += u64::from(d.words);
            lengths.push(if d.empty { 0 } else { d.words });
            if d.empty {
                stats.empty_lines += 1;
                continue;
            }
            if !d.matches.is_empty() {
                for m in &d.matches {
                    distances[usize::from(m.phenomenon)].add(m.distance as usize);
                }
                found(line, id, &d)?;
            }
        }
    }
    let [source, target, conllu] = input.finish()?;
    Ok(Scanned {
        inputs: Inputs {
            source,
            target,
            conllu,
        },
        stats,
        distances,
        lengths,
        pairs,
    })
}
