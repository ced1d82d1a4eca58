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

use std::path::PathBuf;

use super::{check_name, count_error, load, system_name};
use crate::error::Result;
use crate::format::manifest::resolve;
use crate::layout;
use crate::read::select::read_selected;

/// What `slice` cuts.
#[derive(Debug, Clone)]
pub struct SliceOptions {
    /// Output directory of `ldd-sets extract`.
    pub sets: PathBuf,
    /// A system's translation of the whole corpus.
    pub hyp: PathBuf,
    /// System name [default: from the file name].
    pub name: Option<String>,
}

/// Runs `slice`.
pub fn slice(args: &SliceOptions) -> Result<()> {
    let name = match &args.name {
        Some(n) => n.clone(),
        None => system_name(&args.hyp),
    };
    check_name(&name)?;
    // Keep an `extract` from replacing the sets while they are sliced.
    let _lock = ldd_io::lock::Lock::acquire(&args.sets)?;
    let l = load(&args.sets)?;
    let mut union: Vec<u32> = l
        .units
        .iter()
        .flat_map(|u| u.ids.iter().chain(u.controls.iter().flatten()).copied())
        .collect();
    union.sort_unstable();
    union.dedup();
    let (lines, n) = read_selected(&args.hyp, &union)?;
    if n != l.m.corpus.lines {
        return Err(count_error(&args.hyp, n, &l));
    }
    let line = |id: &u32| -> &str {
        // Every id is in `union` and the file has all of them (count checked).
        union
            .binary_search(id)
            .ok()
            .and_then(|i| lines.get(i))
            .map_or("", String::as_str)
    };
    // All files are staged in a hidden directory inside SETS and moved into place only
    // when every one is complete.
    let staging = ldd_io::Staging::new(&l.dir.join(".slice"), &|_| false, &[])?;
    let mut written: Vec<String> = Vec::new();
    let mut write = |rel: String, ids: &[u32]| -> Result<()> {
        resolve(&l.dir, &rel)?;
        let path = staging.path().join(&rel);
        ldd_io::fs::create_parent(&path)?;
        let mut text = String::new();
        for id in ids {
            text.push_str(line(id));
            text.push('\n');
        }
        ldd_io::fs::write(&path, text.as_bytes())?;
        written.push(rel);
        Ok(())
    };
    for u in &l.units {
        let ids = &u.set.files.ids;
        write(layout::hyp_file(layout::set_stem(ids), &name), &u.ids)?;
        for (k, ids) in u.controls.iter().enumerate() {
            write(
                layout::hyp_file(&layout::control_stem(&u.prefix, k + 1), &name),
                ids,
            )?;
        }
    }
    // Moved into place with stops held back: a stop finds all of them moved or none.
    ldd_io::cleanup::uninterrupted(|| {
        for rel in &written {
            let from = staging.path().join(rel);
            let to = resolve(&l.dir, rel)?;
            ldd_io::fs::create_parent(&to)?;
            ldd_io::fs::rename(&from, &to)?;
        }
        Ok(())
    })
}
