//! Stage **sample**: length-matched control corpora for every set (Choshen & Abend
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
//!
//! In short (what enters → what leaves): a set's ids and the corpus lengths →
//! length-matched controls and their manifest record

use std::ops::Range;

pub use ldd_eval::ControlOptions;

use crate::error::{Error, Result};
use crate::format::options;
use crate::format::sets::{ControlStatus, SetControls, ShortfallEntry};
use crate::layout;

/// At most this many drawn ids (over all controls of a group of sets) are held in
/// memory at once; see the module docs.
pub const IDS_PER_PASS: usize = 1 << 20;

/// The manifest's record of how controls are drawn.
impl From<ControlOptions> for options::Controls {
    fn from(controls: ControlOptions) -> Self {
        options::Controls {
            count: controls.count,
            seed: controls.seed,
            tolerance: controls.tolerance,
            allow_set_members: controls.allow_set_members,
        }
    }
}

impl From<options::Controls> for ControlOptions {
    fn from(record: options::Controls) -> Self {
        ControlOptions {
            count: record.count,
            seed: record.seed,
            tolerance: record.tolerance,
            allow_set_members: record.allow_set_members,
        }
    }
}

/// Formats a `(length, count)` histogram compactly: `"3:1 5:2"`.
pub fn compact_histogram(histogram: &[(u32, u32)]) -> String {
    let parts: Vec<String> = histogram.iter().map(|(l, c)| format!("{l}:{c}")).collect();
    parts.join(" ")
}

/// Parses a histogram written by [`compact_histogram`].
pub fn parse_histogram(text: &str) -> Option<Vec<(u32, u32)>> {
    text.split_whitespace()
        .map(|p| {
            let (l, c) = p.split_once(':')?;
            Some((l.parse().ok()?, c.parse().ok()?))
        })
        .collect()
}

/// FNV-1a 64 of a string (stable across platforms and versions).
fn fnv1a64(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The seed set `phenomenon/bucket` is sampled with.
pub fn stream_seed(seed: u64, phenomenon: &str, bucket: &str) -> u64 {
    ldd_eval::rng::mix64(seed ^ fnv1a64(&format!("{phenomenon}/{bucket}")))
}

/// The `count` items whose `key`s hash lowest in the stream `phenomenon/bucket` of `seed`
/// (`splitmix64(stream_seed ^ key)`, [`stream_seed`]), in that order, ties in the order
/// given: the same sample every time, a shorter sample the start of a longer one, and
/// much the same lines for two sets that share most of theirs (the report's examples, the
/// annotation sheets' loci).
pub fn first_by_hash<T>(
    items: impl IntoIterator<Item = T>,
    seed: u64,
    (phenomenon, bucket): (&str, &str),
    key: impl Fn(&T) -> u64,
    count: usize,
) -> Vec<T> {
    let seed = stream_seed(seed, phenomenon, bucket);
    let mut keyed: Vec<(u64, T)> = items
        .into_iter()
        .map(|t| (ldd_eval::rng::splitmix64(seed ^ key(&t)), t))
        .collect();
    keyed.sort_by_key(|(h, _)| *h);
    keyed.truncate(count);
    keyed.into_iter().map(|(_, t)| t).collect()
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

    #[test]
    fn groups_hold_at_most_ids_per_pass() {
        let sizes = [IDS_PER_PASS as u64 / 20, 10, IDS_PER_PASS as u64, 3, 4];
        let g = groups(&sizes, 10);
        assert_eq!(g, vec![0..2, 2..3, 3..5]);
        assert_eq!(groups(&[], 10), Vec::<std::ops::Range<usize>>::new());
    }
}
