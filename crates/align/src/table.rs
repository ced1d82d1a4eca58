//! A lexical table stored column by column, as both models keep it once trained: built from
//! the slots of the training corpus, and looked up for the slots of any corpus.

use rayon::prelude::*;

use crate::corpus::{Side, Vocab};
use crate::index::{split_by_offsets, with_scratch};

/// Translation probability of a word pair never seen in training (fast_align's floor).
pub const UNSEEN_PROB: f64 = 1e-9;

/// A lexical table stored column by column: for every generated word id, the ascending
/// conditioning-word ids (the null word being the conditioning vocabulary size) it
/// co-occurred with in training, with `p(generated | conditioning)`.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Columns {
    /// Per generated word id, its range in `conds`/`probs` (`len = words + 1`).
    pub col_off: Vec<usize>,
    /// Conditioning word ids, ascending within a column.
    pub conds: Vec<u32>,
    /// `p(generated | conditioning)` of each entry.
    pub probs: Vec<f64>,
}

impl Columns {
    /// The probability of `(cond, gen)`, if stored.
    pub fn get(&self, cond: u32, gen: u32) -> Option<f64> {
        let (lo, hi) = (self.col_off[gen as usize], self.col_off[gen as usize + 1]);
        self.conds[lo..hi]
            .binary_search(&cond)
            .ok()
            .map(|p| self.probs[lo + p])
    }
}

/// The model's id of every conditioning word of `view` (`u32::MAX` for a word the model
/// does not know), and of the null word last.
pub(crate) fn cond_map(model_cond_vocab: &Vocab, view: &Side<'_>) -> Vec<u32> {
    let mut m: Vec<u32> = view
        .cond_vocab
        .words()
        .map(|w| model_cond_vocab.get(w).unwrap_or(u32::MAX))
        .collect();
    m.push(model_cond_vocab.len() as u32); // the null word
    m
}

impl Columns {
    /// The table of a trained slot index: column `g` holds the slots
    /// `group_off[g]..group_off[g + 1]` (conditioning word `slot_cond[s]`, probability
    /// `slot_prob(s)`), sorted by conditioning word.
    pub fn from_slots(
        group_off: &[usize],
        slot_cond: &[u32],
        slot_prob: impl Fn(usize) -> f64 + Sync,
    ) -> Columns {
        let n = slot_cond.len();
        let mut conds = vec![0u32; n];
        let mut probs = vec![0.0f64; n];
        let cs = split_by_offsets(&mut conds, group_off);
        let ps = split_by_offsets(&mut probs, group_off);
        cs.into_par_iter()
            .zip(ps)
            .enumerate()
            .with_min_len(64)
            .for_each(|(g, (c, p))| {
                let range = group_off[g]..group_off[g + 1];
                let mut col: Vec<(u32, f64)> =
                    range.map(|s| (slot_cond[s], slot_prob(s))).collect();
                col.sort_unstable_by_key(|x| x.0);
                for ((dc, dp), (e, t)) in c.iter_mut().zip(p.iter_mut()).zip(col) {
                    *dc = e;
                    *dp = t;
                }
            });
        Columns {
            col_off: group_off.to_vec(),
            conds,
            probs,
        }
    }

    /// The probability of every slot of another corpus (`view`, its slots grouped by
    /// generated word as `group_off`/`slot_cond` say), through the words (`cond_map` from
    /// [`cond_map`]): `unseen` where the table has no entry. Looked up column by column
    /// through a scratch map of the table's column (no hashing per cell).
    pub fn slot_probs(
        &self,
        (cond_vocab, gen_vocab): (&Vocab, &Vocab),
        view: &Side<'_>,
        cond_map: &[u32],
        (group_off, slot_cond): (&[usize], &[u32]),
        unseen: f64,
    ) -> Vec<f64> {
        let model_null = cond_vocab.len();
        let mut t = vec![unseen; slot_cond.len()];
        split_by_offsets(&mut t, group_off)
            .into_par_iter()
            .enumerate()
            .with_min_len(64)
            .for_each(|(g, out)| {
                if out.is_empty() {
                    return;
                }
                let Some(mg) = gen_vocab.get(view.gen_vocab.word(g as u32)) else {
                    return;
                };
                let (lo, hi) = (self.col_off[mg as usize], self.col_off[mg as usize + 1]);
                with_scratch(model_null + 1, |pos| {
                    for p in lo..hi {
                        pos[self.conds[p] as usize] = p as u32;
                    }
                    let conds = &slot_cond[group_off[g]..group_off[g + 1]];
                    for (o, &e) in out.iter_mut().zip(conds) {
                        let em = cond_map[e as usize];
                        if em != u32::MAX && pos[em as usize] != u32::MAX {
                            *o = self.probs[pos[em as usize] as usize];
                        }
                    }
                    for p in lo..hi {
                        pos[self.conds[p] as usize] = u32::MAX;
                    }
                });
            });
        t
    }
}
