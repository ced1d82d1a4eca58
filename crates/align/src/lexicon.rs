//! The HMM's lexical table: the word pairs it keeps, both directions' probabilities of each,
//! and what every other pair gets.
//!
//! - **One structure for both directions.** A word pair co-occurs in the same sentence
//!   pairs whichever side generates the other, so one sparse table serves both: rows by
//!   source word, target ids ascending, with `p(t | s)` (forward) and `p(s | t)` (reverse)
//!   side by side — 4 bytes of key and 8 of probabilities per kept pair, plus 4 bytes of
//!   expected count while training; about a quarter of a byte more for the block index of
//!   the rows. Probabilities and counts are single precision (a relative error of 6·10⁻⁸
//!   each, far below what moves a link): the table is the aligner's memory.
//! - **Pruned pairs.** The first pass (IBM Model 1's first iteration, whose posteriors are
//!   uniform) counts every co-occurring pair, a block of source words at a time so that
//!   its memory stays bounded, and keeps a pair only if its probability after that
//!   iteration reaches `prune` in either direction. The others keep their mass: every row
//!   (a conditioning word) records how many pairs it lost and their summed expected count,
//!   and each of them gets the probability of that average count — exactly what each would
//!   get where they all had the same count, as for a word seen once. Totals include them,
//!   so every row stays a distribution. `prune` 0 keeps every pair (exact EM).
//! - **Null and unknown words.** `p(w | NULL)` is one value per word; a pair with a word
//!   the model never saw gets [`UNSEEN_PROB`], as does a pair of known words that never
//!   co-occurred in a row that lost none.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::corpus::FxBuild;
use crate::diag::digamma;
use crate::error::Result;
use crate::store::{stream, Chunk, Pairs};
use crate::table::{Columns, UNSEEN_PROB};

/// Entry of a word pair the table does not hold (and of an unknown word).
pub(crate) const NONE: u32 = u32::MAX;

/// Word pairs whose first-pass counts are held at once (by an upper bound per source word;
/// 24 bytes each in a hash map), split into [`SUBS`] maps filled in parallel.
const ROUND_PAIRS: usize = 1 << 19;

/// Maps of one round of the first pass.
const SUBS: usize = 4;

/// Registers of the distinct-target sketch of each source word (a HyperLogLog; 1 byte
/// each): the standard error of its estimate is 1.04/√32 ≈ 18%.
const SKETCH: usize = 32;

/// The distinct target words that co-occur with each source word, estimated from one
/// pass (HyperLogLog, [`SKETCH`] registers per source word). The first pass sizes its
/// rounds by these estimates: the plain bound (the sum of target lengths over the word's
/// occurrences) grows with every repetition of a sentence, so the number of rounds — each a
/// pass over the corpus — grew with the corpus, and the time with its square.
struct Distinct {
    registers: Vec<u8>,
}

impl Distinct {
    fn new(words: usize) -> Distinct {
        Distinct {
            registers: vec![0; words * SKETCH],
        }
    }

    /// The sketch's hash of target word `tgt_word` (SplitMix64's finaliser).
    #[inline]
    fn hash(tgt_word: u32) -> u64 {
        let mut z = u64::from(tgt_word).wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Records that source word `src_word` co-occurs with the target word of hash
    /// `tgt_hash`.
    #[inline]
    fn add(&mut self, src_word: usize, tgt_hash: u64) {
        let reg = (tgt_hash >> 59) as usize; // the top 5 bits: one of 32 registers
        let rank = ((tgt_hash << 5) | 1 << 4).leading_zeros() as u8 + 1;
        let r = &mut self.registers[src_word * SKETCH + reg];
        *r = (*r).max(rank);
    }

    /// The estimated number of distinct target words of source word `src_word` (HyperLogLog
    /// with linear counting for small counts).
    fn estimate(&self, src_word: usize) -> f64 {
        let regs = &self.registers[src_word * SKETCH..(src_word + 1) * SKETCH];
        let m = SKETCH as f64;
        let sum: f64 = regs.iter().map(|&r| (-f64::from(r)).exp2()).sum();
        let raw = 0.697 * m * m / sum;
        let zeros = regs.iter().filter(|&&r| r == 0).count();
        if raw <= 2.5 * m && zeros > 0 {
            m * (m / zeros as f64).ln()
        } else {
            raw
        }
    }

    /// A size to plan with: the estimate with a margin of 2.7 standard errors, never above
    /// `bound`.
    fn planned(&self, src_word: usize, bound: u64) -> u64 {
        let e = (self.estimate(src_word) * 1.5).ceil() as u64 + 8;
        e.min(bound)
    }
}

/// The lexical table of the HMM by agreement (see the module documentation).
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct PairTable {
    /// Per source word, its entries `row_off[s]..row_off[s + 1]`.
    pub row_off: Vec<usize>,
    /// Target word of each entry, ascending within a row.
    pub cols: Vec<u32>,
    /// `p(t | s)` of each entry (single precision: 4 bytes, a relative error of 6·10⁻⁸).
    pub fwd: Vec<f32>,
    /// `p(s | t)` of each entry.
    pub rev: Vec<f32>,
    /// `p(t | NULL)`, per target word.
    pub null_fwd: Vec<f64>,
    /// `p(s | NULL)`, per source word.
    pub null_rev: Vec<f64>,
    /// `p(t | s)` of the pairs of row `s` the table does not hold, per source word.
    pub other_fwd: Vec<f64>,
    /// `p(s | t)` of the pairs of column `t` the table does not hold, per target word.
    pub other_rev: Vec<f64>,
    /// The first target id of every block of every row (a search finds the block, then the
    /// entry in it: one cache line of ids even in the rows of frequent words).
    pub firsts: Vec<u32>,
    /// Per source word, its range in `firsts`.
    pub firsts_off: Vec<usize>,
}

/// Blocks of a row: its entries cut at every multiple of this (16 ids: a cache line).
const BLOCK: usize = 16;

/// The end of the block of a row that starts at `entry`.
#[inline]
fn block_end(entry: usize, row_end: usize) -> usize {
    ((entry / BLOCK + 1) * BLOCK).min(row_end)
}

impl PairTable {
    /// Number of kept word pairs.
    pub fn entries(&self) -> usize {
        self.cols.len()
    }

    /// Bytes the table takes in memory.
    pub fn bytes(&self) -> usize {
        let words = self.null_fwd.len() + self.null_rev.len();
        self.entries() * 12
            + (self.row_off.len() + self.firsts_off.len()) * 8
            + self.firsts.len() * 4
            + words * 16
    }

    /// Builds the block index of the rows (after the rows change).
    pub fn index_rows(&mut self) {
        self.firsts.clear();
        self.firsts_off.clear();
        self.firsts_off.push(0);
        for w in self.row_off.windows(2) {
            let mut p = w[0];
            while p < w[1] {
                self.firsts.push(self.cols[p]);
                p = block_end(p, w[1]);
            }
            self.firsts_off.push(self.firsts.len());
        }
    }

    /// The entry of `(src_word, tgt_word)`, if held.
    #[inline]
    fn find(&self, src_word: usize, tgt_word: u32) -> u32 {
        let (lo, hi) = (self.row_off[src_word], self.row_off[src_word + 1]);
        let (lo, hi) = if hi - lo <= BLOCK {
            (lo, hi)
        } else {
            let firsts = &self.firsts[self.firsts_off[src_word]..self.firsts_off[src_word + 1]];
            let b = firsts.partition_point(|&x| x <= tgt_word);
            if b == 0 {
                return NONE;
            }
            // Blocks after the first start at multiples of BLOCK.
            let start = if b == 1 {
                lo
            } else {
                (lo / BLOCK + b - 1) * BLOCK
            };
            (start, block_end(start, hi))
        };
        match self.cols[lo..hi].binary_search(&tgt_word) {
            Ok(p) => (lo + p) as u32,
            Err(_) => NONE,
        }
    }

    /// Entry of every cell of a pair, source-major (`idx[i·m + j]`, `m` target words):
    /// [`NONE`] where the table holds no pair (or a word is [`NONE`], unknown).
    pub fn lookup(&self, src: &[u32], tgt: &[u32], idx: &mut [u32]) {
        for (&s, row) in src.iter().zip(idx.chunks_mut(tgt.len())) {
            for (&t, e) in tgt.iter().zip(row) {
                *e = if s == NONE || t == NONE {
                    NONE
                } else {
                    self.find(s as usize, t)
                };
            }
        }
    }

    /// `p(t | s)` of a cell `(src_word, tgt_word)` whose entry is `entry` (see
    /// [`PairTable::lookup`]).
    #[inline]
    pub fn p_fwd(&self, entry: u32, src_word: u32, tgt_word: u32) -> f64 {
        if entry != NONE {
            f64::from(self.fwd[entry as usize])
        } else if src_word == NONE || tgt_word == NONE {
            UNSEEN_PROB
        } else {
            self.other_fwd[src_word as usize]
        }
    }

    /// `p(s | t)` of a cell `(src_word, tgt_word)` whose entry is `entry`.
    #[inline]
    pub fn p_rev(&self, entry: u32, src_word: u32, tgt_word: u32) -> f64 {
        if entry != NONE {
            f64::from(self.rev[entry as usize])
        } else if src_word == NONE || tgt_word == NONE {
            UNSEEN_PROB
        } else {
            self.other_rev[tgt_word as usize]
        }
    }

    /// `p(t | s)` and `p(s | t)` of two known words `src_word`, `tgt_word` (model ids): the
    /// entry's, else what the pairs the table does not hold get.
    pub fn pair(&self, src_word: u32, tgt_word: u32) -> (f64, f64) {
        let e = self.find(src_word as usize, tgt_word);
        (
            self.p_fwd(e, src_word, tgt_word),
            self.p_rev(e, src_word, tgt_word),
        )
    }

    /// `p(t | NULL)` of target word `tgt_word`.
    #[inline]
    pub fn p_null_fwd(&self, tgt_word: u32) -> f64 {
        if tgt_word == NONE {
            UNSEEN_PROB
        } else {
            self.null_fwd[tgt_word as usize]
        }
    }

    /// `p(s | NULL)` of source word `src_word`.
    #[inline]
    pub fn p_null_rev(&self, src_word: u32) -> f64 {
        if src_word == NONE {
            UNSEEN_PROB
        } else {
            self.null_rev[src_word as usize]
        }
    }
}

/// What training knows of the table beyond its entries.
pub(crate) struct Shape {
    /// Pairs the table does not hold, per source word (row) and per target word (column).
    pub pruned_row: Vec<u32>,
    /// Same, per target word.
    pub pruned_col: Vec<u32>,
    /// Words of each side that occur in a trained pair.
    pub occurs_src: Vec<bool>,
    /// Same, target side.
    pub occurs_tgt: Vec<bool>,
    /// Distinct co-occurring word pairs counted.
    pub word_pairs: u64,
}

/// Expected counts of one direction beyond the table's entries: per conditioning word, the
/// summed count of its pruned pairs; per generated word, its count with the null word.
#[derive(Default)]
pub(crate) struct Rest {
    pub pruned: Vec<f64>,
    pub null: Vec<f64>,
}

impl Rest {
    pub fn zeroed(conds: usize, gens: usize) -> Rest {
        Rest {
            pruned: vec![0.0; conds],
            null: vec![0.0; gens],
        }
    }
}

/// Whether a pair with these lengths is trained and aligned: both sides non-empty and at
/// most `max_len` tokens long.
#[inline]
pub(crate) fn used(src_len: usize, tgt_len: usize, max_len: usize) -> bool {
    src_len > 0 && tgt_len > 0 && src_len <= max_len && tgt_len <= max_len
}

/// What the first pass leaves: the table's kept pairs (no probabilities yet), its shape,
/// and both directions' expected counts — of the kept pairs, and the others.
pub(crate) struct Counted {
    pub table: PairTable,
    pub shape: Shape,
    pub counts: [Vec<f32>; 2],
    pub rest: [Rest; 2],
}

/// The first pass: IBM Model 1's first iteration (every posterior uniform) in both
/// directions (probabilities are then made by [`m_step_fwd`]/[`m_step_rev`]).
/// `progress(done, total)` follows the passes over the pairs.
pub(crate) fn first_pass(
    pairs: Pairs<'_>,
    max_len: usize,
    alpha: f64,
    prune: f64,
    progress: &mut (dyn FnMut(u64, u64) + Send),
) -> Result<Counted> {
    let (ns, nt) = (pairs.src_vocab().len(), pairs.tgt_vocab().len());
    let Margins {
        row_w,
        col_w,
        ub_row,
        ub_col,
        rest,
        occurs_src,
        occurs_tgt,
        distinct,
    } = margins(pairs, max_len)?;
    let ranges = source_ranges(&ub_row, &distinct, nt);
    drop(distinct);
    let rounds: Vec<&[(u32, u32)]> = ranges.chunks(SUBS).collect();
    let total = pairs.len() as u64;
    let units = total * rounds.len() as u64;
    progress(0, units);
    let mut build = Build {
        // tot_r estimated for the pruning test; exact after the pass.
        est_rev: (0..nt)
            .map(|t| col_w[t] + alpha * ub_col[t].min(ns as u64) as f64)
            .collect(),
        row_w,
        alpha,
        prune,
        table: PairTable {
            row_off: Vec::with_capacity(ns + 1),
            ..PairTable::default()
        },
        pruned_row: vec![0u32; ns],
        pruned_col: vec![0u32; nt],
        word_pairs: 0,
        counts: [Vec::new(), Vec::new()],
        rest,
    };
    build.table.row_off.push(0);
    for (r, round) in rounds.iter().enumerate() {
        let base = r as u64 * total;
        let maps = round_counts(pairs, round, max_len, &mut |done| {
            progress(base + done, units)
        })?;
        for map in maps {
            build.add(map);
        }
    }
    Ok(build.finish(ns, nt, occurs_src, occurs_tgt))
}

/// What one pass over the pairs learns before any word pair is counted.
struct Margins {
    /// Sums over the cells of every row (source word) ...
    row_w: Vec<f64>,
    /// ... and column (target word).
    col_w: Vec<f64>,
    /// Upper bounds of the distinct pairs of every row ...
    ub_row: Vec<u64>,
    /// ... and column.
    ub_col: Vec<u64>,
    /// Null counts of both directions (nothing pruned yet).
    rest: [Rest; 2],
    /// Which source words occur in a trained pair.
    occurs_src: Vec<bool>,
    /// Which target words occur in a trained pair.
    occurs_tgt: Vec<bool>,
    /// Estimates of the distinct pairs of every row.
    distinct: Distinct,
}

/// The margins of the trained pairs (at most `max_len` tokens a side), in one pass.
fn margins(pairs: Pairs<'_>, max_len: usize) -> Result<Margins> {
    let (ns, nt) = (pairs.src_vocab().len(), pairs.tgt_vocab().len());
    let mut g = Margins {
        row_w: vec![0.0f64; ns],
        col_w: vec![0.0f64; nt],
        ub_row: vec![0u64; ns],
        ub_col: vec![0u64; nt],
        rest: [Rest::zeroed(ns, nt), Rest::zeroed(nt, ns)],
        occurs_src: vec![false; ns],
        occurs_tgt: vec![false; nt],
        distinct: Distinct::new(ns),
    };
    let mut hashes: Vec<u64> = Vec::new();
    stream(
        pairs,
        |_, _| (0, 0),
        |_, _, _, _| Some(()),
        |c: &Chunk, k, _, _, ()| {
            let (src, tgt) = (c.src(k), c.tgt(k));
            let (n, m) = (src.len(), tgt.len());
            if !used(n, m, max_len) {
                return;
            }
            let (wf, wr) = (1.0 / (n + 1) as f64, 1.0 / (m + 1) as f64);
            hashes.clear();
            hashes.extend(tgt.iter().map(|&t| Distinct::hash(t)));
            for &s in src {
                let s = s as usize;
                g.row_w[s] += m as f64 * wf;
                g.rest[1].null[s] += wr;
                g.ub_row[s] += m as u64;
                g.occurs_src[s] = true;
                for &h in &hashes {
                    g.distinct.add(s, h);
                }
            }
            for &t in tgt {
                let t = t as usize;
                g.col_w[t] += n as f64 * wr;
                g.rest[0].null[t] += wf;
                g.ub_col[t] += n as u64;
                g.occurs_tgt[t] = true;
            }
        },
        |_| {},
    )?;
    Ok(g)
}

/// Ranges of source words of about `ROUND_PAIRS / SUBS` distinct pairs each (by the
/// estimate; a word alone may exceed it), covering all `ub_row.len()` words in order.
fn source_ranges(ub_row: &[u64], distinct: &Distinct, nt: usize) -> Vec<(u32, u32)> {
    let sub_max = (ROUND_PAIRS / SUBS) as u64;
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    let (mut lo, mut acc) = (0usize, 0u64);
    for (s, &ub) in ub_row.iter().enumerate() {
        let b = distinct.planned(s, ub.min(nt as u64));
        if acc + b > sub_max && s > lo {
            ranges.push((lo as u32, s as u32));
            (lo, acc) = (s, 0);
        }
        acc += b;
    }
    if ub_row.len() > lo {
        ranges.push((lo as u32, ub_row.len() as u32));
    }
    ranges
}

/// Expected counts `(forward, reverse)` of the first iteration, per word pair
/// `s << 32 | t`.
type PairMap = HashMap<u64, (f64, f64), FxBuild>;

/// One round: a pass over the pairs counting the word pairs whose source word lies in each
/// range of `round` (one map per range, filled in parallel). `progress(done)` gets the
/// pairs read.
fn round_counts(
    pairs: Pairs<'_>,
    round: &[(u32, u32)],
    max_len: usize,
    progress: &mut dyn FnMut(u64),
) -> Result<Vec<PairMap>> {
    let mut maps: Vec<(std::ops::Range<u32>, PairMap)> = round
        .iter()
        .map(|&(a, b)| (a..b, PairMap::default()))
        .collect();
    let mut reader = pairs.reader()?;
    let mut chunk = Chunk::default();
    while reader.next_chunk(&mut chunk)? {
        let c = &chunk;
        maps.par_iter_mut().for_each(|(range, map)| {
            for k in 0..c.len() {
                let (src, tgt) = (c.src(k), c.tgt(k));
                let (n, m) = (src.len(), tgt.len());
                if !used(n, m, max_len) {
                    continue;
                }
                let (wf, wr) = (1.0 / (n + 1) as f64, 1.0 / (m + 1) as f64);
                for &s in src.iter().filter(|s| range.contains(s)) {
                    for &t in tgt {
                        let v = map.entry(u64::from(s) << 32 | u64::from(t)).or_default();
                        v.0 += wf;
                        v.1 += wr;
                    }
                }
            }
        });
        progress((chunk.first + chunk.len()) as u64);
    }
    Ok(maps.into_iter().map(|(_, map)| map).collect())
}

/// The table under construction from the rounds' counts, rows in ascending order.
struct Build {
    /// Estimated reverse totals of every column, for the pruning test.
    est_rev: Vec<f64>,
    /// Row sums ([`Margins::row_w`]).
    row_w: Vec<f64>,
    alpha: f64,
    prune: f64,
    table: PairTable,
    pruned_row: Vec<u32>,
    pruned_col: Vec<u32>,
    word_pairs: u64,
    /// Expected counts of the kept entries, forward and reverse.
    counts: [Vec<f32>; 2],
    /// Pruned and null mass of both directions.
    rest: [Rest; 2],
}

impl Build {
    /// Adds the rows counted in `map` (rows after those added before): entries kept unless
    /// neither direction's first-iteration probability reaches `prune`; the others go to the
    /// pruned mass.
    fn add(&mut self, map: PairMap) {
        let mut entries: Vec<(u64, (f64, f64))> = map.into_iter().collect();
        entries.sort_unstable_by_key(|e| e.0);
        self.word_pairs += entries.len() as u64;
        for row in entries.chunk_by(|a, b| a.0 >> 32 == b.0 >> 32) {
            let s = (row[0].0 >> 32) as usize;
            while self.table.row_off.len() <= s {
                self.table.row_off.push(self.table.cols.len());
            }
            let alpha = self.alpha;
            let g_row = digamma((self.row_w[s] + alpha * row.len() as f64).max(alpha));
            for &(key, (cf, cr)) in row {
                let t = (key & 0xffff_ffff) as u32;
                let keep = self.prune <= 0.0 || {
                    let pf = (digamma(cf + alpha) - g_row).exp();
                    let g_col = digamma(self.est_rev[t as usize].max(alpha));
                    let pr = (digamma(cr + alpha) - g_col).exp();
                    pf.max(pr) >= self.prune
                };
                if keep {
                    self.table.cols.push(t);
                    self.counts[0].push(cf as f32);
                    self.counts[1].push(cr as f32);
                } else {
                    self.pruned_row[s] += 1;
                    self.pruned_col[t as usize] += 1;
                    self.rest[0].pruned[s] += cf;
                    self.rest[1].pruned[t as usize] += cr;
                }
            }
        }
    }
}

impl Build {
    /// The table of `ns` source and `nt` target words (rows after the last counted ones
    /// empty, probabilities not made yet), its shape and the counts.
    fn finish(self, ns: usize, nt: usize, occurs_src: Vec<bool>, occurs_tgt: Vec<bool>) -> Counted {
        let Build {
            mut table,
            pruned_row,
            pruned_col,
            word_pairs,
            counts,
            rest,
            ..
        } = self;
        while table.row_off.len() <= ns {
            table.row_off.push(table.cols.len());
        }
        table.null_fwd = vec![UNSEEN_PROB; nt];
        table.null_rev = vec![UNSEEN_PROB; ns];
        table.other_fwd = vec![UNSEEN_PROB; ns];
        table.other_rev = vec![UNSEEN_PROB; nt];
        table.index_rows();
        let shape = Shape {
            pruned_row,
            pruned_col,
            occurs_src,
            occurs_tgt,
            word_pairs,
        };
        Counted {
            table,
            shape,
            counts,
            rest,
        }
    }
}

/// `exp(ψ(c + α) − g)`: a variational-Bayes probability (fast_align's M-step) for a count
/// `c` in a row whose total gives `g = ψ(total)`.
#[inline]
fn vb(c: f64, alpha: f64, g: f64) -> f64 {
    (digamma(c + alpha) - g).exp()
}

/// `ψ(total)` of a row: its entries' counts, its pruned pairs' summed count, `α` each.
#[inline]
fn row_digamma(sum: f64, pruned: f64, n_pruned: u32, alpha: f64) -> f64 {
    digamma((sum + pruned + alpha * f64::from(n_pruned)).max(alpha))
}

/// The probability of the pruned pairs of a row (their average count), if it lost any.
#[inline]
fn other(pruned: f64, n_pruned: u32, alpha: f64, g: f64) -> f64 {
    if n_pruned == 0 {
        UNSEEN_PROB
    } else {
        vb(pruned / f64::from(n_pruned), alpha, g)
    }
}

/// `p(w | NULL)` from the null counts of the words that occur.
fn null_m_step(counts: &[f64], occurs: &[bool], alpha: f64) -> Vec<f64> {
    let tot: f64 = counts
        .iter()
        .zip(occurs)
        .filter(|x| *x.1)
        .map(|(c, _)| c + alpha)
        .sum();
    let g = digamma(tot.max(alpha));
    counts
        .par_iter()
        .zip(occurs.par_iter())
        .with_min_len(4096)
        .map(|(&c, &o)| if o { vb(c, alpha, g) } else { UNSEEN_PROB })
        .collect()
}

/// Forward M-step (`p(t | s)`, rows): from the entries' counts `counts` and the other counts.
pub(crate) fn m_step_fwd(
    table: &mut PairTable,
    shape: &Shape,
    counts: &[f32],
    rest: &Rest,
    alpha: f64,
) {
    let PairTable {
        row_off,
        fwd,
        other_fwd,
        ..
    } = table;
    fwd.resize(counts.len(), 0.0);
    let rows: Vec<(usize, &mut [f32])> = crate::index::split_by_offsets(fwd, row_off)
        .into_iter()
        .enumerate()
        .collect();
    let others: Vec<f64> = rows
        .into_par_iter()
        .with_min_len(256)
        .map(|(s, out)| {
            let lo = row_off[s];
            let cs = &counts[lo..lo + out.len()];
            let sum: f64 = cs.iter().map(|&x| f64::from(x) + alpha).sum();
            let (pm, np) = (rest.pruned[s], shape.pruned_row[s]);
            let g = row_digamma(sum, pm, np, alpha);
            for (o, &x) in out.iter_mut().zip(cs) {
                *o = vb(f64::from(x), alpha, g) as f32;
            }
            other(pm, np, alpha, g)
        })
        .collect();
    *other_fwd = others;
    table.null_fwd = null_m_step(&rest.null, &shape.occurs_tgt, alpha);
}

/// Reverse M-step (`p(s | t)`, columns).
pub(crate) fn m_step_rev(
    table: &mut PairTable,
    shape: &Shape,
    counts: &[f32],
    rest: &Rest,
    alpha: f64,
) {
    let nt = table.other_rev.len();
    let mut sums = vec![0.0f64; nt];
    for (&col, &x) in table.cols.iter().zip(counts) {
        sums[col as usize] += f64::from(x) + alpha;
    }
    let g: Vec<f64> = (0..nt)
        .into_par_iter()
        .with_min_len(1024)
        .map(|w| row_digamma(sums[w], rest.pruned[w], shape.pruned_col[w], alpha))
        .collect();
    table.rev.resize(counts.len(), 0.0);
    table
        .rev
        .par_iter_mut()
        .zip(table.cols.par_iter().zip(counts.par_iter()))
        .with_min_len(4096)
        .for_each(|(o, (&col, &x))| *o = vb(f64::from(x), alpha, g[col as usize]) as f32);
    table.other_rev = (0..nt)
        .into_par_iter()
        .with_min_len(1024)
        .map(|w| other(rest.pruned[w], shape.pruned_col[w], alpha, g[w]))
        .collect();
    table.null_rev = null_m_step(&rest.null, &shape.occurs_src, alpha);
}

impl Shape {
    /// No word, no pair.
    pub fn empty() -> Shape {
        Shape {
            pruned_row: Vec::new(),
            pruned_col: Vec::new(),
            occurs_src: Vec::new(),
            occurs_tgt: Vec::new(),
            word_pairs: 0,
        }
    }
}

/// Every probability 1, as training without IBM Model 1 starts (the value of a uniform
/// table before normalisation, as the HMM's first E-step sees it).
pub(crate) fn uniform(table: &mut PairTable, shape: &Shape) {
    table.fwd = vec![1.0; table.entries()];
    table.rev = vec![1.0; table.entries()];
    let one = |pruned: &[u32]| -> Vec<f64> {
        pruned
            .iter()
            .map(|&n| if n > 0 { 1.0 } else { UNSEEN_PROB })
            .collect()
    };
    table.other_fwd = one(&shape.pruned_row);
    table.other_rev = one(&shape.pruned_col);
    let null = |occurs: &[bool]| -> Vec<f64> {
        occurs
            .iter()
            .map(|&o| if o { 1.0 } else { UNSEEN_PROB })
            .collect()
    };
    table.null_fwd = null(&shape.occurs_tgt);
    table.null_rev = null(&shape.occurs_src);
}

impl PairTable {
    /// The table of a version-3 model file: both directions' column tables (forward:
    /// `p(t | s)` per target word, null = `ns`; reverse: `p(s | t)` per source word, null =
    /// `nt`), which hold the same word pairs; nothing was pruned.
    pub fn from_columns(fwd: &Columns, rev: &Columns, ns: usize, nt: usize) -> PairTable {
        let mut t = PairTable {
            row_off: Vec::with_capacity(ns + 1),
            null_fwd: vec![UNSEEN_PROB; nt],
            null_rev: vec![UNSEEN_PROB; ns],
            other_fwd: vec![UNSEEN_PROB; ns],
            other_rev: vec![UNSEEN_PROB; nt],
            ..PairTable::default()
        };
        t.row_off.push(0);
        for s in 0..ns {
            for p in rev.col_off[s]..rev.col_off[s + 1] {
                let w = rev.conds[p];
                if w as usize == nt {
                    t.null_rev[s] = rev.probs[p];
                    continue;
                }
                t.cols.push(w);
                t.rev.push(rev.probs[p] as f32);
                t.fwd
                    .push(fwd.get(s as u32, w).unwrap_or(UNSEEN_PROB) as f32);
            }
            t.row_off.push(t.cols.len());
        }
        t.index_rows();
        for (w, p) in t.null_fwd.iter_mut().enumerate() {
            if let Some(x) = fwd.get(ns as u32, w as u32) {
                *p = x;
            }
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sketch's estimate is within its planning margin of the true count, from one
    /// word to tens of thousands, and repeating the same co-occurrences changes nothing —
    /// the property the first pass's rounds rely on (copies of a corpus add no rounds).
    #[test]
    fn distinct_targets_are_estimated_and_repeats_do_not_count() {
        for n in [1u32, 5, 30, 200, 3_000, 40_000] {
            let mut d = Distinct::new(2);
            for rep in 0..3 {
                for t in 0..n {
                    d.add(1, Distinct::hash(t * 7 + 11));
                }
                let e = d.estimate(1);
                let err = (e - f64::from(n)).abs() / f64::from(n);
                assert!(err < 0.5, "{n} distinct, repeat {rep}: estimate {e:.1}");
                assert!(d.planned(1, u64::MAX) >= u64::from(n), "{n}: planned below");
            }
            assert_eq!(d.estimate(0), 0.0, "a word never seen");
            assert_eq!(d.planned(1, 3), 3, "capped by the bound");
        }
    }

    /// Rounds are cut before the word that would take a range past `ROUND_PAIRS / SUBS`
    /// (131,072) planned pairs; a word is planned at its bound once its estimate passes it.
    #[test]
    fn source_ranges_cut_at_the_planned_size() {
        let mut d = Distinct::new(5);
        let distinct = [(0, 100_000u32), (1, 50_000), (3, 70_000), (4, 60_000)];
        for (s, n) in distinct {
            for t in 0..n {
                d.add(s, Distinct::hash(t));
            }
        }
        // Planned: 100,000, 50,000, 3 (never seen: min(8, 3)), 70,000, 60,000: cuts before
        // word 1 (150,000) and word 4 (180,003).
        let ranges = source_ranges(&[100_000, 50_000, 3, 70_000, 60_000], &d, 1 << 20);
        assert_eq!(ranges, [(0, 1), (1, 4), (4, 5)]);
        assert_eq!(source_ranges(&[], &d, 10), []);
    }

    fn build(prune: f64) -> Build {
        Build {
            est_rev: vec![100.0; 3],
            row_w: vec![100.0; 4],
            alpha: 0.01,
            prune,
            table: PairTable {
                row_off: vec![0],
                ..PairTable::default()
            },
            pruned_row: vec![0; 4],
            pruned_col: vec![0; 3],
            word_pairs: 0,
            counts: [Vec::new(), Vec::new()],
            rest: [Rest::zeroed(4, 3), Rest::zeroed(3, 4)],
        }
    }

    /// `((source, target), (forward count, reverse count))`.
    type Entry = ((u64, u64), (f64, f64));

    fn pair_map(entries: &[Entry]) -> PairMap {
        entries
            .iter()
            .map(|&((s, t), c)| (s << 32 | t, c))
            .collect()
    }

    /// Rows 1 and 3 (rows 0 and 2 empty): entries sorted into rows; with no pruning all
    /// kept, with a threshold above every probability all go to the pruned mass, with one
    /// between them the rare pair only.
    #[test]
    fn rows_are_added_in_order_and_pruned_into_the_rest() {
        let entries = [
            ((3, 0), (0.5, 0.25)),
            ((1, 2), (1.0, 2.0)),
            ((1, 0), (3.0, 4.0)),
        ];
        let mut kept = build(0.0);
        kept.add(pair_map(&entries));
        assert_eq!(kept.table.row_off, [0, 0, 2, 2]);
        assert_eq!(kept.table.cols, [0, 2, 0]);
        assert_eq!(kept.counts, [vec![3.0, 1.0, 0.5], vec![4.0, 2.0, 0.25]]);
        assert_eq!(kept.word_pairs, 3);
        assert_eq!(kept.pruned_row, [0; 4]);
        let mut pruned = build(2.0);
        pruned.add(pair_map(&entries));
        assert!(pruned.table.cols.is_empty());
        assert_eq!(pruned.pruned_row, [0, 2, 0, 1]);
        assert_eq!(pruned.pruned_col, [2, 0, 1]);
        assert_eq!(pruned.rest[0].pruned, [0.0, 4.0, 0.0, 0.5]);
        assert_eq!(pruned.rest[1].pruned, [4.25, 0.0, 2.0]);
        // Totals of about 100: (1, 0) has p ≈ 0.025 / 0.035, (1, 2) ≈ 0.006 / 0.015,
        // (3, 0) ≈ 0.0015 / 0.0002 (forward / reverse): a threshold of 0.01 prunes (3, 0).
        let mut some = build(0.01);
        some.add(pair_map(&entries));
        assert_eq!(some.table.cols, [0, 2]);
        assert_eq!(
            (some.pruned_row, some.pruned_col),
            (vec![0, 0, 0, 1], vec![1, 0, 0])
        );
        assert_eq!(some.rest[0].pruned, [0.0, 0.0, 0.0, 0.5]);
        assert_eq!(some.rest[1].pruned, [0.25, 0.0, 0.0]);
    }
}
