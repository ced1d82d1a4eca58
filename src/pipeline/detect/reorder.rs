//! Reordering LDD: sentence pairs whose word alignment reorders words far apart
//! (Choshen & Abend 2019, §4.1; Birch 2011).
//!
//! The alignment comes from [`crate::pipeline::align`]. Every line gets the four measures of
//! [`ldd_align::Reordering`] — `position`, `crossing`, `kendall`, `fuzzy` — and the
//! [`Measure`] chosen by `--reorder-measure` builds the `geK` sets: a pair is in
//! `reorder/geK` when its measure is at least K (K in words for `position` and
//! `crossing`, in percent for `kendall` and `fuzzy`). With `paper_compat`, the released
//! code's criterion builds them instead (see [`ReorderOptions::paper_compat`]).

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;

use ldd_align::{paper_position, Alignment, Corpus, Link, Reordering};

use crate::error::{Error, Result};
use crate::format::options::{self, MeasureSizes};
use crate::pipeline::align::cache::{Obtained, OwnCorpus};
use crate::pipeline::align::{self, AlignOptions, Aligned, CorpusSides};
use crate::pipeline::read::lockstep::CorpusFiles;
use crate::pipeline::read::shard::Shard;

/// The phenomenon name (output directory) of reordering sets.
pub const NAME: &str = crate::layout::REORDER_DIR;

/// A per-sentence reordering measure (see [`ldd_align::Reordering`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// Largest `|i − j|` of a word link (the paper's measure).
    Position,
    /// Largest `d` such that two word links cross with both sides at least `d` apart.
    Crossing,
    /// Normalised Kendall tau distance of the alignment permutation, in percent.
    Kendall,
    /// One minus the fuzzy reordering score (Talbot et al. 2011), in percent.
    Fuzzy,
}

impl Measure {
    /// Every measure, in the order of the `reorder.tsv` columns.
    pub const ALL: [Measure; 4] = [
        Measure::Position,
        Measure::Crossing,
        Measure::Kendall,
        Measure::Fuzzy,
    ];

    /// The measure that builds the sets by default (chosen on the shared corpora, see the
    /// README: no monotone pair in any set, and the lowest bucket a challenge-set-sized
    /// share of each corpus).
    pub const DEFAULT: Measure = Measure::Crossing;

    /// The name on the command line, in the manifest and as the `reorder.tsv` column.
    pub fn name(self) -> &'static str {
        match self {
            Measure::Position => "position",
            Measure::Crossing => "crossing",
            Measure::Kendall => "kendall",
            Measure::Fuzzy => "fuzzy",
        }
    }

    /// The unit of the bucket thresholds.
    pub fn unit(self) -> &'static str {
        match self {
            Measure::Position | Measure::Crossing => "words",
            Measure::Kendall | Measure::Fuzzy => "percent",
        }
    }

    /// The largest meaningful threshold: 100 for a measure in percent (no pair reorders
    /// more than all of it), 1,000 words for the others (`--align-max-tokens`' default).
    pub fn max_threshold(self) -> u32 {
        match self {
            Measure::Position | Measure::Crossing => 1000,
            Measure::Kendall | Measure::Fuzzy => 100,
        }
    }

    /// Refuses thresholds beyond [`Measure::max_threshold`] (a set no line can reach).
    pub fn check_thresholds(self, thresholds: &[u32]) -> Result<(), String> {
        match thresholds.iter().find(|&&k| k > self.max_threshold()) {
            Some(k) => Err(format!(
                "--reorder-buckets {k}: the {self} measure is in {}, at most {}",
                self.unit(),
                self.max_threshold()
            )),
            None => Ok(()),
        }
    }

    /// The default `geK` thresholds of the measure.
    pub fn default_buckets(self) -> &'static [u32] {
        match self {
            Measure::Position => &[5, 10, 15, 20],
            Measure::Crossing => &[7, 9, 11, 13],
            Measure::Kendall => &[15, 20, 25, 30],
            Measure::Fuzzy => &[70, 80, 90, 100],
        }
    }

    /// Whether the measures of a pair reach `threshold` (at least it; undefined never reaches).
    pub fn reaches(self, reordering: &Reordering, threshold: u32) -> bool {
        match self {
            Measure::Position => reordering
                .position
                .is_some_and(|h| h.distance >= threshold as usize),
            Measure::Crossing => reordering
                .crossing
                .is_some_and(|c| c.distance >= threshold as usize),
            Measure::Kendall => reordering
                .kendall
                .is_some_and(|x| x.at_least_percent(threshold)),
            Measure::Fuzzy => reordering
                .fuzzy
                .is_some_and(|x| x.at_least_percent(threshold)),
        }
    }
}

impl fmt::Display for Measure {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.name())
    }
}

impl FromStr for Measure {
    type Err = String;

    fn from_str(name: &str) -> std::result::Result<Self, String> {
        crate::pipeline::align::by_name(&Measure::ALL, Measure::name, name)
    }
}

/// How reordering sets are built.
#[derive(Debug, Clone)]
pub struct ReorderOptions {
    /// The measure that builds the `geK` sets (manifests written before measures existed
    /// used `position`).
    pub measure: Measure,
    /// The paper's released criterion (auto_challenge_sets, `find_reordered_sentences`):
    /// the position measure computed with one link per source word (the last one),
    /// unaligned source words at their own position, tokens that are entirely alphabetic,
    /// and a pair in `geK` when its distance is *strictly greater* than K. Requires
    /// `measure = position`; the released code used fast_align's reverse direction.
    pub paper_compat: bool,
    /// Thresholds of the `geK` sets, in the measure's unit.
    pub buckets: Vec<u32>,
    /// How the corpus is aligned.
    pub align: AlignOptions,
    /// Use these Pharaoh alignments (source word index − target token index, 0-based,
    /// one line per corpus line) instead of aligning.
    pub alignments: Option<PathBuf>,
    /// The aligner, already obtained with `align`'s options (`run` obtains one for all
    /// the corpora of a pair); `None`: obtained (loaded, found in `cache` or trained) for
    /// this corpus.
    pub trained: Option<Arc<Obtained>>,
    /// The aligner cache directory (`None`: trained aligners are not kept).
    pub cache: Option<PathBuf>,
}

impl Default for ReorderOptions {
    fn default() -> Self {
        ReorderOptions {
            measure: Measure::DEFAULT,
            paper_compat: false,
            buckets: Measure::DEFAULT.default_buckets().to_vec(),
            align: AlignOptions::default(),
            alignments: None,
            trained: None,
            cache: None,
        }
    }
}

impl ReorderOptions {
    /// The bucket thresholds, ascending, without repeats.
    pub fn thresholds(&self) -> Vec<u32> {
        let mut b = self.buckets.clone();
        b.sort_unstable();
        b.dedup();
        b
    }

    /// For each threshold of `thresholds`, whether a line with measures `reordering` belongs to its
    /// set (`None`: a line that belongs to none, e.g. an empty one).
    pub fn membership(&self, reordering: Option<&Reordering>, thresholds: &[u32]) -> Vec<bool> {
        thresholds
            .iter()
            .map(|&b| reordering.is_some_and(|r| self.qualifies(r, b)))
            .collect()
    }

    /// Whether a line with measures `reordering` belongs to the set `geK` (`threshold`).
    pub fn qualifies(&self, reordering: &Reordering, threshold: u32) -> bool {
        if self.paper_compat {
            reordering
                .position
                .is_some_and(|h| h.distance > threshold as usize)
        } else {
            self.measure.reaches(reordering, threshold)
        }
    }

    /// The links marked in the set files: the link of the largest position difference for
    /// `position`, the two crossing links for the other measures (the pair that produced
    /// `crossing`; `kendall` and `fuzzy` have no single pair, and a pair with a positive
    /// value always has a crossing).
    pub fn marked_links(&self, reordering: &Reordering) -> Vec<Link> {
        match self.measure {
            Measure::Position => reordering
                .position
                .map(|h| vec![(h.src_index, h.tgt_index)])
                .unwrap_or_default(),
            _ => reordering
                .crossing
                .and_then(|c| c.links)
                .map(|(a, b)| vec![a, b])
                .unwrap_or_default(),
        }
    }

    /// The distance of a reorder set line's locus, in words: the largest position
    /// difference for `position`, the crossing's distance for the other measures.
    pub fn locus_distance(&self, reordering: &Reordering) -> u32 {
        match self.measure {
            Measure::Position => reordering.position.map_or(0, |h| h.distance as u32),
            _ => reordering.crossing.map_or(0, |c| c.distance as u32),
        }
    }

    /// Lines of `measures` in each set of every measure: the chosen measure at these
    /// options' thresholds (and criterion), the others at their default thresholds.
    pub fn sizes(&self, measures: &[Reordering]) -> Vec<MeasureSizes> {
        Measure::ALL
            .into_iter()
            .map(|m| {
                let chosen = m == self.measure;
                let buckets = if chosen {
                    self.thresholds()
                } else {
                    m.default_buckets().to_vec()
                };
                let lines = buckets
                    .iter()
                    .map(|&k| {
                        measures
                            .iter()
                            .filter(|r| {
                                if chosen {
                                    self.qualifies(r, k)
                                } else {
                                    m.reaches(r, k)
                                }
                            })
                            .count() as u64
                    })
                    .collect();
                MeasureSizes {
                    measure: m.into(),
                    builds_sets: chosen,
                    buckets,
                    lines,
                }
            })
            .collect()
    }
}

impl From<Measure> for options::Measure {
    fn from(measure: Measure) -> Self {
        match measure {
            Measure::Position => options::Measure::Position,
            Measure::Crossing => options::Measure::Crossing,
            Measure::Kendall => options::Measure::Kendall,
            Measure::Fuzzy => options::Measure::Fuzzy,
        }
    }
}

impl From<options::Measure> for Measure {
    fn from(record: options::Measure) -> Self {
        match record {
            options::Measure::Position => Measure::Position,
            options::Measure::Crossing => Measure::Crossing,
            options::Measure::Kendall => Measure::Kendall,
            options::Measure::Fuzzy => Measure::Fuzzy,
        }
    }
}

impl From<&ReorderOptions> for options::Reorder {
    fn from(reorder: &ReorderOptions) -> Self {
        options::Reorder {
            measure: reorder.measure.into(),
            paper_compat: reorder.paper_compat,
            buckets: reorder.buckets.clone(),
            align: (&reorder.align).into(),
            alignments: reorder.alignments.clone(),
        }
    }
}

impl From<&options::Reorder> for ReorderOptions {
    fn from(record: &options::Reorder) -> Self {
        ReorderOptions {
            measure: record.measure.into(),
            paper_compat: record.paper_compat,
            buckets: record.buckets.clone(),
            align: (&record.align).into(),
            alignments: record.alignments.clone(),
            trained: None,
            cache: None,
        }
    }
}

/// A shard cannot train the aligner on its lines alone (the shards would align with
/// different models): its reordering sets need a saved model or the whole corpus's
/// alignments.
pub fn check_shard_reorder(shard: Shard, reorder: Option<&ReorderOptions>) -> Result<()> {
    match reorder {
        Some(r) if r.alignments.is_none() && r.align.model.is_none() => {
            Err(Error::Config(format!(
                "--shard {shard}: the reordering sets of a sharded run need one aligner for the \
                 whole corpus: train it once (`ldd-sets align --src S --tgt T --conllu C \
                 --save-model PREFIX`, on the whole corpus or a sample of it) and give every \
                 shard --align-model PREFIX; or give --alignments of the whole corpus; or \
                 --no-reorder"
            )))
        }
        _ => Ok(()),
    }
}

/// What [`align_pairs`] returns: the lines' alignments, and the aligner obtained for them
/// when it was loaded or trained here.
pub type AlignedPairs = (Aligned, Option<Arc<Obtained>>);

/// Aligns the lines read from `corpus` (`pairs[k]` = tokens of its k-th line read) in
/// `langs` with the aligner `reorder` holds (`run`'s), or one obtained here (loaded, from the
/// aligner cache, or trained on the corpus and the training files), which it also returns;
/// or reads their alignments (`--alignments`, of the whole corpus).
pub fn align_pairs(
    pairs: &Corpus,
    reorder: &ReorderOptions,
    corpus: &CorpusFiles,
    langs: (&str, &str),
) -> Result<AlignedPairs> {
    let read = |alignments| Aligned {
        alignments,
        posteriors: None,
        trained_pairs: 0,
        too_long: 0,
    };
    Ok(match &reorder.alignments {
        Some(path) => match &corpus.shard {
            Some(s) => (
                read(align::read_alignments_of(
                    path,
                    pairs,
                    s.lines.first,
                    s.corpus_lines,
                )?),
                None,
            ),
            None => (read(align::read_alignments(path, pairs)?), None),
        },
        None => {
            let own = CorpusSides {
                source: &corpus.source,
                target: &corpus.target,
            };
            let aligner = match &reorder.trained {
                Some(a) => a.clone(),
                None => {
                    let corpus = OwnCorpus {
                        pairs,
                        sides: own,
                        conllu: &corpus.conllu,
                    };
                    let cache = reorder.cache.as_deref();
                    Arc::new(align::cache::obtain(
                        &reorder.align,
                        langs,
                        Some(corpus),
                        cache,
                    )?)
                }
            };
            let aligned = align::align(
                pairs,
                &reorder.align,
                langs,
                Some(own),
                Some(&aligner.trained),
            )?;
            (aligned, Some(aligner))
        }
    })
}

/// The measures of every pair. With `paper_compat`, `position` is the released code's
/// (see [`ReorderOptions::paper_compat`]).
pub fn measure(pairs: &Corpus, alignments: &[Alignment], paper_compat: bool) -> Vec<Reordering> {
    (0..pairs.len())
        .map(|k| {
            let (s, t) = (pairs.src_tokens(k), pairs.tgt_tokens(k));
            let mut r = Reordering::measure(&s, &t, &alignments[k]);
            if paper_compat {
                r.position = paper_position(&s, &t, &alignments[k]);
            }
            r
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{options, Measure};

    /// The manifest records a measure by its command-line name, and reads it back.
    #[test]
    fn measure_names_are_the_recorded_names() {
        for m in Measure::ALL {
            let rec = options::Measure::from(m);
            assert_eq!(serde_json::to_value(rec).unwrap(), m.name());
            assert_eq!(Measure::from(rec), m);
        }
    }
}
