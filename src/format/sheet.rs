//! Annotation sheets (`sheets`, read by `tally`): CSV files with a header row, one row per
//! item (detection) or per item and blinded system (translation), and the key that
//! unblinds them, kept apart from what annotators see.
//!
//! In the texts, the locus's dependent is written `[[word]]` and its head `{{word}}`; in a
//! reference or an output, the words aligned to them are marked the same way. The text's
//! own `\`, `[`, `]`, `{` and `}` are written `\\`, `\[`, … ([`sheet_text`]), so no
//! corpus text can look like a mark; [`parse_marks`] reads a text back.
//!
//! Every file of one `sheets` run carries the run's id (the `run` column of the sheets and
//! the key, `run` in `sheets.json`), so that `tally` refuses sheets and keys of different
//! runs. Text cells are written for spreadsheets ([`super::to_spreadsheet`]) and read back
//! with that undone.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::Path;

use serde::{de::DeserializeOwned, Deserialize, Serialize};

use crate::error::{Error, Result};

/// The answers of a detection item: does the marked pair really form the phenomenon?
pub const DETECTION_ANSWERS: [&str; 3] = ["yes", "no", "unsure"];
/// The answers of a translation item: does the output convey the marked meaning?
pub const TRANSLATION_ANSWERS: [&str; 4] = ["yes", "partly", "no", "reference lacks it"];

/// The question of every detection item.
pub const DETECTION_QUESTION: &str =
    "Do [[ ]] and {{ }} really form this phenomenon (dependent and head)?";
/// The question of every translation item.
pub const TRANSLATION_QUESTION: &str =
    "Does the output convey the meaning of [[ ]] and {{ }} as the reference does?";

/// One row of `detection.csv`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DetectionRow {
    /// The id of the `sheets` run.
    pub run: String,
    /// Item id (`D001` …).
    pub item: String,
    /// Phenomenon.
    pub phenomenon: String,
    /// Words between dependent and head.
    pub distance: u32,
    /// Corpus line (1-based).
    pub line: u64,
    /// The source with the locus marked.
    pub source: String,
    /// What is asked.
    pub question: String,
    /// yes / no / unsure (empty until answered).
    pub answer: String,
    /// Free text.
    pub comment: String,
}

/// One row of `translation.csv`: an item as one blinded system translated it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TranslationRow {
    /// The id of the `sheets` run.
    pub run: String,
    /// Item id (`T001` …).
    pub item: String,
    /// The system's blinded slot (`A`, `B`, …), shuffled per item.
    pub slot: String,
    /// Phenomenon.
    pub phenomenon: String,
    /// Words between dependent and head.
    pub distance: u32,
    /// Corpus line (1-based).
    pub line: u64,
    /// The source with the locus marked.
    pub source: String,
    /// The reference with the words aligned to the locus marked.
    pub reference: String,
    /// The system's output with the words aligned to the locus marked.
    pub output: String,
    /// What is asked.
    pub question: String,
    /// yes / partly / no / reference lacks it (empty until answered).
    pub answer: String,
    /// Free text.
    pub comment: String,
}

/// One row of the key: which system a translation item's slot is, and the automatic
/// locus judgement of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeyRow {
    /// Item id.
    pub item: String,
    /// Slot.
    pub slot: String,
    /// System name.
    pub system: String,
    /// `correct`, `incorrect`, `differs`, `partial`, `unaligned` or `no reference` (locus
    /// accuracy's judgement; the middle two since `locus:4`).
    pub automatic: String,
    /// The id of the `sheets` run.
    pub run: String,
}

/// The automatic judgements a key may hold.
pub const AUTOMATIC: [&str; 6] = [
    "correct",
    "incorrect",
    "differs",
    "partial",
    "unaligned",
    "no reference",
];

/// The columns of the key.
pub const KEY_COLUMNS: [&str; 5] = ["item", "slot", "system", "automatic", "run"];

/// What `sheets` wrote, for recognising its own output and for `tally`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SheetsRecord {
    /// ldd-sets version.
    pub tool: String,
    /// The run's id, in every row of its sheets and key: a hash of what the run was made
    /// from (sets, sample, systems), so the same inputs give the same id.
    #[serde(default)]
    pub run: String,
    /// The sets directory's manifest SHA-256.
    pub manifest_sha256: String,
    /// Seed of the sample and of the slot order.
    pub seed: u64,
    /// Items per phenomenon and distance.
    pub per_cell: usize,
    /// The distances sampled.
    pub distances: Vec<u32>,
    /// Number of systems (their names are in the key only).
    pub systems: usize,
    /// Detection items written.
    pub detection_items: usize,
    /// Translation items written.
    pub translation_items: usize,
    /// Sampled loci left out of the translation sheet: no reference word is aligned to
    /// them, so the reference would show no mark to compare an output with.
    #[serde(default)]
    pub no_reference: usize,
}

/// One sheet as `form.html` embeds it for its script: the file it saves, its columns in
/// order, the answers offered, and the rows.
#[derive(Debug, Serialize)]
pub struct FormSheet<'a, T> {
    /// The file name the form saves (`detection.csv`, `translation.csv`).
    pub file: &'a str,
    /// The sheet's columns, in order.
    pub columns: &'a [&'a str],
    /// The answers offered.
    pub answers: &'a [&'a str],
    /// The rows.
    pub rows: &'a [T],
}

/// What `tally` found: `tally.json` (and, one row per group, `tally.csv`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TallyReport {
    /// `detection` or `translation`.
    pub kind: String,
    /// The annotators' sheet files, in the order given (annotator 1, 2, …).
    pub annotators: Vec<String>,
    /// Items (translation: item × output) in the sheets.
    pub units: usize,
    /// Units every annotator answered (what agreement is computed on).
    pub answered_by_all: usize,
    /// Agreement between the annotators.
    pub agreement: Agreement,
    /// Per phenomenon, distance (and system): the majority answers and the share judged
    /// correct (detection: yes among yes and no; translation: yes among yes, partly and no).
    pub groups: Vec<TallyGroup>,
    /// The units the annotators answered differently.
    pub disagreements: Vec<Disagreement>,
    /// Agreement of locus accuracy's judgement with the annotators' majority (translation
    /// sheets with their key).
    pub automatic: Option<AutoAgreement>,
    /// The level of the intervals.
    pub confidence: f64,
}

/// Agreement between annotators.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Agreement {
    /// Share of the units answered by all on which all gave the same answer.
    pub raw: Option<f64>,
    /// Cohen's κ of every pair of annotators (1-based numbers), on the units both answered.
    pub cohen: Vec<PairKappa>,
    /// Fleiss' κ of all annotators, on the units all answered.
    pub fleiss: Option<f64>,
}

/// Cohen's κ of two annotators.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairKappa {
    /// The first annotator (1-based).
    #[serde(rename = "a")]
    pub first: usize,
    /// The second.
    #[serde(rename = "b")]
    pub second: usize,
    /// Units both answered.
    pub units: usize,
    /// Share of them with the same answer.
    pub agreement: Option<f64>,
    /// κ (`None` when chance agreement is 1).
    pub kappa: Option<f64>,
}

/// One group of units with the majority answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TallyGroup {
    /// Phenomenon.
    pub phenomenon: String,
    /// Distance.
    pub distance: u32,
    /// System (translation sheets with their key).
    pub system: Option<String>,
    /// Units in the group.
    pub units: u64,
    /// Majority answer → units (`no majority` for ties and unanswered units).
    pub answers: BTreeMap<String, u64>,
    /// Units whose majority answer judges the item (see [`TallyReport::groups`]).
    pub judged: u64,
    /// Of them, judged correct (`yes`).
    pub correct: u64,
    /// `correct / judged` (×100).
    pub share: Option<f64>,
    /// Wilson interval of the share (×100).
    pub ci_low: Option<f64>,
    /// Upper bound.
    pub ci_high: Option<f64>,
}

/// A unit the annotators answered differently.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Disagreement {
    /// Item id.
    pub item: String,
    /// Slot (translation).
    pub slot: String,
    /// Each annotator's answer (empty: unanswered).
    pub answers: Vec<String>,
}

/// Locus accuracy against the annotators' majority.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AutoAgreement {
    /// Units judged by both (automatic correct or incorrect; majority yes, partly or no).
    pub units: u64,
    /// `[[auto correct & people yes, auto correct & people not], [auto incorrect & people
    /// yes, auto incorrect & people not]]`.
    pub table: [[u64; 2]; 2],
    /// Share of units where both agree.
    pub accuracy: Option<f64>,
    /// Cohen's κ of the two.
    pub kappa: Option<f64>,
    /// The units where they disagree, with what the annotators saw.
    #[serde(default)]
    pub disagreements: Vec<AutoDisagreement>,
}

/// A unit where locus accuracy and the annotators' majority disagree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AutoDisagreement {
    /// Item id.
    pub item: String,
    /// Slot.
    pub slot: String,
    /// System.
    pub system: String,
    /// Phenomenon.
    pub phenomenon: String,
    /// Distance.
    pub distance: u32,
    /// Locus accuracy's judgement (`correct` / `incorrect`).
    pub automatic: String,
    /// The annotators' majority answer.
    pub majority: String,
    /// The marked source.
    pub source: String,
    /// The marked reference.
    pub reference: String,
    /// The marked output.
    pub output: String,
}

/// Reads `tally.json` (as `tally --out` wrote it); errors name the file and line.
pub fn read_tally(path: &Path) -> Result<TallyReport> {
    let text = ldd_io::read_text(path, 256 << 20)?;
    serde_json::from_str(&text).map_err(|e| {
        Error::input(
            path,
            e.line() as u64,
            format!("not a tally.json of `ldd-sets tally --out`: {e}"),
        )
    })
}

/// The two kinds of sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SheetKind {
    /// `detection.csv`.
    Detection,
    /// `translation.csv`.
    Translation,
}

impl std::fmt::Display for SheetKind {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(match self {
            SheetKind::Detection => "detection",
            SheetKind::Translation => "translation",
        })
    }
}

/// The header of a sheet of `kind`.
pub fn header(kind: SheetKind) -> &'static [&'static str] {
    match kind {
        SheetKind::Detection => &[
            "run",
            "item",
            "phenomenon",
            "distance",
            "line",
            "source",
            "question",
            "answer",
            "comment",
        ],
        SheetKind::Translation => &[
            "run",
            "item",
            "slot",
            "phenomenon",
            "distance",
            "line",
            "source",
            "reference",
            "output",
            "question",
            "answer",
            "comment",
        ],
    }
}

/// A row of an annotator's filled sheet ([`read_filled`]).
#[derive(Debug, Clone)]
pub struct Answered {
    /// Source, reference and output (a detection row has the source only).
    pub texts: [String; 3],
    /// Item.
    pub item: String,
    /// Blinded system (empty in a detection sheet).
    pub slot: String,
    /// Phenomenon.
    pub phenomenon: String,
    /// Distance.
    pub distance: u32,
    /// The answer, lowercased; `None` when left blank.
    pub answer: Option<String>,
    /// The id of the `sheets` run.
    pub run: String,
    /// 1-based line of the row in its file (the header is line 1; a cell may span lines).
    pub line: u64,
}

/// Largest sheet or key read: 1 GiB.
const MAX_SHEET_BYTES: u64 = 1 << 30;

/// An annotator's filled sheet at `path`, read once: its kind (by its header row, which
/// must be one of the two exactly) and its rows, each answer one of the kind's answers (in
/// any case) or blank. Anything else is an error naming the file and line.
pub fn read_filled(path: &Path) -> Result<(SheetKind, Vec<Answered>)> {
    let text = csv_text(path)?;
    let mut r = csv::Reader::from_reader(without_bom(&text).as_bytes());
    let csv_error = |e| csv_error(path, e);
    let head = r.headers().map_err(csv_error)?.clone();
    let kind = [SheetKind::Detection, SheetKind::Translation]
        .into_iter()
        .find(|&k| head.iter().eq(header(k).iter().copied()))
        .ok_or_else(|| {
            Error::input(
                path,
                1,
                format!(
                    "not an annotation sheet: expected the header `{}` (detection) or `{}` \
                     (translation)",
                    header(SheetKind::Detection).join(","),
                    header(SheetKind::Translation).join(",")
                ),
            )
        })?;
    let allowed: &[&str] = match kind {
        SheetKind::Detection => &DETECTION_ANSWERS,
        SheetKind::Translation => &TRANSLATION_ANSWERS,
    };
    let mut rows = Vec::new();
    for rec in r.records() {
        let rec = unquoted(rec.map_err(csv_error)?);
        let line = rec.position().map_or(0, |p| p.line());
        let row = match kind {
            SheetKind::Detection => rec.deserialize::<DetectionRow>(Some(&head)).map(|r| {
                let texts = [r.source, String::new(), String::new()];
                let item = (r.item, String::new());
                (item, r.phenomenon, r.distance, r.answer, texts, r.run)
            }),
            SheetKind::Translation => rec.deserialize::<TranslationRow>(Some(&head)).map(|r| {
                let texts = [r.source, r.reference, r.output];
                let item = (r.item, r.slot);
                (item, r.phenomenon, r.distance, r.answer, texts, r.run)
            }),
        };
        let ((item, slot), phenomenon, distance, answer, texts, run) = row.map_err(csv_error)?;
        let a = answer.trim().to_lowercase();
        let answer = match a.as_str() {
            "" => None,
            x if allowed.contains(&x) => Some(a),
            _ => {
                return Err(Error::input(
                    path,
                    line,
                    format!(
                        "item {}: answer `{}` is not one of {}",
                        ldd_io::error::escape(&item),
                        ldd_io::error::quote(&answer, 40),
                        allowed.join(", ")
                    ),
                ))
            }
        };
        rows.push(Answered {
            texts,
            item,
            slot,
            phenomenon,
            distance,
            answer,
            run,
            line,
        });
    }
    Ok((kind, rows))
}

/// `rec` with every cell as written before [`super::to_spreadsheet`].
fn unquoted(rec: csv::StringRecord) -> csv::StringRecord {
    let mut out: csv::StringRecord = rec.iter().map(super::from_spreadsheet).collect();
    out.set_position(rec.position().cloned());
    out
}

/// The CSV text of `rows` under `header` (written even without rows), by the one CSV
/// writer ([`super::csv_of`]: every cell made safe for spreadsheets).
pub fn to_csv<T: Serialize>(header: &[&str], rows: &[T]) -> Result<Vec<u8>> {
    Ok(super::csv_of(header, rows)
        .map_err(|e| Error::Data(e.to_string()))?
        .into_bytes())
}

/// The rows of the CSV file `path` (a leading BOM allowed, as spreadsheets save it; cells
/// read back from [`super::to_spreadsheet`]); a bad row is an error naming the file and
/// line.
pub fn read_csv<T: DeserializeOwned>(path: &Path) -> Result<Vec<(T, u64)>> {
    let text = csv_text(path)?;
    let mut r = csv::Reader::from_reader(without_bom(&text).as_bytes());
    let head = r.headers().map_err(|e| csv_error(path, e))?.clone();
    let mut out = Vec::new();
    for rec in r.records() {
        let rec = unquoted(rec.map_err(|e| csv_error(path, e))?);
        let line = rec.position().map_or(0, |p| p.line());
        let row = rec
            .deserialize(Some(&head))
            .map_err(|e| csv_error(path, e))?;
        out.push((row, line));
    }
    Ok(out)
}

/// Whether `path` is a key that `sheets` wrote (its header), which a new run may replace.
pub fn is_key_file(path: &Path) -> bool {
    let Ok(text) = ldd_io::read_text(path, MAX_SHEET_BYTES) else {
        return false;
    };
    let first = without_bom(&text).lines().next().unwrap_or("");
    // Keys of `sheets` before run ids had no `run` column.
    first == KEY_COLUMNS.join(",") || first == KEY_COLUMNS[..4].join(",")
}

/// How a word of a sheet's text is marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// `[[…]]`: the dependent, or the words aligned to it.
    Dependent,
    /// `{{…}}`: the head, or the words aligned to it.
    Head,
}

impl Mark {
    fn delimiters(self) -> (&'static str, &'static str) {
        match self {
            Mark::Dependent => ("[[", "]]"),
            Mark::Head => ("{{", "}}"),
        }
    }
}

/// Text for a sheet: its `\`, `[`, `]`, `{` and `}` escaped with `\`, so that it never
/// forms a mark.
pub fn sheet_text(text: &str) -> Cow<'_, str> {
    if !text.contains(['\\', '[', ']', '{', '}']) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 4);
    for c in text.chars() {
        if matches!(c, '\\' | '[' | ']' | '{' | '}') {
            out.push('\\');
        }
        out.push(c);
    }
    out.into()
}

/// `word` (text, escaped by [`sheet_text`]) marked as `mark`.
pub fn marked_word(word: &str, mark: Mark) -> String {
    let (open, close) = mark.delimiters();
    format!("{open}{}{close}", sheet_text(word))
}

/// A sheet's text split into plain text and marked words, the escapes of [`sheet_text`]
/// undone (an opener without its closer is text).
pub fn parse_marks(text: &str) -> Vec<(Option<Mark>, String)> {
    let c: Vec<char> = text.chars().collect();
    let at = |i: usize, s: &str| s.chars().enumerate().all(|(k, x)| c.get(i + k) == Some(&x));
    let unescape = |v: &[char]| {
        let mut out = String::with_capacity(v.len());
        let mut k = 0;
        while k < v.len() {
            if v[k] == '\\' && k + 1 < v.len() {
                k += 1;
            }
            out.push(v[k]);
            k += 1;
        }
        out
    };
    // The index of the closer of a mark opened before `from`, escaped characters skipped.
    let closer = |from: usize, m: Mark| {
        let mut k = from;
        while k < c.len() {
            if c[k] == '\\' {
                k += 2;
            } else if at(k, m.delimiters().1) {
                return Some(k);
            } else {
                k += 1;
            }
        }
        None
    };
    let (mut out, mut plain, mut i) = (Vec::new(), String::new(), 0);
    while i < c.len() {
        if c[i] == '\\' && i + 1 < c.len() {
            plain.push(c[i + 1]);
            i += 2;
            continue;
        }
        let opened = [Mark::Dependent, Mark::Head]
            .into_iter()
            .filter(|m| at(i, m.delimiters().0))
            .find_map(|m| Some((m, closer(i + 2, m)?)));
        if let Some((m, end)) = opened {
            if !plain.is_empty() {
                out.push((None, std::mem::take(&mut plain)));
            }
            out.push((Some(m), unescape(&c[i + 2..end])));
            i = end + 2;
            continue;
        }
        plain.push(c[i]);
        i += 1;
    }
    if !plain.is_empty() {
        out.push((None, plain));
    }
    out
}

/// The text of the CSV file `path` (at most [`MAX_SHEET_BYTES`]).
fn csv_text(path: &Path) -> Result<String> {
    Ok(ldd_io::read_text(path, MAX_SHEET_BYTES)?)
}

/// `text` without the leading BOM spreadsheets save.
fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// A CSV reader's error in `path`, naming the line it is on.
fn csv_error(path: &Path, error: csv::Error) -> Error {
    let line = error.position().map_or(0, |p| p.line());
    Error::input(path, line, error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_through_csv_with_quotes_commas_and_formulas() {
        let row = DetectionRow {
            run: "0123abcd".into(),
            item: "D001".into(),
            phenomenon: "particle".into(),
            distance: 5,
            line: 26,
            source: "=Osborne {{meldete}} sich , \"bei\" [[an]]".into(),
            question: DETECTION_QUESTION.into(),
            answer: "yes".into(),
            comment: "line\nbreak".into(),
        };
        let bytes = to_csv(header(SheetKind::Detection), std::slice::from_ref(&row)).unwrap();
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.contains(",\"'=Osborne "), "{text}");
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("d.csv");
        std::fs::write(&p, &bytes).unwrap();
        assert_eq!(read_csv::<DetectionRow>(&p).unwrap(), vec![(row, 2)]);
        let (kind, rows) = read_filled(&p).unwrap();
        assert_eq!(kind, SheetKind::Detection);
        assert_eq!((rows[0].line, rows[0].answer.as_deref()), (2, Some("yes")));
        assert!(rows[0].texts[0].starts_with("=Osborne"));
        // No rows: the header all the same.
        let empty = to_csv::<DetectionRow>(header(SheetKind::Detection), &[]).unwrap();
        assert_eq!(
            String::from_utf8(empty).unwrap(),
            header(SheetKind::Detection).join(",") + "\n"
        );
        std::fs::write(&p, "item,answer\nD1,yes\n").unwrap();
        let e = read_filled(&p).unwrap_err().to_string();
        assert!(
            e.contains("d.csv") && e.contains("not an annotation sheet"),
            "{e}"
        );
    }

    #[test]
    fn corpus_text_cannot_forge_a_mark() {
        let forged = "a [[x]] {{y}} \\ b]";
        let text = format!(
            "{} {} {}",
            sheet_text(forged),
            marked_word("[w", Mark::Dependent),
            marked_word("h}", Mark::Head)
        );
        assert_eq!(
            text,
            "a \\[\\[x\\]\\] \\{\\{y\\}\\} \\\\ b\\] [[\\[w]] {{h\\}}}"
        );
        assert_eq!(
            parse_marks(&text),
            vec![
                (None, format!("{forged} ")),
                (Some(Mark::Dependent), "[w".to_string()),
                (None, " ".to_string()),
                (Some(Mark::Head), "h}".to_string()),
            ]
        );
        // An opener without its closer is text.
        assert_eq!(parse_marks("a [[b"), vec![(None, "a [[b".to_string())]);
        assert_eq!(
            parse_marks("[[ ]] and {{ }}"),
            vec![
                (Some(Mark::Dependent), " ".to_string()),
                (None, " and ".to_string()),
                (Some(Mark::Head), " ".to_string()),
            ]
        );
    }
}
