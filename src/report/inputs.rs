//! Everything the report shows, read in one place before anything is computed: the
//! scores, the annotators' tally, the MQM judgements, the reordering measures, the parse
//! record, the lines of every set's sample and each system's output for them, and the
//! judged loci. [`read`] is the report's only
//! input step; [`super::gather`] then computes the [`super::Report`] from what it returns
//! without reading anything.
//!
//! What enters: a loaded sets directory and the paths given to `report`. What leaves:
//! [`Inputs`], the files' contents checked against the checksums the manifest and
//! scores.json record, with a note for each file that cannot be shown.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use ldd_io::Input;

use super::data::{sample_positions, LocusItem, Measure, SampledLines};
use super::loci::{locus_systems, LocusGroups};
use super::scores::Scores;
use crate::error::{Error, Result};
use crate::format::judged;
use crate::format::manifest::Manifest;
use crate::format::mqm::MqmReport;
use crate::format::scores::LociFile;
use crate::format::sheet::TallyReport;
use crate::pipeline::read::sets::Loaded;
use crate::pipeline::read::shown::{Output, OutputLines, Pick};

/// What the report reads.
#[derive(Debug)]
pub struct Inputs {
    /// The sets directory, loaded.
    pub loaded: Loaded,
    /// Where the scores were read from.
    pub scores_path: Option<PathBuf>,
    /// The scores, checked against the manifest.
    pub scores: Option<Scores>,
    /// The annotators' tally, when given.
    pub tally: Option<TallyReport>,
    /// The MQM judgements and where they were read from, when there are any.
    pub mqm: Option<(PathBuf, MqmReport)>,
    /// The per-line reordering file read and its measures.
    pub measures: Option<(PathBuf, Vec<Measure>)>,
    /// The parse cache's record of the trees.
    pub parse: Option<ldd_parse::CacheManifest>,
    /// Every non-empty set's sample, its lines read.
    pub sampled: Vec<SampledLines>,
    /// Each system's output lines for the sampled ids (`None`: not shown).
    pub outputs: Vec<Option<BTreeMap<u32, String>>>,
    /// Every judged locus, when the scores name the file.
    pub loci: Option<Vec<LocusItem>>,
    /// Why a file read here is not shown.
    pub notes: Vec<String>,
}

/// The scores file (`scores`, or `SETS/scores.json` when it exists) and its scores,
/// checked against the manifest.
fn read_scores_given(
    loaded: &Loaded,
    scores: Option<&Path>,
) -> Result<(Option<PathBuf>, Option<Scores>)> {
    let scores_path = match scores {
        Some(p) => Some(p.to_path_buf()),
        None => Some(loaded.dir.join(crate::layout::SCORES_JSON)).filter(|p| p.is_file()),
    };
    let scores = match &scores_path {
        Some(p) => Some(read_scores(p, &loaded.manifest)?),
        None => None,
    };
    Ok((scores_path, scores))
}

/// The MQM judgements (`mqm`, or `SETS/mqm.json` when it exists) and where they were read
/// from.
fn read_mqm(loaded: &Loaded, mqm: Option<&Path>) -> Result<Option<(PathBuf, MqmReport)>> {
    let path = match mqm {
        Some(p) => Some(p.to_path_buf()),
        None => Some(loaded.dir.join(crate::layout::MQM_JSON)).filter(|p| p.is_file()),
    };
    path.map(|path| {
        let report = crate::format::mqm::read_report(&path)?;
        Ok((path, report))
    })
    .transpose()
}

/// The corpus ids of every sample, once each, in order.
fn sampled_ids(samples: &[Sample]) -> Vec<u32> {
    samples
        .iter()
        .flat_map(|sample| sample.ids.iter().copied())
        .collect::<BTreeSet<u32>>()
        .into_iter()
        .collect()
}

/// What to read of each sample: its unit and its positions in order.
fn picks(samples: &[Sample]) -> Vec<Pick> {
    samples
        .iter()
        .map(|sample| {
            let mut positions = sample.positions.clone();
            positions.sort_unstable();
            Pick {
                unit: sample.unit,
                positions,
            }
        })
        .collect()
}

/// Reads everything the report shows about a loaded sets directory: the scores
/// (`scores`, or `SETS/scores.json` when it exists), the reordering measures, `per_set`
/// example lines a set with each system's output, the parse record, the annotators'
/// `tally` when given, and the MQM judgements (`mqm`, or `SETS/mqm.json` when it exists).
pub fn read(
    loaded: Loaded,
    scores: Option<&Path>,
    per_set: usize,
    tally: Option<&Path>,
    mqm: Option<&Path>,
    given: &[(String, PathBuf)],
) -> Result<Inputs> {
    let (scores_path, scores) = read_scores_given(&loaded, scores)?;
    let tally = tally.map(crate::format::sheet::read_tally).transpose()?;
    let mqm = read_mqm(&loaded, mqm)?;
    let parse = parse_record(&loaded.manifest);
    let mut notes = Vec::new();
    // The sample first, then everything shown of it read in one step.
    let samples = sample(&loaded, per_set);
    let ids = sampled_ids(&samples);
    let slots = output_slots(scores.as_ref(), given)?;
    let wanted: Vec<Output> = slots
        .iter()
        .filter_map(|slot| match slot {
            Slot::Read(path, sha256) => Some(Output { path, sha256 }),
            _ => None,
        })
        .collect();
    let shown = crate::pipeline::read::shown::read(&loaded, &picks(&samples), &ids, &wanted)?;
    let measures = shown.measures;
    let sampled = samples
        .into_iter()
        .zip(shown.lines)
        .map(|(sample, (source, target))| SampledLines {
            set: loaded.units[sample.unit].set.clone(),
            positions: sample.positions,
            ids: sample.ids,
            source,
            target,
        })
        .collect();
    let outputs = outputs(
        scores.as_ref(),
        &slots,
        shown.outputs,
        &ids,
        loaded.manifest.corpus.lines,
        &mut notes,
    );
    let loci = match (&scores_path, &scores) {
        (Some(path), Some(scores)) => loci(path, scores, &loaded.manifest, &mut notes)?,
        _ => None,
    };
    Ok(Inputs {
        loaded,
        scores_path,
        scores,
        tally,
        mqm,
        measures,
        parse,
        sampled,
        outputs,
        loci,
        notes,
    })
}

/// Largest `scores.json` read: 256 MiB.
const MAX_SCORES_BYTES: u64 = 256 << 20;

/// Reads `scores.json` at `path` and checks it against the manifest of the sets: same
/// corpus size, every set row naming a set of the manifest with its sentence count, every row's system
/// listed. Errors name the file (and the line, for JSON errors).
fn read_scores(path: &Path, manifest: &Manifest) -> Result<Scores> {
    let text = ldd_io::read_text(path, MAX_SCORES_BYTES)?;
    let s: Scores = serde_json::from_str(&text).map_err(|e| {
        Error::input(
            path,
            e.line() as u64,
            format!("not an ldd-sets scores.json: {e}"),
        )
    })?;
    let shown = ldd_io::error::shown(path);
    for sys in &s.systems {
        crate::score::check_name(&sys.name).map_err(|e| Error::Data(format!("{shown}: {e}")))?;
    }
    if s.corpus_lines != manifest.corpus.lines {
        return Err(Error::Data(format!(
            "{shown}: scores a corpus of {} lines but the sets' corpus has {} lines; \
                 re-run `ldd-sets score` on these sets",
            s.corpus_lines, manifest.corpus.lines
        )));
    }
    for r in &s.rows {
        if !s.systems.iter().any(|x| x.name == r.system) {
            return Err(Error::Data(format!(
                "{shown}: a row names system `{}`, which is not in `systems`",
                ldd_io::error::quote(&r.system, 100)
            )));
        }
        let finite = [r.score, r.control_mean, r.control_sd, r.ci_low, r.ci_high]
            .iter()
            .flatten()
            .chain(&r.control_scores)
            .all(|v| v.is_finite());
        if !finite {
            return Err(Error::Data(format!(
                "{shown}: a score of {}/{} is not a finite number",
                ldd_io::error::quote(&r.phenomenon, 100),
                ldd_io::error::quote(&r.bucket, 100)
            )));
        }
        if !r.is_set() {
            continue;
        }
        match manifest.set(&r.phenomenon, &r.bucket) {
            Some(set) if set.sentences == r.sentences => {}
            Some(set) => {
                return Err(Error::Data(format!(
                    "{shown}: set {}/{} has {} sentences there but {} in the manifest; \
                         the sets changed after scoring: re-run `ldd-sets score`",
                    r.phenomenon, r.bucket, r.sentences, set.sentences
                )))
            }
            None => {
                return Err(Error::Data(format!(
                    "{shown}: set `{}/{}` is not in the manifest; these scores are of other \
                         sets: re-run `ldd-sets score`",
                    ldd_io::error::quote(&r.phenomenon, 100),
                    ldd_io::error::quote(&r.bucket, 100)
                )))
            }
        }
    }
    Ok(s)
}

/// The parse cache's record `K.json` beside the trees `K.conllu.gz` that `extract` read,
/// when the source was parsed by ldd-sets: it names the UDPipe model. `None` for trees given
/// with `--conllu`, or a record that does not match the manifest's checksums.
fn parse_record(manifest: &Manifest) -> Option<ldd_parse::CacheManifest> {
    let trees = &manifest.inputs.conllu.path;
    let name = trees.file_name()?.to_str()?;
    let key = name.strip_suffix(".conllu.gz")?;
    let text = ldd_io::read_text(&trees.with_file_name(format!("{key}.json")), 1 << 20).ok()?;
    let rec: ldd_parse::CacheManifest = serde_json::from_str(&text).ok()?;
    (rec.conllu_gz_sha256 == manifest.inputs.conllu.sha256
        && rec.corpus_sha256 == manifest.inputs.source.sha256)
        .then_some(rec)
}

/// One set's sample: its unit, the sampled positions (1-based, in sample order) and
/// their corpus ids.
struct Sample {
    unit: usize,
    positions: Vec<u32>,
    ids: Vec<u32>,
}

/// The sample of every non-empty set of a loaded sets directory, `per_set` lines a set.
fn sample(loaded: &Loaded, per_set: usize) -> Vec<Sample> {
    let mut out = Vec::new();
    for (unit, u) in loaded.units.iter().enumerate() {
        if u.ids.is_empty() || per_set == 0 {
            continue;
        }
        let positions = sample_positions(&u.set, &u.ids, per_set);
        let ids = positions.iter().map(|&p| u.ids[p as usize - 1]).collect();
        out.push(Sample {
            unit,
            positions,
            ids,
        });
    }
    out
}

/// What becomes of a system's output: read (its path as scores.json names it and the
/// SHA-256 scored), or not shown (with the note saying why, if any).
enum Slot<'a> {
    Read(&'a Path, &'a str),
    NotShown(Option<String>),
}

/// Which systems' outputs are read for the examples, in the systems' order: each from the
/// file `outputs` gives for its name (`report --hyp NAME=FILE`), else from the one
/// scores.json names. A name of `outputs` that is no system's is an error.
fn output_slots<'a>(
    scores: Option<&'a Scores>,
    outputs: &'a [(String, PathBuf)],
) -> Result<Vec<Slot<'a>>> {
    let known: Vec<&str> = scores.map_or_else(Vec::new, |s| {
        s.systems.iter().map(|x| x.name.as_str()).collect()
    });
    if let Some((name, _)) = outputs.iter().find(|(n, _)| !known.contains(&n.as_str())) {
        return Err(Error::Config(format!(
            "--hyp {name}: the scores name no system `{name}` (they have: {}); name each \
             output as it was scored",
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        )));
    }
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
        return Ok(scores
            .systems
            .iter()
            .map(|_| Slot::NotShown(None))
            .collect());
    }
    let mut out = Vec::new();
    for sys in &scores.systems {
        let given = outputs.iter().find(|(n, _)| *n == sys.name).map(|(_, p)| p);
        let Some(path) = given.or(sys.path.as_ref()) else {
            out.push(Slot::NotShown(Some(format!(
                "system {}: scores.json does not name its output file",
                sys.name
            ))));
            continue;
        };
        if ldd_io::is_stdin(path) {
            out.push(Slot::NotShown(Some(format!(
                "system {0}: scored from standard input; its examples show – (give its file: \
                 report --hyp {0}=FILE)",
                sys.name
            ))));
            continue;
        }
        if !path.is_file() {
            out.push(Slot::NotShown(Some(format!(
                "system {0}: output {1} not found (paths are as given to `score`, relative to \
                 the directory it ran in; or give it: report --hyp {0}=FILE); its examples \
                 show –",
                sys.name,
                ldd_io::error::shown(path)
            ))));
            continue;
        }
        match &sys.sha256 {
            Some(sha) => out.push(Slot::Read(path, sha)),
            None => out.push(Slot::NotShown(Some(not_scored(
                &sys.name,
                path,
                "scores.json records no checksum: score again",
            )))),
        }
    }
    Ok(out)
}

/// The note on a system's output that is not the file scored.
fn not_scored(system: &str, path: &Path, why: &str) -> String {
    format!(
        "system {system}: {} is not the file scored ({why}); its examples show –",
        ldd_io::error::shown(path)
    )
}

/// Every system's output lines (by corpus id) for the lines in `ids`, from what was read
/// of the outputs in `slots`; `None` for a system whose file is missing, not the one
/// scored or has the wrong line count, with a note saying why.
fn outputs(
    scores: Option<&Scores>,
    slots: &[Slot],
    read: Vec<OutputLines>,
    ids: &[u32],
    corpus_lines: u64,
    notes: &mut Vec<String>,
) -> Vec<Option<BTreeMap<u32, String>>> {
    let Some(scores) = scores else {
        return Vec::new();
    };
    let mut read = read.into_iter();
    let mut out = Vec::new();
    for (sys, slot) in scores.systems.iter().zip(slots) {
        let (path, lines) = match slot {
            Slot::NotShown(note) => {
                notes.extend(note.clone());
                out.push(None);
                continue;
            }
            Slot::Read(path, _) => (path, read.next()),
        };
        match lines {
            Some(OutputLines::Lines(lines, n)) if n == corpus_lines => {
                out.push(Some(ids.iter().copied().zip(lines).collect()));
            }
            Some(OutputLines::Lines(_, n)) => {
                notes.push(format!(
                    "system {}: {} has {n} lines, not the corpus's {corpus_lines}: it changed \
                     after scoring; its examples show –",
                    sys.name,
                    ldd_io::error::shown(path)
                ));
                out.push(None);
            }
            _ => {
                notes.push(not_scored(
                    &sys.name,
                    path,
                    "its SHA-256 differs from the one recorded in scores.json",
                ));
                out.push(None);
            }
        }
    }
    out
}

/// Largest judgements file the report reads: 1 GiB (the page shows every row).
const MAX_LOCI_BYTES: u64 = 1 << 30;

/// The file of judged loci that scores.json at `scores_path` names: a bare file name
/// beside it (scores.json must not name any other file).
fn loci_path(scores_path: &Path, record: &LociFile) -> Result<PathBuf> {
    let plain = Path::new(&record.file)
        .file_name()
        .is_some_and(|n| n == record.file.as_str())
        && !record.file.starts_with('.');
    if !plain {
        return Err(Error::Data(format!(
            "{}: `loci.file` must be a file name beside it, not `{}`",
            ldd_io::error::shown(scores_path),
            ldd_io::error::quote(&record.file, 100)
        )));
    }
    Ok(scores_path
        .parent()
        .unwrap_or(Path::new("."))
        .join(&record.file))
}

/// Why the judged loci at `path` are not shown (missing, too large, or not the file
/// scored: its SHA-256, checked before anything is parsed); `None` when they are.
fn loci_not_shown(path: &Path, record: &LociFile) -> Result<Option<String>> {
    match path.metadata().map(|m| m.len()) {
        Err(_) => {
            return Ok(Some(format!(
                "{} not found: the locus items are not shown",
                ldd_io::error::shown(path)
            )))
        }
        Ok(n) if n > MAX_LOCI_BYTES => {
            return Ok(Some(format!(
                "{} is larger than {} GiB: the locus items are not shown",
                ldd_io::error::shown(path),
                MAX_LOCI_BYTES >> 30
            )))
        }
        Ok(_) => {}
    }
    if ldd_io::sha256_file(path)?.0 != record.sha256 {
        return Ok(Some(format!(
            "{} changed after scoring (its SHA-256 is not the one scores.json records): the \
             locus items are not shown",
            ldd_io::error::shown(path)
        )));
    }
    Ok(None)
}

/// Every locus judged by `score --metrics locus` (`scores.loci.tsv`, named by scores.json
/// at `scores_path`), grouped per locus with one row per system. `None`, with a note
/// saying why, when the scores name no such file, or when it is missing or changed
/// since scoring (its SHA-256, checked before a row is read). A file with more rows than
/// the sets of `manifest` have loci (for every system) is refused as it is read: memory
/// stays bounded by the sets, whatever the file claims.
fn loci(
    scores_path: &Path,
    scores: &Scores,
    manifest: &Manifest,
    notes: &mut Vec<String>,
) -> Result<Option<Vec<LocusItem>>> {
    let Some(record) = &scores.loci else {
        return Ok(None);
    };
    let path = loci_path(scores_path, record)?;
    if let Some(note) = loci_not_shown(&path, record)? {
        notes.push(note);
        return Ok(None);
    }
    let systems = locus_systems(scores);
    let loci: u64 = manifest.sets.iter().map(|s| s.pairs.max(s.sentences)).sum();
    let mut groups = LocusGroups {
        path: &path,
        systems: &systems,
        loci,
        max_rows: loci.saturating_mul(systems.len() as u64),
        rows: 0,
        items: Vec::new(),
    };
    let mut input = Input::open(&path)?;
    let mut last = 1u64;
    let read = judged::for_each_row(&mut input, &path, |row, line| {
        last = line;
        groups.add(row, line)
    });
    // Read as it was hashed (not changed in between).
    if input.finish()?.sha256 != record.sha256 {
        notes.push(format!(
            "{} changed while it was read: the locus items are not shown",
            ldd_io::error::shown(&path)
        ));
        return Ok(None);
    }
    read?;
    let items = groups.items;
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
mod loci_tests {
    use super::*;

    /// scores.json names its loci file by a bare name beside it; any path, `..` or
    /// hidden name is refused.
    #[test]
    fn loci_file_beside_scores_only() {
        let record = |file: &str| LociFile {
            file: file.into(),
            sha256: String::new(),
            rows: 0,
        };
        let scores = Path::new("out/scores.json");
        assert_eq!(
            loci_path(scores, &record("scores.loci.tsv")).unwrap(),
            Path::new("out/scores.loci.tsv")
        );
        for bad in ["../x.tsv", "sub/x.tsv", "/etc/passwd", ".hidden", ".."] {
            assert!(loci_path(scores, &record(bad)).is_err(), "{bad}");
        }
    }
}
