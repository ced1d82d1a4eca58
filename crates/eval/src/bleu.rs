//! BLEU exactly as sacreBLEU 2.x `BLEU()` computes it by default (`sacrebleu -m bleu`):
//! 13a tokenizer, no lowercasing, max order 4, `exp` smoothing, effective order off,
//! one reference per line.
//!
//! Per line: the hypothesis and reference are right-stripped (Python `rstrip()`),
//! tokenized with [`crate::tokenize13a`], and n-grams of order 1–4 are counted;
//! `matches[n]` = sum over distinct hypothesis n-grams of `min(count_hyp, count_ref)`,
//! `totals[n]` = number of hypothesis n-grams. Corpus (or subset) BLEU sums these:
//!
//! `BLEU = BP · exp(Σₙ log pₙ / 4)`, `pₙ = 100·mₙ/tₙ`, with exp smoothing
//! `pₙ = 100 / (2ᵏ·tₙ)` for the k-th order with `mₙ = 0`; `BP = exp(1 − r/c)` if `c < r`
//! (0 if `c = 0`), else 1. The score is 0 when no n-gram matches at all; an order with
//! `tₙ = 0` contributes `log 0 := −9999999999` (sacreBLEU's `my_log`), i.e. score 0.

use std::collections::HashMap;

use crate::util::py_rstrip;
use crate::{tokenize13a, EvalError, SufficientStats};

/// Maximum n-gram order.
pub const MAX_ORDER: usize = 4;

/// BLEU sufficient statistics of one line or a sum of lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct BleuStats {
    /// Hypothesis length in tokens.
    pub hyp_len: u64,
    /// Reference length in tokens.
    pub ref_len: u64,
    /// Clipped n-gram matches per order 1..=4.
    pub matches: [u64; MAX_ORDER],
    /// Hypothesis n-gram counts per order 1..=4.
    pub totals: [u64; MAX_ORDER],
}

/// A finalised BLEU score with its components (as sacreBLEU's `BLEUScore`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BleuScore {
    /// BLEU on the 0–100 scale.
    pub score: f64,
    /// Smoothed n-gram precisions (0–100).
    pub precisions: [f64; MAX_ORDER],
    /// Brevity penalty.
    pub bp: f64,
    /// Summed hypothesis length.
    pub hyp_len: u64,
    /// Summed reference length.
    pub ref_len: u64,
}

impl BleuStats {
    /// Statistics of one raw (untokenized) hypothesis line against its reference.
    pub fn from_pair(hyp: &str, reference: &str) -> Self {
        let mut vocab: HashMap<String, u32> = HashMap::new();
        let r = ids(py_rstrip(reference), &mut vocab);
        let h = ids(py_rstrip(hyp), &mut vocab);
        Self::from_token_ids(&h, &r)
    }

    /// Statistics of already-tokenized lines (tokens are compared exactly).
    pub fn from_tokens<S: AsRef<str>>(hyp: &[S], reference: &[S]) -> Self {
        let mut vocab: HashMap<&str, u32> = HashMap::new();
        let r = intern(reference, &mut vocab);
        let h = intern(hyp, &mut vocab);
        Self::from_token_ids(&h, &r)
    }

    fn from_token_ids(h: &[u32], r: &[u32]) -> Self {
        let mut s = BleuStats {
            hyp_len: h.len() as u64,
            ref_len: r.len() as u64,
            ..Default::default()
        };
        for n in 1..=MAX_ORDER {
            let mut hk = pack_ngrams(h, n);
            let mut rk = pack_ngrams(r, n);
            s.totals[n - 1] = hk.len() as u64;
            s.matches[n - 1] = crate::util::clipped_matches(&mut hk, &mut rk);
        }
        s
    }

    /// Finalises (summed) statistics into a [`BleuScore`], replicating sacreBLEU's
    /// `BLEU.compute_bleu` operation by operation (so results are bit-identical).
    pub fn finalize(&self) -> BleuScore {
        let (c, r) = (self.hyp_len, self.ref_len);
        let bp = if c < r {
            if c > 0 {
                (1.0 - r as f64 / c as f64).exp()
            } else {
                0.0
            }
        } else {
            1.0
        };
        let mut precisions = [0.0f64; MAX_ORDER];
        let done = |score, precisions| BleuScore {
            score,
            precisions,
            bp,
            hyp_len: c,
            ref_len: r,
        };
        if self.matches.iter().all(|&m| m == 0) {
            return done(0.0, precisions);
        }
        let mut smooth = 1.0f64;
        let orders = precisions
            .iter_mut()
            .zip(self.matches.iter().zip(&self.totals));
        for (p, (&m, &t)) in orders {
            if t == 0 {
                break;
            }
            *p = if m == 0 {
                smooth *= 2.0;
                100.0 / (smooth * t as f64)
            } else {
                100.0 * m as f64 / t as f64
            };
        }
        let log_sum = precisions.iter().fold(0.0f64, |acc, &p| acc + my_log(p));
        done(bp * (log_sum / MAX_ORDER as f64).exp(), precisions)
    }
}

impl SufficientStats for BleuStats {
    fn add(&mut self, o: &Self) {
        self.hyp_len += o.hyp_len;
        self.ref_len += o.ref_len;
        for n in 0..MAX_ORDER {
            self.matches[n] += o.matches[n];
            self.totals[n] += o.totals[n];
        }
    }

    fn add_times(&mut self, o: &Self, times: u64) {
        self.hyp_len += o.hyp_len * times;
        self.ref_len += o.ref_len * times;
        for n in 0..MAX_ORDER {
            self.matches[n] += o.matches[n] * times;
            self.totals[n] += o.totals[n] * times;
        }
    }

    fn score(&self) -> f64 {
        self.finalize().score
    }
}

/// sacreBLEU's `my_log`: `log(0)` is floored to `-9999999999`.
fn my_log(x: f64) -> f64 {
    if x == 0.0 {
        -9_999_999_999.0
    } else {
        x.ln()
    }
}

/// Maps tokens to ids in `vocab`.
fn intern<'a, S: AsRef<str>>(tokens: &'a [S], vocab: &mut HashMap<&'a str, u32>) -> Vec<u32> {
    tokens
        .iter()
        .map(|w| {
            let next = vocab.len() as u32;
            *vocab.entry(w.as_ref()).or_insert(next)
        })
        .collect()
}

/// 13a-tokenizes `line` and maps tokens to ids in `vocab`.
fn ids(line: &str, vocab: &mut HashMap<String, u32>) -> Vec<u32> {
    let mut out = Vec::new();
    tokenize13a::for_each_token(line, |t| {
        let id = match vocab.get(t) {
            Some(&id) => id,
            None => {
                let id = vocab.len() as u32;
                vocab.insert(t.to_owned(), id);
                id
            }
        };
        out.push(id);
    });
    out
}

/// Packs each n-gram of token ids into one `u128` (32 bits per token; injective for n ≤ 4).
fn pack_ngrams(ids: &[u32], n: usize) -> Vec<u128> {
    ids.windows(n)
        .map(|w| w.iter().fold(0u128, |k, &id| (k << 32) | id as u128))
        .collect()
}

/// Per-line BLEU statistics of parallel hypothesis/reference corpora.
pub fn line_stats<H: AsRef<str>, R: AsRef<str>>(
    hyps: &[H],
    refs: &[R],
) -> Result<Vec<BleuStats>, EvalError> {
    crate::per_line(hyps, refs, BleuStats::from_pair)
}

/// Corpus BLEU of parallel hypothesis/reference corpora (sacreBLEU default settings).
pub fn corpus_bleu<H: AsRef<str>, R: AsRef<str>>(
    hyps: &[H],
    refs: &[R],
) -> Result<BleuScore, EvalError> {
    Ok(crate::sum_all(&line_stats(hyps, refs)?).finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_is_100_and_empty_is_0() {
        let s = corpus_bleu(&["The cat sat on the mat ."], &["The cat sat on the mat ."]).unwrap();
        // sacreBLEU 2.4.3 prints repr(score) = 100.00000000000004 here too (exp(ln 100)).
        assert_eq!(s.score, 100.00000000000004);
        let e = corpus_bleu(&[""], &["The cat sat on the mat ."]).unwrap();
        assert_eq!(e.score, 0.0);
        assert_eq!(e.bp, 0.0);
    }

    #[test]
    fn stats_count_clipped_ngrams() {
        let s = BleuStats::from_pair("the the the cat", "the cat the mat");
        assert_eq!(s.hyp_len, 4);
        assert_eq!(s.ref_len, 4);
        assert_eq!(s.totals, [4, 3, 2, 1]);
        // unigrams: the min(3,2)=2 + cat 1 = 3; bigrams: "the cat" 1, "the the" 0
        assert_eq!(s.matches, [3, 1, 0, 0]);
        // tokens given directly agree with the string path
        let t =
            BleuStats::from_tokens(&["the", "the", "the", "cat"], &["the", "cat", "the", "mat"]);
        assert_eq!(s, t);
    }

    #[test]
    fn exp_smoothing_matches_sacrebleu_value() {
        // sacrebleu.BLEU().corpus_score(["the the the cat"], [["the cat the mat"]]).score
        let s = BleuStats::from_pair("the the the cat", "the cat the mat").finalize();
        // p = [75, 33.33.., 100/(2*2), 100/(4*1)]
        assert_eq!(s.precisions[2], 25.0);
        assert_eq!(s.precisions[3], 25.0);
        // = sacrebleu.BLEU().corpus_score(["the the the cat"], [["the cat the mat"]]).score
        assert_eq!(s.score, 35.35533905932737);
    }

    #[test]
    fn mismatched_lengths_error() {
        assert_eq!(
            line_stats(&["a"], &["a", "b"]),
            Err(EvalError::LengthMismatch {
                hyp: 1,
                reference: 2
            })
        );
    }
}
