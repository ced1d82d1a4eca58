//! Detection measured against gold trees (`check-detection`): the rules under test on a
//! parser's trees of a gold file's sentences, against the reference rules on the gold trees
//! ([`check`]).
//!
//! An instance is keyed by its line (sentence), dependent word and head word; a word by the
//! position of its characters in the sentence's text (white space left out) and its place
//! within a multiword token, so that the two trees' words meet wherever their tokenizations
//! agree. Per phenomenon: the instances of both trees, precision and recall with Wilson
//! intervals, F1 with a percentile bootstrap interval over sentences (seeded: the same
//! figures every run), the share of correct instances whose distance falls in the same
//! `eqK` set, and every miss and false hit with the other tree's analysis of its dependent.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use ldd_conllu::{parse_block, Block, Reader, Sentence, Word};
use ldd_eval::rng::Xoshiro256StarStar;
use ldd_eval::significance::{interval, wilson};

use super::rules::{Match, RuleSet};
use crate::error::{Error, Result};
use crate::format::detection::{
    Analysis, DetectionReport, Estimate, Instance, PhenomenonResult, WordInfo,
};
use crate::pipeline::read::belongs::{check_belongs, tree_text, where_they_differ};

/// Bootstrap resamples of the F1 interval.
pub const BOOTSTRAP: usize = 1000;

/// Seed of the F1 bootstrap.
pub const SEED: u64 = 1;

/// What [`check`] compares.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// The gold CoNLL-U.
    pub gold: PathBuf,
    /// The source language whose rules run.
    pub language: String,
    /// The rules under test, run on the parser's trees (selected for the language).
    pub rules: RuleSet,
    /// The rules run on the gold trees: the same phenomena, in the same order.
    pub reference: RuleSet,
    /// The sentences compared, 1-based and inclusive (`None`: all).
    pub lines: Option<(u64, u64)>,
    /// Level of the intervals.
    pub confidence: f64,
}

/// The parser's trees of a gold file's sentences.
#[derive(Debug, Clone, Copy)]
pub struct Parse<'a> {
    /// One tree per gold sentence, in order (CoNLL-U, plain or gzip).
    pub conllu: &'a Path,
    /// The model that parsed them and its SHA-256 (`None`: a parse made elsewhere).
    pub model: Option<(&'a Path, &'a str)>,
}

/// A word's key: the character span of its token in the text without white space, and
/// its place within the token (0 for a plain word).
type Key = (u32, u32, u32);

/// One tree with its words' keys.
struct Keyed<'a> {
    tree: Sentence<'a>,
    keys: Vec<Key>,
    by_key: HashMap<Key, u32>,
}

impl<'a> Keyed<'a> {
    fn new(tree: Sentence<'a>) -> Self {
        let mut keys = vec![(0, 0, 0); tree.len()];
        let mut at = 0u32;
        for t in tree.tokens() {
            let len = t.form.chars().filter(|c| !c.is_whitespace()).count() as u32;
            for id in t.first..=t.last {
                if let Some(k) = keys.get_mut(id as usize - 1) {
                    *k = (at, at + len, id - t.first);
                }
            }
            at += len;
        }
        let by_key = keys
            .iter()
            .enumerate()
            .map(|(i, k)| (*k, i as u32 + 1))
            .collect();
        Keyed { tree, keys, by_key }
    }

    fn key(&self, id: u32) -> Key {
        self.keys[id as usize - 1]
    }

    fn info(&self, id: u32) -> WordInfo {
        let w: &Word<'_> = &self.tree.words[id as usize - 1];
        WordInfo {
            id,
            form: w.form.to_string(),
            upos: w.upos.to_string(),
            xpos: w.xpos.to_string(),
            deprel: w.deprel.to_string(),
        }
    }

    /// The instance `matched` of this tree, with `other`'s analysis of its dependent word.
    fn instance(&self, line: u64, matched: &Match, other: &Keyed<'_>) -> Instance {
        let analysis = other
            .by_key
            .get(&self.key(matched.dependent))
            .map(|&id| Analysis {
                word: other.info(id),
                head: other.tree.words[id as usize - 1]
                    .head
                    .filter(|&h| h != 0 && other.tree.word(h).is_some())
                    .map(|h| other.info(h)),
            });
        Instance {
            line,
            dependent: self.info(matched.dependent),
            head: self.info(matched.head),
            distance: matched.distance,
            other: analysis,
        }
    }
}

/// One phenomenon's tallies while reading.
#[derive(Default)]
struct Tally {
    /// (gold, found, correct) per sentence compared, for the bootstrap.
    per_line: Vec<[u32; 3]>,
    bucket_right: u64,
    misses: Vec<Instance>,
    false_hits: Vec<Instance>,
}

/// Compares the rules on the parser's trees with the reference rules on the gold trees,
/// sentence by sentence (both files read in step, one sentence of each at a time).
pub fn check(options: &CheckOptions, parse: &Parse<'_>) -> Result<DetectionReport> {
    check_same_phenomena(&options.rules, &options.reference)?;
    let (test, reference) = (options.rules.compile(), options.reference.compile());
    let mut gold = Reader::open(&options.gold)?;
    let mut parsed = Reader::open(parse.conllu)?;
    let (mut gb, mut pb) = (Block::default(), Block::default());
    let mut tallies: Vec<Tally> = options
        .rules
        .phenomena
        .iter()
        .map(|_| Tally::default())
        .collect();
    let (first, last) = options.lines.unwrap_or((1, u64::MAX));
    let (mut line, mut compared) = (0u64, [0u64, 0u64]);
    let (mut gm, mut pm) = (Vec::new(), Vec::new());
    while gold.next_block(&mut gb)? {
        line += 1;
        if !parsed.next_block(&mut pb)? {
            let why = format!(
                "has fewer trees than {} has sentences",
                options.gold.display()
            );
            return Err(Error::input(parse.conllu, 0, why));
        }
        if line < first || line > last {
            continue;
        }
        let g = Keyed::new(parse_block(&gb, &options.gold)?);
        let p = Keyed::new(parse_block(&pb, parse.conllu)?);
        same_sentence(&g.tree, &p.tree, (parse.conllu, pb.first_line), line)?;
        reference.detect(&g.tree, &mut gm);
        test.detect(&p.tree, &mut pm);
        for (k, t) in tallies.iter_mut().enumerate() {
            let max = options.rules.max_distance;
            compare_line(line, k as u16, (&g, &gm), (&p, &pm), max, t);
        }
        compared = [if compared[0] == 0 { line } else { compared[0] }, line];
    }
    if line == 0 {
        // As parsing the gold file says of it: nothing to measure.
        let why = "no sentence: not a CoNLL-U treebank (an empty gold file)";
        return Err(Error::input(&options.gold, 1, why));
    }
    if parsed.next_block(&mut pb)? {
        let why = format!(
            "has more trees than {} has sentences",
            options.gold.display()
        );
        return Err(Error::input(parse.conllu, pb.first_line, why));
    }
    check_range(&options.gold, options.lines, line)?;
    let gold_info = gold.finish()?;
    Ok(DetectionReport {
        gold: options.gold.display().to_string(),
        gold_sha256: gold_info.sha256,
        model: parse.model.map(|(m, _)| m.display().to_string()),
        model_sha256: parse.model.map(|(_, sha)| sha.to_string()),
        parsed: parse.conllu.display().to_string(),
        language: options.language.clone(),
        lines: compared,
        rules: options.rules.source.display().to_string(),
        reference: options.reference.source.display().to_string(),
        confidence: options.confidence,
        max_distance: options.rules.max_distance,
        phenomena: (options.rules.phenomena.iter().zip(tallies))
            .map(|(p, t)| result(&p.name, t, options.confidence))
            .collect(),
    })
}

/// The parser's tree (at `at`, file and line) must be one of gold sentence `line`: the
/// same letters and digits (`read::belongs`), whatever the tokenization.
fn same_sentence(
    gold: &Sentence<'_>,
    parsed: &Sentence<'_>,
    at: (&Path, u64),
    line: u64,
) -> Result<()> {
    let text = tree_text(gold);
    check_belongs(parsed, &text).map(|_| ()).map_err(|theirs| {
        let (tree, sentence) = where_they_differ(&theirs, &text);
        Error::input(
            at.0,
            at.1,
            format!(
                "this tree is not of gold sentence {line}: its text `{}` and the sentence's \
                 `{}` differ there (the parse must have one tree per gold sentence, in order)",
                ldd_io::error::escape(&tree),
                ldd_io::error::escape(&sentence)
            ),
        )
    })
}

/// The reference rules must define the phenomena under test, in the same order.
fn check_same_phenomena(rules: &RuleSet, reference: &RuleSet) -> Result<()> {
    let names = |r: &RuleSet| {
        r.phenomena
            .iter()
            .map(|p| p.name.clone())
            .collect::<Vec<_>>()
    };
    if names(rules) == names(reference) {
        return Ok(());
    }
    Err(Error::Config(format!(
        "the reference rules ({}) must define the phenomena under test ({}: {}); they define {}",
        reference.source.display(),
        rules.source.display(),
        names(rules).join(", "),
        names(reference).join(", ")
    )))
}

/// A line range must lie within the file's `sentences`.
fn check_range(gold: &Path, lines: Option<(u64, u64)>, sentences: u64) -> Result<()> {
    match lines {
        Some((a, b)) if b > sentences => Err(Error::Config(format!(
            "--lines {a}-{b}: {} has {sentences} sentences",
            ldd_io::error::shown(gold)
        ))),
        _ => Ok(()),
    }
}

/// The instances of `phenomenon` in one sentence's two trees, tallied into `tally`.
fn compare_line(
    line: u64,
    phenomenon: u16,
    (gold_tree, gold_matches): (&Keyed<'_>, &[Match]),
    (found_tree, found_matches): (&Keyed<'_>, &[Match]),
    max: u32,
    tally: &mut Tally,
) {
    let of = |x: &Keyed<'_>, ms: &[Match]| -> Vec<(Key, Key, Match)> {
        ms.iter()
            .filter(|m| m.phenomenon == phenomenon)
            .map(|m| (x.key(m.dependent), x.key(m.head), *m))
            .collect()
    };
    let (gold, found) = (of(gold_tree, gold_matches), of(found_tree, found_matches));
    let mut correct = 0u32;
    for (dk, hk, m) in &gold {
        match found.iter().find(|(d, h, _)| d == dk && h == hk) {
            Some((_, _, f)) => {
                correct += 1;
                let same = m.distance == f.distance || (m.distance > max && f.distance > max);
                tally.bucket_right += u64::from(same);
            }
            None => tally.misses.push(gold_tree.instance(line, m, found_tree)),
        }
    }
    for (dk, hk, m) in &found {
        if !gold.iter().any(|(d, h, _)| d == dk && h == hk) {
            tally
                .false_hits
                .push(found_tree.instance(line, m, gold_tree));
        }
    }
    tally
        .per_line
        .push([gold.len() as u32, found.len() as u32, correct]);
}

/// A proportion with its Wilson interval (undefined when `total` is 0).
fn proportion(hits: u64, total: u64, confidence: f64) -> Estimate {
    let ci = wilson(hits, total, confidence);
    Estimate {
        value: (total > 0).then(|| hits as f64 / total as f64),
        low: ci.map(|c| c.0),
        high: ci.map(|c| c.1),
    }
}

/// Sums (gold, found, correct) rows.
fn sum<'a>(rows: impl Iterator<Item = &'a [u32; 3]>) -> [u64; 3] {
    rows.fold([0u64; 3], |a, x| {
        [
            a[0] + u64::from(x[0]),
            a[1] + u64::from(x[1]),
            a[2] + u64::from(x[2]),
        ]
    })
}

/// F1 of summed (gold, found, correct), undefined when both are empty.
fn f1(sums: [u64; 3]) -> Option<f64> {
    (sums[0] + sums[1] > 0).then(|| 2.0 * sums[2] as f64 / (sums[0] + sums[1]) as f64)
}

/// F1 with its percentile bootstrap interval: [`BOOTSTRAP`] resamples of the sentences,
/// seeded with [`SEED`] (bounds as sacreBLEU's bootstrap takes them).
fn f1_estimate(per_line: &[[u32; 3]], confidence: f64) -> Estimate {
    let value = f1(sum(per_line.iter()));
    if value.is_none() {
        return Estimate {
            value,
            low: None,
            high: None,
        };
    }
    let mut rng = Xoshiro256StarStar::seed_from_u64(SEED);
    let n = per_line.len() as u64;
    let draws: Vec<f64> = (0..BOOTSTRAP)
        .map(|_| {
            let rows = (0..n).map(|_| &per_line[rng.below(n) as usize]);
            f1(sum(rows)).unwrap_or(f64::NAN)
        })
        .collect();
    let ci = interval(&draws, confidence);
    Estimate {
        value,
        low: ci.map(|c| c.low),
        high: ci.map(|c| c.high),
    }
}

/// The result of one phenomenon's tally.
fn result(name: &str, tally: Tally, confidence: f64) -> PhenomenonResult {
    let [gold, found, correct] = sum(tally.per_line.iter());
    PhenomenonResult {
        name: name.to_string(),
        gold,
        found,
        correct,
        precision: proportion(correct, found, confidence),
        recall: proportion(correct, gold, confidence),
        f1: f1_estimate(&tally.per_line, confidence),
        bucket_right: tally.bucket_right,
        misses: tally.misses,
        false_hits: tally.false_hits,
    }
}
