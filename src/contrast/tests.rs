//! The variants by hand: spans removed with one space, moved and swapped tokens.

use super::*;

#[test]
fn spans_are_removed_with_one_space() {
    let t = "Er schob die Tür auf .";
    // Byte offsets: `ü` takes two.
    assert_eq!(without(t, &[(18, 21)]), "Er schob die Tür .");
    assert_eq!(without(t, &[(0, 2)]), "schob die Tür auf .");
    assert_eq!(without(t, &[(22, 23)]), "Er schob die Tür auf");
    assert_eq!(cased("mich", "Sich"), "Mich");
    // Glued to a neighbour: the comma between two words goes alone, an opening quote
    // keeps its word, a comma before one keeps its space.
    assert_eq!(without("hin, dass", &[(3, 4)]), "hin dass");
    assert_eq!(
        without("show, \"The Dead\"", &[(4, 5)]),
        "show \"The Dead\""
    );
    assert_eq!(without("nachdem „eine Frau", &[(11, 15)]), "nachdem „Frau");
    // Before punctuation: the space before goes with it (PUD de→en line 338).
    assert_eq!(
        without("my phone started lighting up.", &[(26, 28)]),
        "my phone started lighting."
    );
    assert_eq!(
        without("The chalet burned completely down.", &[(29, 33)]),
        "The chalet burned completely."
    );
    assert_eq!(without("broke out; the", &[(6, 9)]), "broke; the");
    // Adjacent tokens.
    assert_eq!(without("a b c.", &[(2, 3), (4, 5)]), "a.");
}

fn tokens<'a>(line: &'a str, words: &[&'a str]) -> Vec<Token<'a>> {
    let mut from = 0;
    words
        .iter()
        .map(|word| {
            let start = from + line[from..].find(word).unwrap();
            from = start + word.len();
            ((start, from), &line[start..from])
        })
        .collect()
}

/// `moved` puts the dependent right after the head's last token, and makes no variant
/// of a dependent already there; `swapped` exchanges the two words, none for the same
/// word twice.
#[test]
fn moved_and_swapped_by_hand() {
    let line = "Er hat es gestern gesehen .";
    let toks = tokens(line, &["es", "gesehen"]);
    let moved = moved_variant("moved", line, toks[0], &toks[1..]).unwrap();
    assert_eq!(moved.text, "Er hat gestern gesehen es .");
    let toks = tokens(line, &["gesehen", "."]);
    assert!(moved_variant("moved", line, toks[1], &toks[..1]).is_none());
    let toks = tokens(line, &["Er", "es"]);
    let swapped = swapped_variant("swapped", line, toks[1], toks[0]).unwrap();
    assert_eq!(swapped.text, "es hat Er gestern gesehen .");
    assert_eq!(
        (swapped.original.as_str(), swapped.replacement.as_str()),
        ("Er es", "es Er")
    );
    let line = "sich und sich";
    let toks = tokens(line, &["sich", "und", "sich"]);
    assert!(swapped_variant("swapped", line, toks[0], toks[2]).is_none());
    let dropped = dropped_variant(
        "dropped",
        "Er hat es gesehen",
        &tokens("Er hat es gesehen", &["es"]),
    );
    assert_eq!(
        (dropped.text.as_str(), dropped.original.as_str()),
        ("Er hat gesehen", "es")
    );
}

/// A reflexive varies its pronouns only: without a tagger, the variant rules' pronouns of
/// the target language (case aside); with one, the tokens tagged `PRON`.
#[test]
fn only_pronouns_render_a_reflexive() {
    let config = ContrastConfig::builtin().unwrap();
    let toks = ["how", "to", "protect", "Themselves", ","];
    let plain = Reference {
        text: "how to protect Themselves ,",
        toks: &toks,
        tags: None,
    };
    let said: Vec<bool> = (1..=5)
        .map(|p| is_pronoun(toks[p - 1], p as u32, &plain, &config, "en"))
        .collect();
    assert_eq!(said, [false, false, false, true, false]);
    // German `sich` is a pronoun of German, not of English.
    assert!(!is_pronoun("sich", 1, &plain, &config, "en"));
    let tag = |upos: &str| ldd_parse::Tag {
        upos: upos.into(),
        ..Default::default()
    };
    let tags = [
        tag("ADV"),
        tag("PART"),
        tag("VERB"),
        tag("PRON"),
        tag("PUNCT"),
    ];
    let tagged = Reference {
        tags: Some(&tags),
        ..plain
    };
    let said: Vec<bool> = (1..=5)
        .map(|p| is_pronoun(toks[p - 1], p as u32, &tagged, &config, "en"))
        .collect();
    assert_eq!(said, [false, false, false, true, false]);
    // Tagged, the tag decides: `it` is a pronoun although the word list lacks it.
    assert!(!is_pronoun("it", 1, &plain, &config, "en"));
    let it = [tag("PRON")];
    let tagged = Reference {
        tags: Some(&it),
        ..plain
    };
    assert!(is_pronoun("it", 1, &tagged, &config, "en"));
}
