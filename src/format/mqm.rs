//! MQM annotations as google/wmt-mqm-human-evaluation publishes them: one row per error,
//! tab-separated, with a header naming the columns. Read ([`read`]): `system`, `doc`,
//! `seg_id` — or `globalSegId` in Marot's layout (the campaigns of 2023 and their
//! `…3ratingsPerSegment.tsv` files: `system doc docSegId globalSegId rater source target
//! category severity metadata`) — `rater`, `source`, `target`, `category`, `severity`, and
//! `metadata` when there (others, such as `doc_id`, `docSegId` and `comment`, are ignored;
//! fields starting with `#` at the end of the header are a comment). Every row has as many
//! fields as the header (empty lines at the end of the file are left out); a segment is a
//! whole number from 1; a severity is Major, Minor, Neutral or `No-error` ([`Kind`]), or
//! `HOTW-test` for a rater check. Severities and categories are compared by their keys —
//! case (Unicode's), whitespace and `No-error`'s spellings aside ([`severity_key`],
//! [`category_key`]) — and spans by the words they cover ([`solid_spans`]), wherever a row
//! is read: its kind, its weight, the filters and the check for the same row twice. Each
//! error's span is marked `<v>…</v>` in `target`, or in `source` for an omission; a
//! segment a rater found no error in has one row of category `No-error`. An unclosed `<v>`
//! runs to the end of the text (counted, [`Marked::unclosed`]). Fields are not quoted,
//! except in newstest2020's files, whose quoted fields are unquoted (`unquote`).
//!
//! MQM's segment score ([`weight`]): minus the weighted errors, Major 5, Minor 1, Minor
//! Fluency/Punctuation 0.1, Non-translation 25, Neutral 0 (Freitag et al. 2021).
//!
//! Also the files `ldd-sets mqm` writes: `mqm.json` ([`MqmReport`]), `mqm.csv` (its set
//! rows), `mqm.disagreements.tsv` and, with `--items`, every word judged ([`Item`]); and
//! the record of `mqm --export`, `export.json` ([`ExportRecord`]).

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

/// The text of `text` without its `<v>` and `</v>` marks, and the spans they enclose.
pub fn marked(text: &str) -> Marked {
    let mut m = Marked::default();
    let mut open: Option<usize> = None;
    let mut rest = text;
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

/// What a row records, by its category and severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An error: severity Major, Minor or Neutral.
    Error,
    /// No error: category or severity `No-error` (one row for a segment without error).
    NoError,
    /// A rater check: severity `HOTW-test` (an error planted in the output to check the
    /// rater, whose `target` is the altered output); left out.
    RaterCheck,
    /// Metadata only: empty rater, category and severity (Marot's format); left out.
    Metadata,
}

/// The severities of error rows, as [`severity_key`] spells them.
pub const ERROR_SEVERITIES: [&str; 3] = ["major", "minor", "neutral"];

/// A severity as compared: trimmed, lowercase (Unicode's), whitespace and `_` as `-` (the
/// campaigns' tools spell `No-error` several ways: `no_error`, `No error`, `NO-ERROR`).
/// With [`category_key`] and [`solid_spans`], the key every reading of a row matches on:
/// its kind, its weight, the `--severity` filter and the check for the same row twice.
pub fn severity_key(severity: &str) -> String {
    severity
        .trim()
        .chars()
        .flat_map(|c| match c {
            c if c == '_' || c.is_whitespace() => '-'.to_lowercase(),
            c => c.to_lowercase(),
        })
        .collect()
}

/// A category as compared: trimmed, whitespace collapsed to one space, lowercase
/// (Unicode's): `Accuracy/Mistranslation`, ` accuracy/mistranslation ` and
/// `ACCURACY/MISTRANSLATION` are one category — for its weight, the `--categories`
/// filter and the check for the same row twice alike.
pub fn category_key(category: &str) -> String {
    collapse(category).to_lowercase()
}

/// `spans`, byte ranges of `text`, as ranges of its non-whitespace characters (counted in
/// bytes): two spans that cover the same words, whatever whitespace they take in at either
/// end, are the same — how the check for the same row twice compares spans.
pub fn solid_spans(text: &str, spans: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let before = |p: usize| {
        text.get(..p.min(text.len()))
            .unwrap_or(text)
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(char::len_utf8)
            .sum::<usize>()
    };
    spans.iter().map(|&(a, b)| (before(a), before(b))).collect()
}

/// Whether `category` is a problem of the source, not of the translation (`Source issue`
/// in the campaigns of 2023, `Source error` in newstest2020's).
pub fn is_source_issue(category: &str) -> bool {
    let c = category_key(category);
    c.starts_with("source issue") || c.starts_with("source error")
}

/// Whether `system` is named as a human reference in the WMT campaigns: `ref`, `reference`
/// or `human`, alone or followed by `-`, `.` or `_` and one letter or digit (`ref-B`,
/// `ref.A`, `Human-P`), or `ref` and one letter or digit (`refA`); case ignored.
/// `GPT4-5shot_with_refA` is a system, and so is `humane`.
pub fn is_reference_name(system: &str) -> bool {
    let s = system.to_ascii_lowercase();
    let Some((p, rest)) = ["reference", "human", "ref"]
        .iter()
        .find_map(|p| Some((*p, s.strip_prefix(p)?)))
    else {
        return false;
    };
    let rest = match rest.strip_prefix(['-', '.', '_']) {
        Some(r) if !r.is_empty() => r,
        Some(_) => return false,
        None if p == "ref" || rest.is_empty() => rest,
        None => return false,
    };
    rest.len() <= 1 && rest.chars().all(|c| c.is_ascii_alphanumeric())
}

/// One row of an MQM file.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The system rated (a reference too, e.g. `ref`).
    pub system: String,
    /// The document (`talk.1`); empty when the file has no `doc` column.
    pub doc: String,
    /// The segment: a whole number from 1 (`seg_id`, or `globalSegId`).
    pub seg_id: u64,
    /// The rater.
    pub rater: String,
    /// The source, with an omission's span.
    pub source: Marked,
    /// The system's output, with the error's span.
    pub target: Marked,
    /// The error category (`Accuracy/Mistranslation`; `No-error` for none), trimmed.
    pub category: String,
    /// The severity (`Major`, `Minor`, `Neutral`; `No-error`), trimmed.
    pub severity: String,
    /// What the row records.
    pub kind: Kind,
    /// The `metadata` column (Marot's JSON: when the mark was made, …); empty when none.
    pub metadata: String,
    /// 1-based line in the file.
    pub line: u64,
}

impl Row {
    /// Whether the row records no error (category or severity `No-error`).
    pub fn no_error(&self) -> bool {
        self.kind == Kind::NoError
    }
}

/// The columns read, in the order of [`Row`]'s fields, each with the names it has in the
/// published layouts: `seg_id` (WMT 2020–2022) or `globalSegId` (Marot's layout, with
/// `docSegId` and `metadata`, of the campaigns of 2023 and their three-ratings files).
const COLUMNS: [&[&str]; 9] = [
    &["system"],
    &["doc"],
    &["seg_id", "globalSegId"],
    &["rater"],
    &["source"],
    &["target"],
    &["category"],
    &["severity"],
    &["metadata"],
];

/// Columns that may be missing.
const OPTIONAL: [usize; 2] = [1, 8];

/// Where each column of [`COLUMNS`] is in a file, and how many fields a row has.
#[derive(Debug)]
struct Header {
    at: [Option<usize>; 9],
    fields: usize,
    /// The segment column's name (`seg_id` or `globalSegId`).
    seg_name: &'static str,
}

/// The header of `path` (line 1): the columns by name; fields that start with `#` at the
/// end are a comment (`# Documentation: …` of the three-ratings files), not columns.
fn header(path: &Path, text: &str) -> Result<Header> {
    let mut names: Vec<&str> = text.split('\t').map(str::trim).collect();
    while names.len() > 1 && names.last().is_some_and(|n| n.starts_with('#')) {
        names.pop();
    }
    let mut at = [None; 9];
    for (k, spellings) in COLUMNS.iter().enumerate() {
        let found: Vec<usize> = (0..names.len())
            .filter(|&i| spellings.contains(&names[i]))
            .collect();
        if found.len() > 1 {
            return Err(Error::input(
                path,
                1,
                format!("column `{}` named twice in the header", names[found[0]]),
            ));
        }
        at[k] = found.first().copied();
        if at[k].is_none() && !OPTIONAL.contains(&k) {
            return Err(Error::input(
                path,
                1,
                format!(
                    "not the header of an MQM file (WMT format): no column `{}`; expected \
                     system, doc, seg_id (or globalSegId), rater, source, target, category, \
                     severity",
                    spellings.join("` or `")
                ),
            ));
        }
    }
    let seg_name = COLUMNS[2]
        .iter()
        .copied()
        .find(|n| at[2].is_some_and(|i| names[i] == *n))
        .unwrap_or("seg_id");
    Ok(Header {
        at,
        fields: names.len(),
        seg_name,
    })
}

/// Calls `each` with every row of the MQM file `path`, in order; the header must name every
/// column of `COLUMNS` but `doc` and `metadata`, and every row must have as many fields
/// as the header. Empty lines (nothing but whitespace) at the end of the file are left
/// out, as a text editor leaves them; one among the rows is refused, naming its line.
/// Returns the number of rows; a file without any is an error.
pub fn read(path: &Path, mut each: impl FnMut(Row) -> Result<()>) -> Result<u64> {
    let mut r = ldd_io::Input::open(path)?;
    let mut h: Option<Header> = None;
    let (mut n, mut line) = (0u64, 0u64);
    // The first empty line after the header, while no row has followed it.
    let mut blank: Option<u64> = None;
    while let Some(text) = r.next_line()? {
        line += 1;
        let got = match (h.as_ref(), blank) {
            (Some(_), _) if text.trim().is_empty() => {
                blank.get_or_insert(line);
                Ok(())
            }
            (Some(_), Some(at)) => Err(Error::input(
                path,
                at,
                format!(
                    "an empty line among the rows (line {line} is a row): empty lines are \
                     left out only at the end of the file; remove it"
                ),
            )),
            (Some(h), None) => row(path, line, h, text).and_then(|row| {
                n += 1;
                each(row)
            }),
            (None, _) => header(path, text).map(|x| h = Some(x)),
        };
        if let Err(e) = got {
            return Err(damage_first(&mut r, e));
        }
    }
    let what = match (&h, n) {
        (None, _) => "empty file: expected an MQM header row",
        (Some(_), 0) => "an MQM header but no row: the file holds no rating",
        _ => return r.finish().map(|_| n).map_err(Error::from),
    };
    Err(Error::input(path, 1, what))
}

/// `error`, an error found in the content of `input` — or, when `input` is gzip data that
/// turns out damaged further on, that damage: corrupt data can decode to a plausible but
/// wrong line before gzip's checksum, checked at the end, says so.
fn damage_first(input: &mut ldd_io::Input, error: Error) -> Error {
    if input.is_gzip() {
        if let Err(damage) = input.count_rest() {
            return damage.into();
        }
    }
    error
}

/// Line `line` of `path`, `text`, as a [`Row`] of the columns `header`.
fn row(path: &Path, line: u64, header: &Header, text: &str) -> Result<Row> {
    let c: Vec<&str> = text.split('\t').collect();
    if c.len() != header.fields {
        return Err(Error::input(
            path,
            line,
            format!(
                "{} tab-separated fields where the header has {} (a tab inside a field \
                 shifts every later column)",
                c.len(),
                header.fields
            ),
        ));
    }
    let c: Vec<std::borrow::Cow<'_, str>> = c.into_iter().map(unquote).collect();
    let get = |k: usize| header.at[k].map_or("", |i| c[i].as_ref());
    let bad = |msg: String| Error::input(path, line, msg);
    let (system, rater) = (get(0).trim(), get(3).trim());
    let (category, severity) = (get(6).trim(), get(7).trim());
    if system.is_empty() {
        return Err(bad("empty `system`".into()));
    }
    let seg_id = segment_number(get(2)).ok_or_else(|| {
        bad(format!(
            "{} `{}`: not a segment number (a whole number from 1)",
            header.seg_name,
            ldd_io::error::quote(get(2), 30)
        ))
    })?;
    let key = severity_key(severity);
    let kind = if rater.is_empty() && category.is_empty() && severity.is_empty() {
        Kind::Metadata
    } else if key == "hotw-test" {
        Kind::RaterCheck
    } else if key == "no-error" || severity_key(category) == "no-error" {
        Kind::NoError
    } else if ERROR_SEVERITIES.contains(&key.as_str()) {
        Kind::Error
    } else {
        return Err(bad(format!(
            "unknown severity `{}` (known: Major, Minor, Neutral, No-error; HOTW-test rows, \
             rater checks, are left out)",
            ldd_io::error::quote(severity, 30)
        )));
    };
    Ok(Row {
        system: system.to_string(),
        doc: get(1).trim().to_string(),
        seg_id,
        rater: rater.to_string(),
        source: marked(get(4)),
        target: marked(get(5)),
        category: category.to_string(),
        severity: severity.to_string(),
        kind,
        metadata: get(8).to_string(),
        line,
    })
}

/// A field as newstest2020's files quote it (Python's `csv`: a field with a `"` is put in
/// quotes, each `"` in it doubled) unquoted: `"""Hi"", she said"` is `"Hi", she said`.
/// Only a field in quotes whose inside is nothing but text and doubled quotes, at least
/// one, is unquoted: the other layouts do not quote (`"Hi", she said` stays as it is).
fn unquote(field: &str) -> std::borrow::Cow<'_, str> {
    let inner = field
        .strip_prefix('"')
        .and_then(|f| f.strip_suffix('"'))
        .filter(|_| field.len() >= 2);
    let Some(inner) = inner else {
        return field.into();
    };
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    let mut doubled = false;
    while let Some(ch) = chars.next() {
        if ch == '"' {
            if chars.next() != Some('"') {
                return field.into();
            }
            doubled = true;
        }
        out.push(ch);
    }
    if doubled {
        out.into()
    } else {
        field.into()
    }
}

/// `text` as a segment number: digits only, from 1 to 2⁴⁸ (no sign, exponent or fraction).
fn segment_number(text: &str) -> Option<u64> {
    let text = text.trim();
    if text.is_empty() || text.len() > 15 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().filter(|&n| (1..=1 << 48).contains(&n))
}

/// `text` with its whitespace collapsed: how texts are compared (a segment's source in its
/// rows and in the corpus, a system's output in its rows).
pub fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `spans`, byte ranges of `from`, as ranges of `to`, a text that differs from `from` only
/// in whitespace ([`collapse`] gives both the same): each end moved to the same place
/// among the non-whitespace characters; a span that covers only whitespace becomes empty.
pub fn remap(spans: &[(usize, usize)], from: &str, to: &str) -> Vec<(usize, usize)> {
    // The byte offset in `to` of each non-whitespace byte, in order.
    let solid: Vec<usize> = to
        .char_indices()
        .filter(|(_, c)| !c.is_whitespace())
        .flat_map(|(i, c)| i..i + c.len_utf8())
        .collect();
    // Non-whitespace bytes of `from` before byte `p`.
    let before = |p: usize| {
        from[..p.min(from.len())]
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(char::len_utf8)
            .sum::<usize>()
    };
    let start = |k: usize| solid.get(k).copied().unwrap_or(to.len());
    spans
        .iter()
        .map(|&(a, b)| {
            let (ka, kb) = (before(a), before(b));
            let s = start(ka);
            let e = if kb > ka { solid[kb - 1] + 1 } else { s };
            (s, e.max(s))
        })
        .collect()
}

/// Where `left` and `right` first differ once whitespace is collapsed: each from 20 characters
/// before there, for a message.
pub fn first_difference(left: &str, right: &str) -> (String, String) {
    let (left, right) = (collapse(left), collapse(right));
    // Equal before `at`, so `at` is a character boundary of both.
    let at = left
        .char_indices()
        .zip(right.chars())
        .find(|((_, x), y)| x != y)
        .map_or(left.len().min(right.len()), |((i, _), _)| i);
    let from = |s: &str| {
        let k = s[..at].char_indices().rev().nth(19).map_or(0, |(i, _)| i);
        ldd_io::error::quote(&s[k..], 40)
    };
    (from(&left), from(&right))
}

/// The weight of one error in MQM's segment score: Major 5, Minor 1 (Minor
/// Fluency/Punctuation 0.1), Non-translation 25, Neutral and `No-error` 0; category and
/// severity compared by their keys ([`category_key`], [`severity_key`]).
pub fn weight(category: &str, severity: &str) -> f64 {
    let cat = category_key(category);
    if cat.starts_with("non-translation") {
        return 25.0;
    }
    match severity_key(severity).as_str() {
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
    /// Items left unjudged because the output renders them by other words than the
    /// reference's, which the rule cannot vouch for (`locus:4`).
    #[serde(default)]
    pub differs: Counted,
    /// Loci left unjudged because only one of their two words could be judged (`locus:4`).
    #[serde(default)]
    pub partial: Counted,
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
    /// Rows left out as rater checks (severity `HOTW-test`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rater_checks: u64,
    /// Rows left out as metadata only (no rater, category or severity).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub metadata_rows: u64,
    /// Errors left out as problems of the source (`Source issue`; counted with
    /// `--source-issues`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub source_issues: u64,
    /// Errors a rater marked twice (same span, category and severity, at another time:
    /// another `metadata`), counted once.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub marked_twice: u64,
}

fn is_zero(count: &u64) -> bool {
    *count == 0
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

/// `export.json`, beside the corpus `mqm --export` wrote: what it was made from, and
/// every file written with its SHA-256 — a later export replaces the directory only when
/// it holds these files, unchanged, and nothing else.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ExportRecord {
    /// `ldd-sets VERSION`.
    pub tool: String,
    /// The MQM files.
    pub files: Vec<PathBuf>,
    /// The system whose outputs are the reference.
    pub reference_system: String,
    /// The source language code.
    pub source_language: String,
    /// The target language code.
    pub target_language: String,
    /// Segments (lines of each file).
    pub segments: u64,
    /// Every file written but this one, by path relative to the directory → SHA-256.
    pub written: std::collections::BTreeMap<String, String>,
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

    /// Writes `text` to a file and reads it as an MQM file: its rows, or the error.
    fn rows(text: &str) -> Result<Vec<Row>> {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.tsv");
        std::fs::write(&p, text).unwrap();
        let mut v = Vec::new();
        read(&p, |r| {
            v.push(r);
            Ok(())
        })?;
        Ok(v)
    }

    fn message(text: &str) -> String {
        rows(text).unwrap_err().to_string()
    }

    #[test]
    fn every_published_layout_is_read_by_its_header() {
        // WMT 2021 (TED, newstest2021): with `doc_id` and `comment`, ignored.
        let ted =
            "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tcomment\n\
                   Nemo\ttalk.1\t1\t7\trater2\tA b.\tX <v>y</v>.\tStyle/Awkward\tMinor\t\n";
        let r = &rows(ted).unwrap()[0];
        assert_eq!(
            (
                r.system.as_str(),
                r.doc.as_str(),
                r.seg_id,
                r.rater.as_str()
            ),
            ("Nemo", "talk.1", 7, "rater2")
        );
        assert_eq!(
            (r.target.text.as_str(), r.target.spans.clone()),
            ("X y.", vec![(2, 3)])
        );
        assert_eq!((r.kind, r.line, r.metadata.as_str()), (Kind::Error, 2, ""));
        // Marot's layout of 2023 (…3ratingsPerSegment.tsv): `docSegId` ignored, the segment
        // is `globalSegId`, a comment after the header's last column, `metadata` kept.
        let sxs = "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\t\
                   metadata\t# Documentation: somewhere\n\
                   refA\td:en-de\t2\t12\trater3\tA b.\tX y.\tNo-error\tno-error\t{\"t\":1}\n\
                   refA\td:en-de\t2\t12\trater3\tA b.\tX y.\tFound\tHOTW-test\t{}\n";
        let v = rows(sxs).unwrap();
        assert_eq!(
            (v[0].seg_id, v[0].kind, v[0].metadata.as_str()),
            (12, Kind::NoError, "{\"t\":1}")
        );
        assert_eq!(v[1].kind, Kind::RaterCheck);
        // Nine columns (no comment), columns in another order, a metadata-only row.
        let nine = "seg_id\tsystem\tdoc\trater\tsource\ttarget\tcategory\tseverity\tdoc_id\n\
                    3\tS\td\t\tA.\tB.\t\t\t1\n";
        assert_eq!(rows(nine).unwrap()[0].kind, Kind::Metadata);
        // No `doc` column: empty documents.
        let nodoc = "system\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n\
                     S\t1\tr\tA.\tB.\tNo-error\tNo-error\n";
        assert_eq!(rows(nodoc).unwrap()[0].doc, "");
        // A column missing, or named twice.
        assert!(
            message("system\tdoc\tseg_id\trater\tsource\ttarget\tcategory\n")
                .contains("no column `severity`")
        );
        assert!(message(&ted.replace("doc_id", "seg_id")).contains("named twice"));
    }

    #[test]
    fn rows_must_be_what_the_header_says() {
        let head = "system\tdoc\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n";
        let row = |cells: &str| format!("{head}{cells}\n");
        let m = message(&row("S\td\t1\tr\tA\tB\tC/D\tMinor\textra"));
        assert!(m.ends_with(":2: 9 tab-separated fields where the header has 8 (a tab inside a field shifts every later column)"), "{m}");
        assert!(message(&row("S\td\t1\tr\tA\tB\tMinor")).contains(":2: 7 tab-separated fields"));
        for bad in [
            "abc",
            "-1",
            "0",
            "1e23",
            "1.5",
            "99999999999999999999999",
            "",
        ] {
            let m = message(&row(&format!("S\td\t{bad}\tr\tA\tB\tC\tMinor")));
            assert!(
                m.contains(":2: seg_id `") && m.contains("not a segment number"),
                "{bad}: {m}"
            );
        }
        let m = message(&row("S\td\t1\tr\tA\tB\tC\tMajr"));
        assert!(m.contains(":2: unknown severity `Majr`"), "{m}");
        assert!(message(&row("\td\t1\tr\tA\tB\tC\tMinor")).contains(":2: empty `system`"));
        // Spelled as the tools spell them: all read.
        for (sev, kind) in [
            ("major", Kind::Error),
            (" Minor ", Kind::Error),
            ("NEUTRAL", Kind::Error),
            ("No error", Kind::NoError),
            ("no_error", Kind::NoError),
            ("HOTW-test", Kind::RaterCheck),
        ] {
            assert_eq!(
                rows(&row(&format!("S\td\t1\tr\tA\tB\tC\t{sev}"))).unwrap()[0].kind,
                kind,
                "{sev}"
            );
        }
        // A header alone, and nothing at all.
        assert!(message(head).ends_with(":1: an MQM header but no row: the file holds no rating"));
        assert!(message("").contains("empty file"));
        assert_eq!(segment_number(" 606 "), Some(606));
    }

    #[test]
    fn spans_move_over_whitespace() {
        // The same text with more spaces, and a span marking the whole segment with the
        // space the campaigns' tools add before `</v>`.
        let from = marked("Das  Wetter <v>drehte</v>   kalt. ");
        let to = "Das Wetter drehte kalt.";
        let r = remap(&from.spans, &from.text, to);
        assert_eq!(&to[r[0].0..r[0].1], "drehte");
        let whole = marked("<v>Das Wetter drehte kalt. </v>");
        let r = remap(&whole.spans, &whole.text, to);
        assert_eq!(r, vec![(0, to.len())]);
        // A span of whitespace only is empty where it was; multibyte characters kept whole.
        let gap = marked("a<v> </v>b ä");
        assert_eq!(remap(&gap.spans, &gap.text, "a b ä"), vec![(2, 2)]);
        let u = marked("Straße  <v>für</v>");
        let r = remap(&u.spans, &u.text, "Straße für");
        assert_eq!(&"Straße für"[r[0].0..r[0].1], "für");
        assert_eq!(
            first_difference("Das Wetter drehte kalt.", "Das  Wetter wurde kalt."),
            (
                "Das Wetter drehte kalt.".into(),
                "Das Wetter wurde kalt.".into()
            )
        );
    }

    #[test]
    fn quoted_fields_are_unquoted_only_when_quoted() {
        assert_eq!(unquote("\"\"\"Hi\"\", she said\""), "\"Hi\", she said");
        assert_eq!(unquote("\"a \"\"b\"\"\""), "a \"b\"");
        for kept in [
            "\"Hi\", she said",
            "\"Hi\"",
            "\"",
            "\"\"",
            "plain",
            "\"a \"b\" c\"",
        ] {
            assert_eq!(unquote(kept), kept);
        }
    }

    #[test]
    fn references_by_name() {
        for r in [
            "ref",
            "refA",
            "refB",
            "ref-A",
            "ref.A",
            "ref_1",
            "Human-A",
            "human",
            "Human-P",
            "reference",
            "REF-C",
        ] {
            assert!(is_reference_name(r), "{r}");
        }
        for s in [
            "GPT4-5shot_with_refA",
            "refinement",
            "ref-AB",
            "Online-W",
            "humane",
            "metricsystem1",
        ] {
            assert!(!is_reference_name(s), "{s}");
        }
        assert!(is_source_issue("Source issue") && is_source_issue("Source error/-"));
        assert!(!is_source_issue("Accuracy/Source language fragment"));
    }
}
