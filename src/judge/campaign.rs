//! The MQM files of one campaign read into memory, for `mqm` and `mqm --export`: every
//! segment's source, every system's output of it, and each rater's errors there, checked
//! as they are read.
//!
//! What is left out, and counted: rater checks (`HOTW-test` rows, whose `target` is an
//! altered output), rows of metadata only, and — unless asked for — errors that are
//! problems of the source (`Source issue`), not of the translation. What is refused,
//! naming file and line: another source for a segment, or another output for a system's
//! segment, than its first row has, beyond whitespace (a whitespace-only difference, such
//! as the space a span marking a whole segment adds before `</v>`, is tolerated: the row's
//! spans are moved onto the first row's text); files none of whose rows rates a system;
//! the same row twice (same system, segment and rater, spans over the same words, category
//! and severity by their keys — case, whitespace and `No-error`'s spellings aside, as every
//! reading of a row compares them (`crate::format::mqm`) — in any of the files), the
//! other place named — unless
//! the layout records when each mark was made (`metadata`) and the two differ: then the
//! rater marked the error twice, and it counts once. Memory is bounded: at most
//! [`MAX_ROWS`] rows and an estimated [`MAX_BYTES`] held.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::format::mqm::{
    self as file, category_key, collapse, first_difference, is_reference_name, is_source_issue,
    remap, severity_key, solid_spans, Kind, Marked, Row,
};

/// Most rows read from MQM files in all (a WMT campaign has 10,000 to 100,000).
pub const MAX_ROWS: u64 = 5_000_000;

/// Most bytes the campaign may hold in memory, as estimated while reading (texts, spans
/// and a cost per row, segment and output measured on the worst layout, every row another
/// system's output): 1 GiB. 1,000,000 such rows of 100 bytes (101 MB) take 600 MB.
pub const MAX_BYTES: u64 = 1 << 30;

/// The estimated cost of one error or rating row held, beyond its spans.
const ROW_BYTES: u64 = 256;
/// The estimated cost of one output or segment held, beyond its text.
const TEXT_BYTES: u64 = 256;

/// Where a row was read: the file (its index among the files) and the line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Place {
    file: u32,
    line: u32,
}

/// One error a rater marked.
#[derive(Debug, Clone)]
pub struct ErrorSpan {
    /// Its category as compared (`accuracy/mistranslation`, [`category_key`]).
    pub category: Arc<str>,
    /// Its severity as compared (`major`, [`severity_key`]).
    pub severity: Arc<str>,
    /// Its spans in the output (byte ranges of [`Rated::output`]'s text).
    pub target: Vec<(usize, usize)>,
    /// Its spans in the source (an omission; byte ranges of [`Segment::source`]'s text).
    pub source: Vec<(usize, usize)>,
    at: Place,
    meta: u64,
}

/// One rater's marks of one output.
#[derive(Debug, Clone)]
struct RaterMarks {
    rater: Arc<str>,
    errors: Vec<ErrorSpan>,
    /// A `No-error` row: where, and its metadata's hash.
    no_error: Option<(Place, u64)>,
}

impl RaterMarks {
    /// Adds `span`, unless the same error is there — the same category and severity (their
    /// keys) and spans over the same words of `texts`, the output and the source
    /// ([`solid_spans`]): then where it was read, and its metadata's hash.
    fn add(&mut self, span: ErrorSpan, texts: (&str, &str)) -> Option<(Place, u64)> {
        let words = |e: &ErrorSpan| {
            (
                solid_spans(texts.0, &e.target),
                solid_spans(texts.1, &e.source),
            )
        };
        let new = words(&span);
        let same = self.errors.iter().find(|x| {
            x.category == span.category && x.severity == span.severity && words(x) == new
        });
        if let Some(x) = same {
            return Some((x.at, x.meta));
        }
        self.errors.reserve_exact(1);
        self.errors.push(span);
        None
    }
}

/// A hash of a row's `metadata`: two marks at other times differ in it.
fn hash_of(metadata: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    metadata.hash(&mut h);
    h.finish()
}

/// Each rater's errors of one output, by rater (in the raters' order).
#[derive(Debug, Clone, Default)]
pub struct Raters(Vec<RaterMarks>);

impl Raters {
    /// Each rater's errors, in the raters' order.
    pub fn values(&self) -> impl Iterator<Item = &Vec<ErrorSpan>> {
        self.0.iter().map(|r| &r.errors)
    }

    /// The number of raters.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no rater rated the output.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn entry(&mut self, rater: &Arc<str>) -> &mut RaterMarks {
        let k = match self
            .0
            .binary_search_by(|r| r.rater.as_ref().cmp(rater.as_ref()))
        {
            Ok(k) => k,
            Err(k) => {
                self.0.insert(
                    k,
                    RaterMarks {
                        rater: rater.clone(),
                        errors: Vec::new(),
                        no_error: None,
                    },
                );
                k
            }
        };
        &mut self.0[k]
    }
}

/// A text with its marks taken out: the first row's, without whitespace at either end.
#[derive(Debug, Clone, Default)]
pub struct Text {
    /// The text.
    pub text: String,
}

/// One system's rating of one segment: its output, and each rater's errors.
#[derive(Debug, Clone, Default)]
pub struct Rated {
    /// The output, marks taken out (the text of its first row).
    pub output: Text,
    /// Each rater's errors.
    pub raters: Raters,
    at: Place,
}

/// One segment: its document and its source (the text of its first row).
#[derive(Debug, Clone)]
pub struct Segment {
    /// Its document (`doc`; empty without that column).
    pub doc: Arc<str>,
    /// Its source, marks taken out (the text of its first row).
    pub source: Text,
    at: Place,
}

/// Rows and errors read but left out of the judgement.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LeftOut {
    /// Rater checks (`HOTW-test`).
    pub rater_checks: u64,
    /// Rows of metadata only.
    pub metadata_rows: u64,
    /// Errors marked as problems of the source.
    pub source_issues: u64,
    /// Errors (or `No-error` rows) a rater marked twice, counted once.
    pub marked_twice: u64,
}

/// Everything read from the MQM files of one campaign.
#[derive(Debug, Default)]
pub struct Campaign {
    /// The files, in the order read.
    pub files: Vec<PathBuf>,
    /// Segment number → the segment.
    pub segments: BTreeMap<u64, Segment>,
    /// System → segment number → its rating.
    pub rated: BTreeMap<Arc<str>, BTreeMap<u64, Rated>>,
    /// Rows read.
    pub rows: u64,
    /// `<v>` never closed.
    pub unclosed: u64,
    /// What was left out.
    pub left_out: LeftOut,
    /// The severities of the errors kept ([`severity_key`]).
    pub severities: BTreeSet<String>,
    /// The categories of the errors kept.
    pub categories: BTreeSet<Arc<str>>,
    strings: HashSet<Arc<str>>,
    bytes: u64,
}

/// The MQM files `files` of one campaign, read and checked; errors marked as problems of
/// the source are kept only with `source_issues`.
pub fn read(files: &[PathBuf], source_issues: bool) -> Result<Campaign> {
    let mut c = Campaign {
        files: files.to_vec(),
        ..Campaign::default()
    };
    for (k, path) in files.iter().enumerate() {
        let file = u32::try_from(k).unwrap_or(u32::MAX);
        file::read(path, |row| c.add(file, path, row, source_issues))?;
    }
    if c.rated.is_empty() {
        return Err(no_rating(&c));
    }
    Ok(c)
}

/// The error for MQM files none of whose rows rates an output: every row a rater check or
/// metadata only, both left out.
fn no_rating(c: &Campaign) -> Error {
    let files: Vec<String> = c.files.iter().map(|f| ldd_io::error::shown(f)).collect();
    let LeftOut {
        rater_checks: checks,
        metadata_rows: metadata,
        ..
    } = c.left_out;
    Error::Data(format!(
        "{}: no row rates a system: all {} rows are left out, {checks} as rater checks \
         (severity HOTW-test) and {metadata} as metadata only; an MQM file rates an output \
         with error rows (severity Major, Minor or Neutral) or a No-error row",
        files.join(", "),
        checks + metadata,
    ))
}

impl Campaign {
    /// The rating of `system` on segment `seg`.
    pub fn rating(&self, system: &str, seg: u64) -> Option<&Rated> {
        self.rated.get(system)?.get(&seg)
    }

    /// Every rating.
    pub fn ratings(&self) -> impl Iterator<Item = &Rated> {
        self.rated.values().flat_map(BTreeMap::values)
    }

    /// The systems, in order.
    pub fn systems(&self) -> impl Iterator<Item = &str> {
        self.rated.keys().map(AsRef::as_ref)
    }

    /// The documents of the segments.
    pub fn docs(&self) -> BTreeSet<&str> {
        self.segments.values().map(|s| s.doc.as_ref()).collect()
    }

    /// `file:line` of a place, for messages.
    fn shown(&self, at: Place) -> String {
        format!(
            "{}:{}",
            ldd_io::error::shown(&self.files[at.file as usize]),
            at.line
        )
    }

    /// `text` shared: systems, raters, documents, categories and severities are held once.
    fn intern(&mut self, text: &str) -> Arc<str> {
        if let Some(a) = self.strings.get(text) {
            return a.clone();
        }
        // Counted with the next row's [`Campaign::hold`]: a name can be long.
        self.bytes += TEXT_BYTES + text.len() as u64;
        let a: Arc<str> = Arc::from(text);
        self.strings.insert(a.clone());
        a
    }

    /// Counts `bytes` more held, refusing beyond [`MAX_BYTES`].
    fn hold(&mut self, path: &Path, line: u64, bytes: u64) -> Result<()> {
        self.bytes += bytes;
        if self.bytes <= MAX_BYTES {
            return Ok(());
        }
        Err(Error::input(
            path,
            line,
            format!(
                "the MQM files need more than {} MiB of memory by this row ({} rows read); \
                 split the campaign (by document) and run mqm on each part",
                MAX_BYTES >> 20,
                self.rows
            ),
        ))
    }

    /// Reads one row of file `file` (`path`).
    fn add(&mut self, file: u32, path: &Path, row: Row, source_issues: bool) -> Result<()> {
        let at = Place {
            file,
            line: u32::try_from(row.line).unwrap_or(u32::MAX),
        };
        self.rows += 1;
        if self.rows > MAX_ROWS {
            return Err(Error::input(
                path,
                row.line,
                format!("more than {MAX_ROWS} MQM rows in all; split the campaign (by document)"),
            ));
        }
        match row.kind {
            Kind::RaterCheck => self.left_out.rater_checks += 1,
            Kind::Metadata => self.left_out.metadata_rows += 1,
            Kind::Error | Kind::NoError => {
                self.unclosed += u64::from(row.source.unclosed) + u64::from(row.target.unclosed);
                let spans = row.source.spans.len() + row.target.spans.len();
                self.hold(path, row.line, ROW_BYTES + 16 * spans as u64)?;
                let source = self.segment(at, path, &row)?;
                let system = self.intern(&row.system);
                let target = self.output(at, path, &system, &row)?;
                self.mark(at, path, &system, &row, target, source, source_issues)?;
            }
        }
        Ok(())
    }

    /// Checks the row's source against its segment's (or makes it the segment's); returns
    /// the row's source spans on the segment's text.
    fn segment(&mut self, at: Place, path: &Path, row: &Row) -> Result<Vec<(usize, usize)>> {
        if let Some(s) = self.segments.get(&row.seg_id) {
            if let Some(spans) = spans_on(&row.source, &s.source.text) {
                return Ok(spans);
            }
            let (there, here) = first_difference(&s.source.text, &row.source.text);
            return Err(Error::input(
                path,
                row.line,
                format!(
                    "segment {}: another source text than on line {} of {} (not only in \
                     whitespace: `{there}` there, `{here}` here)",
                    row.seg_id,
                    s.at.line,
                    ldd_io::error::shown(&self.files[s.at.file as usize])
                ),
            ));
        }
        self.hold(path, row.line, TEXT_BYTES + row.source.text.len() as u64)?;
        let doc = self.intern(&row.doc);
        let source = Text {
            text: row.source.text.trim().to_string(),
        };
        let spans = spans_on(&row.source, &source.text).unwrap_or_default();
        self.segments
            .insert(row.seg_id, Segment { doc, source, at });
        Ok(spans)
    }

    /// Checks the row's output against the system's first row of the segment (or makes it
    /// the rating's); returns the row's target spans on the rating's text.
    fn output(
        &mut self,
        at: Place,
        path: &Path,
        system: &Arc<str>,
        row: &Row,
    ) -> Result<Vec<(usize, usize)>> {
        let first = self
            .rating(system, row.seg_id)
            .map(|r| (&r.output.text, r.at));
        let Some((text, there)) = first else {
            self.hold(path, row.line, TEXT_BYTES + row.target.text.len() as u64)?;
            let rated = Rated {
                output: Text {
                    text: row.target.text.trim().to_string(),
                },
                raters: Raters::default(),
                at,
            };
            let spans = spans_on(&row.target, &rated.output.text).unwrap_or_default();
            let per = self.rated.entry(system.clone()).or_default();
            per.insert(row.seg_id, rated);
            return Ok(spans);
        };
        if let Some(spans) = spans_on(&row.target, text) {
            return Ok(spans);
        }
        let (a, b) = first_difference(text, &row.target.text);
        Err(Error::input(
            path,
            row.line,
            format!(
                "system {} segment {}: another output text than in its row at {} (not only in \
                 whitespace: `{a}` there, `{b}` here)",
                ldd_io::error::quote(system, 40),
                row.seg_id,
                self.shown(there)
            ),
        ))
    }

    /// Adds the row's error (or its `No-error`) to its rater's marks of the output,
    /// refusing the same row twice (a mark made again at another time counts once).
    #[allow(clippy::too_many_arguments)]
    fn mark(
        &mut self,
        at: Place,
        path: &Path,
        system: &Arc<str>,
        row: &Row,
        target: Vec<(usize, usize)>,
        source: Vec<(usize, usize)>,
        source_issues: bool,
    ) -> Result<()> {
        let rater = self.intern(&row.rater);
        let left_out = row.kind == Kind::Error && is_source_issue(&row.category) && !source_issues;
        self.left_out.source_issues += u64::from(left_out);
        let error = (row.kind == Kind::Error && !left_out).then(|| ErrorSpan {
            category: self.intern(&category_key(&row.category)),
            severity: self.intern(&severity_key(&row.severity)),
            target,
            source,
            at,
            meta: hash_of(&row.metadata),
        });
        if let Some(e) = &error {
            self.severities.insert(e.severity.to_string());
            let shown = self.intern(&row.category);
            self.categories.insert(shown);
        }
        let meta = hash_of(&row.metadata);
        let source_text = self
            .segments
            .get(&row.seg_id)
            .map_or("", |s| &s.source.text);
        let Some(r) = self
            .rated
            .get_mut(system)
            .and_then(|m| m.get_mut(&row.seg_id))
        else {
            return Ok(());
        };
        let marks = r.raters.entry(&rater);
        let earlier = match (row.kind, error) {
            (Kind::NoError, _) => {
                let earlier = marks.no_error;
                marks.no_error.get_or_insert((at, meta));
                earlier
            }
            (_, Some(e)) => marks.add(e, (&r.output.text, source_text)),
            _ => None,
        };
        match earlier {
            None => Ok(()),
            Some((_, m)) if m != meta => {
                self.left_out.marked_twice += 1;
                Ok(())
            }
            Some((first, _)) => Err(self.twice(path, row, first, at)),
        }
    }

    /// The error for `row` of `path`, at `at`, the same as the row at `first`.
    fn twice(&self, path: &Path, row: &Row, first: Place, at: Place) -> Error {
        let same_file = first.file == at.file;
        Error::input(
            path,
            row.line,
            format!(
                "the same row as {} (system {}, segment {}, rater {}, the same words marked, \
                 category and severity, case and whitespace aside): {}",
                self.shown(first),
                ldd_io::error::quote(&row.system, 40),
                row.seg_id,
                ldd_io::error::quote(&row.rater, 40),
                if same_file {
                    "a row repeated would count its error twice; remove one"
                } else {
                    "the same annotations given twice (one file twice, or a copy of it?) would \
                     count every error twice; give each file once"
                }
            ),
        )
    }
}

/// The spans of `marked` on `text`, a text that `marked`'s differs from only in whitespace (moved
/// with [`remap`]); `None` if they differ otherwise.
fn spans_on(marked: &Marked, text: &str) -> Option<Vec<(usize, usize)>> {
    if marked.text == text {
        return Some(marked.spans.clone());
    }
    (collapse(&marked.text) == collapse(text)).then(|| remap(&marked.spans, &marked.text, text))
}

/// Two systems whose outputs are the same (whitespace collapsed) on every segment both
/// were rated on: each of their judgements counts twice in every correlation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identical {
    /// The first system (in order).
    pub first: String,
    /// The second.
    pub second: String,
    /// The segments both were rated on.
    pub segments: u64,
}

/// A fingerprint of `text` with its whitespace collapsed.
fn fingerprint(text: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for w in text.split_whitespace() {
        w.hash(&mut h);
    }
    h.finish()
}

impl Campaign {
    /// The pairs of `systems` whose outputs are identical ([`Identical`]).
    pub fn identical(&self, systems: &[String]) -> Vec<Identical> {
        let prints: Vec<BTreeMap<u64, u64>> = systems
            .iter()
            .map(|s| {
                self.rated.get(s.as_str()).map_or_else(BTreeMap::new, |m| {
                    m.iter()
                        .map(|(seg, r)| (*seg, fingerprint(&r.output.text)))
                        .collect()
                })
            })
            .collect();
        let mut out = Vec::new();
        for (i, a) in prints.iter().enumerate() {
            for (j, b) in prints.iter().enumerate().skip(i + 1) {
                let common: Vec<u64> = a.keys().filter(|k| b.contains_key(k)).copied().collect();
                let same = common.iter().all(|k| {
                    a[k] == b[k]
                        && collapse(&self.rated[systems[i].as_str()][k].output.text)
                            == collapse(&self.rated[systems[j].as_str()][k].output.text)
                });
                if !common.is_empty() && same {
                    out.push(Identical {
                        first: systems[i].clone(),
                        second: systems[j].clone(),
                        segments: common.len() as u64,
                    });
                }
            }
        }
        out
    }

    /// The systems of the files: each name of `names` (given as `flag`) must be one.
    pub fn check_systems(&self, flag: &str, names: &[String]) -> Result<()> {
        check_values(
            flag,
            names,
            |v| self.rated.contains_key(v),
            || self.systems().map(String::from).collect(),
        )
    }
}

/// Refuses a value of `values` (given as `flag`) for which `matches` is false, listing
/// what the files have (`have`).
pub fn check_values(
    flag: &str,
    values: &[String],
    matches: impl Fn(&str) -> bool,
    have: impl Fn() -> Vec<String>,
) -> Result<()> {
    let Some(bad) = values.iter().find(|v| !matches(v)) else {
        return Ok(());
    };
    let have = have();
    let shown: Vec<String> = have
        .iter()
        .take(20)
        .map(|h| ldd_io::error::quote(h, 40))
        .collect();
    Err(Error::Config(format!(
        "{flag} {}: matches nothing in the MQM files (they have: {}{})",
        ldd_io::error::quote(bad, 40),
        if shown.is_empty() {
            "none".into()
        } else {
            shown.join(", ")
        },
        if have.len() > shown.len() {
            ", …"
        } else {
            ""
        }
    )))
}

/// A campaign as a corpus ([`export`]): the source, the reference and every system's
/// output, one line per segment in segment order.
#[derive(Debug, Clone, Default)]
pub struct Exported {
    /// Segment numbers, in order.
    pub segments: Vec<String>,
    /// Their documents.
    pub docs: Vec<String>,
    /// Source lines.
    pub source: Vec<String>,
    /// The reference system.
    pub reference_system: String,
    /// The reference system's outputs.
    pub reference: Vec<String>,
    /// Every other system's outputs (empty where it was not rated), by name.
    pub systems: BTreeMap<String, Vec<String>>,
    /// What reading left out.
    pub left_out: LeftOut,
    /// Systems with the same outputs.
    pub identical: Vec<Identical>,
}

/// The system whose outputs are the reference: `given`, which must be a system of `campaign`,
/// else the one system named like a human reference ([`is_reference_name`]).
fn reference_system(campaign: &Campaign, given: Option<&str>) -> Result<String> {
    let names: Vec<String> = campaign.systems().map(String::from).collect();
    let listed = || {
        names
            .iter()
            .map(|n| ldd_io::error::quote(n, 40))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(r) = given {
        if names.iter().any(|n| n == r) {
            return Ok(r.to_string());
        }
        return Err(Error::Config(format!(
            "--reference-system {}: no such system in the MQM files (they rate {})",
            ldd_io::error::quote(r, 40),
            listed()
        )));
    }
    let refs: Vec<&String> = names.iter().filter(|n| is_reference_name(n)).collect();
    match refs.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(Error::Config(format!(
            "no system of the MQM files is named like a human reference (ref, refA, ref-B, \
             Human-A, …): name the one whose outputs are the reference with \
             --reference-system (they rate {})",
            listed()
        ))),
        several => Err(Error::Config(format!(
            "several systems are named like a human reference ({}): choose the one whose \
             outputs are the reference with --reference-system",
            several
                .iter()
                .map(|n| ldd_io::error::quote(n, 40))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// The MQM files `files` as a corpus: each segment's source, the output of the reference
/// system (`reference_system`, else the one named like a human reference) as the
/// reference, and every other system's output (marks taken out). A segment the reference
/// system was not rated on is an error.
pub fn export(files: &[PathBuf], reference_system: Option<&str>) -> Result<Exported> {
    let mut c = read(files, false)?;
    let reference = self::reference_system(&c, reference_system)?;
    let others: Vec<String> = c
        .systems()
        .filter(|n| *n != reference)
        .map(String::from)
        .collect();
    let mut all = vec![reference.clone()];
    all.extend(others.iter().cloned());
    let mut e = Exported {
        identical: c.identical(&all),
        left_out: c.left_out,
        reference_system: reference.clone(),
        ..Exported::default()
    };
    let mut rated = std::mem::take(&mut c.rated);
    let mut take = |system: &str, seg: u64| {
        rated
            .get_mut(system)
            .and_then(|m| m.remove(&seg))
            .map(|r| r.output.text)
    };
    for (seg, s) in std::mem::take(&mut c.segments) {
        let Some(line) = take(&reference, seg) else {
            return Err(Error::Data(format!(
                "segment {seg}: the reference system {} was not rated on it",
                ldd_io::error::quote(&reference, 40)
            )));
        };
        e.reference.push(line);
        e.source.push(s.source.text);
        e.docs.push(s.doc.to_string());
        for name in &others {
            let line = take(name, seg).unwrap_or_default();
            e.systems.entry(name.clone()).or_default().push(line);
        }
        e.segments.push(seg.to_string());
    }
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\t\
                        severity\tmetadata\n";

    /// Writes each text as a file (named `a.tsv`, `b.tsv`, …) and reads them as one
    /// campaign.
    fn campaign(texts: &[&str], source_issues: bool) -> (tempfile::TempDir, Result<Campaign>) {
        let dir = tempfile::tempdir().unwrap();
        let files: Vec<PathBuf> = texts
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let p = dir.path().join(format!("{}.tsv", (b'a' + k as u8) as char));
                std::fs::write(&p, format!("{HEAD}{t}")).unwrap();
                p
            })
            .collect();
        let c = read(&files, source_issues);
        (dir, c)
    }

    fn row(system: &str, rater: &str, target: &str, cat: &str, sev: &str, meta: &str) -> String {
        format!("{system}\td\t1\t1\t{rater}\tThe cat sat.\t{target}\t{cat}\t{sev}\t{meta}\n")
    }

    #[test]
    fn the_same_row_twice_is_refused_naming_both_places() {
        let a = row(
            "S",
            "r1",
            "Die <v>Katze</v> saß.",
            "Accuracy/Mistranslation",
            "Major",
            "{}",
        );
        let no = row("S", "r2", "Die Katze saß.", "No-error", "No-error", "");
        // Within one file (an error row, a No-error row), and one file given twice.
        for (files, at) in [
            (vec![format!("{a}{no}{a}")], "a.tsv:4: the same row as "),
            (vec![format!("{a}{no}{no}")], "a.tsv:4: the same row as "),
            (
                vec![format!("{a}{no}"), format!("{a}{no}")],
                "b.tsv:2: the same row as ",
            ),
        ] {
            let texts: Vec<&str> = files.iter().map(String::as_str).collect();
            let (_d, c) = campaign(&texts, false);
            let m = c.unwrap_err().to_string();
            assert!(m.contains(at), "{m}");
            let first = if m.contains(":4:") && m.contains("r2") {
                "a.tsv:3"
            } else {
                "a.tsv:2"
            };
            assert!(m.contains(&format!("{first} (system S, segment 1")), "{m}");
            assert_eq!(m.contains("given twice"), texts.len() == 2, "{m}");
        }
        // The same mark made again later (another `metadata`): counted once.
        let again = a.replace("{}", "{\"timestamp\":2}");
        let (_d, c) = campaign(&[&format!("{a}{again}")], false);
        let c = c.unwrap();
        assert_eq!(c.left_out.marked_twice, 1);
        assert_eq!(
            c.rating("S", 1).unwrap().raters.values().flatten().count(),
            1
        );
        // Another span, category or severity is another error.
        let other = a.replace("<v>Katze</v> saß", "Katze <v>saß</v>");
        let (_d, c) = campaign(&[&format!("{a}{other}")], false);
        assert_eq!(
            c.unwrap()
                .ratings()
                .flat_map(|r| r.raters.values().flatten())
                .count(),
            2
        );
    }

    #[test]
    fn outputs_may_differ_in_whitespace_only() {
        // The space a whole-segment span adds before `</v>`, and a double space: the spans
        // land on the first row's text, trimmed.
        let whole = row(
            "S",
            "r1",
            "<v>Die Katze saß. </v>",
            "Non-translation!",
            "Major",
            "",
        );
        let spaced = row(
            "S",
            "r2",
            "Die  Katze <v>saß</v>.",
            "Fluency/Grammar",
            "Minor",
            "",
        );
        let (_d, c) = campaign(&[&format!("{whole}{spaced}")], false);
        let c = c.unwrap();
        let r = c.rating("S", 1).unwrap();
        assert_eq!(r.output.text, "Die Katze saß.");
        let spans: Vec<&[(usize, usize)]> =
            r.raters.values().flatten().map(|e| &e.target[..]).collect();
        assert_eq!(spans, [&[(0, 15)][..], &[(10, 14)][..]]);
        assert_eq!(&r.output.text[10..14], "saß");
        // Another word: refused, both rows named, where they differ shown.
        let other = row("S", "r2", "Die Katze lag.", "No-error", "No-error", "");
        let (_d, c) = campaign(&[&format!("{whole}{other}")], false);
        let m = c.unwrap_err().to_string();
        assert!(
            m.contains("a.tsv:3: system S segment 1: another output text than in its row at "),
            "{m}"
        );
        assert!(
            m.contains(
                "a.tsv:2 (not only in whitespace: `Die Katze saß.` there, `Die Katze lag.` here)"
            ),
            "{m}"
        );
        let src = row("S", "r2", "Die Katze saß.", "No-error", "No-error", "")
            .replace("The cat sat.", "The dog sat.");
        let (_d, c) = campaign(&[&format!("{whole}{src}")], false);
        let m = c.unwrap_err().to_string();
        assert!(
            m.contains("a.tsv:3: segment 1: another source text than on line 2 of "),
            "{m}"
        );
    }

    #[test]
    fn rater_checks_and_source_issues_are_left_out() {
        // A rater check first, with an altered output: left out, not the output.
        let check = row(
            "S",
            "r1",
            "Die <v>Katzen</v> saß.",
            "Found",
            "HOTW-test",
            "",
        );
        let real = row("S", "r1", "Die Katze saß.", "No-error", "No-error", "");
        let issue = row("S", "r2", "Die Katze saß.", "Source issue", "Minor", "")
            .replace("The cat sat.", "The <v>cat</v> sat.");
        let text = format!("{check}{real}{issue}");
        let (_d, c) = campaign(&[&text], false);
        let c = c.unwrap();
        let r = c.rating("S", 1).unwrap();
        assert_eq!(r.output.text, "Die Katze saß.");
        assert_eq!((c.left_out.rater_checks, c.left_out.source_issues), (1, 1));
        // Both raters rated the output; neither error counts.
        assert_eq!(r.raters.len(), 2);
        assert_eq!(r.raters.values().flatten().count(), 0);
        assert!(!c.categories.iter().any(|x| x.starts_with("Source")));
        // Counted when asked.
        let (_d, c) = campaign(&[&text], true);
        let c = c.unwrap();
        assert_eq!(c.left_out.source_issues, 0);
        assert_eq!(
            c.rating("S", 1).unwrap().raters.values().flatten().count(),
            1
        );
    }

    #[test]
    fn memory_is_bounded_and_identical_systems_found() {
        let a = row("A", "r", "Die Katze saß.", "No-error", "No-error", "");
        let b = row("B", "r", "Die  Katze saß.", "No-error", "No-error", "");
        let c2 = row("C", "r", "Eine Katze saß.", "No-error", "No-error", "");
        let (_d, c) = campaign(&[&format!("{a}{b}{c2}")], false);
        let mut c = c.unwrap();
        let all = ["A", "B", "C"].map(String::from);
        assert_eq!(
            c.identical(&all),
            vec![Identical {
                first: "A".into(),
                second: "B".into(),
                segments: 1
            }]
        );
        assert!(c.bytes > 3 * ROW_BYTES);
        c.bytes = MAX_BYTES - 10;
        let m = c.hold(Path::new("m.tsv"), 9, 11).unwrap_err().to_string();
        assert!(
            m.starts_with("m.tsv:9: the MQM files need more than 1024 MiB"),
            "{m}"
        );
    }
}
