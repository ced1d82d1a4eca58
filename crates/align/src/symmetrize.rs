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

/// Dense boolean grid of one sentence pair.
struct Grid {
    w: usize,
    h: usize,
    cells: Vec<bool>,
}

impl Grid {
    fn new(w: usize, h: usize) -> Self {
        Grid {
            w,
            h,
            cells: vec![false; w * h],
        }
    }
    fn from_links(links: &[Link], w: usize, h: usize) -> Self {
        let mut g = Grid::new(w, h);
        for &(i, j) in links {
            g.cells[i * h + j] = true;
        }
        g
    }
    #[inline]
    fn get(&self, i: usize, j: usize) -> bool {
        self.cells[i * self.h + j]
    }
    /// `atools`' `Safe`: false outside the grid.
    #[inline]
    fn safe(&self, i: isize, j: isize) -> bool {
        i >= 0
            && j >= 0
            && (i as usize) < self.w
            && (j as usize) < self.h
            && self.get(i as usize, j as usize)
    }
}

/// Combines a forward and a reverse alignment of one sentence pair, both given as
/// `(source index, target index)` links, with `method`, following `atools` exactly (including
/// the order in which grow-diag-final-and visits candidate points: row-major by source then
/// target index, forward alignment's points before the reverse alignment's in the final
/// step). The result is sorted. The grid is `src_len x tgt_len`, enlarged if a link lies
/// beyond it.
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
    let a = Grid::from_links(fwd, w, h);
    let b = Grid::from_links(rev, w, h);
    let collect = |f: &dyn Fn(usize, usize) -> bool| -> Alignment {
        let mut out = Vec::new();
        for i in 0..w {
            for j in 0..h {
                if f(i, j) {
                    out.push((i, j));
                }
            }
        }
        out
    };
    match method {
        Method::Intersection => collect(&|i, j| a.get(i, j) && b.get(i, j)),
        Method::Union => collect(&|i, j| a.get(i, j) || b.get(i, j)),
        Method::GrowDiagFinalAnd => {
            let mut res = Grid::new(w, h);
            let mut i_al = vec![false; w];
            let mut j_al = vec![false; h];
            let align =
                |res: &mut Grid, i_al: &mut [bool], j_al: &mut [bool], i: usize, j: usize| {
                    res.cells[i * h + j] = true;
                    i_al[i] = true;
                    j_al[j] = true;
                };
            for i in 0..w {
                for j in 0..h {
                    if a.get(i, j) && b.get(i, j) {
                        align(&mut res, &mut i_al, &mut j_al, i, j);
                    }
                }
            }
            // grow-diag: candidates are union points not yet aligned, visited in (i, j) order
            // repeatedly while any is added.
            let mut cand: BTreeSet<(usize, usize)> = BTreeSet::new();
            for i in 0..w {
                for j in 0..h {
                    if (a.get(i, j) || b.get(i, j)) && !res.get(i, j) {
                        cand.insert((i, j));
                    }
                }
            }
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
                        .any(|&(di, dj)| res.safe(i as isize + di, j as isize + dj));
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
                for i in 0..w {
                    for j in 0..h {
                        if g.get(i, j) && !res.get(i, j) && !i_al[i] && !j_al[j] {
                            align(&mut res, &mut i_al, &mut j_al, i, j);
                        }
                    }
                }
            }
            collect(&|i, j| res.get(i, j))
        }
    }
}
