//! Pairs over `max_len` are left out of training and decoded one at a time afterwards; the
//! one-at-a-time decoder must give exactly the links of the indexed decoder.

use std::path::PathBuf;

use ldd_align::{Corpus, Model, TrainOptions};

fn newstest(n: usize) -> Corpus {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/parallel");
    let read =
        |l: &str| std::fs::read_to_string(dir.join(format!("newstest2013.de-en.{l}"))).unwrap();
    let (de, en) = (read("de"), read("en"));
    let mut c = Corpus::new();
    for (s, t) in de.lines().zip(en.lines()).take(n) {
        let s: Vec<&str> = s.split_whitespace().collect();
        let t: Vec<&str> = t.split_whitespace().collect();
        c.push_pair(&s, &t);
    }
    c
}

/// On 1,500 newstest2013 pairs, a model aligns every pair identically whether the pair goes
/// through the slot index (no length cap) or, being over the cap of 12 tokens, through the
/// one-pair decoder — in both directions, words unseen in training included (the model is
/// trained on the first 1,000 pairs only).
#[test]
fn long_pairs_are_decoded_exactly_like_indexed_ones() {
    let corpus = newstest(1500);
    let train = newstest(1000);
    for reverse in [false, true] {
        let opts = TrainOptions {
            reverse,
            iterations: 3,
            ..TrainOptions::default()
        };
        let mut model = Model::train(&train, &opts).unwrap();
        let indexed = model.align(&corpus);
        model.set_max_len(12);
        let long = model.align(&corpus);
        let over = (0..corpus.len())
            .filter(|&k| {
                let (s, t) = corpus.lengths(k);
                s > 12 || t > 12
            })
            .count();
        assert!(over > 1000, "{over} pairs over the cap");
        assert_eq!(indexed.len(), long.len());
        let links: usize = indexed.iter().map(Vec::len).sum();
        assert!(links > 20_000, "{links} links");
        for (k, (a, b)) in indexed.iter().zip(&long).enumerate() {
            assert!(a == b, "pair {k} (reverse={reverse}): {a:?} vs {b:?}");
        }
    }
}
