//! Words judged one by one with the locus rule ([`super::rule::word`]): every word of a
//! line, and the **baseline** of a set — its loci's words against comparable words,
//! the other words of the same sentences with the same part of speech, so that "62% of
//! particles rendered at d ≥ 5" comes with "against 81% of the other adpositions of the
//! same sentences", the difference tested.

use std::collections::{BTreeMap, BTreeSet};

use super::rule::{self, Side};
use super::{Context, Sides};
use crate::format::judged::Judgement;
use crate::format::locus::Locus;

/// The universal parts of speech of content words: what word-level agreement is measured
/// on.
pub use super::rule::CONTENT;

/// The universal part of speech of each word of the lines judged, by 1-based line id.
pub type Upos = BTreeMap<u32, Vec<String>>;

/// Word outcomes counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Judged correct.
    pub correct: u64,
    /// Judged incorrect.
    pub incorrect: u64,
    /// Rendered by other words (not judged).
    pub differs: u64,
    /// No output token (not judged).
    pub unaligned: u64,
    /// No reference token (not judged).
    pub no_reference: u64,
}

impl Counts {
    /// Counts one outcome.
    pub fn add(&mut self, judgement: Judgement) {
        match judgement {
            Judgement::Correct => self.correct += 1,
            Judgement::Incorrect => self.incorrect += 1,
            Judgement::Differs | Judgement::Partial => self.differs += 1,
            Judgement::Unaligned => self.unaligned += 1,
            Judgement::NoReference => self.no_reference += 1,
        }
    }

    /// Adds `other`'s counts.
    pub fn merge(&mut self, other: &Counts) {
        self.correct += other.correct;
        self.incorrect += other.incorrect;
        self.differs += other.differs;
        self.unaligned += other.unaligned;
        self.no_reference += other.no_reference;
    }

    /// Words judged.
    pub fn judged(&self) -> u64 {
        self.correct + self.incorrect
    }
}

/// Every word of one line (`line.upos` the part of speech of each, `keep` choosing the
/// words by it) judged on `output` against `reference`: (0-based word, its judgement).
pub fn judge_line(
    line: &rule::Line<'_>,
    reference: &Side,
    output: &Side,
    keep: impl Fn(usize, &str) -> bool,
) -> Vec<(usize, rule::Word)> {
    line.upos
        .iter()
        .enumerate()
        .filter(|(w, p)| keep(*w, p))
        .map(|(w, _)| (w, rule::word(line, reference, output, w)))
        .collect()
}

/// A set's loci's words against comparable words, on one system's output.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Baseline {
    /// The loci's words (each word of a line once).
    pub locus: Counts,
    /// The other words of the same lines whose part of speech is a locus word's of that
    /// line.
    pub comparable: Counts,
}

/// The baseline of a set (its `loci`) on one output: `cx` holds the words and parts of
/// speech of the set's lines, `reference` and `output` their sides.
pub fn baseline(loci: &[Locus], cx: &Context<'_>, reference: &Sides, output: &Sides) -> Baseline {
    let mut by_line: BTreeMap<u32, BTreeSet<usize>> = BTreeMap::new();
    for l in loci {
        let e = by_line.entry(l.id as u32).or_default();
        e.insert(l.dep.id as usize - 1);
        if let Some(h) = &l.head {
            e.insert(h.id as usize - 1);
        }
    }
    let mut b = Baseline::default();
    for (id, at) in &by_line {
        let (Some(tags), Some(r), Some(h)) = (cx.upos.get(id), reference.get(id), output.get(id))
        else {
            continue;
        };
        let kinds: BTreeSet<&str> = at
            .iter()
            .filter_map(|&w| tags.get(w).map(String::as_str))
            .collect();
        let line = cx.line(*id);
        let judged = judge_line(&line, r, h, |w, p| at.contains(&w) || kinds.contains(p));
        for (w, x) in judged {
            if at.contains(&w) {
                b.locus.add(x.judgement);
            } else {
                b.comparable.add(x.judgement);
            }
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::locus::Word;

    #[test]
    fn locus_words_against_the_same_part_of_speech() {
        // "He looked up and ran out": 0 He PRON, 1 looked VERB, 2 up ADP, 3 and CCONJ,
        // 4 ran VERB, 5 out ADP; the locus is (up, looked).
        let tags: Vec<String> = ["PRON", "VERB", "ADP", "CCONJ", "VERB", "ADP"]
            .map(String::from)
            .to_vec();
        let side = |t: &str| Side {
            tokens: t.split(' ').map(String::from).collect(),
            links: (0..6).map(|i| (i, i)).collect(),
            posteriors: None,
            analyses: None,
        };
        let reference: Sides = [(1, side("Er sah auf und lief hinaus"))].into();
        let output: Sides = [(1, side("Er sah auf und lief hinaus"))].into();
        let upos: Upos = [(1, tags)].into();
        let words: super::super::SourceWords = [(
            1,
            "He looked up and ran out"
                .split(' ')
                .map(String::from)
                .collect(),
        )]
        .into();
        let none = |_: &str, _: &str| rule::Lexical::default();
        let relations = crate::locus::relation::Relations::default();
        let cx = Context {
            words: &words,
            upos: &upos,
            lexicon: &none,
            target: "de",
            relations: &relations,
        };
        let locus = Locus {
            id: 1,
            number: 1,
            distance: 0,
            dep: Word {
                id: 3,
                form: "up".into(),
            },
            head: Some(Word {
                id: 2,
                form: "looked".into(),
            }),
            ref_dep: vec![],
            ref_head: vec![],
        };
        let b = baseline(&[locus], &cx, &reference, &output);
        // Locus words: looked, up; comparable: ran (VERB), out (ADP); not He, and.
        assert_eq!(b.locus.correct, 2);
        assert_eq!(b.comparable.correct, 2);
        assert_eq!(b.locus.judged() + b.comparable.judged(), 4);
    }
}
