//! Control corpora files: `OUT/<phenomenon>/controls/<bucket>.<k>.{ids,<src>,<tgt>}`.

use std::io::{BufWriter, Write};
use std::path::Path;

use crate::error::{Error, Result};
use crate::format::sets::ControlFiles;

/// The corpus lines of a group of controls: `ids` (ascending, no repeats) with their
/// source and target lines.
pub struct LineMap<'a> {
    /// The ids.
    pub ids: &'a [u32],
    /// Source line of each id.
    pub source: &'a [String],
    /// Target line of each id.
    pub target: &'a [String],
}

/// Writes one control's three `files` under `root` (`ids` ascending, all in `lines`).
pub fn write_control(
    root: &Path,
    files: &ControlFiles,
    ids: &[u32],
    lines: &LineMap<'_>,
) -> Result<()> {
    let idx: Vec<usize> = ids
        .iter()
        .map(|id| {
            lines
                .ids
                .binary_search(id)
                .map_err(|_| Error::Data(format!("control id {id} missing from the line map")))
        })
        .collect::<Result<_>>()?;
    let write = |rel: &str, line: &dyn Fn(usize) -> String| -> Result<()> {
        let path = root.join(rel);
        ldd_io::fs::create_parent(&path)?;
        let file = ldd_io::fs::create(&path)?;
        let res = (|| -> std::io::Result<()> {
            let mut w = BufWriter::with_capacity(1 << 16, file);
            for j in 0..ids.len() {
                w.write_all(line(j).as_bytes())?;
                w.write_all(b"\n")?;
            }
            w.flush()
        })();
        res.map_err(|e| Error::io(&path, e))
    };
    write(&files.ids, &|j| ids[j].to_string())?;
    write(&files.source, &|j| lines.source[idx[j]].clone())?;
    write(&files.target, &|j| lines.target[idx[j]].clone())?;
    Ok(())
}
