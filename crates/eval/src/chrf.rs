//! chrF exactly as sacreBLEU 2.x `CHRF()` computes it by default (`sacrebleu -m chrf`):
//! character n-grams of order 1–6, no word n-grams, β = 2, whitespace removed
//! (Python `''.join(line.split())`), case-sensitive, `eps_smoothing=False`.
//!
//! Per line and order n: `hyp[n]` = number of hypothesis char n-grams (reported as 0 when
//! the reference has no n-gram of that order, like sacreBLEU), `reference[n]` = number of
//! reference char n-grams, `hits[n]` = clipped matches. Finalising summed statistics:
//! for each order with `hyp[n] > 0 && reference[n] > 0`, `P̄ += hits/hyp`, `R̄ += hits/reference`;
//! both are divided by the number of such orders ("effective order"), and
//! `chrF = 100 · (1+β²)·P̄·R̄ / (β²·P̄ + R̄)` (0 if `P̄ + R̄ = 0`).

use crate::util::{clipped_matches, is_py_space};
use crate::{EvalError, SufficientStats};

/// Character n-gram order.
pub const CHAR_ORDER: usize = 6;
/// β (recall weight).
pub const BETA: u32 = 2;

/// chrF sufficient statistics of one line or a sum of lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ChrfStats {
    /// Hypothesis char n-gram counts per order 1..=6.
    pub hyp: [u64; CHAR_ORDER],
    /// Reference char n-gram counts per order 1..=6.
    pub reference: [u64; CHAR_ORDER],
    /// Clipped matches per order 1..=6.
    pub hits: [u64; CHAR_ORDER],
}

impl ChrfStats {
    /// Statistics of one raw hypothesis line against its reference.
    pub fn from_pair(hyp: &str, reference: &str) -> Self {
        let h: Vec<u32> = hyp
            .chars()
            .filter(|&c| !is_py_space(c))
            .map(|c| c as u32)
            .collect();
        let r: Vec<u32> = reference
            .chars()
            .filter(|&c| !is_py_space(c))
            .map(|c| c as u32)
            .collect();
        let mut s = ChrfStats::default();
        for n in 1..=CHAR_ORDER {
            let mut hk = pack_chars(&h, n);
            let mut rk = pack_chars(&r, n);
            s.hyp[n - 1] = if rk.is_empty() { 0 } else { hk.len() as u64 };
            s.reference[n - 1] = rk.len() as u64;
            s.hits[n - 1] = clipped_matches(&mut hk, &mut rk);
        }
        s
    }
}

/// Packs each char n-gram into a `u128` (21 bits per code point; injective for n ≤ 6).
fn pack_chars(chars: &[u32], n: usize) -> Vec<u128> {
    chars
        .windows(n)
        .map(|w| w.iter().fold(0u128, |k, &c| (k << 21) | c as u128))
        .collect()
}

impl SufficientStats for ChrfStats {
    fn add(&mut self, o: &Self) {
        for n in 0..CHAR_ORDER {
            self.hyp[n] += o.hyp[n];
            self.reference[n] += o.reference[n];
            self.hits[n] += o.hits[n];
        }
    }

    fn add_times(&mut self, o: &Self, times: u64) {
        for n in 0..CHAR_ORDER {
            self.hyp[n] += o.hyp[n] * times;
            self.reference[n] += o.reference[n] * times;
            self.hits[n] += o.hits[n] * times;
        }
    }

    /// Replicates sacreBLEU's `CHRF._compute_f_score` (eps_smoothing off) operation by
    /// operation, so results are bit-identical.
    fn score(&self) -> f64 {
        let factor = (BETA * BETA) as f64;
        let (mut avg_prec, mut avg_rec, mut eff) = (0.0f64, 0.0f64, 0u32);
        for n in 0..CHAR_ORDER {
            let (h, r, m) = (self.hyp[n], self.reference[n], self.hits[n]);
            if h > 0 && r > 0 {
                avg_prec += m as f64 / h as f64;
                avg_rec += m as f64 / r as f64;
                eff += 1;
            }
        }
        if eff == 0 {
            return 0.0;
        }
        avg_prec /= eff as f64;
        avg_rec /= eff as f64;
        if avg_prec + avg_rec == 0.0 {
            return 0.0;
        }
        let mut score = (1.0 + factor) * avg_prec * avg_rec;
        score /= factor * avg_prec + avg_rec;
        100.0 * score
    }
}

/// Per-line chrF statistics of parallel hypothesis/reference corpora.
pub fn line_stats<H: AsRef<str>, R: AsRef<str>>(
    hyps: &[H],
    refs: &[R],
) -> Result<Vec<ChrfStats>, EvalError> {
    crate::per_line(hyps, refs, ChrfStats::from_pair)
}

/// Corpus chrF (0–100) of parallel hypothesis/reference corpora.
pub fn corpus_chrf<H: AsRef<str>, R: AsRef<str>>(hyps: &[H], refs: &[R]) -> Result<f64, EvalError> {
    Ok(crate::sum_all(&line_stats(hyps, refs)?).score())
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
        assert_eq!(s.hyp, [4, 3, 0, 0, 0, 0]);
        assert_eq!(s.reference, [2, 1, 0, 0, 0, 0]);
        assert_eq!(s.hits, [2, 1, 0, 0, 0, 0]);
        // P = (2/4 + 1/3)/2, R = 1 → 5PR/(4P+R)
        let p = (0.5 + 1.0 / 3.0) / 2.0;
        let expected = 100.0 * 5.0 * p / (4.0 * p + 1.0);
        assert!((s.score() - expected).abs() < 1e-12);
    }
}
