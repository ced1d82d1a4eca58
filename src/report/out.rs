//! Where the report goes: `--out`, checked, or `SETS/report.<ext>`; an existing file is
//! replaced only when it is an earlier report of ldd-sets.

use std::path::{Path, PathBuf};

use super::{Format, ReportOptions};
use crate::error::{Error, Result};

/// The output path: `--out`, which must end in the format's extension (so a report is
/// never written over a set file or the manifest), or `SETS/report.<ext>`.
pub fn out_path(opts: &ReportOptions) -> Result<PathBuf> {
    let ext = opts.format.extension();
    let Some(out) = &opts.out else {
        return Ok(crate::layout::report_file(&opts.sets, ext));
    };
    let ok = out.extension().is_some_and(|e| {
        e.eq_ignore_ascii_case(ext) || (ext == "html" && e.eq_ignore_ascii_case("htm"))
    });
    if !ok || out.file_name().is_none() {
        return Err(Error::Config(format!(
            "--out {}: the file name must end in .{ext} for --format {}",
            ldd_io::error::shown(out),
            if ext == "tex" { "latex" } else { "html" }
        )));
    }
    if out.is_dir() {
        return Err(Error::Config(format!(
            "--out {}: is a directory; give a file name",
            ldd_io::error::shown(out)
        )));
    }
    if out.symlink_metadata().is_ok() && !written_by_us(out, opts.format) {
        return Err(Error::Config(format!(
            "--out {}: exists and is not a report written by ldd-sets; refusing to replace \
             it — choose another --out",
            ldd_io::error::shown(out)
        )));
    }
    Ok(out.clone())
}

/// Whether an existing file is an earlier `ldd-sets report` output of this format: an
/// HTML page whose head names ldd-sets as its generator, or LaTeX tables whose first line
/// is ldd-sets' comment. Only such files are replaced.
fn written_by_us(path: &Path, format: Format) -> bool {
    use std::io::Read as _;
    let Ok(meta) = path.symlink_metadata() else {
        return false;
    };
    if !meta.file_type().is_file() {
        return false;
    }
    let mut head = Vec::new();
    let Ok(f) = ldd_io::fs::open_raw(path) else {
        return false;
    };
    if f.take(4096).read_to_end(&mut head).is_err() {
        return false;
    }
    let head = String::from_utf8_lossy(&head);
    match format {
        Format::Html => head.contains("<meta name=\"generator\" content=\"ldd-sets "),
        Format::Latex => head.starts_with("% ldd-sets "),
    }
}
