//! Per-sentence reordering measures of a word alignment.
//!
//! Every measure looks only at **word links**: links `(i, j)` inside the sentence pair whose
//! source token `i` and target token `j` both contain a letter (`char::is_alphabetic`);
//! links on punctuation or numbers, and links outside the sentences, are ignored, and a
//! link listed twice counts once. A pair without any word link has no value for any
//! measure (`None`).
//!
//! - **position** ([`Reordering::position`]): the largest `|i − j|` (Choshen & Abend 2019).
//!   It grows with any length difference before a word, even in a monotone alignment.
//! - **crossing** ([`Reordering::crossing`]): the largest `d` such that two word links
//!   `(i1, j1)`, `(i2, j2)` cross (`i1 < i2`, `j1 > j2`) with `i2 − i1 ≥ d` and
//!   `j1 − j2 ≥ d`: two words whose relative order flips across at least `d` positions on
//!   both sides. A monotone alignment (no two links cross) scores 0 whatever its offsets.
//! - **kendall** ([`Reordering::kendall`]): the normalised Kendall tau distance of the
//!   alignment permutation from the monotone order (Birch & Osborne 2010; Birch 2011):
//!   discordant pairs / `n(n − 1)/2`, 0 for a monotone alignment, 1 for a fully inverted
//!   one. LRscore's reordering similarity is `1 − sqrt(kendall)`.
//! - **fuzzy** ([`Reordering::fuzzy`]): one minus the fuzzy reordering score of Talbot et
//!   al. (2011), `(C − 1)/(n − 1)` where `C` is the number of chunks (maximal runs of source
//!   words that stay contiguous and in order in the target): 0 for a monotone alignment,
//!   1 when no two neighbours stay together. (Talbot et al.'s score is `1 − fuzzy`.)
//!
//! **The alignment permutation** (kendall, fuzzy): each source word with at least one word
//! link is placed at the *smallest* target index it links to (many-to-one and one-to-many
//! links thus keep one position per source word); words placed at the same target index
//! keep their source order (a tie is never a discordant pair); source words without a word
//! link, and target words, take no place (unaligned words carry no order information).
//! `n` is the number of placed source words; with `n = 1` both distances are 0.

use crate::Link;

/// Whether a token counts for reordering: it contains a letter (`char::is_alphabetic`).
pub fn is_word(tok: &str) -> bool {
    tok.chars().any(char::is_alphabetic)
}

/// The word links of an alignment: inside the sentences, both tokens accepted by `keep`,
/// sorted by `(i, j)`, without repeats.
pub fn word_links(
    src_tokens: &[&str],
    tgt_tokens: &[&str],
    links: &[Link],
    keep: impl Fn(&str) -> bool,
) -> Vec<Link> {
    let mut out: Vec<Link> = links
        .iter()
        .copied()
        .filter(|&(i, j)| {
            src_tokens.get(i).is_some_and(|s| keep(s)) && tgt_tokens.get(j).is_some_and(|t| keep(t))
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The link with the largest position difference (the `position` measure).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReorderHit {
    /// `|src_index − tgt_index|`.
    pub distance: usize,
    /// Source position of the link.
    pub src_index: usize,
    /// Target position of the link.
    pub tgt_index: usize,
}

/// The `crossing` measure: its value and the two crossing links that produce it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Crossing {
    /// The largest `d` (0 when no two word links cross).
    pub distance: usize,
    /// `((i1, j1), (i2, j2))` with `i2 − i1 ≥ distance` and `j1 − j2 ≥ distance`
    /// (`None` when `distance` is 0).
    pub links: Option<(Link, Link)>,
}

/// A ratio kept exact, so that thresholds compare without rounding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ratio {
    /// Numerator.
    pub num: u64,
    /// Denominator (never 0).
    pub den: u64,
}

impl Ratio {
    /// The ratio as a float.
    pub fn value(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// Whether the ratio is at least `percent` / 100 (exact integer comparison).
    pub fn at_least_percent(self, percent: u32) -> bool {
        u128::from(self.num) * 100 >= u128::from(percent) * u128::from(self.den)
    }
}

/// Every reordering measure of one sentence pair (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reordering {
    /// Number of distinct word links.
    pub word_links: usize,
    /// Number of source words placed in the alignment permutation (`n`).
    pub aligned: usize,
    /// Largest `|i − j|` over word links; ties go to the first link in `(i, j)` order.
    pub position: Option<ReorderHit>,
    /// Longest crossing of two word links.
    pub crossing: Option<Crossing>,
    /// Normalised Kendall tau distance of the alignment permutation.
    pub kendall: Option<Ratio>,
    /// One minus Talbot et al.'s fuzzy reordering score.
    pub fuzzy: Option<Ratio>,
}

impl Reordering {
    /// Measures the alignment `links` of a pair of token sequences.
    pub fn measure(src_tokens: &[&str], tgt_tokens: &[&str], links: &[Link]) -> Reordering {
        Reordering::of_word_links(&word_links(src_tokens, tgt_tokens, links, is_word))
    }

    /// Measures links that are already word links, sorted and without repeats.
    pub fn of_word_links(links: &[Link]) -> Reordering {
        if links.is_empty() {
            return Reordering {
                word_links: 0,
                aligned: 0,
                position: None,
                crossing: None,
                kendall: None,
                fuzzy: None,
            };
        }
        let perm = permutation(links);
        let n = perm.len() as u64;
        let pairs = n * n.saturating_sub(1) / 2;
        let chunks = 1 + perm.windows(2).filter(|w| w[1] != w[0] + 1).count() as u64;
        Reordering {
            word_links: links.len(),
            aligned: perm.len(),
            position: max_position(links),
            crossing: Some(crossing(links)),
            kendall: Some(if pairs == 0 {
                Ratio { num: 0, den: 1 }
            } else {
                Ratio {
                    num: inversions(&perm),
                    den: pairs,
                }
            }),
            fuzzy: Some(if n <= 1 {
                Ratio { num: 0, den: 1 }
            } else {
                Ratio {
                    num: chunks - 1,
                    den: n - 1,
                }
            }),
        }
    }
}

/// Largest `|i − j|`; ties go to the first link in the given order.
fn max_position(links: &[Link]) -> Option<ReorderHit> {
    let mut best: Option<ReorderHit> = None;
    for &(i, j) in links {
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

/// The crossing measure of sorted links, by binary search on `d`: `d` is reachable when
/// some link `(i2, j2)` has an earlier link with `i1 ≤ i2 − d` and `j1 ≥ j2 + d`, found
/// with the running maximum of `j` over the links sorted by `i`. `O(L log L log n)`.
fn crossing(links: &[Link]) -> Crossing {
    // best[k] = index of the link with the largest j among links[..k] (first on ties).
    let mut best = Vec::with_capacity(links.len() + 1);
    best.push(usize::MAX);
    for (k, &(_, j)) in links.iter().enumerate() {
        let prev = best[k];
        best.push(if prev == usize::MAX || j > links[prev].1 {
            k
        } else {
            prev
        });
    }
    let witness = |d: usize| -> Option<(Link, Link)> {
        links.iter().find_map(|&(i2, j2)| {
            let before = links.partition_point(|&(i1, _)| i1 + d <= i2);
            let a = best[before];
            (a != usize::MAX && links[a].1 >= j2 + d).then(|| (links[a], (i2, j2)))
        })
    };
    let span = links.last().map_or(0, |l| l.0) - links[0].0;
    let (mut lo, mut hi) = (0usize, span); // lo is reachable (0 trivially), hi + 1 is not
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if witness(mid).is_some() {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Crossing {
        distance: lo,
        links: if lo == 0 { None } else { witness(lo) },
    }
}

/// The alignment permutation of sorted word links: for each placed source word, in source
/// order, its rank by (smallest linked target index, source index).
pub fn permutation(links: &[Link]) -> Vec<usize> {
    // links are sorted by (i, j): the first link of each source word has its smallest j.
    let mut keys: Vec<(usize, usize)> = Vec::new();
    for &(i, j) in links {
        if keys.last().is_none_or(|&(_, li)| li != i) {
            keys.push((j, i));
        }
    }
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by_key(|&k| keys[k]);
    let mut rank = vec![0; keys.len()];
    for (r, &k) in order.iter().enumerate() {
        rank[k] = r;
    }
    rank
}

/// Number of pairs `a < b` with `positions[a] > positions[b]` (merge sort, `O(n log n)`).
fn inversions(positions: &[usize]) -> u64 {
    fn sort(values: &mut [usize], tmp: &mut Vec<usize>) -> u64 {
        let n = values.len();
        if n < 2 {
            return 0;
        }
        let mid = n / 2;
        let mut count = sort(&mut values[..mid], tmp) + sort(&mut values[mid..], tmp);
        tmp.clear();
        let (mut a, mut b) = (0, mid);
        while a < mid && b < n {
            if values[a] <= values[b] {
                tmp.push(values[a]);
                a += 1;
            } else {
                tmp.push(values[b]);
                count += (mid - a) as u64;
                b += 1;
            }
        }
        tmp.extend_from_slice(&values[a..mid]);
        tmp.extend_from_slice(&values[b..n]);
        values.copy_from_slice(tmp);
        count
    }
    let mut v = positions.to_vec();
    sort(&mut v, &mut Vec::with_capacity(positions.len()))
}

/// Whether a token passes Python's `str.isalpha()` as the released code meant to apply
/// it: not empty, every character alphabetic. (Rust's `is_alphabetic` also accepts letter
/// numbers and combining vowel signs, which Python does not; no German or English word
/// differs.)
pub fn is_alpha_token(tok: &str) -> bool {
    !tok.is_empty() && tok.chars().all(char::is_alphabetic)
}

/// The position measure as the paper's released code computes it (auto_challenge_sets,
/// `evaluate_model.py`, `process_alignments` and `find_reordered_sentences`), without its
/// bug of testing `isalpha()` on a character of the raw line instead of on the token:
///
/// 1. one link per source word: the links become a dict `{i: j}` in the given order, so
///    the last link of a source word wins;
/// 2. every source word without a link is linked to its own position (`i → i`; distance 0,
///    so it never raises the maximum);
/// 3. the largest `|i − j|` over links whose two tokens are [`is_alpha_token`], the first
///    in dict order on ties (dict order: first appearance of each source index, then the
///    unaligned words in source order).
///
/// Links outside the sentences are ignored. `None` when no link qualifies. A pair is in
/// the released sets when this distance is *strictly greater* than `d`.
pub fn paper_position(
    src_tokens: &[&str],
    tgt_tokens: &[&str],
    links: &[Link],
) -> Option<ReorderHit> {
    let mut dict: Vec<Link> = Vec::new(); // (i, j) in dict insertion order
    let mut slot: Vec<Option<usize>> = vec![None; src_tokens.len()];
    for &(i, j) in links {
        if i >= src_tokens.len() {
            continue;
        }
        match slot[i] {
            Some(k) => dict[k].1 = j,
            None => {
                slot[i] = Some(dict.len());
                dict.push((i, j));
            }
        }
    }
    for (i, s) in slot.iter().enumerate() {
        if s.is_none() {
            dict.push((i, i));
        }
    }
    let qualifying = dict.into_iter().filter(|&(i, j)| {
        is_alpha_token(src_tokens[i]) && tgt_tokens.get(j).is_some_and(|t| is_alpha_token(t))
    });
    max_position(&qualifying.collect::<Vec<_>>())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// All pairs, O(n^2): the definition.
    fn crossing_brute(links: &[Link]) -> usize {
        let mut best = 0;
        for &(i1, j1) in links {
            for &(i2, j2) in links {
                if i1 < i2 && j1 > j2 {
                    best = best.max((i2 - i1).min(j1 - j2));
                }
            }
        }
        best
    }

    fn inversions_brute(p: &[usize]) -> u64 {
        let mut c = 0;
        for a in 0..p.len() {
            for b in a + 1..p.len() {
                c += u64::from(p[a] > p[b]);
            }
        }
        c
    }

    #[test]
    fn fast_algorithms_agree_with_the_definitions() {
        let mut x: u64 = 7;
        let mut next = |n: usize| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            ((x >> 33) % n as u64) as usize
        };
        for round in 0..2000 {
            let len = 1 + round % 40;
            let mut links: Vec<Link> = (0..1 + next(60)).map(|_| (next(len), next(len))).collect();
            links.sort_unstable();
            links.dedup();
            let c = crossing(&links);
            assert_eq!(c.distance, crossing_brute(&links), "{links:?}");
            if let Some(((i1, j1), (i2, j2))) = c.links {
                assert!(links.contains(&(i1, j1)) && links.contains(&(i2, j2)));
                assert!(i2 - i1 >= c.distance && j1 - j2 >= c.distance);
            } else {
                assert_eq!(c.distance, 0);
            }
            let p = permutation(&links);
            assert_eq!(inversions(&p), inversions_brute(&p));
        }
    }
}
