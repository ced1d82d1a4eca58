//! The judgement rule: when a system's output renders a source word as the reference does,
//! and when a locus (the two words of a long-distance relation) is rendered.
//!
//! Both sides are aligned to the source words with the sets' aligner, symmetrised by
//! grow-diag-final-and ([`ALIGNMENT`]): the reference (the corpus target) and each output.
//! For a source word *w*:
//!
//! - **no reference**: the reference has no token linked to *w* — nothing to compare with;
//! - **unaligned**: the output has no token linked to *w* — the aligner found no rendering,
//!   which raters almost never call an error (a third of all words with the intersection
//!   alignment); not judged, counted apart;
//! - otherwise two numbers are computed: the **word chrF**, chrF (sacreBLEU's defaults)
//!   of the output's span from its first to its last token linked to *w* against the same
//!   span of the reference, and the **sentence chrF** of the output line against the
//!   reference line (both 0–1). The word is **incorrect** when the logistic combination
//!   `p = σ(INTERCEPT + WORD·word_chrf + SENTENCE·sentence_chrf)` exceeds
//!   [`WORD_THRESHOLD`], else **correct**; `p` is the rule's estimate that a rater marks an
//!   error there.
//!
//! A **locus** is judged on its words that are judged: `p = 1 − Π (1 − p_word)`, incorrect
//! above [`LOCUS_THRESHOLD`]. A locus with no judged word is *unaligned* when the reference
//! has a token for one of its words, else *no reference*. For a locus of two words (a
//! reordering locus's crossing links, a lexical pair) the output's **order** of the two
//! is also recorded — whether it keeps the reference's relative order — apart from the
//! judgement (on the tuning talks it added false alarms: docs/evaluation.md).
//!
//! The constants were fitted once, by logistic regression and the threshold of highest
//! MCC with at most 2.5 times the raters' error rate judged incorrect (loci: 2 times),
//! on **TED talks 1 and 4 of the WMT21 English→German MQM annotations** (13 systems,
//! every aligned content word: 20,067 words; 70 loci), and are never refitted on the
//! data they are reported on: `make validate-mqm` reports them on talks 3, 5 and 6
//! (`benches/locus_fit.py` refits them from `ldd-sets mqm --items`).

use ldd_eval::chrf::ChrfScoring;
use ldd_eval::{ChrfStats, SufficientStats};

use crate::align::Direction;
use crate::format::judged::Judgement;

/// The symmetrisation both sides are aligned with: denser than the intersection, so
/// fewer words are left without a rendering.
pub const ALIGNMENT: Direction = Direction::GrowDiagFinalAnd;

/// Intercept of the logistic combination.
pub const INTERCEPT: f64 = -0.52672;
/// Weight of the word chrF.
pub const WORD: f64 = -0.66925;
/// Weight of the sentence chrF.
pub const SENTENCE: f64 = -1.54476;
/// A word is incorrect when its `p` exceeds this.
pub const WORD_THRESHOLD: f64 = 0.14141;
/// A locus is incorrect when its `p` exceeds this.
pub const LOCUS_THRESHOLD: f64 = 0.24507;

/// The rule as the signature names it (`locus:2`: the second rule; the first matched
/// surface forms on the intersection alignment).
pub const NAME: &str = "word-chrf+sentence-chrf";

/// The data the constants were fitted on, as the signature names it.
pub const FIT: &str = "wmt21-ted-ende-mqm-talks-1-4";

/// A line as the aligner tokenized it, and its links to the source words.
#[derive(Debug, Clone, Default)]
pub struct Side {
    /// Tokens.
    pub tokens: Vec<String>,
    /// Links: (0-based source word, 0-based token), sorted.
    pub links: Vec<(usize, usize)>,
    /// Lowercased lemmas of the tokens, when a tagger gave them (`--lemma-model`).
    pub lemmas: Option<Vec<String>>,
}

impl Side {
    /// Tokens (0-based positions, ascending) linked to source word `w` (0-based).
    pub fn linked(&self, w: usize) -> Vec<usize> {
        let mut v: Vec<usize> = self
            .links
            .iter()
            .filter(|l| l.0 == w)
            .map(|l| l.1)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The tokens from the first to the last of `positions` (ascending), joined by spaces.
    fn span(&self, positions: &[usize]) -> String {
        match (positions.first(), positions.last()) {
            (Some(&a), Some(&b)) => self.tokens[a..=b.min(self.tokens.len() - 1)].join(" "),
            _ => String::new(),
        }
    }
}

/// chrF (sacreBLEU's defaults) of `hyp` against `reference`, 0–1.
pub fn chrf(hyp: &str, reference: &str) -> f64 {
    ChrfStats::from_pair(hyp, reference).score(&ChrfScoring::default()) / 100.0
}

/// The sentence chrF of an output line against its reference line (chrF removes
/// whitespace, so the tokens joined by spaces give the raw lines' chrF).
pub fn sentence_chrf(output: &Side, reference: &Side) -> f64 {
    chrf(&output.tokens.join(" "), &reference.tokens.join(" "))
}

/// The rule's estimate that a rater marks an error at a word: the logistic combination.
pub fn p_error(word_chrf: f64, sentence_chrf: f64) -> f64 {
    let z = INTERCEPT + WORD * word_chrf + SENTENCE * sentence_chrf;
    1.0 / (1.0 + (-z).exp())
}

/// One source word as an output renders it.
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    /// The outcome.
    pub judgement: Judgement,
    /// Reference tokens linked to the word (0-based positions).
    pub reference: Vec<usize>,
    /// Output tokens linked to the word (0-based positions).
    pub output: Vec<usize>,
    /// The word chrF (0–1), when judged.
    pub chrf: Option<f64>,
    /// `p` (the estimate that a rater marks an error there), when judged.
    pub p_error: Option<f64>,
}

/// Judges source word `w` (0-based) of a line: `reference` and `output` aligned to the
/// line's source words, `sentence` their sentence chrF ([`sentence_chrf`]).
pub fn word(reference: &Side, output: &Side, w: usize, sentence: f64) -> Word {
    let (r, h) = (reference.linked(w), output.linked(w));
    let mut out = Word {
        judgement: Judgement::NoReference,
        reference: r,
        output: h,
        chrf: None,
        p_error: None,
    };
    if out.reference.is_empty() {
        return out;
    }
    if out.output.is_empty() {
        out.judgement = Judgement::Unaligned;
        return out;
    }
    let mut c = chrf(&output.span(&out.output), &reference.span(&out.reference));
    // With lemmas, an output token with a reference token's lemma renders it exactly.
    if let (Some(hl), Some(rl)) = (&output.lemmas, &reference.lemmas) {
        fn lemma(l: &[String], i: usize) -> Option<&String> {
            l.get(i).filter(|x| !x.is_empty() && *x != "_")
        }
        let same = out.output.iter().any(|&i| {
            out.reference
                .iter()
                .any(|&j| lemma(hl, i).is_some_and(|a| lemma(rl, j) == Some(a)))
        });
        if same {
            c = 1.0;
        }
    }
    let p = p_error(c, sentence);
    out.chrf = Some(c);
    out.p_error = Some(p);
    out.judgement = if p > WORD_THRESHOLD {
        Judgement::Incorrect
    } else {
        Judgement::Correct
    };
    out
}

/// The judgement of a locus from its words' (`words`: the dependent, then the head if
/// any), and its `p` when judged.
pub fn locus(words: &[&Word]) -> (Judgement, Option<f64>) {
    let judged: Vec<f64> = words.iter().filter_map(|w| w.p_error).collect();
    if judged.is_empty() {
        let unaligned = words.iter().any(|w| w.judgement == Judgement::Unaligned);
        let j = if unaligned {
            Judgement::Unaligned
        } else {
            Judgement::NoReference
        };
        return (j, None);
    }
    let p = 1.0 - judged.iter().map(|p| 1.0 - p).product::<f64>();
    let j = if p > LOCUS_THRESHOLD {
        Judgement::Incorrect
    } else {
        Judgement::Correct
    };
    (j, Some(p))
}

/// Whether the output keeps the reference's relative order of two words (`None`: a side
/// has no token for one of them): the mean positions of their linked tokens compared.
pub fn order_kept(a: &Word, b: &Word) -> Option<bool> {
    let mean = |v: &[usize]| -> Option<f64> {
        (!v.is_empty()).then(|| v.iter().sum::<usize>() as f64 / v.len() as f64)
    };
    let r = mean(&a.reference)?.partial_cmp(&mean(&b.reference)?)?;
    let h = mean(&a.output)?.partial_cmp(&mean(&b.output)?)?;
    Some(r == h)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(tokens: &str, links: &[(usize, usize)]) -> Side {
        Side {
            tokens: tokens.split(' ').map(String::from).collect(),
            links: links.to_vec(),
            lemmas: None,
        }
    }

    #[test]
    fn outcomes_by_hand() {
        // Source: "He looked it up" (0 He, 1 looked, 2 it, 3 up).
        let reference = side("Er schlug es nach", &[(0, 0), (1, 1), (2, 2), (3, 3)]);
        let same = side("Er schlug es nach", &[(0, 0), (1, 1), (2, 2), (3, 3)]);
        let s = sentence_chrf(&same, &reference);
        assert_eq!(s, 1.0);
        let w = word(&reference, &same, 3, s);
        assert_eq!(w.judgement, Judgement::Correct);
        assert_eq!(w.chrf, Some(1.0));
        // p = σ(−0.52672 − 0.66925 − 1.54476) = σ(−2.74073)
        let p = 1.0 / (1.0 + 2.74073f64.exp());
        assert!((w.p_error.unwrap() - p).abs() < 1e-12);
        // No output token for "up": unaligned, not judged.
        let dropped = side("Er schlug es", &[(0, 0), (1, 1), (2, 2)]);
        let s = sentence_chrf(&dropped, &reference);
        assert_eq!(
            word(&reference, &dropped, 3, s).judgement,
            Judgement::Unaligned
        );
        // No reference token for "it": no reference.
        let r2 = side("Er schlug nach", &[(0, 0), (1, 1), (3, 2)]);
        assert_eq!(word(&r2, &same, 2, s).judgement, Judgement::NoReference);
        // Another word, in a poor sentence: incorrect (p > 0.14141).
        let other = side("Sie sah das zu", &[(0, 0), (1, 1), (2, 2), (3, 3)]);
        let s = sentence_chrf(&other, &reference);
        let w = word(&reference, &other, 3, s);
        assert_eq!(w.chrf, Some(0.0));
        assert!(w.p_error.unwrap() > WORD_THRESHOLD);
        assert_eq!(w.judgement, Judgement::Incorrect);
    }

    #[test]
    fn span_covers_first_to_last_linked_token() {
        let s = side("a b c d", &[(0, 1), (0, 3)]);
        assert_eq!(s.linked(0), vec![1, 3]);
        assert_eq!(s.span(&s.linked(0)), "b c d");
    }

    #[test]
    fn locus_combines_its_judged_words() {
        let w = |p: Option<f64>, j: Judgement| Word {
            judgement: j,
            reference: vec![0],
            output: vec![0],
            chrf: p.map(|_| 0.5),
            p_error: p,
        };
        let (a, b) = (
            w(Some(0.1), Judgement::Correct),
            w(Some(0.2), Judgement::Incorrect),
        );
        // 1 − 0.9 · 0.8 = 0.28 > 0.24507.
        let (j, p) = locus(&[&a, &b]);
        assert_eq!(j, Judgement::Incorrect);
        assert!((p.unwrap() - 0.28).abs() < 1e-12);
        let c = w(Some(0.12), Judgement::Correct);
        // 1 − 0.9 · 0.88 = 0.208.
        assert_eq!(locus(&[&a, &c]).0, Judgement::Correct);
        let u = w(None, Judgement::Unaligned);
        let n = w(None, Judgement::NoReference);
        assert_eq!(locus(&[&u, &n]), (Judgement::Unaligned, None));
        assert_eq!(locus(&[&n]), (Judgement::NoReference, None));
        // One judged word decides alone.
        assert_eq!(locus(&[&u, &a]).0, Judgement::Correct);
    }

    #[test]
    fn order_of_two_words() {
        let w = |r: Vec<usize>, h: Vec<usize>| Word {
            judgement: Judgement::Correct,
            reference: r,
            output: h,
            chrf: Some(1.0),
            p_error: Some(0.1),
        };
        assert_eq!(
            order_kept(&w(vec![1], vec![4]), &w(vec![5], vec![7])),
            Some(true)
        );
        assert_eq!(
            order_kept(&w(vec![1], vec![8]), &w(vec![5], vec![7])),
            Some(false)
        );
        assert_eq!(order_kept(&w(vec![], vec![8]), &w(vec![5], vec![7])), None);
    }
}
