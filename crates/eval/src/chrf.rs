//! chrF and chrF++ exactly as sacreBLEU 2.x's `CHRF(...)` computes them, with every
//! setting it has: character order (`--chrf-char-order`, default 6), word order
//! (`--chrf-word-order`, default 0; 2 is chrF++), β (`--chrf-beta`, default 2),
//! whitespace kept (`--chrf-whitespace`), lowercasing (`--chrf-lowercase`), epsilon
//! smoothing instead of effective order (`--chrf-eps-smoothing`), several references.
//!
//! Per line and order: `hyp[n]` = number of hypothesis n-grams (reported as 0 when the
//! reference has none of that order, like sacreBLEU), `reference[n]` = number of
//! reference n-grams, `hits[n]` = clipped matches; character n-grams of the line without
//! whitespace (Python `''.join(line.split())`) unless whitespace is kept, then word
//! n-grams of its words with a leading or trailing punctuation mark split off (sacreBLEU's
//! `_remove_punctuation`). With several references, a line takes the statistics of the
//! reference whose sentence-level chrF is highest (the first on a tie). Finalising summed
//! statistics replicates sacreBLEU's `_compute_f_score` ([`ChrfStats::score`]): with
//! effective order, `P̄`, `R̄` = mean precision/recall over the orders with `hyp > 0` and
//! `reference > 0`, `chrF = 100 · (1+β²)·P̄·R̄ / (β²·P̄ + R̄)` (0 if `P̄ + R̄ = 0`); with
//! epsilon smoothing, the mean over all orders of each order's F-score (ε = 1e-16 for an
//! empty count).

use std::collections::HashMap;

use crate::util::{case, clipped_matches, is_py_space, lowered, py_split, yes_no};
use crate::{EvalError, SufficientStats};

/// sacreBLEU's default character n-gram order.
pub const CHAR_ORDER: usize = 6;
/// sacreBLEU's default β (recall weight).
pub const BETA: u32 = 2;
/// The most orders (character plus word) ldd-sets computes.
pub const ORDER_LIMIT: usize = 10;

/// How summed chrF statistics are finalised: [`SufficientStats::Params`] of [`ChrfStats`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChrfScoring {
    /// Character orders.
    pub char_order: usize,
    /// Word orders (2: chrF++).
    pub word_order: usize,
    /// β.
    pub beta: u32,
    /// Epsilon smoothing instead of effective order.
    pub eps_smoothing: bool,
}

impl Default for ChrfScoring {
    fn default() -> Self {
        ChrfScoring {
            char_order: CHAR_ORDER,
            word_order: 0,
            beta: BETA,
            eps_smoothing: false,
        }
    }
}

impl ChrfScoring {
    /// Character plus word orders.
    pub fn orders(&self) -> usize {
        (self.char_order + self.word_order).min(ORDER_LIMIT)
    }
}

/// chrF as configured: sacreBLEU's `CHRF(...)` object.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Chrf {
    /// Orders, β, smoothing.
    pub scoring: ChrfScoring,
    /// Keep whitespace in character n-grams (`--chrf-whitespace`).
    pub whitespace: bool,
    /// Lowercase first (`--chrf-lowercase`).
    pub lowercase: bool,
}

/// chrF sufficient statistics of one line or a sum of lines (orders beyond the metric's
/// are 0): character orders first, then word orders.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ChrfStats {
    /// Hypothesis n-gram counts per order.
    pub hyp: [u64; ORDER_LIMIT],
    /// Reference n-gram counts per order.
    pub reference: [u64; ORDER_LIMIT],
    /// Clipped matches per order.
    pub hits: [u64; ORDER_LIMIT],
}

/// A line prepared for counting: its characters (whitespace removed unless kept) and its
/// word ids.
struct Prepared {
    chars: Vec<u32>,
    words: Vec<u32>,
}

impl Chrf {
    /// sacreBLEU's signature settings: `case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.4.3`.
    pub fn signature(&self) -> String {
        format!(
            "case:{}|eff:{}|nc:{}|nw:{}|space:{}|version:{}",
            case(self.lowercase),
            yes_no(!self.scoring.eps_smoothing),
            self.scoring.char_order,
            self.scoring.word_order,
            yes_no(self.whitespace),
            crate::SACREBLEU_VERSION
        )
    }

    fn prepare(&self, line: &str, vocab: &mut HashMap<String, u32>) -> Prepared {
        let lower = lowered(line, self.lowercase);
        let line = lower.as_ref();
        let chars = if self.whitespace {
            line.chars().map(|c| c as u32).collect()
        } else {
            line.chars()
                .filter(|&c| !is_py_space(c))
                .map(|c| c as u32)
                .collect()
        };
        let mut words = Vec::new();
        if self.scoring.word_order > 0 {
            for w in remove_punctuation(line) {
                let next = vocab.len() as u32;
                words.push(*vocab.entry(w.to_string()).or_insert(next));
            }
        }
        Prepared { chars, words }
    }

    /// The statistics of one hypothesis line against its references (at least one).
    pub fn stats<R: AsRef<str>>(&self, hyp: &str, refs: &[R]) -> ChrfStats {
        let mut vocab = HashMap::new();
        let h = self.prepare(hyp, &mut vocab);
        let mut best: Option<(f64, ChrfStats)> = None;
        for r in refs {
            let r = self.prepare(r.as_ref(), &mut vocab);
            let s = self.pair(&h, &r);
            let f = s.score(&self.scoring);
            if best.as_ref().is_none_or(|(bf, _)| f > *bf) {
                best = Some((f, s));
            }
        }
        best.map(|b| b.1).unwrap_or_default()
    }

    fn pair(&self, hypothesis: &Prepared, reference: &Prepared) -> ChrfStats {
        let mut s = ChrfStats::default();
        let orders = (1..=self.scoring.char_order)
            .map(|n| (n, &hypothesis.chars, &reference.chars, 21))
            .chain(
                (1..=self.scoring.word_order).map(|n| (n, &hypothesis.words, &reference.words, 32)),
            );
        for (k, (n, hs, rs, bits)) in orders.take(ORDER_LIMIT).enumerate() {
            let (hn, rn) = (
                hs.len().saturating_sub(n - 1),
                rs.len().saturating_sub(n - 1),
            );
            s.hyp[k] = if rn == 0 { 0 } else { hn as u64 };
            s.reference[k] = rn as u64;
            s.hits[k] = if n * bits <= 128 {
                let pack = |v: &[u32]| -> Vec<u128> {
                    v.windows(n)
                        .map(|w| w.iter().fold(0u128, |acc, &c| (acc << bits) | c as u128))
                        .collect()
                };
                clipped_matches(&mut pack(hs), &mut pack(rs))
            } else {
                clipped_matches(
                    &mut hs.windows(n).collect::<Vec<_>>(),
                    &mut rs.windows(n).collect::<Vec<_>>(),
                )
            };
        }
        s
    }

    /// Per-line statistics of parallel hypotheses and references (`refs[k]`: the k-th
    /// reference of every line).
    pub fn line_stats<H: AsRef<str>, R: AsRef<str>>(
        &self,
        hyps: &[H],
        refs: &[&[R]],
    ) -> Result<Vec<ChrfStats>, EvalError> {
        crate::per_line_refs(hyps, refs, |h, r| Ok(self.stats(h, r)))
    }

    /// Corpus chrF of parallel hypotheses and references.
    pub fn corpus_score<H: AsRef<str>, R: AsRef<str>>(
        &self,
        hyps: &[H],
        refs: &[&[R]],
    ) -> Result<f64, EvalError> {
        Ok(crate::sum_all(&self.line_stats(hyps, refs)?).score(&self.scoring))
    }
}

/// sacreBLEU's `_remove_punctuation`: the words of `line`, each with a final (else an
/// initial) ASCII punctuation mark split off.
fn remove_punctuation(line: &str) -> Vec<&str> {
    let punct = |c: char| c.is_ascii_punctuation();
    let mut out = Vec::new();
    for w in py_split(line) {
        let mut chars = w.chars();
        let (first, last) = (chars.next(), w.chars().next_back());
        if chars.next().is_none() {
            out.push(w);
        } else if let Some(l) = last.filter(|&c| punct(c)) {
            let cut = w.len() - l.len_utf8();
            out.extend([&w[..cut], &w[cut..]]);
        } else if let Some(f) = first.filter(|&c| punct(c)) {
            let cut = f.len_utf8();
            out.extend([&w[..cut], &w[cut..]]);
        } else {
            out.push(w);
        }
    }
    out
}

impl ChrfStats {
    /// Statistics of one raw hypothesis line against its reference, with sacreBLEU's
    /// default settings.
    pub fn from_pair(hyp: &str, reference: &str) -> Self {
        Chrf::default().stats(hyp, &[reference])
    }
}

impl SufficientStats for ChrfStats {
    type Params = ChrfScoring;

    fn add(&mut self, other: &Self) {
        for n in 0..ORDER_LIMIT {
            self.hyp[n] += other.hyp[n];
            self.reference[n] += other.reference[n];
            self.hits[n] += other.hits[n];
        }
    }

    fn add_times(&mut self, other: &Self, times: u64) {
        for n in 0..ORDER_LIMIT {
            self.hyp[n] += other.hyp[n] * times;
            self.reference[n] += other.reference[n] * times;
            self.hits[n] += other.hits[n] * times;
        }
    }

    /// Replicates sacreBLEU's `CHRF._compute_f_score` operation by operation, so results
    /// are bit-identical.
    fn score(&self, scoring: &ChrfScoring) -> f64 {
        const EPS: f64 = 1e-16;
        let factor = f64::from(scoring.beta * scoring.beta);
        let orders = scoring.orders();
        let (mut avg_prec, mut avg_rec, mut eff) = (0.0f64, 0.0f64, 0u32);
        let mut score = 0.0f64;
        for n in 0..orders {
            let (h, r, m) = (self.hyp[n], self.reference[n], self.hits[n]);
            let prec = if h > 0 { m as f64 / h as f64 } else { EPS };
            let rec = if r > 0 { m as f64 / r as f64 } else { EPS };
            let denom = factor * prec + rec;
            score += if denom > 0.0 {
                (1.0 + factor) * prec * rec / denom
            } else {
                EPS
            };
            if h > 0 && r > 0 {
                avg_prec += prec;
                avg_rec += rec;
                eff += 1;
            }
        }
        if scoring.eps_smoothing {
            return 100.0 * score / orders as f64;
        }
        if eff == 0 {
            return 0.0;
        }
        avg_prec /= f64::from(eff);
        avg_rec /= f64::from(eff);
        if avg_prec + avg_rec == 0.0 {
            return 0.0;
        }
        let mut score = (1.0 + factor) * avg_prec * avg_rec;
        score /= factor * avg_prec + avg_rec;
        100.0 * score
    }
}

/// Per-line chrF statistics of parallel hypothesis/reference corpora (sacreBLEU defaults).
pub fn line_stats<H: AsRef<str>, R: AsRef<str>>(
    hyps: &[H],
    refs: &[R],
) -> Result<Vec<ChrfStats>, EvalError> {
    crate::per_line(hyps, refs, ChrfStats::from_pair)
}

/// Corpus chrF (0–100) of parallel hypothesis/reference corpora (sacreBLEU defaults).
pub fn corpus_chrf<H: AsRef<str>, R: AsRef<str>>(hyps: &[H], refs: &[R]) -> Result<f64, EvalError> {
    Ok(crate::sum_all(&line_stats(hyps, refs)?).score(&ChrfScoring::default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_is_100_whitespace_ignored() {
        assert_eq!(corpus_chrf(&["a b c"], &["abc"]).unwrap(), 100.0);
        assert_eq!(corpus_chrf(&[""], &["abc"]).unwrap(), 0.0);
    }

    #[test]
    fn hyp_count_zeroed_when_reference_too_short() {
        let s = ChrfStats::from_pair("abcd", "ab");
        assert_eq!(&s.hyp[..6], [4, 3, 0, 0, 0, 0]);
        assert_eq!(&s.reference[..6], [2, 1, 0, 0, 0, 0]);
        assert_eq!(&s.hits[..6], [2, 1, 0, 0, 0, 0]);
        // P = (2/4 + 1/3)/2, R = 1 → 5PR/(4P+R)
        let p = (0.5 + 1.0 / 3.0) / 2.0;
        let expected = 100.0 * 5.0 * p / (4.0 * p + 1.0);
        assert!((s.score(&ChrfScoring::default()) - expected).abs() < 1e-12);
    }

    #[test]
    fn punctuation_split_as_sacrebleu() {
        // CHRF()._remove_punctuation("(hi) a . x, 'y")
        assert_eq!(
            remove_punctuation("(hi) a . x, 'y"),
            ["(hi", ")", "a", ".", "x", ",", "'", "y"]
        );
    }
}
