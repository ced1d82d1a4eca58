//! The one aligner type: [`Aligner`], trained by an [`AlignerSpec`] (the HMM by agreement or
//! fast_align's model), saved and loaded, and aligning any pairs in a [`Direction`] with
//! links and, for the HMM, posteriors; it reports its progress as [`Event`]s.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::binfmt;
use crate::corpus::Labels;
use crate::error::{AlignError, Result};
use crate::hmm::{self, HmmModel, HmmOptions};
use crate::model::{Model, TrainOptions};
use crate::store::Pairs;
use crate::symmetrize::{symmetrize, Method};
use crate::{Alignment, Link};

/// Where an aligner reports its progress (called from any thread, in order).
pub type Report<'r> = &'r (dyn Fn(Event) + Sync);

/// A [`Report`] that ignores everything.
pub static SILENT: &(dyn Fn(Event) + Sync) = &|_| {};

/// What an aligner reports as it goes: passes over the pairs, their progress, the table.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// Pass `pass` of `passes` (from 1) starts.
    Pass {
        /// This pass.
        pass: u32,
        /// Passes in all (training, or 1 when aligning).
        passes: u32,
        /// What it does.
        stage: Stage,
    },
    /// `done` of the pass's `total` units (pairs read) are through.
    Progress {
        /// Units done.
        done: u64,
        /// Units of the pass.
        total: u64,
    },
    /// The HMM's first pass kept `kept` of the `seen` co-occurring word pairs in its table,
    /// which takes `bytes` of memory.
    Table {
        /// Distinct co-occurring word pairs.
        seen: u64,
        /// Word pairs kept.
        kept: u64,
        /// Bytes of the table.
        bytes: u64,
    },
    /// The pass under way is over.
    PassDone,
}

/// What a pass does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The HMM's first pass: IBM Model 1's first iteration, counting the word pairs.
    Count,
    /// An IBM Model 1 iteration of one direction.
    Ibm1 {
        /// The reverse direction (the target generates the source).
        reverse: bool,
        /// This iteration, from 1.
        iteration: u32,
        /// Iterations in all.
        of: u32,
    },
    /// A joint HMM iteration of both directions.
    Hmm {
        /// This iteration, from 1.
        iteration: u32,
        /// Iterations in all.
        of: u32,
    },
    /// An EM iteration of fast_align's model in one direction.
    FastAlign {
        /// The reverse direction.
        reverse: bool,
        /// This iteration, from 1.
        iteration: u32,
        /// Iterations in all.
        of: u32,
    },
    /// Aligning pairs with a trained model.
    Align,
}

/// Which alignment is given: one direction, or both symmetrised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Source→target model only (every target word linked at most once).
    Forward,
    /// Target→source model only (fast_align `-r`; every source word linked at most once).
    Reverse,
    /// Links both directions agree on: the most precise.
    Intersection,
    /// Links of either direction.
    Union,
    /// grow-diag-final-and symmetrisation (`atools`).
    GrowDiagFinalAnd,
}

impl Direction {
    /// Every direction, in the order `--help` lists them.
    pub const ALL: [Direction; 5] = [
        Direction::Intersection,
        Direction::Reverse,
        Direction::Forward,
        Direction::Union,
        Direction::GrowDiagFinalAnd,
    ];

    /// The name used on the command line and in ldd-sets' manifest.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Forward => "forward",
            Direction::Reverse => "reverse",
            Direction::Intersection => "intersection",
            Direction::Union => "union",
            Direction::GrowDiagFinalAnd => "grow-diag-final-and",
        }
    }

    /// Whether the direction needs the directional model `reverse` (`false`: forward).
    pub fn needs(self, reverse: bool) -> bool {
        match self {
            Direction::Forward => !reverse,
            Direction::Reverse => reverse,
            _ => true,
        }
    }

    /// The symmetrisation, if both directions are combined.
    fn method(self) -> Option<Method> {
        match self {
            Direction::Forward | Direction::Reverse => None,
            Direction::Intersection => Some(Method::Intersection),
            Direction::Union => Some(Method::Union),
            Direction::GrowDiagFinalAnd => Some(Method::GrowDiagFinalAnd),
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.name())
    }
}

impl FromStr for Direction {
    type Err = String;

    fn from_str(name: &str) -> std::result::Result<Self, String> {
        Direction::ALL
            .into_iter()
            .find(|d| d.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Direction::ALL.iter().map(|d| d.name()).collect();
                format!("`{name}`: expected one of {}", names.join(", "))
            })
    }
}

/// How to train an aligner.
#[derive(Debug, Clone, PartialEq)]
pub enum AlignerSpec {
    /// The HMM by agreement: both directions, trained together.
    Hmm(HmmOptions),
    /// fast_align's model, in the directions `direction` needs (`options.reverse` is
    /// ignored).
    FastAlign {
        /// Its options.
        options: TrainOptions,
        /// The alignment it is trained for.
        direction: Direction,
    },
}

/// One file of a saved aligner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelFile {
    /// The HMM, both directions.
    Hmm,
    /// One direction of fast_align's model.
    FastAlign {
        /// The reverse direction.
        reverse: bool,
    },
}

/// Alignments of pairs, with the confidence of every link when the model has one.
#[derive(Debug, Clone, PartialEq)]
pub struct Aligned {
    /// Sorted `(source, target)` links of every pair, 0-based.
    pub links: Vec<Alignment>,
    /// The HMM's posterior of every link, in the order of `links` (see
    /// [`Aligner::align_each`]); `None` with fast_align's model.
    pub posteriors: Option<Vec<Vec<f64>>>,
}

/// A trained aligner: the HMM by agreement or fast_align's model, with the labels of its
/// two sides (e.g. language codes), saved with it.
#[derive(Debug, Clone)]
pub struct Aligner {
    kind: Kind,
    labels: Labels,
}

#[derive(Debug, Clone)]
enum Kind {
    Hmm(Box<HmmModel>),
    /// Forward and reverse, each present when trained or loaded.
    FastAlign(Box<[Option<Model>; 2]>),
}

impl Aligner {
    /// Trains an aligner on `pairs` (an in-memory [`crate::Corpus`] or a [`crate::PairStore`]).
    /// The HMM streams the pairs once per pass, in memory bounded by its vocabularies and
    /// table; fast_align's model reads them into memory.
    pub fn train<'p>(
        pairs: impl Into<Pairs<'p>>,
        spec: &AlignerSpec,
        report: Report<'_>,
    ) -> Result<Aligner> {
        let pairs = pairs.into();
        let kind = match spec {
            AlignerSpec::Hmm(o) => Kind::Hmm(Box::new(hmm::train(pairs, o, report)?)),
            AlignerSpec::FastAlign { options, direction } => {
                let corpus = pairs.in_memory()?;
                let mut models = [None, None];
                for (slot, reverse) in models.iter_mut().zip([false, true]) {
                    if direction.needs(reverse) {
                        let o = TrainOptions {
                            reverse,
                            ..options.clone()
                        };
                        *slot = Some(Model::train_reporting(&corpus, &o, report)?);
                    }
                }
                Kind::FastAlign(Box::new(models))
            }
        };
        Ok(Aligner {
            kind,
            labels: Labels::default(),
        })
    }

    /// Aligns every pair of `pairs` (which need not be the training pairs) and collects the
    /// links (see [`Aligner::align_each`]).
    pub fn align<'p>(
        &self,
        pairs: impl Into<Pairs<'p>>,
        direction: Direction,
        report: Report<'_>,
    ) -> Result<Aligned> {
        let pairs = pairs.into();
        let mut out = Aligned {
            links: Vec::with_capacity(pairs.len()),
            posteriors: self
                .has_posteriors()
                .then(|| Vec::with_capacity(pairs.len())),
        };
        self.align_each(pairs, direction, report, |_, links, post| {
            out.links.push(links.to_vec());
            if let (Some(all), Some(p)) = (&mut out.posteriors, post) {
                all.push(p.to_vec());
            }
            Ok(())
        })?;
        Ok(out)
    }

    /// Aligns every pair of `pairs` and hands each pair's sorted `(source, target)` links
    /// to `sink` in corpus order, with the HMM's posterior of every link: in one direction,
    /// the link's posterior there; symmetrised, the lower of the two directions' where both
    /// chose the link, else the one that did (0 for a link neither chose, which
    /// grow-diag-final-and never adds). Words the model never saw get
    /// [`crate::UNSEEN_PROB`]. The HMM streams the pairs; fast_align's model reads them
    /// into memory.
    pub fn align_each<'p>(
        &self,
        pairs: impl Into<Pairs<'p>>,
        direction: Direction,
        report: Report<'_>,
        mut sink: impl FnMut(usize, &[Link], Option<&[f64]>) -> Result<()> + Send,
    ) -> Result<()> {
        let pairs = pairs.into();
        report(Event::Pass {
            pass: 1,
            passes: 1,
            stage: Stage::Align,
        });
        match &self.kind {
            Kind::Hmm(m) => m.align_each(pairs, report, |k, p| {
                let (links, post) = combine(direction, &p.forward, &p.reverse, p.lengths);
                sink(k, &links, Some(&post))
            })?,
            Kind::FastAlign(models) => {
                let corpus = pairs.in_memory()?;
                let corpus = corpus.as_ref();
                let dir = |reverse: bool| -> Result<Vec<Alignment>> {
                    match (&models[usize::from(reverse)], direction.needs(reverse)) {
                        (Some(m), true) => Ok(m.align(corpus)),
                        (None, true) => Err(AlignError::Options(format!(
                            "this fast_align aligner has no {} model, which {direction} needs",
                            if reverse { "reverse" } else { "forward" }
                        ))),
                        (_, false) => Ok(Vec::new()),
                    }
                };
                let (fwd, rev) = (dir(false)?, dir(true)?);
                for k in 0..corpus.len() {
                    let links = match direction.method() {
                        None if direction == Direction::Reverse => rev[k].clone(),
                        None => fwd[k].clone(),
                        Some(method) => {
                            let (n, m) = corpus.lengths(k);
                            symmetrize(&fwd[k], &rev[k], n, m, method)
                        }
                    };
                    sink(k, &links, None)?;
                }
            }
        }
        report(Event::PassDone);
        Ok(())
    }

    /// The lexical translation probabilities of a source and a target word, as the model
    /// holds them: `p(target | source)` and `p(source | target)` (the forward and the
    /// reverse direction; fast_align's model only in the directions it has, `None` in the
    /// other). A word the model never saw gets [`crate::UNSEEN_PROB`]. Words are looked up
    /// as given (lowercase them when the model was trained lowercased).
    pub fn lexical(&self, source: &str, target: &str) -> (Option<f64>, Option<f64>) {
        match &self.kind {
            // A word of the vocabulary that no trained pair holds is unknown (as in
            // `HmmModel::align_each`).
            Kind::Hmm(m) => match (m.src_vocab.get(source), m.tgt_vocab.get(target)) {
                (Some(s), Some(t)) if self.knows(source, target) => {
                    let (f, r) = m.table.pair(s, t);
                    (Some(f), Some(r))
                }
                _ => (Some(crate::UNSEEN_PROB), Some(crate::UNSEEN_PROB)),
            },
            Kind::FastAlign(models) => (
                models[0].as_ref().map(|f| f.prob(Some(source), target)),
                models[1].as_ref().map(|r| r.prob(Some(target), source)),
            ),
        }
    }

    /// Whether the model knows both words, so that [`Aligner::lexical`] of the pair is
    /// evidence (a pair of known words that never met has a low probability; an unknown
    /// word has [`crate::UNSEEN_PROB`], which says nothing). fast_align's model: always.
    pub fn knows(&self, source: &str, target: &str) -> bool {
        match &self.kind {
            Kind::Hmm(m) => match (m.src_vocab.get(source), m.tgt_vocab.get(target)) {
                (Some(s), Some(t)) => {
                    (s as usize) + 1 < m.table.row_off.len()
                        && m.table.p_null_rev(s) != crate::UNSEEN_PROB
                        && m.table.p_null_fwd(t) != crate::UNSEEN_PROB
                }
                _ => false,
            },
            Kind::FastAlign(_) => true,
        }
    }

    /// Whether [`Aligner::align_each`] gives posteriors (the HMM does).
    pub fn has_posteriors(&self) -> bool {
        matches!(self.kind, Kind::Hmm(_))
    }

    /// Pairs with more tokens than `max_len` on a side are not trained on later and, with
    /// the HMM, not aligned (fast_align's model aligns them one at a time); not saved.
    pub fn set_max_len(&mut self, max_len: usize) {
        match &mut self.kind {
            Kind::Hmm(m) => m.options.max_len = max_len,
            Kind::FastAlign(models) => {
                for m in models.iter_mut().flatten() {
                    m.set_max_len(max_len);
                }
            }
        }
    }

    /// Records what the source and target sides are (e.g. their language codes); saved
    /// with the model and checked by whoever loads it.
    pub fn set_labels(&mut self, source: &str, target: &str) {
        self.labels = Labels::new(source, target);
    }

    /// The labels of the two sides; `None` when the file did not record them.
    pub fn labels(&self) -> Option<(&str, &str)> {
        self.labels.get()
    }

    /// Number of stored word-pair probabilities (both directions, null words included).
    pub fn num_params(&self) -> usize {
        match &self.kind {
            Kind::Hmm(m) => m.num_params(),
            Kind::FastAlign(models) => models.iter().flatten().map(Model::num_params).sum(),
        }
    }

    /// The files the aligner is saved as.
    pub fn files(&self) -> Vec<ModelFile> {
        match &self.kind {
            Kind::Hmm(_) => vec![ModelFile::Hmm],
            Kind::FastAlign(models) => [false, true]
                .into_iter()
                .filter(|&r| models[usize::from(r)].is_some())
                .map(|reverse| ModelFile::FastAlign { reverse })
                .collect(),
        }
    }

    /// Saves the aligner, every file of [`Aligner::files`] at `path(file)`, all moved into
    /// place together.
    pub fn save(&self, path: impl Fn(ModelFile) -> PathBuf) -> Result<()> {
        ldd_io::AtomicFile::commit_together(self.save_staged(path)?)?;
        Ok(())
    }

    /// [`Aligner::save`] up to the last step: the files are written and complete but not
    /// yet in place (see [`ldd_io::AtomicFile`]).
    pub fn save_staged(
        &self,
        path: impl Fn(ModelFile) -> PathBuf,
    ) -> Result<Vec<ldd_io::AtomicFile>> {
        match &self.kind {
            Kind::Hmm(m) => {
                let mut w = binfmt::Writer::create(&path(ModelFile::Hmm), binfmt::HMM_VERSION)?;
                m.write(&mut w, &self.labels)?;
                Ok(vec![w.finish()?])
            }
            Kind::FastAlign(models) => models
                .iter()
                .zip([false, true])
                .filter_map(|(m, reverse)| {
                    let p = path(ModelFile::FastAlign { reverse });
                    m.as_ref().map(|m| m.save_staged_labelled(&p, &self.labels))
                })
                .collect(),
        }
    }

    /// Loads an aligner saved by [`Aligner::save`]: its HMM file, or one or two files of
    /// fast_align's model. A missing, truncated, corrupt or inconsistent file, a file of
    /// the other kind or of the other direction is an error naming the file.
    pub fn load(files: &[(ModelFile, &Path)]) -> Result<Aligner> {
        let mut labels = None;
        let mut hmm = None;
        let mut fast = [None, None];
        for &(file, path) in files {
            let bytes = std::fs::read(path).map_err(|e| AlignError::io(path, e))?;
            let bad = |reason: String| AlignError::ModelFormat {
                path: path.to_path_buf(),
                reason,
            };
            let (version, mut r) = binfmt::open(&bytes).map_err(bad)?;
            let fast_align = (1..=binfmt::FAST_ALIGN_VERSION).contains(&version);
            let l = match file {
                ModelFile::Hmm => {
                    if fast_align {
                        return Err(bad("a fast_align model, not an HMM model (choose the \
                                        fast_align model type to load it)"
                            .into()));
                    }
                    if !(binfmt::OLD_HMM_VERSION..=binfmt::HMM_VERSION).contains(&version) {
                        return Err(bad(format!(
                            "unsupported format version {version} (expected {} or {})",
                            binfmt::OLD_HMM_VERSION,
                            binfmt::HMM_VERSION
                        )));
                    }
                    let (m, l) = HmmModel::read(&mut r, version).map_err(bad)?;
                    hmm = Some(m);
                    l
                }
                ModelFile::FastAlign { reverse } => {
                    if (binfmt::OLD_HMM_VERSION..=binfmt::HMM_VERSION).contains(&version) {
                        return Err(bad("an HMM model, not fast_align's (choose the HMM \
                                        model type to load it)"
                            .into()));
                    }
                    if !fast_align {
                        return Err(bad(format!(
                            "unsupported format version {version} (expected 1 to {})",
                            binfmt::FAST_ALIGN_VERSION
                        )));
                    }
                    let (m, l) = Model::read(&mut r, version).map_err(bad)?;
                    let name = |r: bool| if r { "reverse" } else { "forward" };
                    if m.options().reverse != reverse {
                        return Err(bad(format!(
                            "a {} model, but the {} model is needed here (the files were \
                             renamed?)",
                            name(m.options().reverse),
                            name(reverse)
                        )));
                    }
                    fast[usize::from(reverse)] = Some(m);
                    l
                }
            };
            if labels
                .as_ref()
                .is_some_and(|old: &Labels| old.get() != l.get())
            {
                return Err(bad("its labels differ from the other file's".into()));
            }
            labels = Some(l);
        }
        let kind = match (hmm, fast) {
            (Some(m), [None, None]) => Kind::Hmm(Box::new(m)),
            (None, models) if models.iter().any(Option::is_some) => {
                Kind::FastAlign(Box::new(models))
            }
            _ => {
                return Err(AlignError::Options(
                    "an aligner is one HMM file or one or two fast_align files".into(),
                ))
            }
        };
        Ok(Aligner {
            kind,
            labels: labels.unwrap_or_default(),
        })
    }
}

/// The links of `direction` from the two directions' links and posteriors, with the
/// posterior of every link (see [`Aligner::align_each`]).
fn combine(
    direction: Direction,
    fwd: &[(Link, f64)],
    rev: &[(Link, f64)],
    (n, m): (usize, usize),
) -> (Alignment, Vec<f64>) {
    let split = |v: &[(Link, f64)]| -> (Alignment, Vec<f64>) { v.iter().copied().unzip() };
    let Some(method) = direction.method() else {
        return split(if direction == Direction::Reverse {
            rev
        } else {
            fwd
        });
    };
    let (fl, rl) = (split(fwd).0, split(rev).0);
    let links = symmetrize(&fl, &rl, n, m, method);
    let of = |v: &[(Link, f64)], l: &Link| v.binary_search_by(|x| x.0.cmp(l)).ok().map(|i| v[i].1);
    let post = links
        .iter()
        .map(|l| match (of(fwd, l), of(rev, l)) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => 0.0,
        })
        .collect();
    (links, post)
}
