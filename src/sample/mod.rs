//! Stage 5, **sample**: length-matched control corpora for every set (Choshen & Abend
//! 2019, §4).
//!
//! What enters: a set's ids, the source length of every corpus line and the
//! [`ControlOptions`]. What leaves: each control's ids and the manifest record of how they
//! were drawn ([`SetControls`]); the write stage writes their files.
//!
//! For every non-empty set, `K = opts.count` controls of the set's size are
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
//! **Memory.** Sets are processed in [`groups`] holding at most [`IDS_PER_PASS`] drawn
//! ids (a set whose `K × size` alone exceeds it forms its own group). Per group the
//! corpus source and target files are read once, in a single streaming pass, keeping
//! only the lines of the union of the group's drawn ids; then every control file is
//! written sequentially (one file open at a time). So memory is bounded by
//! `4 B × max(IDS_PER_PASS, K × largest set)` for the ids plus the text of at most
//! that many distinct corpus line pairs (and never more than the whole corpus), plus
//! one `Vec<u32>` of lengths per sampling thread; the corpus is re-read
//! `ceil(total drawn ids / IDS_PER_PASS)` times (once for typical corpora).

use std::ops::Range;

pub use ldd_eval::ControlOptions;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::layout;

/// At most this many drawn ids (over all controls of a group of sets) are held in
/// memory at once; see the module docs.
pub const IDS_PER_PASS: usize = 1 << 20;

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

impl ControlStatus {
    /// The name used in the manifest and in score outputs.
    pub fn name(self) -> &'static str {
        match self {
            ControlStatus::Written => "written",
            ControlStatus::EmptySet => "empty_set",
            ControlStatus::PoolTooSmall => "pool_too_small",
        }
    }
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
    /// The files of each control written, in control order (absent in manifests written
    /// before they were recorded: then [`ControlFiles::new`] of the prefix).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<ControlFiles>,
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

/// The files of one control, relative to the output directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ControlFiles {
    /// Its corpus line ids, ascending.
    pub ids: String,
    /// Its source lines.
    pub source: String,
    /// Its target lines.
    pub target: String,
}

impl ControlFiles {
    /// The files of control `k` (1-based) of the set whose controls have `prefix`, for the
    /// languages `(source, target)`.
    pub fn new(prefix: &str, k: usize, langs: (&str, &str)) -> ControlFiles {
        ControlFiles {
            ids: layout::control_file(prefix, k, layout::IDS),
            source: layout::control_file(prefix, k, langs.0),
            target: layout::control_file(prefix, k, langs.1),
        }
    }
}

impl SetControls {
    /// The ids file of control `k` (1-based): as recorded, or by the layout for manifests
    /// that record none.
    pub fn ids_file(&self, k: usize) -> String {
        match self.files.get(k.wrapping_sub(1)) {
            Some(f) => f.ids.clone(),
            None => layout::control_file(&self.prefix, k, layout::IDS),
        }
    }
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

/// One set's sampling outcome.
#[derive(Debug)]
pub struct Sampled {
    /// The manifest record.
    pub entry: SetControls,
    /// Each control's ids, ascending.
    pub controls: Vec<Vec<u32>>,
}

/// Draws the controls of set `phenomenon/bucket` with ids `ids` (1-based, strictly
/// ascending) from a corpus whose line `i + 1` has source length `lengths[i]` (0: empty,
/// never drawn).
pub fn sample_set(
    phenomenon: &str,
    bucket: &str,
    ids: &[u32],
    lengths: &[u32],
    opts: &ControlOptions,
) -> Result<Sampled> {
    let seed = stream_seed(opts.seed, phenomenon, bucket);
    let mut entry = SetControls {
        phenomenon: phenomenon.to_string(),
        bucket: bucket.to_string(),
        status: ControlStatus::Written,
        note: None,
        sentences: ids.len() as u64,
        count: 0,
        seed: opts.seed,
        stream_seed: seed,
        tolerance: opts.tolerance,
        include_set: opts.allow_set_members,
        prefix: layout::control_prefix(phenomenon, bucket),
        files: Vec::new(),
        set_lengths: String::new(),
        control_lengths: Vec::new(),
        shortfall_total: 0,
        shortfalls: Vec::new(),
    };
    if ids.is_empty() {
        entry.status = ControlStatus::EmptySet;
        return Ok(Sampled {
            entry,
            controls: Vec::new(),
        });
    }
    let eval_opts = ControlOptions { seed, ..*opts };
    let internal = |e: ldd_eval::EvalError| {
        Error::Data(format!("{phenomenon}/{bucket}: control sampling: {e}"))
    };
    entry.set_lengths =
        compact_histogram(&ldd_eval::controls::length_histogram(lengths, ids).map_err(internal)?);
    let c = match ldd_eval::sample_controls(lengths, ids, &eval_opts) {
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

/// Splits sets of the given sizes into consecutive groups holding at most
/// [`IDS_PER_PASS`] drawn ids each (`count` controls per set); a set that alone exceeds it
/// forms its own group.
pub fn groups(sizes: &[u64], count: usize) -> Vec<Range<usize>> {
    let mut groups = Vec::new();
    let mut start = 0;
    let mut held = 0usize;
    for (i, &size) in sizes.iter().enumerate() {
        let n = (size as usize).saturating_mul(count);
        if i > start && held.saturating_add(n) > IDS_PER_PASS {
            groups.push(start..i);
            start = i;
            held = 0;
        }
        held = held.saturating_add(n);
    }
    if start < sizes.len() {
        groups.push(start..sizes.len());
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Control files are read as the manifest records them, and by the layout from
    /// manifests that record none.
    #[test]
    fn control_ids_file_is_the_recorded_one_or_the_layout_one() {
        let json = r#"{"phenomenon": "p", "bucket": "ge1", "status": "written",
            "sentences": 1, "count": 2, "seed": 0, "stream_seed": 0, "tolerance": 1,
            "include_set": false, "prefix": "p/controls/ge1", "set_lengths": "",
            "control_lengths": [], "shortfall_total": 0, "shortfalls": []}"#;
        let mut c: SetControls = serde_json::from_str(json).unwrap();
        assert_eq!(c.ids_file(2), "p/controls/ge1.2.ids");
        c.files = (1..=2)
            .map(|k| ControlFiles::new(&c.prefix, k, ("de", "en")))
            .collect();
        assert_eq!(c.files[0].target, "p/controls/ge1.1.en");
        c.files[1].ids = "elsewhere.ids".into();
        assert_eq!(c.ids_file(2), "elsewhere.ids");
    }

    #[test]
    fn status_names_are_the_serialized_names() {
        for s in [
            ControlStatus::Written,
            ControlStatus::EmptySet,
            ControlStatus::PoolTooSmall,
        ] {
            assert_eq!(serde_json::to_value(s).unwrap(), s.name());
        }
    }

    #[test]
    fn groups_hold_at_most_ids_per_pass() {
        let sizes = [IDS_PER_PASS as u64 / 20, 10, IDS_PER_PASS as u64, 3, 4];
        let g = groups(&sizes, 10);
        assert_eq!(g, vec![0..2, 2..3, 3..5]);
        assert_eq!(groups(&[], 10), vec![]);
    }
}
