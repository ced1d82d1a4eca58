//! Alignment quality: precision, recall and F1 between two lists of alignments, and the
//! alignment error rate against sure/possible gold links.

use std::collections::HashSet;

use crate::error::{AlignError, Result};
use crate::Alignment;

/// Link-level agreement of a hypothesis with a reference (micro-averaged over sentences).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prf {
    /// Links in both.
    pub matched: usize,
    /// Distinct links of the hypothesis.
    pub hyp_links: usize,
    /// Distinct links of the reference.
    pub ref_links: usize,
    /// `matched / hyp_links` (1 if the hypothesis is empty).
    pub precision: f64,
    /// `matched / ref_links` (1 if the reference is empty).
    pub recall: f64,
    /// Harmonic mean of precision and recall (0 if both are 0).
    pub f1: f64,
}

/// Compares `hypothesis` with `reference`, sentence by sentence; duplicate links count once.
/// Errors if the lists have different lengths.
pub fn precision_recall_f1(reference: &[Alignment], hypothesis: &[Alignment]) -> Result<Prf> {
    if reference.len() != hypothesis.len() {
        return Err(AlignError::LengthMismatch {
            left: reference.len(),
            right: hypothesis.len(),
        });
    }
    let (mut matched, mut hyp_links, mut ref_links) = (0, 0, 0);
    let mut set = HashSet::new();
    for (r, h) in reference.iter().zip(hypothesis) {
        set.clear();
        set.extend(r.iter().copied());
        ref_links += set.len();
        let hs: HashSet<_> = h.iter().copied().collect();
        hyp_links += hs.len();
        matched += hs.iter().filter(|l| set.contains(l)).count();
    }
    let precision = if hyp_links == 0 {
        1.0
    } else {
        matched as f64 / hyp_links as f64
    };
    let recall = if ref_links == 0 {
        1.0
    } else {
        matched as f64 / ref_links as f64
    };
    let f1 = if precision + recall == 0.0 {
        0.0
    } else {
        2.0 * precision * recall / (precision + recall)
    };
    Ok(Prf {
        matched,
        hyp_links,
        ref_links,
        precision,
        recall,
        f1,
    })
}

/// Agreement of an alignment with a gold alignment of sure (S) and possible (P ⊇ S) links
/// (Och & Ney 2003), micro-averaged over sentences; duplicate links count once.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AerScores {
    /// Distinct hypothesis links `|A|`.
    pub hyp_links: usize,
    /// Sure gold links `|S|`.
    pub sure_links: usize,
    /// Possible gold links `|P|` (sure ones included).
    pub possible_links: usize,
    /// `|A ∩ S|`.
    pub hyp_sure: usize,
    /// `|A ∩ P|`.
    pub hyp_possible: usize,
    /// `|A ∩ P| / |A|` (1 if the hypothesis is empty).
    pub precision: f64,
    /// `|A ∩ S| / |S|` (1 if there is no sure link).
    pub recall: f64,
    /// Alignment error rate `1 − (|A ∩ S| + |A ∩ P|) / (|A| + |S|)` (0 if both are empty).
    pub aer: f64,
}

/// Scores `hypothesis` (one alignment per sentence pair) against `gold`. Errors if the
/// lists have different lengths.
pub fn alignment_error_rate(
    gold: &[crate::gold::GoldSentence],
    hypothesis: &[Alignment],
) -> Result<AerScores> {
    if gold.len() != hypothesis.len() {
        return Err(AlignError::LengthMismatch {
            left: gold.len(),
            right: hypothesis.len(),
        });
    }
    let (mut a, mut s, mut p, mut a_s, mut a_p) = (0, 0, 0, 0, 0);
    for (g, h) in gold.iter().zip(hypothesis) {
        let sure: HashSet<_> = g.sure.iter().copied().collect();
        let possible: HashSet<_> = sure.iter().chain(&g.possible).copied().collect();
        let hyp: HashSet<_> = h.iter().copied().collect();
        a += hyp.len();
        s += sure.len();
        p += possible.len();
        a_s += hyp.iter().filter(|l| sure.contains(l)).count();
        a_p += hyp.iter().filter(|l| possible.contains(l)).count();
    }
    let ratio = |n: usize, d: usize, empty: f64| if d == 0 { empty } else { n as f64 / d as f64 };
    Ok(AerScores {
        hyp_links: a,
        sure_links: s,
        possible_links: p,
        hyp_sure: a_s,
        hyp_possible: a_p,
        precision: ratio(a_p, a, 1.0),
        recall: ratio(a_s, s, 1.0),
        aer: 1.0 - ratio(a_s + a_p, a + s, 1.0),
    })
}
