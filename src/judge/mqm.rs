//! `mqm`: human judgements of every locus and every word from MQM annotations (the WMT
//! format, [`crate::format::mqm`]), and how far the locus judgement ([`crate::locus`])
//! agrees with them — no new annotation needed.
//!
//! Segments are matched to corpus lines by their source text (whitespace collapsed; the
//! *k*-th segment with a text, in segment order, is the *k*-th corpus line with it). Each
//! system's output is the `target` of its rows. Both the reference (the corpus target) and
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
//! Kendall's correlations between them. Memory: the MQM files, and the judged lines of
//! the reference and one system at a time.

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
    self as file, Agreement, Counted, Disagreement, Item, MqmReport, Row, Segments, SetRow,
    SystemRow,
};
use crate::locus::rule::Side;
use crate::locus::{judge_line, Judging, LineJudgements, SourceWords};
use crate::parse::TargetModel;
use crate::read::sets::{input_lines, input_trees, load, RunInput};

/// Most rows read from MQM files (a WMT campaign has about 100,000).
pub const MAX_ROWS: u64 = 5_000_000;

/// What `mqm` reads and how it decides.
#[derive(Debug, Clone)]
pub struct MqmOptions {
    /// The MQM files.
    pub files: Vec<PathBuf>,
    /// Only these documents (`doc` column) [default: all].
    pub docs: Vec<String>,
    /// Severities that count as an error (lowercase) [default: major, minor].
    pub severities: Vec<String>,
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

/// One system's rating of one segment: its output, and each rater's errors.
#[derive(Debug, Default)]
struct Rated {
    output: file::Marked,
    /// Rater → their errors (category, severity, target spans, source spans).
    raters: BTreeMap<String, Vec<ErrorSpan>>,
}

#[derive(Debug, Clone)]
struct ErrorSpan {
    category: String,
    severity: String,
    target: Vec<(usize, usize)>,
    source: Vec<(usize, usize)>,
}

/// Everything read from the MQM files.
#[derive(Debug, Default)]
struct Campaign {
    /// Segment → (doc, source text as marked, first line in its file).
    segments: BTreeMap<String, (String, file::Marked, (usize, u64))>,
    /// (system, segment) → its rating.
    rated: BTreeMap<(String, String), Rated>,
    rows: u64,
    unclosed: u64,
}

fn read_campaign(o: &MqmOptions) -> Result<Campaign> {
    let mut c = Campaign::default();
    for (k, path) in o.files.iter().enumerate() {
        file::read(path, |row: Row| {
            c.rows += 1;
            if c.rows > MAX_ROWS {
                return Err(Error::input(
                    path,
                    row.line,
                    format!("more than {MAX_ROWS} MQM rows in all; split the campaign"),
                ));
            }
            c.unclosed += u64::from(row.source.unclosed) + u64::from(row.target.unclosed);
            let seg = c
                .segments
                .entry(row.seg_id.clone())
                .or_insert_with(|| (row.doc.clone(), row.source.clone(), (k, row.line)));
            if collapse(&seg.1.text) != collapse(&row.source.text) {
                return Err(Error::input(
                    path,
                    row.line,
                    format!(
                        "segment {}: another source text than on line {} of {}",
                        ldd_io::error::quote(&row.seg_id, 20),
                        seg.2 .1,
                        ldd_io::error::shown(&o.files[seg.2 .0])
                    ),
                ));
            }
            let r = c
                .rated
                .entry((row.system.clone(), row.seg_id.clone()))
                .or_default();
            if r.raters.is_empty() {
                r.output = row.target.clone();
            } else if r.output.text != row.target.text {
                return Err(Error::input(
                    path,
                    row.line,
                    format!(
                        "system {} segment {}: another output text than in its earlier rows",
                        ldd_io::error::quote(&row.system, 40),
                        ldd_io::error::quote(&row.seg_id, 20)
                    ),
                ));
            }
            let errors = r.raters.entry(row.rater.clone()).or_default();
            if !row.no_error() {
                errors.push(ErrorSpan {
                    category: row.category.clone(),
                    severity: row.severity.clone(),
                    target: row.target.spans.clone(),
                    source: row.source.spans.clone(),
                });
            }
            Ok(())
        })?;
    }
    Ok(c)
}

/// Whitespace collapsed: how source texts are compared.
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Segment ids in order: by number when every id is one, else as text.
fn segment_order(ids: impl Iterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = ids.collect();
    if v.iter().all(|s| s.parse::<u64>().is_ok()) {
        v.sort_by_key(|s| s.parse::<u64>().unwrap_or(0));
    } else {
        v.sort();
    }
    v
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
}

/// Judges every locus of the sets directory `sets` and every content word of its corpus
/// lines that have MQM ratings, and compares with the raters ([`MqmResult`]); the SHA-256
/// of its manifest names the sets in the report. Everything is read first (the sets, the
/// corpus, the campaign, the matched lines' trees and references), then judged, one
/// system at a time, then compared with the raters.
pub fn mqm(sets: &Path, o: &MqmOptions) -> Result<MqmResult> {
    // Read first: the sets and the corpus's source lines (segments are matched to them),
    // the campaign, then the trees and references of the matched lines.
    let l = &load(sets)?;
    let all_ids: Vec<u32> = (1..=l.m.corpus.lines as u32).collect();
    let sources = input_lines(l, RunInput::Source, o.source.as_deref(), "--src", &all_ids)?;
    let c = read_campaign(o)?;
    let counts = |e: &ErrorSpan| {
        let sev = e.severity.to_ascii_lowercase();
        let cat = e.category.to_ascii_lowercase();
        o.severities.contains(&sev)
            && (o.categories.is_empty() || o.categories.iter().any(|p| cat.starts_with(p.as_str())))
    };
    let unlocated = c
        .rated
        .values()
        .flat_map(|r| r.raters.values().flatten())
        .filter(|e| counts(e) && e.target.is_empty() && e.source.is_empty())
        .count() as u64;
    // Segments matched to corpus lines by source text.
    let mut by_text: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for (k, s) in sources.iter().enumerate() {
        by_text.entry(collapse(s)).or_default().push(k as u32 + 1);
    }
    drop(sources);
    let mut used: BTreeMap<String, usize> = BTreeMap::new();
    let mut matched: BTreeMap<u32, String> = BTreeMap::new();
    let mut unmatched = 0u64;
    for seg in segment_order(c.segments.keys().cloned()) {
        let text = collapse(&c.segments[&seg].1.text);
        let k = used.entry(text.clone()).or_default();
        match by_text.get(&text).and_then(|v| v.get(*k)) {
            Some(&id) => {
                matched.insert(id, seg);
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
    let wanted = |seg: &str| {
        let doc = &c.segments[seg].0;
        o.docs.is_empty() || o.docs.iter().any(|d| d == doc)
    };
    let ids: Vec<u32> = matched
        .iter()
        .filter(|(_, s)| wanted(s))
        .map(|(&id, _)| id)
        .collect();
    if ids.is_empty() {
        return Err(Error::Config(format!(
            "--docs {}: no matched segment is in these documents",
            o.docs.join(",")
        )));
    }
    // The source words of those lines, their parts of speech and places in the text.
    let segment = |id: u32| &c.segments[&matched[&id]];
    let mut words = SourceWords::new();
    let mut lines: BTreeMap<u32, Line> = BTreeMap::new();
    input_trees(l, o.conllu.as_deref(), "--conllu", &ids, |id, tree| {
        let (doc, source, _) = segment(id);
        words.insert(id, tree.words.iter().map(|w| w.form.to_string()).collect());
        lines.insert(
            id,
            Line {
                doc: doc.clone(),
                upos: tree.words.iter().map(|w| w.upos.to_string()).collect(),
                ranges: word_ranges(tree, &source.text),
                seg: matched[&id].clone(),
            },
        );
        Ok(())
    })?;
    let references = input_lines(l, RunInput::Target, o.reference.as_deref(), "--ref", &ids)?;
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
    let systems: Vec<String> = {
        let names: BTreeSet<&String> = c.rated.keys().map(|(s, _)| s).collect();
        names
            .into_iter()
            .filter(|s| !o.exclude.contains(s))
            .cloned()
            .collect()
    };
    if systems.is_empty() {
        return Err(Error::Config(
            "the MQM files rate no system once the excluded ones (--exclude) are left out".into(),
        ));
    }
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
            .filter_map(|id| Some((*id, c.rated.get(&(system.clone(), matched[id].clone()))?)))
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
        excluded: o.exclude.clone(),
        judgement,
        segments: Segments {
            rows: c.rows,
            segments: c.segments.len() as u64,
            matched: matched.len() as u64,
            unmatched,
            used: ids.len() as u64,
            unclosed_spans: c.unclosed,
            unlocated_errors: unlocated,
        },
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
    })
}

/// A campaign as a corpus ([`export`]): the source, the reference and every system's
/// output, one line per segment in segment order.
#[derive(Debug, Clone, Default)]
pub struct Exported {
    /// Segment ids, in order.
    pub segments: Vec<String>,
    /// Their documents.
    pub docs: Vec<String>,
    /// Source lines.
    pub source: Vec<String>,
    /// The reference system's outputs.
    pub reference: Vec<String>,
    /// Every other system's outputs (empty where it was not rated), by name.
    pub systems: BTreeMap<String, Vec<String>>,
}

/// The MQM files `files` as a corpus: each segment's source, the output of
/// `reference_system` as the reference, and every other system's output (marks taken
/// out). A segment the reference system was not rated on is an error.
pub fn export(files: &[PathBuf], reference_system: &str) -> Result<Exported> {
    let o = MqmOptions {
        files: files.to_vec(),
        docs: Vec::new(),
        severities: Vec::new(),
        categories: Vec::new(),
        exclude: Vec::new(),
        conllu: None,
        source: None,
        reference: None,
        permutations: 0,
        seed: 0,
        confidence: 0.95,
        align_model: None,
        lemma_model: None,
    };
    let c = read_campaign(&o)?;
    let mut e = Exported::default();
    let names: BTreeSet<&String> = c.rated.keys().map(|(s, _)| s).collect();
    if !names.contains(&reference_system.to_string()) {
        return Err(Error::Config(format!(
            "--reference-system {}: no such system in the MQM files (they rate {})",
            ldd_io::error::quote(reference_system, 40),
            names
                .iter()
                .map(|n| ldd_io::error::quote(n, 40))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    for seg in segment_order(c.segments.keys().cloned()) {
        let (doc, source, _) = &c.segments[&seg];
        let Some(r) = c.rated.get(&(reference_system.to_string(), seg.clone())) else {
            return Err(Error::Data(format!(
                "segment {}: the reference system {} was not rated on it",
                ldd_io::error::quote(&seg, 20),
                ldd_io::error::quote(reference_system, 40)
            )));
        };
        e.reference.push(r.output.text.clone());
        e.source.push(source.text.clone());
        e.docs.push(doc.clone());
        for name in names.iter().filter(|n| n.as_str() != reference_system) {
            let line = c
                .rated
                .get(&((*name).clone(), seg.clone()))
                .map(|r| r.output.text.clone())
                .unwrap_or_default();
            e.systems.entry((*name).clone()).or_default().push(line);
        }
        e.segments.push(seg);
    }
    Ok(e)
}
