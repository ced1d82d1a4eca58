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
        Method::GrowDiagFinalAnd => grow_diag_final_and(&a, &b, w, h).into_iter().collect(),
    }
}

/// `atools`' neighbours of a point, in its order.
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

/// Grow-diag-final-and of alignments `fwd` and `rev` of a `src_len × tgt_len` pair: their
/// intersection, grown by diagonal neighbours from the union, then the final-and step.
fn grow_diag_final_and(fwd: &Points, rev: &Points, src_len: usize, tgt_len: usize) -> Points {
    let mut grid = Grid {
        res: Points::new(),
        i_al: vec![false; src_len],
        j_al: vec![false; tgt_len],
    };
    for &(i, j) in fwd.intersection(rev) {
        grid.align(i, j);
    }
    // grow-diag: candidates are union points not yet aligned, visited in (i, j) order
    // repeatedly while any is added.
    let mut cand: Points = fwd
        .union(rev)
        .filter(|p| !grid.res.contains(p))
        .copied()
        .collect();
    let mut keep_going = !cand.is_empty();
    while keep_going {
        keep_going = false;
        let mut added = Vec::new();
        for &(i, j) in &cand {
            let one_unaligned = !(grid.i_al[i] && grid.j_al[j]);
            let neighbor = NEIGHBORS
                .iter()
                .any(|&(di, dj)| grid.safe(i as isize + di, j as isize + dj));
            if one_unaligned && neighbor {
                grid.align(i, j);
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
    for g in [fwd, rev] {
        for &(i, j) in g {
            if !grid.res.contains(&(i, j)) && !grid.i_al[i] && !grid.j_al[j] {
                grid.align(i, j);
            }
        }
    }
    grid.res
}

/// The symmetrised links so far, and which source (`i_al`) and target (`j_al`) words they
/// align.
struct Grid {
    res: Points,
    i_al: Vec<bool>,
    j_al: Vec<bool>,
}

impl Grid {
    /// Adds link `(i, j)`.
    fn align(&mut self, i: usize, j: usize) {
        self.res.insert((i, j));
        self.i_al[i] = true;
        self.j_al[j] = true;
    }

    /// `atools`' `Safe`: whether `(i, j)` is linked; false outside the sentence pair.
    fn safe(&self, i: isize, j: isize) -> bool {
        i >= 0
            && j >= 0
            && (i as usize) < self.i_al.len()
            && (j as usize) < self.j_al.len()
            && self.res.contains(&(i as usize, j as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_is_false_outside_the_pair_and_true_on_links() {
        let mut grid = Grid {
            res: Points::new(),
            i_al: vec![false; 2],
            j_al: vec![false; 3],
        };
        grid.align(1, 2);
        assert!(grid.i_al[1] && grid.j_al[2] && !grid.i_al[0]);
        assert!(grid.safe(1, 2));
        assert!(!grid.safe(0, 2) && !grid.safe(-1, 2) && !grid.safe(2, 2) && !grid.safe(1, 3));
    }

    /// Isolated points are not grown; final-and takes the forward alignment's first, so
    /// the reverse alignment's point on the same source word is left out.
    #[test]
    fn final_and_prefers_the_forward_alignment() {
        let a: Points = [(0, 0), (2, 2)].into_iter().collect();
        let b: Points = [(0, 0), (2, 3)].into_iter().collect();
        let res: Vec<_> = grow_diag_final_and(&a, &b, 3, 4).into_iter().collect();
        assert_eq!(res, [(0, 0), (2, 2)]);
        let res: Vec<_> = grow_diag_final_and(&b, &a, 3, 4).into_iter().collect();
        assert_eq!(res, [(0, 0), (2, 3)]);
    }
}
