//! Stage 8, **judge**: people's judgement of the loci, and how far locus accuracy agrees
//! with it.
//!
//! What enters: a sets directory with locus files, systems' outputs (for translation
//! items), and the sheets annotators filled in. What leaves: annotation sheets — CSV files
//! and one self-contained HTML form ([`sheets`], [`form`]) with the key that unblinds the
//! systems kept beside them — and the tally of the filled sheets ([`tally`]): majority
//! answers, shares with Wilson intervals, Cohen's and Fleiss' κ, disagreements, and the
//! agreement of locus accuracy with the annotators.

pub mod form;
pub mod sheets;
pub mod tally;

use std::path::{Path, PathBuf};

use ldd_io::{AtomicFile, Staging};

use crate::error::{Error, Result};
use crate::format::sheet::{
    header, is_key_file, to_csv, SheetKind, SheetsRecord, TallyReport, KEY_COLUMNS,
};
use crate::format::to_spreadsheet;
use crate::layout;

/// Whether `dir` is a sheets directory written by `sheets` (it has a readable
/// `sheets.json`), which a new run may replace.
pub fn is_sheets_dir(dir: &Path) -> bool {
    crate::format::is_record::<SheetsRecord>(&dir.join(layout::SHEET_RECORD))
}

/// Where `sheets` writes, claimed and checked before any work: the sheets directory
/// (replaced as a whole, all or nothing, only if `sheets` wrote it) and the key, a file
/// outside it that is not an input, not a symbolic link, and replaced only if it is a key
/// `sheets` wrote.
pub struct SheetsOutput {
    staging: Staging,
    key: PathBuf,
    inputs: Vec<PathBuf>,
}

impl SheetsOutput {
    /// Claims `out` (locked while this lives) and checks `key`; `inputs` are never
    /// replaced.
    pub fn new(out: &Path, key: &Path, inputs: &[&Path]) -> Result<SheetsOutput> {
        if ldd_io::resolved(key).starts_with(ldd_io::resolved(out)) {
            return Err(Error::Config(format!(
                "--key {}: inside the sheets directory {}, which annotators see; put it elsewhere",
                ldd_io::error::shown(key),
                ldd_io::error::shown(out)
            )));
        }
        let staging = Staging::new(out, &is_sheets_dir, inputs)?;
        ldd_io::check_replaceable_file(key, "ldd-sets sheets", &is_key_file, inputs)?;
        Ok(SheetsOutput {
            staging,
            key: key.to_path_buf(),
            inputs: inputs.iter().map(|p| p.to_path_buf()).collect(),
        })
    }

    /// Writes the sheets and the key; both move into place together.
    pub fn write(self, s: &sheets::Sheets) -> Result<()> {
        let root = self.staging.path().to_path_buf();
        let detection = to_csv(header(SheetKind::Detection), &s.detection)?;
        ldd_io::write_bytes_atomic(&root.join(layout::SHEET_DETECTION), &detection)?;
        if !s.translation.is_empty() {
            let translation = to_csv(header(SheetKind::Translation), &s.translation)?;
            ldd_io::write_bytes_atomic(&root.join(layout::SHEET_TRANSLATION), &translation)?;
        }
        let page = form::page(&s.detection, &s.translation)?;
        ldd_io::write_bytes_atomic(&root.join(layout::SHEET_FORM), page.as_bytes())?;
        let record =
            serde_json::to_string_pretty(&s.record).map_err(|e| Error::Data(e.to_string()))?;
        ldd_io::write_bytes_atomic(&root.join(layout::SHEET_RECORD), (record + "\n").as_bytes())?;
        let inputs: Vec<&Path> = self.inputs.iter().map(PathBuf::as_path).collect();
        let key_file = if s.key.is_empty() {
            None
        } else {
            let csv = to_csv(&KEY_COLUMNS, &s.key)?;
            ldd_io::fs::create_parent(&self.key)?;
            let owner = "ldd-sets sheets";
            let mut f = AtomicFile::create_replacing(&self.key, owner, &is_key_file, &inputs)?;
            std::io::Write::write_all(&mut f, &csv).map_err(|e| Error::io(&self.key, e))?;
            Some(f)
        };
        // The key and the sheets move into place together: a stop finds both or neither.
        let staging = self.staging;
        ldd_io::cleanup::uninterrupted(|| -> Result<()> {
            if let Some(f) = key_file {
                f.commit()?;
            }
            staging.commit(&is_sheets_dir)?;
            Ok(())
        })
    }
}

/// `tally.csv`: one row per group, text cells safe for spreadsheets
/// ([`to_spreadsheet`]).
pub fn tally_csv(r: &TallyReport) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record([
        "kind",
        "phenomenon",
        "distance",
        "system",
        "units",
        "judged",
        "correct",
        "share",
        "ci_low",
        "ci_high",
        "answers",
    ]);
    let opt = |x: Option<f64>| x.map(|v| v.to_string()).unwrap_or_default();
    for g in &r.groups {
        let answers: Vec<String> = g.answers.iter().map(|(a, n)| format!("{a}:{n}")).collect();
        let cells = [
            r.kind.clone(),
            g.phenomenon.clone(),
            g.distance.to_string(),
            g.system.clone().unwrap_or_default(),
            g.units.to_string(),
            g.judged.to_string(),
            g.correct.to_string(),
            opt(g.share),
            opt(g.ci_low),
            opt(g.ci_high),
            answers.join(";"),
        ];
        let _ = w.write_record(cells.iter().map(|c| to_spreadsheet(c).into_owned()));
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// Whether `path` is a `tally.json` or `tally.csv` that `tally` wrote.
fn tally_written_by_us(path: &Path) -> bool {
    let Ok(text) = ldd_io::read_text(path, 256 << 20) else {
        return false;
    };
    if path.extension().is_some_and(|e| e == "csv") {
        text.starts_with("kind,phenomenon,distance,system,")
    } else {
        serde_json::from_str::<TallyReport>(&text).is_ok()
    }
}

/// Writes `tally.json` and `tally.csv` into `dir` (created if needed), both or neither;
/// files of those names are replaced only if `tally` wrote them, and never an input.
pub fn write_tally(r: &TallyReport, dir: &Path, inputs: &[&Path]) -> Result<()> {
    let json = serde_json::to_string_pretty(r).map_err(|e| Error::Data(e.to_string()))? + "\n";
    let files = [
        (dir.join(layout::TALLY_JSON), json.into_bytes()),
        (dir.join(layout::TALLY_CSV), tally_csv(r).into_bytes()),
    ];
    let ours: &dyn Fn(&Path) -> bool = &tally_written_by_us;
    ldd_io::write_together(dir, &files, "ldd-sets tally", ours, inputs)?;
    Ok(())
}
