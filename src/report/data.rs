//! What the report shows besides the manifest and the scores, read from the sets
//! directory: the distance of every lexical pair, the reordering measures of every line,
//! and a deterministic sample of every set's lines with each system's output.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use ldd_io::Input;

use super::scores::Scores;

use crate::error::{Error, Result};
use crate::format::judged::{self, Judged};
use crate::format::manifest::Manifest;
use crate::format::marked::{self, Piece};
use crate::format::sets::{SetEntry, SetKind};
use crate::read::select::{read_needed_hashed, read_selected};
use crate::read::sets::Loaded;

pub use crate::format::manifest::Distances;
pub use crate::format::reorder::Measure;

/// The distance of every pair of every lexical phenomenon that has a `ge0` set, in rule
/// order, as extract recorded them in the manifest (checked against the `ge0` sets' pair
/// counts when it was read). A manifest of an ldd-sets older than that record has none: a
/// note says so, and the report shows no distance distributions (run `extract` again).
pub fn lexical_distances(m: &Manifest, notes: &mut Vec<String>) -> Vec<Distances> {
    let lexical = m.sets.iter().any(|s| s.kind == SetKind::Lexical);
    if m.distances.is_empty() && lexical {
        notes.push(
            "the manifest records no pair distances (it was written by an older ldd-sets): \
             the distance distributions are not shown; run `ldd-sets extract` again to see \
             them"
                .into(),
        );
    }
    m.distances
        .iter()
        .filter(|d| m.ge0(&d.phenomenon).is_some())
        .cloned()
        .collect()
}

/// The parse cache's record `K.json` beside the trees `K.conllu.gz` that `extract` read,
/// when the source was parsed by ldd-sets: it names the UDPipe model. `None` for trees given
/// with `--conllu`, or a record that does not match the manifest's checksums.
pub fn parse_record(m: &Manifest) -> Option<ldd_parse::CacheManifest> {
    let trees = &m.inputs.conllu.path;
    let name = trees.file_name()?.to_str()?;
    let key = name.strip_suffix(".conllu.gz")?;
    let text = ldd_io::read_text(&trees.with_file_name(format!("{key}.json")), 1 << 20).ok()?;
    let rec: ldd_parse::CacheManifest = serde_json::from_str(&text).ok()?;
    (rec.conllu_gz_sha256 == m.inputs.conllu.sha256 && rec.corpus_sha256 == m.inputs.source.sha256)
        .then_some(rec)
}

/// A corpus line shown in the examples browser.
#[derive(Debug, Clone)]
pub struct Example {
    /// Corpus line id.
    pub id: u32,
    /// The marked source (`<dk>`/`<hk>`, `<sk>` tags), parsed.
    pub source: Vec<Piece>,
    /// The reference: marked (`<tk>`) for reorder sets, parsed; one text piece otherwise.
    pub target: Vec<Piece>,
    /// Each system's output (`None`: not available).
    pub outputs: Vec<Option<String>>,
}

/// A set's sample.
#[derive(Debug, Clone)]
pub struct SetExamples {
    /// Phenomenon.
    pub phenomenon: String,
    /// Bucket.
    pub bucket: String,
    /// Sentences in the set.
    pub sentences: u64,
    /// The sample, in sample order.
    pub examples: Vec<Example>,
}

/// The sample of a set: `n` 1-based positions ordered by a hash of the line id seeded by
/// the phenomenon (not the bucket), so the same set always shows the same lines, and the
/// lines shown for `ge5` are mostly among those shown for `ge1`.
pub fn sample_positions(set: &SetEntry, ids: &[u32], n: usize) -> Vec<u32> {
    let positions = (1u32..).zip(ids.iter().copied());
    let stream = (set.phenomenon.as_str(), "examples");
    crate::sample::first_by_hash(positions, 1, stream, |&(_, id)| u64::from(id), n)
        .into_iter()
        .map(|(p, _)| p)
        .collect()
}

/// Every system's output lines (by corpus id) for the lines in `ids`; `None` for a system
/// whose file is missing or has the wrong line count, with a note saying why.
pub fn outputs(
    scores: Option<&Scores>,
    ids: &BTreeSet<u32>,
    corpus_lines: u64,
    notes: &mut Vec<String>,
) -> Result<Vec<Option<BTreeMap<u32, String>>>> {
    let Some(scores) = scores else {
        return Ok(Vec::new());
    };
    // Scored by contrastive accuracy alone: the systems' scores of the pairs were given,
    // no output of theirs, which is nothing to note.
    let from_outputs = scores
        .metrics
        .iter()
        .any(|m| !m.key.starts_with(crate::score::contrastive::KEY));
    if !from_outputs && scores.systems.iter().all(|s| s.path.is_none()) {
        return Ok(vec![None; scores.systems.len()]);
    }
    let wanted: Vec<u32> = ids.iter().copied().collect();
    let mut out = Vec::new();
    for sys in &scores.systems {
        let Some(path) = &sys.path else {
            notes.push(format!(
                "system {}: scores.json does not name its output file",
                sys.name
            ));
            out.push(None);
            continue;
        };
        if !path.is_file() {
            notes.push(format!(
                "system {}: output {} not found (paths are as given to `score`, relative to \
                 the directory it ran in); its examples show –",
                sys.name,
                ldd_io::error::shown(path)
            ));
            out.push(None);
            continue;
        }
        // The file is read only if it is the one scored: `path` comes from scores.json,
        // which a report must not trust to name any file.
        let scored = ldd_io::sha256_file(path).ok().map(|(sha, _)| sha);
        if sys.sha256.is_none() || scored != sys.sha256 {
            notes.push(format!(
                "system {}: {} is not the file scored ({}); its examples show –",
                sys.name,
                ldd_io::error::shown(path),
                if sys.sha256.is_none() {
                    "scores.json records no checksum: score again"
                } else {
                    "its SHA-256 differs from the one recorded in scores.json"
                }
            ));
            out.push(None);
            continue;
        }
        let (lines, n) = read_selected(path, &wanted)?;
        if n != corpus_lines {
            notes.push(format!(
                "system {}: {} has {n} lines, not the corpus's {corpus_lines}: it changed \
                 after scoring; its examples show –",
                sys.name,
                ldd_io::error::shown(path)
            ));
            out.push(None);
            continue;
        }
        out.push(Some(wanted.iter().copied().zip(lines).collect()));
    }
    Ok(out)
}

/// The sample of every non-empty set of a loaded sets directory, with each system's
/// output: `per_set` lines a set.
pub fn examples(
    l: &Loaded,
    scores: Option<&Scores>,
    per_set: usize,
    notes: &mut Vec<String>,
) -> Result<Vec<SetExamples>> {
    struct Picked<'a> {
        set: &'a SetEntry,
        positions: Vec<u32>,
        ids: Vec<u32>,
    }
    let (dir, m) = (&l.dir, &l.m);
    let mut picked = Vec::new();
    let mut all_ids = BTreeSet::new();
    for u in &l.units {
        if u.ids.is_empty() || per_set == 0 {
            continue;
        }
        let positions = sample_positions(&u.set, &u.ids, per_set);
        let chosen: Vec<u32> = positions.iter().map(|&p| u.ids[p as usize - 1]).collect();
        all_ids.extend(chosen.iter().copied());
        picked.push(Picked {
            set: &u.set,
            positions,
            ids: chosen,
        });
    }
    let outs = outputs(scores, &all_ids, m.corpus.lines, notes)?;
    let mut result = Vec::new();
    for p in picked {
        let set = p.set;
        let mut sorted = p.positions.clone();
        sorted.sort_unstable();
        // Each file read once, checked against its recorded checksum as it is read.
        let read = |rel: &str| -> Result<BTreeMap<u32, String>> {
            let (_, lines) =
                crate::read::sets::read_recorded(m, dir, rel, |p| read_needed_hashed(p, &sorted))?;
            Ok(sorted.iter().copied().zip(lines).collect())
        };
        let mut source = read(&set.files.marked)?;
        let mut target = read(
            set.files
                .marked_target
                .as_deref()
                .unwrap_or(&set.files.target),
        )?;
        let examples = p
            .positions
            .iter()
            .zip(&p.ids)
            .map(|(pos, &id)| Example {
                id,
                source: marked::parse(&source.remove(pos).unwrap_or_default()),
                target: match target.remove(pos).unwrap_or_default() {
                    t if set.kind == SetKind::Reorder => marked::parse(&t),
                    t => vec![Piece::Text(t)],
                },
                outputs: outs
                    .iter()
                    .map(|o| o.as_ref().and_then(|o| o.get(&id).cloned()))
                    .collect(),
            })
            .collect();
        result.push(SetExamples {
            phenomenon: set.phenomenon.clone(),
            bucket: set.bucket.clone(),
            sentences: set.sentences,
            examples,
        });
    }
    Ok(result)
}

/// A locus of the item browser: one row of `scores.loci.tsv` per system, in the order of
/// `scores.json`'s systems (the locus's own fields are the same in each).
#[derive(Debug, Clone)]
pub struct LocusItem {
    /// The rows, one per system.
    pub rows: Vec<Judged>,
}

/// Largest judgements file the report reads: 1 GiB (the page shows every row).
const MAX_LOCI_BYTES: u64 = 1 << 30;

/// Every locus judged by `score --metrics locus` (`scores.loci.tsv`, named by scores.json
/// at `scores_path`), grouped per locus with one row per system. `None`, with a note
/// saying why, when the scores name no such file, or when it is missing or changed
/// since scoring (its SHA-256, checked before a row is read). A file with more rows than
/// the sets of `m` have loci (for every system) is refused as it is read: memory stays
/// bounded by the sets, whatever the file claims.
pub fn loci(
    scores_path: &Path,
    scores: &Scores,
    m: &crate::format::manifest::Manifest,
    notes: &mut Vec<String>,
) -> Result<Option<Vec<LocusItem>>> {
    let Some(rec) = &scores.loci else {
        return Ok(None);
    };
    // A bare file name beside scores.json: scores.json must not name any other file.
    let plain = Path::new(&rec.file)
        .file_name()
        .is_some_and(|n| n == rec.file.as_str())
        && !rec.file.starts_with('.');
    if !plain {
        return Err(Error::Data(format!(
            "{}: `loci.file` must be a file name beside it, not `{}`",
            ldd_io::error::shown(scores_path),
            ldd_io::error::quote(&rec.file, 100)
        )));
    }
    let path = scores_path
        .parent()
        .unwrap_or(Path::new("."))
        .join(&rec.file);
    let size = path.metadata().map(|m| m.len());
    match size {
        Err(_) => {
            notes.push(format!(
                "{} not found: the locus items are not shown",
                ldd_io::error::shown(&path)
            ));
            return Ok(None);
        }
        Ok(n) if n > MAX_LOCI_BYTES => {
            notes.push(format!(
                "{} is larger than {} GiB: the locus items are not shown",
                ldd_io::error::shown(&path),
                MAX_LOCI_BYTES >> 30
            ));
            return Ok(None);
        }
        Ok(_) => {}
    }
    // The recorded file only, checked before anything is parsed.
    if ldd_io::sha256_file(&path)?.0 != rec.sha256 {
        notes.push(format!(
            "{} changed after scoring (its SHA-256 is not the one scores.json records): the \
             locus items are not shown",
            ldd_io::error::shown(&path)
        ));
        return Ok(None);
    }
    // The systems scored with locus accuracy, in order: every system of one `score` run,
    // and of merged runs those with a locus row.
    let systems: Vec<&str> = scores
        .systems
        .iter()
        .map(|s| s.name.as_str())
        .filter(|n| {
            scores
                .rows
                .iter()
                .any(|r| r.system == *n && r.metric == crate::score::locus::KEY)
        })
        .collect();
    let loci: u64 = m.sets.iter().map(|s| s.pairs.max(s.sentences)).sum();
    let max_rows = loci.saturating_mul(systems.len() as u64);
    let mut items: Vec<LocusItem> = Vec::new();
    let mut r = Input::open(&path)?;
    let (mut last, mut rows) = (1u64, 0u64);
    let read = judged::for_each_row(&mut r, &path, |j, line| {
        last = line;
        rows += 1;
        if rows > max_rows {
            return Err(Error::input(
                &path,
                line,
                format!(
                    "more rows than the sets have loci ({loci}) times systems ({})",
                    systems.len()
                ),
            ));
        }
        let k = items.last().map_or(systems.len(), |i| i.rows.len());
        let same = |a: &Judged, b: &Judged| {
            (
                a.phenomenon.as_str(),
                a.id,
                a.dep.id,
                a.head.as_ref().map(|h| h.id),
            ) == (
                b.phenomenon.as_str(),
                b.id,
                b.dep.id,
                b.head.as_ref().map(|h| h.id),
            )
        };
        let expected = systems.get(k % systems.len().max(1)).copied();
        if expected != Some(j.system.as_str()) {
            return Err(Error::input(
                &path,
                line,
                format!(
                    "system `{}` where scores.json's systems give `{}`",
                    ldd_io::error::quote(&j.system, 100),
                    expected.unwrap_or("none")
                ),
            ));
        }
        match items.last_mut() {
            Some(i) if k < systems.len() => {
                if !same(&i.rows[0], &j) {
                    return Err(Error::input(&path, line, "a locus lacks a system's row"));
                }
                i.rows.push(j);
            }
            _ => items.push(LocusItem { rows: vec![j] }),
        }
        Ok(())
    });
    // Read as it was hashed (not changed in between).
    if r.finish()?.sha256 != rec.sha256 {
        notes.push(format!(
            "{} changed while it was read: the locus items are not shown",
            ldd_io::error::shown(&path)
        ));
        return Ok(None);
    }
    read?;
    if items.last().is_some_and(|i| i.rows.len() != systems.len()) {
        return Err(Error::input(
            &path,
            last,
            "the last locus lacks a system's row",
        ));
    }
    Ok(Some(items))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_is_deterministic_and_within_the_set() {
        let set: SetEntry = serde_json::from_value(serde_json::json!({
            "kind": "lexical", "phenomenon": "p", "bucket": "ge1", "min_distance": 1,
            "exact": false, "sentences": 50, "pairs": 50, "mean_source_words": 1.0,
            "files": {"source": "a", "target": "b", "ids": "c", "conllu": "d", "marked": "e"}
        }))
        .unwrap();
        let ids: Vec<u32> = (1..=50).map(|i| i * 3).collect();
        let a = sample_positions(&set, &ids, 10);
        assert_eq!(a, sample_positions(&set, &ids, 10));
        assert_eq!(a.len(), 10);
        assert!(a.iter().all(|&p| (1..=50).contains(&p)));
        let uniq: BTreeSet<u32> = a.iter().copied().collect();
        assert_eq!(uniq.len(), 10);
        // A longer sample extends the shorter one.
        assert_eq!(&sample_positions(&set, &ids, 20)[..10], &a[..]);
        assert_eq!(sample_positions(&set, &ids, 99).len(), 50);
    }
}
