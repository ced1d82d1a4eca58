//! A phenomenon defined only in a user's config file is extracted.

mod common;

use common::*;

/// Subject–verb pairs across distance (deprel nsubj, head a VERB), and a light-verb
/// rule by lemma list, on the English PUD gold trees.
#[test]
fn user_defined_phenomena_from_config() {
    let tmp = tempfile::tempdir().unwrap();
    let rules = tmp.path().join("mine.toml");
    std::fs::write(
        &rules,
        r#"
[buckets]
max = 3

[[phenomenon]]
name = "subject_verb"
description = "subject and verb agreement across distance"
order = "dependent_first"
[phenomenon.dependent]
deprel = ["nsubj"]
not_deprel = ["nsubj:pass"]
[phenomenon.head]
upos = ["VERB"]

[[phenomenon]]
name = "light_verb"
[phenomenon.dependent]
deprel = ["obj"]
upos = ["NOUN"]
[phenomenon.head]
lemma = ["take", "make", "give", "have"]
"#,
    )
    .unwrap();
    let out = tmp.path().join("o");
    extract_pud("en", &out, &["--rules", rules.to_str().unwrap()]);
    // Only the user's phenomena ran, with 4 buckets each.
    assert!(!out.join("reflexive").exists());
    assert!(out.join("subject_verb/ge3.ids").exists());
    assert!(!out.join("subject_verb/ge4.ids").exists());
    // PUD line 1: "... Obama special assistant Kori Schulman wrote in a blog post Monday."
    // The English tree reads "... assistant(26) Kori(27) Schulman(28) wrote(29)": the
    // subject is Kori(27) (nsubj→wrote, d=1, Schulman between); the other subjects
    // attach to AUX/ADJ heads, so line 1 is in eq1 and ge1 but not ge2.
    let text = lines(&data("parallel/pud.de-en.en"));
    assert!(text[0].contains("Kori Schulman wrote"));
    let sv = out.join("subject_verb");
    assert!(ids(&sv, "eq1").contains(&1));
    assert!(ids(&sv, "ge1").contains(&1));
    assert!(!ids(&sv, "ge2").contains(&1));
    assert!(!ids(&sv, "eq0").contains(&1));
    // nsubj:pass is excluded, subtype matching: no marked pair is a passive subject.
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["rules"]["phenomena"][0]["name"], "subject_verb");
    assert_eq!(m["rules"]["max_distance"], 3);
    let ge0 = ids(&sv, "ge0").len();
    assert!(
        ge0 > 600,
        "most sentences have a subject before a verb: {ge0}"
    );
    // light verbs: every selected tree has an obj NOUN under one of the lemmas
    let lv = lines(&out.join("light_verb/ge0.marked.en"));
    assert!(!lv.is_empty());
    let trees = std::fs::read_to_string(out.join("light_verb/ge0.conllu")).unwrap();
    for tree in trees.split("\n\n").filter(|t| !t.trim().is_empty()) {
        let words: Vec<Vec<&str>> = tree
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split('\t').collect::<Vec<_>>())
            .filter(|c| c[0].chars().all(|ch| ch.is_ascii_digit()))
            .collect();
        let ok = words.iter().any(|w| {
            w[7] == "obj" && w[3] == "NOUN" && {
                let h: usize = w[6].parse().unwrap();
                h > 0 && ["take", "make", "give", "have"].contains(&words[h - 1][2])
            }
        });
        assert!(ok, "{tree}");
    }
}

/// A phenomenon may not take a name ldd-sets uses itself (it would overwrite the
/// reordering sets or the control files): the error names the file, line and key.
#[test]
fn names_ldd_sets_uses_itself_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    for name in ["reorder", "controls"] {
        let rules = tmp.path().join(format!("{name}.toml"));
        std::fs::write(
            &rules,
            format!(
                "[[phenomenon]]\nname = \"{name}\"\n[phenomenon.dependent]\ndeprel = [\"obl\"]\n"
            ),
        )
        .unwrap();
        let out = tmp.path().join(format!("o-{name}"));
        let o = run(&[
            "extract",
            "--src",
            data("parallel/pud.de-en.en").to_str().unwrap(),
            "--tgt",
            data("parallel/pud.de-en.de").to_str().unwrap(),
            "--src-lang",
            "en",
            "--tgt-lang",
            "de",
            "--conllu",
            data("ud/en_pud-ud-test.conllu").to_str().unwrap(),
            "--rules",
            rules.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
        let e = stderr(&o);
        let want = format!("{}:2: invalid value for `name`", rules.display());
        assert!(e.contains(&want) && e.contains("uses itself"), "{e}");
        assert!(absent_or_empty(&out));
    }
}
