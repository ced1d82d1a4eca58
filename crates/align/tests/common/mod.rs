//! Shared helpers of the integration tests (included with `mod common;`).
#![allow(dead_code)]

use std::path::PathBuf;

use ldd_align::Corpus;

/// The read-only reference folder, or `None` (with a message) when it is absent.
pub fn reference_dir() -> Option<PathBuf> {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/reference/fast_align");
    if dir.join("books-news.de-en.fa.gz").exists() {
        Some(dir)
    } else {
        eprintln!(
            "SKIP: reference data not found at {} (tests needing it do nothing)",
            dir.display()
        );
        None
    }
}

/// Deterministic pseudo-random generator (64-bit LCG), to build synthetic corpora.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }
}

/// A toy German-English lexicon: every German word has one English translation.
pub const LEXICON: &[(&str, &str)] = &[
    ("das", "the"),
    ("Haus", "house"),
    ("Buch", "book"),
    ("Auto", "car"),
    ("ist", "is"),
    ("klein", "small"),
    ("groß", "big"),
    ("rot", "red"),
    ("alt", "old"),
    ("neu", "new"),
    ("sehr", "very"),
    ("nicht", "not"),
];

/// Synthetic corpus of `pairs` pairs built from [`LEXICON`]: "das N ist [sehr|nicht] A" /
/// "the N is [very|not] A", with the German predicate fronted ("A ist das N") in a third of
/// the pairs, so that the corpus contains both monotone and reordered pairs.
pub fn toy_corpus(pairs: usize, seed: u64) -> Corpus {
    let nouns = [("Haus", "house"), ("Buch", "book"), ("Auto", "car")];
    let adjs = [
        ("klein", "small"),
        ("groß", "big"),
        ("rot", "red"),
        ("alt", "old"),
        ("neu", "new"),
    ];
    let advs = [None, Some(("sehr", "very")), Some(("nicht", "not"))];
    let mut rng = Lcg(seed);
    let mut c = Corpus::new();
    for _ in 0..pairs {
        let (nd, ne) = nouns[rng.below(nouns.len())];
        let (ad, ae) = adjs[rng.below(adjs.len())];
        let adv = advs[rng.below(advs.len())];
        let mut de: Vec<&str> = Vec::new();
        let fronted = rng.below(3) == 0;
        if fronted {
            de.push(ad);
            de.extend(["ist", "das", nd]);
            if let Some((d, _)) = adv {
                de.push(d);
            }
        } else {
            de.extend(["das", nd, "ist"]);
            if let Some((d, _)) = adv {
                de.push(d);
            }
            de.push(ad);
        }
        let mut en = vec!["the", ne, "is"];
        if let Some((_, e)) = adv {
            en.push(e);
        }
        en.push(ae);
        c.push_pair(&de, &en);
    }
    c
}

/// Synthetic corpus with a larger vocabulary and varied lengths (for determinism tests).
pub fn random_corpus(pairs: usize, vocab: usize, seed: u64) -> Corpus {
    let mut rng = Lcg(seed);
    let mut c = Corpus::new();
    for _ in 0..pairs {
        let n = 1 + rng.below(25);
        let src: Vec<String> = (0..n).map(|_| format!("s{}", rng.below(vocab))).collect();
        // Target: noisy, partly reordered translation of the source.
        let mut tgt: Vec<String> = src
            .iter()
            .map(|w| {
                if rng.below(10) == 0 {
                    format!("t{}", rng.below(vocab))
                } else {
                    format!("t{}", &w[1..])
                }
            })
            .collect();
        if tgt.len() > 3 && rng.below(2) == 0 {
            let a = rng.below(tgt.len());
            let b = rng.below(tgt.len());
            tgt.swap(a, b);
        }
        if rng.below(3) == 0 {
            tgt.push("extra".to_string());
        }
        c.push_pair(&src, &tgt);
    }
    c
}
