//! `check-detection --record FILE`: the figures of a measurement recorded in a figures file
//! (`config/detection.toml` is the built-in one, shown by `ldd-sets languages`), replacing
//! the entry of the same language, model, gold file and lines; the file is written whole or
//! not at all.

use std::path::Path;

use crate::config::MAX_CONFIG_BYTES;
use crate::error::{Error, Result};
use crate::format::detection::{is_recorded_file, DetectionReport, Measured, Recorded};

/// The file name of `path`, as the recorded entry names its files.
fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// Records `report` in `file` (created when absent; an existing file must be a figures file
/// `check-detection` wrote, else it is left as it is and refused). One writer at a time: the
/// file's lock is held from reading it to moving the new text into place, waiting while
/// another process records into it (`waiting` is told its process id), so that runs at once
/// each add their entry.
pub fn record(report: &DetectionReport, file: &Path, waiting: &mut dyn FnMut(u32)) -> Result<()> {
    let model = report.model.as_deref().map(file_name).unwrap_or_default();
    let Some(m) = Measured::of(report, &file_name(&report.gold), &model) else {
        return Err(Error::Config(
            "--record: a given parse (--parsed) names no model to record figures for".into(),
        ));
    };
    let _lock = ldd_io::cleanup::Lock::wait(file, waiting)?;
    ldd_io::check_replaceable_file(file, "ldd-sets check-detection", &is_recorded_file, &[])?;
    let before = match ldd_io::fs::kind(file) {
        None => Recorded::default(),
        Some(_) => {
            let text = ldd_io::read_text(file, MAX_CONFIG_BYTES)?;
            Recorded::parse(&text, &file.display().to_string())?
        }
    };
    let text = before.with(m).to_toml();
    ldd_io::write_file_atomic(file, |w| w.write_all(text.as_bytes()))
}
