//! Agreement with the C++ fast_align reference alignments (shared/data/reference/fast_align).
//!
//! What is asserted, and why:
//! * `subset_agreement` (always runs, about 20 s unoptimised): trains on the first 5,000 of
//!   the 31,030 pairs (novel chapters: long sentences) and compares those 5,000 lines with the
//!   reference files. The reference was trained on all pairs, so a subset-trained model
//!   legitimately disagrees more (less data for the lexical table, a different optimised
//!   tension): measured F1 is about 0.76 (fwd), 0.76 (rev), 0.75 (gdfa). The test asserts
//!   F1 >= 0.70 for each, and that EM beats the prior-only first pass (`iterations = 1`,
//!   measured F1 about 0.18-0.22) by at least 0.15: together these catch a broken lexical
//!   model, a broken prior or a wrong link orientation, while staying stable.
//! * `full_agreement` (runs when the test binary is optimised, i.e. `cargo test --release`,
//!   otherwise it prints a skip message since an unoptimised build needs minutes): trains on
//!   all 31,030 pairs exactly as the reference was made and asserts F1 >= 0.95 against each
//!   of the fwd, rev and grow-diag-final-and files (measured about 0.9997 for each).

mod common;

use ldd_align::{
    pharaoh, precision_recall_f1, symmetrize, Alignment, Corpus, Method, Model, TrainOptions,
};

fn run(dir: &std::path::Path, limit: Option<usize>, iterations: u32) -> [f64; 3] {
    let full = Corpus::read_fast_align(dir.join("books-news.de-en.fa.gz")).unwrap();
    assert_eq!(full.len(), 31_030);
    let n = limit.unwrap_or(full.len()).min(full.len());
    let corpus = if n == full.len() {
        full
    } else {
        Corpus::from_pairs((0..n).map(|k| (full.src_tokens(k), full.tgt_tokens(k))))
    };
    let lens: Vec<(usize, usize)> = (0..n).map(|k| corpus.lengths(k)).collect();
    let reference = |name: &str| -> Vec<Alignment> {
        let all_lens: Vec<(usize, usize)> = {
            let mut v = lens.clone();
            v.resize(31_030, (usize::MAX, usize::MAX));
            v
        };
        let mut r = pharaoh::read_file(
            dir.join(format!("books-news.de-en.{name}.align.gz")),
            Some(&all_lens),
        )
        .unwrap();
        r.truncate(n);
        r
    };
    let align = |reverse| {
        let opts = TrainOptions {
            reverse,
            iterations,
            ..TrainOptions::default()
        };
        Model::train_and_align(&corpus, &opts).unwrap().1
    };
    let (fwd, rev) = (align(false), align(true));
    let gdfa: Vec<Alignment> = (0..n)
        .map(|k| {
            symmetrize(
                &fwd[k],
                &rev[k],
                lens[k].0,
                lens[k].1,
                Method::GrowDiagFinalAnd,
            )
        })
        .collect();
    let mut out = [0.0; 3];
    for (o, (name, hyp)) in out
        .iter_mut()
        .zip([("fwd", &fwd), ("rev", &rev), ("gdfa", &gdfa)])
    {
        let p = precision_recall_f1(&reference(name), hyp).unwrap();
        eprintln!(
            "{n} pairs, {iterations} iterations, {name}: P {:.4} R {:.4} F1 {:.4}",
            p.precision, p.recall, p.f1
        );
        *o = p.f1;
    }
    out
}

#[test]
fn subset_agreement() {
    let Some(dir) = common::reference_dir() else {
        return;
    };
    let [f, r, g] = run(&dir, Some(5_000), 5);
    let [f1, r1, g1] = run(&dir, Some(5_000), 1);
    assert!(
        f >= 0.70 && r >= 0.70 && g >= 0.70,
        "F1 fwd {f} rev {r} gdfa {g}"
    );
    assert!(
        f >= f1 + 0.15 && r >= r1 + 0.15 && g >= g1 + 0.15,
        "EM must clearly beat the prior-only pass: {f} {r} {g} vs {f1} {r1} {g1}"
    );
}

#[test]
fn full_agreement() {
    if cfg!(debug_assertions) {
        eprintln!("SKIP full_agreement: unoptimised build; run `cargo test --release -p ldd-align --test reference_agreement`");
        return;
    }
    let Some(dir) = common::reference_dir() else {
        return;
    };
    let [f, r, g] = run(&dir, None, 5);
    assert!(
        f >= 0.95 && r >= 0.95 && g >= 0.95,
        "F1 fwd {f} rev {r} gdfa {g}"
    );
}
