//! The extraction pipeline: read → parse tree → detect → bucket → write.
//!
//! Source, target and CoNLL-U are read in lockstep, in chunks of lines; each chunk's
//! trees are parsed and matched in parallel (rayon) and then written in corpus
//! order, so the output does not depend on the thread count. Memory is bounded by
//! the chunk size, plus 4 bytes per corpus line for the source lengths (kept for
//! length-matched controls).

use std::path::PathBuf;

use rayon::prelude::*;

use crate::conllu::{parse_block, Block, ConlluReader};
use crate::controls::{self, ControlOptions};
use crate::corpus::LineReader;
use crate::error::{Error, Result};
use crate::manifest::{self, CorpusStats, Inputs, Languages, Manifest, SetEntry, Tool};
use crate::output::{Staging, MANIFEST};
use crate::reorder::{self, ReorderOptions};
use crate::rules::{Match, RuleSet};
use crate::sets::{mark, Bucket, Entry, SetFiles, SetWriter};

/// How `.marked` files mark words (recorded in the manifest).
pub const MARKER: &str = "tokens joined by spaces; in pair k (numbered from 1 in each line) \
the dependent is wrapped as <dk>form</dk> and its head as <hk>form</hk>";

/// Lines per parallel chunk.
pub const CHUNK_LINES: usize = 2048;

/// What to extract and where.
#[derive(Debug, Clone)]
pub struct ExtractOptions {
    /// Source side of the corpus (plain or gzip).
    pub source: PathBuf,
    /// Target side.
    pub target: PathBuf,
    /// CoNLL-U parse of the source side, one tree per corpus line.
    pub conllu: PathBuf,
    /// Languages.
    pub languages: Languages,
    /// The phenomena to run (already selected).
    pub rules: RuleSet,
    /// Output directory (replaced as a whole on success).
    pub out: PathBuf,
    /// Length-matched controls.
    pub controls: ControlOptions,
    /// Reordering sets (word alignment); `None` skips them.
    pub reorder: Option<ReorderOptions>,
}

/// The result of a run.
#[derive(Debug)]
pub struct ExtractReport {
    /// Corpus statistics.
    pub corpus: CorpusStats,
    /// Every set written.
    pub sets: Vec<SetEntry>,
    /// Source length in words of every corpus line (0 for empty lines).
    pub lengths: Vec<u32>,
    /// Trees whose `# text` comment differs from the source line (a sign of
    /// misaligned inputs; whitespace is ignored in the comparison).
    pub text_mismatches: u64,
}

#[derive(Default)]
struct Item {
    source: String,
    target: String,
    block: Block,
}

/// What the parallel stage found in one line.
#[derive(Default)]
struct Detected {
    matches: Vec<Match>,
    words: u32,
    empty: bool,
    text_mismatch: bool,
    conllu: String,
    tokens: Vec<(String, u32, u32)>,
    /// Source words and target tokens, when reorder sets are built.
    align_pair: Option<(Vec<String>, Vec<String>)>,
}

fn detect(item: &Item, opts: &ExtractOptions) -> Result<Detected> {
    let (rules, path) = (&opts.rules, opts.conllu.as_path());
    let s = parse_block(&item.block, path)?;
    let mut d = Detected {
        words: s.len() as u32,
        empty: item.source.trim().is_empty() || item.target.trim().is_empty(),
        ..Detected::default()
    };
    if let Some(text) = s.comment("text") {
        d.text_mismatch = !words_of(text).eq(words_of(&item.source));
    }
    if let Some(r) = &opts.reorder {
        d.align_pair = Some(if d.empty {
            (Vec::new(), Vec::new())
        } else {
            (
                s.words.iter().map(|w| w.form.to_string()).collect(),
                reorder::target_tokens(&item.target, r.pretokenized)
                    .into_iter()
                    .map(str::to_string)
                    .collect(),
            )
        });
    }
    if d.empty {
        return Ok(d);
    }
    rules.detect(&s, &mut d.matches);
    if !d.matches.is_empty() {
        d.conllu = s.to_conllu();
        d.tokens = s.owned_tokens();
    }
    Ok(d)
}

/// The outcome of reading one line of each input.
enum Fill {
    /// All three inputs gave a line.
    Line,
    /// All three inputs ended together.
    End,
    /// Some input ended before the others.
    Mismatch,
}

/// Words of a line for comparing it with a tree's `# text`: split at white space and
/// at the control and line-separator characters that parsers replace by a space.
fn words_of(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| {
        c.is_whitespace() || c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
    })
    .filter(|w| !w.is_empty())
}

/// Reads one line of each input into `item`.
fn fill(
    src: &mut LineReader,
    tgt: &mut LineReader,
    trees: &mut ConlluReader,
    item: &mut Item,
) -> Result<Fill> {
    let s = src.next_line()?.map(|l| {
        item.source.clear();
        item.source.push_str(l);
    });
    let t = tgt.next_line()?.map(|l| {
        item.target.clear();
        item.target.push_str(l);
    });
    let b = trees.next_block(&mut item.block)?;
    match (s.is_some(), t.is_some(), b) {
        (true, true, true) => Ok(Fill::Line),
        (false, false, false) => Ok(Fill::End),
        _ => Ok(Fill::Mismatch),
    }
}

/// Runs the extraction and moves the finished output into `opts.out`.
pub fn extract(opts: &ExtractOptions) -> Result<ExtractReport> {
    let src_lang = &opts.languages.source;
    let tgt_lang = &opts.languages.target;
    if src_lang == tgt_lang {
        return Err(Error::Config(format!(
            "source and target language are both `{src_lang}`: set file names would collide"
        )));
    }
    let staging = Staging::new(&opts.out)?;
    let root = staging.path().to_path_buf();

    let mut src = LineReader::open(&opts.source)?;
    let mut tgt = LineReader::open(&opts.target)?;
    let mut trees = ConlluReader::open(&opts.conllu)?;

    let buckets = Bucket::all(opts.rules.max_distance);
    let mut writers: Vec<Vec<SetWriter>> = Vec::new();
    for p in &opts.rules.phenomena {
        let mut row = Vec::new();
        for b in &buckets {
            let files = SetFiles::new(&p.name, &b.to_string(), src_lang, tgt_lang);
            row.push(SetWriter::create(&root, files)?);
        }
        writers.push(row);
    }

    let mut corpus = CorpusStats::default();
    let mut lengths = Vec::new();
    let mut text_mismatches = 0;
    let mut align_pairs = ldd_align::Corpus::new();
    let mut items: Vec<Item> = (0..CHUNK_LINES).map(|_| Item::default()).collect();
    let mut done = false;
    while !done {
        let mut n = 0;
        while n < CHUNK_LINES {
            match fill(&mut src, &mut tgt, &mut trees, &mut items[n])? {
                Fill::Line => n += 1,
                Fill::End => {
                    done = true;
                    break;
                }
                Fill::Mismatch => return Err(count_mismatch(src, tgt, trees)),
            }
        }
        let detected: Vec<Result<Detected>> =
            items[..n].par_iter().map(|it| detect(it, opts)).collect();
        for (item, d) in items[..n].iter().zip(detected) {
            let d = d?;
            if let Some((s, t)) = &d.align_pair {
                align_pairs.push_pair(s, t);
            }
            corpus.lines += 1;
            let id = corpus.lines;
            corpus.source_words += u64::from(d.words);
            lengths.push(if d.empty { 0 } else { d.words });
            text_mismatches += u64::from(d.text_mismatch);
            if d.empty {
                corpus.empty_lines += 1;
                continue;
            }
            if d.matches.is_empty() {
                continue;
            }
            write_matches(item, id, &d, &buckets, &mut writers)?;
        }
    }
    let inputs = Inputs {
        source: src.finish()?,
        target: tgt.finish()?,
        conllu: trees.finish()?,
    };

    let mut sets = Vec::new();
    for (p, row) in opts.rules.phenomena.iter().zip(writers) {
        for (b, w) in buckets.iter().zip(row) {
            sets.push(w.finish("lexical", &p.name, *b)?);
        }
    }
    let reorder_info = match &opts.reorder {
        Some(r) => {
            let (rsets, info) = reorder::build(
                &align_pairs,
                r,
                (src_lang, tgt_lang),
                (&opts.source, &opts.target, &opts.conllu),
                &lengths,
                &root,
            )?;
            sets.extend(rsets);
            Some(info)
        }
        None => None,
    };
    drop(align_pairs);
    let controls = controls::write_controls(&root, &sets, &lengths, opts)?;
    let m = Manifest {
        format_version: manifest::FORMAT_VERSION,
        tool: Tool::default(),
        languages: opts.languages.clone(),
        inputs,
        corpus: corpus.clone(),
        rules: opts.rules.clone(),
        marker: MARKER,
        sets: sets.clone(),
        reorder: reorder_info,
        controls,
    };
    manifest::write_summary(&root.join("summary.csv"), &sets)?;
    manifest::write_manifest(&root.join(MANIFEST), &m)?;
    staging.commit()?;
    Ok(ExtractReport {
        corpus,
        sets,
        lengths,
        text_mismatches,
    })
}

/// Writes one line to every set of every phenomenon it qualifies for.
fn write_matches(
    item: &Item,
    id: u64,
    d: &Detected,
    buckets: &[Bucket],
    writers: &mut [Vec<SetWriter>],
) -> Result<()> {
    for (pi, row) in writers.iter_mut().enumerate() {
        let ms: Vec<&Match> = d
            .matches
            .iter()
            .filter(|m| m.phenomenon as usize == pi)
            .collect();
        if ms.is_empty() {
            continue;
        }
        for (b, w) in buckets.iter().zip(row.iter_mut()) {
            let q: Vec<&&Match> = ms.iter().filter(|m| b.admits(m.distance)).collect();
            if q.is_empty() {
                continue;
            }
            let mut marks = vec![Vec::new(); d.words as usize];
            for (k, m) in q.iter().enumerate() {
                marks[m.dependent as usize - 1].push(format!("d{}", k + 1));
                marks[m.head as usize - 1].push(format!("h{}", k + 1));
            }
            let marked = mark(&d.tokens, &marks);
            w.write(&Entry {
                id,
                source: &item.source,
                target: &item.target,
                conllu: &d.conllu,
                marked: &marked,
                marked_target: None,
                pairs: q.len() as u64,
                words: u64::from(d.words),
            })?;
        }
    }
    Ok(())
}

/// Counts the rest of all three inputs and reports their line counts.
fn count_mismatch(src: LineReader, tgt: LineReader, trees: ConlluReader) -> Error {
    let describe = |r: Result<crate::corpus::FileInfo>, what: &str| match r {
        Ok(i) => format!("{} has {} {what}", i.path.display(), i.lines),
        Err(e) => format!("({e})"),
    };
    Error::Data(format!(
        "inputs are not line-aligned: {}, {}, {}",
        describe(src.finish(), "lines"),
        describe(tgt.finish(), "lines"),
        describe(trees.finish(), "sentences"),
    ))
}
