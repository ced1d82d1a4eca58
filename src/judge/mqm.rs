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

use ldd_eval::significance::wilson;

use crate::error::{Error, Result};
use crate::format::locus::Locus;
use crate::format::mqm::{
    self as file, collapse, is_reference_name, Agreement, Counted, Disagreement, Item,
    KindAgreement, MqmReport, Segments, SetRow, SystemRow,
};
use crate::format::sets::SetKind;
use crate::judge::agreement;
use crate::locus::rule::Side;
use crate::locus::{judge_line, Judging, Kind, LineJudgements, Rendering, SourceWords};
use crate::pipeline::read::sets::{input_lines, input_path, input_trees, load, Loaded, RunInput};

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
    /// How the reference and the outputs are parsed (`--tgt-model`).
    pub parsing: crate::locus::Parsing,
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

fn overlaps(span: (usize, usize), other: (usize, usize)) -> bool {
    span.0 < other.1 && other.0 < span.1
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

/// Whether the raters of `rated` saw an error at `source_word` (0-based) of `line`, whose output
/// tokens linked to the word are `linked` (their byte ranges `tokens`): each rater's
/// errors that count (`counts`), at least half of the raters.
fn human(
    rated: &Rated,
    line: &Line,
    source_word: usize,
    linked: &[usize],
    tokens: &[(usize, usize)],
    counts: &dyn Fn(&ErrorSpan) -> bool,
) -> bool {
    let at = |e: &ErrorSpan| {
        e.target.iter().any(|&s| {
            linked
                .iter()
                .any(|&j| tokens.get(j).is_some_and(|&t| overlaps(s, t)))
        }) || line.ranges[source_word].is_some_and(|wr| e.source.iter().any(|&s| overlaps(s, wr)))
    };
    let seen = rated
        .raters
        .values()
        .filter(|errs| errs.iter().any(|e| counts(e) && at(e)))
        .count();
    !rated.raters.is_empty() && 2 * seen >= rated.raters.len()
}

/// MQM's score of a rating: the mean over its raters of minus their weighted errors.
fn mqm_score(rated: &Rated) -> f64 {
    let total: f64 = rated
        .raters
        .values()
        .map(|errs| {
            -errs
                .iter()
                .map(|e| file::weight(&e.category, &e.severity))
                .sum::<f64>()
        })
        .sum();
    total / rated.raters.len().max(1) as f64
}

/// What [`judge_mqm`] gives: the report, the word-level items (for `--items`) and the
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

/// Whether error `span` counts: of the severities and categories chosen, compared by their
/// keys (the span's are keys already: [`ErrorSpan`]).
fn counts(options: &MqmOptions, span: &ErrorSpan) -> bool {
    options
        .severities
        .iter()
        .any(|s| file::severity_key(s) == *span.severity)
        && (options.categories.is_empty()
            || options
                .categories
                .iter()
                .any(|p| span.category.starts_with(file::category_key(p).as_str())))
}

/// Judges every locus of the sets directory `sets` and every content word of its corpus
/// lines that have MQM ratings, and compares with the raters ([`MqmResult`]); the SHA-256
/// of its manifest names the sets in the report. Everything is read first (the sets, the
/// corpus, the campaign, the matched lines' trees and references), then judged, one
/// system at a time, then compared with the raters.
pub fn judge_mqm(sets: &Path, options: &MqmOptions) -> Result<MqmResult> {
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
    } = read_all(l, options)?;
    let counts = |e: &ErrorSpan| counts(options, e);
    // Then the locus judgement: the aligner, the references aligned, the sets' loci on
    // these lines; each system judged and compared with its raters.
    let align_model = options.align_model.as_deref();
    let j = Judging::new(l, align_model, &options.parsing)?;
    let judgement = j.settings()?;
    let trained = j.load()?;
    let texts: BTreeMap<u32, String> = ids.iter().copied().zip(references).collect();
    let refs = j.align_texts(&trained, &texts, &words)?;
    let loci = RatedLoci::new(l, &crate::locus::read_loci(l)?, &lines);
    let cx = Judge {
        j: &j,
        trained: &trained,
        words: &words,
        lines: &lines,
        refs: &refs,
        references: &texts,
        loci: &loci,
        counts: &counts,
        confidence: options.confidence,
    };
    let mut g = Gathered::default();
    for system in &systems {
        // Its outputs of the lines it was rated on.
        let rated = ids
            .iter()
            .filter_map(|id| Some((*id, c.rating(system, matched[id])?)));
        cx.system(system, &rated.collect(), &mut g)?;
    }
    let (words, words_baseline, loci_all, loci_baseline, kinds) =
        g.agreements(agreement::Permutations {
            shuffles: options.permutations,
            seed: options.seed,
        });
    let report = MqmReport {
        tool: format!("ldd-sets {}", env!("CARGO_PKG_VERSION")),
        manifest_sha256: l.manifest_sha256.clone(),
        files: options.files.clone(),
        docs: options.docs.clone(),
        severities: options.severities.clone(),
        categories: options.categories.clone(),
        excluded,
        judgement,
        segments: segments_read(&c, options, matched.len(), unmatched, ids.len()),
        words,
        loci: loci_all,
        words_baseline,
        loci_baseline,
        kinds,
        order_kept: g.order_kept,
        order_changed: g.order_changed,
        systems: g.systems,
        sets: g.sets,
        disagreements: g.disagreements,
    };
    Ok(MqmResult {
        report,
        items: g.out_items,
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
fn read_all(loaded: &Loaded, options: &MqmOptions) -> Result<Read> {
    for (which, given, flag) in [
        (RunInput::Source, &options.source, "--src"),
        (RunInput::Target, &options.reference, "--ref"),
        (RunInput::Parse, &options.conllu, "--conllu"),
    ] {
        input_path(loaded, which, given.as_deref(), flag)?;
    }
    let c = campaign::read(&options.files, options.source_issues)?;
    check_filters(&c, options)?;
    let (systems, excluded) = judged_systems(&c, options)?;
    let all_ids: Vec<u32> = (1..=loaded.manifest.corpus.lines as u32).collect();
    let sources = input_lines(
        loaded,
        RunInput::Source,
        options.source.as_deref(),
        "--src",
        &all_ids,
    )?;
    let (matched, unmatched) = match_segments(loaded, &c, &sources)?;
    drop(sources);
    let ids = chosen_lines(&c, &matched, &options.docs)?;
    // The source words of those lines, their parts of speech and places in the text.
    let mut words = SourceWords::new();
    let mut lines: BTreeMap<u32, Line> = BTreeMap::new();
    input_trees(
        loaded,
        options.conllu.as_deref(),
        "--conllu",
        &ids,
        |id, tree| {
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
        },
    )?;
    let references = input_lines(
        loaded,
        RunInput::Target,
        options.reference.as_deref(),
        "--ref",
        &ids,
    )?;
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
/// nothing in the `campaign`.
fn check_filters(campaign: &Campaign, options: &MqmOptions) -> Result<()> {
    let docs = campaign.docs();
    let listed = |v: &mut dyn Iterator<Item = String>| -> Vec<String> {
        v.filter(|s| !s.is_empty()).collect()
    };
    super::campaign::check_values(
        "--docs",
        &options.docs,
        |d| docs.contains(d),
        || listed(&mut docs.iter().map(|d| d.to_string())),
    )?;
    if options.severities_given {
        super::campaign::check_values(
            "--severity",
            &options.severities,
            |s| campaign.severities.contains(&file::severity_key(s)),
            || listed(&mut campaign.severities.iter().cloned()),
        )?;
    }
    let keys: Vec<String> = campaign
        .categories
        .iter()
        .map(|x| file::category_key(x))
        .collect();
    super::campaign::check_values(
        "--categories",
        &options.categories,
        |p| keys.iter().any(|x| x.starts_with(&file::category_key(p))),
        || {
            let top: BTreeSet<String> = campaign
                .categories
                .iter()
                .map(|x| x.split('/').next().unwrap_or(x).to_string() + "/…")
                .collect();
            listed(&mut top.into_iter())
        },
    )
}

/// The systems judged, and those left out: the references (`--references`, each a system
/// of `campaign`; by default those named like one), then `--exclude` (each a system of `campaign`).
fn judged_systems(campaign: &Campaign, options: &MqmOptions) -> Result<(Vec<String>, Vec<String>)> {
    let references: Vec<String> = match &options.references {
        Some(given) => {
            campaign.check_systems("--references", given)?;
            given.clone()
        }
        None => campaign
            .systems()
            .filter(|s| is_reference_name(s))
            .map(String::from)
            .collect(),
    };
    campaign.check_systems("--exclude", &options.exclude)?;
    let mut excluded = references;
    for x in &options.exclude {
        if !excluded.contains(x) {
            excluded.push(x.clone());
        }
    }
    let systems: Vec<String> = campaign
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

/// Each segment of `campaign` matched to a corpus line of `sources` by its text (whitespace
/// collapsed; the *k*-th segment with a text, in segment order, is the *k*-th line with
/// it): line → segment, and the number of segments not found.
fn match_segments(
    loaded: &Loaded,
    campaign: &Campaign,
    sources: &[String],
) -> Result<(BTreeMap<u32, u64>, u64)> {
    let mut by_text: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for (k, s) in sources.iter().enumerate() {
        by_text.entry(collapse(s)).or_default().push(k as u32 + 1);
    }
    let mut used: BTreeMap<String, usize> = BTreeMap::new();
    let mut matched: BTreeMap<u32, u64> = BTreeMap::new();
    let mut unmatched = 0u64;
    for (seg, s) in &campaign.segments {
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
            ldd_io::error::shown(&loaded.manifest_path)
        )));
    }
    Ok((matched, unmatched))
}

/// The matched lines whose segment is in one of `docs` (all when empty).
fn chosen_lines(
    campaign: &Campaign,
    matched: &BTreeMap<u32, u64>,
    docs: &[String],
) -> Result<Vec<u32>> {
    let ids: Vec<u32> = matched
        .iter()
        .filter(|(_, seg)| {
            docs.is_empty() || docs.iter().any(|d| *d == *campaign.segments[seg].doc)
        })
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
    campaign: &Campaign,
    systems: &[String],
    matched: &BTreeMap<u32, u64>,
    ids: &[u32],
    references: &[String],
) -> Result<()> {
    for s in systems {
        let outputs: Vec<(&Rated, &String)> = ids
            .iter()
            .zip(references)
            .filter_map(|(id, r)| Some((campaign.rating(s, matched[id])?, r)))
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

/// How `campaign` was read and matched (and how many of the errors that count, by
/// `options`, have no span).
fn segments_read(
    campaign: &Campaign,
    options: &MqmOptions,
    matched: usize,
    unmatched: u64,
    used: usize,
) -> Segments {
    let unlocated = campaign
        .ratings()
        .flat_map(|r| r.raters.values().flatten())
        .filter(|e| counts(options, e) && e.target.is_empty() && e.source.is_empty())
        .count() as u64;
    Segments {
        rows: campaign.rows,
        segments: campaign.segments.len() as u64,
        matched: matched as u64,
        unmatched,
        used: used as u64,
        unclosed_spans: campaign.unclosed,
        unlocated_errors: unlocated,
        rater_checks: campaign.left_out.rater_checks,
        metadata_rows: campaign.left_out.metadata_rows,
        source_issues: campaign.left_out.source_issues,
        marked_twice: campaign.left_out.marked_twice,
    }
}

/// The kinds of loci whose agreement is reported apart, in order.
const KINDS: [SetKind; 2] = [SetKind::Lexical, SetKind::Reorder];

/// One distinct locus of the sets on a rated line.
#[derive(Debug)]
struct RatedLocus {
    phenomenon: String,
    locus: Locus,
    /// Its sets (indices into [`RatedLoci::sets`]).
    sets: BTreeSet<usize>,
    /// Its kind (index into [`KINDS`]).
    kind: usize,
}

/// The distinct loci (phenomenon, line, dependent, head) of the sets on rated lines.
#[derive(Debug)]
struct RatedLoci {
    list: Vec<RatedLocus>,
    /// Each line's loci (indices into `list`, in its order).
    on: BTreeMap<u32, Vec<usize>>,
    /// Every set with a locus file: phenomenon and bucket.
    sets: Vec<(String, String)>,
}

impl RatedLoci {
    fn new(
        loaded: &crate::pipeline::read::sets::Loaded,
        loci: &crate::locus::Loci,
        lines: &BTreeMap<u32, Line>,
    ) -> RatedLoci {
        let mut distinct: BTreeMap<LocusKey, RatedLocus> = BTreeMap::new();
        for (si, s) in loci.sets.iter().enumerate() {
            let set = &loaded.units[s.unit].set;
            let kind = KINDS.iter().position(|k| *k == set.kind).unwrap_or(0);
            for r in s.rows.iter().filter(|r| lines.contains_key(&(r.id as u32))) {
                let key = (
                    set.phenomenon.clone(),
                    r.id,
                    r.dep.id,
                    r.head.as_ref().map(|h| h.id),
                );
                distinct
                    .entry(key)
                    .or_insert_with(|| RatedLocus {
                        phenomenon: set.phenomenon.clone(),
                        locus: r.clone(),
                        sets: BTreeSet::new(),
                        kind,
                    })
                    .sets
                    .insert(si);
            }
        }
        let list: Vec<RatedLocus> = distinct.into_values().collect();
        let mut on: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
        for (k, x) in list.iter().enumerate() {
            on.entry(x.locus.id as u32).or_default().push(k);
        }
        let sets = loci
            .sets
            .iter()
            .map(|s| {
                let set = &loaded.units[s.unit].set;
                (set.phenomenon.clone(), set.bucket.clone())
            })
            .collect();
        RatedLoci { list, on, sets }
    }
}

/// What judging a system needs: the judgement, the rated lines' words, trees and
/// references (aligned and as text), their loci, and which raters' errors count.
struct Judge<'a> {
    j: &'a Judging,
    trained: &'a crate::pipeline::align::Trained,
    words: &'a SourceWords,
    lines: &'a BTreeMap<u32, Line>,
    refs: &'a BTreeMap<u32, Side>,
    references: &'a BTreeMap<u32, String>,
    loci: &'a RatedLoci,
    counts: &'a dyn Fn(&ErrorSpan) -> bool,
    /// Level of the Wilson intervals.
    confidence: f64,
}

/// Every system's items, rows and disagreements, gathered one system at a time.
#[derive(Default)]
struct Gathered {
    words: Vec<agreement::Item>,
    /// Loci, with their kind.
    loci: Vec<(usize, agreement::Item)>,
    /// The loci's words, each an item, with their kind.
    locus_words: Vec<(usize, agreement::Item)>,
    out_items: Vec<Item>,
    disagreements: Vec<Disagreement>,
    systems: Vec<SystemRow>,
    sets: Vec<SetRow>,
    order_kept: Counted,
    order_changed: Counted,
    /// Each system's BLEU and accuracies on each kind of locus: (automatic, human).
    kind_accuracies: Vec<[(Option<f64>, Option<f64>); 2]>,
}

/// One system's output of one rated line, aligned and judged.
struct Output<'a> {
    id: u32,
    rated: &'a Rated,
    side: &'a Side,
    judged: LineJudgements,
    /// Byte ranges of the output's tokens in its text.
    tokens: Vec<(usize, usize)>,
}

impl Judge<'_> {
    /// Judges `system`'s outputs of the lines it was rated on (`rated`), compares them with
    /// its raters, and adds its items and rows to `gathered`.
    fn system(
        &self,
        system: &str,
        rated: &BTreeMap<u32, &Rated>,
        gathered: &mut Gathered,
    ) -> Result<()> {
        let texts: BTreeMap<u32, String> = rated
            .iter()
            .map(|(id, r)| (*id, r.output.text.clone()))
            .collect();
        let outs = self.j.align_texts(self.trained, &texts, self.words)?;
        let empty = Side::default();
        let outputs: Vec<Output> = rated
            .iter()
            .map(|(&id, r)| {
                let on: Vec<(&Locus, Kind<'_>)> = self
                    .loci
                    .on
                    .get(&id)
                    .map_or(&[][..], Vec::as_slice)
                    .iter()
                    .map(|&k| {
                        let x = &self.loci.list[k];
                        let kind = Kind {
                            phenomenon: &x.phenomenon,
                            reorder: KINDS[x.kind] == SetKind::Reorder,
                        };
                        (&x.locus, kind)
                    })
                    .collect();
                let line = crate::locus::rule::Line {
                    source: self.words.get(&id).map_or(&[][..], Vec::as_slice),
                    upos: &self.lines[&id].upos,
                    lexicon: self.trained,
                    target: self.j.target(),
                    relations: &self.j.relations,
                };
                let (side, reference) = (
                    outs.get(&id).unwrap_or(&empty),
                    self.refs.get(&id).unwrap_or(&empty),
                );
                Output {
                    id,
                    rated: r,
                    side,
                    judged: judge_line(&line, reference, side, &on),
                    tokens: token_ranges(&r.output.text, self.j.aligner.pretokenized),
                }
            })
            .collect();
        self.add_row(system, rated, &outputs, gathered);
        Ok(())
    }

    /// Adds `system`'s items and its row (BLEU, MQM score, and the accuracies, automatic
    /// and human, on words, loci and each kind of locus) to `gathered`, from its judged
    /// `outputs` of the lines it was rated on (`rated`).
    fn add_row(
        &self,
        system: &str,
        rated: &BTreeMap<u32, &Rated>,
        outputs: &[Output],
        gathered: &mut Gathered,
    ) {
        let mut row = SystemRow {
            system: system.to_string(),
            segments: rated.len() as u64,
            mqm: (!rated.is_empty())
                .then(|| rated.values().map(|r| mqm_score(r)).sum::<f64>() / rated.len() as f64),
            bleu: self.bleu(outputs),
            ..SystemRow::default()
        };
        let first = gathered.words.len();
        self.word_items(system, outputs, gathered);
        let (acc, human) = agreement::accuracies(&gathered.words[first..]);
        row.words = gathered.words[first..]
            .iter()
            .filter(|x| x.judgement.judged().is_some())
            .count() as u64;
        (row.word_accuracy, row.human_word_accuracy) = (acc, human);
        let first = gathered.loci.len();
        self.locus_items(system, outputs, gathered);
        let mine: Vec<(usize, agreement::Item)> = gathered.loci[first..].to_vec();
        let all: Vec<agreement::Item> = mine.iter().map(|x| x.1).collect();
        row.loci = all
            .iter()
            .filter(|x| x.judgement.judged().is_some())
            .count() as u64;
        (row.locus_accuracy, row.human_locus_accuracy) = agreement::accuracies(&all);
        let mut kinds = [(None, None); 2];
        for (k, kind) in KINDS.iter().enumerate() {
            let of: Vec<agreement::Item> = mine.iter().filter(|x| x.0 == k).map(|x| x.1).collect();
            kinds[k] = agreement::accuracies(&of);
            row.kinds.push(crate::format::mqm::KindAccuracy {
                kind: kind.name().into(),
                loci: of.iter().filter(|x| x.judgement.judged().is_some()).count() as u64,
                accuracy: kinds[k].0,
                human_accuracy: kinds[k].1,
            });
        }
        gathered.kind_accuracies.push(kinds);
        gathered.systems.push(row);
    }

    /// Corpus BLEU (sacreBLEU's defaults) of the outputs against the references.
    fn bleu(&self, outputs: &[Output]) -> Option<f64> {
        use ldd_eval::{BleuScoring, BleuStats, SufficientStats};
        let mut total = BleuStats::default();
        for o in outputs {
            let reference = self.references.get(&o.id).map_or("", String::as_str);
            total.add(&BleuStats::from_pair(&o.rated.output.text, reference));
        }
        (!outputs.is_empty()).then(|| total.score(&BleuScoring::default()))
    }

    /// Every content word of the outputs as an item, with the raters' verdict.
    fn word_items(&self, system: &str, outputs: &[Output], gathered: &mut Gathered) {
        for o in outputs {
            let line = &self.lines[&o.id];
            for (w, x) in &o.judged.words {
                let w = *w;
                let error = self.verdict(o, w, x);
                gathered.words.push(agreement::Item {
                    group: (u64::from(o.id) << 16) | w as u64,
                    judgement: x.judgement,
                    error,
                    chrf: o.judged.sentence_chrf,
                });
                gathered.out_items.push(Item {
                    level: "word".into(),
                    line: u64::from(o.id),
                    segment: line.seg.clone(),
                    doc: line.doc.clone(),
                    system: system.to_string(),
                    word: w as u32 + 1,
                    form: self.words[&o.id][w].clone(),
                    upos: line.upos[w].clone(),
                    output: tokens_at(o.side, &x.tokens()),
                    positions: x.tokens().iter().map(|&k| k as u32 + 1).collect(),
                    judgement: x.judgement.name().to_string(),
                    evidence: x.evidence.name(),
                    sentence_chrf: o.judged.sentence_chrf,
                    error,
                });
            }
        }
    }

    /// Every locus of the outputs' lines as an item (and each of its words), with the
    /// raters' verdict; the disagreements, per-set counts and the order of two words.
    fn locus_items(&self, system: &str, outputs: &[Output], gathered: &mut Gathered) {
        let mut per_set: BTreeMap<usize, (u64, u64, u64, u64)> = BTreeMap::new();
        for o in outputs {
            let on = self.loci.on.get(&o.id).map_or(&[][..], Vec::as_slice);
            for (&gk, x) in on.iter().zip(&o.judged.loci) {
                let rl = &self.loci.list[gk];
                let mut words = vec![(rl.locus.dep.id, &x.dep)];
                if let (Some(h), Some(hx)) = (&rl.locus.head, &x.head) {
                    words.push((h.id, hx));
                }
                let mut verdicts = Vec::new();
                for (k, (w, wx)) in words.iter().enumerate() {
                    let e = self.verdict(o, *w as usize - 1, wx);
                    verdicts.push((!wx.reference.is_empty(), e));
                    gathered.locus_words.push((
                        rl.kind,
                        agreement::Item {
                            group: ((gk as u64) << 1) | k as u64,
                            judgement: wx.judgement,
                            error: e,
                            chrf: o.judged.sentence_chrf,
                        },
                    ));
                }
                let error = locus_verdict(&verdicts);
                match x.order {
                    Some(true) => gathered.order_kept.add(error == Some(true)),
                    Some(false) => gathered.order_changed.add(error == Some(true)),
                    None => {}
                }
                let judged = x.judgement.judged();
                if let (Some(correct), Some(e)) = (judged, error) {
                    if correct == e {
                        gathered
                            .disagreements
                            .push(self.disagreement(system, o, rl, x, e));
                    }
                }
                for &s in &rl.sets {
                    let e = per_set.entry(s).or_default();
                    e.0 += 1;
                    e.1 += u64::from(error != Some(true));
                    e.2 += u64::from(judged.is_some());
                    e.3 += u64::from(judged == Some(true));
                }
                gathered.loci.push((
                    rl.kind,
                    agreement::Item {
                        group: gk as u64,
                        judgement: x.judgement,
                        error,
                        chrf: o.judged.sentence_chrf,
                    },
                ));
                gathered
                    .out_items
                    .push(self.locus_item(system, o, rl, x, error));
            }
        }
        for (s, (n, ok, judged, correct)) in per_set {
            let (phenomenon, bucket) = self.loci.sets[s].clone();
            let ci = wilson(ok, n, self.confidence);
            gathered.sets.push(SetRow {
                system: system.to_string(),
                phenomenon,
                bucket,
                loci: n,
                human_correct: ok,
                human_accuracy: (n > 0).then(|| 100.0 * ok as f64 / n as f64),
                human_ci_low: ci.map(|c| 100.0 * c.0),
                human_ci_high: ci.map(|c| 100.0 * c.1),
                judged,
                accuracy: (judged > 0).then(|| 100.0 * correct as f64 / judged as f64),
            });
        }
    }

    /// The raters' verdict at `source_word` (0-based) of an output, rendered by `word`'s
    /// tokens ([`crate::locus::rule::Word::tokens`]): an error there, none, or `None`
    /// where no verdict can be located (no token, and no rater marked the word in the
    /// source).
    fn verdict(
        &self,
        output: &Output,
        source_word: usize,
        word: &crate::locus::rule::Word,
    ) -> Option<bool> {
        let tokens = word.tokens();
        let line = &self.lines[&output.id];
        if human(
            output.rated,
            line,
            source_word,
            &tokens,
            &output.tokens,
            self.counts,
        ) {
            Some(true)
        } else {
            (!tokens.is_empty()).then_some(false)
        }
    }

    /// A locus where the judgement and the raters disagree.
    fn disagreement(
        &self,
        system: &str,
        output: &Output,
        rl: &RatedLocus,
        rendering: &Rendering,
        error: bool,
    ) -> Disagreement {
        let line = &self.lines[&output.id];
        Disagreement {
            system: system.to_string(),
            phenomenon: rl.phenomenon.clone(),
            line: u64::from(output.id),
            segment: line.seg.clone(),
            doc: line.doc.clone(),
            dep: rl.locus.dep.form.clone(),
            head: rl
                .locus
                .head
                .as_ref()
                .map(|h| h.form.clone())
                .unwrap_or_default(),
            judgement: rendering.judgement.name().to_string(),
            p_error: None,
            evidence: rendering.evidence(),
            rater_error: error,
            source: self.words[&output.id].join(" "),
            reference: self
                .refs
                .get(&output.id)
                .map(|r| r.tokens.join(" "))
                .unwrap_or_default(),
            output: output.side.tokens.join(" "),
        }
    }

    /// A locus as an item of `--items`.
    fn locus_item(
        &self,
        system: &str,
        output: &Output,
        rl: &RatedLocus,
        rendering: &Rendering,
        error: Option<bool>,
    ) -> Item {
        let line = &self.lines[&output.id];
        let mut positions: Vec<usize> = rendering.dep.output.clone();
        positions.extend(rendering.head.iter().flat_map(|h| h.output.iter().copied()));
        Item {
            level: "locus".into(),
            line: u64::from(output.id),
            segment: line.seg.clone(),
            doc: line.doc.clone(),
            system: system.to_string(),
            word: rl.locus.dep.id,
            form: match &rl.locus.head {
                Some(h) => format!("{} {}", rl.locus.dep.form, h.form),
                None => rl.locus.dep.form.clone(),
            },
            upos: rl.phenomenon.clone(),
            output: tokens_at(output.side, &positions),
            positions: positions.iter().map(|&k| k as u32 + 1).collect(),
            judgement: rendering.judgement.name().to_string(),
            evidence: rendering.evidence(),
            sentence_chrf: output.judged.sentence_chrf,
            error,
        }
    }
}

/// The raters' verdict at a locus from its words' (each: whether the reference has a token
/// for it, and its verdict): an error when one has one; else none located when a word
/// with a reference token has none located (or no word has one); else no error.
fn locus_verdict(words: &[(bool, Option<bool>)]) -> Option<bool> {
    if words.iter().any(|w| w.1 == Some(true)) {
        Some(true)
    } else if words.iter().any(|w| w.0 && w.1.is_none()) || words.iter().all(|w| w.1.is_none()) {
        None
    } else {
        Some(false)
    }
}

/// The tokens of `side` at `positions`, space-separated.
fn tokens_at(side: &Side, positions: &[usize]) -> String {
    positions
        .iter()
        .filter_map(|&k| side.tokens.get(k).map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ")
}

impl Gathered {
    /// The agreements: every content word, every locus, and lexical and reordering loci
    /// apart (their words and the loci), each beside its baselines.
    fn agreements(
        &self,
        permutations: agreement::Permutations,
    ) -> (
        Agreement,
        Agreement,
        Agreement,
        Agreement,
        Vec<KindAgreement>,
    ) {
        let mqm: Vec<Option<f64>> = self.systems.iter().map(|s| s.mqm).collect();
        let bleu: Vec<Option<f64>> = self.systems.iter().map(|s| s.bleu).collect();
        let of = |f: &dyn Fn(&SystemRow) -> Option<f64>| -> Vec<Option<f64>> {
            self.systems.iter().map(f).collect()
        };
        let (wa, wh) = (of(&|s| s.word_accuracy), of(&|s| s.human_word_accuracy));
        let (la, lh) = (of(&|s| s.locus_accuracy), of(&|s| s.human_locus_accuracy));
        let pair = |items: &[agreement::Item], auto: &[Option<f64>], human: &[Option<f64>]| {
            (
                agreement::with_systems(
                    agreement::agreement(items, permutations),
                    auto,
                    human,
                    &mqm,
                ),
                agreement::with_systems(
                    agreement::chrf_baseline(items, permutations),
                    &bleu,
                    human,
                    &mqm,
                ),
            )
        };
        let (words, words_baseline) = pair(&self.words, &wa, &wh);
        let loci: Vec<agreement::Item> = self.loci.iter().map(|x| x.1).collect();
        let (loci_all, loci_baseline) = pair(&loci, &la, &lh);
        let kinds = KINDS
            .iter()
            .enumerate()
            .map(|(k, kind)| {
                let only = |v: &[(usize, agreement::Item)]| -> Vec<agreement::Item> {
                    v.iter().filter(|x| x.0 == k).map(|x| x.1).collect()
                };
                let auto: Vec<Option<f64>> = self.kind_accuracies.iter().map(|a| a[k].0).collect();
                let human: Vec<Option<f64>> = self.kind_accuracies.iter().map(|a| a[k].1).collect();
                let (words, words_baseline) = pair(&only(&self.locus_words), &[], &[]);
                let (loci, loci_baseline) = pair(&only(&self.loci), &auto, &human);
                KindAgreement {
                    kind: kind.name().into(),
                    words,
                    words_baseline,
                    loci,
                    loci_baseline,
                }
            })
            .collect();
        (words, words_baseline, loci_all, loci_baseline, kinds)
    }
}
