//! BLEU exactly as sacreBLEU 2.x's `BLEU(...)` computes it, with every setting it has:
//! the tokenizer ([`crate::tokenize`]), lowercasing, the smoothing method and value, the
//! maximum n-gram order, effective order, and several references per line. The defaults
//! are `sacrebleu -m bleu`'s: 13a, mixed case, `exp` smoothing, order 4, no effective
//! order, one reference.
//!
//! Per line: the hypothesis and each reference are lowercased (with `--lowercase`),
//! right-stripped (Python `rstrip()`), tokenized and split on whitespace; n-grams of order
//! 1..=N are counted. `matches[n]` = sum over distinct hypothesis n-grams of
//! `min(count_hyp, max over references of count_ref)`, `totals[n]` = number of hypothesis
//! n-grams, `ref_len` = the length of the reference closest to the hypothesis's (the
//! shorter on a tie). Corpus (or subset) BLEU sums these and finalises them
//! ([`BleuStats::finalize`], sacreBLEU's `compute_bleu` operation by operation):
//!
//! `BLEU = BP · exp(Σₙ log pₙ / N)`, `pₙ = 100·mₙ/tₙ`; a zero `mₙ` is smoothed by the
//! method (`exp`: `100 / (2ᵏ·tₙ)` for the k-th such order; `floor`: `100·v/tₙ`;
//! `add-k`: `mₙ + v` and `tₙ + v` for n > 1; `none`: 0); `BP = exp(1 − r/c)` if `c < r`
//! (0 if `c = 0`), else 1. The score is 0 when no n-gram matches at all; an order with
//! `tₙ = 0` ends the precisions, the others counting `log 0 := −9999999999`
//! (sacreBLEU's `my_log`) unless effective order stops at the last order with n-grams.

use std::collections::HashMap;

use crate::tokenize::{Tokenizer, TokenizerName};
use crate::util::{case, clipped_matches_sorted, lowered, py_rstrip, yes_no};
use crate::{EvalError, SufficientStats};

/// sacreBLEU's default maximum n-gram order.
pub const MAX_ORDER: usize = 4;

/// The largest maximum n-gram order ldd-sets computes (`--max-ngram-order`).
pub const ORDER_LIMIT: usize = 6;

/// A smoothing method with its value (`--smooth-method`, `--smooth-value`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Smooth {
    /// `none`.
    None,
    /// `floor`: zero matches count as this value (default 0.1).
    Floor(f64),
    /// `add-k`: this value is added to matches and totals of orders above 1 (default 1).
    AddK(f64),
    /// `exp` (mteval-v13a's, the default).
    Exp,
}

impl Smooth {
    /// The methods' names, as `--smooth-method` takes them.
    pub const NAMES: [&'static str; 4] = ["none", "floor", "add-k", "exp"];

    /// The method `name` with `value` (`None`: sacreBLEU's default, 0.1 for `floor`, 1
    /// for `add-k`); `None` for an unknown name or a value given to `none` or `exp`.
    pub fn parse(name: &str, value: Option<f64>) -> Option<Smooth> {
        match (name, value) {
            ("none", None) => Some(Smooth::None),
            ("exp", None) => Some(Smooth::Exp),
            ("floor", v) => Some(Smooth::Floor(v.unwrap_or(0.1))),
            ("add-k", v) => Some(Smooth::AddK(v.unwrap_or(1.0))),
            _ => None,
        }
    }

    /// As sacreBLEU's signature writes it: `exp`, `none`, `floor[0.10]`, `add-k[1.00]`.
    pub fn signature(&self) -> String {
        match self {
            Smooth::None => "none".into(),
            Smooth::Exp => "exp".into(),
            Smooth::Floor(v) => format!("floor[{v:.2}]"),
            Smooth::AddK(v) => format!("add-k[{v:.2}]"),
        }
    }
}

/// How summed BLEU statistics are finalised: [`SufficientStats::Params`] of [`BleuStats`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BleuScoring {
    /// Maximum n-gram order, 1..=[`ORDER_LIMIT`].
    pub max_order: usize,
    /// Smoothing.
    pub smooth: Smooth,
    /// Effective order: stop at the last order with n-grams.
    pub effective_order: bool,
}

impl Default for BleuScoring {
    fn default() -> Self {
        BleuScoring {
            max_order: MAX_ORDER,
            smooth: Smooth::Exp,
            effective_order: false,
        }
    }
}

/// BLEU as configured: sacreBLEU's `BLEU(...)` object.
#[derive(Debug, Clone, Default)]
pub struct Bleu {
    /// The tokenizer.
    pub tokenizer: Tokenizer,
    /// Lowercase before tokenizing (`--lowercase`).
    pub lowercase: bool,
    /// Finalisation.
    pub scoring: BleuScoring,
}

/// BLEU sufficient statistics of one line or a sum of lines (orders beyond the maximum
/// are 0).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct BleuStats {
    /// Hypothesis length in tokens.
    pub hyp_len: u64,
    /// Reference length in tokens (the closest reference's).
    pub ref_len: u64,
    /// Clipped n-gram matches per order 1..=[`ORDER_LIMIT`].
    pub matches: [u64; ORDER_LIMIT],
    /// Hypothesis n-gram counts per order 1..=[`ORDER_LIMIT`].
    pub totals: [u64; ORDER_LIMIT],
}

/// A finalised BLEU score with its components (as sacreBLEU's `BLEUScore`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BleuScore {
    /// BLEU on the 0–100 scale.
    pub score: f64,
    /// Smoothed n-gram precisions (0–100), the first `max_order` used.
    pub precisions: [f64; ORDER_LIMIT],
    /// Brevity penalty.
    pub bp: f64,
    /// Summed hypothesis length.
    pub hyp_len: u64,
    /// Summed reference length.
    pub ref_len: u64,
}

impl Bleu {
    /// sacreBLEU's signature settings: `case:mixed|eff:no|tok:13a|smooth:exp|version:2.4.3`.
    pub fn signature(&self) -> String {
        format!(
            "case:{}|eff:{}|tok:{}|smooth:{}|version:{}",
            case(self.lowercase),
            yes_no(self.scoring.effective_order),
            self.tokenizer.signature(),
            self.scoring.smooth.signature(),
            crate::SACREBLEU_VERSION
        )
    }

    /// The statistics of one raw hypothesis line against its references (at least one).
    pub fn stats<R: AsRef<str>>(&self, hyp: &str, refs: &[R]) -> Result<BleuStats, EvalError> {
        let mut vocab: HashMap<String, u32> = HashMap::new();
        let refs: Vec<Vec<u32>> = refs
            .iter()
            .map(|r| self.ids(r.as_ref(), &mut vocab))
            .collect::<Result<_, _>>()?;
        let h = self.ids(hyp, &mut vocab)?;
        Ok(stats_of_ids(&h, &refs, self.scoring.max_order))
    }

    /// Lowercases (when asked), right-strips and tokenizes `line`, mapping tokens to ids in
    /// `vocab`.
    fn ids(&self, line: &str, vocab: &mut HashMap<String, u32>) -> Result<Vec<u32>, EvalError> {
        let lower = lowered(line, self.lowercase);
        let line = lower.as_ref();
        let mut out = Vec::new();
        self.tokenizer.for_each_token(py_rstrip(line), |t| {
            let id = match vocab.get(t) {
                Some(&id) => id,
                None => {
                    let id = vocab.len() as u32;
                    vocab.insert(t.to_owned(), id);
                    id
                }
            };
            out.push(id);
        })?;
        Ok(out)
    }

    /// Per-line statistics of parallel hypotheses and references (`refs[k]`: the k-th
    /// reference of every line).
    pub fn line_stats<H: AsRef<str>, R: AsRef<str>>(
        &self,
        hyps: &[H],
        refs: &[&[R]],
    ) -> Result<Vec<BleuStats>, EvalError> {
        crate::per_line_refs(hyps, refs, |h, r| self.stats(h, r))
    }

    /// Corpus BLEU of parallel hypotheses and references.
    pub fn corpus_score<H: AsRef<str>, R: AsRef<str>>(
        &self,
        hyps: &[H],
        refs: &[&[R]],
    ) -> Result<BleuScore, EvalError> {
        Ok(crate::sum_all(&self.line_stats(hyps, refs)?).finalize(&self.scoring))
    }

    /// BLEU with sacreBLEU's defaults for the target language `lang` (its tokenizer:
    /// [`TokenizerName::for_language`]).
    pub fn for_language(lang: &str) -> Result<Bleu, EvalError> {
        Ok(Bleu {
            tokenizer: Tokenizer::new(TokenizerName::for_language(lang))?,
            ..Bleu::default()
        })
    }
}

/// Statistics of token ids: `hypothesis` against the references `refs`.
fn stats_of_ids(hypothesis: &[u32], refs: &[Vec<u32>], max_order: usize) -> BleuStats {
    let mut s = BleuStats {
        hyp_len: hypothesis.len() as u64,
        ref_len: closest_ref_len(hypothesis.len(), refs.iter().map(Vec::len)) as u64,
        ..Default::default()
    };
    for n in 1..=max_order.min(ORDER_LIMIT) {
        s.totals[n - 1] = hypothesis.len().saturating_sub(n - 1) as u64;
        s.matches[n - 1] = if n <= 4 {
            // 32 bits per token: one u128 holds an n-gram of up to 4 tokens.
            let pack = |ids: &[u32]| -> Vec<u128> {
                ids.windows(n)
                    .map(|w| w.iter().fold(0u128, |k, &id| (k << 32) | id as u128))
                    .collect()
            };
            let rs: Vec<Vec<u128>> = refs
                .iter()
                .map(|r| {
                    let mut v = pack(r);
                    v.sort_unstable();
                    v
                })
                .collect();
            clipped_matches_sorted(&mut pack(hypothesis), &rs)
        } else {
            let rs: Vec<Vec<&[u32]>> = refs
                .iter()
                .map(|r| {
                    let mut v: Vec<&[u32]> = r.windows(n).collect();
                    v.sort_unstable();
                    v
                })
                .collect();
            clipped_matches_sorted(&mut hypothesis.windows(n).collect::<Vec<_>>(), &rs)
        };
    }
    s
}

/// sacreBLEU's `_get_closest_ref_len`: the reference length closest to `hyp_len`, the
/// shorter on a tie.
fn closest_ref_len(hyp_len: usize, ref_lens: impl Iterator<Item = usize>) -> usize {
    let mut best: Option<(usize, usize)> = None;
    for r in ref_lens {
        let d = hyp_len.abs_diff(r);
        best = match best {
            Some((bd, bl)) if d > bd || (d == bd && r >= bl) => Some((bd, bl)),
            _ => Some((d, r)),
        };
    }
    best.map_or(0, |b| b.1)
}

impl BleuStats {
    /// Statistics of one raw (untokenized) hypothesis line against its reference, with
    /// sacreBLEU's default settings.
    pub fn from_pair(hyp: &str, reference: &str) -> Self {
        let mut vocab: HashMap<String, u32> = HashMap::new();
        let mut ids = |line: &str| {
            let mut out = Vec::new();
            crate::tokenize13a::for_each_token(py_rstrip(line), |t| {
                let next = vocab.len() as u32;
                out.push(*vocab.entry(t.to_owned()).or_insert(next));
            });
            out
        };
        let r = ids(reference);
        let h = ids(hyp);
        stats_of_ids(&h, &[r], MAX_ORDER)
    }

    /// Statistics of already-tokenized lines (tokens are compared exactly), order 4.
    pub fn from_tokens<S: AsRef<str>>(hyp: &[S], reference: &[S]) -> Self {
        fn intern<'a, S: AsRef<str>>(
            tokens: &'a [S],
            vocab: &mut HashMap<&'a str, u32>,
        ) -> Vec<u32> {
            tokens
                .iter()
                .map(|w| {
                    let next = vocab.len() as u32;
                    *vocab.entry(w.as_ref()).or_insert(next)
                })
                .collect()
        }
        let mut vocab: HashMap<&str, u32> = HashMap::new();
        let r = intern(reference, &mut vocab);
        let h = intern(hyp, &mut vocab);
        stats_of_ids(&h, &[r], MAX_ORDER)
    }

    /// Finalises (summed) statistics into a [`BleuScore`], replicating sacreBLEU's
    /// `BLEU.compute_bleu` operation by operation (so results are bit-identical).
    pub fn finalize(&self, scoring: &BleuScoring) -> BleuScore {
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
        let order = scoring.max_order.clamp(1, ORDER_LIMIT);
        let mut precisions = [0.0f64; ORDER_LIMIT];
        let done = |score, precisions| BleuScore {
            score,
            precisions,
            bp,
            hyp_len: c,
            ref_len: r,
        };
        if self.matches[..order].iter().all(|&m| m == 0) {
            return done(0.0, precisions);
        }
        let mut smooth = 1.0f64;
        let mut eff_order = order;
        for n in 1..=order {
            let (mut m, mut t) = (self.matches[n - 1] as f64, self.totals[n - 1] as f64);
            if let (Smooth::AddK(k), true) = (scoring.smooth, n > 1) {
                m += k;
                t += k;
            }
            if t == 0.0 {
                break;
            }
            if scoring.effective_order {
                eff_order = n;
            }
            precisions[n - 1] = if m == 0.0 {
                match scoring.smooth {
                    Smooth::Exp => {
                        smooth *= 2.0;
                        100.0 / (smooth * t)
                    }
                    Smooth::Floor(v) => 100.0 * v / t,
                    Smooth::None | Smooth::AddK(_) => 0.0,
                }
            } else {
                100.0 * m / t
            };
        }
        let log_sum = precisions[..eff_order]
            .iter()
            .fold(0.0f64, |acc, &p| acc + my_log(p));
        done(bp * (log_sum / eff_order as f64).exp(), precisions)
    }
}

impl SufficientStats for BleuStats {
    type Params = BleuScoring;

    fn add(&mut self, other: &Self) {
        self.hyp_len += other.hyp_len;
        self.ref_len += other.ref_len;
        for n in 0..ORDER_LIMIT {
            self.matches[n] += other.matches[n];
            self.totals[n] += other.totals[n];
        }
    }

    fn add_times(&mut self, other: &Self, times: u64) {
        self.hyp_len += other.hyp_len * times;
        self.ref_len += other.ref_len * times;
        for n in 0..ORDER_LIMIT {
            self.matches[n] += other.matches[n] * times;
            self.totals[n] += other.totals[n] * times;
        }
    }

    fn score(&self, scoring: &BleuScoring) -> f64 {
        self.finalize(scoring).score
    }
}

/// sacreBLEU's `my_log`: `log(0)` is floored to `-9999999999`.
fn my_log(value: f64) -> f64 {
    if value == 0.0 {
        -9_999_999_999.0
    } else {
        value.ln()
    }
}

/// Per-line BLEU statistics of parallel hypothesis/reference corpora (sacreBLEU defaults).
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
    Ok(crate::sum_all(&line_stats(hyps, refs)?).finalize(&BleuScoring::default()))
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
        assert_eq!(s.totals, [4, 3, 2, 1, 0, 0]);
        // unigrams: the min(3,2)=2 + cat 1 = 3; bigrams: "the cat" 1, "the the" 0
        assert_eq!(s.matches, [3, 1, 0, 0, 0, 0]);
        // tokens given directly agree with the string path
        let t =
            BleuStats::from_tokens(&["the", "the", "the", "cat"], &["the", "cat", "the", "mat"]);
        assert_eq!(s, t);
    }

    #[test]
    fn exp_smoothing_matches_sacrebleu_value() {
        // sacrebleu.BLEU().corpus_score(["the the the cat"], [["the cat the mat"]]).score
        let s = BleuStats::from_pair("the the the cat", "the cat the mat")
            .finalize(&BleuScoring::default());
        // p = [75, 33.33.., 100/(2*2), 100/(4*1)]
        assert_eq!(s.precisions[2], 25.0);
        assert_eq!(s.precisions[3], 25.0);
        // = sacrebleu.BLEU().corpus_score(["the the the cat"], [["the cat the mat"]]).score
        assert_eq!(s.score, 35.35533905932737);
    }

    /// sacreBLEU 2.4.3's `test_bleu.py` cases that start from statistics
    /// (`test_scoring`, `test_degenerate_statistics`), through `finalize`; its cases that
    /// start from text run through `ldd-sets score` (`tests/sacrebleu_vectors.rs`).
    #[test]
    fn sacrebleu_statistics_cases() {
        let stats = |m: [u64; 4], t: [u64; 4], c: u64, r: u64| BleuStats {
            hyp_len: c,
            ref_len: r,
            matches: [m[0], m[1], m[2], m[3], 0, 0],
            totals: [t[0], t[1], t[2], t[3], 0, 0],
        };
        let none = BleuScoring {
            smooth: Smooth::None,
            ..BleuScoring::default()
        };
        let s = stats([9, 7, 5, 3], [10, 8, 6, 4], 11, 11).finalize(&none);
        assert!((s.score / 100.0 - 0.8375922397).abs() < 1e-8);
        for (m, t, c, r, v) in [
            ([0, 0, 0, 0], [4, 4, 2, 1], 0, 1, 0.0),
            ([0, 0, 0, 0], [10, 11, 12, 0], 14, 10, 0.0),
            ([0, 0, 0, 0], [0, 0, 0, 0], 0, 0, 0.0),
            ([6, 5, 4, 0], [6, 5, 4, 3], 6, 6, 0.0),
            ([0, 0, 0, 0], [0, 0, 0, 0], 0, 0, 0.1),
            ([0, 0, 0, 0], [0, 0, 0, 0], 1, 5, 0.01),
        ] {
            let floor = BleuScoring {
                smooth: Smooth::Floor(v),
                ..BleuScoring::default()
            };
            assert_eq!(stats(m, t, c, r).score(&floor), 0.0);
        }
        assert_eq!(closest_ref_len(5, [3, 7, 6].into_iter()), 6);
        assert_eq!(closest_ref_len(5, [7, 3].into_iter()), 3);
        assert_eq!(
            Smooth::parse("floor", None).unwrap().signature(),
            "floor[0.10]"
        );
        assert_eq!(
            Smooth::parse("add-k", None).unwrap().signature(),
            "add-k[1.00]"
        );
        assert_eq!(Smooth::parse("exp", Some(0.1)), None);
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
