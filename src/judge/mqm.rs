//! `mqm`: human judgements of every locus and every word from MQM annotations (the WMT
//! format, [`crate::format::mqm`]), and how far the locus judgement ([`crate::locus`])
//! agrees with them — no new annotation needed.
//!
//! The campaign is read and checked first ([`campaign`]: references, rater checks and
//! source issues left out, the same row twice refused), with every filter value checked
//! against it. Segments are matched to corpus lines by their source text (whitespace
//! collapsed; the *k*-th segment with a text, in segment order, is the *k*-th corpus line
//! with it). Each system's output is the `target` of its rows. Both the reference (the corpus target) and
//! each output are aligned to the source words by the locus judgement's aligner; then, for
//! one rater, a source word **has an error** when one of the rater's errors (of the chosen
//! severities and categories) has a span in the output that overlaps a token linked to
//! the word, or a span in the source (an omission) that overlaps the word. With several
//! raters, the word has an error when at least half of the segment's raters saw one there.
//! A locus has an error when one of its words has. Errors without a span are not located
//! (counted).
//!
//! The agreement, at the word level (every content word) and the locus level (the sets'
//! loci): the 2×2 table of judged incorrect against rater error, its coverage (the share
//! of items judged), MCC, Cohen's κ, the rater error rate given each judgement, a
//! permutation test within items (the systems' judgements of one word or locus shuffled),
//! and per system the automatic and human accuracies and MQM's score, with Spearman's and
//! Kendall's correlations between them. Memory: the campaign (bounded:
//! [`campaign::MAX_BYTES`]), and the judged lines of the reference and one system at a
//! time.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A locus once per line: phenomenon, line id, dependent id, head id.
type LocusKey = (String, u64, u32, Option<u32>);

use ldd_eval::agreement::{kendall_tau_b, within_group_permutation, Table};
use ldd_eval::significance::wilson;
use ldd_eval::stats::spearman;

use crate::error::{Error, Result};
use crate::format::judged::Judgement;
use crate::format::locus::Locus;
use crate::format::mqm::{
    self as file, collapse, is_reference_name, Agreement, Counted, Disagreement, Item, MqmReport,
    Segments, SetRow, SystemRow,
};
use crate::locus::rule::Side;
use crate::locus::{judge_line, Judging, LineJudgements, SourceWords};
use crate::parse::TargetModel;
use crate::read::sets::{input_lines, input_path, input_trees, load, Loaded, RunInput};

use super::campaign::{self, Campaign, ErrorSpan, Identical, LeftOut, Rated};
pub use super::campaign::{export, Exported, MAX_BYTES, MAX_ROWS};

/// What `mqm` reads and how it decides.
#[derive(Debug, Clone)]
pub struct MqmOptions {
    /// The MQM files.
    pub files: Vec<PathBuf>,
    /// Only these documents (`doc` column) [default: all].
    pub docs: Vec<String>,
    /// Severities that count as an error (lowercase) [default: major, minor].
    pub severities: Vec<String>,
    /// Whether `severities` was given (then each must be a severity of the files).
    pub severities_given: bool,
    /// Whether errors marked as problems of the source (`Source issue`) count.
    pub source_issues: bool,
    /// The human references among the systems, not judged (none: those named like one,
    /// [`is_reference_name`]).
    pub references: Option<Vec<String>>,
    /// Category prefixes that count (lowercase; `accuracy` takes `Accuracy/…`) [default:
    /// all].
    pub categories: Vec<String>,
    /// Systems left out (e.g. the human reference `ref`).
    pub exclude: Vec<String>,
    /// The corpus's parse [default: the file the manifest records].
    pub conllu: Option<PathBuf>,
    /// The corpus's source and target sides [default: the files the manifest records].
    pub source: Option<PathBuf>,
    /// See `source`.
    pub reference: Option<PathBuf>,
    /// Shuffles of the permutation tests.
    pub permutations: usize,
    /// Their seed.
    pub seed: u64,
    /// Level of the Wilson intervals.
    pub confidence: f64,
    /// The locus judgement's aligner model [default: the one the manifest records].
    pub align_model: Option<PathBuf>,
    /// A UDPipe model of the target language for the lemma rule (none: surface forms).
    pub lemma_model: Option<TargetModel>,
}

/// Byte ranges of the tokens of `text` as the aligner tokenizes it.
fn token_ranges(text: &str, pretokenized: bool) -> Vec<(usize, usize)> {
    let base = text.as_ptr() as usize;
    ldd_align::line_tokens(text, pretokenized)
        .into_iter()
        .map(|t| {
            let a = t.as_ptr() as usize - base;
            (a, a + t.len())
        })
        .collect()
}

/// Byte ranges of each word of `tree` in `text` (its surface tokens found in order; a
/// multiword token's range for each of its words); `None` for a word not found.
fn word_ranges(tree: &ldd_conllu::Sentence<'_>, text: &str) -> Vec<Option<(usize, usize)>> {
    let mut out = vec![None; tree.words.len()];
    let mut pos = 0;
    for t in tree.tokens() {
        if let Some(k) = text[pos..].find(t.form) {
            let a = pos + k;
            let b = a + t.form.len();
            for w in t.first..=t.last {
                if let Some(x) = out.get_mut(w as usize - 1) {
                    *x = Some((a, b));
                }
            }
            pos = b;
        }
    }
    out
}

fn overlaps(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

/// A line of the corpus with an MQM segment.
#[derive(Debug)]
struct Line {
    seg: String,
    doc: String,
    upos: Vec<String>,
    /// Each word's byte range in the MQM source text.
    ranges: Vec<Option<(usize, usize)>>,
}

/// Whether the raters of `r` saw an error at word `w` (0-based) of `line`, whose output
/// tokens linked to the word are `linked` (their byte ranges `tokens`): each rater's
/// errors that count (`counts`), at least half of the raters.
fn human(
    r: &Rated,
    line: &Line,
    w: usize,
    linked: &[usize],
    tokens: &[(usize, usize)],
    counts: &impl Fn(&ErrorSpan) -> bool,
) -> bool {
    let at = |e: &ErrorSpan| {
        e.target.iter().any(|&s| {
            linked
                .iter()
                .any(|&j| tokens.get(j).is_some_and(|&t| overlaps(s, t)))
        }) || line.ranges[w].is_some_and(|wr| e.source.iter().any(|&s| overlaps(s, wr)))
    };
    let seen = r
        .raters
        .values()
        .filter(|errs| errs.iter().any(|e| counts(e) && at(e)))
        .count();
    !r.raters.is_empty() && 2 * seen >= r.raters.len()
}

/// MQM's score of a rating: the mean over its raters of minus their weighted errors.
fn mqm_score(r: &Rated) -> f64 {
    let total: f64 = r
        .raters
        .values()
        .map(|errs| {
            -errs
                .iter()
                .map(|e| file::weight(&e.category, &e.severity))
                .sum::<f64>()
        })
        .sum();
    total / r.raters.len().max(1) as f64
}

/// One judged item: automatic judgement, human verdict, and what groups it for the
/// permutation test.
#[derive(Debug, Clone)]
struct Judged {
    group: u64,
    judgement: Judgement,
    error: bool,
}

fn agreement(
    items: &[Judged],
    o: &MqmOptions,
    systems: &[SystemRow],
    auto: impl Fn(&SystemRow) -> Option<f64>,
    human_acc: impl Fn(&SystemRow) -> Option<f64>,
) -> Agreement {
    let mut t = Table::default();
    let (mut unaligned, mut no_reference) = (Counted::default(), Counted::default());
    let mut perm = Vec::new();
    for x in items {
        match x.judgement.judged() {
            Some(correct) => {
                t.add(!correct, x.error);
                perm.push((x.group, !correct, x.error));
            }
            None => {
                let c = if x.judgement == Judgement::Unaligned {
                    &mut unaligned
                } else {
                    &mut no_reference
                };
                c.items += 1;
                c.rater_errors += u64::from(x.error);
            }
        }
    }
    let pairs: Vec<(f64, f64, f64)> = systems
        .iter()
        .filter_map(|s| Some((auto(s)?, human_acc(s)?, s.mqm?)))
        .collect();
    let a: Vec<f64> = pairs.iter().map(|p| p.0).collect();
    let h: Vec<f64> = pairs.iter().map(|p| p.1).collect();
    let m: Vec<f64> = pairs.iter().map(|p| p.2).collect();
    let items_n = items.len() as u64;
    Agreement {
        items: items_n,
        judged: t.n(),
        coverage: (items_n > 0).then(|| t.n() as f64 / items_n as f64),
        incorrect_and_error: t.tp,
        incorrect_no_error: t.fp,
        correct_and_error: t.fn_,
        correct_no_error: t.tn,
        incorrect_share: t.automatic_rate(),
        rater_error_rate: t.people_rate(),
        error_if_incorrect: t.precision(),
        error_if_correct: t.miss_rate(),
        mcc: (t.n() > 0).then(|| t.mcc()),
        kappa: t.kappa(),
        permutation_p: (t.n() > 0 && o.permutations > 0)
            .then(|| within_group_permutation(&perm, o.permutations, o.seed)),
        permutations: o.permutations,
        unaligned,
        no_reference,
        systems: pairs.len(),
        spearman: spearman(&a, &m),
        kendall: kendall_tau_b(&a, &m),
        human_spearman: spearman(&h, &m),
        human_kendall: kendall_tau_b(&h, &m),
    }
}

/// What [`mqm`] gives: the report, the word-level items (for `--items`) and the
/// disagreements at loci.
pub struct MqmResult {
    /// `mqm.json`'s content.
    pub report: MqmReport,
    /// Every content word judged, with its human verdict.
    pub items: Vec<Item>,
    /// Systems judged whose outputs are the same (a warning).
    pub identical: Vec<Identical>,
    /// What reading the campaign left out.
    pub left_out: LeftOut,
}

/// Judges every locus of the sets directory `sets` and every content word of its corpus
/// lines that have MQM ratings, and compares with the raters ([`MqmResult`]); the SHA-256
/// of its manifest names the sets in the report. Everything is read first (the sets, the
/// corpus, the campaign, the matched lines' trees and references), then judged, one
/// system at a time, then compared with the raters.
pub fn mqm(sets: &Path, o: &MqmOptions) -> Result<MqmResult> {
    // Read first: the sets, the campaign, the corpus's source lines (segments are matched
    // to them), then the trees and references of the matched lines.
    let l = &load(sets)?;
    let Read {
        c,
        matched,
        unmatched,
        ids,
        words,
        lines,
        references,
        systems,
        excluded,
        identical,
    } = read_all(l, o)?;
    let counts = |e: &ErrorSpan| {
        let sev = e.severity.to_ascii_lowercase();
        let cat = e.category.to_ascii_lowercase();
        o.severities.contains(&sev)
            && (o.categories.is_empty() || o.categories.iter().any(|p| cat.starts_with(p.as_str())))
    };
    let unlocated = c
        .ratings()
        .flat_map(|r| r.raters.values().flatten())
        .filter(|e| counts(e) && e.target.is_empty() && e.source.is_empty())
        .count() as u64;
    // Then the locus judgement: the aligner, the references aligned, the sets' loci on
    // these lines.
    let j = Judging::new(l, o.align_model.as_deref(), o.lemma_model.as_ref())?;
    let judgement = j.settings()?;
    let trained = j.load()?;
    let texts: BTreeMap<u32, String> = ids.iter().copied().zip(references).collect();
    let refs = j.align_texts(&trained, &texts, &words)?;
    let loci = crate::locus::read_loci(l)?;
    let mut distinct: BTreeMap<LocusKey, (Locus, BTreeSet<usize>)> = BTreeMap::new();
    for (si, s) in loci.sets.iter().enumerate() {
        let ph = &l.units[s.unit].set.phenomenon;
        for r in s.rows.iter().filter(|r| lines.contains_key(&(r.id as u32))) {
            let key = (ph.clone(), r.id, r.dep.id, r.head.as_ref().map(|h| h.id));
            distinct
                .entry(key)
                .or_insert_with(|| (r.clone(), BTreeSet::new()))
                .1
                .insert(si);
        }
    }
    // Each line's loci (their indices in `distinct`, in its order).
    let mut loci_on: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (gk, ((_, lid, _, _), _)) in distinct.iter().enumerate() {
        loci_on.entry(*lid as u32).or_default().push(gk);
    }
    let distinct: Vec<(&LocusKey, &(Locus, BTreeSet<usize>))> = distinct.iter().collect();
    let mut word_items: Vec<Judged> = Vec::new();
    let mut locus_items: Vec<Judged> = Vec::new();
    let mut out_items: Vec<Item> = Vec::new();
    let mut disagreements: Vec<Disagreement> = Vec::new();
    let mut system_rows: Vec<SystemRow> = Vec::new();
    let mut set_rows: Vec<SetRow> = Vec::new();
    let (mut order_kept, mut order_changed) = (Counted::default(), Counted::default());
    let empty = Side::default();
    for system in &systems {
        // Its outputs of the lines it was rated on, aligned and judged (one system at a
        // time); then compared with its raters.
        let rated: BTreeMap<u32, &Rated> = ids
            .iter()
            .filter_map(|id| Some((*id, c.rating(system, matched[id])?)))
            .collect();
        let texts: BTreeMap<u32, String> = rated
            .iter()
            .map(|(id, r)| (*id, r.output.text.clone()))
            .collect();
        let outs = j.align_texts(&trained, &texts, &words)?;
        let judged: BTreeMap<u32, LineJudgements> = rated
            .keys()
            .map(|id| {
                let on: Vec<&Locus> = loci_on
                    .get(id)
                    .map_or(&[][..], Vec::as_slice)
                    .iter()
                    .map(|&gk| &distinct[gk].1 .0)
                    .collect();
                let (out, reference) = (
                    outs.get(id).unwrap_or(&empty),
                    refs.get(id).unwrap_or(&empty),
                );
                (*id, judge_line(reference, out, &lines[id].upos, &on))
            })
            .collect();
        let mut row = SystemRow {
            system: system.clone(),
            segments: rated.len() as u64,
            mqm: (!rated.is_empty())
                .then(|| rated.values().map(|r| mqm_score(r)).sum::<f64>() / rated.len() as f64),
            ..SystemRow::default()
        };
        let (mut w_correct, mut w_judged, mut w_ok, mut w_all) = (0u64, 0u64, 0u64, 0u64);
        for (id, r) in &rated {
            let (line, out) = (&lines[id], outs.get(id).unwrap_or(&empty));
            let jl = &judged[id];
            let tokens = token_ranges(&r.output.text, j.aligner.pretokenized);
            let sentence = jl.sentence_chrf;
            for (w, x) in &jl.words {
                let (w, upos) = (*w, &line.upos[*w]);
                let error = human(r, line, w, &x.output, &tokens, &counts);
                w_all += 1;
                w_ok += u64::from(!error);
                if let Some(correct) = x.judgement.judged() {
                    w_judged += 1;
                    w_correct += u64::from(correct);
                }
                word_items.push(Judged {
                    group: (u64::from(*id) << 16) | w as u64,
                    judgement: x.judgement,
                    error,
                });
                out_items.push(Item {
                    level: "word".into(),
                    line: u64::from(*id),
                    segment: line.seg.clone(),
                    doc: line.doc.clone(),
                    system: system.clone(),
                    word: w as u32 + 1,
                    form: words[id][w].clone(),
                    upos: upos.clone(),
                    output: x
                        .output
                        .iter()
                        .filter_map(|&k| out.tokens.get(k).map(String::as_str))
                        .collect::<Vec<_>>()
                        .join(" "),
                    positions: x.output.iter().map(|&k| k as u32 + 1).collect(),
                    judgement: x.judgement.name().to_string(),
                    word_chrf: x.chrf,
                    sentence_chrf: sentence,
                    p_error: x.p_error,
                    error,
                });
            }
        }
        row.words = w_judged;
        row.word_accuracy = (w_judged > 0).then(|| 100.0 * w_correct as f64 / w_judged as f64);
        row.human_word_accuracy = (w_all > 0).then(|| 100.0 * w_ok as f64 / w_all as f64);
        // Loci.
        let mut per_set: BTreeMap<usize, (u64, u64, u64, u64)> = BTreeMap::new();
        let (mut l_correct, mut l_judged, mut l_ok, mut l_all) = (0u64, 0u64, 0u64, 0u64);
        for (gk, ((ph, lid, _, _), (loc, in_sets))) in distinct.iter().enumerate() {
            let id = *lid as u32;
            let Some(r) = rated.get(&id) else {
                continue;
            };
            let (line, out) = (&lines[&id], outs.get(&id).unwrap_or(&empty));
            let reference = refs.get(&id).unwrap_or(&empty);
            let tokens = token_ranges(&r.output.text, j.aligner.pretokenized);
            let jl = &judged[&id];
            // Its place among the line's loci, in the order they were judged.
            let k = loci_on[&id].iter().position(|&g| g == gk).unwrap_or(0);
            let x = &jl.loci[k];
            let mut error = human(
                r,
                line,
                loc.dep.id as usize - 1,
                &x.dep.output,
                &tokens,
                &counts,
            );
            if let (Some(h), Some(hx)) = (&loc.head, &x.head) {
                error |= human(r, line, h.id as usize - 1, &hx.output, &tokens, &counts);
            }
            match x.order {
                Some(true) => order_kept.add(error),
                Some(false) => order_changed.add(error),
                None => {}
            }
            l_all += 1;
            l_ok += u64::from(!error);
            if let Some(correct) = x.judgement.judged() {
                l_judged += 1;
                l_correct += u64::from(correct);
                if correct == error {
                    disagreements.push(Disagreement {
                        system: system.clone(),
                        phenomenon: ph.clone(),
                        line: *lid,
                        segment: line.seg.clone(),
                        doc: line.doc.clone(),
                        dep: loc.dep.form.clone(),
                        head: loc
                            .head
                            .as_ref()
                            .map(|h| h.form.clone())
                            .unwrap_or_default(),
                        judgement: x.judgement.name().to_string(),
                        p_error: x.p_error,
                        rater_error: error,
                        source: words[&id].join(" "),
                        reference: reference.tokens.join(" "),
                        output: out.tokens.join(" "),
                    });
                }
            }
            for &s in in_sets {
                let e = per_set.entry(s).or_default();
                e.0 += 1;
                e.1 += u64::from(!error);
                if let Some(correct) = x.judgement.judged() {
                    e.2 += 1;
                    e.3 += u64::from(correct);
                }
            }
            locus_items.push(Judged {
                group: gk as u64,
                judgement: x.judgement,
                error,
            });
            let mut positions: Vec<usize> = x.dep.output.clone();
            positions.extend(x.head.iter().flat_map(|h| h.output.iter().copied()));
            out_items.push(Item {
                level: "locus".into(),
                line: *lid,
                segment: line.seg.clone(),
                doc: line.doc.clone(),
                system: system.clone(),
                word: loc.dep.id,
                form: match &loc.head {
                    Some(h) => format!("{} {}", loc.dep.form, h.form),
                    None => loc.dep.form.clone(),
                },
                upos: ph.clone(),
                output: positions
                    .iter()
                    .filter_map(|&k| out.tokens.get(k).map(String::as_str))
                    .collect::<Vec<_>>()
                    .join(" "),
                positions: positions.iter().map(|&k| k as u32 + 1).collect(),
                judgement: x.judgement.name().to_string(),
                word_chrf: None,
                sentence_chrf: jl.sentence_chrf,
                p_error: x.p_error,
                error,
            });
        }
        row.loci = l_judged;
        row.locus_accuracy = (l_judged > 0).then(|| 100.0 * l_correct as f64 / l_judged as f64);
        row.human_locus_accuracy = (l_all > 0).then(|| 100.0 * l_ok as f64 / l_all as f64);
        for (s, (n, ok, judged, correct)) in per_set {
            let u = &l.units[loci.sets[s].unit];
            let ci = wilson(ok, n, o.confidence);
            set_rows.push(SetRow {
                system: system.clone(),
                phenomenon: u.set.phenomenon.clone(),
                bucket: u.set.bucket.clone(),
                loci: n,
                human_correct: ok,
                human_accuracy: (n > 0).then(|| 100.0 * ok as f64 / n as f64),
                human_ci_low: ci.map(|c| 100.0 * c.0),
                human_ci_high: ci.map(|c| 100.0 * c.1),
                judged,
                accuracy: (judged > 0).then(|| 100.0 * correct as f64 / judged as f64),
            });
        }
        system_rows.push(row);
    }
    let words_agreement = agreement(
        &word_items,
        o,
        &system_rows,
        |s| s.word_accuracy,
        |s| s.human_word_accuracy,
    );
    let loci_agreement = agreement(
        &locus_items,
        o,
        &system_rows,
        |s| s.locus_accuracy,
        |s| s.human_locus_accuracy,
    );
    let report = MqmReport {
        tool: format!("ldd-sets {}", env!("CARGO_PKG_VERSION")),
        manifest_sha256: l.manifest_sha256.clone(),
        files: o.files.clone(),
        docs: o.docs.clone(),
        severities: o.severities.clone(),
        categories: o.categories.clone(),
        excluded,
        judgement,
        segments: segments_read(&c, matched.len(), unmatched, ids.len(), unlocated),
        words: words_agreement,
        loci: loci_agreement,
        order_kept,
        order_changed,
        systems: system_rows,
        sets: set_rows,
        disagreements,
    };
    Ok(MqmResult {
        report,
        items: out_items,
        identical,
        left_out: c.left_out,
    })
}

/// What `mqm` reads before it judges ([`read_all`]).
struct Read {
    c: Campaign,
    /// Corpus line → its segment.
    matched: BTreeMap<u32, u64>,
    /// Segments whose source is no corpus line.
    unmatched: u64,
    /// The lines judged: matched, in the documents chosen.
    ids: Vec<u32>,
    words: SourceWords,
    lines: BTreeMap<u32, Line>,
    /// Their references (the corpus's target side).
    references: Vec<String>,
    /// The systems judged.
    systems: Vec<String>,
    /// The systems left out: the references, then `--exclude`.
    excluded: Vec<String>,
    identical: Vec<Identical>,
}

/// Everything `mqm` judges with, read and checked before any judging: the corpus files
/// (a path the manifest records is relative to where extract ran: said when missing), the
/// campaign and each filter value against it, the systems judged, the segments matched to
/// corpus lines, then the chosen lines' trees and references.
fn read_all(l: &Loaded, o: &MqmOptions) -> Result<Read> {
    for (which, given, flag) in [
        (RunInput::Source, &o.source, "--src"),
        (RunInput::Target, &o.reference, "--ref"),
        (RunInput::Parse, &o.conllu, "--conllu"),
    ] {
        input_path(l, which, given.as_deref(), flag)?;
    }
    let c = campaign::read(&o.files, o.source_issues)?;
    check_filters(&c, o)?;
    let (systems, excluded) = judged_systems(&c, o)?;
    let all_ids: Vec<u32> = (1..=l.m.corpus.lines as u32).collect();
    let sources = input_lines(l, RunInput::Source, o.source.as_deref(), "--src", &all_ids)?;
    let (matched, unmatched) = match_segments(l, &c, &sources)?;
    drop(sources);
    let ids = chosen_lines(&c, &matched, &o.docs)?;
    // The source words of those lines, their parts of speech and places in the text.
    let mut words = SourceWords::new();
    let mut lines: BTreeMap<u32, Line> = BTreeMap::new();
    input_trees(l, o.conllu.as_deref(), "--conllu", &ids, |id, tree| {
        let s = &c.segments[&matched[&id]];
        words.insert(id, tree.words.iter().map(|w| w.form.to_string()).collect());
        let line = Line {
            doc: s.doc.to_string(),
            upos: tree.words.iter().map(|w| w.upos.to_string()).collect(),
            ranges: word_ranges(tree, &s.source.text),
            seg: matched[&id].to_string(),
        };
        lines.insert(id, line);
        Ok(())
    })?;
    let references = input_lines(l, RunInput::Target, o.reference.as_deref(), "--ref", &ids)?;
    not_the_reference(&c, &systems, &matched, &ids, &references)?;
    let identical = c.identical(&systems);
    Ok(Read {
        c,
        matched,
        unmatched,
        ids,
        words,
        lines,
        references,
        systems,
        excluded,
        identical,
    })
}

/// Refuses a value of `--docs`, `--severity` (when given) or `--categories` that matches
/// nothing in the campaign `c`.
fn check_filters(c: &Campaign, o: &MqmOptions) -> Result<()> {
    let docs = c.docs();
    let listed = |v: &mut dyn Iterator<Item = String>| -> Vec<String> {
        v.filter(|s| !s.is_empty()).collect()
    };
    campaign::check_values(
        "--docs",
        &o.docs,
        |d| docs.contains(d),
        || listed(&mut docs.iter().map(|d| d.to_string())),
    )?;
    if o.severities_given {
        campaign::check_values(
            "--severity",
            &o.severities,
            |s| c.severities.contains(&file::severity_key(s)),
            || listed(&mut c.severities.iter().cloned()),
        )?;
    }
    let lower: Vec<String> = c
        .categories
        .iter()
        .map(|x| x.to_ascii_lowercase())
        .collect();
    campaign::check_values(
        "--categories",
        &o.categories,
        |p| lower.iter().any(|x| x.starts_with(&p.to_ascii_lowercase())),
        || {
            let top: BTreeSet<String> = c
                .categories
                .iter()
                .map(|x| x.split('/').next().unwrap_or(x).to_string() + "/…")
                .collect();
            listed(&mut top.into_iter())
        },
    )
}

/// The systems judged, and those left out: the references (`--references`, each a system
/// of `c`; by default those named like one), then `--exclude` (each a system of `c`).
fn judged_systems(c: &Campaign, o: &MqmOptions) -> Result<(Vec<String>, Vec<String>)> {
    let references: Vec<String> = match &o.references {
        Some(given) => {
            c.check_systems("--references", given)?;
            given.clone()
        }
        None => c
            .systems()
            .filter(|s| is_reference_name(s))
            .map(String::from)
            .collect(),
    };
    c.check_systems("--exclude", &o.exclude)?;
    let mut excluded = references;
    for x in &o.exclude {
        if !excluded.contains(x) {
            excluded.push(x.clone());
        }
    }
    let systems: Vec<String> = c
        .systems()
        .filter(|s| !excluded.iter().any(|x| x == s))
        .map(String::from)
        .collect();
    if systems.is_empty() {
        return Err(Error::Config(format!(
            "the MQM files rate no system once the references and the excluded ones are left \
             out ({})",
            excluded.join(", ")
        )));
    }
    Ok((systems, excluded))
}

/// Each segment of `c` matched to a corpus line of `sources` by its text (whitespace
/// collapsed; the *k*-th segment with a text, in segment order, is the *k*-th line with
/// it): line → segment, and the number of segments not found.
fn match_segments(
    l: &Loaded,
    c: &Campaign,
    sources: &[String],
) -> Result<(BTreeMap<u32, u64>, u64)> {
    let mut by_text: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for (k, s) in sources.iter().enumerate() {
        by_text.entry(collapse(s)).or_default().push(k as u32 + 1);
    }
    let mut used: BTreeMap<String, usize> = BTreeMap::new();
    let mut matched: BTreeMap<u32, u64> = BTreeMap::new();
    let mut unmatched = 0u64;
    for (seg, s) in &c.segments {
        let text = collapse(&s.source.text);
        let k = used.entry(text.clone()).or_default();
        match by_text.get(&text).and_then(|v| v.get(*k)) {
            Some(&id) => {
                matched.insert(id, *seg);
                *k += 1;
            }
            None => unmatched += 1,
        }
    }
    if matched.is_empty() {
        return Err(Error::Data(format!(
            "no MQM segment's source is a line of the corpus of {} (compared with \
             whitespace collapsed); extract the sets from the campaign's source",
            ldd_io::error::shown(&l.manifest_path)
        )));
    }
    Ok((matched, unmatched))
}

/// The matched lines whose segment is in one of `docs` (all when empty).
fn chosen_lines(c: &Campaign, matched: &BTreeMap<u32, u64>, docs: &[String]) -> Result<Vec<u32>> {
    let ids: Vec<u32> = matched
        .iter()
        .filter(|(_, seg)| docs.is_empty() || docs.iter().any(|d| *d == *c.segments[seg].doc))
        .map(|(&id, _)| id)
        .collect();
    if ids.is_empty() {
        return Err(Error::Config(format!(
            "--docs {}: no matched segment is in these documents",
            docs.join(",")
        )));
    }
    Ok(ids)
}

/// Refuses a system whose output is the corpus's reference on every line judged that it
/// was rated on: a human reference under another name would be judged as a system.
fn not_the_reference(
    c: &Campaign,
    systems: &[String],
    matched: &BTreeMap<u32, u64>,
    ids: &[u32],
    references: &[String],
) -> Result<()> {
    for s in systems {
        let outputs: Vec<(&Rated, &String)> = ids
            .iter()
            .zip(references)
            .filter_map(|(id, r)| Some((c.rating(s, matched[id])?, r)))
            .collect();
        let same = outputs
            .iter()
            .all(|(x, r)| collapse(&x.output.text) == collapse(r));
        if same && !outputs.is_empty() {
            return Err(Error::Data(format!(
                "system {}: its output is the corpus's reference on every one of its {} \
                 segments judged — a human reference under another name; name it with \
                 --references, or leave it out with --exclude",
                ldd_io::error::quote(s, 40),
                outputs.len()
            )));
        }
    }
    Ok(())
}

/// How the campaign `c` was read and matched.
fn segments_read(
    c: &Campaign,
    matched: usize,
    unmatched: u64,
    used: usize,
    unlocated: u64,
) -> Segments {
    Segments {
        rows: c.rows,
        segments: c.segments.len() as u64,
        matched: matched as u64,
        unmatched,
        used: used as u64,
        unclosed_spans: c.unclosed,
        unlocated_errors: unlocated,
        rater_checks: c.left_out.rater_checks,
        metadata_rows: c.left_out.metadata_rows,
        source_issues: c.left_out.source_issues,
        marked_twice: c.left_out.marked_twice,
    }
}
