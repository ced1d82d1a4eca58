//! The files later commands added to an output directory (`score`'s scores, `report`'s
//! page, `slice`'s per-set outputs, anything the manifest does not record), when a new
//! run replaces the directory: they belong to the earlier sets. Kept — moved into the new
//! output — when the new sets are the earlier ones (the same manifest: same inputs,
//! options and files), so a re-run loses nothing; otherwise the run is refused unless
//! `--replace` says to drop them. Nothing is ever deleted silently.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::format::manifest::{Manifest, MANIFEST};

/// What became of the files later commands added to the output directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Later {
    /// There were none.
    #[default]
    None,
    /// These (relative paths) were kept: the sets are unchanged.
    Kept(Vec<String>),
    /// These were dropped with the earlier sets (`--replace`).
    Dropped(Vec<String>),
}

/// Carries the files later commands added to the previous output in `dir` into the new
/// output being staged in `staging` when its manifest `new` is the previous one's; else
/// refuses (exit 4) unless `replace`. A previous output without checksums in its manifest
/// (written before they were recorded) has no files known to be later.
pub fn carry_over(dir: &Path, new: &Manifest, staging: &Path, replace: bool) -> Result<Later> {
    let Ok(old) = Manifest::read(dir) else {
        return Ok(Later::None);
    };
    if old.checksums.is_empty() {
        return Ok(Later::None);
    }
    let mut later = Vec::new();
    walk(dir, PathBuf::new(), &old, &mut later)?;
    if later.is_empty() {
        return Ok(Later::None);
    }
    let value = |m: &Manifest| serde_json::to_value(m).ok();
    if value(&old) == value(new) {
        for rel in &later {
            let to = staging.join(rel);
            ldd_io::fs::create_parent(&to)?;
            ldd_io::fs::link_or_copy_new(&dir.join(rel), &to)?;
        }
        return Ok(Later::Kept(later));
    }
    if replace {
        return Ok(Later::Dropped(later));
    }
    let shown: Vec<&str> = later.iter().take(8).map(String::as_str).collect();
    Err(Error::Config(format!(
        "{}: holds files that later commands made from its sets ({}{}), and this run's sets \
         differ from those (other inputs, options or ldd-sets version): replacing the \
         directory would lose them. Pass --replace to replace them (make: REPLACE=1), or \
         --out DIR to write elsewhere",
        ldd_io::error::shown(dir),
        shown.join(", "),
        if later.len() > shown.len() {
            ", ..."
        } else {
            ""
        }
    )))
}

/// The files below `dir/rel` that the `manifest` does not record (nor is it), by path
/// relative to `dir`; hidden entries (locks, staging) are not files of the output.
fn walk(dir: &Path, rel: PathBuf, manifest: &Manifest, out: &mut Vec<String>) -> Result<()> {
    for e in ldd_io::fs::list_dir(&dir.join(&rel))? {
        if e.name.starts_with('.') {
            continue;
        }
        let r = rel.join(&e.name);
        match e.kind {
            ldd_io::fs::Kind::Dir => walk(dir, r, manifest, out)?,
            ldd_io::fs::Kind::File => {
                let name = r.to_string_lossy().into_owned();
                if name != MANIFEST && !manifest.checksums.contains_key(&name) {
                    out.push(name);
                }
            }
            _ => {}
        }
    }
    Ok(())
}
