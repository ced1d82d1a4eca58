//! A sets directory read in one pass: its manifest (a complete run, not one shard), then
//! every set's and written control's ids file — each name resolved inside the directory,
//! each file read once, checked against the SHA-256 the run recorded, against the
//! manifest's sentence count and against the corpus's line count.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::format::manifest::{Manifest, MANIFEST};
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

/// One ids file to read: where, what the run recorded of it, and how many ids it holds
/// (`None` for a control, whose count the manifest does not record per file).
struct Wanted {
    path: PathBuf,
    sha256: Option<String>,
    count: Option<u64>,
}

/// Loads a sets directory; every file name in the manifest must stay inside it.
pub fn load(dir: &Path) -> Result<Loaded> {
    let mut m = Manifest::read_complete(dir)?;
    let control_count = m.controls.iter().map(|c| c.count).max().unwrap_or(0);
    let control_seed = m.controls.first().map(|c| c.seed);
    let mut by_set: HashMap<(String, String), SetControls> = m
        .controls
        .drain(..)
        .map(|c| ((c.phenomenon.clone(), c.bucket.clone()), c))
        .collect();
    // What to read: each set's ids file, then its written controls'.
    let sets = std::mem::take(&mut m.sets);
    let mut names: Vec<(String, Option<u64>)> = Vec::new();
    let mut controls = Vec::with_capacity(sets.len());
    for set in &sets {
        names.push((set.files.ids.clone(), Some(set.sentences)));
        let c = by_set.remove(&(set.phenomenon.clone(), set.bucket.clone()));
        if let Some(c) = c.as_ref().filter(|c| c.status == ControlStatus::Written) {
            names.extend((1..=c.count).map(|k| (c.ids_file(k), None)));
        }
        controls.push(c);
    }
    // Where: each name resolved inside DIR, with the checksum the run recorded.
    let mut wanted = Vec::with_capacity(names.len());
    for (rel, count) in &names {
        let (path, sha256) = m.recorded(dir, rel)?;
        wanted.push(Wanted {
            path,
            sha256: sha256.map(str::to_string),
            count: *count,
        });
    }
    // Read: each file once, checked.
    let manifest_path = dir.join(MANIFEST);
    let mut read = Vec::with_capacity(wanted.len());
    for w in &wanted {
        let (ids, sha256) = read_ids_hashed(&w.path)?;
        read.push(check(w, ids, &sha256, m.corpus.lines, &manifest_path)?);
    }
    let mut read = read.into_iter();
    let mut units = Vec::with_capacity(sets.len());
    for (set, c) in sets.into_iter().zip(controls) {
        let ids = read.next().unwrap_or_default();
        let (status, prefix, ctl) = match c {
            Some(c) if c.status == ControlStatus::Written => {
                let ctl = read.by_ref().take(c.count).collect();
                (Some(c.status), c.prefix, ctl)
            }
            Some(c) => (Some(c.status), c.prefix, Vec::new()),
            None => (None, String::new(), Vec::new()),
        };
        units.push(Unit {
            set,
            ids,
            status,
            prefix,
            controls: ctl,
        });
    }
    Ok(Loaded {
        dir: dir.to_path_buf(),
        manifest_path,
        m,
        units,
        control_count,
        control_seed,
    })
}

/// An ids file as read (its ids or the error of its first bad line), checked against what
/// the manifest records of it: a changed file is reported as changed before anything else.
fn check(
    w: &Wanted,
    ids: Result<Vec<u32>>,
    sha256: &str,
    lines: u64,
    manifest: &Path,
) -> Result<Vec<u32>> {
    let shown = ldd_io::text::shown(&w.path);
    let manifest = ldd_io::text::shown(manifest);
    if let Some(want) = w.sha256.as_deref().filter(|&want| want != sha256) {
        return Err(Error::Data(format!(
            "{shown}: changed since ldd-sets wrote it (sha256 {sha256}; {manifest} records \
             {want}); re-run `ldd-sets extract`, or restore the file"
        )));
    }
    let ids = ids?;
    if let Some(&last) = ids.last().filter(|&&last| u64::from(last) > lines) {
        return Err(Error::Data(format!(
            "{shown}: line id {last} exceeds the corpus's {lines} lines"
        )));
    }
    if let Some(count) = w.count.filter(|&c| c != ids.len() as u64) {
        return Err(Error::Data(format!(
            "{shown}: has {} ids but {manifest} records {count} sentences",
            ids.len()
        )));
    }
    Ok(ids)
}
