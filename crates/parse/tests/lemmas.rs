//! Lemmas of already tokenized text (`Parser::lemmas`, the tagger without the tokenizer):
//! by hand on one sentence, and equal to the lemmas of UDPipe's own pipeline on the same
//! tokens for the first 300 PUD lines.

mod common;

use common::*;
use ldd_parse::Parser;

#[test]
fn lemmas_by_hand_and_as_udpipe_tags_them() {
    let en = Parser::load(shared().join("models/english-small.udpipe")).expect("model");
    // By hand: the irregular forms lemmatised.
    assert_eq!(
        en.lemmas(&["They", "were", "found", "and", "taken", "away", "."])
            .unwrap(),
        ["they", "be", "find", "and", "take", "away", "."]
    );
    assert!(en.lemmas(&[]).unwrap().is_empty());
    // A token with a line break inside is one token still.
    assert_eq!(en.lemmas(&["a\nb", "is"]).unwrap().len(), 2);
    // The same tokens as UDPipe's tokenizer found them: the same lemmas as its pipeline.
    let text = std::fs::read_to_string(shared().join("data/parallel/pud.de-en.en")).unwrap();
    let mut compared = 0;
    for line in text.lines().take(300) {
        let conllu = en.udpipe_conllu(line).unwrap();
        for block in conllu.split("\n\n").filter(|b| !b.trim().is_empty()) {
            let rows: Vec<Vec<&str>> = block
                .lines()
                .filter(|l| !l.starts_with('#'))
                .map(|l| l.split('\t').collect::<Vec<_>>())
                .filter(|c| c.len() == 10 && !c[0].contains(['-', '.']))
                .collect();
            let forms: Vec<&str> = rows.iter().map(|c| c[1]).collect();
            let lemmas: Vec<&str> = rows.iter().map(|c| c[2]).collect();
            assert_eq!(en.lemmas(&forms).unwrap(), lemmas, "{line}");
            compared += forms.len();
        }
    }
    assert!(compared > 5000, "{compared}");
}
