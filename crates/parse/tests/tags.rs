//! Tags and parses of already tokenized text (`Parser::tags` and `Parser::lemmas`, the
//! tagger without the tokenizer; `Parser::analyse`, the tagger and the parser): by hand on
//! a few sentences, and equal to the LEMMA, UPOS and FEATS (and XPOS, HEAD and DEPREL) of
//! UDPipe's own pipeline on the same tokens for the first 300 PUD lines, English and German.

mod common;

use common::*;
use ldd_parse::Parser;

#[test]
fn tags_by_hand_and_as_udpipe_gives_them() {
    // By hand: the reflexive `sich` (accusative, third person) and `uns` (first person
    // plural), as the German model tags them.
    let de = Parser::load(shared().join("models/german-small.udpipe")).expect("model");
    let t = de
        .tags(&[
            "Er", "meldete", "sich", "gestern", ".", "Wir", "freuen", "uns", ".",
        ])
        .unwrap();
    assert_eq!(
        (t[7].lemma.as_str(), t[7].upos.as_str(), t[7].feats.as_str()),
        (
            "wir",
            "PRON",
            "Case=Acc|Number=Plur|Person=1|PronType=Prs|Reflex=Yes"
        )
    );
    assert_eq!(t[2].feature("Reflex"), ["Yes"]);
    assert_eq!(t[2].feature("Person"), ["3"]);
    assert!(t[2].feature("Number").is_empty());
    assert_eq!(t[4].upos, "PUNCT");
    assert_eq!(t[4].feats, "");
    assert_eq!(
        ldd_conllu::feature("Case=Acc,Dat|Person=3", "Case"),
        ["Acc", "Dat"]
    );
    let en = Parser::load(shared().join("models/english-small.udpipe")).expect("model");
    // By hand: the irregular forms lemmatised.
    assert_eq!(
        en.lemmas(&["They", "were", "found", "and", "taken", "away", "."])
            .unwrap(),
        ["they", "be", "find", "and", "take", "away", "."]
    );
    assert!(en.lemmas(&[]).unwrap().is_empty());
    assert!(en.analyse(&[]).unwrap().is_empty());
    // By hand: the tagger alone gives no tree; the parser attaches the separated particle
    // `an` to its verb (`meldete`, token 2) and the reflexive `sich` to it too.
    let toks = [
        "Osborne", "meldete", "sich", "bei", "einer", "Agentur", "an", ".",
    ];
    assert!(de
        .tags(&toks)
        .unwrap()
        .iter()
        .all(|t| t.head == 0 && t.deprel.is_empty()));
    let a = de.analyse(&toks).unwrap();
    assert_eq!(
        (a[6].head, a[6].deprel.as_str(), a[6].xpos.as_str()),
        (2, "compound:prt", "PTKVZ")
    );
    assert_eq!(a[2].head, 2);
    assert_eq!(a.iter().filter(|t| t.head == 0).count(), 1);
    // A token with a line break inside is one token still.
    assert_eq!(en.lemmas(&["a\nb", "is"]).unwrap().len(), 2);
    // The same tokens as UDPipe's tokenizer found them: the same lemmas, UPOS and FEATS as
    // its pipeline, in both languages.
    for (parser, lang) in [(&en, "en"), (&de, "de")] {
        let compared = compare_with_pipeline(parser, lang);
        assert!(compared > 5000, "{lang}: {compared}");
    }
}

/// Tags the words of UDPipe's own parse of the first 300 PUD lines of `lang` and asserts
/// that LEMMA, UPOS and FEATS equal the parse's; returns the words compared.
fn compare_with_pipeline(parser: &Parser, lang: &str) -> usize {
    let path = shared().join(format!("data/parallel/pud.de-en.{lang}"));
    let text = std::fs::read_to_string(path).unwrap();
    let mut compared = 0;
    for line in text.lines().take(300) {
        let conllu = parser.udpipe_conllu(line).unwrap();
        for block in conllu.split("\n\n").filter(|b| !b.trim().is_empty()) {
            let rows: Vec<Vec<&str>> = block
                .lines()
                .filter(|l| !l.starts_with('#'))
                .map(|l| l.split('\t').collect::<Vec<_>>())
                .filter(|c| c.len() == 10 && !c[0].contains(['-', '.']))
                .collect();
            let forms: Vec<&str> = rows.iter().map(|c| c[1]).collect();
            let lemmas: Vec<&str> = rows.iter().map(|c| c[2]).collect();
            assert_eq!(parser.lemmas(&forms).unwrap(), lemmas, "{line}");
            let got: Vec<String> = parser
                .tags(&forms)
                .unwrap()
                .into_iter()
                .map(|t| {
                    let feats = if t.feats.is_empty() { "_" } else { &t.feats };
                    format!("{}\t{}\t{feats}", t.lemma, t.upos)
                })
                .collect();
            let want: Vec<String> = rows
                .iter()
                .map(|c| format!("{}\t{}\t{}", c[2], c[3], c[5]))
                .collect();
            assert_eq!(got, want, "{line}");
            let parsed: Vec<String> = parser
                .analyse(&forms)
                .unwrap()
                .into_iter()
                .map(|t| {
                    let feats = if t.feats.is_empty() { "_" } else { &t.feats };
                    let [l, u, x, d] = [t.lemma, t.upos, t.xpos, t.deprel];
                    format!("{l}\t{u}\t{x}\t{feats}\t{}\t{d}", t.head)
                })
                .collect();
            let want: Vec<String> = rows.iter().map(|c| c[2..8].join("\t")).collect();
            assert_eq!(parsed, want, "{line}");
            compared += forms.len();
        }
    }
    compared
}
