//! Precision, recall and F1 between two lists of alignments.

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
