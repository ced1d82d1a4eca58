//! Symmetrisation of two directional alignments, as fast_align's `atools -c`.

use std::collections::BTreeSet;

use crate::{Alignment, Link};

/// Symmetrisation heuristic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Links present in both alignments (`atools -c intersect`).
    Intersection,
    /// Links present in either alignment (`atools -c union`).
    Union,
    /// Koehn's grow-diag-final-and (`atools -c grow-diag-final-and`).
    GrowDiagFinalAnd,
}

/// The links of one sentence pair, as a set: memory grows with the number of links, not
/// with the product of the two sentence lengths (a pair of 300,000 words is fine).
type Points = BTreeSet<(usize, usize)>;

/// Combines a forward and a reverse alignment of one sentence pair, both given as
/// `(source index, target index)` links, with `method`, following `atools` exactly (including
/// the order in which grow-diag-final-and visits candidate points: row-major by source then
/// target index, forward alignment's points before the reverse alignment's in the final
/// step). The result is sorted. Words are `0..src_len` and `0..tgt_len`, enlarged if a
/// link lies beyond. Memory is linear in the links and the lengths.
pub fn symmetrize(
    fwd: &[Link],
    rev: &[Link],
    src_len: usize,
    tgt_len: usize,
    method: Method,
) -> Alignment {
    let w = fwd
        .iter()
        .chain(rev)
        .map(|l| l.0 + 1)
        .max()
        .unwrap_or(0)
        .max(src_len);
    let h = fwd
        .iter()
        .chain(rev)
        .map(|l| l.1 + 1)
        .max()
        .unwrap_or(0)
        .max(tgt_len);
    let a: Points = fwd.iter().copied().collect();
    let b: Points = rev.iter().copied().collect();
    match method {
        Method::Intersection => a.intersection(&b).copied().collect(),
        Method::Union => a.union(&b).copied().collect(),
        Method::GrowDiagFinalAnd => {
            let mut res: Points = a.intersection(&b).copied().collect();
            let mut i_al = vec![false; w];
            let mut j_al = vec![false; h];
            for &(i, j) in &res {
                i_al[i] = true;
                j_al[j] = true;
            }
            let align = |res: &mut Points, i_al: &mut [bool], j_al: &mut [bool], i, j| {
                res.insert((i, j));
                i_al[i] = true;
                j_al[j] = true;
            };
            // `atools`' `Safe`: false outside the sentence pair.
            let safe = |res: &Points, i: isize, j: isize| {
                i >= 0
                    && j >= 0
                    && (i as usize) < w
                    && (j as usize) < h
                    && res.contains(&(i as usize, j as usize))
            };
            // grow-diag: candidates are union points not yet aligned, visited in (i, j) order
            // repeatedly while any is added.
            let mut cand: Points = a.union(&b).filter(|p| !res.contains(p)).copied().collect();
            const NEIGHBORS: [(isize, isize); 8] = [
                (1, 0),
                (-1, 0),
                (0, 1),
                (0, -1),
                (1, 1),
                (-1, 1),
                (1, -1),
                (-1, -1),
            ];
            let mut keep_going = !cand.is_empty();
            while keep_going {
                keep_going = false;
                let mut added = Vec::new();
                for &(i, j) in &cand {
                    let one_unaligned = !(i_al[i] && j_al[j]);
                    let neighbor = NEIGHBORS
                        .iter()
                        .any(|&(di, dj)| safe(&res, i as isize + di, j as isize + dj));
                    if one_unaligned && neighbor {
                        align(&mut res, &mut i_al, &mut j_al, i, j);
                        added.push((i, j));
                        keep_going = true;
                    }
                }
                for p in added {
                    cand.remove(&p);
                }
            }
            // final-and: points of each directional alignment whose source and target words
            // are both still unaligned.
            for g in [&a, &b] {
                for &(i, j) in g {
                    if !res.contains(&(i, j)) && !i_al[i] && !j_al[j] {
                        align(&mut res, &mut i_al, &mut j_al, i, j);
                    }
                }
            }
            res.into_iter().collect()
        }
    }
}
