//! `align`'s files: the alignments of a corpus (Pharaoh, one line per pair) and, from the
//! HMM, the posterior of every link (one line per pair, one probability per link of the
//! Pharaoh line, in its order, 4 decimals). Written together, or not at all.

use std::io::Write as _;
use std::path::Path;

use ldd_align::Alignment;
use ldd_io::AtomicFile;

use crate::error::{Error, Result};

/// Refuses, before any work, outputs that would destroy an input or each other: `out` or
/// `posteriors` naming one of `inputs` (the same path, a link or a hard link), or both
/// naming the same file.
pub fn check(out: Option<&Path>, posteriors: Option<&Path>, inputs: &[&Path]) -> Result<()> {
    for o in out.iter().chain(&posteriors) {
        ldd_io::output::refuse_same_file(o, inputs)?;
    }
    if let (Some(a), Some(b)) = (out, posteriors) {
        ldd_io::output::refuse_same_file(b, &[a])
            .map_err(|_| Error::Config("--out and --posteriors name the same file".into()))?;
    }
    Ok(())
}

/// The posteriors of one pair's links as a line: 4 decimals, space-separated.
pub fn posterior_line(p: &[f64]) -> String {
    let v: Vec<String> = p.iter().map(|x| format!("{x:.4}")).collect();
    v.join(" ")
}

/// Writes `alignments` to `out` and `posteriors` (each with its file) to theirs, both
/// moved into place together once both are written; `None` skips a file.
pub fn write(
    out: Option<&Path>,
    alignments: &[Alignment],
    posteriors: Option<(&Path, &[Vec<f64>])>,
) -> Result<()> {
    let mut files = Vec::new();
    if let Some(out) = out {
        let mut w = AtomicFile::create(out)?;
        for a in alignments {
            writeln!(w, "{}", ldd_align::pharaoh::format_line(a))
                .map_err(|e| ldd_io::Error::io(out, e))?;
        }
        files.push(w);
    }
    if let Some((path, post)) = posteriors {
        let mut w = AtomicFile::create(path)?;
        for p in post {
            writeln!(w, "{}", posterior_line(p)).map_err(|e| ldd_io::Error::io(path, e))?;
        }
        files.push(w);
    }
    AtomicFile::commit_together(files)?;
    Ok(())
}
