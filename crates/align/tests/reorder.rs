//! Reordering measures on hand-made alignments with values worked out by hand, the
//! released code's criterion, and link-level precision/recall.

use ldd_align::{
    is_alpha_token, paper_position, permutation, precision_recall_f1, Crossing, Link, Ratio,
    ReorderHit, Reordering,
};

fn words(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("w{i}")).collect()
}

/// Measures of `links` between `n` and `m` word tokens.
fn measure(n: usize, m: usize, links: &[Link]) -> Reordering {
    let (s, t) = (words(n), words(m));
    let s: Vec<&str> = s.iter().map(String::as_str).collect();
    let t: Vec<&str> = t.iter().map(String::as_str).collect();
    Reordering::measure(&s, &t, links)
}

fn ratio(num: u64, den: u64) -> Option<Ratio> {
    Some(Ratio { num, den })
}

#[test]
fn offset_only_monotone_pair_has_crossing_zero_and_position_above_zero() {
    // The target has three more words before the sentence's first aligned word (an
    // earlier clause three words longer): every link is shifted by 3, nothing reorders.
    let links: Vec<Link> = (0..10).map(|i| (i, i + 3)).collect();
    let r = measure(10, 13, &links);
    assert_eq!(
        r.position,
        Some(ReorderHit {
            distance: 3,
            src_index: 0,
            tgt_index: 3
        })
    );
    assert_eq!(
        r.crossing,
        Some(Crossing {
            distance: 0,
            links: None
        })
    );
    assert_eq!(r.kendall, ratio(0, 45));
    assert_eq!(r.fuzzy, ratio(0, 9));
    assert_eq!((r.word_links, r.aligned), (10, 10));
}

#[test]
fn two_words_swapped_across_seven_positions_have_crossing_seven() {
    // 9 words, identity except words 0 and 7, which trade places: 0→7 and 7→0.
    let mut links: Vec<Link> = (0..9).map(|i| (i, i)).collect();
    links[0] = (0, 7);
    links[7] = (7, 0);
    let r = measure(9, 9, &links);
    // The swapped pair: i2 − i1 = 7 and j1 − j2 = 7. Every other crossing involves a
    // word between them and one of the two, at most 6 apart on one side.
    assert_eq!(
        r.crossing,
        Some(Crossing {
            distance: 7,
            links: Some(((0, 7), (7, 0)))
        })
    );
    assert_eq!(r.position.map(|h| h.distance), Some(7));
    // Permutation [7,1,2,3,4,5,6,0,8]: 7 > 1..6 and 0 (7 pairs), 1..6 > 0 (6 pairs): 13 of
    // 36 pairs; chunks [7] [1..6] [0] [8] → C = 4, fuzzy = 3/8.
    assert_eq!(r.kendall, ratio(13, 36));
    assert_eq!(r.fuzzy, ratio(3, 8));

    // One word more between them: crossing 8.
    let mut links: Vec<Link> = (0..10).map(|i| (i, i)).collect();
    links[0] = (0, 8);
    links[8] = (8, 0);
    assert_eq!(measure(10, 10, &links).crossing.unwrap().distance, 8);
    // A crossing counts the shorter side: words 6 apart in the source, 2 in the target.
    let r = measure(8, 8, &[(0, 3), (6, 1)]);
    assert_eq!(r.crossing.unwrap().distance, 2);
    assert_eq!(r.position.unwrap().distance, 5);
}

#[test]
fn kendall_and_fuzzy_on_small_known_permutations() {
    // [2, 0, 1]: discordant (2,0), (2,1) → 2 of 3; chunks [2] [0 1] → C = 2 → 1/2.
    let r = measure(3, 3, &[(0, 2), (1, 0), (2, 1)]);
    assert_eq!(permutation(&[(0, 2), (1, 0), (2, 1)]), [2, 0, 1]);
    assert_eq!((r.kendall, r.fuzzy), (ratio(2, 3), ratio(1, 2)));
    // Fully inverted [3, 2, 1, 0]: every pair discordant, every word its own chunk.
    let r = measure(4, 4, &[(0, 3), (1, 2), (2, 1), (3, 0)]);
    assert_eq!((r.kendall, r.fuzzy), (ratio(6, 6), ratio(3, 3)));
    // The outermost pair crosses across 3 positions on both sides.
    assert_eq!(
        r.crossing,
        Some(Crossing {
            distance: 3,
            links: Some(((0, 3), (3, 0)))
        })
    );
    // [1, 0, 3, 2]: two local swaps: 2 of 6 discordant; 4 chunks → 3/3.
    let r = measure(4, 4, &[(0, 1), (1, 0), (2, 3), (3, 2)]);
    assert_eq!((r.kendall, r.fuzzy), (ratio(2, 6), ratio(3, 3)));
    // Two blocks swapped, [2, 3, 0, 1]: 4 of 6 discordant, 2 chunks → 1/3 (Talbot et
    // al.'s score 2/3: the blocks move, their insides stay together).
    let r = measure(4, 4, &[(0, 2), (1, 3), (2, 0), (3, 1)]);
    assert_eq!((r.kendall, r.fuzzy), (ratio(4, 6), ratio(1, 3)));
    assert_eq!(r.crossing.unwrap().distance, 2);
}

#[test]
fn unaligned_and_many_to_many_links_in_the_permutation() {
    // Source word 1 unaligned: it takes no place; [1, 0] → 1 of 1, fuzzy 1.
    let r = measure(3, 3, &[(0, 2), (2, 0)]);
    assert_eq!(r.aligned, 2);
    assert_eq!((r.kendall, r.fuzzy), (ratio(1, 1), ratio(1, 1)));
    // Many-to-one (0 and 1 both to target 0): a tie keeps source order, no discordance.
    let r = measure(3, 2, &[(0, 0), (1, 0), (2, 1)]);
    assert_eq!((r.kendall, r.fuzzy), (ratio(0, 3), ratio(0, 2)));
    assert_eq!(r.crossing.unwrap().distance, 0);
    // One-to-many: source 0 is placed at its smallest target (0), so the permutation is
    // monotone, but its link to target 3 crosses (1,1) and (2,2): crossing sees it.
    let r = measure(3, 4, &[(0, 0), (0, 3), (1, 1), (2, 2)]);
    assert_eq!(r.kendall, ratio(0, 3));
    assert_eq!(
        r.crossing,
        Some(Crossing {
            distance: 1,
            links: Some(((0, 3), (1, 1)))
        })
    );
    // A single aligned word: defined, 0.
    let r = measure(3, 3, &[(1, 2)]);
    assert_eq!((r.kendall, r.fuzzy), (ratio(0, 1), ratio(0, 1)));
}

#[test]
fn punctuation_numbers_and_links_outside_are_not_word_links() {
    let src = [",", "42", "Wort", "x"];
    let tgt = ["word", "3.5", "!", "y"];
    // (0,3): punctuation source; (1,0): number source; (2,2): punctuation target;
    // (3,9): outside the sentence. Only (2,0) and (3,3) count, listed twice here.
    let links = [(0, 3), (1, 0), (2, 2), (3, 9), (2, 0), (3, 3), (2, 0)];
    let r = Reordering::measure(&src, &tgt, &links);
    assert_eq!(r.word_links, 2);
    assert_eq!(
        r.position,
        Some(ReorderHit {
            distance: 2,
            src_index: 2,
            tgt_index: 0
        })
    );
    assert_eq!(r.crossing.unwrap().distance, 0);
    // No word link at all: every measure undefined.
    let r = Reordering::measure(&src, &tgt, &[(0, 2), (1, 1)]);
    assert_eq!(
        (r.position, r.crossing, r.kendall, r.fuzzy),
        (None, None, None, None)
    );
    assert_eq!(Reordering::measure(&src, &tgt, &[]).word_links, 0);
}

#[test]
fn ratios_compare_with_percent_thresholds_exactly() {
    let third = Ratio { num: 1, den: 3 };
    assert!(third.at_least_percent(33) && !third.at_least_percent(34));
    let tenth = Ratio { num: 1, den: 10 };
    assert!(tenth.at_least_percent(10) && !tenth.at_least_percent(11));
    assert!(Ratio { num: 0, den: 1 }.at_least_percent(0));
}

#[test]
fn paper_position_follows_the_released_code() {
    let src = ["Er", "hat", "das", "EU-Budget", "gestern", "gelesen"];
    let tgt = ["He", "read", "the", "EU", "budget", "yesterday"];
    // Source word 1 has two links, (1,1) then (1,5): as in a Python dict the last wins,
    // so its distance is 4. Word 5 (gelesen) links to target 1: distance 4 too, but later
    // in dict order. The alphabetic test is on whole tokens: `EU-Budget` (3→4, distance
    // 1) has a hyphen and does not count.
    let links = [(0, 0), (1, 1), (1, 5), (2, 2), (3, 4), (5, 1)];
    assert_eq!(
        paper_position(&src, &tgt, &links),
        Some(ReorderHit {
            distance: 4,
            src_index: 1,
            tgt_index: 5
        })
    );
    // The normal measure keeps every link: (5,1) and (1,5) both at 4; (1,5) first in
    // sorted order.
    let r = Reordering::measure(&src, &tgt, &links);
    assert_eq!(r.position.map(|h| (h.src_index, h.tgt_index)), Some((1, 5)));
    // Unaligned word 4 (gestern) is linked to its own position: distance 0, no effect;
    // with only it and a non-alphabetic link the maximum is 0.
    assert_eq!(
        paper_position(&src, &tgt, &[(3, 4)]),
        Some(ReorderHit {
            distance: 0,
            src_index: 0,
            tgt_index: 0
        })
    );
    assert!(!is_alpha_token("EU-Budget") && !is_alpha_token("42") && !is_alpha_token(""));
    assert!(is_alpha_token("Größe"));
    // Links outside the sentences are ignored; no source token: nothing qualifies.
    assert_eq!(paper_position(&[], &tgt, &[(0, 0)]), None);
}

#[test]
fn precision_recall_f1_counts() {
    let reference = vec![vec![(0, 0), (1, 1)], vec![(0, 1)]];
    let hyp = vec![vec![(0, 0), (1, 2), (1, 2)], vec![(0, 1)]];
    let p = precision_recall_f1(&reference, &hyp).unwrap();
    assert_eq!((p.matched, p.hyp_links, p.ref_links), (2, 3, 3));
    assert!((p.precision - 2.0 / 3.0).abs() < 1e-12);
    assert!((p.recall - 2.0 / 3.0).abs() < 1e-12);
    assert!((p.f1 - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(precision_recall_f1(&reference, &reference).unwrap().f1, 1.0);
    assert!(precision_recall_f1(&reference, &hyp[..1]).is_err());
}
