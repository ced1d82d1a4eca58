//! Two systems made of the PUD English→German reference by hand, each with one edit a
//! reader can judge: line 26's separable particle `an` moved next to its verb (*Osborne
//! meldete an sich bei …*, an error of the dependency) and line 284's head `begann`
//! replaced by its synonym `startete` (*Sie startete bei der Royal Shakespeare Company …*,
//! a good translation). `scores.loci.tsv` must call the first `incorrect` and the second
//! `differs` (the issue allows `correct` too; by hand it is `differs`), its evidence
//! column saying why, and the report's locus browser must show both, with that evidence.

use std::path::Path;

use crate::common::*;
use crate::fixture::{write_system, Corpus, REFERENCE, TGT_MODEL_FLAG};

/// Line 26 as the reference has it, and with its particle moved next to its verb.
const LINE_26: (&str, &str) = (
    "Osborne meldete sich bei einer amerikanischen Redneragentur an, nachdem er im Juli gefeuert wurde.",
    "Osborne meldete an sich bei einer amerikanischen Redneragentur, nachdem er im Juli gefeuert wurde.",
);
/// Line 284 as the reference has it, and with `begann` replaced by its synonym.
const LINE_284: (&str, &str) = (
    "Sie begann bei der Royal Shakespeare Company",
    "Sie startete bei der Royal Shakespeare Company",
);

/// The reference's lines with line `id` edited (`from` must be in it).
fn edited(c: &Corpus, id: usize, (from, to): (&str, &str)) -> Vec<String> {
    let mut l = c.raw.clone();
    assert!(l[id - 1].contains(from), "line {id}: {}", l[id - 1]);
    l[id - 1] = l[id - 1].replace(from, to);
    l
}

/// The rows of `scores.loci.tsv` of `system` on line `id`: (phenomenon, judgement, evidence).
fn rows_of(scored: &Path, system: &str, id: &str) -> Vec<(String, String, String)> {
    lines(&scored.join("scores.loci.tsv"))[1..]
        .iter()
        .map(|r| r.split('\t').map(String::from).collect::<Vec<_>>())
        .filter(|c| c[8] == system && c[2] == id)
        .map(|c| (c[0].clone(), c[9].clone(), c[23].clone()))
        .collect()
}

pub(crate) fn check(c: &Corpus, tmp: &Path) {
    let misplaced = write_system(tmp, "misplaced", "de", &edited(c, 26, LINE_26));
    let synonym = write_system(tmp, "synonym", "de", &edited(c, 284, LINE_284));
    let scored = tmp.join("scores");
    let hyp = |(name, p): &(String, std::path::PathBuf)| format!("{name}={}", p.display());
    Ldd::cmd("score")
        .path("--sets", &c.sets)
        .args(&["--hyp", &format!("{REFERENCE}={}", c.reference.display())])
        .args(&["--hyp", &hyp(&misplaced)])
        .args(&["--hyp", &hyp(&synonym)])
        .path(TGT_MODEL_FLAG, &c.model)
        .args(&["--metrics", "locus", "--quiet"])
        .out(&scored)
        .ok();
    // Line 26: `signed up` (particle locus); the reference renders `an` clause-finally.
    let particle = |system: &str, id: &str| -> (String, String) {
        let r = rows_of(&scored, system, id);
        let p = r
            .iter()
            .find(|r| r.0 == "particle")
            .unwrap_or_else(|| panic!("{system}: no particle locus on line {id}: {r:?}"));
        (p.1.clone(), p.2.clone())
    };
    assert_eq!(particle(REFERENCE, "26").0, "correct");
    // The moved `an` is linked to nothing (`unplaced`), the verb is the reference's
    // (`same`), and the parse puts the particle before the rest of its clause.
    let (j, ev) = particle("misplaced", "26");
    assert_eq!(
        (j.as_str(), ev.as_str()),
        ("incorrect", "unplaced,same,relation:misplaced")
    );
    // The synonym's own line 26 is the reference's: correct, the relation intact.
    let (j, ev) = particle("synonym", "26");
    assert_eq!(j, "correct", "{ev}");
    assert!(ev.ends_with("relation:intact"), "{ev}");
    // Line 284: `started out` — the head `begann` replaced: not the reference's word, and
    // not a translation the lexicon vouches for: differs (not an error), the head's
    // evidence `other` with the lexicon's probability.
    let (j, ev) = particle("synonym", "284");
    assert_eq!(
        (j.as_str(), ev.as_str()),
        ("differs", "no_reference,other:0.0000")
    );
    assert_ne!(particle("misplaced", "284").0, "incorrect");
    assert_eq!(particle(REFERENCE, "284").0, particle("misplaced", "284").0);
    // The report's browser shows both loci, each output with its judgement and evidence.
    let page = tmp.join("report.html");
    Ldd::cmd("report")
        .path("--sets", &c.sets)
        .path("--scores", &scored.join("scores.json"))
        .path("--out", &page)
        .ok();
    let html = std::fs::read_to_string(&page).unwrap();
    for (system, id) in [("misplaced", "26"), ("synonym", "284")] {
        let (j, ev) = particle(system, id);
        let label = format!("<span class=\"j j-{}\">{j}</span>", &j[..1]);
        let shown = format!("{system}{label} <small class=\"ev\">{ev}</small>");
        assert!(html.contains(&shown), "the report lacks {shown}");
    }
    assert!(html.contains("<code>locus:4</code>"));
    assert!(html.contains("<b>differs</b>"));
}
