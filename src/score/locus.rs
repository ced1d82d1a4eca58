//! Locus accuracy as a metric of `score`: every set's loci judged on each system's output
//! by the locus stage ([`crate::locus`]: the rule, the aligner, the baseline), then counted
//! per set and corpus.
//!
//! Per set: the share of correct loci (×100) among the judged ones, its Wilson interval,
//! McNemar's exact test of each system against the first on the same loci, the loci not
//! judged (no reference, unaligned), and the baseline — the set's locus words judged one
//! by one against the comparable words of the same sentences, with Newcombe's interval of
//! the difference and the pooled z-test; per phenomenon, Spearman and Pearson of accuracy
//! against the sets' minimum distance. Memory: the locus rows, source words and parts of
//! speech of the sets' lines, the reference's aligned lines, and one system's at a time.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ldd_eval::agreement::two_proportions;

use super::{share, Loaded, Metric, Row, Trend};
use crate::error::Result;
use crate::format::judged::{self, Judged, Judgement};
use crate::format::locus::Locus;
use crate::format::scores::Baseline;
use crate::locus::rule::{self, Side};
use crate::locus::words::{self, Counts};
use crate::locus::{
    read_loci, Context, Judging, Kind, Loci, Rendering, SetLoci, Sides, SourceWords,
};
use crate::pipeline::read::sets::Distinct;

pub use crate::locus::{KEY, LABEL};

/// What [`evaluate`] gives: score rows, trends, and the judgements file.
pub struct Evaluated {
    /// Rows per system (`[system][row]`), the corpus row first.
    pub rows: Vec<Vec<Row>>,
    /// Trends over d per system and phenomenon.
    pub trends: Vec<Trend>,
    /// `scores.loci.tsv` ([`crate::format::judged`]): every distinct locus, judged for every
    /// system.
    pub judgements: String,
    /// Its rows.
    pub judged_rows: u64,
}

/// One system's judgements: per set, each row's rendering and the set's baseline; per
/// distinct locus, its rendering; and the system's output tokens by line id.
struct SystemLoci {
    sets: Vec<(Vec<Rendering>, words::Baseline)>,
    distinct: Vec<Rendering>,
    corpus: words::Baseline,
    outputs: BTreeMap<u32, Vec<String>>,
}

/// Locus rows and trends of every system (`hyps`, named `systems`), judged with `judging`,
/// `confidence` the level of the intervals, and the judgement of every locus
/// ([`Evaluated`]); `reference` is the corpus's target side.
pub fn evaluate(
    loaded: &Loaded,
    hyps: &[PathBuf],
    systems: &[String],
    judging: &Judging,
    metric: &Metric,
    confidence: f64,
    reference: &Path,
) -> Result<Evaluated> {
    let loci = read_loci(loaded)?;
    let (per_system, refs) = judge_systems(loaded, judging, reference, hyps, &loci)?;
    let builder = RowBuilder {
        systems,
        metric,
        confidence,
    };
    let mut rows: Vec<Vec<Row>> = vec![Vec::new(); hyps.len()];
    // The corpus: every distinct locus (phenomenon, line, dependent, head) once.
    for (s, sys_rows) in rows.iter_mut().enumerate() {
        let own = &per_system[s];
        let mut r = builder.row(
            s,
            "corpus",
            &own.distinct,
            &per_system[0].distinct,
            &own.corpus,
        );
        r.bucket = "corpus".into();
        r.sentences = loaded.manifest.corpus.lines;
        sys_rows.push(r);
    }
    for (si, set) in loci.sets.iter().enumerate() {
        let u = &loaded.units[set.unit];
        for (s, sys_rows) in rows.iter_mut().enumerate() {
            let (own, b) = &per_system[s].sets[si];
            let mut r = builder.row(s, "set", own, &per_system[0].sets[si].0, b);
            r.kind = u.set.kind.name().into();
            r.phenomenon = u.set.phenomenon.clone();
            r.bucket = u.set.bucket.clone();
            r.min_distance = Some(u.set.min_distance);
            r.exact = Some(u.set.exact);
            r.sentences = u.ids.len() as u64;
            sys_rows.push(r);
        }
    }
    let (judgements, judged_rows) = judgements(
        loaded,
        &loci.sets,
        &loci.distinct,
        &loci.words,
        &refs,
        &per_system,
        systems,
    );
    Ok(Evaluated {
        trends: share::trends(metric, systems, &rows),
        rows,
        judgements,
        judged_rows,
    })
}

/// Every system's output aligned to the source and every locus judged ([`SystemLoci`]),
/// with the reference's sides.
fn judge_systems(
    loaded: &Loaded,
    judging: &Judging,
    reference: &Path,
    hyps: &[PathBuf],
    loci: &Loci,
) -> Result<(Vec<SystemLoci>, Sides)> {
    let distinct_rows: Vec<Locus> = loci
        .distinct
        .iter()
        .map(|d| loci.sets[d.set].rows[d.row].clone())
        .collect();
    let distinct_kinds: Vec<Kind<'_>> = loci
        .distinct
        .iter()
        .map(|d| loci.sets[d.set].kind(loaded))
        .collect();
    let mut per_system: Vec<SystemLoci> = Vec::new();
    let trees = (&loci.words, &loci.upos);
    let refs =
        crate::locus::align_each(loaded, judging, reference, hyps, trees, |cx, refs, out| {
            per_system.push(SystemLoci {
                sets: loci
                    .sets
                    .iter()
                    .map(|s| {
                        let kind = s.kind(loaded);
                        (
                            judge_rows(cx, (refs, &out), &s.rows, |_| kind),
                            words::baseline(&s.rows, cx, refs, &out),
                        )
                    })
                    .collect(),
                distinct: judge_rows(cx, (refs, &out), &distinct_rows, |k| distinct_kinds[k]),
                corpus: words::baseline(&distinct_rows, cx, refs, &out),
                outputs: out.into_iter().map(|(id, s)| (id, s.tokens)).collect(),
            });
            Ok(())
        })?;
    Ok((per_system, refs))
}

/// Every locus of `rows` (the k-th of kind `kind(k)`) judged: the reference's side
/// against the output's.
fn judge_rows<'a>(
    cx: &Context<'_>,
    (refs, out): (&Sides, &Sides),
    rows: &[Locus],
    kind: impl Fn(usize) -> Kind<'a>,
) -> Vec<Rendering> {
    let empty = Side::default();
    rows.iter()
        .enumerate()
        .map(|(k, r)| {
            let id = r.id as u32;
            let (x, y) = (refs.get(&id), out.get(&id));
            let (x, y) = (x.unwrap_or(&empty), y.unwrap_or(&empty));
            crate::locus::judge(&cx.line(id), r, kind(k), x, y)
        })
        .collect()
}

/// What every locus row shares: the systems' names, the metric and the intervals' level.
struct RowBuilder<'a> {
    systems: &'a [String],
    metric: &'a Metric,
    confidence: f64,
}

impl RowBuilder<'_> {
    /// `system`'s row of `scope` from its renderings `own` (the first system's `base`
    /// for the paired test) with the baseline of its comparable words `baseline`.
    fn row(
        &self,
        system: usize,
        scope: &str,
        own: &[Rendering],
        base: &[Rendering],
        baseline: &words::Baseline,
    ) -> Row {
        let outcomes = |r: &[Rendering]| -> Vec<Option<bool>> {
            r.iter().map(|x| x.judgement.judged()).collect()
        };
        let mut r = share::row(
            &self.systems[system],
            self.metric,
            scope,
            &outcomes(own),
            (system > 0).then_some(outcomes(base).as_slice()),
            self.confidence,
        );
        let count = |j: Judgement| own.iter().filter(|x| x.judgement == j).count() as u64;
        r.no_reference = Some(count(Judgement::NoReference));
        r.unaligned = Some(count(Judgement::Unaligned));
        r.differs = Some(count(Judgement::Differs));
        r.partial = Some(count(Judgement::Partial));
        r.baseline = Some(baseline_row(baseline, self.confidence));
        r
    }
}

/// The baseline record of a row: the locus words' accuracy against the comparable words'.
fn baseline_row(baseline: &words::Baseline, confidence: f64) -> Baseline {
    let score = |c: &Counts| (c.judged() > 0).then(|| 100.0 * c.correct as f64 / c.judged() as f64);
    let test = two_proportions(
        baseline.locus.correct,
        baseline.locus.judged(),
        baseline.comparable.correct,
        baseline.comparable.judged(),
        confidence,
    );
    Baseline {
        words: baseline.locus.judged(),
        unaligned: baseline.locus.unaligned,
        word_score: score(&baseline.locus),
        comparable: baseline.comparable.judged(),
        comparable_score: score(&baseline.comparable),
        diff: test.map(|t| 100.0 * t.0),
        diff_ci_low: test.map(|t| 100.0 * t.1 .0),
        diff_ci_high: test.map(|t| 100.0 * t.1 .1),
        p_value: test.map(|t| t.2),
        ..Baseline::default()
    }
}

/// `scores.loci.tsv`: every distinct locus, one row per system, and its row count.
fn judgements(
    loaded: &Loaded,
    sets: &[SetLoci],
    distinct: &[Distinct],
    words: &SourceWords,
    refs: &Sides,
    per_system: &[SystemLoci],
    systems: &[String],
) -> (String, u64) {
    let mut out = String::from(judged::HEADER);
    out.push('\n');
    let mut n = 0u64;
    let none = Vec::new();
    let one_based = |p: &[usize]| -> Vec<u32> { p.iter().map(|&k| k as u32 + 1).collect() };
    for (k, d) in distinct.iter().enumerate() {
        let r = &sets[d.set].rows[d.row];
        let id = r.id as u32;
        let reference = refs.get(&id).map_or(&none, |s| &s.tokens);
        for (s, system) in systems.iter().enumerate() {
            let x = &per_system[s].distinct[k];
            let j = Judged {
                phenomenon: loaded.units[sets[d.set].unit].set.phenomenon.clone(),
                sets: d.buckets.clone(),
                id: r.id,
                distance: r.distance,
                dep: r.dep.clone(),
                head: r.head.clone(),
                system: system.clone(),
                judgement: x.judgement,
                ref_dep: one_based(&x.dep.reference),
                ref_head: x
                    .head
                    .as_ref()
                    .map_or_else(Vec::new, |h| one_based(&h.reference)),
                hyp_dep: one_based(&x.dep.tokens()),
                hyp_head: x
                    .head
                    .as_ref()
                    .map_or_else(Vec::new, |h| one_based(&h.tokens())),
                source: words.get(&id).cloned().unwrap_or_default(),
                reference: reference.clone(),
                output: per_system[s].outputs.get(&id).cloned().unwrap_or_default(),
                p_error: None,
                order: x.order,
                evidence: x.evidence(),
                rule: rule::VERSION.into(),
            };
            out.push_str(&j.row());
            out.push('\n');
            n += 1;
        }
    }
    (out, n)
}
