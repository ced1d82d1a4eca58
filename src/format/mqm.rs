//! MQM annotations in the WMT format (google/wmt-mqm-human-evaluation): one row per error,
//! tab-separated, with a header naming the columns — `system`, `doc`, `seg_id`, `rater`,
//! `source`, `target`, `category`, `severity` (and others, ignored, such as `doc_id` and
//! `comment`). Each error's span is marked `<v>…</v>` in `target`, or in `source` for an
//! omission; a segment a rater found no error in has one row of category `No-error`. An
//! unclosed `<v>` runs to the end of the text (counted, [`Marked::unclosed`]). Fields are
//! not quoted (quotes are text).
//!
//! MQM's segment score ([`weight`]): minus the weighted errors, Major 5, Minor 1, Minor
//! Fluency/Punctuation 0.1, Non-translation 25, Neutral 0 (Freitag et al. 2021).
//!
//! Also the files `ldd-sets mqm` writes: `mqm.json` ([`MqmReport`]), `mqm.csv` (its set
//! rows), `mqm.disagreements.tsv` and, with `--items`, every word judged ([`Item`]).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// A text with its `<v>…</v>` spans taken out.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Marked {
    /// The text without the marks.
    pub text: String,
    /// The spans, as byte ranges of `text`.
    pub spans: Vec<(usize, usize)>,
    /// Whether a `<v>` was never closed (its span runs to the end).
    pub unclosed: bool,
}

/// The text of `s` without its `<v>` and `</v>` marks, and the spans they enclose.
pub fn marked(s: &str) -> Marked {
    let mut m = Marked::default();
    let mut open: Option<usize> = None;
    let mut rest = s;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("<v>") {
            open.get_or_insert(m.text.len());
            rest = r;
        } else if let Some(r) = rest.strip_prefix("</v>") {
            if let Some(a) = open.take() {
                m.spans.push((a, m.text.len()));
            }
            rest = r;
        } else {
            let c = rest.chars().next().unwrap_or_default();
            m.text.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    if let Some(a) = open {
        m.spans.push((a, m.text.len()));
        m.unclosed = true;
    }
    m
}

/// One row of an MQM file.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The system rated (a reference too, e.g. `ref`).
    pub system: String,
    /// The document (`talk.1`); empty when the file has no `doc` column.
    pub doc: String,
    /// The segment id.
    pub seg_id: String,
    /// The rater.
    pub rater: String,
    /// The source, with an omission's span.
    pub source: Marked,
    /// The system's output, with the error's span.
    pub target: Marked,
    /// The error category (`Accuracy/Mistranslation`; `No-error` for none).
    pub category: String,
    /// The severity (`Major`, `Minor`, `Neutral`; `No-error`).
    pub severity: String,
    /// 1-based line in the file.
    pub line: u64,
}

impl Row {
    /// Whether the row records no error (category `No-error`).
    pub fn no_error(&self) -> bool {
        self.category.eq_ignore_ascii_case("no-error")
    }
}

/// The columns read, in the order of [`Row`]'s fields.
const COLUMNS: [&str; 8] = [
    "system", "doc", "seg_id", "rater", "source", "target", "category", "severity",
];

/// Calls `f` with every row of the MQM file `path`, in order; the header must name every
/// column of `COLUMNS` but `doc`. Returns the number of rows.
pub fn read(path: &Path, mut f: impl FnMut(Row) -> Result<()>) -> Result<u64> {
    let mut r = ldd_io::Input::open(path)?;
    let mut at: Option<[Option<usize>; 8]> = None;
    let mut n = 0u64;
    let mut line = 0u64;
    while let Some(text) = r.next_line()? {
        line += 1;
        let c: Vec<&str> = text.split('\t').collect();
        let Some(idx) = at else {
            let mut idx = [None; 8];
            for (k, name) in COLUMNS.iter().enumerate() {
                idx[k] = c.iter().position(|h| h.trim() == *name);
                if idx[k].is_none() && *name != "doc" {
                    return Err(Error::input(
                        path,
                        1,
                        format!(
                            "not the header of an MQM file (WMT format): no column `{name}`; \
                             expected {}",
                            COLUMNS.join(", ")
                        ),
                    ));
                }
            }
            at = Some(idx);
            continue;
        };
        let need = idx_max(&idx) + 1;
        if c.len() < need {
            return Err(Error::input(
                path,
                line,
                format!(
                    "expected at least {need} tab-separated columns, found {}",
                    c.len()
                ),
            ));
        }
        let get = |k: usize| idx[k].map_or("", |i| c[i]).to_string();
        let row = Row {
            system: get(0),
            doc: get(1),
            seg_id: get(2),
            rater: get(3),
            source: marked(&get(4)),
            target: marked(&get(5)),
            category: get(6),
            severity: get(7),
            line,
        };
        if row.system.is_empty() || row.seg_id.is_empty() {
            return Err(Error::input(path, line, "empty `system` or `seg_id`"));
        }
        n += 1;
        f(row)?;
    }
    if at.is_none() {
        return Err(Error::input(
            path,
            1,
            "empty file: expected an MQM header row",
        ));
    }
    r.finish()?;
    Ok(n)
}

fn idx_max(idx: &[Option<usize>; 8]) -> usize {
    idx.iter().flatten().copied().max().unwrap_or(0)
}

/// The weight of one error in MQM's segment score: Major 5, Minor 1 (Minor
/// Fluency/Punctuation 0.1), Non-translation 25, Neutral and `No-error` 0.
pub fn weight(category: &str, severity: &str) -> f64 {
    let cat = category.to_ascii_lowercase();
    if cat.starts_with("non-translation") {
        return 25.0;
    }
    match severity.to_ascii_lowercase().as_str() {
        "major" => 5.0,
        "minor" if cat == "fluency/punctuation" => 0.1,
        "minor" => 1.0,
        _ => 0.0,
    }
}

/// Items not judged, and how many of them a rater saw an error at.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Counted {
    /// Items.
    pub items: u64,
    /// Of them, with a rater error.
    pub rater_errors: u64,
}

impl Counted {
    /// Counts one item.
    pub fn add(&mut self, error: bool) {
        self.items += 1;
        self.rater_errors += u64::from(error);
    }
}

/// Judged items without a located rater verdict ([`Agreement::silent`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Silent {
    /// Items.
    pub items: u64,
    /// Of them, judged incorrect.
    pub incorrect: u64,
}

/// The agreement of the automatic judgement with the raters at one level (words or loci).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Agreement {
    /// Items (system × word or locus, on rated segments).
    pub items: u64,
    /// Of them judged (correct or incorrect); those with a located rater verdict make the
    /// 2×2 table.
    pub judged: u64,
    /// `judged / items`.
    pub coverage: Option<f64>,
    /// Judged incorrect, a rater saw an error.
    pub incorrect_and_error: u64,
    /// Judged incorrect, no rater error.
    pub incorrect_no_error: u64,
    /// Judged correct, a rater saw an error.
    pub correct_and_error: u64,
    /// Judged correct, no rater error.
    pub correct_no_error: u64,
    /// Share of judged items judged incorrect.
    pub incorrect_share: Option<f64>,
    /// Share of judged items with a rater error.
    pub rater_error_rate: Option<f64>,
    /// P(rater error | judged incorrect).
    pub error_if_incorrect: Option<f64>,
    /// P(rater error | judged correct).
    pub error_if_correct: Option<f64>,
    /// Matthews' correlation of "judged incorrect" with "rater error".
    pub mcc: Option<f64>,
    /// Cohen's κ of the same.
    pub kappa: Option<f64>,
    /// The permutation test within items (each item's systems' judgements shuffled).
    pub permutation_p: Option<f64>,
    /// Its shuffles.
    pub permutations: usize,
    /// Items judged where the raters' verdict cannot be located — the output has no
    /// token for the word, and no rater marked the word in the source — left out of the
    /// 2×2 table (MQM marks errors on the output's words).
    #[serde(default)]
    pub silent: Silent,
    /// Items left unjudged because the output has no token for them.
    pub unaligned: Counted,
    /// Items left unjudged because the reference has no token for them.
    pub no_reference: Counted,
    /// Systems in the system-level correlations.
    pub systems: usize,
    /// Spearman's ρ of the systems' automatic accuracy with their MQM score.
    pub spearman: Option<f64>,
    /// Kendall's τ-b of the same.
    pub kendall: Option<f64>,
    /// Spearman's ρ of the systems' human accuracy (share without a rater error) with
    /// their MQM score.
    pub human_spearman: Option<f64>,
    /// Kendall's τ-b of the same.
    pub human_kendall: Option<f64>,
}

/// How the campaign's segments were found in the corpus.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Segments {
    /// Rows read.
    pub rows: u64,
    /// Distinct segments.
    pub segments: u64,
    /// Segments whose source is a corpus line.
    pub matched: u64,
    /// Segments whose source is no corpus line (left out).
    pub unmatched: u64,
    /// Matched segments in the chosen documents.
    pub used: u64,
    /// `<v>` marks never closed (their span runs to the end).
    pub unclosed_spans: u64,
    /// Errors that count but have no span (not located at any word).
    pub unlocated_errors: u64,
}

/// One system's results.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SystemRow {
    /// The system.
    pub system: String,
    /// Segments rated.
    pub segments: u64,
    /// MQM's score: the mean per segment of minus the weighted errors.
    pub mqm: Option<f64>,
    /// Content words judged.
    pub words: u64,
    /// Their accuracy (×100).
    pub word_accuracy: Option<f64>,
    /// Share of content words without a rater error (×100).
    pub human_word_accuracy: Option<f64>,
    /// Loci judged.
    pub loci: u64,
    /// Their accuracy (×100).
    pub locus_accuracy: Option<f64>,
    /// Share of loci without a rater error (×100): human locus accuracy.
    pub human_locus_accuracy: Option<f64>,
    /// Corpus BLEU (sacreBLEU's defaults) of its rated segments: the system-level baseline.
    #[serde(default)]
    pub bleu: Option<f64>,
    /// Its accuracies on lexical and on reordering loci, in the order of
    /// [`MqmReport::kinds`].
    #[serde(default)]
    pub kinds: Vec<KindAccuracy>,
}

/// One system's automatic and human accuracy on one kind of locus (×100).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct KindAccuracy {
    /// `lexical` or `reorder`.
    pub kind: String,
    /// Loci judged.
    pub loci: u64,
    /// Their accuracy.
    pub accuracy: Option<f64>,
    /// Share of the loci without a rater error.
    pub human_accuracy: Option<f64>,
}

/// The agreement on one kind of locus (lexical, reordering), each level beside its
/// baseline.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct KindAgreement {
    /// `lexical` or `reorder`.
    pub kind: String,
    /// The loci's words, each an item (a locus of two words gives two).
    pub words: Agreement,
    /// Its baseline ([`MqmReport::words_baseline`]).
    pub words_baseline: Agreement,
    /// The loci.
    pub loci: Agreement,
    /// Its baseline.
    pub loci_baseline: Agreement,
}

/// One system's loci of one set: the human and the automatic accuracy.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SetRow {
    /// The system.
    pub system: String,
    /// The set's phenomenon.
    pub phenomenon: String,
    /// Its bucket (`ge2`).
    pub bucket: String,
    /// Loci on rated segments.
    pub loci: u64,
    /// Of them without a rater error.
    pub human_correct: u64,
    /// Human locus accuracy (×100).
    pub human_accuracy: Option<f64>,
    /// Its Wilson interval.
    pub human_ci_low: Option<f64>,
    /// Its upper bound.
    pub human_ci_high: Option<f64>,
    /// Loci judged automatically.
    pub judged: u64,
    /// Automatic locus accuracy (×100).
    pub accuracy: Option<f64>,
}

/// A locus where the judgement and the raters disagree.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Disagreement {
    /// The system.
    pub system: String,
    /// The phenomenon.
    pub phenomenon: String,
    /// 1-based corpus line.
    pub line: u64,
    /// The MQM segment.
    pub segment: String,
    /// Its document.
    pub doc: String,
    /// The dependent's form.
    pub dep: String,
    /// The head's form (empty: none).
    pub head: String,
    /// The judgement.
    pub judgement: String,
    /// `locus:2`'s estimate (files of `locus:3` have none).
    #[serde(default)]
    pub p_error: Option<f64>,
    /// What decided each word (`locus:3`): the dependent's, then the head's.
    #[serde(default)]
    pub evidence: String,
    /// Whether the raters saw an error.
    pub rater_error: bool,
    /// The source words.
    pub source: String,
    /// The reference's tokens.
    pub reference: String,
    /// The output's tokens.
    pub output: String,
}

/// `mqm.json`: what `ldd-sets mqm` found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MqmReport {
    /// `ldd-sets VERSION`.
    pub tool: String,
    /// SHA-256 of the sets' manifest.
    pub manifest_sha256: String,
    /// The MQM files.
    pub files: Vec<PathBuf>,
    /// Documents kept (empty: all).
    pub docs: Vec<String>,
    /// Severities that count.
    pub severities: Vec<String>,
    /// Category prefixes that count (empty: all).
    pub categories: Vec<String>,
    /// Systems left out.
    pub excluded: Vec<String>,
    /// The judgement's settings (as in score's signature).
    pub judgement: String,
    /// How segments were matched.
    pub segments: Segments,
    /// Agreement on every content word.
    pub words: Agreement,
    /// Agreement on the sets' loci.
    pub loci: Agreement,
    /// The baseline of `words`: at the item level, segment chrF calling the judged items
    /// of lowest chrF incorrect, as many as the judgement does; at the system level,
    /// corpus BLEU (`spearman`, `kendall`). Absent from files of `locus:2`.
    #[serde(default)]
    pub words_baseline: Agreement,
    /// The baseline of `loci`, the same way.
    #[serde(default)]
    pub loci_baseline: Agreement,
    /// Lexical and reordering loci apart, each beside its baselines.
    #[serde(default)]
    pub kinds: Vec<KindAgreement>,
    /// Loci of two words whose output keeps the reference's order, and their rater errors.
    pub order_kept: Counted,
    /// Loci whose output changes it.
    pub order_changed: Counted,
    /// Per system.
    pub systems: Vec<SystemRow>,
    /// Per system and set.
    pub sets: Vec<SetRow>,
    /// The loci where judgement and raters disagree.
    pub disagreements: Vec<Disagreement>,
}

/// Reads `mqm.json` (at most 256 MB); a file that is not one is an error naming it.
pub fn read_report(path: &Path) -> Result<MqmReport> {
    let text = ldd_io::read_text(path, 256 << 20)?;
    serde_json::from_str(&text).map_err(|e| {
        Error::input(
            path,
            e.line() as u64,
            format!("not an mqm.json written by `ldd-sets mqm`: {e}"),
        )
    })
}

/// One content word (or locus) as a system renders it, judged, with the raters' verdict
/// (`mqm --items`: what the judgement's constants are fitted on).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// `word` (a content word) or `locus` (a locus of the sets: `word` is its dependent,
    /// `form` its words, `upos` its phenomenon).
    pub level: String,
    /// 1-based corpus line.
    pub line: u64,
    /// The MQM segment.
    pub segment: String,
    /// Its document.
    pub doc: String,
    /// The system.
    pub system: String,
    /// 1-based word.
    pub word: u32,
    /// Its form.
    pub form: String,
    /// Its part of speech.
    pub upos: String,
    /// The output tokens linked to the word, space-separated.
    pub output: String,
    /// Their positions (1-based, in the output as the aligner tokenizes it).
    pub positions: Vec<u32>,
    /// The judgement.
    pub judgement: String,
    /// What decided it ([`crate::locus::rule::Evidence`]; a locus: each word's).
    pub evidence: String,
    /// The output line's sentence chrF (not part of the judgement: the baseline's
    /// evidence).
    pub sentence_chrf: f64,
    /// Whether the raters saw an error there (`None`: no verdict can be located there).
    pub error: Option<bool>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_by_hand() {
        let m = marked("Ich möchte <v>euch</v> alle bitten.");
        assert_eq!(m.text, "Ich möchte euch alle bitten.");
        assert_eq!(m.spans, vec![(12, 16)]);
        assert_eq!(&m.text[12..16], "euch");
        assert!(!m.unclosed);
        let u = marked("Das ist <v>offen");
        assert_eq!(
            (u.text.as_str(), u.spans.clone(), u.unclosed),
            ("Das ist offen", vec![(8, 13)], true)
        );
        let none = marked("a </v> b");
        assert_eq!((none.text.as_str(), none.spans.len()), ("a  b", 0));
    }

    #[test]
    fn weights() {
        assert_eq!(weight("Accuracy/Mistranslation", "Major"), 5.0);
        assert_eq!(weight("Fluency/Punctuation", "Minor"), 0.1);
        assert_eq!(weight("Fluency/Punctuation", "Major"), 5.0);
        assert_eq!(weight("Style/Awkward", "Minor"), 1.0);
        assert_eq!(weight("Non-translation!", "Major"), 25.0);
        assert_eq!(weight("Style/Awkward", "Neutral"), 0.0);
        assert_eq!(weight("No-error", "No-error"), 0.0);
    }
}
