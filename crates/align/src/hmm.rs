//! The HMM alignment model (Vogel, Ney & Tillmann 1996), with null states as Och & Ney
//! (2003) define them, initialised by IBM Model 1 and trained by EM with forward–backward,
//! both directions together by agreement (Liang, Taskar & Klein 2006).
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
//! - The lexical table (see `lexicon.rs`: one sparse table of the kept word pairs for both
//!   directions) starts from IBM Model 1 and is re-estimated from the posteriors with
//!   fast_align's variational-Bayes M-step (a small Dirichlet prior that keeps rare words
//!   from taking every link). In the joint iterations a word pair's count is the product of
//!   its two directional posteriors, the null cells taking what is left.
//! - Alignment: every generated word gets the conditioning word of highest posterior
//!   probability, unless the null states together are more probable; the posterior of the
//!   chosen link is returned beside it (its confidence).
//!
//! **Streaming.** Every pass reads the pairs chunk by chunk ([`crate::PairStore`] keeps
//! them on disk): memory holds the vocabularies, the table and the posteriors of the pairs
//! in flight (two chunks), never the corpus.
//!
//! **Determinism.** The E-step runs over the pairs of a chunk in parallel (rayon); each
//! pair's expected counts are returned and summed sequentially in corpus order, so results
//! are bit-identical whatever the number of threads.

use crate::binfmt;
use crate::corpus::{Labels, Vocab};
use crate::error::{AlignError, Result};
use crate::lexicon::{self, PairTable, Rest, Shape, NONE};
use crate::store::{stream, Chunk, Pairs};
use crate::{Event, Report, Stage};

/// Smallest probability any emission or transition gets (keeps forward–backward finite).
const FLOOR: f64 = 1e-12;

/// Training options of the HMM aligner.
#[derive(Debug, Clone, PartialEq)]
pub struct HmmOptions {
    /// IBM Model 1 EM iterations that initialise the lexical table (the first counts the
    /// word pairs and prunes them).
    pub ibm1_iterations: u32,
    /// Joint HMM EM iterations.
    pub hmm_iterations: u32,
    /// Probability of moving to a null state.
    pub p0: f64,
    /// Jump widths beyond ±this share one weight.
    pub max_jump: usize,
    /// Dirichlet concentration of the variational-Bayes lexical M-step.
    pub alpha: f64,
    /// Pairs with more tokens than this on either side are left out of training and get an
    /// empty alignment.
    pub max_len: usize,
    /// A co-occurring word pair is kept in the lexical table only if its probability after
    /// the first IBM Model 1 iteration reaches this in either direction; the others share
    /// their row's average (see `lexicon.rs`). 0 keeps every pair.
    pub prune: f64,
}

/// Default of [`HmmOptions::prune`].
pub const DEFAULT_PRUNE: f64 = 1e-5;

impl Default for HmmOptions {
    fn default() -> Self {
        HmmOptions {
            ibm1_iterations: 2,
            hmm_iterations: 5,
            p0: 0.05,
            max_jump: 10,
            alpha: 0.1,
            max_len: 1000,
            prune: DEFAULT_PRUNE,
        }
    }
}

impl HmmOptions {
    pub(crate) fn validate(&self) -> Result<()> {
        if !(0.0..1.0).contains(&self.p0) || self.p0 == 0.0 {
            return Err(AlignError::Options("p0 must be in (0, 1)".into()));
        }
        if !(self.alpha > 0.0 && self.alpha.is_finite()) {
            return Err(AlignError::Options("alpha must be > 0".into()));
        }
        if self.max_jump == 0 {
            return Err(AlignError::Options("max_jump must be >= 1".into()));
        }
        if !(0.0..1.0).contains(&self.prune) {
            return Err(AlignError::Options("prune must be in [0, 1)".into()));
        }
        Ok(())
    }

    /// Passes over the pairs that training makes.
    pub(crate) fn passes(&self) -> u32 {
        1 + 2 * self.ibm1_iterations.saturating_sub(1) + self.hmm_iterations
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

/// Work arrays longer than this are freed after use: a rare long pair does not keep its
/// megabytes for the rest of training.
const KEEP: usize = 1 << 17;

/// Frees `v` if it grew beyond [`KEEP`].
fn trim(v: &mut Vec<f64>) {
    if v.capacity() > KEEP {
        *v = Vec::new();
    }
}

impl Fb {
    /// Frees the arrays a long pair grew (see [`KEEP`]).
    fn trim(&mut self) {
        for v in [
            &mut self.e,
            &mut self.alpha,
            &mut self.scale,
            &mut self.q,
            &mut self.mem,
            &mut self.qs,
            &mut self.spread,
            &mut self.beta,
            &mut self.ew,
            &mut self.es,
            &mut self.prev_mem,
            &mut self.cur_mem,
            &mut self.pm,
        ] {
            trim(v);
        }
    }
}

/// `v` as `n` zeros.
fn zeroed(v: &mut Vec<f64>, n: usize) -> &mut Vec<f64> {
    v.clear();
    v.resize(n, 0.0);
    v
}

/// Forward–backward of a pair of `n` conditioning and `m` generated words whose emissions
/// `fb.e[j·(n + 1) + i]` (`i = 0` the null word, floored) the caller filled: the posterior
/// of every cell (null cell = all null states), the expected jumps and their exposure (left
/// at zero without `with_jumps`, as alignment needs none). Transitions inside the jump
/// window are summed one width at a time over contiguous slices (loops the compiler
/// vectorises), beyond it through prefix sums: `O(m · n · D)` per pair.
fn forward_backward(n: usize, m: usize, p0: f64, jm: &Jumps, fb: &mut Fb, out: Out<'_>) {
    let Out {
        post,
        jumps,
        exposure,
    } = out;
    let with_jumps = !jumps.is_empty();
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
    let (n1, ni) = (n + 1, n as isize);
    let dm = jm.max as isize;
    let (w_lo, w_hi) = (jm.w[0], jm.w[2 * jm.max]);
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
    jumps.iter_mut().for_each(|x| *x = 0.0);
    exposure.iter_mut().for_each(|x| *x = 0.0);
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
}

/// Where [`forward_backward`] writes: the posterior of every cell (`m·(n + 1)`), and the
/// expected jumps and their exposure (one per jump bucket; both empty: not wanted).
struct Out<'a> {
    post: &'a mut [f64],
    jumps: &'a mut [f64],
    exposure: &'a mut [f64],
}

impl PairCounts {
    /// Room for the counts of a pair of `n` conditioning and `m` generated words.
    fn new(n: usize, m: usize, buckets: usize) -> PairCounts {
        PairCounts {
            cells: vec![0.0; m * (n + 1)],
            jumps: vec![0.0; buckets],
            exposure: vec![0.0; buckets],
        }
    }

    fn out(&mut self) -> Out<'_> {
        Out {
            post: &mut self.cells,
            jumps: &mut self.jumps,
            exposure: &mut self.exposure,
        }
    }
}

/// Alignment by agreement (Liang, Taskar & Klein 2006): the lexical counts of both
/// directions become the product of their posteriors for every word pair, the null cells
/// taking what is left of each word's mass; each direction keeps its own jumps.
fn agree(fwd: &mut [f64], rev: &mut [f64], ns: usize, nt: usize) {
    for j in 0..nt {
        for i in 0..ns {
            let mu = fwd[j * (ns + 1) + i + 1] * rev[i * (nt + 1) + j + 1];
            fwd[j * (ns + 1) + i + 1] = mu;
            rev[i * (nt + 1) + j + 1] = mu;
        }
    }
    for j in 0..nt {
        let row = &mut fwd[j * (ns + 1)..(j + 1) * (ns + 1)];
        row[0] = (1.0 - row[1..].iter().sum::<f64>()).max(0.0);
    }
    for i in 0..ns {
        let row = &mut rev[i * (nt + 1)..(i + 1) * (nt + 1)];
        row[0] = (1.0 - row[1..].iter().sum::<f64>()).max(0.0);
    }
}

/// Forward emissions of a pair into `emissions` (`m` rows of `n + 1`: `p(t_j | NULL)`, then
/// `p(t_j | s_i)`), from the entries `idx` of its cells ([`PairTable::lookup`]), at least
/// `floor`.
fn emit_fwd(
    table: &PairTable,
    src: &[u32],
    tgt: &[u32],
    idx: &[u32],
    floor: f64,
    emissions: &mut [f64],
) {
    let m = tgt.len();
    for (j, (&w, row)) in tgt
        .iter()
        .zip(emissions.chunks_mut(src.len() + 1))
        .enumerate()
    {
        row[0] = table.p_null_fwd(w).max(floor);
        for (i, (&s, x)) in src.iter().zip(&mut row[1..]).enumerate() {
            *x = table.p_fwd(idx[i * m + j], s, w).max(floor);
        }
    }
}

/// Reverse emissions of a pair into `emissions` (`n` rows of `m + 1`: `p(s_i | NULL)`, then
/// `p(s_i | t_j)`).
fn emit_rev(
    table: &PairTable,
    src: &[u32],
    tgt: &[u32],
    idx: &[u32],
    floor: f64,
    emissions: &mut [f64],
) {
    let m = tgt.len();
    for (i, (&s, row)) in src.iter().zip(emissions.chunks_mut(m + 1)).enumerate() {
        row[0] = table.p_null_rev(s).max(floor);
        for (j, (&w, x)) in tgt.iter().zip(&mut row[1..]).enumerate() {
            *x = table.p_rev(idx[i * m + j], s, w).max(floor);
        }
    }
}

/// IBM Model 1 posteriors: every row of `row` cells normalised.
fn normalise_rows(cells: &mut [f64], row: usize) {
    for r in cells.chunks_mut(row) {
        let z: f64 = r.iter().sum();
        r.iter_mut().for_each(|x| *x /= z);
    }
}

/// Forward–backward of both directions of a pair (entries `idx`), in this thread's work
/// arrays: the forward direction into `fwd`, the reverse into `rev`.
fn both_directions(
    table: &PairTable,
    (src, tgt, idx): (&[u32], &[u32], &[u32]),
    p0: f64,
    jumps: &[Jumps; 2],
    fwd: Out<'_>,
    rev: Out<'_>,
) {
    let (n, m) = (src.len(), tgt.len());
    FB.with(|fb| {
        let fb = &mut *fb.borrow_mut();
        fb.e.resize(m * (n + 1), 0.0);
        emit_fwd(table, src, tgt, idx, FLOOR, &mut fb.e);
        forward_backward(n, m, p0, &jumps[0], fb, fwd);
        fb.e.resize(n * (m + 1), 0.0);
        emit_rev(table, src, tgt, idx, FLOOR, &mut fb.e);
        forward_backward(m, n, p0, &jumps[1], fb, rev);
        fb.trim();
    })
}

thread_local! {
    /// The reverse direction's posteriors of a pair during a joint E-step.
    static REV: std::cell::RefCell<Vec<f64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The state of joint training.
struct Trainer<'a> {
    pairs: Pairs<'a>,
    opts: HmmOptions,
    table: PairTable,
    shape: Shape,
    jumps: [Jumps; 2],
    /// Expected count of every entry in the E-step under way (single precision, see
    /// `lexicon.rs`).
    c: Vec<f32>,
    report: Report<'a>,
    pass: u32,
}

impl Trainer<'_> {
    /// Announces the next pass.
    fn start(&mut self, stage: Stage) {
        self.pass += 1;
        (self.report)(Event::Pass {
            pass: self.pass,
            passes: self.opts.passes(),
            stage,
        });
    }

    fn zero_counts(&mut self) {
        use rayon::prelude::*;
        self.c
            .par_iter_mut()
            .with_min_len(1 << 16)
            .for_each(|x| *x = 0.0);
    }

    /// One IBM Model 1 iteration of one direction.
    fn ibm1(&mut self, reverse: bool) -> Result<()> {
        self.zero_counts();
        let (ns, nt) = (self.pairs.src_vocab().len(), self.pairs.tgt_vocab().len());
        let mut rest = if reverse {
            Rest::zeroed(nt, ns)
        } else {
            Rest::zeroed(ns, nt)
        };
        let (t, c, max_len, report) = (&self.table, &mut self.c, self.opts.max_len, self.report);
        let total = self.pairs.len() as u64;
        stream(
            self.pairs,
            // A pair over `max_len` is skipped: no space for it.
            |n, m| match lexicon::used(n, m, max_len) {
                true => (n * m + if reverse { n } else { m }, n * m),
                false => (0, 0),
            },
            |ch: &Chunk, k, post: &mut [f64], idx: &mut [u32]| {
                let (src, tgt) = (ch.src(k), ch.tgt(k));
                if !lexicon::used(src.len(), tgt.len(), max_len) {
                    return None;
                }
                t.lookup(src, tgt, idx);
                if reverse {
                    emit_rev(t, src, tgt, idx, 0.0, post);
                    normalise_rows(post, tgt.len() + 1);
                } else {
                    emit_fwd(t, src, tgt, idx, 0.0, post);
                    normalise_rows(post, src.len() + 1);
                }
                Some(())
            },
            |ch: &Chunk, k, post: &[f64], idx: &[u32], ()| {
                let (src, tgt) = (ch.src(k), ch.tgt(k));
                let (n, m) = (src.len(), tgt.len());
                if reverse {
                    for (i, (&s, row)) in src.iter().zip(post.chunks(m + 1)).enumerate() {
                        rest.null[s as usize] += row[0];
                        for (j, (&w, &p)) in tgt.iter().zip(&row[1..]).enumerate() {
                            match idx[i * m + j] {
                                NONE => rest.pruned[w as usize] += p,
                                e => c[e as usize] += p as f32,
                            }
                        }
                    }
                } else {
                    for (j, (&w, row)) in tgt.iter().zip(post.chunks(n + 1)).enumerate() {
                        rest.null[w as usize] += row[0];
                        for (i, (&s, &p)) in src.iter().zip(&row[1..]).enumerate() {
                            match idx[i * m + j] {
                                NONE => rest.pruned[s as usize] += p,
                                e => c[e as usize] += p as f32,
                            }
                        }
                    }
                }
            },
            |done| {
                report(Event::Progress {
                    done: done as u64,
                    total,
                })
            },
        )?;
        let alpha = self.opts.alpha;
        if reverse {
            lexicon::m_step_rev(&mut self.table, &self.shape, &self.c, &rest, alpha);
        } else {
            lexicon::m_step_fwd(&mut self.table, &self.shape, &self.c, &rest, alpha);
        }
        Ok(())
    }

    /// One HMM iteration of both directions together, by agreement.
    fn joint(&mut self) -> Result<()> {
        self.zero_counts();
        let (ns, nt) = (self.pairs.src_vocab().len(), self.pairs.tgt_vocab().len());
        let nb = self.jumps[0].w.len();
        let mut sums = JointSums::new(ns, nt, nb);
        let (t, c, report, js) = (&self.table, &mut self.c, self.report, &self.jumps);
        let (max_len, p0) = (self.opts.max_len, self.opts.p0);
        let total = self.pairs.len() as u64;
        // A pair's f64s: the forward posteriors after agreement (every word cell's agreed
        // count), the reverse null cells, then both directions' jumps and exposure.
        stream(
            self.pairs,
            |n, m| match lexicon::used(n, m, max_len) {
                true => (m * (n + 1) + n + 4 * nb, n * m),
                false => (0, 0),
            },
            |ch: &Chunk, k, out: &mut [f64], idx: &mut [u32]| {
                let (src, tgt) = (ch.src(k), ch.tgt(k));
                if !lexicon::used(src.len(), tgt.len(), max_len) {
                    return None;
                }
                t.lookup(src, tgt, idx);
                joint_pair(t, (src, tgt, idx), p0, js, out);
                Some(())
            },
            |ch: &Chunk, k, out: &[f64], idx: &[u32], ()| {
                sums.add(c, (ch.src(k), ch.tgt(k), idx), out);
            },
            |done| {
                report(Event::Progress {
                    done: done as u64,
                    total,
                })
            },
        )?;
        let alpha = self.opts.alpha;
        lexicon::m_step_fwd(&mut self.table, &self.shape, &self.c, &sums.fwd, alpha);
        lexicon::m_step_rev(&mut self.table, &self.shape, &self.c, &sums.rev, alpha);
        for (d, [counts, exposure]) in sums.jumps.into_iter().enumerate() {
            if let Some(w) = jump_weights(&counts, &exposure) {
                self.jumps[d].w = w;
            }
        }
        Ok(())
    }
}

/// The E-step of joint training for one pair (`idx` its table entries): forward–backward
/// in both directions, agreement, and into `out` the forward posteriors after agreement,
/// the reverse null cells, then both directions' expected jumps and exposure.
fn joint_pair(
    table: &PairTable,
    (src, tgt, idx): (&[u32], &[u32], &[u32]),
    p0: f64,
    js: &[Jumps; 2],
    out: &mut [f64],
) {
    let (n, m, nb) = (src.len(), tgt.len(), js[0].w.len());
    let (fwd, rest) = out.split_at_mut(m * (n + 1));
    let (rev_null, rest) = rest.split_at_mut(n);
    let (jf, rest) = rest.split_at_mut(nb);
    let (ef, rest) = rest.split_at_mut(nb);
    let (jr, er) = rest.split_at_mut(nb);
    REV.with(|rev| {
        let rev = &mut *rev.borrow_mut();
        rev.resize(n * (m + 1), 0.0);
        let f = Out {
            post: fwd,
            jumps: jf,
            exposure: ef,
        };
        let r = Out {
            post: rev,
            jumps: jr,
            exposure: er,
        };
        both_directions(table, (src, tgt, idx), p0, js, f, r);
        agree(fwd, rev, n, m);
        for (o, row) in rev_null.iter_mut().zip(rev.chunks(m + 1)) {
            *o = row[0];
        }
        trim(rev);
    });
}

/// The counts of a joint iteration besides the table entries': pruned and null mass of
/// each direction, and both directions' expected jumps and exposure.
struct JointSums {
    fwd: Rest,
    rev: Rest,
    /// `[direction][counts, exposure]`, one per jump bucket.
    jumps: [[Vec<f64>; 2]; 2],
}

impl JointSums {
    /// Zeros for vocabularies of `ns` source and `nt` target words and `nb` jump buckets.
    fn new(ns: usize, nt: usize, nb: usize) -> Self {
        JointSums {
            fwd: Rest::zeroed(ns, nt),
            rev: Rest::zeroed(nt, ns),
            jumps: [
                [vec![0.0; nb], vec![0.0; nb]],
                [vec![0.0; nb], vec![0.0; nb]],
            ],
        }
    }

    /// Adds what [`joint_pair`] wrote to `out` for a pair: agreed word cells to the table
    /// entries' counts `counts` (or to the pruned mass of both directions), null cells,
    /// jumps.
    fn add(&mut self, counts: &mut [f32], (src, tgt, idx): (&[u32], &[u32], &[u32]), out: &[f64]) {
        let (n, m, nb) = (src.len(), tgt.len(), self.jumps[0][0].len());
        let (fwd, rest) = out.split_at(m * (n + 1));
        let (rev_null, rest) = rest.split_at(n);
        for (j, (&w, row)) in tgt.iter().zip(fwd.chunks(n + 1)).enumerate() {
            self.fwd.null[w as usize] += row[0];
            for (i, (&s, &mu)) in src.iter().zip(&row[1..]).enumerate() {
                match idx[i * m + j] {
                    NONE => {
                        self.fwd.pruned[s as usize] += mu;
                        self.rev.pruned[w as usize] += mu;
                    }
                    e => counts[e as usize] += mu as f32,
                }
            }
        }
        for (&s, &x) in src.iter().zip(rev_null) {
            self.rev.null[s as usize] += x;
        }
        for (acc, part) in self.jumps.iter_mut().flatten().zip(rest.chunks(nb)) {
            for (x, y) in acc.iter_mut().zip(part) {
                *x += y;
            }
        }
    }
}

/// New jump weights from expected jumps `counts` and their `exposure` (per bucket: jumps
/// over the positions offered, normalised, floored); `None` when nothing was offered.
fn jump_weights(counts: &[f64], exposure: &[f64]) -> Option<Vec<f64>> {
    let rate: Vec<f64> = counts
        .iter()
        .zip(exposure)
        .map(|(&c, &e)| if e > 0.0 { c / e } else { 0.0 })
        .collect();
    let z: f64 = rate.iter().sum();
    (z > 0.0).then(|| rate.iter().map(|&r| (r / z).max(FLOOR)).collect())
}

/// Trains both directions together on `pairs`: IBM Model 1 in each direction (its first
/// iteration counts and prunes the word pairs), then the HMM jointly, by agreement.
pub(crate) fn train(pairs: Pairs<'_>, opts: &HmmOptions, report: Report<'_>) -> Result<HmmModel> {
    opts.validate()?;
    let mut tr = Trainer {
        pairs,
        opts: opts.clone(),
        table: PairTable::default(),
        shape: Shape::empty(),
        jumps: [Jumps::uniform(opts.max_jump), Jumps::uniform(opts.max_jump)],
        c: Vec::new(),
        report,
        pass: 0,
    };
    tr.start(Stage::Count);
    let lexicon::Counted {
        table,
        shape,
        counts: [c_f, c_r],
        rest: [rf, rr],
    } = lexicon::first_pass(
        pairs,
        opts.max_len,
        opts.alpha,
        opts.prune,
        &mut |done, total| report(Event::Progress { done, total }),
    )?;
    (tr.table, tr.shape) = (table, shape);
    report(Event::Table {
        seen: tr.shape.word_pairs,
        kept: tr.table.entries() as u64,
        bytes: tr.table.bytes() as u64,
    });
    let alpha = opts.alpha;
    if opts.ibm1_iterations > 0 {
        lexicon::m_step_fwd(&mut tr.table, &tr.shape, &c_f, &rf, alpha);
        drop(c_f);
        lexicon::m_step_rev(&mut tr.table, &tr.shape, &c_r, &rr, alpha);
    } else {
        drop(c_f);
        lexicon::uniform(&mut tr.table, &tr.shape);
    }
    tr.c = c_r;
    drop((rf, rr));
    report(Event::PassDone);
    for iteration in 2..=opts.ibm1_iterations {
        for reverse in [false, true] {
            tr.start(Stage::Ibm1 {
                reverse,
                iteration,
                of: opts.ibm1_iterations,
            });
            tr.ibm1(reverse)?;
            report(Event::PassDone);
        }
    }
    for iteration in 1..=opts.hmm_iterations {
        tr.start(Stage::Hmm {
            iteration,
            of: opts.hmm_iterations,
        });
        tr.joint()?;
        report(Event::PassDone);
    }
    let Trainer {
        table, jumps, c, ..
    } = tr;
    drop(c);
    Ok(HmmModel {
        options: opts.clone(),
        src_vocab: pairs.src_vocab().clone(),
        tgt_vocab: pairs.tgt_vocab().clone(),
        table,
        jumps: jumps.map(|j| j.w),
    })
}

/// One pair aligned by the HMM: each direction's best link of every generated word with its
/// posterior probability; links `(source, target)`, sorted.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct JointPair {
    /// Source and target length.
    pub lengths: (usize, usize),
    pub forward: Vec<((usize, usize), f64)>,
    pub reverse: Vec<((usize, usize), f64)>,
}

/// The best link of every generated word and its posterior, from a direction's posteriors
/// `pc` (`rows` generated words of `width` cells): sorted `(source, target)` links.
fn best_links(pc: &PairCounts, width: usize, reverse: bool) -> Vec<((usize, usize), f64)> {
    let mut out = Vec::new();
    for (j, row) in pc.cells.chunks(width).enumerate() {
        let (mut b, mut best) = (0, row[0]);
        for (i, &p) in row.iter().enumerate().skip(1) {
            if p > best {
                (b, best) = (i, p);
            }
        }
        if b > 0 {
            out.push((if reverse { (j, b - 1) } else { (b - 1, j) }, best));
        }
    }
    out.sort_by_key(|x| x.0);
    out
}

/// The model's id of every word of `words` ([`NONE`] for a word it does not know).
fn id_map(model: &Vocab, words: &Vocab, trained: impl Fn(u32) -> bool) -> Vec<u32> {
    words
        .words()
        .map(|w| model.get(w).filter(|&id| trained(id)).unwrap_or(NONE))
        .collect()
}

/// A trained HMM aligner, both directions: what aligns any corpus, and what is saved.
#[derive(Debug, Clone)]
pub(crate) struct HmmModel {
    pub options: HmmOptions,
    pub src_vocab: Vocab,
    pub tgt_vocab: Vocab,
    pub table: PairTable,
    /// Jump weights of the forward and the reverse direction.
    pub jumps: [Vec<f64>; 2],
}

impl HmmModel {
    /// Aligns every pair of `pairs` (which need not be the training corpus) in both
    /// directions, handing each pair's links to `sink` in corpus order:
    /// word pairs the model does not hold get their row's share (see `lexicon.rs`), unknown
    /// words [`crate::UNSEEN_PROB`]; pairs with an empty side or over
    /// [`HmmOptions::max_len`] tokens get no links.
    pub fn align_each(
        &self,
        pairs: Pairs<'_>,
        report: Report<'_>,
        mut sink: impl FnMut(usize, JointPair) -> Result<()> + Send,
    ) -> Result<()> {
        // A word of the vocabulary that no trained pair holds (one only in pairs left out by
        // `--align-train-max` or over `max_len`) is unknown, as to a model trained without
        // it: its null probability is UNSEEN_PROB exactly when no trained pair holds it.
        let t = &self.table;
        let src_map = id_map(&self.src_vocab, pairs.src_vocab(), |s| {
            t.p_null_rev(s) != crate::UNSEEN_PROB
        });
        let tgt_map = id_map(&self.tgt_vocab, pairs.tgt_vocab(), |w| {
            t.p_null_fwd(w) != crate::UNSEEN_PROB
        });
        let jumps = [
            Jumps {
                max: self.options.max_jump,
                w: self.jumps[0].clone(),
            },
            Jumps {
                max: self.options.max_jump,
                w: self.jumps[1].clone(),
            },
        ];
        let (max_len, p0) = (self.options.max_len, self.options.p0);
        let total = pairs.len() as u64;
        let mut failed = None;
        stream(
            pairs,
            |n, m| match lexicon::used(n, m, max_len) {
                true => (0, n * m),
                false => (0, 0),
            },
            |ch: &Chunk, k, _: &mut [f64], idx: &mut [u32]| -> Option<JointPair> {
                let src: Vec<u32> = ch.src(k).iter().map(|&w| src_map[w as usize]).collect();
                let tgt: Vec<u32> = ch.tgt(k).iter().map(|&w| tgt_map[w as usize]).collect();
                let (n, m) = (src.len(), tgt.len());
                if !lexicon::used(n, m, max_len) {
                    return Some(JointPair {
                        lengths: (n, m),
                        ..JointPair::default()
                    });
                }
                t.lookup(&src, &tgt, idx);
                let (mut a, mut b) = (PairCounts::new(n, m, 0), PairCounts::new(m, n, 0));
                both_directions(t, (&src, &tgt, idx), p0, &jumps, a.out(), b.out());
                Some(JointPair {
                    lengths: (n, m),
                    forward: best_links(&a, n + 1, false),
                    reverse: best_links(&b, m + 1, true),
                })
            },
            |ch: &Chunk, k, _: &[f64], _: &[u32], p| {
                if failed.is_none() {
                    failed = sink(ch.first + k, p).err();
                }
            },
            |done| {
                report(Event::Progress {
                    done: done as u64,
                    total,
                })
            },
        )?;
        failed.map_or(Ok(()), Err)
    }

    /// Number of stored probabilities (both directions, null words included).
    pub fn num_params(&self) -> usize {
        2 * self.table.entries() + self.src_vocab.len() + self.tgt_vocab.len()
    }

    /// Writes the model's fields after the header (format version 4; see the crate README).
    pub fn write(&self, writer: &mut binfmt::Writer, labels: &Labels) -> Result<()> {
        let o = &self.options;
        writer.u32(o.ibm1_iterations)?;
        writer.u32(o.hmm_iterations)?;
        for x in [o.p0, o.alpha, o.prune] {
            writer.f64(x)?;
        }
        writer.u64(o.max_jump as u64)?;
        writer.labels(labels)?;
        writer.vocab(&self.src_vocab)?;
        writer.vocab(&self.tgt_vocab)?;
        for jumps in &self.jumps {
            writer.u64(jumps.len() as u64)?;
            writer.f64s(jumps)?;
        }
        writer.pair_table(&self.table)
    }

    /// Reads a model of format version 3 or 4 after its header.
    pub fn read(
        reader: &mut binfmt::Reader<'_>,
        version: u32,
    ) -> std::result::Result<(HmmModel, Labels), String> {
        let ibm1_iterations = reader.u32()?;
        let hmm_iterations = reader.u32()?;
        let (p0, alpha) = (reader.f64()?, reader.f64()?);
        // Version 3 recorded the threshold of an agreed alignment no longer made.
        let prune = if version >= 4 {
            reader.f64()?
        } else {
            reader.f64()?;
            0.0
        };
        let max_jump = usize::try_from(reader.u64()?).map_err(|_| "bad max_jump".to_string())?;
        let options = HmmOptions {
            ibm1_iterations,
            hmm_iterations,
            p0,
            max_jump,
            alpha,
            max_len: HmmOptions::default().max_len,
            prune,
        };
        options.validate().map_err(|e| e.to_string())?;
        let labels = reader.labels()?;
        let (src_vocab, tgt_vocab) = (reader.vocab()?, reader.vocab()?);
        let read_jumps = |r: &mut binfmt::Reader<'_>| -> std::result::Result<Vec<f64>, String> {
            let n = r.len()?;
            if Some(n) != max_jump.checked_mul(2).map(|x| x + 1) {
                return Err(format!("{n} jump weights for max_jump {max_jump}"));
            }
            let jumps = r.f64s(n)?;
            if jumps.iter().any(|&w| !(w.is_finite() && w > 0.0)) {
                return Err("bad jump weight".into());
            }
            Ok(jumps)
        };
        let (table, jumps) = if version >= 4 {
            let jf = read_jumps(reader)?;
            let jr = read_jumps(reader)?;
            (
                reader.pair_table(src_vocab.len(), tgt_vocab.len())?,
                [jf, jr],
            )
        } else {
            // Version 3: per direction, its jumps then its table column by column.
            let (ns, nt) = (src_vocab.len(), tgt_vocab.len());
            let jf = read_jumps(reader)?;
            let fwd = reader.columns(nt, ns)?;
            let jr = read_jumps(reader)?;
            let rev = reader.columns(ns, nt)?;
            (PairTable::from_columns(&fwd, &rev, ns, nt), [jf, jr])
        };
        reader.end()?;
        Ok((
            HmmModel {
                options,
                src_vocab,
                tgt_vocab,
                table,
                jumps,
            },
            labels,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Aligner, AlignerSpec, Corpus, Direction, SILENT};

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

    fn align(c: &Corpus, opts: &HmmOptions, d: Direction) -> crate::Aligned {
        let a = Aligner::train(c, &AlignerSpec::Hmm(opts.clone()), SILENT).unwrap();
        a.align(c, d, SILENT).unwrap()
    }

    /// Every word of the toy corpus is learnt, in both directions, pruned or not.
    #[test]
    fn learns_the_toy_dictionary() {
        let c = corpus(&TOY);
        for prune in [0.0, DEFAULT_PRUNE] {
            let opts = HmmOptions {
                prune,
                ..HmmOptions::default()
            };
            for d in [Direction::Forward, Direction::Reverse] {
                let a = align(&c, &opts, d);
                assert_eq!(a.links[0], vec![(0, 0), (1, 1)], "{d}");
                assert_eq!(a.links[2], vec![(0, 0), (1, 1)], "{d}");
                assert_eq!(a.links[4], vec![(0, 0), (1, 1), (2, 2)], "{d}");
                for p in a.posteriors.iter().flatten().flatten() {
                    assert!(*p > 0.5 && *p <= 1.0 + 1e-9, "{p}");
                }
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
        let a = align(&c, &HmmOptions::default(), Direction::Intersection);
        assert_eq!(a.links[0], vec![(0, 1), (1, 0)]);
        assert_eq!(a.links[2], vec![(0, 1), (1, 0)]);
    }

    /// Emissions of a pair, arbitrary but fixed.
    fn emissions(n: usize, m: usize) -> Vec<f64> {
        (0..m * (n + 1))
            .map(|k| 0.05 + ((k * 37 + 11) % 17) as f64 / 20.0)
            .collect()
    }

    /// Posteriors of every cell row sum to one; one jump (at most) per generated word.
    #[test]
    fn posteriors_are_distributions() {
        let jm = Jumps::uniform(3);
        for (n, m) in [(1, 1), (3, 2), (2, 3), (7, 9)] {
            let mut fb = Fb {
                e: emissions(n, m),
                ..Fb::default()
            };
            let mut pc = PairCounts::new(n, m, jm.w.len());
            forward_backward(n, m, 0.05, &jm, &mut fb, pc.out());
            for row in pc.cells.chunks(n + 1) {
                let s: f64 = row.iter().sum();
                assert!((s - 1.0).abs() < 1e-9, "{s}");
            }
            let j: f64 = pc.jumps.iter().sum();
            assert!(j > 0.0 && j <= m as f64 + 1e-9, "{j}");
        }
    }

    /// Forward–backward (windowed, prefix sums beyond the window) equals brute force: every
    /// state path of a 5 × 3 pair enumerated, with jump widths beyond the window of 2.
    #[test]
    fn forward_backward_equals_enumeration() {
        let (n, m, p0) = (5usize, 3usize, 0.15);
        let e = emissions(n, m);
        let jm = Jumps {
            max: 2,
            w: vec![0.1, 0.15, 0.3, 0.25, 0.2],
        };
        let mut fb = Fb {
            e: e.clone(),
            ..Fb::default()
        };
        let mut pc = PairCounts::new(n, m, jm.w.len());
        forward_backward(n, m, p0, &jm, &mut fb, pc.out());
        let v = |d: isize| jm.w[jm.bucket(d)];
        let z = |p: isize| (0..n as isize).map(|i| v(i - p)).sum::<f64>();
        let t = |j: usize, i: usize| e[j * (n + 1) + i];
        // A state: Some(i) a word, None null; the memory is the last word (−1 at first).
        let states: Vec<Option<usize>> = (0..n).map(Some).chain([None]).collect();
        let mut post = vec![0.0; m * (n + 1)];
        let mut jumps = vec![0.0; jm.w.len()];
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
                        jumped.push(jm.bucket(i as isize - p));
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

    /// Same alignments and posteriors, bit for bit, on 1 and 3 threads, pruned or not.
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
        for prune in [0.0, 0.01] {
            let opts = HmmOptions {
                prune,
                ..HmmOptions::default()
            };
            let run = |threads| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap()
                    .install(|| align(&c, &opts, Direction::GrowDiagFinalAnd))
            };
            assert_eq!(run(1), run(3));
        }
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
            HmmOptions {
                prune: 1.0,
                ..HmmOptions::default()
            },
        ] {
            assert!(Aligner::train(&c, &AlignerSpec::Hmm(o), SILENT).is_err());
        }
    }

    #[test]
    fn jump_weights_are_rates_normalised_and_floored() {
        // Rates 0.5, 0.5, 0 (no exposure): halves and the floor.
        let w = jump_weights(&[1.0, 2.0, 0.0], &[2.0, 4.0, 0.0]).expect("offered");
        assert_eq!(w, [0.5, 0.5, FLOOR]);
        let w = jump_weights(&[3.0, 1.0], &[1.0, 1.0]).expect("offered");
        assert_eq!(w, [0.75, 0.25]);
        assert_eq!(jump_weights(&[0.0, 0.0], &[0.0, 3.0]), None);
    }
}
