//! Per-corpus index of parameter slots, built once so that EM iterations do no hashing.
//!
//! A *slot* is one distinct (conditioning word, generated word) pair of the corpus, the null
//! word included. Slots are grouped by *generated* word (one group per generated word id, in
//! id order) and inside a group ordered by first occurrence in the corpus.
//!
//! A *row* is one generated token (sentence k, position j): its `n + 1` *cells* pair it with
//! the null word (cell 0) and with each of the `n` conditioning words of the sentence. All
//! cells of a row fall in the slot group of the token's word, so EM processes the corpus
//! group by group: rows are stored group by group too (each group's rows in corpus order),
//! which makes the E-step read the cell array sequentially and touch only the small, hot
//! block of parameters of one group at a time. Every order is fixed by the corpus alone, so
//! the index (and everything computed from it) does not depend on the number of threads.

use rayon::prelude::*;

use crate::corpus::Side;

/// Slot index of a corpus for one direction.
pub(crate) struct CellIndex {
    /// Occurrences `(sentence, 0-based position)` of every generated word, in corpus order,
    /// grouped by word: word `g` has `occ[occ_off[g]..occ_off[g + 1]]`. Pairs with an empty
    /// side are left out.
    pub occ: Vec<(u32, u32)>,
    /// Offsets into `occ` (`len = gen_vocab.len() + 1`).
    pub occ_off: Vec<usize>,
    /// Per generated word, the start of its rows in `cell_slot` (`len = gen_vocab.len() + 1`).
    pub cell_off: Vec<usize>,
    /// Slot of every cell, as its rank inside the slot group of the row's generated word
    /// (global slot = `group_off[word] + rank`); rows of word `g` follow each other in the
    /// order of `occ`.
    pub cell_slot: Vec<u32>,
    /// Per generated word id, its slot range (`len = gen_vocab.len() + 1`).
    pub group_off: Vec<usize>,
    /// Conditioning word id of every slot; the null word is `cond_vocab.len()`.
    pub slot_cond: Vec<u32>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `action` with this thread's scratch array of at least `len` entries, all
/// `u32::MAX`; `action` must leave every entry it changed back at `u32::MAX`.
pub(crate) fn with_scratch<R>(len: usize, action: impl FnOnce(&mut [u32]) -> R) -> R {
    SCRATCH.with(|cell| {
        let mut v = cell.borrow_mut();
        if v.len() < len {
            v.resize(len, u32::MAX);
        }
        action(&mut v[..len])
    })
}

/// Splits `slice` into consecutive mutable pieces of the lengths given by `offsets`
/// (`len + 1` boundaries).
pub(crate) fn split_by_offsets<'v, T>(
    mut slice: &'v mut [T],
    offsets: &[usize],
) -> Vec<&'v mut [T]> {
    let mut out = Vec::with_capacity(offsets.len().saturating_sub(1));
    for w in offsets.windows(2) {
        let (a, b) = std::mem::take(&mut slice).split_at_mut(w[1] - w[0]);
        out.push(a);
        slice = b;
    }
    out
}

/// Whether a pair with these sides is in the index: both sides non-empty and at most
/// `max_len` tokens long.
pub(crate) fn indexed(cond: &[u32], gen: &[u32], max_len: usize) -> bool {
    !cond.is_empty() && !gen.is_empty() && cond.len() <= max_len && gen.len() <= max_len
}

impl CellIndex {
    /// Number of slots (distinct word pairs, null included).
    pub fn num_slots(&self) -> usize {
        self.slot_cond.len()
    }

    /// Number of generated words (slot groups).
    pub fn num_groups(&self) -> usize {
        self.occ_off.len() - 1
    }

    /// Builds the index of `view`, leaving out pairs with an empty side or more than
    /// `max_len` tokens on a side (see [`indexed`]).
    pub fn build(view: &Side<'_>, max_len: usize) -> Self {
        let (occ, occ_off, cell_off) = occurrences(view, max_len);
        let (cell_slot, lists) = rank_cells(view, &occ, &occ_off, &cell_off);
        let n_gen = view.gen_vocab.len();
        let mut group_off = Vec::with_capacity(n_gen + 1);
        group_off.push(0usize);
        for l in &lists {
            group_off.push(group_off.last().copied().unwrap_or(0) + l.len());
        }
        let mut slot_cond = Vec::with_capacity(group_off[n_gen]);
        for l in lists {
            slot_cond.extend_from_slice(&l);
        }
        CellIndex {
            occ,
            occ_off,
            cell_off,
            cell_slot,
            group_off,
            slot_cond,
        }
    }
}

/// The occurrences of every generated word of the indexed pairs, grouped by word in corpus
/// order, with the offsets of each word's occurrences and of its cells:
/// `(occ, occ_off, cell_off)` of [`CellIndex`].
fn occurrences(view: &Side<'_>, max_len: usize) -> (Vec<(u32, u32)>, Vec<usize>, Vec<usize>) {
    let skip = |cond: &[u32], gen: &[u32]| !indexed(cond, gen, max_len);
    let n_gen = view.gen_vocab.len();
    // Occurrence and cell counts per generated word.
    let mut occ_off = vec![0usize; n_gen + 1];
    let mut cell_off = vec![0usize; n_gen + 1];
    for k in 0..view.len() {
        let (cond, gen) = (view.cond(k), view.gen(k));
        if skip(cond, gen) {
            continue;
        }
        for &f in gen {
            occ_off[f as usize + 1] += 1;
            cell_off[f as usize + 1] += cond.len() + 1;
        }
    }
    for f in 0..n_gen {
        occ_off[f + 1] += occ_off[f];
        cell_off[f + 1] += cell_off[f];
    }
    let mut occ = vec![(0u32, 0u32); occ_off[n_gen]];
    let mut cursor = occ_off.clone();
    for k in 0..view.len() {
        let (cond, gen) = (view.cond(k), view.gen(k));
        if skip(cond, gen) {
            continue;
        }
        for (j, &f) in gen.iter().enumerate() {
            let c = &mut cursor[f as usize];
            occ[*c] = (k as u32, j as u32);
            *c += 1;
        }
    }
    (occ, occ_off, cell_off)
}

/// Per generated word: numbers its distinct conditioning words (null included) in order
/// of first occurrence and writes the rank of every cell of its rows. Returns the ranks of
/// all cells (`cell_slot`) and each word's conditioning words in rank order.
fn rank_cells(
    view: &Side<'_>,
    occ: &[(u32, u32)],
    occ_off: &[usize],
    cell_off: &[usize],
) -> (Vec<u32>, Vec<Vec<u32>>) {
    let n_cond = view.cond_vocab.len();
    let null_id = n_cond as u32;
    let mut cell_slot = vec![0u32; cell_off[cell_off.len() - 1]];
    let lists: Vec<Vec<u32>> = split_by_offsets(&mut cell_slot, cell_off)
        .into_par_iter()
        .enumerate()
        .with_min_len(32)
        .map(|(g, cells)| {
            with_scratch(n_cond + 1, |local| {
                let mut list: Vec<u32> = Vec::new();
                let mut out = cells.iter_mut();
                for &(k, _) in &occ[occ_off[g]..occ_off[g + 1]] {
                    let cond = view.cond(k as usize);
                    for (e, c) in std::iter::once(null_id)
                        .chain(cond.iter().copied())
                        .zip(out.by_ref())
                    {
                        let l = &mut local[e as usize];
                        if *l == u32::MAX {
                            *l = list.len() as u32;
                            list.push(e);
                        }
                        *c = *l;
                    }
                }
                // Leave the scratch all-unset for the next task.
                for &e in &list {
                    local[e as usize] = u32::MAX;
                }
                list
            })
        })
        .collect();
    (cell_slot, lists)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Corpus;

    /// A hand-counted index: target words x, y generated from source words a, b (pair 3 has
    /// an empty side and is left out); the null word is id 2.
    #[test]
    fn slots_are_ranked_by_first_occurrence_per_generated_word() {
        let corpus = Corpus::from_pairs([
            (vec!["a", "b"], vec!["x", "y"]),
            (vec!["b"], vec!["x"]),
            (vec![], vec!["y"]),
        ]);
        let view = corpus.view(false);
        let index = CellIndex::build(&view, 100);
        assert_eq!(index.occ, [(0, 0), (1, 0), (0, 1)]);
        assert_eq!(index.occ_off, [0, 2, 3]);
        assert_eq!(index.cell_off, [0, 5, 8]);
        // x: rows (null a b), (null b); y: row (null a b).
        assert_eq!(index.cell_slot, [0, 1, 2, 0, 2, 0, 1, 2]);
        assert_eq!(index.group_off, [0, 3, 6]);
        assert_eq!(index.slot_cond, [2, 0, 1, 2, 0, 1]);
        assert_eq!((index.num_slots(), index.num_groups()), (6, 2));
        // With at most one token a side only pair 2 is indexed.
        let short = CellIndex::build(&view, 1);
        assert_eq!(short.occ, [(1, 0)]);
        assert_eq!(short.slot_cond, [2, 1]);
    }
}
