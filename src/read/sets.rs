//! A sets directory read in one pass: its manifest (a complete run, not one shard), then
//! every set's and written control's ids file — each name resolved inside the directory,
//! each file read once, checked against the SHA-256 the run recorded (hashed while it is
//! read), against the manifest's sentence count and against the corpus's line count.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::format::manifest::{unchanged, Manifest, MANIFEST};
use crate::format::sets::{ControlStatus, SetControls, SetEntry};
use crate::read::select::read_ids_hashed;

/// A set with its ids and its controls' ids.
#[derive(Debug)]
pub struct Unit {
    /// The set.
    pub set: SetEntry,
    /// Its ids.
    pub ids: Vec<u32>,
    /// Control status (`None`: the manifest has no controls for the set).
    pub status: Option<ControlStatus>,
    /// Control prefix.
    pub prefix: String,
    /// Each control's ids.
    pub controls: Vec<Vec<u32>>,
}

/// A sets directory, loaded: the manifest and every set's and control's ids.
#[derive(Debug)]
pub struct Loaded {
    /// The directory.
    pub dir: PathBuf,
    /// Its manifest file.
    pub manifest_path: PathBuf,
    /// The manifest.
    pub m: Manifest,
    /// Every set, in manifest order.
    pub units: Vec<Unit>,
    /// Controls per set requested at extraction (the largest `count` in the manifest).
    pub control_count: usize,
    /// The controls' `--seed` (`None` without controls in the manifest).
    pub control_seed: Option<u64>,
}

/// Loads a sets directory; every file name in the manifest must stay inside it.
pub fn load(dir: &Path) -> Result<Loaded> {
    let mut m = Manifest::read_complete(dir)?;
    let control_count = m.controls.iter().map(|c| c.count).max().unwrap_or(0);
    let control_seed = m.controls.first().map(|c| c.seed);
    let mut controls: HashMap<(String, String), SetControls> = m
        .controls
        .drain(..)
        .map(|c| ((c.phenomenon.clone(), c.bucket.clone()), c))
        .collect();
    let sets = std::mem::take(&mut m.sets);
    let mut units = Vec::with_capacity(sets.len());
    for set in sets {
        let ids = read_recorded_ids(&m, dir, &set.files.ids, Some(set.sentences))?;
        let c = controls.remove(&(set.phenomenon.clone(), set.bucket.clone()));
        let mut ctl_ids = Vec::new();
        let (status, prefix) = match c {
            Some(c) => {
                if c.status == ControlStatus::Written {
                    for k in 1..=c.count {
                        ctl_ids.push(read_recorded_ids(&m, dir, &c.ids_file(k), None)?);
                    }
                }
                (Some(c.status), c.prefix)
            }
            None => (None, String::new()),
        };
        units.push(Unit {
            set,
            ids,
            status,
            prefix,
            controls: ctl_ids,
        });
    }
    Ok(Loaded {
        dir: dir.to_path_buf(),
        manifest_path: dir.join(MANIFEST),
        m,
        units,
        control_count,
        control_seed,
    })
}

/// The ids file `rel` of the sets directory `dir`, read once and checked: against the
/// SHA-256 `m` records of it (a changed file is reported as changed before anything
/// else), the corpus's line count and, for a set, the `count` of sentences `m` records.
fn read_recorded_ids(m: &Manifest, dir: &Path, rel: &str, count: Option<u64>) -> Result<Vec<u32>> {
    let (path, want) = m.recorded(dir, rel)?;
    let (ids, got) = match read_ids_hashed(&path) {
        Ok(read) => read,
        // A file that cannot be read as text may be a changed one: that is said first.
        Err(e) => {
            m.file(dir, rel)?;
            return Err(e);
        }
    };
    if let Some(want) = want {
        unchanged(dir, &path, &got, want)?;
    }
    let ids = ids?;
    let lines = m.corpus.lines;
    if let Some(&last) = ids.last().filter(|&&last| u64::from(last) > lines) {
        return Err(Error::Data(format!(
            "{}: line id {last} exceeds the corpus's {lines} lines",
            ldd_io::text::shown(&path)
        )));
    }
    if let Some(count) = count.filter(|&c| c != ids.len() as u64) {
        return Err(Error::Data(format!(
            "{}: has {} ids but {} records {count} sentences",
            ldd_io::text::shown(&path),
            ids.len(),
            ldd_io::text::shown(&dir.join(MANIFEST))
        )));
    }
    Ok(ids)
}
