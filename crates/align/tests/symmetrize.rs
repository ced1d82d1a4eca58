//! Symmetrisation, checked on hand-made grids and against atools' output on the reference.

mod common;

use ldd_align::{pharaoh, symmetrize, Method};

#[test]
fn intersection_and_union() {
    let f = [(0, 0), (1, 1), (2, 1)];
    let r = [(0, 0), (1, 1), (2, 2)];
    assert_eq!(
        symmetrize(&f, &r, 3, 3, Method::Intersection),
        vec![(0, 0), (1, 1)]
    );
    assert_eq!(
        symmetrize(&f, &r, 3, 3, Method::Union),
        vec![(0, 0), (1, 1), (2, 1), (2, 2)]
    );
}

#[test]
fn grow_diag_final_and_by_hand() {
    // Intersection {(0,0)}; (1,1) is a diagonal neighbour with both words unaligned -> grown;
    // (1,2) then neighbours (1,1) and target 2 is unaligned -> grown; (3,0) is isolated and
    // its target 0 is aligned -> not added by final-and; (4,4) isolated, both unaligned ->
    // added by final-and.
    let f = [(0, 0), (1, 1), (3, 0), (4, 4)];
    let r = [(0, 0), (1, 2)];
    assert_eq!(
        symmetrize(&f, &r, 5, 5, Method::GrowDiagFinalAnd),
        vec![(0, 0), (1, 1), (1, 2), (4, 4)]
    );
    assert_eq!(symmetrize(&[], &[], 2, 2, Method::GrowDiagFinalAnd), vec![]);
    // Identical inputs give themselves back.
    let a = [(0, 1), (1, 0), (2, 2)];
    assert_eq!(
        symmetrize(&a, &a, 3, 3, Method::GrowDiagFinalAnd),
        a.to_vec()
    );
}

/// symmetrize(reference fwd, reference rev, GDFA) reproduces atools' reference gdfa file
/// exactly, on all 31,030 pairs.
#[test]
fn matches_atools_on_reference_files() {
    let Some(dir) = common::reference_dir() else {
        return;
    };
    let corpus = ldd_align::Corpus::read_fast_align(dir.join("books-news.de-en.fa.gz")).unwrap();
    let lens: Vec<(usize, usize)> = (0..corpus.len()).map(|k| corpus.lengths(k)).collect();
    let read = |n: &str| {
        pharaoh::read_file(
            dir.join(format!("books-news.de-en.{n}.align.gz")),
            Some(&lens),
        )
        .unwrap()
    };
    let (fwd, rev, gdfa) = (read("fwd"), read("rev"), read("gdfa"));
    for k in 0..lens.len() {
        let mut expected = gdfa[k].clone();
        expected.sort_unstable();
        let got = symmetrize(
            &fwd[k],
            &rev[k],
            lens[k].0,
            lens[k].1,
            Method::GrowDiagFinalAnd,
        );
        assert_eq!(got, expected, "line {}", k + 1);
    }
}
