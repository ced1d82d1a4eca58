//! The word-level rule on hand-made sides: evidence, occurrences, variants and order.

use super::*;

fn side(tokens: &str, links: &[(usize, usize)]) -> Side {
    Side::by_hand(tokens, links)
}

/// "He looked it up": 0 He PRON, 1 looked VERB, 2 it PRON, 3 up ADP; the lexicon knows
/// that `sah` is a likely translation of `looked` (0.8 both ways), nothing else.
fn judge(reference: &Side, output: &Side, w: usize) -> Word {
    judge_as(reference, output, w, "ADP")
}

/// [`judge`] with `up` of part of speech `up` (ADP: a function word; ADV: a content
/// word).
fn judge_as(reference: &Side, output: &Side, w: usize, up: &str) -> Word {
    let source: Vec<String> = "He looked it up".split(' ').map(String::from).collect();
    let upos: Vec<String> = ["PRON", "VERB", "PRON", up].map(String::from).to_vec();
    let lexicon = |s: &str, t: &str| {
        let p = if (s, t) == ("looked", "sah") {
            0.8
        } else {
            0.01
        };
        Lexical {
            forward: Some(p),
            reverse: Some(p),
        }
    };
    let relations = crate::locus::relation::Relations::default();
    let line = Line {
        source: &source,
        upos: &upos,
        lexicon: &lexicon,
        target: "de",
        relations: &relations,
    };
    word_with(&line, reference, output, w, reference.linked(w))
}

const ALL: [(usize, usize); 4] = [(0, 0), (1, 1), (2, 2), (3, 3)];

#[test]
fn outcomes_by_hand() {
    let reference = side("Er schlug es nach", &ALL);
    let e = |o: &Side, w: usize| judge(&reference, o, w).evidence;
    // The same words where the aligner links them.
    let same = side("Er schlug es nach", &ALL);
    assert_eq!(e(&same, 3), Evidence::Same);
    assert_eq!(judge(&reference, &same, 3).judgement, Judgement::Correct);
    // The same word where the aligner does not link it: present for a content word; a
    // function word there is no evidence (unaligned).
    let unlinked = side("Er schlug es nach", &[(0, 0), (1, 1), (2, 2)]);
    assert_eq!(e(&unlinked, 3), Evidence::Unplaced);
    assert_eq!(
        judge(&reference, &unlinked, 3).judgement,
        Judgement::Unaligned
    );
    assert_eq!(
        judge_as(&reference, &unlinked, 3, "ADV").evidence,
        Evidence::Present
    );
    // The particle dropped: an omission, incorrect.
    let dropped = side("Er schlug es", &[(0, 0), (1, 1), (2, 2)]);
    assert_eq!(e(&dropped, 3), Evidence::Omitted);
    assert_eq!(
        judge(&reference, &dropped, 3).judgement,
        Judgement::Incorrect
    );
    // No reference token: not judged.
    let r2 = side("Er schlug nach", &[(0, 0), (1, 1), (3, 2)]);
    assert_eq!(judge(&r2, &same, 2).evidence, Evidence::NoReference);
    // Another particle (a function word: the same word or lemma only): it differs, not
    // judged; a likely translation of the verb (a content word): correct.
    let other = side("Er sah es zu", &ALL);
    assert_eq!(e(&other, 3), Evidence::Other(0.0));
    assert_eq!(judge(&reference, &other, 3).judgement, Judgement::Differs);
    assert!((e(&other, 1).judgement() == Judgement::Correct));
    assert!(matches!(e(&other, 1), Evidence::Translation(s) if (s - 0.8).abs() < 1e-12));
    // A morphological variant of the verb: correct.
    let plural = side("Er schlugen es nach", &ALL);
    assert_eq!(e(&plural, 1), Evidence::Variant);
    // Another verb: it differs (a synonym or an error), with its lexical score.
    let ran = side("Er lief es nach", &ALL);
    assert!(matches!(e(&ran, 1), Evidence::Other(s) if (s - 0.01).abs() < 1e-12));
    assert_eq!(judge(&reference, &ran, 1).judgement, Judgement::Differs);
    // The verb gone, its neighbours side by side: an omission; another word in its place
    // that the aligner does not link: not an omission, it differs.
    let gone = side("Er es nach", &[(0, 0), (2, 1), (3, 2)]);
    assert_eq!(e(&gone, 1), Evidence::Omitted);
    let unlinked_other = side("Er lief es nach", &[(0, 0), (2, 2), (3, 3)]);
    assert_eq!(e(&unlinked_other, 1), Evidence::Other(0.0));
    // A variant of the verb that the aligner places nowhere: the output has the word
    // but the aligner cannot place it — unaligned.
    let unplaced = side("Er es nach schlugen", &[(0, 0), (2, 1), (3, 2)]);
    assert_eq!(e(&unplaced, 1), Evidence::Unplaced);
    assert_eq!(
        judge(&reference, &unplaced, 1).judgement,
        Judgement::Unaligned
    );
}

#[test]
fn a_repeated_word_is_there_at_its_own_occurrence() {
    // The reference has `nach` twice; the locus word (3, taken as a content word: a
    // function word found elsewhere is no evidence) is linked to the second.
    let reference = side("nach Er schlug es nach", &[(0, 1), (1, 2), (2, 3), (3, 4)]);
    let e = |o: &str| judge_as(&reference, &side(o, &[]), 3, "ADV").evidence;
    // Both there: the second is the locus's.
    assert_eq!(e("nach Er schlug es nach"), Evidence::Present);
    // One left, where the first was (relative position 0.1 against 0.1 and 0.9): the
    // locus's is the one missing.
    assert_eq!(e("nach Er schlug es"), Evidence::Omitted);
    // ... unless the aligner links the locus word to it: the word is where the aligner
    // places the locus (a line whose other words are gone pairs occurrences badly).
    let linked = side("nach Er schlug es", &[(3, 0)]);
    assert_eq!(
        judge_as(&reference, &linked, 3, "ADV").evidence,
        Evidence::Same
    );
    // ... but not when that token is another source word's rendering by the same word
    // (here source word 2's, linked to the first `nach` in the reference too).
    let reference2 = side("nach Er schlug es nach", &[(2, 0), (0, 1), (1, 2), (3, 4)]);
    let theirs = side("nach Er schlug es", &[(2, 0), (3, 0)]);
    assert_eq!(
        judge_as(&reference2, &theirs, 3, "ADV").judgement,
        Judgement::Incorrect
    );
    // One left, at the end: the locus's.
    assert_eq!(e("Er schlug es nach"), Evidence::Present);
    assert_eq!(match_in_order(&[0.5], &[0.375, 0.875]), vec![0]);
    assert_eq!(match_in_order(&[0.8], &[0.375, 0.875]), vec![1]);
    assert_eq!(match_in_order(&[0.1, 0.9], &[0.1, 0.5, 0.9]), vec![0, 2]);
    // A tie keeps the earlier.
    assert_eq!(match_in_order(&[0.5], &[0.25, 0.75]), vec![0]);
}

#[test]
fn variants_share_a_stem_and_differ_by_endings() {
    for (a, b, lang, want) in [
        ("signed", "signing", "en", true),
        ("signed", "signs", "en", true),
        ("stop", "stopped", "en", true),
        ("signed", "singed", "en", false),
        ("signal", "signed", "en", false),
        ("up", "upon", "en", false),
        ("meldete", "melden", "de", true),
        ("gemeldet", "meldete", "de", true),
        ("kind", "kinder", "de", true),
        ("auf", "aus", "de", false),
        ("sich", "mich", "de", false),
        // Another language: any ending of at most two letters.
        ("domani", "domanis", "it", true),
        ("domani", "domanisti", "it", false),
    ] {
        assert_eq!(variant(a, b, lang), want, "{a} {b} {lang}");
    }
}

#[test]
fn the_lexical_score_is_the_geometric_mean_of_both_directions() {
    let l = |f, r| Lexical {
        forward: f,
        reverse: r,
    };
    assert!((l(Some(0.4), Some(0.1)).score() - 0.2).abs() < 1e-12);
    assert_eq!(l(Some(0.4), None).score(), 0.4);
    assert_eq!(l(None, None).score(), 0.0);
}

#[test]
fn order_of_two_words() {
    let w = |r: Vec<usize>, h: Vec<usize>| Word {
        judgement: Judgement::Correct,
        evidence: Evidence::Same,
        reference: r,
        output: h,
        found: vec![],
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
