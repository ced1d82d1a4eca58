//! Multiword tokens: the parse keeps UDPipe's whole CoNLL-U (German `am` = `an dem`, English
//! `don't` = `do n't`), and its syntactic words are exactly the words udpipe-rs returns.

mod common;

use std::path::PathBuf;

use common::*;
use ldd_parse::{ParseOptions, Parser};

fn english_model() -> PathBuf {
    shared().join("models/english-small.udpipe")
}

fn pud_en() -> PathBuf {
    shared().join("data/parallel/pud.de-en.en")
}

/// `(range, form)` of the multiword-token rows and the forms of the word rows.
fn tokens_and_words(b: &Block) -> (Vec<(String, String)>, Vec<String>) {
    let mwts = b
        .mwts
        .iter()
        .map(|m| (m[0].clone(), m[1].clone()))
        .collect();
    let words = b.rows.iter().map(|r| r[1].clone()).collect();
    (mwts, words)
}

/// Hand-checked against UDPipe's own Python binding (`ufal.udpipe`, pipeline `tokenize` →
/// `conllu`) with the same models: the same ranges, the same syntactic words.
#[test]
fn contractions_are_multiword_tokens() {
    let de = Parser::load(german_model()).expect("german model");
    let parsed = de
        .parse_line(1, "Wir gehen am Montag zum Arzt und ins Kino.")
        .expect("parse");
    let b = blocks(&parsed.conllu);
    assert_eq!(b.len(), 1);
    assert_one_tree(&b[0]);
    let (mwts, words) = tokens_and_words(&b[0]);
    let pair = |r: &str, f: &str| (r.to_owned(), f.to_owned());
    assert_eq!(
        mwts,
        vec![pair("3-4", "am"), pair("6-7", "zum"), pair("10-11", "ins")]
    );
    assert_eq!(
        words,
        "Wir gehen an dem Montag zu dem Arzt und in das Kino ."
            .split(' ')
            .collect::<Vec<_>>()
    );
    assert_eq!(parsed.words, 13);
    // A multiword-token row has only ID, FORM and MISC.
    assert_eq!(b[0].mwts[0][2..9], ["_"; 7]);

    let en = Parser::load(english_model()).expect("english model");
    let parsed = en
        .parse_line(7, "I don't know what you're talking about.")
        .expect("parse");
    let b = blocks(&parsed.conllu);
    assert_one_tree(&b[0]);
    let (mwts, words) = tokens_and_words(&b[0]);
    assert_eq!(mwts, vec![pair("2-3", "don't"), pair("6-7", "you're")]);
    assert_eq!(
        words,
        "I do n't know what you 're talking about ."
            .split(' ')
            .collect::<Vec<_>>()
    );
}

/// The surface tokens (multiword tokens in place of their words) joined with a space unless
/// SpaceAfter=No give back the line, on the whole of PUD in both languages. Without the
/// multiword-token rows this fails (German `am` would come back as `an dem`).
#[test]
fn surface_tokens_rebuild_every_pud_line() {
    // Multiword-token forms per line of the gold German PUD treebank (the same sentences).
    let gold_de: Vec<Vec<String>> = blocks(
        &std::fs::read_to_string(shared().join("data/ud/de_pud-ud-test.conllu")).expect("gold"),
    )
    .iter()
    .map(|b| b.mwts.iter().map(|m| m[1].clone()).collect())
    .collect();
    assert_eq!(gold_de.iter().map(Vec::len).sum::<usize>(), 331);
    for (model, corpus, gold) in [
        (german_model(), pud_de(), Some(&gold_de)),
        (english_model(), pud_en(), None),
    ] {
        let parser = Parser::load(&model).expect("model");
        let lines = first_lines(&corpus, usize::MAX);
        let mut out = Vec::new();
        let input = lines.iter().map(|l| Ok::<_, std::io::Error>(l.clone()));
        let opts = ParseOptions {
            threads: 2,
            ..ParseOptions::default()
        };
        parser.parse_stream(input, &mut out, &opts).expect("parse");
        let conllu = String::from_utf8(out).expect("utf8");
        let blocks = blocks(&conllu);
        assert_eq!(blocks.len(), lines.len());
        let (mut mwts, mut matched) = (0, 0);
        for (i, (b, line)) in blocks.iter().zip(&lines).enumerate() {
            assert_one_tree(b);
            mwts += b.mwts.len();
            if let Some(gold) = gold {
                let mut expected = gold[i].clone();
                for m in &b.mwts {
                    if let Some(k) = expected.iter().position(|f| *f == m[1]) {
                        expected.swap_remove(k);
                        matched += 1;
                    }
                }
            }
            let mut surface = String::new();
            let mut next_word = 1;
            let mut ranges = b.mwts.iter().peekable();
            while next_word <= b.rows.len() {
                let (form, misc, last) = match ranges.peek() {
                    Some(m) if m[0].starts_with(&format!("{next_word}-")) => {
                        let last: usize =
                            m[0].split_once('-').expect("range").1.parse().expect("end");
                        let m = ranges.next().expect("peeked");
                        (&m[1], &m[9], last)
                    }
                    _ => {
                        let r = &b.rows[next_word - 1];
                        (&r[1], &r[9], next_word)
                    }
                };
                surface.push_str(form);
                if !misc.split('|').any(|f| f == "SpaceAfter=No") {
                    surface.push(' ');
                }
                next_word = last + 1;
            }
            let normalized = line.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(
                surface.trim_end(),
                normalized,
                "{}: tokens do not rebuild the line",
                b.comments[0]
            );
        }
        eprintln!(
            "{}: {mwts} multiword tokens, {matched} as in gold",
            corpus.display()
        );
        if gold.is_some() {
            // The small model finds German contractions about as the annotators did.
            assert!(matched * 100 >= 331 * 95, "recall {matched}/331");
            assert!(matched * 100 >= mwts * 95, "precision {matched}/{mwts}");
        } else {
            assert!(
                mwts >= 100,
                "{}: only {mwts} multiword tokens",
                corpus.display()
            );
        }
    }
}

/// The shim changes nothing udpipe-rs already returned: on 300 PUD lines per language, every
/// sentence's word rows equal udpipe-rs's words field by field (empty fields as `_`).
#[test]
fn syntactic_words_equal_udpipe_rs_words() {
    for (model, corpus) in [(german_model(), pud_de()), (english_model(), pud_en())] {
        let parser = Parser::load(&model).expect("model");
        let plain = udpipe_rs::Model::load(&model).expect("udpipe-rs model");
        let mut compared = 0;
        for line in first_lines(&corpus, 300) {
            let conllu = parser.udpipe_conllu(&line).expect("shim");
            let ours: Vec<Vec<Vec<String>>> =
                blocks(&conllu).iter().map(|b| b.rows.clone()).collect();
            let theirs = plain.parse(&line).expect("udpipe-rs");
            let u = |v: &str| {
                if v.is_empty() {
                    "_".to_owned()
                } else {
                    v.to_owned()
                }
            };
            let mut expected: Vec<Vec<Vec<String>>> = Vec::new();
            for w in &theirs {
                if w.sentence_id as usize >= expected.len() {
                    expected.push(Vec::new());
                }
                expected.last_mut().expect("sentence").push(vec![
                    w.id.to_string(),
                    u(&w.form),
                    u(&w.lemma),
                    u(&w.upostag),
                    u(&w.xpostag),
                    u(&w.feats),
                    w.head.to_string(),
                    u(&w.deprel),
                    "_".to_owned(),
                    u(&w.misc),
                ]);
            }
            assert_eq!(ours, expected, "line {line:?}");
            compared += theirs.len();
        }
        assert!(compared > 3000, "{compared} words compared");
    }
}
