//! Detection of long-distance reordering from a word alignment.

use crate::Link;

/// The link with the largest position difference found by [`max_reorder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReorderHit {
    /// `|src_index - tgt_index|`.
    pub distance: usize,
    /// Source position of the link.
    pub src_index: usize,
    /// Target position of the link.
    pub tgt_index: usize,
}

/// Whether a token counts for reordering: it has at least one alphabetic character.
fn is_wordlike(tok: &str) -> bool {
    tok.chars().any(char::is_alphabetic)
}

/// Largest `|i - j|` over the links `(i, j)` whose source token `i` and target token `j` both
/// contain an alphabetic character (links on punctuation or numbers are ignored, and so are
/// links outside the sentences). Ties go to the first link in sorted `(i, j)` order. `None`
/// if no link qualifies. A monotone alignment gives distance 0.
pub fn max_reorder(src_tokens: &[&str], tgt_tokens: &[&str], links: &[Link]) -> Option<ReorderHit> {
    let mut sorted: Vec<Link> = links.to_vec();
    sorted.sort_unstable();
    let mut best: Option<ReorderHit> = None;
    for (i, j) in sorted {
        let (Some(s), Some(t)) = (src_tokens.get(i), tgt_tokens.get(j)) else {
            continue;
        };
        if !is_wordlike(s) || !is_wordlike(t) {
            continue;
        }
        let distance = i.abs_diff(j);
        if best.is_none_or(|b| distance > b.distance) {
            best = Some(ReorderHit {
                distance,
                src_index: i,
                tgt_index: j,
            });
        }
    }
    best
}
