//! The verdict on hand-made sentences with hand-written parses (`config/relations.toml`'s
//! German and English rules): the particle dropped, moved, glued; joined where German
//! joins it; the reflexive in another person or dropped; a synonym; a reordering locus in
//! either order.

use super::*;
use crate::locus::relation::Relations;
use crate::locus::rule::{Lexical, Lexicon, Side};

/// A lexicon that knows nothing (every score 0.001): only the same word or lemma renders.
struct Blank;
impl Lexicon for Blank {
    fn probabilities(&self, _: &str, _: &str) -> Lexical {
        Lexical {
            forward: Some(0.001),
            reverse: Some(0.001),
        }
    }
    fn knows(&self, _: &str, _: &str) -> bool {
        false
    }
}

/// A parsed side: `rows` of `form lemma UPOS XPOS head deprel` (head 1-based, 0 the root),
/// and its links to source words: (source word, token), 0-based.
fn parsed(rows: &[&str], links: &[(usize, usize)]) -> Side {
    let mut tokens = Vec::new();
    let mut analyses = Vec::new();
    for r in rows {
        let c: Vec<&str> = r.split(' ').collect();
        tokens.push(c[0].to_string());
        analyses.push(ldd_parse::Tag {
            lemma: c[1].into(),
            upos: c[2].into(),
            xpos: c[3].into(),
            feats: c.get(6).copied().unwrap_or("").into(),
            head: c[4].parse().unwrap(),
            deprel: c[5].into(),
        });
    }
    let mut links = links.to_vec();
    links.sort_unstable();
    Side {
        tokens,
        links,
        posteriors: None,
        analyses: Some(analyses),
    }
}

/// Judges the locus (dependent `dep`, head `head`; 1-based source word ids) of `kind` on
/// `output` against `reference`, English → `target`.
fn verdict(
    (source, upos): (&str, &str),
    (dep, head): (u32, u32),
    kind: Kind<'_>,
    target: &str,
    (reference, output): (&Side, &Side),
) -> Rendering {
    let source: Vec<String> = source.split(' ').map(String::from).collect();
    let upos: Vec<String> = upos.split(' ').map(String::from).collect();
    let relations = Relations::builtin().unwrap();
    let line = Line {
        source: &source,
        upos: &upos,
        lexicon: &Blank,
        target,
        relations: &relations,
    };
    let word = |id: u32| crate::format::locus::Word {
        id,
        form: source[id as usize - 1].clone(),
    };
    let locus = Locus {
        id: 1,
        number: 1,
        distance: 0,
        dep: word(dep),
        head: Some(word(head)),
        ref_dep: vec![],
        ref_head: vec![],
    };
    judge(&line, &locus, kind, reference, output)
}

const PARTICLE: Kind<'static> = Kind {
    phenomenon: "particle",
    reorder: false,
};

/// English source "Osborne signed up with an agency ." (0 Osborne, 1 signed, 2 up, 3 with,
/// 4 an, 5 agency, 6 .), German target.
const EN: (&str, &str) = (
    "Osborne signed up with an agency .",
    "PROPN VERB ADP ADP DET NOUN PUNCT",
);

/// The German reference: Osborne meldete sich bei einer Agentur an .
fn meldete_an() -> Side {
    parsed(
        &[
            "Osborne Osborne PROPN NE 2 nsubj",
            "meldete melden VERB VVFIN 0 root",
            "sich sich PRON PRF 2 obj",
            "bei bei ADP APPR 6 case",
            "einer ein DET ART 6 det",
            "Agentur Agentur NOUN NN 2 obl",
            "an an ADP PTKVZ 2 compound:prt",
            ". . PUNCT $. 2 punct",
        ],
        &[(0, 0), (1, 1), (2, 6), (3, 3), (4, 4), (5, 5), (6, 7)],
    )
}

#[test]
fn a_german_particle_dropped_moved_glued_or_joined() {
    let reference = meldete_an();
    let de = |output: &Side| {
        let r = verdict(EN, (3, 2), PARTICLE, "de", (&reference, output));
        (r.judgement, r.check)
    };
    // The reference itself.
    assert_eq!(de(&reference), (Judgement::Correct, Some(Check::Intact)));
    // Moved next to its verb: the rest of the clause follows it.
    let moved = parsed(
        &[
            "Osborne Osborne PROPN NE 2 nsubj",
            "meldete melden VERB VVFIN 0 root",
            "an an ADP APPR 4 case",
            "sich sich PRON PRF 2 obj",
            "bei bei ADP APPR 7 case",
            "einer ein DET ART 7 det",
            "Agentur Agentur NOUN NN 2 obl",
            ". . PUNCT $. 2 punct",
        ],
        &[(0, 0), (1, 1), (2, 2), (3, 4), (4, 5), (5, 6), (6, 7)],
    );
    assert_eq!(de(&moved), (Judgement::Incorrect, Some(Check::Misplaced)));
    // Dropped: the verb is the reference's, the particle is gone.
    let dropped = parsed(
        &[
            "Osborne Osborne PROPN NE 2 nsubj",
            "meldete melden VERB VVFIN 0 root",
            "sich sich PRON PRF 2 obj",
            "bei bei ADP APPR 6 case",
            "einer ein DET ART 6 det",
            "Agentur Agentur NOUN NN 2 obl",
            ". . PUNCT $. 2 punct",
        ],
        &[(0, 0), (1, 1), (3, 3), (4, 4), (5, 5), (6, 6)],
    );
    assert_eq!(de(&dropped), (Judgement::Incorrect, Some(Check::Dropped)));
    // Written together with a finite verb of a main clause.
    let glued = parsed(
        &[
            "Osborne Osborne PROPN NE 2 nsubj",
            "anmeldete anmelden VERB VVFIN 0 root",
            "sich sich PRON PRF 2 obj",
            "bei bei ADP APPR 6 case",
            "einer ein DET ART 6 det",
            "Agentur Agentur NOUN NN 2 obl",
            ". . PUNCT $. 2 punct",
        ],
        &[(0, 0), (1, 1), (2, 1), (3, 3), (4, 4), (5, 5), (6, 6)],
    );
    assert_eq!(de(&glued), (Judgement::Incorrect, Some(Check::Glued)));
    // Written together with a participle: where German joins it.
    let perfect = parsed(
        &[
            "Osborne Osborne PROPN NE 3 nsubj",
            "hat haben AUX VAFIN 3 aux",
            "angemeldet anmelden VERB VVPP 0 root",
            "sich sich PRON PRF 3 obj",
            ". . PUNCT $. 3 punct",
        ],
        &[(0, 0), (1, 2), (2, 2), (6, 4)],
    );
    assert_eq!(de(&perfect).1, Some(Check::Intact));
    // ... and with the finite verb of a subordinate clause.
    let subordinate = parsed(
        &[
            "weil weil SCONJ KOUS 4 mark",
            "Osborne Osborne PROPN NE 4 nsubj",
            "sich sich PRON PRF 4 obj",
            "anmeldete anmelden VERB VVFIN 0 root",
        ],
        &[(0, 1), (1, 3), (2, 3)],
    );
    assert_eq!(de(&subordinate).1, Some(Check::Intact));
}

/// German source "Osborne meldete sich bei einer Agentur an ." (as [`meldete_an`]),
/// English target.
const DE: (&str, &str) = (
    "Osborne meldete sich bei einer Agentur an .",
    "PROPN VERB PRON ADP DET NOUN ADP PUNCT",
);

/// The English reference: Osborne signed up with an agency .
fn signed_up() -> Side {
    parsed(
        &[
            "Osborne Osborne PROPN NNP 2 nsubj",
            "signed sign VERB VBD 0 root",
            "up up ADP RP 2 compound:prt",
            "with with ADP IN 6 case",
            "an a DET DT 6 det",
            "agency agency NOUN NN 2 obl",
            ". . PUNCT . 2 punct",
        ],
        &[(0, 0), (1, 1), (3, 3), (4, 4), (5, 5), (7, 6)],
    )
}

#[test]
fn an_english_particle_found_through_the_tree_dropped_moved_glued() {
    // The aligner links `an` to nothing: the particle is found attached to `signed`.
    let reference = signed_up();
    let en = |output: &Side| {
        let r = verdict(DE, (7, 2), PARTICLE, "en", (&reference, output));
        (r.judgement, r.check, r.dep.reference.clone())
    };
    assert_eq!(
        en(&reference),
        (Judgement::Correct, Some(Check::Intact), vec![2])
    );
    let dropped = parsed(
        &[
            "Osborne Osborne PROPN NNP 2 nsubj",
            "signed sign VERB VBD 0 root",
            "with with ADP IN 5 case",
            "an a DET DT 5 det",
            "agency agency NOUN NN 2 obl",
            ". . PUNCT . 2 punct",
        ],
        &[(0, 0), (1, 1), (3, 2), (4, 3), (5, 4), (7, 5)],
    );
    assert_eq!(en(&dropped).1, Some(Check::Dropped));
    assert_eq!(en(&dropped).0, Judgement::Incorrect);
    let moved = parsed(
        &[
            "Osborne Osborne PROPN NNP 2 nsubj",
            "signed sign VERB VBD 0 root",
            "with with ADP IN 5 case",
            "an a DET DT 5 det",
            "agency agency NOUN NN 2 obl",
            "up up ADV RB 2 advmod",
            ". . PUNCT . 2 punct",
        ],
        &[(0, 0), (1, 1), (3, 2), (4, 3), (5, 4), (7, 6)],
    );
    assert_eq!(en(&moved).1, Some(Check::Misplaced));
    let glued = parsed(
        &[
            "Osborne Osborne PROPN NNP 2 nsubj",
            "signedup signedup VERB VBD 0 root",
            "with with ADP IN 5 case",
            "an a DET DT 5 det",
            "agency agency NOUN NN 2 obl",
            ". . PUNCT . 2 punct",
        ],
        &[(0, 0), (1, 1), (3, 2), (4, 3), (5, 4), (7, 5)],
    );
    assert_eq!(en(&glued).1, Some(Check::Glued));
    // The verb replaced by a synonym without a particle: not evidence of an error.
    let registered = parsed(
        &[
            "Osborne Osborne PROPN NNP 2 nsubj",
            "registered register VERB VBD 0 root",
            "with with ADP IN 5 case",
            "an a DET DT 5 det",
            "agency agency NOUN NN 2 obl",
            ". . PUNCT . 2 punct",
        ],
        &[(0, 0), (1, 1), (3, 2), (4, 3), (5, 4), (7, 5)],
    );
    assert_eq!(
        (en(&registered).0, en(&registered).1),
        (Judgement::Differs, None)
    );
}

#[test]
fn an_english_particle_may_follow_the_object() {
    // Source: er schlug das Wort nach (0 er, 1 schlug, 2 das, 3 Wort, 4 nach).
    let source = ("er schlug das Wort nach", "PRON VERB DET NOUN ADP");
    let reference = parsed(
        &[
            "he he PRON PRP 2 nsubj",
            "looked look VERB VBD 0 root",
            "up up ADP RP 2 compound:prt",
            "the the DET DT 5 det",
            "word word NOUN NN 2 obj",
        ],
        &[(0, 0), (1, 1), (2, 3), (3, 4)],
    );
    let output = parsed(
        &[
            "he he PRON PRP 2 nsubj",
            "looked look VERB VBD 0 root",
            "the the DET DT 4 det",
            "word word NOUN NN 2 obj",
            "up up ADP RP 2 compound:prt",
        ],
        &[(0, 0), (1, 1), (2, 2), (3, 3)],
    );
    let r = verdict(source, (5, 2), PARTICLE, "en", (&reference, &output));
    assert_eq!(
        (r.judgement, r.check),
        (Judgement::Correct, Some(Check::Intact))
    );
}

#[test]
fn a_reflexive_in_another_person_or_dropped() {
    // Source: he enjoys himself (0 he, 1 enjoys, 2 himself); German target.
    let source = ("he enjoys himself", "PRON VERB PRON");
    let kind = Kind {
        phenomenon: "reflexive",
        reorder: false,
    };
    let side = |rows: &[&str], links: &[(usize, usize)]| parsed(rows, links);
    let reference = side(
        &[
            "er er PRON PPER 2 nsubj",
            "amüsiert amüsieren VERB VVFIN 0 root",
            "sich sich PRON PRF 2 obj Reflex=Yes",
        ],
        &[(0, 0), (1, 1), (2, 2)],
    );
    let de = |output: &Side| {
        let r = verdict(source, (3, 2), kind, "de", (&reference, output));
        (r.judgement, r.check)
    };
    assert_eq!(de(&reference), (Judgement::Correct, Some(Check::Intact)));
    let person = side(
        &[
            "er er PRON PPER 2 nsubj",
            "amüsiert amüsieren VERB VVFIN 0 root",
            "mich ich PRON PRF 2 obj Reflex=Yes",
        ],
        &[(0, 0), (1, 1), (2, 2)],
    );
    assert_eq!(de(&person), (Judgement::Incorrect, Some(Check::Person)));
    let dropped = side(
        &[
            "er er PRON PPER 2 nsubj",
            "amüsiert amüsieren VERB VVFIN 0 root",
            ". . PUNCT $. 2 punct",
        ],
        &[(0, 0), (1, 1)],
    );
    assert_eq!(de(&dropped), (Judgement::Incorrect, Some(Check::Dropped)));
}

#[test]
fn a_reordering_locus_by_its_order() {
    // Source: dass er das Buch las (0 dass, 1 er, 2 das, 3 Buch, 4 las); the locus is
    // (Buch, las), crossed in the reference: that he read the book.
    let source = ("dass er das Buch las", "SCONJ PRON DET NOUN VERB");
    let kind = Kind {
        phenomenon: "reorder",
        reorder: true,
    };
    let side = |text: &str, links: &[(usize, usize)]| Side {
        tokens: text.split(' ').map(String::from).collect(),
        links: links.to_vec(),
        posteriors: None,
        analyses: None,
    };
    let reference = side(
        "that he read the book",
        &[(0, 0), (1, 1), (2, 3), (3, 4), (4, 2)],
    );
    let judge = |output: &Side| {
        let r = verdict(source, (4, 5), kind, "en", (&reference, output));
        (r.judgement, r.check)
    };
    assert_eq!(
        judge(&reference),
        (Judgement::Correct, Some(Check::ReferenceOrder))
    );
    let source_order = side(
        "that he the book read",
        &[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)],
    );
    assert_eq!(
        judge(&source_order),
        (Judgement::Incorrect, Some(Check::SourceOrder))
    );
    // The verb omitted (the reference's neighbours close the gap): incorrect.
    let omitted = side("that he the book", &[(0, 0), (1, 1), (2, 2), (3, 3)]);
    assert_eq!(judge(&omitted).0, Judgement::Incorrect);
    // Another word in the verb's place: a rendering the rule cannot vouch for.
    let other = side(
        "that he devoured the book",
        &[(0, 0), (1, 1), (2, 3), (3, 4)],
    );
    assert_eq!(judge(&other).0, Judgement::Differs);
}
