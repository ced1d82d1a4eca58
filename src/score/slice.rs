//! `slice`: a system's translation of the whole corpus cut into per-set (and per-control)
//! hypothesis files, by the sets' ids.
//!
//! For a hypothesis `FILE` with name `NAME` (default: the file name without its last
//! extension, and without `.gz`), the hypothesis lines of every set are written as
//! `SETS/<phenomenon>/<bucket>.hyp.<NAME>` and of every control as
//! `SETS/<phenomenon>/controls/<bucket>.<k>.hyp.<NAME>`, line-aligned with the set's
//! (control's) `.ids` and reference files. All files are first written into a hidden
//! staging directory inside `SETS` and moved into place (one `rename` each) only when all
//! are complete, with stops held back while they move (a stop finds all of them moved or
//! none); a failure before the move leaves the sets directory as it was. Existing
//! `.hyp.<NAME>` files are replaced; nothing else in `SETS` is touched.

use std::path::Path;

use super::count_error;
use crate::error::Result;
use crate::format::manifest::resolve;
use crate::layout;
use crate::read::select::read_selected;
use crate::read::sets::{load, Loaded};

/// Cuts the hypothesis `hyp` of system `name` (checked by [`super::check_name`]; the
/// CLI's default is [`super::system_name`]) into per-set and per-control files of the
/// sets directory `sets`.
pub fn slice(sets: &Path, hyp: &Path, name: &str) -> Result<()> {
    // Keep an `extract` from replacing the sets while they are sliced.
    let _lock = ldd_io::lock::Lock::acquire(sets)?;
    let l = load(sets)?;
    // Every output, named: the set's (control's) file name and its ids.
    let mut outputs: Vec<(String, &[u32])> = Vec::new();
    for u in &l.units {
        let stem = layout::set_stem(&u.set.files.ids);
        outputs.push((layout::hyp_file(stem, name), &u.ids));
        for (k, ids) in u.controls.iter().enumerate() {
            let stem = layout::control_stem(&u.prefix, k + 1);
            outputs.push((layout::hyp_file(&stem, name), ids));
        }
    }
    // Each name must stay inside SETS, checked before anything is written.
    for (rel, _) in &outputs {
        resolve(&l.dir, rel)?;
    }
    let lines = hypothesis_lines(hyp, &l)?;
    // All files are staged in a hidden directory inside SETS and moved into place only
    // when every one is complete.
    let staging = ldd_io::Staging::new(&l.dir.join(".slice"), &|_| false, &[])?;
    for (rel, ids) in &outputs {
        let path = staging.path().join(rel);
        let mut text = String::new();
        for id in *ids {
            text.push_str(lines.line(*id));
            text.push('\n');
        }
        ldd_io::fs::create_parent(&path)?;
        ldd_io::fs::write(&path, text.as_bytes())?;
    }
    // Moved into place with stops held back: a stop finds all of them moved or none. Each
    // name is checked again just before its move.
    ldd_io::cleanup::uninterrupted(|| {
        for (rel, _) in &outputs {
            let to = resolve(&l.dir, rel)?;
            ldd_io::fs::create_parent(&to)?;
            ldd_io::fs::rename(&staging.path().join(rel), &to)?;
        }
        Ok(())
    })
}

/// The hypothesis lines of every id of `l`'s sets and controls.
struct Selected {
    ids: Vec<u32>,
    lines: Vec<String>,
}

impl Selected {
    /// The line with id `id` (every id of the sets is there: the count is checked).
    fn line(&self, id: u32) -> &str {
        self.ids
            .binary_search(&id)
            .ok()
            .and_then(|i| self.lines.get(i))
            .map_or("", String::as_str)
    }
}

/// Reads the lines of `hyp` that some set or control of `l` holds; `hyp` must have the
/// corpus's line count.
fn hypothesis_lines(hyp: &Path, l: &Loaded) -> Result<Selected> {
    let mut ids: Vec<u32> = l
        .units
        .iter()
        .flat_map(|u| u.ids.iter().chain(u.controls.iter().flatten()).copied())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let (lines, n) = read_selected(hyp, &ids)?;
    if n != l.m.corpus.lines {
        return Err(count_error(hyp, n, l));
    }
    Ok(Selected { ids, lines })
}
