//! fast_align's reparameterised IBM Model 2: training (EM), Viterbi alignment, save/load.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use rayon::prelude::*;

use crate::binfmt;
use crate::corpus::{Corpus, Labels, Side, Vocab};
use crate::diag::{digamma, dlog_z_sum, DiagonalPrior};
use crate::error::{AlignError, Result};
use crate::index::{split_by_offsets, with_scratch, CellIndex};
use crate::table::{self, Columns, UNSEEN_PROB};
use crate::Alignment;
use crate::{Event, Report, Stage, SILENT};

/// Pairs over [`TrainOptions::max_len`] are aligned one at a time only up to this many
/// token pairs (`n·m`, about a 31,600-token square: seconds of work); longer ones get an
/// empty alignment.
pub const MAX_LONG_CELLS: usize = 1_000_000_000;

/// Training options. [`Default`] gives fast_align run as `fast_align -d -o -v` (forward).
#[derive(Debug, Clone, PartialEq)]
pub struct TrainOptions {
    /// Number of passes over the corpus (fast_align `-I`, default 5): `iterations - 1` EM
    /// updates followed by the Viterbi pass; the first pass is uniform in the lexical table.
    pub iterations: u32,
    /// Favour alignments near the diagonal (fast_align `-d`, default true).
    pub favor_diagonal: bool,
    /// Optimise the diagonal tension after each EM pass but the first (`-o`, default true).
    pub optimize_tension: bool,
    /// Variational-Bayes M-step with a symmetric Dirichlet prior (`-v`, default true).
    pub variational_bayes: bool,
    /// Dirichlet concentration of the VB M-step (`-a`, default 0.01).
    pub alpha: f64,
    /// Probability of aligning to the null word (`-p`/`-q`, default 0.08).
    pub prob_align_null: f64,
    /// Initial diagonal tension lambda (`-T`, default 4.0).
    pub initial_tension: f64,
    /// Reverse direction (`-r`): condition on the target side and align every source word.
    /// Alignments are reported in source-target order whatever the direction.
    pub reverse: bool,
    /// Worker threads; `None` uses the current rayon pool. Results do not depend on it.
    pub threads: Option<usize>,
    /// Pairs with more tokens than this on either side are left out of training (fast_align
    /// users cap lengths before training the same way) and are aligned afterwards by the
    /// trained model one at a time, in memory linear in their length; pairs of more than
    /// [`MAX_LONG_CELLS`] token pairs get an empty alignment. Training memory grows with the
    /// product of the two lengths of every pair, so this bounds what one pair can take. Not
    /// stored in saved models: set it again with [`Model::set_max_len`].
    pub max_len: usize,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            iterations: 5,
            favor_diagonal: true,
            optimize_tension: true,
            variational_bayes: true,
            alpha: 0.01,
            prob_align_null: 0.08,
            initial_tension: 4.0,
            reverse: false,
            threads: None,
            max_len: usize::MAX,
        }
    }
}

impl TrainOptions {
    fn validate(&self) -> Result<()> {
        if self.iterations == 0 {
            return Err(AlignError::Options("iterations must be >= 1".into()));
        }
        if self.variational_bayes && !(self.alpha > 0.0 && self.alpha.is_finite()) {
            return Err(AlignError::Options("alpha must be > 0".into()));
        }
        if !(0.0..1.0).contains(&self.prob_align_null) {
            return Err(AlignError::Options(
                "prob_align_null must be in [0, 1)".into(),
            ));
        }
        if !(self.initial_tension > 0.0 && self.initial_tension.is_finite()) {
            return Err(AlignError::Options("initial_tension must be > 0".into()));
        }
        Ok(())
    }
}

/// A trained lexical table and diagonal tension.
///
/// The table is stored compactly, column by column: for every generated word, the sorted list
/// of conditioning-word ids (the null word being `conditioning vocabulary size`) it
/// co-occurred with in training, with `p(generated | conditioning)`. Other pairs get
/// [`UNSEEN_PROB`].
#[derive(Debug, Clone)]
pub struct Model {
    options: TrainOptions,
    tension: f64,
    cond_vocab: Vocab,
    gen_vocab: Vocab,
    /// `p(generated | conditioning)`, one column per generated word.
    table: Columns,
}

/// Training-time parameter of one slot: probability and expected count side by side, so that
/// the count update hits the cache line the probability was read from.
#[derive(Clone, Copy)]
struct Param {
    t: f64,
    c: f64,
}

fn run_in_pool<R: Send>(threads: Option<usize>, action: impl FnOnce() -> R + Send) -> Result<R> {
    match threads {
        None | Some(0) => Ok(action()),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| AlignError::Options(format!("cannot start {n} threads: {e}")))?;
            Ok(pool.install(action))
        }
    }
}

/// Alignment prior of one sentence pair: diagonal or uniform.
enum Prior {
    Diagonal(DiagonalPrior),
    Uniform(f64),
}

impl Prior {
    fn new(opts: &TrainOptions, tension: f64, gen_len: usize, cond_len: usize) -> Self {
        if opts.favor_diagonal {
            Prior::Diagonal(DiagonalPrior::new(
                gen_len as u32,
                cond_len as u32,
                tension,
                opts.prob_align_null,
            ))
        } else {
            Prior::Uniform(1.0 / (cond_len + 1) as f64)
        }
    }

    /// Fills `out[0..=n]` with the prior of generated position `j1` (1-based).
    #[inline]
    fn fill(&self, j1: usize, out: &mut [f64]) {
        match self {
            Prior::Diagonal(d) => d.fill(j1 as u32, out),
            Prior::Uniform(u) => out.fill(*u),
        }
    }
}

/// Viterbi alignments of a whole corpus given the probability of every slot of its index
/// (`probabilities(g)` returns the probabilities of the slot group of generated word `g`,
/// indexed by rank). Rows are processed group by group (the rows of one generated word read
/// one small contiguous block of probabilities); each generated token's best position goes
/// to its own entry, so the result is independent of scheduling. Ties go to the earliest
/// position, the null word first, as in fast_align. Links are `(source, target)`, sorted.
fn viterbi_corpus<G: std::ops::Index<usize, Output = f64>>(
    view: &Side<'_>,
    index: &CellIndex,
    opts: &TrainOptions,
    tension: f64,
    probabilities: &(impl Fn(usize) -> G + Sync),
) -> Vec<Alignment> {
    let n_tok = view.gen_ids.len();
    let best: Vec<AtomicU32> = (0..n_tok).map(|_| AtomicU32::new(0)).collect();
    (0..index.num_groups())
        .into_par_iter()
        .with_min_len(16)
        .for_each_init(Vec::new, |prior: &mut Vec<f64>, g| {
            let tg = probabilities(g);
            let mut cells = &index.cell_slot[index.cell_off[g]..index.cell_off[g + 1]];
            for &(k, j) in &index.occ[index.occ_off[g]..index.occ_off[g + 1]] {
                let (k, j) = (k as usize, j as usize);
                let (n, m) = (view.cond(k).len(), view.gen(k).len());
                let (row, rest) = cells.split_at(n + 1);
                cells = rest;
                prior.resize(n + 1, 0.0);
                Prior::new(opts, tension, m, n).fill(j + 1, prior);
                let mut b = 0usize;
                let mut best_p = tg[row[0] as usize] * prior[0];
                for i in 1..=n {
                    let p = tg[row[i] as usize] * prior[i];
                    if p > best_p {
                        b = i;
                        best_p = p;
                    }
                }
                best[view.gen_off[k] + j].store(b as u32, Relaxed);
            }
        });
    (0..view.len())
        .into_par_iter()
        .with_min_len(64)
        .map(|k| {
            let mut links: Alignment = Vec::new();
            for (j, b) in best[view.gen_off[k]..view.gen_off[k + 1]]
                .iter()
                .enumerate()
            {
                let b = b.load(Relaxed) as usize;
                if b > 0 {
                    links.push(if opts.reverse { (j, b - 1) } else { (b - 1, j) });
                }
            }
            links.sort_unstable();
            links
        })
        .collect()
}

/// The probabilities of one slot group of the training parameters, indexed by rank.
struct GroupProbs<'p>(&'p [Param]);

impl std::ops::Index<usize> for GroupProbs<'_> {
    type Output = f64;
    #[inline]
    fn index(&self, rank: usize) -> &f64 {
        &self.0[rank].t
    }
}

/// A slice of probabilities, indexed by rank.
struct SliceProbs<'p>(&'p [f64]);

impl std::ops::Index<usize> for SliceProbs<'_> {
    type Output = f64;
    #[inline]
    fn index(&self, rank: usize) -> &f64 {
        &self.0[rank]
    }
}

/// Per-worker buffers of the E-step.
#[derive(Default)]
struct EScratch {
    prior: Vec<f64>,
    probs: Vec<f64>,
}

/// Statistics of an E-step: the sum of alignment features.
#[derive(Clone, Copy, Default)]
struct EStats {
    emp_feat: f64,
}

struct Trainer<'a> {
    view: Side<'a>,
    index: CellIndex,
    params: Vec<Param>,
    tension: f64,
    opts: TrainOptions,
}

impl<'a> Trainer<'a> {
    fn run(corpus: &'a Corpus, opts: &TrainOptions, report: Report<'_>) -> Self {
        let view = corpus.view(opts.reverse);
        let index = CellIndex::build(&view, opts.max_len);
        let params = vec![
            Param {
                t: UNSEEN_PROB,
                c: 0.0
            };
            index.num_slots()
        ];
        let mut tr = Trainer {
            view,
            index,
            params,
            tension: opts.initial_tension,
            opts: opts.clone(),
        };

        // Sentence-length statistics for the tension gradient (sorted: fixed summation order).
        let mut size_map: BTreeMap<(u32, u32), u64> = BTreeMap::new();
        let mut toks = 0.0f64;
        for k in 0..view.len() {
            let (n, m) = (view.cond(k).len(), view.gen(k).len());
            if n > 0 && m > 0 && n <= opts.max_len && m <= opts.max_len {
                *size_map.entry((m as u32, n as u32)).or_insert(0) += 1;
                toks += m as f64;
            }
        }
        let size_counts: Vec<((u32, u32), u64)> = size_map.into_iter().collect();

        // Nothing to learn from a corpus without a non-empty pair.
        let em_passes = if toks > 0.0 { opts.iterations - 1 } else { 0 };
        for iter in 0..em_passes {
            report(Event::Pass {
                pass: iter + 1,
                passes: em_passes,
                stage: Stage::FastAlign {
                    reverse: opts.reverse,
                    iteration: iter + 1,
                    of: em_passes,
                },
            });
            let st = tr.e_step();
            let emp_feat = st.emp_feat / toks;
            if opts.favor_diagonal && opts.optimize_tension && iter > 0 {
                for _ in 0..8 {
                    let lambda = tr.tension;
                    let parts: Vec<f64> = size_counts
                        .par_iter()
                        .with_min_len(16)
                        .map(|&((m, n), cnt)| dlog_z_sum(m, n, lambda, cnt as f64))
                        .collect();
                    let mod_feat = parts.iter().sum::<f64>() / toks;
                    // Gradient step of fast_align, clamped to [0.1, 14].
                    tr.tension = (tr.tension + (emp_feat - mod_feat) * 20.0).clamp(0.1, 14.0);
                }
            }
            tr.m_step();
            report(Event::PassDone);
        }
        tr
    }

    /// One E-step: expected counts into `params[..].c`.
    ///
    /// Work is split by generated word: every cell of the row of generated token (k, j)
    /// belongs to the slot group of that token's word, so the task owning a group is the only
    /// writer of its counts. No atomics are needed, each count is summed in corpus order
    /// (as a sequential fast_align run does), and the group statistics are summed in group
    /// order: results are bit-identical whatever the number of threads.
    fn e_step(&mut self) -> EStats {
        let (view, index, opts, tension) = (&self.view, &self.index, &self.opts, self.tension);
        let groups = split_by_offsets(&mut self.params, &index.group_off);
        let parts: Vec<EStats> = groups
            .into_par_iter()
            .enumerate()
            .with_min_len(16)
            .map_init(EScratch::default, |scratch, (g, params)| {
                e_group(view, index, opts, tension, g, params, scratch)
            })
            .collect();
        parts.iter().fold(EStats::default(), |a, p| EStats {
            emp_feat: a.emp_feat + p.emp_feat,
        })
    }

    /// M-step: probabilities from counts (variational Bayes or maximum likelihood), counts reset.
    fn m_step(&mut self) {
        let slot_cond = &self.index.slot_cond;
        let (vb, alpha) = (self.opts.variational_bayes, self.opts.alpha);
        let prior = if vb { alpha } else { 0.0 };
        // Per conditioning word (row) totals, summed in slot order: a fixed order.
        let mut tot = vec![0.0f64; self.view.cond_vocab.len() + 1];
        for (p, &e) in self.params.iter().zip(slot_cond) {
            tot[e as usize] += p.c + prior;
        }
        for t in &mut tot {
            if *t == 0.0 {
                *t = 1.0;
            }
        }
        if vb {
            let dg: Vec<f64> = tot.iter().map(|&t| digamma(t)).collect();
            let dg_alpha = digamma(alpha);
            self.params
                .par_iter_mut()
                .zip(slot_cond.par_iter())
                .with_min_len(4096)
                .for_each(|(p, &e)| {
                    // Many pairs have a zero count: reuse digamma(alpha).
                    let d = if p.c == 0.0 {
                        dg_alpha
                    } else {
                        digamma(p.c + alpha)
                    };
                    p.t = (d - dg[e as usize]).exp();
                    p.c = 0.0;
                });
        } else {
            self.params
                .par_iter_mut()
                .zip(slot_cond.par_iter())
                .with_min_len(4096)
                .for_each(|(p, &e)| {
                    p.t = p.c / tot[e as usize];
                    p.c = 0.0;
                });
        }
    }

    fn viterbi(&self) -> Vec<Alignment> {
        let off = &self.index.group_off;
        let lookup = |g: usize| GroupProbs(&self.params[off[g]..off[g + 1]]);
        viterbi_corpus(&self.view, &self.index, &self.opts, self.tension, &lookup)
    }

    fn into_model(mut self, corpus: &Corpus) -> Model {
        // The cells are no longer needed: free them before allocating the model's table.
        self.index.cell_slot = Vec::new();
        self.index.occ = Vec::new();
        let view = corpus.view(self.opts.reverse);
        let params = &self.params;
        let table = Columns::from_slots(&self.index.group_off, &self.index.slot_cond, |s| {
            params[s].t
        });
        Model {
            options: self.opts,
            tension: self.tension,
            cond_vocab: view.cond_vocab.clone(),
            gen_vocab: view.gen_vocab.clone(),
            table,
        }
    }
}

/// E-step of the rows of generated word `gen_word`; `params` is its slot group.
fn e_group(
    view: &Side<'_>,
    index: &CellIndex,
    opts: &TrainOptions,
    tension: f64,
    gen_word: usize,
    params: &mut [Param],
    scratch: &mut EScratch,
) -> EStats {
    let mut st = EStats::default();
    let EScratch { prior, probs } = scratch;
    let mut cells = &index.cell_slot[index.cell_off[gen_word]..index.cell_off[gen_word + 1]];
    for &(k, j) in &index.occ[index.occ_off[gen_word]..index.occ_off[gen_word + 1]] {
        let (k, j) = (k as usize, j as usize);
        let (n, m) = (view.cond(k).len(), view.gen(k).len());
        let (row, rest) = cells.split_at(n + 1);
        cells = rest;
        prior.resize(n + 1, 0.0);
        probs.resize(n + 1, 0.0);
        Prior::new(opts, tension, m, n).fill(j + 1, prior);
        let mut sum = 0.0;
        for ((p, &s), &a) in probs.iter_mut().zip(row).zip(prior.iter()) {
            *p = params[s as usize].t * a;
            sum += *p;
        }
        let inv_sum = 1.0 / sum;
        let post0 = probs[0] * inv_sum;
        params[row[0] as usize].c += post0;
        // fast_align uses the 0-based generated position in this feature.
        let (inv_n, jf) = (1.0 / n as f64, j as f64 / m as f64);
        let mut e = 0.0;
        for (i, (&p, &s)) in probs[1..].iter().zip(&row[1..]).enumerate() {
            let post = p * inv_sum;
            params[s as usize].c += post;
            e += ((i + 1) as f64 * inv_n - jf).abs() * post;
        }
        st.emp_feat -= e;
    }
    st
}

impl Model {
    /// Trains a model on `corpus` with `options`.
    ///
    /// Alignment EM holds the whole corpus in memory, plus one `u32` slot id per
    /// (target word, source word + null) cell of every sentence pair and 16 bytes per distinct
    /// co-occurring word pair; no `|V_src| x |V_tgt|` table is ever allocated. The E-step runs
    /// in parallel (rayon); results are bit-identical whatever the number of threads.
    pub fn train(corpus: &Corpus, options: &TrainOptions) -> Result<Model> {
        Model::train_reporting(corpus, options, SILENT)
    }

    /// [`Model::train`], reporting every EM iteration.
    pub(crate) fn train_reporting(
        corpus: &Corpus,
        options: &TrainOptions,
        report: Report<'_>,
    ) -> Result<Model> {
        options.validate()?;
        run_in_pool(options.threads, || {
            Trainer::run(corpus, options, report).into_model(corpus)
        })
    }

    /// Trains on `corpus` and returns the Viterbi alignments of its final pass, exactly as
    /// fast_align does; equal to `Model::train` followed by [`Model::align`] on the same
    /// corpus, but builds the slot index only once.
    pub fn train_and_align(
        corpus: &Corpus,
        options: &TrainOptions,
    ) -> Result<(Model, Vec<Alignment>)> {
        options.validate()?;
        run_in_pool(options.threads, || {
            let tr = Trainer::run(corpus, options, SILENT);
            let al = tr.viterbi();
            (tr.into_model(corpus), al)
        })
    }

    /// Viterbi alignments of every pair of `corpus` (which need not be the training corpus),
    /// as sorted `(source index, target index)` links, 0-based, whatever the direction. Word
    /// pairs not seen in training get [`UNSEEN_PROB`]. Uses the current rayon pool unless the
    /// model's options name a thread count.
    pub fn align(&self, corpus: &Corpus) -> Vec<Alignment> {
        match run_in_pool(self.options.threads, || self.align_inner(corpus)) {
            Ok(a) => a,
            Err(_) => self.align_inner(corpus),
        }
    }

    fn align_inner(&self, corpus: &Corpus) -> Vec<Alignment> {
        let view = corpus.view(self.options.reverse);
        let index = CellIndex::build(&view, self.options.max_len);
        let cond_map = table::cond_map(&self.cond_vocab, &view);
        let t = self.table.slot_probs(
            (&self.cond_vocab, &self.gen_vocab),
            &view,
            &cond_map,
            (&index.group_off, &index.slot_cond),
            UNSEEN_PROB,
        );
        let off = &index.group_off;
        let lookup = |g: usize| SliceProbs(&t[off[g]..off[g + 1]]);
        let mut out = viterbi_corpus(&view, &index, &self.options, self.tension, &lookup);
        drop(t);
        drop(index);
        // Pairs over `max_len` are not in the index: decoded one at a time, with memory
        // linear in their length (the index would need a cell per token pair).
        for (k, links) in out.iter_mut().enumerate() {
            let (n, m) = (view.cond(k).len(), view.gen(k).len());
            let long = n > self.options.max_len || m > self.options.max_len;
            if long && n > 0 && m > 0 && n.saturating_mul(m) <= MAX_LONG_CELLS {
                *links = self.viterbi_long(&view, &cond_map, k);
            }
        }
        out
    }

    /// The Viterbi alignment of pair `index` of `view` alone: the generated tokens are
    /// taken word by word; each word's model column is spread once into a scratch array
    /// over the model's conditioning words, then every position of the pair is scored for
    /// each of the word's tokens. Time `O(n·m)`, memory `O(n + m)` plus the scratch (one
    /// `u32` per model conditioning word). Same scores, ties and links as
    /// [`viterbi_corpus`].
    fn viterbi_long(&self, view: &Side<'_>, cond_map: &[u32], index: usize) -> Alignment {
        let (cond, gen) = (view.cond(index), view.gen(index));
        let (n, m) = (cond.len(), gen.len());
        let model_null = self.cond_vocab.len();
        let conds: Vec<u32> = cond.iter().map(|&e| cond_map[e as usize]).collect();
        let prior_of = Prior::new(&self.options, self.tension, m, n);
        let mut prior = vec![0.0; n + 1];
        let mut order: Vec<u32> = (0..m as u32).collect();
        order.sort_unstable_by_key(|&j| (gen[j as usize], j));
        let mut links: Alignment = Vec::new();
        with_scratch(model_null + 1, |pos| {
            for group in order.chunk_by(|&a, &b| gen[a as usize] == gen[b as usize]) {
                let g = gen[group[0] as usize];
                let (lo, hi) = match self.gen_vocab.get(view.gen_vocab.word(g)) {
                    Some(mg) => (
                        self.table.col_off[mg as usize],
                        self.table.col_off[mg as usize + 1],
                    ),
                    None => (0, 0),
                };
                for p in lo..hi {
                    pos[self.table.conds[p] as usize] = p as u32;
                }
                let t = |em: u32| -> f64 {
                    match pos.get(em as usize) {
                        Some(&p) if p != u32::MAX => self.table.probs[p as usize],
                        _ => UNSEEN_PROB,
                    }
                };
                let null_t = t(model_null as u32);
                for &j in group {
                    let j = j as usize;
                    prior_of.fill(j + 1, &mut prior);
                    let mut b = 0usize;
                    let mut best_p = null_t * prior[0];
                    for (i, &em) in conds.iter().enumerate() {
                        let p = t(em) * prior[i + 1];
                        if p > best_p {
                            b = i + 1;
                            best_p = p;
                        }
                    }
                    if b > 0 {
                        links.push(if self.options.reverse {
                            (j, b - 1)
                        } else {
                            (b - 1, j)
                        });
                    }
                }
                for p in lo..hi {
                    pos[self.table.conds[p] as usize] = u32::MAX;
                }
            }
        });
        links.sort_unstable();
        links
    }

    /// Options the model was trained with.
    pub fn options(&self) -> &TrainOptions {
        &self.options
    }

    /// Leaves pairs with more than `max_len` tokens on a side unaligned (see
    /// [`TrainOptions::max_len`]).
    pub fn set_max_len(&mut self, max_len: usize) {
        self.options.max_len = max_len;
    }

    /// Final diagonal tension.
    pub fn tension(&self) -> f64 {
        self.tension
    }

    /// Number of stored word-pair probabilities (null pairs included).
    pub fn num_params(&self) -> usize {
        self.table.probs.len()
    }

    /// `p(generated | conditioning)` for two words; `None` as `conditioning` is the null word.
    /// In the forward direction the conditioning word is a source word and the generated word
    /// a target word; in reverse the other way round.
    pub fn prob(&self, conditioning: Option<&str>, generated: &str) -> f64 {
        let cond = match conditioning {
            None => Some(self.cond_vocab.len() as u32),
            Some(w) => self.cond_vocab.get(w),
        };
        let (Some(e), Some(g)) = (cond, self.gen_vocab.get(generated)) else {
            return UNSEEN_PROB;
        };
        self.table.get(e, g).unwrap_or(UNSEEN_PROB)
    }

    /// Saves the model without side labels (an [`crate::Aligner`] saves them); see the
    /// crate README for the format (version 2). Floats are stored bit-exactly.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        self.save_staged_labelled(path.as_ref(), &Labels::default())?
            .commit()?;
        Ok(())
    }

    /// The model written to `path` with `labels`, complete but not yet in place (see
    /// [`ldd_io::AtomicFile`]).
    pub(crate) fn save_staged_labelled(
        &self,
        path: &Path,
        labels: &Labels,
    ) -> Result<ldd_io::AtomicFile> {
        let mut w = binfmt::Writer::create(path, binfmt::FAST_ALIGN_VERSION)?;
        let o = &self.options;
        let flags = u32::from(o.reverse)
            | u32::from(o.favor_diagonal) << 1
            | u32::from(o.optimize_tension) << 2
            | u32::from(o.variational_bayes) << 3;
        w.u32(flags)?;
        w.u32(o.iterations)?;
        for x in [o.alpha, o.prob_align_null, o.initial_tension, self.tension] {
            w.f64(x)?;
        }
        w.labels(labels)?;
        w.vocab(&self.cond_vocab)?;
        w.vocab(&self.gen_vocab)?;
        w.columns(&self.table)?;
        w.finish()
    }

    /// Loads a model saved by [`Model::save`] (format version 1 or 2), as
    /// [`crate::Aligner::load`] does: a missing, truncated, corrupt (CRC mismatch) or
    /// inconsistent file is an error naming the file, and so is an HMM model.
    pub fn load(path: impl AsRef<Path>) -> Result<Model> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| AlignError::io(path, e))?;
        let bad = |reason: String| AlignError::ModelFormat {
            path: path.to_path_buf(),
            reason,
        };
        let (version, mut r) = binfmt::open(&bytes).map_err(bad)?;
        if (binfmt::OLD_HMM_VERSION..=binfmt::HMM_VERSION).contains(&version) {
            return Err(bad(
                "an HMM model, not fast_align's (choose the HMM model type to load it)".into(),
            ));
        }
        if !(1..=binfmt::FAST_ALIGN_VERSION).contains(&version) {
            return Err(bad(format!(
                "unsupported format version {version} (expected 1 to {})",
                binfmt::FAST_ALIGN_VERSION
            )));
        }
        Model::read(&mut r, version).map(|(m, _)| m).map_err(bad)
    }

    /// Reads a model of format version 1 or 2 after its header, with its labels.
    pub(crate) fn read(
        reader: &mut binfmt::Reader<'_>,
        version: u32,
    ) -> std::result::Result<(Model, Labels), String> {
        let flags = reader.u32()?;
        let iterations = reader.u32()?;
        let alpha = reader.f64()?;
        let prob_align_null = reader.f64()?;
        let initial_tension = reader.f64()?;
        let tension = reader.f64()?;
        if !(tension.is_finite() && tension > 0.0) {
            return Err(format!("bad diagonal tension {tension}"));
        }
        let labels = if version >= 2 {
            reader.labels()?
        } else {
            Labels::default()
        };
        let options = TrainOptions {
            iterations,
            favor_diagonal: flags & 2 != 0,
            optimize_tension: flags & 4 != 0,
            variational_bayes: flags & 8 != 0,
            alpha,
            prob_align_null,
            initial_tension,
            reverse: flags & 1 != 0,
            threads: None,
            max_len: usize::MAX,
        };
        let cond_vocab = reader.vocab()?;
        let gen_vocab = reader.vocab()?;
        let table = reader.columns(gen_vocab.len(), cond_vocab.len())?;
        reader.end()?;
        options.validate().map_err(|e| e.to_string())?;
        Ok((
            Model {
                options,
                tension,
                cond_vocab,
                gen_vocab,
                table,
            },
            labels,
        ))
    }
}
