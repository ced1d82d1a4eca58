//! RIBES (Isozaki et al., EMNLP 2010), following NTT's reference `RIBES.py` 1.03.
//!
//! Sentence score: `RIBES = NKT · P^α · BP^β` with α = 0.25, β = 0.10, where
//! * `P` = |alignment| / |hyp| (unigram precision of aligned words),
//! * `BP` = min(1, exp(1 − |ref| / |hyp|)),
//! * `NKT` = (number of ascending pairs i < j with `a[i] < a[j]`) / (n(n−1)/2), the
//!   normalised Kendall's τ of the aligned reference positions `a`.
//!
//! Word alignment (per hypothesis word `hyp[i]`, left to right): skipped if not in the
//! reference; if it occurs exactly once in both, aligned to its reference position;
//! otherwise, for window = 1, 2, … (while `window < max(i+1, |hyp|−i+1)`), first the left
//! context n-gram `hyp[i−window..=i]` (if `window ≤ i`) and then the right context n-gram
//! `hyp[i..=i+window]` (if it fits) is tried: the first one that occurs exactly once in
//! both hypothesis and reference aligns `hyp[i]` to its position inside that reference
//! occurrence; if none does, `hyp[i]` stays unaligned.
//!
//! Special cases as in `RIBES.py`: empty hypothesis → 0; empty reference → error; fewer
//! than two aligned words → 0, except one aligned word with a one-word reference →
//! `NKT = 1, P = 1/|hyp|`. Corpus score = arithmetic mean of sentence scores.
//!
//! Differences from NLTK's `ribes_score` (not followed here): NLTK tries the right context
//! before the left one and counts only pairs within runs of consecutive positions
//! (`find_increasing_sequences`) instead of all ascending pairs.
//!
//! `RIBES.py` reads lines with `strip()`, collapses whitespace and lowercases by default
//! (`-c` keeps case); [`words`] does the same. An empty line thus becomes the single empty
//! word `""` there (so two empty lines score 1.0 and an empty hypothesis otherwise 0).

use crate::util::py_split;
use crate::{EvalError, MeanStats};

/// Default α (precision exponent).
pub const ALPHA: f64 = 0.25;
/// Default β (brevity-penalty exponent).
pub const BETA: f64 = 0.10;

/// Splits a line into RIBES words like `RIBES.py`'s `Corpus`: whitespace-separated,
/// lowercased unless `keep_case`; an empty/blank line yields one empty word.
pub fn words(line: &str, keep_case: bool) -> Vec<String> {
    let mut w: Vec<String> = py_split(line)
        .map(|t| {
            if keep_case {
                t.to_owned()
            } else {
                t.to_lowercase()
            }
        })
        .collect();
    if w.is_empty() {
        w.push(String::new());
    }
    w
}

/// Components of a sentence-level RIBES computation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RibesParts {
    /// Normalised Kendall's τ.
    pub nkt: f64,
    /// Unigram precision of aligned words.
    pub precision: f64,
    /// Brevity penalty.
    pub bp: f64,
}

impl RibesParts {
    /// `nkt · precision^alpha · bp^beta`.
    pub fn score(&self, alpha: f64, beta: f64) -> f64 {
        self.nkt * self.precision.powf(alpha) * self.bp.powf(beta)
    }
}

/// Aligned reference positions of the hypothesis words (see the module docs).
pub fn align<S: AsRef<str> + PartialEq>(reference: &[S], hyp: &[S]) -> Vec<usize> {
    let count = |hay: &[S], ngram: &[S]| hay.windows(ngram.len()).filter(|w| *w == ngram).count();
    let find = |hay: &[S], ngram: &[S]| hay.windows(ngram.len()).position(|w| w == ngram);
    let mut out = Vec::new();
    for i in 0..hyp.len() {
        let w = std::slice::from_ref(&hyp[i]);
        let in_ref = count(reference, w);
        if in_ref == 0 {
            continue;
        }
        if in_ref == 1 && count(hyp, w) == 1 {
            if let Some(p) = find(reference, w) {
                out.push(p);
            }
            continue;
        }
        let limit = (i + 1).max(hyp.len() - i + 1);
        for window in 1..limit {
            if window <= i {
                let ngram = &hyp[i - window..=i];
                if count(reference, ngram) == 1 && count(hyp, ngram) == 1 {
                    if let Some(p) = find(reference, ngram) {
                        out.push(p + ngram.len() - 1);
                        break;
                    }
                }
            }
            if i + window < hyp.len() {
                let ngram = &hyp[i..=i + window];
                if count(reference, ngram) == 1 && count(hyp, ngram) == 1 {
                    if let Some(p) = find(reference, ngram) {
                        out.push(p);
                        break;
                    }
                }
            }
        }
    }
    out
}

/// NKT, precision and BP of one sentence (`RIBES.py`'s `kendall`).
pub fn sentence_parts<S: AsRef<str> + PartialEq>(
    reference: &[S],
    hyp: &[S],
) -> Result<RibesParts, EvalError> {
    if reference.is_empty() {
        return Err(EvalError::EmptyReference);
    }
    if hyp.is_empty() {
        return Ok(RibesParts {
            nkt: 0.0,
            precision: 0.0,
            bp: 0.0,
        });
    }
    let bp = (1.0 - reference.len() as f64 / hyp.len() as f64)
        .exp()
        .min(1.0);
    let a = align(reference, hyp);
    let n = a.len();
    if n == 1 && reference.len() == 1 {
        return Ok(RibesParts {
            nkt: 1.0,
            precision: 1.0 / hyp.len() as f64,
            bp,
        });
    }
    if n < 2 {
        return Ok(RibesParts {
            nkt: 0.0,
            precision: 0.0,
            bp,
        });
    }
    let mut ascending = 0u64;
    for i in 0..n - 1 {
        ascending += a[i + 1..].iter().filter(|&&x| a[i] < x).count() as u64;
    }
    let pairs = (n * (n - 1)) as f64 / 2.0;
    Ok(RibesParts {
        nkt: ascending as f64 / pairs,
        precision: n as f64 / hyp.len() as f64,
        bp,
    })
}

/// Sentence RIBES with the default α = 0.25, β = 0.10 on word sequences.
pub fn sentence_ribes<S: AsRef<str> + PartialEq>(
    reference: &[S],
    hyp: &[S],
) -> Result<f64, EvalError> {
    Ok(sentence_parts(reference, hyp)?.score(ALPHA, BETA))
}

/// RIBES "sufficient statistics" of one raw line pair, tokenized with [`words`]
/// (lowercased): its sentence score, to be averaged ([`MeanStats`]: corpus RIBES is the
/// mean of sentence scores, 0 for no sentences).
pub fn stats(hyp: &str, reference: &str) -> Result<MeanStats, EvalError> {
    Ok(MeanStats::one(sentence_ribes(
        &words(reference, false),
        &words(hyp, false),
    )?))
}

/// Per-line RIBES statistics of parallel raw corpora (lowercased, whitespace-tokenized).
pub fn line_stats<H: AsRef<str>, R: AsRef<str>>(
    hyps: &[H],
    refs: &[R],
) -> Result<Vec<MeanStats>, EvalError> {
    crate::per_line(hyps, refs, stats)?.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SufficientStats;

    fn w(s: &str) -> Vec<&str> {
        s.split(' ').collect()
    }

    #[test]
    fn identical_monotone_is_one() {
        let r = w("the cat sat on the mat");
        assert_eq!(sentence_ribes(&r, &r).unwrap(), 1.0);
    }

    #[test]
    fn fully_reversed_is_zero() {
        // a = [5,4,3,2,1,0]: no ascending pair of 15 → NKT = 0, P = 1, BP = 1 → 0.
        let r = w("a b c d e f");
        let h = w("f e d c b a");
        let p = sentence_parts(&r, &h).unwrap();
        assert_eq!(align(&r, &h), vec![5, 4, 3, 2, 1, 0]);
        assert_eq!((p.nkt, p.precision, p.bp), (0.0, 1.0, 1.0));
        assert_eq!(sentence_ribes(&r, &h).unwrap(), 0.0);
    }

    #[test]
    fn reversed_with_repeats_uses_context() {
        // ref  "the cat saw the dog": hyp = reversed "dog the saw cat the".
        // dog→4, saw→2, cat→1 (unique). hyp[1]="the" (twice in both): window 1 left
        // "dog the" occurs once in hyp, once in ref? ref bigrams: "the cat","cat saw",
        // "saw the","the dog" → no; right "the saw": no; window 2 left: "dog the saw"?
        // i=1 so only window 1 on the left; right "the saw cat": no; window 3 right
        // "the saw cat the": no → unaligned. hyp[4]="the": left "cat the" no, "saw cat the"
        // no, "the saw cat the" no, "dog the saw cat the" no → unaligned.
        // a = [4, 2, 1]: 0 ascending of 3 → NKT 0 → RIBES 0.
        let r = w("the cat saw the dog");
        let h = w("dog the saw cat the");
        assert_eq!(align(&r, &h), vec![4, 2, 1]);
        assert_eq!(sentence_ribes(&r, &h).unwrap(), 0.0);
    }

    #[test]
    fn block_swap_and_short_hypothesis_hand_values() {
        // a = [3,4,5,0,1,2]: ascending pairs = 3 (within first block) + 3 (second) = 6
        // of 15 → NKT = 0.4; P = 1, BP = 1 → 0.4.
        let r = w("a b c d e f");
        assert!((sentence_ribes(&r, &w("d e f a b c")).unwrap() - 0.4).abs() < 1e-15);
        // hyp "a b x d" (x unaligned): a = [0,1,3], NKT = 3/3 = 1, P = 3/4,
        // BP = exp(1 - 6/4) = exp(-0.5): RIBES = 0.75^0.25 · exp(-0.05)
        //      = 0.9306048591020996 · 0.951229424500714 = 0.8852181...
        let got = sentence_ribes(&r, &w("a b x d")).unwrap();
        let expected = 0.75f64.powf(0.25) * (-0.05f64).exp();
        assert!((got - expected).abs() < 1e-15);
        assert!((got - 0.885_218).abs() < 1e-6);
    }

    #[test]
    fn left_context_preferred_then_right() {
        // ref "x a y a", hyp "x a y a": every "a" is ambiguous; for i=1 the left bigram
        // "x a" is unique in both → position 0 + 1 = 1; for i=3 left "y a" → 2 + 1 = 3.
        let r = w("x a y a");
        assert_eq!(align(&r, &r), vec![0, 1, 2, 3]);
        // i=0 "a" ambiguous with no left context: right "a x" unique → ref pos of "a x" = 2.
        let r = w("b a a x");
        let h = w("a x b a");
        assert_eq!(align(&r, &h), vec![2, 3, 0, 1]);
    }

    #[test]
    fn special_cases_follow_ribes_py() {
        assert_eq!(sentence_ribes(&w("a b"), &Vec::<&str>::new()).unwrap(), 0.0);
        assert_eq!(
            sentence_ribes(&Vec::<&str>::new(), &w("a")),
            Err(EvalError::EmptyReference)
        );
        // one aligned word, one-word reference: NKT 1, P = 1/2, BP = 1 → 0.5^0.25
        let s = sentence_ribes(&w("a"), &w("a b")).unwrap();
        assert!((s - 0.5f64.powf(0.25)).abs() < 1e-15);
        // empty lines become [""]: two empty lines score 1, an empty hypothesis 0
        assert_eq!(stats("", " ").unwrap().sum, 1.0);
        assert_eq!(stats("", "a b").unwrap().sum, 0.0);
    }

    #[test]
    fn corpus_is_mean_and_lowercases() {
        let st = line_stats(
            &["The Cat sat", "f e d c b a"],
            &["the cat sat", "a b c d e f"],
        )
        .unwrap();
        let total = crate::sum_all(&st);
        assert_eq!(total.count, 2);
        assert_eq!(total.score(&()), 0.5);
    }
}
