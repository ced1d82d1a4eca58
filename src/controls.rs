//! Length-matched control corpora for every set (Choshen & Abend 2019, §4).
//!
//! For every non-empty set, `K = opts.controls.count` controls of the set's size are
//! drawn with [`ldd_eval::sample_controls`]: each set sentence gets a partner from the
//! same corpus whose source length (UD words) differs by at most `tolerance` (1);
//! no line repeats within a control; set members are excluded unless
//! `allow_set_members`; empty lines (length 0) are never drawn. When no line within
//! the tolerance is left, the window widens one word at a time and the draw is
//! recorded as a *shortfall* in the manifest. A set larger than the eligible pool
//! gets no controls; the manifest records it with status `pool_too_small`. Empty
//! sets are recorded with status `empty_set`.
//!
//! **Determinism.** Set `phenomenon/bucket` is sampled with the stream seed
//! `mix64(seed ^ fnv1a64("phenomenon/bucket"))` (recorded as `stream_seed`), control
//! `k` with `rng::stream(stream_seed, k-1)`. Sets are sampled in parallel but results
//! are written in set order, so the output is byte-identical for any thread count, and
//! a set's controls do not depend on which other phenomena ran.
//!
//! **Files.** Control `k` (1..=K) of `OUT/<phenomenon>/<bucket>` is
//! `OUT/<phenomenon>/controls/<bucket>.<k>.{ids,<src>,<tgt>}`. Its ids are written in
//! **ascending** corpus order and its sentence files in that same order (like the
//! set's own files). The set-sentence → partner pairing is not stored; it can be
//! recovered up to ties by sorting both sides by length (sorted matching is optimal
//! for a length tolerance).
//!
//! **Memory.** Sets are processed in groups holding at most [`IDS_PER_PASS`] drawn
//! ids (a set whose `K × size` alone exceeds it forms its own group). Per group the
//! corpus source and target files are read once, in a single streaming pass, keeping
//! only the lines of the union of the group's drawn ids; then every control file is
//! written sequentially (one file open at a time). So memory is bounded by
//! `4 B × max(IDS_PER_PASS, K × largest set)` for the ids plus the text of at most
//! that many distinct corpus line pairs (and never more than the whole corpus), plus
//! one `Vec<u32>` of lengths per sampling thread; the corpus is re-read
//! `ceil(total drawn ids / IDS_PER_PASS)` times (once for typical corpora).

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::Path;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::corpus::LineReader;
use crate::error::{Error, Result};
use crate::extract::ExtractOptions;
use crate::manifest::SetEntry;

/// At most this many drawn ids (over all controls of a group of sets) are held in
/// memory at once; see the module docs.
pub const IDS_PER_PASS: usize = 1 << 20;

/// How controls are drawn.
#[derive(Debug, Clone, Serialize)]
pub struct ControlOptions {
    /// Control corpora per set (0 disables controls).
    pub count: usize,
    /// PRNG seed.
    pub seed: u64,
    /// Largest length difference (words) between a set sentence and its partner.
    pub tolerance: u32,
    /// Whether set sentences may be drawn as controls of their own set.
    pub allow_set_members: bool,
}

impl Default for ControlOptions {
    fn default() -> Self {
        ControlOptions {
            count: 10,
            seed: 1,
            tolerance: 1,
            allow_set_members: false,
        }
    }
}

/// What happened to a set's controls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ControlStatus {
    /// `count` controls were written.
    Written,
    /// The set is empty: nothing to match.
    EmptySet,
    /// The eligible pool is smaller than the set: no controls (see `note`).
    PoolTooSmall,
}

/// Out-of-tolerance draws of one control for set sentences of one length.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShortfallEntry {
    /// Control number (1-based).
    pub control: usize,
    /// Length of the set sentences concerned.
    pub set_length: u32,
    /// How many partners fell outside the tolerance.
    pub count: u32,
    /// Partner lengths actually used, compact histogram `"len:count ..."`.
    pub lengths_used: String,
}

/// Controls written for one set (manifest entry).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SetControls {
    /// Phenomenon name.
    pub phenomenon: String,
    /// Bucket name.
    pub bucket: String,
    /// Whether controls were written, and if not why.
    pub status: ControlStatus,
    /// Explanation when no controls were written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Sentences in the set (= in each control).
    pub sentences: u64,
    /// Controls written (0 unless `status` is `written`).
    pub count: usize,
    /// The run's `--seed`.
    pub seed: u64,
    /// The seed this set's controls were drawn with (derived from `seed` and the name).
    pub stream_seed: u64,
    /// Largest allowed length difference in words.
    pub tolerance: u32,
    /// Whether set members could be drawn (`--controls-include-set`).
    pub include_set: bool,
    /// Path prefix of the control files relative to the output directory: control `k`
    /// is `<prefix>.<k>.ids`, `<prefix>.<k>.<src>`, `<prefix>.<k>.<tgt>`.
    pub prefix: String,
    /// Source-length histogram of the set, `"len:count len:count ..."` ascending.
    pub set_lengths: String,
    /// Source-length histogram of each control (same form), in control order.
    pub control_lengths: Vec<String>,
    /// Total out-of-tolerance draws over all controls (0 = every partner within
    /// the tolerance).
    pub shortfall_total: u64,
    /// The out-of-tolerance draws, by control and set length.
    pub shortfalls: Vec<ShortfallEntry>,
}

/// Formats a `(length, count)` histogram compactly: `"3:1 5:2"`.
pub fn compact_histogram(h: &[(u32, u32)]) -> String {
    let parts: Vec<String> = h.iter().map(|(l, c)| format!("{l}:{c}")).collect();
    parts.join(" ")
}

/// Parses a histogram written by [`compact_histogram`].
pub fn parse_histogram(s: &str) -> Option<Vec<(u32, u32)>> {
    s.split_whitespace()
        .map(|p| {
            let (l, c) = p.split_once(':')?;
            Some((l.parse().ok()?, c.parse().ok()?))
        })
        .collect()
}

/// FNV-1a 64 of a string (stable across platforms and versions).
fn fnv1a64(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The seed set `phenomenon/bucket` is sampled with.
pub fn stream_seed(seed: u64, phenomenon: &str, bucket: &str) -> u64 {
    ldd_eval::rng::mix64(seed ^ fnv1a64(&format!("{phenomenon}/{bucket}")))
}

/// Path prefix (relative to the output directory) of a set's control files.
pub fn control_prefix(phenomenon: &str, bucket: &str) -> String {
    format!("{phenomenon}/controls/{bucket}")
}

/// Reads a set's ids file (1-based, ascending).
pub fn read_ids(path: &Path) -> Result<Vec<u32>> {
    let text = fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let mut ids = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let id: u32 = l
            .trim()
            .parse()
            .map_err(|_| Error::input(path, i as u64 + 1, format!("not a line id: `{l}`")))?;
        if id == 0 || ids.last().is_some_and(|&p| p >= id) {
            return Err(Error::input(
                path,
                i as u64 + 1,
                format!("ids must be positive and strictly ascending: `{l}`"),
            ));
        }
        ids.push(id);
    }
    Ok(ids)
}

/// Reads `path` to its end and returns the lines with the given 1-based `ids`
/// (strictly ascending), in that order, and the file's line count. If the file is
/// shorter than the largest id, fewer lines than ids are returned: check the count.
pub fn read_selected(path: &Path, ids: &[u32]) -> Result<(Vec<String>, u64)> {
    let mut r = LineReader::open(path)?;
    let mut out = Vec::with_capacity(ids.len());
    let mut next = ids.iter().peekable();
    let mut no = 0u64;
    while let Some(line) = r.next_line()? {
        no += 1;
        if next.peek().is_some_and(|&&id| u64::from(id) == no) {
            out.push(line.to_string());
            next.next();
        }
    }
    Ok((out, no))
}

/// [`read_selected`], failing if the file lacks some id.
fn read_needed(path: &Path, ids: &[u32]) -> Result<Vec<String>> {
    let (lines, n) = read_selected(path, ids)?;
    if lines.len() < ids.len() {
        return Err(Error::Data(format!(
            "{}: has {n} lines but line {} is needed (did the file change during the run?)",
            path.display(),
            ids[lines.len()]
        )));
    }
    Ok(lines)
}

/// One set's sampling outcome.
struct Sampled {
    entry: SetControls,
    /// Each control's ids, ascending.
    controls: Vec<Vec<u32>>,
}

fn sample_set(
    root: &Path,
    set: &SetEntry,
    lengths: &[u32],
    opts: &crate::controls::ControlOptions,
) -> Result<Sampled> {
    let seed = stream_seed(opts.seed, &set.phenomenon, &set.bucket);
    let mut entry = SetControls {
        phenomenon: set.phenomenon.clone(),
        bucket: set.bucket.clone(),
        status: ControlStatus::Written,
        note: None,
        sentences: set.sentences,
        count: 0,
        seed: opts.seed,
        stream_seed: seed,
        tolerance: opts.tolerance,
        include_set: opts.allow_set_members,
        prefix: control_prefix(&set.phenomenon, &set.bucket),
        set_lengths: String::new(),
        control_lengths: Vec::new(),
        shortfall_total: 0,
        shortfalls: Vec::new(),
    };
    if set.sentences == 0 {
        entry.status = ControlStatus::EmptySet;
        return Ok(Sampled {
            entry,
            controls: Vec::new(),
        });
    }
    let ids_path = root.join(&set.files.ids);
    let ids = read_ids(&ids_path)?;
    let eval_opts = ldd_eval::ControlOptions {
        count: opts.count,
        seed,
        tolerance: opts.tolerance,
        allow_set_members: opts.allow_set_members,
    };
    let internal = |e: ldd_eval::EvalError| {
        Error::Data(format!("{}: control sampling: {e}", ids_path.display()))
    };
    entry.set_lengths =
        compact_histogram(&ldd_eval::controls::length_histogram(lengths, &ids).map_err(internal)?);
    let c = match ldd_eval::sample_controls(lengths, &ids, &eval_opts) {
        Ok(c) => c,
        Err(e @ ldd_eval::EvalError::PoolTooSmall { .. }) => {
            entry.status = ControlStatus::PoolTooSmall;
            entry.note = Some(format!(
                "{e}{}",
                if opts.allow_set_members {
                    ""
                } else {
                    " (set members excluded; --controls-include-set admits them)"
                }
            ));
            return Ok(Sampled {
                entry,
                controls: Vec::new(),
            });
        }
        Err(e) => return Err(internal(e)),
    };
    entry.shortfall_total = c.shortfall_total();
    let mut controls = Vec::with_capacity(c.controls.len());
    for (k, ctl) in c.controls.into_iter().enumerate() {
        entry
            .control_lengths
            .push(compact_histogram(&ctl.histogram));
        for s in &ctl.shortfalls {
            entry.shortfalls.push(ShortfallEntry {
                control: k + 1,
                set_length: s.set_length,
                count: s.count,
                lengths_used: compact_histogram(&s.lengths_used),
            });
        }
        let mut ids = ctl.ids;
        ids.sort_unstable();
        controls.push(ids);
    }
    entry.count = controls.len();
    Ok(Sampled { entry, controls })
}

/// Draws and writes the controls of every set under `root`.
pub fn write_controls(
    root: &Path,
    sets: &[SetEntry],
    lengths: &[u32],
    opts: &ExtractOptions,
) -> Result<Vec<SetControls>> {
    let copts = &opts.controls;
    if copts.count == 0 {
        return Ok(Vec::new());
    }
    if u32::try_from(lengths.len()).is_err() {
        return Err(Error::Data(format!(
            "{}: {} lines; controls support at most {} lines",
            opts.source.display(),
            lengths.len(),
            u32::MAX
        )));
    }
    // Groups of consecutive sets holding at most IDS_PER_PASS drawn ids.
    let mut groups: Vec<std::ops::Range<usize>> = Vec::new();
    let mut start = 0;
    let mut held = 0usize;
    for (i, s) in sets.iter().enumerate() {
        let n = (s.sentences as usize).saturating_mul(copts.count);
        if i > start && held.saturating_add(n) > IDS_PER_PASS {
            groups.push(start..i);
            start = i;
            held = 0;
        }
        held = held.saturating_add(n);
    }
    if start < sets.len() {
        groups.push(start..sets.len());
    }

    let src_ext = &opts.languages.source;
    let tgt_ext = &opts.languages.target;
    let mut entries = Vec::with_capacity(sets.len());
    for g in groups {
        let sampled: Vec<Sampled> = sets[g]
            .par_iter()
            .map(|s| sample_set(root, s, lengths, copts))
            .collect::<Result<_>>()?;
        let mut union: Vec<u32> = sampled
            .iter()
            .flat_map(|s| s.controls.iter().flatten().copied())
            .collect();
        union.sort_unstable();
        union.dedup();
        if !union.is_empty() {
            let src = read_needed(&opts.source, &union)?;
            let tgt = read_needed(&opts.target, &union)?;
            for s in &sampled {
                for (k, ids) in s.controls.iter().enumerate() {
                    let base = format!("{}.{}", s.entry.prefix, k + 1);
                    write_control(root, &base, src_ext, tgt_ext, ids, &union, &src, &tgt)?;
                }
            }
        }
        entries.extend(sampled.into_iter().map(|s| s.entry));
    }
    Ok(entries)
}

/// Writes one control's three files.
#[allow(clippy::too_many_arguments)]
fn write_control(
    root: &Path,
    base: &str,
    src_ext: &str,
    tgt_ext: &str,
    ids: &[u32],
    union: &[u32],
    src: &[String],
    tgt: &[String],
) -> Result<()> {
    let idx: Vec<usize> = ids
        .iter()
        .map(|id| {
            union
                .binary_search(id)
                .map_err(|_| Error::Data(format!("control id {id} missing from the line map")))
        })
        .collect::<Result<_>>()?;
    let write = |rel: String, line: &dyn Fn(usize) -> String| -> Result<()> {
        let path = root.join(rel);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        let res = (|| -> std::io::Result<()> {
            let mut w = BufWriter::with_capacity(1 << 16, File::create(&path)?);
            for j in 0..ids.len() {
                w.write_all(line(j).as_bytes())?;
                w.write_all(b"\n")?;
            }
            w.flush()
        })();
        res.map_err(|e| Error::io(&path, e))
    };
    write(format!("{base}.ids"), &|j| ids[j].to_string())?;
    write(format!("{base}.{src_ext}"), &|j| src[idx[j]].clone())?;
    write(format!("{base}.{tgt_ext}"), &|j| tgt[idx[j]].clone())?;
    Ok(())
}
