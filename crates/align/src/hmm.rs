//! The HMM alignment model (Vogel, Ney & Tillmann 1996), with null states as Och & Ney
//! (2003) define them, initialised by IBM Model 1 and trained by EM with forward–backward.
//!
//! Each generated word is emitted by one conditioning word or by the null word; which
//! conditioning word is a hidden state whose transitions depend only on the jump width
//! `i − i'` from the previously aligned position (a null state remembers it), so aligned
//! words move together — what IBM Model 2 and fast_align's diagonal prior cannot say.
//!
//! - States of a pair with `n` conditioning words: `0..n` (word `i`), `n..2n` (null after
//!   word `i`) and `2n` (null before any word). From a state remembering position `p`
//!   (`−1` at the start), word `i` follows with `(1 − p0) · s(i − p) / Σ_i'' s(i'' − p)` and
//!   the null state remembering `p` with `p0`.
//! - `s(d)` is one weight per jump width, widths beyond ±[`HmmOptions::max_jump`] sharing
//!   the outermost weight, estimated from the expected jumps of every pair.
//! - The lexical table `t(g | c)` starts from IBM Model 1 and is re-estimated from the
//!   posteriors with fast_align's variational-Bayes M-step (a small Dirichlet prior that
//!   keeps rare words from taking every link).
//! - Alignment: every generated word gets the conditioning word of highest posterior
//!   probability, unless the null states together are more probable; the posterior of the
//!   chosen link is returned beside it (its confidence).
//!
//! **Determinism.** The E-step runs over fixed chunks of pairs in parallel (rayon); each
//! pair's expected counts are returned in order and summed sequentially in corpus order,
//! so results are bit-identical whatever the number of threads.
//!
//! **Memory.** The corpus, one `u32` slot id per (generated word, conditioning word + null)
//! cell of every pair and 16 bytes per distinct co-occurring word pair (as fast_align's
//! model), plus the posteriors of two chunks of pairs (one summed, one computed).

use rayon::prelude::*;

use std::path::Path;

use crate::binfmt;
use crate::corpus::{Corpus, Labels, Side, Vocab};
use crate::diag::digamma;
use crate::error::{AlignError, Result};
use crate::index::{indexed, split_by_offsets, CellIndex};
use crate::model::UNSEEN_PROB;
use crate::table::{self, Columns};
use crate::Alignment;

/// Pairs whose E-step runs together; their counts are summed in corpus order.
const CHUNK: usize = 512;

/// Smallest probability any emission or transition gets (keeps forward–backward finite).
const FLOOR: f64 = 1e-12;

/// Training options of the HMM aligner.
#[derive(Debug, Clone, PartialEq)]
pub struct HmmOptions {
    /// IBM Model 1 EM iterations that initialise the lexical table.
    pub ibm1_iterations: u32,
    /// HMM EM iterations.
    pub hmm_iterations: u32,
    /// Probability of moving to a null state.
    pub p0: f64,
    /// Jump widths beyond ±this share one weight.
    pub max_jump: usize,
    /// Dirichlet concentration of the variational-Bayes lexical M-step.
    pub alpha: f64,
    /// Reverse direction: condition on the target side and align every source word.
    /// Alignments are reported in source–target order whatever the direction.
    pub reverse: bool,
    /// Pairs with more tokens than this on either side are left out of training and get an
    /// empty alignment.
    pub max_len: usize,
    /// Joint training: a word pair is linked in the agreed alignment when the product of
    /// its two directional posteriors reaches this.
    pub agreement_threshold: f64,
}

impl Default for HmmOptions {
    fn default() -> Self {
        HmmOptions {
            ibm1_iterations: 2,
            hmm_iterations: 5,
            p0: 0.05,
            max_jump: 10,
            alpha: 0.1,
            reverse: false,
            max_len: 1000,
            agreement_threshold: 0.5,
        }
    }
}

impl HmmOptions {
    fn validate(&self) -> Result<()> {
        if !(0.0..1.0).contains(&self.p0) || self.p0 == 0.0 {
            return Err(AlignError::Options("p0 must be in (0, 1)".into()));
        }
        if !(self.alpha > 0.0 && self.alpha.is_finite()) {
            return Err(AlignError::Options("alpha must be > 0".into()));
        }
        if self.max_jump == 0 {
            return Err(AlignError::Options("max_jump must be >= 1".into()));
        }
        Ok(())
    }
}

/// Alignments of every pair with the posterior probability of each link.
#[derive(Debug, Clone, PartialEq)]
pub struct HmmAlignment {
    /// Sorted `(source, target)` links of every pair, 0-based.
    pub links: Vec<Alignment>,
    /// The posterior probability of each link, in the order of `links`.
    pub posteriors: Vec<Vec<f64>>,
}

/// The slots of a corpus in one direction: cell `(j, i)` of pair `k` (generated position
/// `j`, conditioning position `i − 1`, `i = 0` the null word) is
/// `cells[cell_off[k] + j·(n + 1) + i]`.
struct Slots {
    cells: Vec<u32>,
    cell_off: Vec<usize>,
    /// Conditioning word of every slot (the null word is the vocabulary size).
    slot_cond: Vec<u32>,
    /// Number of conditioning words, the null word included.
    conds: usize,
    /// Whether pair `k` is trained and aligned (both sides non-empty, within `max_len`).
    used: Vec<bool>,
    /// Per generated word id, its slot range (slots are grouped by generated word).
    group_off: Vec<usize>,
}

impl Slots {
    /// Slots from the corpus's [`CellIndex`] (built in parallel, no hashing), its rows
    /// copied from group order into pair order.
    fn build(view: &Side<'_>, max_len: usize) -> Slots {
        let idx = CellIndex::build(view, max_len);
        let used: Vec<bool> = (0..view.len())
            .map(|k| indexed(view.cond(k), view.gen(k), max_len))
            .collect();
        let mut cell_off = Vec::with_capacity(view.len() + 1);
        let mut tok_off = Vec::with_capacity(view.len() + 1);
        let (mut cells_n, mut toks_n) = (0, 0);
        for (k, &ok) in used.iter().enumerate() {
            cell_off.push(cells_n);
            tok_off.push(toks_n);
            if ok {
                cells_n += view.gen(k).len() * (view.cond(k).len() + 1);
                toks_n += view.gen(k).len();
            }
        }
        cell_off.push(cells_n);
        tok_off.push(toks_n);
        // Where the row of every generated token starts in the index.
        let mut row_at = vec![0usize; toks_n];
        for g in 0..idx.num_groups() {
            let mut at = idx.cell_off[g];
            for &(k, j) in &idx.occ[idx.occ_off[g]..idx.occ_off[g + 1]] {
                row_at[tok_off[k as usize] + j as usize] = at;
                at += view.cond(k as usize).len() + 1;
            }
        }
        let mut cells = vec![0u32; cells_n];
        split_by_offsets(&mut cells, &cell_off)
            .into_par_iter()
            .enumerate()
            .with_min_len(256)
            .filter(|(k, _)| used[*k])
            .for_each(|(k, out)| {
                let n1 = view.cond(k).len() + 1;
                for ((row, &g), &at) in out
                    .chunks_mut(n1)
                    .zip(view.gen(k))
                    .zip(&row_at[tok_off[k]..tok_off[k + 1]])
                {
                    let base = idx.group_off[g as usize] as u32;
                    for (c, &r) in row.iter_mut().zip(&idx.cell_slot[at..at + n1]) {
                        *c = base + r;
                    }
                }
            });
        Slots {
            cells,
            cell_off,
            slot_cond: idx.slot_cond,
            conds: view.cond_vocab.len() + 1,
            used,
            group_off: idx.group_off,
        }
    }

    fn pair(&self, k: usize) -> &[u32] {
        &self.cells[self.cell_off[k]..self.cell_off[k + 1]]
    }
}

/// Expected counts of one pair: per cell of the pair (in cell order), per jump bucket, and
/// the exposure of every bucket (how many positions it offered, weighted by the posterior
/// of the state it was offered from).
struct PairCounts {
    cells: Vec<f64>,
    jumps: Vec<f64>,
    exposure: Vec<f64>,
}

/// The jump weights `s(d)` per position, `d` clipped to `[−max, max]`, stored at `d + max`:
/// the two outer weights hold for every position beyond the window, so a long sentence's
/// far positions share their mass instead of each taking a whole bucket.
struct Jumps {
    max: usize,
    w: Vec<f64>,
}

impl Jumps {
    fn uniform(max: usize) -> Jumps {
        Jumps {
            max,
            w: vec![1.0; 2 * max + 1],
        }
    }

    #[inline]
    fn bucket(&self, d: isize) -> usize {
        (d.clamp(-(self.max as isize), self.max as isize) + self.max as isize) as usize
    }

    /// Weight of jump width `d`, per position.
    #[inline]
    fn w(&self, d: isize) -> f64 {
        self.w[self.bucket(d)]
    }

    /// `Z(p)` for `p = −1..n` (stored at `p + 1`): the weights of every word position
    /// from a state remembering `p`, summed.
    fn norms(&self, n: usize) -> Vec<f64> {
        let dm = self.max as isize;
        let (lo, hi) = (self.w[0], self.w[2 * self.max]);
        (-1..n as isize)
            .map(|p| {
                let first = (p - dm + 1).max(0);
                let last = (p + dm - 1).min(n as isize - 1);
                let inner: f64 = (first..=last).map(|i| self.w(i - p)).sum();
                inner + hi * far_above(p, dm, n) + lo * far_below(p, dm)
            })
            .collect()
    }
}

/// Word positions `i ≥ p + D` of `0..n`.
#[inline]
fn far_above(p: isize, d: isize, n: usize) -> f64 {
    (n as isize - (p + d)).max(0) as f64
}

/// Word positions `i ≤ p − D`.
#[inline]
fn far_below(p: isize, d: isize) -> f64 {
    (p - d + 1).max(0) as f64
}

/// One jump width `d` inside the window, for a pair with `n` conditioning words: the
/// memories it leaves from (`p + 1` in `lo..hi`) land on words `p + d`.
struct Width {
    d: isize,
    lo: usize,
    hi: usize,
    weight: f64,
    /// Its jump bucket, `d + D`.
    bucket: usize,
}

impl Width {
    /// Memories (`p + 1`) that jump by this width to a word of the pair.
    #[inline]
    fn mems(&self) -> std::ops::Range<usize> {
        self.lo..self.hi
    }

    /// The words those memories land on, in the same order.
    #[inline]
    fn words(&self) -> std::ops::Range<usize> {
        let shift = |x: usize| (x as isize + self.d - 1) as usize;
        shift(self.lo)..shift(self.hi)
    }
}

/// The widths `|d| < D` that fit a pair, with their weights.
struct Window {
    widths: Vec<Width>,
}

impl Window {
    fn new(jm: &Jumps, n: usize) -> Window {
        let (dm, ni) = (jm.max as isize, n as isize);
        let widths = (1 - dm..dm)
            .filter_map(|d| {
                // 0 ≤ p + 1 ≤ n and 0 ≤ p + d ≤ n − 1.
                let lo = (1 - d).max(0);
                let hi = (ni + 1 - d).min(ni + 1);
                (hi > lo).then(|| Width {
                    d,
                    lo: lo as usize,
                    hi: hi as usize,
                    weight: jm.w(d),
                    bucket: (d + dm) as usize,
                })
            })
            .collect();
        Window { widths }
    }
}

/// `Σ a[x] · b[x]` in four independent sums (so it vectorises).
#[inline]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0; 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for l in 0..4 {
            acc[l] += x[l] * y[l];
        }
    }
    let tail: f64 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}

/// Prefix sums: `out[x] = v[0] + … + v[x − 1]`.
fn prefix(v: &[f64], out: &mut Vec<f64>) {
    out.resize(v.len() + 1, 0.0);
    out[0] = 0.0;
    let mut acc = 0.0;
    for (o, &x) in out[1..].iter_mut().zip(v) {
        acc += x;
        *o = acc;
    }
}

/// Work arrays of one forward–backward, kept per thread so pairs allocate only their
/// results.
#[derive(Default)]
struct Fb {
    e: Vec<f64>,
    alpha: Vec<f64>,
    scale: Vec<f64>,
    q: Vec<f64>,
    mem: Vec<f64>,
    qs: Vec<f64>,
    spread: Vec<f64>,
    beta: Vec<f64>,
    ew: Vec<f64>,
    es: Vec<f64>,
    prev_mem: Vec<f64>,
    cur_mem: Vec<f64>,
    pm: Vec<f64>,
}

thread_local! {
    static FB: std::cell::RefCell<Fb> = std::cell::RefCell::new(Fb::default());
}

/// `v` as `n` zeros.
fn zeroed(v: &mut Vec<f64>, n: usize) -> &mut Vec<f64> {
    v.clear();
    v.resize(n, 0.0);
    v
}

/// The state of training in one direction.
struct Hmm<'a> {
    view: Side<'a>,
    slots: Slots,
    t: Vec<f64>,
    jumps: Jumps,
    opts: HmmOptions,
    /// The summed counts, kept between iterations: zeroing pages already written is much
    /// cheaper than faulting in fresh ones while the other threads run.
    tot: Totals,
}

impl<'a> Hmm<'a> {
    fn new(corpus: &'a Corpus, opts: &HmmOptions) -> Hmm<'a> {
        let view = corpus.view(opts.reverse);
        let slots = Slots::build(&view, opts.max_len);
        let t = vec![1.0; slots.slot_cond.len()];
        Hmm {
            view,
            slots,
            t,
            jumps: Jumps::uniform(opts.max_jump),
            opts: opts.clone(),
            tot: Totals::default(),
        }
    }

    /// The direction `opts.reverse` of a trained model on another corpus: its lexical table
    /// (`unseen` for word pairs it does not hold) and jump weights.
    fn from_model(
        corpus: &'a Corpus,
        opts: &HmmOptions,
        vocabs: (&Vocab, &Vocab),
        table: &Columns,
        jumps: &[f64],
    ) -> Hmm<'a> {
        let view = corpus.view(opts.reverse);
        let slots = Slots::build(&view, opts.max_len);
        let t = table.slot_probs(
            vocabs,
            &view,
            &table::cond_map(vocabs.0, &view),
            (&slots.group_off, &slots.slot_cond),
            UNSEEN_PROB,
        );
        Hmm {
            view,
            slots,
            t,
            jumps: Jumps {
                max: opts.max_jump,
                w: jumps.to_vec(),
            },
            opts: opts.clone(),
            tot: Totals::default(),
        }
    }

    /// The trained lexical table, one column per generated word.
    fn columns(&self) -> Columns {
        Columns::from_slots(&self.slots.group_off, &self.slots.slot_cond, |s| self.t[s])
    }

    /// The totals, zeroed, for one E-step (hand them back through [`Hmm::update`]).
    fn take_totals(&mut self) -> Totals {
        let mut tot = std::mem::take(&mut self.tot);
        tot.counts.resize(self.t.len(), 0.0);
        tot.counts
            .par_iter_mut()
            .with_min_len(1 << 16)
            .for_each(|x| *x = 0.0);
        tot.jumps = vec![0.0; self.jumps.w.len()];
        tot.exposure = vec![0.0; self.jumps.w.len()];
        tot
    }

    /// Runs `f` on every used pair in parallel, chunk by chunk, and hands the results to
    /// `sum` in corpus order; one chunk is summed while the next is computed.
    fn each_pair<R: Send>(
        &self,
        f: impl Fn(usize) -> R + Sync,
        mut sum: impl FnMut(usize, R) + Send,
    ) {
        let n = self.view.len();
        let (mut start, mut pending_start) = (0, 0);
        let mut pending: Vec<Option<R>> = Vec::new();
        loop {
            let end = (start + CHUNK).min(n);
            let (todo, at, sum) = (std::mem::take(&mut pending), pending_start, &mut sum);
            let ((), next) = rayon::join(
                move || {
                    for (k, r) in (at..).zip(todo) {
                        if let Some(r) = r {
                            sum(k, r);
                        }
                    }
                },
                || {
                    (start..end)
                        .into_par_iter()
                        .map(|k| self.slots.used[k].then(|| f(k)))
                        .collect::<Vec<_>>()
                },
            );
            if start >= n {
                break;
            }
            (pending, pending_start, start) = (next, start, end);
        }
    }

    /// IBM Model 1 E-step of pair `k`: the posterior of every cell.
    fn ibm1_pair(&self, k: usize) -> PairCounts {
        let n1 = self.view.cond(k).len() + 1;
        let cells = self.slots.pair(k);
        let mut post = Vec::with_capacity(cells.len());
        for row in cells.chunks(n1) {
            let z: f64 = row.iter().map(|&s| self.t[s as usize]).sum();
            post.extend(row.iter().map(|&s| self.t[s as usize] / z));
        }
        PairCounts {
            cells: post,
            jumps: Vec::new(),
            exposure: Vec::new(),
        }
    }

    /// Forward–backward of pair `k`: the posterior of every cell (null cell = all null
    /// states), the expected jumps and their exposure (left at zero without `with_jumps`,
    /// as alignment needs none). Transitions inside the jump window
    /// are summed one width at a time over contiguous slices (loops the compiler
    /// vectorises), beyond it through prefix sums: `O(m · n · D)` per pair.
    fn hmm_pair(&self, k: usize, with_jumps: bool) -> PairCounts {
        FB.with(|fb| self.forward_backward(k, with_jumps, &mut fb.borrow_mut()))
    }

    /// [`Hmm::hmm_pair`] in this thread's work arrays.
    fn forward_backward(&self, k: usize, with_jumps: bool, fb: &mut Fb) -> PairCounts {
        let Fb {
            e,
            alpha,
            scale,
            q,
            mem,
            qs,
            spread,
            beta,
            ew,
            es,
            prev_mem,
            cur_mem,
            pm,
        } = fb;
        let (n, m) = (self.view.cond(k).len(), self.view.gen(k).len());
        let (n1, ni) = (n + 1, n as isize);
        let cells = self.slots.pair(k);
        let (p0, jm) = (self.opts.p0, &self.jumps);
        let dm = jm.max as isize;
        let (w_lo, w_hi) = (jm.w[0], jm.w[2 * jm.max]);
        // Emissions, looked up once: `e[j·(n + 1) + i]`, `i = 0` the null word.
        e.clear();
        e.extend(cells.iter().map(|&c| self.t[c as usize].max(FLOOR)));
        let win = Window::new(jm, n);
        // (1 − p0) / Z(p), at p + 1.
        let inv_z: Vec<f64> = jm.norms(n).iter().map(|z| (1.0 - p0) / z).collect();
        // States: 0..n words, n..2n null after word i, 2n null at the start. A state's
        // memory (at p + 1): word i and null-after-i remember i, the start −1.
        let s_n = 2 * n + 1;
        let by_mem = |al: &[f64], out: &mut [f64]| {
            out[0] = al[2 * n];
            for (o, (a, b)) in out[1..].iter_mut().zip(al[..n].iter().zip(&al[n..2 * n])) {
                *o = a + b;
            }
        };
        let alpha = zeroed(alpha, m * s_n);
        let scale = zeroed(scale, m);
        let q = zeroed(q, n1);
        let mem = zeroed(mem, n1);
        let spread = zeroed(spread, n);
        for (i, a) in alpha[..n].iter_mut().enumerate() {
            *a = jm.w(i as isize + 1) * inv_z[0] * e[i + 1];
        }
        alpha[2 * n] = p0 * e[0];
        for j in 0..m {
            if j > 0 {
                let (prev, cur) = alpha[(j - 1) * s_n..(j + 1) * s_n].split_at_mut(s_n);
                by_mem(prev, mem);
                for (x, (b, iz)) in q.iter_mut().zip(mem.iter().zip(&inv_z)) {
                    *x = b * iz;
                }
                // Σ_p q(p) · s(i − p) for every word i: beyond the window, then inside.
                prefix(q, qs);
                let total = qs[n1];
                for (i, o) in spread.iter_mut().enumerate() {
                    let i = i as isize;
                    // p ≤ i − D, i.e. p + 1 < i − D + 2; p ≥ i + D, i.e. p + 1 ≥ i + D + 1.
                    let below = (i - dm + 2).clamp(0, n1 as isize) as usize;
                    let above = (i + dm + 1).clamp(0, n1 as isize) as usize;
                    *o = w_hi * qs[below] + w_lo * (total - qs[above]);
                }
                for w in &win.widths {
                    for (o, &x) in spread[w.words()].iter_mut().zip(&q[w.mems()]) {
                        *o += w.weight * x;
                    }
                }
                let ej = &e[j * n1..(j + 1) * n1];
                let e0 = ej[0];
                for (c, (s, em)) in cur[..n].iter_mut().zip(spread.iter().zip(&ej[1..])) {
                    *c = s * em;
                }
                for (c, b) in cur[n..2 * n].iter_mut().zip(&mem[1..]) {
                    *c = p0 * b * e0;
                }
                cur[2 * n] = p0 * mem[0] * e0;
            }
            let row = &mut alpha[j * s_n..(j + 1) * s_n];
            let z: f64 = row.iter().sum();
            scale[j] = z;
            let inv = 1.0 / z;
            row.iter_mut().for_each(|x| *x *= inv);
        }
        // Backward, scaled by the same factors; beta depends on the memory only.
        let beta = zeroed(beta, m * n1);
        beta[(m - 1) * n1..].iter_mut().for_each(|x| *x = 1.0);
        let ew = zeroed(ew, n);
        for j in (0..m - 1).rev() {
            let ej = &e[(j + 1) * n1..(j + 2) * n1];
            let e0 = ej[0];
            let (now, next) = beta.split_at_mut((j + 1) * n1);
            let next = &next[..n1];
            for (x, (em, b)) in ew.iter_mut().zip(ej[1..].iter().zip(&next[1..])) {
                *x = em * b;
            }
            prefix(ew, es);
            let total = es[n];
            let row = &mut now[j * n1..];
            for (p1, r) in row.iter_mut().enumerate() {
                let p = p1 as isize - 1;
                let above = (p + dm).clamp(0, ni) as usize;
                let below = (p - dm + 1).clamp(0, ni) as usize;
                *r = w_hi * (total - es[above]) + w_lo * es[below];
            }
            for w in &win.widths {
                for (r, &x) in row[w.mems()].iter_mut().zip(&ew[w.words()]) {
                    *r += w.weight * x;
                }
            }
            let inv = 1.0 / scale[j + 1];
            for (r, (iz, nx)) in row.iter_mut().zip(inv_z.iter().zip(next)) {
                *r = (*r * iz + p0 * e0 * nx) * inv;
            }
        }
        // Posteriors of the cells; expected jumps and their exposure.
        let nb = jm.w.len();
        let mut post = vec![0.0; m * n1];
        let mut jumps = vec![0.0; nb];
        let mut exposure = vec![0.0; nb];
        // Posterior of each memory at the previous position (the start: all at −1).
        let mut prev_mem = zeroed(prev_mem, n1);
        prev_mem[0] = 1.0;
        let mut cur_mem = zeroed(cur_mem, n1);
        for j in 0..m {
            let al = &alpha[j * s_n..(j + 1) * s_n];
            let be = &beta[j * n1..(j + 1) * n1];
            let out = &mut post[j * n1..(j + 1) * n1];
            let mut null = al[2 * n] * be[0];
            cur_mem[0] = null;
            for i in 0..n {
                let (word, after) = (al[i] * be[i + 1], al[n + i] * be[i + 1]);
                out[i + 1] = word;
                cur_mem[i + 1] = word + after;
                null += after;
            }
            out[0] = null;
            let z: f64 = cur_mem.iter().sum();
            let inv = 1.0 / z;
            out.iter_mut().for_each(|x| *x *= inv);
            cur_mem.iter_mut().for_each(|x| *x *= inv);
            if !with_jumps {
                continue;
            }
            // Expected jumps into word states: q(p) · s(i − p) · emit · beta / scale, with
            // q from the previous position's forward mass (the start's mass is 1 at j = 0).
            let ej = &e[j * n1..(j + 1) * n1];
            let inv = 1.0 / scale[j];
            for (x, (em, b)) in ew.iter_mut().zip(ej[1..].iter().zip(&be[1..])) {
                *x = em * b * inv;
            }
            if j > 0 {
                by_mem(&alpha[(j - 1) * s_n..j * s_n], mem);
            } else {
                mem.iter_mut().for_each(|x| *x = 0.0);
                mem[0] = 1.0;
            }
            for (x, (b, iz)) in q.iter_mut().zip(mem.iter().zip(&inv_z)) {
                *x = b * iz;
            }
            prefix(ew, es);
            prefix(prev_mem, pm);
            let total = es[n];
            let (mut far_hi, mut far_lo, mut exp_hi, mut exp_lo) = (0.0, 0.0, 0.0, 0.0);
            for (p1, (qp, gm)) in q.iter().zip(prev_mem.iter()).enumerate() {
                let p = p1 as isize - 1;
                let above = (p + dm).clamp(0, ni) as usize;
                let below = (p - dm + 1).clamp(0, ni) as usize;
                far_hi += qp * (total - es[above]);
                far_lo += qp * es[below];
                exp_hi += gm * far_above(p, dm, n);
                exp_lo += gm * far_below(p, dm);
            }
            jumps[nb - 1] += w_hi * far_hi;
            jumps[0] += w_lo * far_lo;
            exposure[nb - 1] += exp_hi;
            exposure[0] += exp_lo;
            for w in &win.widths {
                let (mems, b) = (w.mems(), w.bucket);
                jumps[b] += w.weight * dot(&q[mems.clone()], &ew[w.words()]);
                exposure[b] += pm[mems.end] - pm[mems.start];
            }
            std::mem::swap(&mut prev_mem, &mut cur_mem);
        }
        PairCounts {
            cells: post,
            jumps,
            exposure,
        }
    }

    /// The expected counts of pair `k` under IBM Model 1 (`hmm = false`) or the HMM.
    fn counts(&self, k: usize, hmm: bool) -> PairCounts {
        if hmm {
            self.hmm_pair(k, true)
        } else {
            self.ibm1_pair(k)
        }
    }

    /// One EM iteration of this direction alone.
    fn iterate(&mut self, hmm: bool) {
        let mut tot = self.take_totals();
        let this = &*self;
        this.each_pair(|k| this.counts(k, hmm), |k, pc| tot.add(this, k, &pc));
        self.update(tot, hmm);
    }

    /// The M-step from the summed counts (kept for the next E-step): the lexical table, and the jump weights (per
    /// position: expected jumps over the positions offered) after an HMM E-step.
    fn update(&mut self, tot: Totals, hmm: bool) {
        self.m_step(&tot.counts);
        if hmm {
            let rate: Vec<f64> = tot
                .jumps
                .iter()
                .zip(&tot.exposure)
                .map(|(&c, &e)| if e > 0.0 { c / e } else { 0.0 })
                .collect();
            let z: f64 = rate.iter().sum();
            if z > 0.0 {
                self.jumps.w = rate.iter().map(|&r| (r / z).max(FLOOR)).collect();
            }
            if std::env::var_os("LDD_ALIGN_VERBOSE").is_some() {
                let w: Vec<String> = self.jumps.w.iter().map(|x| format!("{x:.3}")).collect();
                eprintln!("[ldd-align hmm] jumps {}", w.join(" "));
            }
        }
        self.tot = tot;
    }

    /// Variational-Bayes M-step of the lexical table (fast_align's).
    fn m_step(&mut self, counts: &[f64]) {
        let alpha = self.opts.alpha;
        let mut tot = vec![0.0f64; self.slots.conds];
        for (&c, &e) in counts.iter().zip(&self.slots.slot_cond) {
            tot[e as usize] += c + alpha;
        }
        let dg: Vec<f64> = tot.iter().map(|&t| digamma(t.max(alpha))).collect();
        self.t
            .par_iter_mut()
            .zip(counts.par_iter().zip(self.slots.slot_cond.par_iter()))
            .with_min_len(4096)
            .for_each(|(t, (&c, &e))| *t = (digamma(c + alpha) - dg[e as usize]).exp());
    }

    /// The best link of every generated word of pair `k` and its posterior, from the
    /// pair's posteriors `pc`: sorted `(source, target)` links.
    fn best_links(&self, k: usize, pc: &PairCounts) -> Vec<((usize, usize), f64)> {
        let n = self.view.cond(k).len();
        let mut out = Vec::new();
        for (j, row) in pc.cells.chunks(n + 1).enumerate() {
            let (mut b, mut best) = (0, row[0]);
            for (i, &p) in row.iter().enumerate().skip(1) {
                if p > best {
                    (b, best) = (i, p);
                }
            }
            if b > 0 {
                let link = if self.opts.reverse {
                    (j, b - 1)
                } else {
                    (b - 1, j)
                };
                out.push((link, best));
            }
        }
        out.sort_by_key(|x| x.0);
        out
    }

    /// The best link of every generated word and its posterior.
    fn align(&self) -> HmmAlignment {
        let mut out = HmmAlignment::empty(self.view.len());
        self.each_pair(
            |k| self.best_links(k, &self.hmm_pair(k, false)),
            |k, links| out.set(k, &links),
        );
        out
    }
}

impl HmmAlignment {
    fn empty(n: usize) -> HmmAlignment {
        HmmAlignment {
            links: vec![Vec::new(); n],
            posteriors: vec![Vec::new(); n],
        }
    }

    fn set(&mut self, k: usize, links: &[((usize, usize), f64)]) {
        self.links[k] = links.iter().map(|x| x.0).collect();
        self.posteriors[k] = links.iter().map(|x| x.1).collect();
    }
}

/// Expected counts summed over the corpus, in corpus order.
#[derive(Default)]
struct Totals {
    counts: Vec<f64>,
    jumps: Vec<f64>,
    exposure: Vec<f64>,
}

impl Totals {
    fn add(&mut self, h: &Hmm<'_>, k: usize, pc: &PairCounts) {
        for (&s, &c) in h.slots.pair(k).iter().zip(&pc.cells) {
            self.counts[s as usize] += c;
        }
        for (a, b) in self.jumps.iter_mut().zip(&pc.jumps) {
            *a += b;
        }
        for (a, b) in self.exposure.iter_mut().zip(&pc.exposure) {
            *a += b;
        }
    }
}

/// Alignment by agreement (Liang, Taskar & Klein 2006): the lexical counts of both
/// directions become the product of their posteriors for every word pair, the null cells
/// taking what is left of each word's mass; each direction keeps its own jumps.
fn agree(f: &mut PairCounts, r: &mut PairCounts, ns: usize, nt: usize) {
    for j in 0..nt {
        for i in 0..ns {
            let mu = f.cells[j * (ns + 1) + i + 1] * r.cells[i * (nt + 1) + j + 1];
            f.cells[j * (ns + 1) + i + 1] = mu;
            r.cells[i * (nt + 1) + j + 1] = mu;
        }
    }
    for j in 0..nt {
        let row = &mut f.cells[j * (ns + 1)..(j + 1) * (ns + 1)];
        row[0] = (1.0 - row[1..].iter().sum::<f64>()).max(0.0);
    }
    for i in 0..ns {
        let row = &mut r.cells[i * (nt + 1)..(i + 1) * (nt + 1)];
        row[0] = (1.0 - row[1..].iter().sum::<f64>()).max(0.0);
    }
}

/// One EM iteration of both directions together, by agreement.
fn iterate_joint(f: &mut Hmm<'_>, r: &mut Hmm<'_>, hmm: bool) {
    let (mut tf, mut tr) = (f.take_totals(), r.take_totals());
    {
        let (fv, rv) = (&*f, &*r);
        fv.each_pair(
            |k| {
                let (mut a, mut b) = (fv.counts(k, hmm), rv.counts(k, hmm));
                agree(&mut a, &mut b, fv.view.cond(k).len(), fv.view.gen(k).len());
                (a, b)
            },
            |k, (a, b)| {
                tf.add(fv, k, &a);
                tr.add(rv, k, &b);
            },
        );
    }
    f.update(tf, hmm);
    r.update(tr, hmm);
}

/// What joint training aligns: each direction as [`train_and_align_hmm`] gives it, and the
/// agreed alignment (links whose two posteriors multiply to at least
/// [`HmmOptions::agreement_threshold`], with that product as their posterior).
#[derive(Debug, Clone, PartialEq)]
pub struct JointAlignment {
    /// Source→target direction (every target word linked at most once).
    pub forward: HmmAlignment,
    /// Target→source direction (every source word linked at most once).
    pub reverse: HmmAlignment,
    /// The links both directions agree on.
    pub agreed: HmmAlignment,
}

/// Aligns every pair in both directions and by agreement (links whose two posteriors
/// multiply to at least `threshold`), from one forward–backward per pair and direction.
fn align_joint(f: &Hmm<'_>, r: &Hmm<'_>, threshold: f64) -> JointAlignment {
    let n = f.view.len();
    let mut out = JointAlignment {
        forward: HmmAlignment::empty(n),
        reverse: HmmAlignment::empty(n),
        agreed: HmmAlignment::empty(n),
    };
    f.each_pair(
        |k| {
            let (a, b) = (f.hmm_pair(k, false), r.hmm_pair(k, false));
            let (ns, nt) = (f.view.cond(k).len(), f.view.gen(k).len());
            let mut agreed = Vec::new();
            for i in 0..ns {
                for j in 0..nt {
                    let mu = a.cells[j * (ns + 1) + i + 1] * b.cells[i * (nt + 1) + j + 1];
                    if mu >= threshold {
                        agreed.push(((i, j), mu));
                    }
                }
            }
            (f.best_links(k, &a), r.best_links(k, &b), agreed)
        },
        |k, (fl, rl, al)| {
            out.forward.set(k, &fl);
            out.reverse.set(k, &rl);
            out.agreed.set(k, &al);
        },
    );
    out
}

/// Trains both directions of the HMM aligner together by agreement (IBM Model 1 in each
/// direction, then the HMM jointly) and aligns the corpus. `opts.reverse` is ignored.
pub fn train_and_align_hmm_joint(corpus: &Corpus, opts: &HmmOptions) -> Result<JointAlignment> {
    let (f, r) = train_joint(corpus, opts)?;
    Ok(align_joint(&f, &r, opts.agreement_threshold))
}

/// Both directions trained together on `corpus` (see [`train_and_align_hmm_joint`]).
fn train_joint<'a>(corpus: &'a Corpus, opts: &HmmOptions) -> Result<(Hmm<'a>, Hmm<'a>)> {
    opts.validate()?;
    let (fo, ro) = directions(opts);
    let (mut f, mut r) = (Hmm::new(corpus, &fo), Hmm::new(corpus, &ro));
    // IBM Model 1 alone in each direction: from a uniform table the product of two
    // posteriors would hand almost every word to null.
    for _ in 0..opts.ibm1_iterations {
        f.iterate(false);
        r.iterate(false);
    }
    for _ in 0..opts.hmm_iterations {
        iterate_joint(&mut f, &mut r, true);
    }
    Ok((f, r))
}

/// The options of the forward and the reverse direction.
fn directions(opts: &HmmOptions) -> (HmmOptions, HmmOptions) {
    let dir = |reverse| HmmOptions {
        reverse,
        ..opts.clone()
    };
    (dir(false), dir(true))
}

/// A trained HMM aligner, both directions, as joint training leaves it: what
/// [`HmmModel::align`] needs to align any corpus, and what is saved.
#[derive(Debug, Clone)]
pub struct HmmModel {
    options: HmmOptions,
    /// What the two sides are (e.g. language codes); empty when unknown.
    labels: Labels,
    src_vocab: Vocab,
    tgt_vocab: Vocab,
    /// `p(target | source)` (forward) and `p(source | target)` (reverse).
    tables: [Columns; 2],
    /// Jump weights of the forward and the reverse direction.
    jumps: [Vec<f64>; 2],
}

impl HmmModel {
    /// Trains both directions together on `corpus` (see [`train_and_align_hmm_joint`]).
    pub fn train(corpus: &Corpus, opts: &HmmOptions) -> Result<HmmModel> {
        let (f, r) = train_joint(corpus, opts)?;
        Ok(HmmModel {
            options: HmmOptions {
                reverse: false,
                ..opts.clone()
            },
            labels: Labels::default(),
            src_vocab: corpus.src_vocab().clone(),
            tgt_vocab: corpus.tgt_vocab().clone(),
            tables: [f.columns(), r.columns()],
            jumps: [f.jumps.w.clone(), r.jumps.w.clone()],
        })
    }

    /// Aligns every pair of `corpus` (which need not be the training corpus) in both
    /// directions and by agreement, as [`train_and_align_hmm_joint`] aligns its training
    /// corpus: word pairs the model never saw get [`UNSEEN_PROB`]; pairs with an empty side
    /// or over [`HmmOptions::max_len`] tokens get no links.
    pub fn align(&self, corpus: &Corpus) -> JointAlignment {
        let (fo, ro) = directions(&self.options);
        let (src, tgt) = (&self.src_vocab, &self.tgt_vocab);
        let f = Hmm::from_model(corpus, &fo, (src, tgt), &self.tables[0], &self.jumps[0]);
        let r = Hmm::from_model(corpus, &ro, (tgt, src), &self.tables[1], &self.jumps[1]);
        align_joint(&f, &r, self.options.agreement_threshold)
    }

    /// Options the model was trained with (`reverse` is false: it holds both directions).
    pub fn options(&self) -> &HmmOptions {
        &self.options
    }

    /// Sets the length limit of [`HmmModel::align`] (not stored in saved models).
    pub fn set_max_len(&mut self, n: usize) {
        self.options.max_len = n;
    }

    /// Records what the two sides are (e.g. language codes), saved with the model.
    pub fn set_labels(&mut self, source: &str, target: &str) {
        self.labels = Labels::new(source, target);
    }

    /// The recorded side labels, if any.
    pub fn labels(&self) -> Option<(&str, &str)> {
        self.labels.get()
    }

    /// Number of stored word-pair probabilities of both directions (null pairs included).
    pub fn num_params(&self) -> usize {
        self.tables.iter().map(|t| t.probs.len()).sum()
    }

    /// Saves the model (format version 3; see the crate README):
    ///
    /// ```text
    /// magic "LDDALIGN" | u32 version=3 | u32 ibm1_iterations | u32 hmm_iterations |
    /// f64 p0 | f64 alpha | f64 agreement_threshold | u64 max_jump |
    /// source label, target label (u32 byte length + UTF-8) |
    /// source vocab, target vocab (u64 count, then per word u32 byte length + UTF-8) |
    /// forward then reverse direction: u64 jump weights count (2·max_jump + 1), the f64
    /// weights, and the lexical table as in version 2 (generated words' columns) |
    /// u32 CRC-32 of all preceding bytes
    /// ```
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        self.save_staged(path)?.commit()?;
        Ok(())
    }

    /// [`HmmModel::save`] up to the last step (see [`crate::Model::save_staged`]).
    pub fn save_staged(&self, path: impl AsRef<Path>) -> Result<ldd_io::AtomicFile> {
        let o = &self.options;
        let mut w = binfmt::Writer::create(path.as_ref(), binfmt::HMM_VERSION)?;
        w.u32(o.ibm1_iterations)?;
        w.u32(o.hmm_iterations)?;
        for x in [o.p0, o.alpha, o.agreement_threshold] {
            w.f64(x)?;
        }
        w.u64(o.max_jump as u64)?;
        w.labels(&self.labels)?;
        w.vocab(&self.src_vocab)?;
        w.vocab(&self.tgt_vocab)?;
        for (table, jumps) in self.tables.iter().zip(&self.jumps) {
            w.u64(jumps.len() as u64)?;
            for &x in jumps {
                w.f64(x)?;
            }
            w.columns(table)?;
        }
        w.finish()
    }

    /// Loads a model saved by [`HmmModel::save`]. A missing, truncated, corrupt (CRC
    /// mismatch) or inconsistent file is an error naming the file, and so is a fast_align
    /// model (load it with [`crate::Model::load`]).
    pub fn load(path: impl AsRef<Path>) -> Result<HmmModel> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| AlignError::io(path, e))?;
        let bad = |reason: String| AlignError::ModelFormat {
            path: path.to_path_buf(),
            reason,
        };
        let (version, mut r) = binfmt::open(&bytes).map_err(bad)?;
        if (1..=binfmt::FAST_ALIGN_VERSION).contains(&version) {
            return Err(bad(
                "a fast_align model, not an HMM model (choose the fast_align model type to load it)"
                    .into(),
            ));
        }
        if version != binfmt::HMM_VERSION {
            return Err(bad(format!(
                "unsupported format version {version} (expected {})",
                binfmt::HMM_VERSION
            )));
        }
        let parse = |r: &mut binfmt::Reader<'_>| -> std::result::Result<HmmModel, String> {
            let ibm1_iterations = r.u32()?;
            let hmm_iterations = r.u32()?;
            let (p0, alpha, agreement_threshold) = (r.f64()?, r.f64()?, r.f64()?);
            let max_jump = usize::try_from(r.u64()?).map_err(|_| "bad max_jump".to_string())?;
            let options = HmmOptions {
                ibm1_iterations,
                hmm_iterations,
                p0,
                max_jump,
                alpha,
                reverse: false,
                max_len: HmmOptions::default().max_len,
                agreement_threshold,
            };
            options.validate().map_err(|e| e.to_string())?;
            let labels = r.labels()?;
            let (src_vocab, tgt_vocab) = (r.vocab()?, r.vocab()?);
            let mut dirs = Vec::with_capacity(2);
            for (gens, conds) in [
                (tgt_vocab.len(), src_vocab.len()),
                (src_vocab.len(), tgt_vocab.len()),
            ] {
                let n = r.len()?;
                if Some(n) != max_jump.checked_mul(2).map(|x| x + 1) {
                    return Err(format!("{n} jump weights for max_jump {max_jump}"));
                }
                let jumps = (0..n)
                    .map(|_| r.f64())
                    .collect::<std::result::Result<Vec<_>, _>>()?;
                if jumps.iter().any(|&w| !(w.is_finite() && w > 0.0)) {
                    return Err("bad jump weight".into());
                }
                dirs.push((r.columns(gens, conds)?, jumps));
            }
            r.end()?;
            let (rt, rj) = dirs.pop().ok_or("no reverse direction")?;
            let (ft, fj) = dirs.pop().ok_or("no forward direction")?;
            Ok(HmmModel {
                options,
                labels,
                src_vocab,
                tgt_vocab,
                tables: [ft, rt],
                jumps: [fj, rj],
            })
        };
        parse(&mut r).map_err(bad)
    }
}

/// Trains the HMM aligner on `corpus` (IBM Model 1, then the HMM) and aligns it: every
/// generated word linked to its most probable conditioning word unless null is more
/// probable, each link with its posterior probability.
pub fn train_and_align_hmm(corpus: &Corpus, opts: &HmmOptions) -> Result<HmmAlignment> {
    opts.validate()?;
    let mut h = Hmm::new(corpus, opts);
    for _ in 0..opts.ibm1_iterations {
        h.iterate(false);
    }
    for _ in 0..opts.hmm_iterations {
        h.iterate(true);
    }
    Ok(h.align())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus(pairs: &[(&str, &str)]) -> Corpus {
        let mut c = Corpus::new();
        for (s, t) in pairs {
            let s: Vec<&str> = s.split(' ').collect();
            let t: Vec<&str> = t.split(' ').collect();
            c.push_pair(&s, &t);
        }
        c
    }

    /// The classic toy corpus: "das Haus" / "the house" and friends.
    const TOY: [(&str, &str); 5] = [
        ("das haus", "the house"),
        ("das buch", "the book"),
        ("ein buch", "a book"),
        ("ein haus", "a house"),
        ("das kleine haus", "the small house"),
    ];

    /// Every word of the toy corpus is learnt.
    #[test]
    fn learns_the_toy_dictionary() {
        let c = corpus(&TOY);
        for reverse in [false, true] {
            let opts = HmmOptions {
                reverse,
                ..HmmOptions::default()
            };
            let a = train_and_align_hmm(&c, &opts).unwrap();
            assert_eq!(a.links[0], vec![(0, 0), (1, 1)], "reverse {reverse}");
            assert_eq!(a.links[2], vec![(0, 0), (1, 1)], "reverse {reverse}");
            assert_eq!(
                a.links[4],
                vec![(0, 0), (1, 1), (2, 2)],
                "reverse {reverse}"
            );
            for p in a.posteriors.iter().flatten() {
                assert!(*p > 0.5 && *p <= 1.0 + 1e-9, "{p}");
            }
        }
    }

    /// Swapped word order is followed: the jump model does not force monotone links.
    #[test]
    fn follows_reordering() {
        let c = corpus(&[
            ("rot haus", "house red"),
            ("rot buch", "book red"),
            ("blau buch", "book blue"),
            ("blau haus", "house blue"),
        ]);
        let a = train_and_align_hmm(&c, &HmmOptions::default()).unwrap();
        assert_eq!(a.links[0], vec![(0, 1), (1, 0)]);
        assert_eq!(a.links[2], vec![(0, 1), (1, 0)]);
    }

    /// Posteriors of every cell row sum to one, with and without the HMM.
    #[test]
    fn posteriors_are_distributions() {
        let c = corpus(&[("a b c", "x y"), ("a c", "y z w"), ("b", "x")]);
        let mut h = Hmm::new(&c, &HmmOptions::default());
        h.iterate(false);
        h.iterate(true);
        for k in 0..c.len() {
            let n = h.view.cond(k).len();
            let pc = h.hmm_pair(k, true);
            for row in pc.cells.chunks(n + 1) {
                let s: f64 = row.iter().sum();
                assert!((s - 1.0).abs() < 1e-9, "{s}");
            }
            // One jump per generated word.
            let j: f64 = pc.jumps.iter().sum();
            let p_word: f64 = pc.cells.chunks(n + 1).map(|r| 1.0 - r[0]).sum();
            assert!(
                j > 0.0 && j <= c.view(false).gen(k).len() as f64 + 1e-9,
                "{j} {p_word}"
            );
        }
    }

    /// Forward–backward (windowed, prefix sums beyond the window) equals brute force: every
    /// state path of a 5 × 3 pair enumerated, with jump widths beyond the window of 2.
    #[test]
    fn forward_backward_equals_enumeration() {
        let c = corpus(&[("a b c d e", "x y z")]);
        let opts = HmmOptions {
            max_jump: 2,
            p0: 0.15,
            ..HmmOptions::default()
        };
        let mut h = Hmm::new(&c, &opts);
        for (k, t) in h.t.iter_mut().enumerate() {
            *t = 0.05 + ((k * 37 + 11) % 17) as f64 / 20.0;
        }
        h.jumps.w = vec![0.1, 0.15, 0.3, 0.25, 0.2];
        let pc = h.hmm_pair(0, true);
        let (n, m, p0) = (5usize, 3usize, opts.p0);
        let v = |d: isize| h.jumps.w[h.jumps.bucket(d)];
        let z = |p: isize| (0..n as isize).map(|i| v(i - p)).sum::<f64>();
        let cells = h.slots.pair(0).to_vec();
        let t = |j: usize, i: usize| h.t[cells[j * (n + 1) + i] as usize];
        // A state: Some(i) a word, None null; the memory is the last word (−1 at first).
        let states: Vec<Option<usize>> = (0..n).map(Some).chain([None]).collect();
        let mut post = vec![0.0; m * (n + 1)];
        let mut jumps = vec![0.0; h.jumps.w.len()];
        let mut total = 0.0;
        let mut path = vec![0usize; m];
        loop {
            let mut prob = 1.0;
            let mut p: isize = -1;
            let mut jumped = Vec::new();
            for (j, &s) in path.iter().enumerate() {
                match states[s] {
                    Some(i) => {
                        prob *= (1.0 - p0) * v(i as isize - p) / z(p) * t(j, i + 1);
                        jumped.push(h.jumps.bucket(i as isize - p));
                        p = i as isize;
                    }
                    None => prob *= p0 * t(j, 0),
                }
            }
            total += prob;
            for (j, &s) in path.iter().enumerate() {
                post[j * (n + 1) + states[s].map_or(0, |i| i + 1)] += prob;
            }
            for b in jumped {
                jumps[b] += prob;
            }
            // Next path.
            let mut j = 0;
            while j < m && path[j] == states.len() - 1 {
                path[j] = 0;
                j += 1;
            }
            if j == m {
                break;
            }
            path[j] += 1;
        }
        for (a, b) in pc.cells.iter().zip(&post) {
            assert!((a - b / total).abs() < 1e-12, "{a} {}", b / total);
        }
        for (a, b) in pc.jumps.iter().zip(&jumps) {
            assert!((a - b / total).abs() < 1e-12, "{a} {}", b / total);
        }
    }

    /// Joint training by agreement learns the toy dictionary in both directions; with a
    /// threshold above one half, every agreed link is the best link of both directions;
    /// the result is the same on 1 and 3 threads.
    #[test]
    fn joint_training_agrees() {
        let c = corpus(&[TOY.as_slice(), &[("rot haus", "house red")]].concat());
        let opts = HmmOptions {
            agreement_threshold: 0.6,
            ..HmmOptions::default()
        };
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| train_and_align_hmm_joint(&c, &opts).unwrap())
        };
        let a = run(1);
        assert_eq!(a, run(3));
        assert_eq!(a.forward.links[4], vec![(0, 0), (1, 1), (2, 2)]);
        assert_eq!(a.reverse.links[4], vec![(0, 0), (1, 1), (2, 2)]);
        assert!(a.agreed.links[4].contains(&(0, 0)), "{:?}", a.agreed);
        for k in 0..c.len() {
            for (l, p) in a.agreed.links[k].iter().zip(&a.agreed.posteriors[k]) {
                assert!(*p >= 0.6 && *p <= 1.0 + 1e-9);
                assert!(a.forward.links[k].contains(l) && a.reverse.links[k].contains(l));
            }
        }
    }

    /// Same alignments and posteriors, bit for bit, on 1 and 3 threads.
    #[test]
    fn deterministic_across_thread_counts() {
        let mut pairs = Vec::new();
        for k in 0..3000 {
            pairs.push((
                format!("w{} v{} u{}", k % 7, k % 11, k % 5),
                format!("x{} y{} z{} q", k % 11, k % 7, k % 5),
            ));
        }
        let c = corpus(
            &pairs
                .iter()
                .map(|(a, b)| (a.as_str(), b.as_str()))
                .collect::<Vec<_>>(),
        );
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| train_and_align_hmm(&c, &HmmOptions::default()).unwrap())
        };
        assert_eq!(run(1), run(3));
    }

    #[test]
    fn bad_options_are_refused() {
        let c = corpus(&[("a", "b")]);
        for o in [
            HmmOptions {
                p0: 0.0,
                ..HmmOptions::default()
            },
            HmmOptions {
                alpha: -1.0,
                ..HmmOptions::default()
            },
            HmmOptions {
                max_jump: 0,
                ..HmmOptions::default()
            },
        ] {
            assert!(train_and_align_hmm(&c, &o).is_err());
        }
    }
}
