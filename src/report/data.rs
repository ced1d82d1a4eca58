//! What the report shows besides the manifest and the scores, computed from what
//! [`super::inputs::read`] read (no I/O here): the distance of every lexical pair, and a
//! deterministic sample of every set's lines with each system's output.

use std::collections::BTreeMap;

use crate::format::judged::Judged;
use crate::format::manifest::Manifest;
use crate::format::marked::{self, Piece};
use crate::format::sets::{SetEntry, SetKind};

pub use crate::format::manifest::Distances;
pub use crate::format::reorder::Measure;

/// The distance of every pair of every lexical phenomenon that has a `ge0` set, in rule
/// order, as extract recorded them in the manifest (checked against the `ge0` sets' pair
/// counts when it was read). A manifest of an ldd-sets older than that record has none: a
/// note says so, and the report shows no distance distributions (run `extract` again).
pub fn lexical_distances(manifest: &Manifest, notes: &mut Vec<String>) -> Vec<Distances> {
    let lexical = manifest.sets.iter().any(|s| s.kind == SetKind::Lexical);
    if manifest.distances.is_empty() && lexical {
        notes.push(
            "the manifest records no pair distances (it was written by an older ldd-sets): \
             the distance distributions are not shown; run `ldd-sets extract` again to see \
             them"
                .into(),
        );
    }
    manifest
        .distances
        .iter()
        .filter(|d| manifest.ge0(&d.phenomenon).is_some())
        .cloned()
        .collect()
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

/// The sample of a set: `count` 1-based positions ordered by a hash of the line id seeded by
/// the phenomenon (not the bucket), so the same set always shows the same lines, and the
/// lines shown for `ge5` are mostly among those shown for `ge1`.
pub fn sample_positions(set: &SetEntry, ids: &[u32], count: usize) -> Vec<u32> {
    let positions = (1u32..).zip(ids.iter().copied());
    let stream = (set.phenomenon.as_str(), "examples");
    crate::pipeline::sample::first_by_hash(positions, 1, stream, |&(_, id)| u64::from(id), count)
        .into_iter()
        .map(|(p, _)| p)
        .collect()
}

/// The lines of one set's sample, as read: positions (1-based, in sample order), the
/// corpus ids at those positions, and the marked source and the target (marked for
/// reorder sets) by position.
#[derive(Debug, Clone)]
pub struct SampledLines {
    /// The set.
    pub set: SetEntry,
    /// Positions in the set, in sample order.
    pub positions: Vec<u32>,
    /// The corpus id at each position.
    pub ids: Vec<u32>,
    /// The marked source line at each position.
    pub source: BTreeMap<u32, String>,
    /// The target line (marked for reorder sets) at each position.
    pub target: BTreeMap<u32, String>,
}

/// Every set's sample with each system's output (`outputs`: per system, its lines by
/// corpus id; `None` for a system whose output is not shown).
pub fn examples(
    sampled: Vec<SampledLines>,
    outputs: &[Option<BTreeMap<u32, String>>],
) -> Vec<SetExamples> {
    sampled
        .into_iter()
        .map(|mut p| {
            let set = p.set;
            let examples = p
                .positions
                .iter()
                .zip(&p.ids)
                .map(|(pos, &id)| Example {
                    id,
                    source: marked::parse(&p.source.remove(pos).unwrap_or_default()),
                    target: match p.target.remove(pos).unwrap_or_default() {
                        t if set.kind == SetKind::Reorder => marked::parse(&t),
                        t => vec![Piece::Text(t)],
                    },
                    outputs: outputs
                        .iter()
                        .map(|o| o.as_ref().and_then(|o| o.get(&id).cloned()))
                        .collect(),
                })
                .collect();
            SetExamples {
                phenomenon: set.phenomenon,
                bucket: set.bucket,
                sentences: set.sentences,
                examples,
            }
        })
        .collect()
}

/// A locus of the item browser: one row of `scores.loci.tsv` per system, in the order of
/// `scores.json`'s systems (the locus's own fields are the same in each).
#[derive(Debug, Clone)]
pub struct LocusItem {
    /// The rows, one per system.
    pub rows: Vec<Judged>,
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

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
