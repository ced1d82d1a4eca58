//! A sets directory, read: the files its manifest names, each resolved inside the
//! directory and checked against the SHA-256 the run recorded ([`read_recorded`], [`file()`]);
//! and the whole directory in one pass ([`load`]): its manifest (a complete run, not one
//! shard), then every set's and written control's ids file, each read once (in parallel)
//! and checked against its record, the manifest's sentence count and the corpus's line
//! count.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::error::{Result, SetFileError};
use crate::format::locus::Locus;
use crate::format::manifest::{Manifest, MANIFEST};
use crate::format::reorder::Measure;
use crate::format::sets::{ControlStatus, SetControls, SetEntry};
use crate::pipeline::read::select::read_ids_hashed;

/// The path of `rel`, a file the `manifest` names, in its directory `dir`, checked: it
/// stays inside `dir` and is reached through no symbolic link ([`resolve`]), and its
/// content is what the run wrote (its SHA-256 in [`Manifest::checksums`]). A file
/// changed since, or a name the run did not record, is an error naming both.
pub fn file(manifest: &Manifest, dir: &Path, rel: &str) -> Result<PathBuf> {
    let (path, want) = recorded(manifest, dir, rel)?;
    unchanged_on_disk(dir, &path, want)?;
    Ok(path)
}

/// The path of `rel`, a file the `manifest` names, resolved inside `dir` ([`resolve`]),
/// and the SHA-256 the run recorded for it (`None` for a manifest without checksums).
/// A name the run did not record is an error.
fn recorded<'m>(
    manifest: &'m Manifest,
    dir: &Path,
    rel: &str,
) -> Result<(PathBuf, Option<&'m str>)> {
    let path = resolve(dir, rel)?;
    if manifest.checksums.is_empty() {
        return Ok((path, None));
    }
    match manifest.checksums.get(rel) {
        Some(want) => Ok((path, Some(want.as_str()))),
        None => Err(SetFileError::Unrecorded {
            manifest: dir.join(MANIFEST),
            name: rel.to_string(),
        }
        .into()),
    }
}

/// Reads `rel`, a file the `manifest` names, resolved inside `dir`, once and checked:
/// `read` returns what it made of the file (or why that cannot be used) and the SHA-256
/// of the bytes it read, which is compared with the record first, so a changed file is
/// reported as changed before its content is judged. Returns the path and what was read.
pub fn read_recorded<T>(
    manifest: &Manifest,
    dir: &Path,
    rel: &str,
    read: impl FnOnce(&Path) -> Result<(Result<T>, String)>,
) -> Result<(PathBuf, T)> {
    let (path, want) = recorded(manifest, dir, rel)?;
    let (value, got) = match read(&path) {
        Ok(read) => read,
        // A file that cannot be read as text may be a changed one: that is said first.
        Err(e) => {
            unchanged_on_disk(dir, &path, want)?;
            return Err(e);
        }
    };
    if let Some(want) = want {
        unchanged(dir, &path, &got, want)?;
    }
    Ok((path, value?))
}

/// Checks that `path`, a file of the output in `dir`, is what the run wrote: `got`, its
/// SHA-256 now, equals `want`, the one the manifest records. A changed file is an error
/// naming the file and the manifest.
fn unchanged(dir: &Path, path: &Path, got: &str, want: &str) -> Result<()> {
    if got == want {
        return Ok(());
    }
    Err(SetFileError::Changed {
        path: path.to_path_buf(),
        manifest: dir.join(MANIFEST),
        got: got.to_string(),
        want: want.to_string(),
    }
    .into())
}

/// [`unchanged`] for a file hashed as it is on disk now; nothing to check (and nothing
/// read) when the manifest records no checksum (`want` is `None`).
fn unchanged_on_disk(dir: &Path, path: &Path, want: Option<&str>) -> Result<()> {
    match want {
        Some(want) => unchanged(dir, path, &ldd_io::sha256_file(path)?.0, want),
        None => Ok(()),
    }
}

/// The path of `rel` (a file name read from the manifest in `dir`) below `dir`. A name
/// that is absolute, empty, or has a `..` or `.` component, or whose existing parts below
/// `dir` include a symbolic link, is an error naming the manifest: a manifest never makes
/// ldd-sets read or write outside its directory.
pub fn resolve(dir: &Path, rel: &str) -> Result<PathBuf> {
    ldd_io::confined(dir, rel).map_err(|e| {
        let manifest = dir.join(MANIFEST);
        match e {
            ldd_io::Outside::Name => SetFileError::Leaves {
                manifest,
                name: rel.to_string(),
            },
            ldd_io::Outside::Link(link) => SetFileError::Link { manifest, link },
        }
        .into()
    })
}

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
    /// The SHA-256 of its manifest file, which names these sets in every record made of
    /// them (score signatures, sheets, contrastive pairs, MQM judgements); computed here
    /// only.
    pub manifest_sha256: String,
    /// The manifest (its sets and controls are also in `units`).
    pub manifest: Manifest,
    /// Every set, in manifest order.
    pub units: Vec<Unit>,
    /// Controls per set requested at extraction (the largest `count` in the manifest).
    pub control_count: usize,
    /// The controls' `--seed` (`None` without controls in the manifest).
    pub control_seed: Option<u64>,
}

/// The locus rows of set `unit` of `loaded` (`None`: the set has no locus file), read once
/// and checked against the recorded SHA-256.
pub fn locus_rows(loaded: &Loaded, unit: usize) -> Result<Option<Vec<Locus>>> {
    let Some(rel) = &loaded.units[unit].set.files.locus else {
        return Ok(None);
    };
    let (_, rows) = read_recorded(&loaded.manifest, &loaded.dir, rel, |p| {
        let mut r = ldd_io::Input::open(p)?;
        let mut rows = Vec::new();
        let read = crate::format::locus::for_each_row(&mut r, p, |x| {
            rows.push(x);
            Ok(())
        });
        Ok((read.map(|()| rows), r.finish()?.sha256))
    })?;
    Ok(Some(rows))
}

/// The reordering measures of every line of `loaded`'s corpus, from the per-line file its
/// manifest records (`reorder.tsv`: one row per corpus line, one column per measure; older
/// runs' `max_distance.tsv`: rows only for lines with a link), read once and checked
/// against the recorded SHA-256, with its path; none when the run has no reordering sets
/// or the file is missing. Memory: one counter per distinct value (rounded to 0.01),
/// whatever the corpus size.
pub fn reorder_measures(loaded: &Loaded) -> Result<Option<(PathBuf, Vec<Measure>)>> {
    let Some(info) = &loaded.manifest.reorder else {
        return Ok(None);
    };
    if !resolve(&loaded.dir, &info.files.measures)?.is_file() {
        return Ok(None);
    }
    let read = read_recorded(&loaded.manifest, &loaded.dir, &info.files.measures, |p| {
        let mut r = ldd_io::Input::open(p)?;
        let measures = crate::format::reorder::measures(&mut r, p, loaded.manifest.corpus.lines);
        Ok((measures, r.finish()?.sha256))
    })?;
    Ok(Some(read))
}

/// Adds to `words` the source words (the UD words of its tree) of every line of the set
/// `unit` of `loaded` that `wanted` accepts and `words` does not hold yet; the trees file is
/// checked against the manifest's record first ([`file()`]).
pub fn tree_words(
    loaded: &Loaded,
    unit: usize,
    wanted: impl Fn(u32) -> bool,
    words: &mut std::collections::BTreeMap<u32, Vec<String>>,
) -> Result<()> {
    tree_columns(loaded, unit, wanted, words, |s| {
        s.words.iter().map(|w| w.form.to_string()).collect()
    })
}

/// Adds to `out` what `take` takes from the tree of every line of the set `unit` of `loaded` that
/// `wanted` accepts and `out` does not hold yet (e.g. its words' forms, or forms and
/// parts of speech); the trees file is checked against the manifest's record first
/// ([`file()`]).
pub fn tree_columns<T>(
    loaded: &Loaded,
    unit: usize,
    wanted: impl Fn(u32) -> bool,
    out: &mut std::collections::BTreeMap<u32, T>,
    take: impl Fn(&ldd_conllu::Sentence<'_>) -> T,
) -> Result<()> {
    let u = &loaded.units[unit];
    let trees = file(&loaded.manifest, &loaded.dir, &u.set.files.conllu)?;
    let mut n = 0usize;
    ldd_conllu::for_each_sentence(&trees, |_, s| -> Result<()> {
        let id = u.ids.get(n).copied().ok_or_else(|| SetFileError::Trees {
            path: trees.clone(),
        })?;
        n += 1;
        if wanted(id) && !out.contains_key(&id) {
            out.insert(id, take(s));
        }
        Ok(())
    })?;
    Ok(())
}

/// A distinct locus (phenomenon, line, dependent, head; the sets of a phenomenon overlap):
/// where it first occurs and the buckets of its phenomenon's sets that hold it.
#[derive(Debug, Clone)]
pub struct Distinct {
    /// Index into the `sets` given to [`distinct_loci`].
    pub set: usize,
    /// Index of its row in that set's rows.
    pub row: usize,
    /// The buckets of the sets that hold it, in the order given.
    pub buckets: Vec<String>,
}

/// The distinct loci of `sets` (each a unit of `loaded` and its locus rows), in the order of
/// the phenomena in the manifest, then of line, dependent and head.
pub fn distinct_loci(loaded: &Loaded, sets: &[(usize, &[Locus])]) -> Vec<Distinct> {
    let mut phenomena: Vec<&str> = Vec::new();
    let mut loci: std::collections::BTreeMap<(usize, u64, u32, Option<u32>), Distinct> =
        std::collections::BTreeMap::new();
    for (si, (unit, rows)) in sets.iter().enumerate() {
        let set = &loaded.units[*unit].set;
        let ph = phenomena
            .iter()
            .position(|p| *p == set.phenomenon)
            .unwrap_or_else(|| {
                phenomena.push(&set.phenomenon);
                phenomena.len() - 1
            });
        for (ri, r) in rows.iter().enumerate() {
            let key = (ph, r.id, r.dep.id, r.head.as_ref().map(|h| h.id));
            let d = loci.entry(key).or_insert_with(|| Distinct {
                set: si,
                row: ri,
                buckets: Vec::new(),
            });
            if !d.buckets.contains(&set.bucket) {
                d.buckets.push(set.bucket.clone());
            }
        }
    }
    loci.into_values().collect()
}

/// Loads a sets directory; every file name in the manifest must stay inside it.
pub fn load(dir: &Path) -> Result<Loaded> {
    let m = Manifest::read_complete(dir)?;
    let manifest_path = dir.join(MANIFEST);
    let manifest_sha256 = ldd_io::sha256_file(&manifest_path)?.0;
    let control_count = m.controls.iter().map(|c| c.count).max().unwrap_or(0);
    let control_seed = m.controls.first().map(|c| c.seed);
    let mut controls: HashMap<(&str, &str), &SetControls> = m
        .controls
        .iter()
        .map(|c| ((c.phenomenon.as_str(), c.bucket.as_str()), c))
        .collect();
    let paired: Vec<(&SetEntry, Option<&SetControls>)> = m
        .sets
        .iter()
        .map(|set| {
            let c = controls.remove(&(set.phenomenon.as_str(), set.bucket.as_str()));
            (set, c)
        })
        .collect();
    // Files are read in parallel (thousands of small files: the time goes into opening
    // them); the first error in manifest order is the one reported.
    let read: Vec<Result<Unit>> = paired
        .par_iter()
        .map(|&(set, c)| read_unit(&m, dir, set, c))
        .collect();
    let units = read.into_iter().collect::<Result<Vec<Unit>>>()?;
    Ok(Loaded {
        dir: dir.to_path_buf(),
        manifest_path,
        manifest_sha256,
        manifest: m,
        units,
        control_count,
        control_seed,
    })
}

/// A set's unit: its ids and, when its controls were written, theirs.
fn read_unit(
    manifest: &Manifest,
    dir: &Path,
    set: &SetEntry,
    set_controls: Option<&SetControls>,
) -> Result<Unit> {
    let ids = read_recorded_ids(manifest, dir, &set.files.ids, Some(set.sentences))?;
    let mut controls = Vec::new();
    if let Some(c) = set_controls.filter(|c| c.status == ControlStatus::Written) {
        for k in 1..=c.count {
            controls.push(read_recorded_ids(manifest, dir, &c.ids_file(k), None)?);
        }
    }
    Ok(Unit {
        set: set.clone(),
        ids,
        status: set_controls.map(|c| c.status),
        prefix: set_controls.map(|c| c.prefix.clone()).unwrap_or_default(),
        controls,
    })
}

/// The ids file `rel` of the sets directory `dir`, read once and checked: against the
/// SHA-256 `manifest` records of it (a changed file is reported as changed before anything
/// else), the corpus's line count and, for a set, the `count` of sentences `manifest` records.
fn read_recorded_ids(
    manifest: &Manifest,
    dir: &Path,
    rel: &str,
    count: Option<u64>,
) -> Result<Vec<u32>> {
    let (path, ids) = read_recorded(manifest, dir, rel, read_ids_hashed)?;
    let lines = manifest.corpus.lines;
    if let Some(&id) = ids.last().filter(|&&last| u64::from(last) > lines) {
        return Err(SetFileError::IdBeyond { path, id, lines }.into());
    }
    if let Some(sentences) = count.filter(|&c| c != ids.len() as u64) {
        return Err(SetFileError::Count {
            path,
            manifest: dir.join(MANIFEST),
            ids: ids.len() as u64,
            sentences,
        }
        .into());
    }
    Ok(ids)
}

/// Which input of the run a file stands for ([`input_lines`], [`input_trees`]).
#[derive(Debug, Clone, Copy)]
pub enum RunInput {
    /// The corpus's source side.
    Source,
    /// The corpus's target side (the reference).
    Target,
    /// The parse of the source side.
    Parse,
}

impl RunInput {
    /// What the manifest records of it.
    fn record(self, loaded: &Loaded) -> &ldd_io::FileInfo {
        match self {
            RunInput::Source => &loaded.manifest.inputs.source,
            RunInput::Target => &loaded.manifest.inputs.target,
            RunInput::Parse => &loaded.manifest.inputs.conllu,
        }
    }

    /// How it is named in messages.
    fn name(self) -> &'static str {
        match self {
            RunInput::Source => "source file",
            RunInput::Target => "target file",
            RunInput::Parse => "parse (CoNLL-U)",
        }
    }

    /// The file to read (`given`, else the path the manifest records) and the check that
    /// what was read is what extract read: its SHA-256, or an error naming both and the
    /// option that gives the file.
    fn check(self, loaded: &Loaded, path: &Path, sha256: &str, flag: &str) -> Result<()> {
        let want = self.record(loaded);
        if sha256 == want.sha256 {
            return Ok(());
        }
        Err(crate::error::Error::Data(format!(
            "{}: not the {} extract read (sha256 {sha256}; {} records {}); give the file \
             extract read with {flag}",
            ldd_io::error::shown(path),
            self.name(),
            ldd_io::error::shown(&loaded.manifest_path),
            want.sha256
        )))
    }
}

/// The file of the run's input `which`: `given`, else the path the manifest records —
/// which is as given to extract, relative to the directory it ran in: when it is not
/// there, the error says so and names `flag`, the option that gives the file.
pub fn input_path(
    loaded: &Loaded,
    which: RunInput,
    given: Option<&Path>,
    flag: &str,
) -> Result<PathBuf> {
    if let Some(p) = given {
        return Ok(p.to_path_buf());
    }
    let path = which.record(loaded).path.clone();
    if ldd_io::fs::kind(&path).is_some() {
        return Ok(path);
    }
    Err(crate::error::Error::Io {
        source: std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!(
                "the {} {} records is not there (paths are as given to extract, relative to \
                 the directory it ran in): run from there, or give the file with {flag}",
                which.name(),
                ldd_io::error::shown(&loaded.manifest_path)
            ),
        ),
        path,
    })
}

/// The lines `ids` (1-based, ascending) of the run's input `which` — the file `given`, else
/// the one the manifest records ([`input_path`]) — checked to be the file extract read
/// (its SHA-256; `flag` is the option that gives it, named in the error). Reading stops at
/// the first line past the corpus's line count (an endless input is refused there).
pub fn input_lines(
    loaded: &Loaded,
    which: RunInput,
    given: Option<&Path>,
    flag: &str,
    ids: &[u32],
) -> Result<Vec<String>> {
    let path = input_path(loaded, which, given, flag)?;
    let max = loaded.manifest.corpus.lines;
    let why = format!(
        "the corpus {} records has {max}; give the {} extract read with {flag}",
        ldd_io::error::shown(&loaded.manifest_path),
        which.name()
    );
    let mut r = ldd_io::Input::open(&path)?.limit_lines(max, why);
    let mut n = 0u64;
    let mut next = ids.iter().peekable();
    let mut lines = Vec::with_capacity(ids.len());
    while let Some(line) = r.next_line()? {
        n += 1;
        if next.next_if(|&&id| u64::from(id) == n).is_some() {
            lines.push(line.to_string());
        }
    }
    let sha = r.finish()?.sha256;
    which.check(loaded, &path, &sha, flag)?;
    if let Some(id) = next.next() {
        return Err(crate::error::Error::Data(format!(
            "{}: has {n} lines but line {id} is needed (did the file change during the run?)",
            ldd_io::error::shown(&path)
        )));
    }
    Ok(lines)
}

/// Calls `each` with the trees of the lines `ids` (1-based, ascending) of the run's parse —
/// the file `given`, else the one the manifest records — read to its end and checked to
/// be the parse extract read (its SHA-256; `flag` names the option that gives it).
pub fn input_trees(
    loaded: &Loaded,
    given: Option<&Path>,
    flag: &str,
    ids: &[u32],
    mut each: impl FnMut(u32, &ldd_conllu::Sentence<'_>) -> Result<()>,
) -> Result<()> {
    let path = input_path(loaded, RunInput::Parse, given, flag)?;
    let mut r = ldd_conllu::Reader::open(&path)?;
    let mut block = ldd_conllu::Block::default();
    let mut next = ids.iter().peekable();
    let mut n = 0u32;
    while r.next_block(&mut block)? {
        n += 1;
        if u64::from(n) > loaded.manifest.corpus.lines {
            return Err(crate::error::Error::Data(format!(
                "{}: more trees than the {} lines of the corpus {} records; give the parse \
                 extract read with {flag}",
                ldd_io::error::shown(&path),
                loaded.manifest.corpus.lines,
                ldd_io::error::shown(&loaded.manifest_path)
            )));
        }
        if next.peek() == Some(&&n) {
            next.next();
            let s = ldd_conllu::parse_block(&block, &path)?;
            each(n, &s)?;
        }
    }
    let info = r.finish()?;
    RunInput::Parse.check(loaded, &path, &info.sha256, flag)
}
