//! Reordering detection and alignment metrics.

use ldd_align::{max_reorder, precision_recall_f1, ReorderHit};

#[test]
fn monotone_pair_has_distance_zero() {
    let src = ["das", "Haus", "ist", "klein", "."];
    let tgt = ["the", "house", "is", "small", "."];
    let links = [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)];
    assert_eq!(
        max_reorder(&src, &tgt, &links),
        Some(ReorderHit {
            distance: 0,
            src_index: 0,
            tgt_index: 0
        })
    );
}

#[test]
fn reversed_pair_is_found() {
    let src = ["a", "b", "c", "d", "e"];
    let tgt = ["E", "D", "C", "B", "A"];
    let links: Vec<_> = (0..5).map(|i| (i, 4 - i)).collect();
    // Distances 4, 2, 0, 2, 4: the first maximal link in sorted order is (0, 4).
    assert_eq!(
        max_reorder(&src, &tgt, &links),
        Some(ReorderHit {
            distance: 4,
            src_index: 0,
            tgt_index: 4
        })
    );
    // Link order given does not matter.
    let mut shuffled = links.clone();
    shuffled.reverse();
    assert_eq!(
        max_reorder(&src, &tgt, &shuffled),
        max_reorder(&src, &tgt, &links)
    );
}

#[test]
fn punctuation_numbers_and_bad_links_ignored() {
    let src = [",", "42", "Wort", "x"];
    let tgt = ["word", "3.5", "!", "y"];
    // (0,3): punctuation source; (1,0): number source; (2,2): punctuation target;
    // (3,9): outside the sentence. Only (2,0) and (3,3) count.
    let links = [(0, 3), (1, 0), (2, 2), (3, 9), (2, 0), (3, 3)];
    assert_eq!(
        max_reorder(&src, &tgt, &links),
        Some(ReorderHit {
            distance: 2,
            src_index: 2,
            tgt_index: 0
        })
    );
    assert_eq!(max_reorder(&src, &tgt, &[(0, 2)]), None);
    assert_eq!(max_reorder(&src, &tgt, &[]), None);
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
