//! Training and alignment on hand-made pairs with known answers.

mod common;

use common::toy_corpus;
use ldd_align::{Corpus, Model, TrainOptions};

fn train(corpus: &Corpus, reverse: bool) -> Model {
    let opts = TrainOptions {
        reverse,
        ..TrainOptions::default()
    };
    Model::train(corpus, &opts).expect("training succeeds")
}

fn pair(de: &str, en: &str) -> Corpus {
    let mut c = Corpus::new();
    c.push_pair(
        &de.split_whitespace().collect::<Vec<_>>(),
        &en.split_whitespace().collect::<Vec<_>>(),
    );
    c
}

/// Monotone and predicate-fronted pairs get the lexically right links in both directions,
/// always reported as (German index, English index).
#[test]
fn known_alignments_both_directions() {
    let corpus = toy_corpus(600, 7);
    for reverse in [false, true] {
        let model = train(&corpus, reverse);
        let mono = model.align(&pair("das Haus ist sehr klein", "the house is very small"));
        assert_eq!(
            mono[0],
            vec![(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)],
            "reverse={reverse}"
        );
        let fronted = model.align(&pair("rot ist das Auto", "the car is red"));
        assert_eq!(
            fronted[0],
            vec![(0, 3), (1, 2), (2, 0), (3, 1)],
            "reverse={reverse}"
        );
    }
}

/// The translation table learned the lexicon (each German word's best English word).
#[test]
fn lexical_table_learns_lexicon() {
    let corpus = toy_corpus(600, 11);
    let model = train(&corpus, false);
    for &(de, en) in common::LEXICON {
        let right = model.prob(Some(de), en);
        for &(_, other) in common::LEXICON {
            if other != en {
                assert!(right > model.prob(Some(de), other), "{de}: {en} vs {other}");
            }
        }
    }
    assert_eq!(model.prob(Some("unbekannt"), "the"), ldd_align::UNSEEN_PROB);
}

/// A trained model aligns sentences it never saw, with unknown words on either side, and
/// every link stays inside its sentence pair; empty sides give empty alignments.
#[test]
fn aligns_unseen_sentences() {
    let model = train(&toy_corpus(300, 3), true);
    let mut c = Corpus::new();
    c.push_pair(
        &["das", "Fahrrad", "ist", "blau"],
        &["the", "bike", "is", "blue", "!"],
    );
    c.push_pair(&["völlig", "unbekannt"], &["totally", "unknown", "words"]);
    c.push_pair::<&str, &str>(&[], &["nothing"]);
    c.push_pair::<&str, &str>(&["nichts"], &[]);
    let al = model.align(&c);
    assert_eq!(al.len(), 4);
    for (k, a) in al.iter().enumerate() {
        let (n, m) = c.lengths(k);
        assert!(a.iter().all(|&(i, j)| i < n && j < m), "pair {k}: {a:?}");
    }
    assert!(
        al[0].contains(&(0, 0)) && al[0].contains(&(2, 2)),
        "{:?}",
        al[0]
    );
    assert!(al[2].is_empty() && al[3].is_empty());
}

/// `train_and_align` (fast_align's final pass) equals `train` then `align`.
#[test]
fn train_and_align_matches_train_then_align() {
    let corpus = common::random_corpus(400, 60, 5);
    for reverse in [false, true] {
        let opts = TrainOptions {
            reverse,
            ..TrainOptions::default()
        };
        let (model, al) = Model::train_and_align(&corpus, &opts).unwrap();
        assert_eq!(model.align(&corpus), al);
        let again = Model::train(&corpus, &opts).unwrap();
        assert_eq!(again.tension(), model.tension());
    }
}

/// Non-default settings run too (uniform prior, maximum-likelihood M-step), and invalid
/// options are rejected.
#[test]
fn other_settings_and_invalid_options() {
    let corpus = toy_corpus(200, 1);
    let opts = TrainOptions {
        favor_diagonal: false,
        variational_bayes: false,
        iterations: 3,
        ..TrainOptions::default()
    };
    let model = Model::train(&corpus, &opts).unwrap();
    let al = model.align(&pair("das Buch ist alt", "the book is old"));
    // Model 1 with a null word may leave the ubiquitous "das"/"ist" to the null word, but the
    // content words are aligned and nothing is misaligned.
    assert!(
        al[0].contains(&(1, 1)) && al[0].contains(&(3, 3)),
        "{:?}",
        al[0]
    );
    assert!(al[0].iter().all(|&(i, j)| i == j), "{:?}", al[0]);
    for bad in [
        TrainOptions {
            iterations: 0,
            ..TrainOptions::default()
        },
        TrainOptions {
            alpha: 0.0,
            ..TrainOptions::default()
        },
        TrainOptions {
            prob_align_null: 1.0,
            ..TrainOptions::default()
        },
    ] {
        assert!(Model::train(&corpus, &bad).is_err());
    }
}

/// Degenerate corpora (empty, or only pairs with an empty side) train without error and
/// align to empty alignments.
#[test]
fn degenerate_corpora() {
    let empty = Corpus::new();
    let model = Model::train(&empty, &TrainOptions::default()).unwrap();
    assert!(model.tension().is_finite());
    assert!(model.align(&empty).is_empty());
    let mut c = Corpus::new();
    c.push_pair::<&str, &str>(&[], &["a"]);
    c.push_pair::<&str, &str>(&["b"], &[]);
    let (model, al) = Model::train_and_align(&c, &TrainOptions::default()).unwrap();
    assert_eq!(al, vec![vec![], vec![]]);
    assert_eq!(model.align(&toy_corpus(3, 1)).len(), 3);
}
