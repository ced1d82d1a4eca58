//! Stage **judge**: people's judgement of the loci, and how far locus accuracy agrees
//! with it.
//!
//! What enters: a sets directory with locus files, systems' outputs (for translation
//! items), and the sheets annotators filled in. What leaves: annotation sheets — CSV files
//! and one self-contained HTML form ([`sheets`], [`form`]) with the key that unblinds the
//! systems kept beside them — and the tally of the filled sheets ([`tally`]): majority
//! answers, shares with Wilson intervals, Cohen's and Fleiss' κ, disagreements, and the
//! agreement of locus accuracy with the annotators.
//!
//! In short (what enters → what leaves): a sets directory's loci and system outputs →
//! annotation sheets, the offline form and the key (`sheets`, `form`); filled sheets →
//! majorities, shares, κ, agreement with locus accuracy (`tally`); MQM files → the campaign
//! read and checked, in bounded memory (`campaign`: the published layouts, rater checks and
//! source issues left out, whitespace-only differences tolerated, the same row twice
//! refused), then matched to the corpus lines and compared with the locus judgement, or
//! exported as a corpus (`mqm`)

pub mod agreement;
pub mod campaign;
pub mod form;
pub mod mqm;
pub mod sheets;
pub mod tally;

use std::path::{Path, PathBuf};

use ldd_io::{AtomicFile, Staging};

use crate::error::{Error, Result};
use crate::format::sheet::{
    header, is_key_file, to_csv, SheetKind, SheetsRecord, TallyReport, KEY_COLUMNS,
};
use crate::layout;

/// Whether `dir` is a sheets directory written by `sheets`, which a new run may replace:
/// it has a readable `sheets.json` and nothing but what `sheets` writes (a file added
/// there is never deleted).
pub fn is_sheets_dir(dir: &Path) -> bool {
    crate::format::is_record::<SheetsRecord>(&dir.join(layout::SHEET_RECORD))
        && ldd_io::foreign_entries(dir, &layout::is_sheets_file).is_empty()
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
    pub fn write(self, built: &sheets::Sheets) -> Result<()> {
        let root = self.staging.path().to_path_buf();
        let detection = to_csv(header(SheetKind::Detection), &built.detection)?;
        ldd_io::write_bytes_atomic(&root.join(layout::SHEET_DETECTION), &detection)?;
        if !built.translation.is_empty() {
            let translation = to_csv(header(SheetKind::Translation), &built.translation)?;
            ldd_io::write_bytes_atomic(&root.join(layout::SHEET_TRANSLATION), &translation)?;
        }
        let page = form::page(&built.detection, &built.translation)?;
        ldd_io::write_bytes_atomic(&root.join(layout::SHEET_FORM), page.as_bytes())?;
        let record =
            serde_json::to_string_pretty(&built.record).map_err(|e| Error::Data(e.to_string()))?;
        ldd_io::write_bytes_atomic(&root.join(layout::SHEET_RECORD), (record + "\n").as_bytes())?;
        let inputs: Vec<&Path> = self.inputs.iter().map(PathBuf::as_path).collect();
        let key_file = if built.key.is_empty() {
            None
        } else {
            let csv = to_csv(&KEY_COLUMNS, &built.key)?;
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

/// `tally.csv`: one row per group, by the one CSV writer ([`crate::format::csv_text`]).
pub fn tally_csv(report: &TallyReport) -> String {
    let opt = |x: Option<f64>| x.map(|v| v.to_string()).unwrap_or_default();
    let rows = report.groups.iter().map(|g| {
        let answers: Vec<String> = g.answers.iter().map(|(a, n)| format!("{a}:{n}")).collect();
        [
            report.kind.clone(),
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
        ]
    });
    crate::format::csv_text(
        &[
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
        ],
        rows,
    )
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
pub fn write_tally(report: &TallyReport, dir: &Path, inputs: &[&Path]) -> Result<()> {
    let json = serde_json::to_string_pretty(report).map_err(|e| Error::Data(e.to_string()))? + "\n";
    let files = [
        (dir.join(layout::TALLY_JSON), json.into_bytes()),
        (dir.join(layout::TALLY_CSV), tally_csv(report).into_bytes()),
    ];
    let ours: &dyn Fn(&Path) -> bool = &tally_written_by_us;
    ldd_io::write_together(dir, &files, "ldd-sets tally", ours, inputs)?;
    Ok(())
}

/// The header of `mqm.csv`.
pub const MQM_CSV_HEADER: &str = "system,phenomenon,bucket,loci,human_correct,human_accuracy,\
human_ci_low,human_ci_high,judged,accuracy";

/// The header of `mqm.disagreements.tsv`.
pub const MQM_DISAGREEMENTS_HEADER: &str = "system\tphenomenon\tline\tsegment\tdoc\tdep\thead\t\
judgement\tevidence\trater_error\tsource\treference\toutput";

/// The header of `mqm --items`' file.
pub const MQM_ITEMS_HEADER: &str = "level\tline\tsegment\tdoc\tsystem\tword\tform\tupos\t\
output\tpositions\tjudgement\tevidence\tsentence_chrf\terror";

/// The headers of the files `mqm` wrote with `locus:2` (replaced like its own).
const MQM_TSV_HEADERS_2: [&str; 2] = [
    "system\tphenomenon\tline\tsegment\tdoc\tdep\thead\t\
judgement\tp_error\trater_error\tsource\treference\toutput",
    "level\tline\tsegment\tdoc\tsystem\tword\tform\tupos\t\
output\tpositions\tjudgement\tword_chrf\tsentence_chrf\tp_error\terror",
];

fn opt_num(value: Option<f64>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// `mqm.csv`: the human and automatic locus accuracy of every system on every set.
pub fn mqm_csv(report: &crate::format::mqm::MqmReport) -> String {
    let header: Vec<&str> = MQM_CSV_HEADER.split(',').collect();
    let rows = report.sets.iter().map(|s| {
        [
            s.system.clone(),
            s.phenomenon.clone(),
            s.bucket.clone(),
            s.loci.to_string(),
            s.human_correct.to_string(),
            opt_num(s.human_accuracy),
            opt_num(s.human_ci_low),
            opt_num(s.human_ci_high),
            s.judged.to_string(),
            opt_num(s.accuracy),
        ]
    });
    crate::format::csv_text(&header, rows)
}

/// `mqm.disagreements.tsv`: every locus where the judgement and the raters disagree.
pub fn mqm_disagreements(report: &crate::format::mqm::MqmReport) -> String {
    use crate::format::spreadsheet_tsv_cell as c;
    let mut t = String::from(MQM_DISAGREEMENTS_HEADER);
    t.push('\n');
    for d in &report.disagreements {
        let cells = [
            c(&d.system),
            c(&d.phenomenon),
            d.line.to_string(),
            c(&d.segment),
            c(&d.doc),
            c(&d.dep),
            c(&d.head),
            d.judgement.clone(),
            c(&d.evidence),
            d.rater_error.to_string(),
            c(&d.source),
            c(&d.reference),
            c(&d.output),
        ];
        t.push_str(&cells.join("\t"));
        t.push('\n');
    }
    t
}

/// `mqm --items`' file: every content word judged, with the raters' verdict.
pub fn mqm_items(items: &[crate::format::mqm::Item]) -> String {
    use crate::format::spreadsheet_tsv_cell as c;
    let mut t = String::from(MQM_ITEMS_HEADER);
    t.push('\n');
    for x in items {
        let cells = [
            x.level.clone(),
            x.line.to_string(),
            c(&x.segment),
            c(&x.doc),
            c(&x.system),
            x.word.to_string(),
            c(&x.form),
            c(&x.upos),
            c(&x.output),
            x.positions
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            x.judgement.clone(),
            c(&x.evidence),
            format!("{:.6}", x.sentence_chrf),
            x.error.map(|e| u8::from(e).to_string()).unwrap_or_default(),
        ];
        t.push_str(&cells.join("\t"));
        t.push('\n');
    }
    t
}

/// Whether `path` is one of the files `mqm` writes.
pub fn mqm_written_by_us(path: &Path) -> bool {
    let Ok(text) = ldd_io::read_text(path, 1 << 30) else {
        return false;
    };
    let first = text.lines().next().unwrap_or("");
    match path.extension().and_then(|e| e.to_str()) {
        Some("csv") => first == MQM_CSV_HEADER,
        Some("tsv") => {
            first == MQM_DISAGREEMENTS_HEADER
                || first == MQM_ITEMS_HEADER
                || MQM_TSV_HEADERS_2.contains(&first)
        }
        _ => serde_json::from_str::<crate::format::mqm::MqmReport>(&text).is_ok(),
    }
}

/// Writes `mqm.json`, `mqm.csv` and `mqm.disagreements.tsv` into `dir` (created if
/// needed), and with `items` that file too, all or none; files of those names are replaced
/// only if `mqm` wrote them, and never an input.
pub fn write_mqm(
    result: &crate::judge::mqm::MqmResult,
    dir: &Path,
    items: Option<&Path>,
    inputs: &[&Path],
) -> Result<()> {
    let json = serde_json::to_string_pretty(&result.report)
        .map_err(|e| Error::Data(e.to_string()))?
        + "\n";
    let mut files = vec![
        (dir.join(layout::MQM_JSON), json.into_bytes()),
        (
            dir.join(layout::MQM_CSV),
            mqm_csv(&result.report).into_bytes(),
        ),
        (
            dir.join(layout::MQM_DISAGREEMENTS),
            mqm_disagreements(&result.report).into_bytes(),
        ),
    ];
    if let Some(p) = items {
        files.push((p.to_path_buf(), mqm_items(&result.items).into_bytes()));
    }
    let ours: &dyn Fn(&Path) -> bool = &mqm_written_by_us;
    ldd_io::write_together(dir, &files, "ldd-sets mqm", ours, inputs)?;
    Ok(())
}

/// The header of the segments file `mqm --export` writes.
pub const MQM_SEGMENTS_HEADER: &str = "line\tsegment\tdoc";

/// Whether `dir` is a campaign `mqm --export` wrote, which a new export may replace: its
/// `export.json` lists every file in it, each unchanged (its SHA-256), and nothing else is
/// there — a file of anyone else's is never removed.
pub fn is_export_dir(dir: &Path) -> bool {
    let record = ldd_io::read_text(&dir.join(layout::MQM_EXPORT_RECORD), 64 << 20)
        .ok()
        .and_then(|t| serde_json::from_str::<crate::format::mqm::ExportRecord>(&t).ok());
    let Some(record) = record else {
        return false;
    };
    let mut found = Vec::new();
    if !export_files(dir, Path::new(""), &mut found) {
        return false;
    }
    let listed = |f: &String| {
        record
            .written
            .get(f)
            .is_some_and(|sha| ldd_io::sha256_file(&dir.join(f)).is_ok_and(|(got, _)| got == *sha))
    };
    found.len() == record.written.len() + 1
        && found
            .iter()
            .all(|f| f == layout::MQM_EXPORT_RECORD || listed(f))
}

/// Adds the files below `dir/rel` to `out` (paths relative to `dir`); false if something
/// there is neither a file nor a directory, or cannot be listed.
fn export_files(dir: &Path, rel: &Path, out: &mut Vec<String>) -> bool {
    let Ok(entries) = ldd_io::fs::list_dir(&dir.join(rel)) else {
        return false;
    };
    entries.into_iter().all(|e| {
        let r = rel.join(&e.name);
        match e.kind {
            ldd_io::fs::Kind::Dir => export_files(dir, &r, out),
            ldd_io::fs::Kind::File => {
                out.push(r.to_string_lossy().into_owned());
                true
            }
            _ => false,
        }
    })
}

/// Writes the campaign `exported` (read from `files`) into `dir` (replaced as a whole, all or
/// nothing, only if an earlier export wrote it: [`is_export_dir`]): the source and
/// reference as the corpus `mqm.<src>-<tgt>.<lang>`, each system's outputs as
/// `systems/<name>.<tgt>` (names checked as file names), `segments.tsv`, and `export.json`.
pub fn write_export(
    exported: &crate::judge::mqm::Exported,
    files: &[PathBuf],
    dir: &Path,
    (src, tgt): (&str, &str),
    inputs: &[&Path],
) -> Result<()> {
    for name in exported.systems.keys() {
        ldd_io::name::check(ldd_io::NameKind::File, name, "an MQM system name")?;
    }
    let staging = Staging::new(dir, &is_export_dir, inputs)?;
    let root = staging.path().to_path_buf();
    let lines = |v: &[String]| -> Vec<u8> {
        let mut t = String::new();
        for l in v {
            t.push_str(l);
            t.push('\n');
        }
        t.into_bytes()
    };
    let mut seg = String::from(MQM_SEGMENTS_HEADER);
    seg.push('\n');
    for (k, (s, d)) in exported.segments.iter().zip(&exported.docs).enumerate() {
        seg.push_str(&format!(
            "{}\t{}\t{}\n",
            k + 1,
            crate::format::tsv_cell(s),
            crate::format::tsv_cell(d)
        ));
    }
    let pair = format!("{src}-{tgt}");
    let mut out = vec![
        (layout::mqm_side(&root, &pair, src), lines(&exported.source)),
        (
            layout::mqm_side(&root, &pair, tgt),
            lines(&exported.reference),
        ),
        (root.join(layout::MQM_SEGMENTS), seg.into_bytes()),
    ];
    for (name, o) in &exported.systems {
        out.push((layout::mqm_system(&root, name, tgt), lines(o)));
    }
    ldd_io::fs::create_dir_all(&root.join(layout::MQM_SYSTEMS))?;
    let mut record = crate::format::mqm::ExportRecord {
        tool: format!("ldd-sets {}", env!("CARGO_PKG_VERSION")),
        files: files.to_vec(),
        reference_system: exported.reference_system.clone(),
        source_language: src.to_string(),
        target_language: tgt.to_string(),
        segments: exported.segments.len() as u64,
        written: std::collections::BTreeMap::new(),
    };
    for (path, bytes) in &out {
        ldd_io::write_bytes_atomic(path, bytes)?;
        let rel = path.strip_prefix(&root).unwrap_or(path);
        let rel = rel.to_string_lossy().into_owned();
        record.written.insert(rel, ldd_io::sha256_bytes(bytes));
    }
    let json =
        serde_json::to_string_pretty(&record).map_err(|e| Error::Data(e.to_string()))? + "\n";
    ldd_io::write_bytes_atomic(&root.join(layout::MQM_EXPORT_RECORD), json.as_bytes())?;
    staging.commit(&is_export_dir)?;
    Ok(())
}
