//! Lexical LDD sets on the real PUD corpus with its gold UD trees (German and English
//! as source): hand-checked sentences, set invariants, and an independent oracle.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use common::*;

/// Expected membership of a corpus line in a phenomenon's buckets, from its
/// distances (checked by reading the trees; see the comments at each call).
fn assert_buckets(dir: &Path, phen: &str, id: u64, distances: &[u32]) {
    for k in 0..=5u32 {
        let ge = distances.iter().any(|&d| d >= k);
        let eq = distances.contains(&k);
        assert_eq!(
            ids(&dir.join(phen), &format!("ge{k}")).contains(&id),
            ge,
            "{phen}: line {id} in ge{k}?"
        );
        assert_eq!(
            ids(&dir.join(phen), &format!("eq{k}")).contains(&id),
            eq,
            "{phen}: line {id} in eq{k}?"
        );
    }
}

#[test]
fn german_pud_hand_checked_sentences() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("de");
    extract_pud("de", &out, &[]);
    // Line 26: "Osborne meldete sich bei einer amerikanischen Redneragentur an, ...":
    // sich(3)→meldete(2) d=0; an(8)→meldete(2) d=5.
    assert_buckets(&out, "reflexive", 26, &[0]);
    assert_buckets(&out, "particle", 26, &[5]);
    // Line 31: aus(9)→ging(4) d=4, aus(22)→tauschte(11) d=10.
    assert_buckets(&out, "particle", 31, &[4, 10]);
    // Line 78: ab(16)→lehnen(12) d=3.
    assert_buckets(&out, "particle", 78, &[3]);
    // Line 189: "Ich tue mich auch schwer mit Passwörtern.": schwer(5) compound:prt→tue(2) d=2.
    assert_buckets(&out, "particle", 189, &[2]);
    // Line 224: an→Nehmen d=2 and sich→irrt d=0.
    assert_buckets(&out, "particle", 224, &[2]);
    assert_buckets(&out, "reflexive", 224, &[0]);
    // Line 91: sich(3)→wünscht(2) d=0.
    assert_buckets(&out, "reflexive", 91, &[0]);
    // Line 119: "..., das sich in roten Blutkörperchen befindet": sich(20)→befindet(24) d=3.
    assert_buckets(&out, "reflexive", 119, &[3]);
    // Line 196: "... entschieden sie sich, ...": sich(13)→entschieden(11) d=1.
    assert_buckets(&out, "reflexive", 196, &[1]);
    // Line 315: sich→schützen d=3.
    assert_buckets(&out, "reflexive", 315, &[3]);
    // A line without any of them: line 1.
    assert_buckets(&out, "reflexive", 1, &[]);
    assert_buckets(&out, "particle", 1, &[]);

    // Preposition stranding is off by default for German sources.
    assert!(!out.join("preposition_stranding").exists());

    // The marked version of line 26 in particle/ge5 marks the particle and its verb.
    let ge5 = ids(&out.join("particle"), "ge5");
    let row = ge5.iter().position(|&i| i == 26).unwrap();
    let marked = lines(&out.join("particle/ge5.marked.de"));
    assert_eq!(
        marked[row],
        "Osborne <h1>meldete</h1> sich bei einer amerikanischen Redneragentur <d1>an</d1> , \
         nachdem er im Juli gefeuert wurde ."
    );
}

#[test]
fn english_pud_hand_checked_sentences() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("en");
    extract_pud("en", &out, &[]);
    // Reflexives: themselves(11)→protect(10) d=0; himself(14)→cares(12) d=1;
    // themselves(19)→established(18) d=0; itself(6)→found(5) d=0.
    assert_buckets(&out, "reflexive", 315, &[0]);
    assert_buckets(&out, "reflexive", 322, &[1]);
    assert_buckets(&out, "reflexive", 399, &[0]);
    assert_buckets(&out, "reflexive", 623, &[0]);
    // Particles: up→signed d=0; out→sent d=0; down(5)→burned(3) d=1; out→rule d=0.
    assert_buckets(&out, "particle", 26, &[0]);
    assert_buckets(&out, "particle", 602, &[0]);
    assert_buckets(&out, "particle", 924, &[1]);
    assert_buckets(&out, "particle", 756, &[0]);
    assert_buckets(&out, "particle", 917, &[0]);
    // Preposition stranding (on for English): the gold PUD trees have exactly four
    // ADP+obl words, all adjacent to their head: "thought of", "referred to",
    // "known about", "less extreme than".
    for id in [417, 436, 614, 902] {
        assert_buckets(&out, "preposition_stranding", id, &[0]);
    }
    assert_eq!(
        ids(&out.join("preposition_stranding"), "ge0"),
        BTreeSet::from([417, 436, 614, 902])
    );
    let marked = lines(&out.join("preposition_stranding/ge0.marked.en"));
    assert!(
        marked[1].contains("<h1>thought</h1> <d1>of</d1>"),
        "{}",
        marked[1]
    );
}

/// Every set of both runs with the paper's rules (`--paper-compat`) equals what an
/// independent reading of the trees by those rules gives. (The built-in rules add language
/// patterns and repairs, measured against gold trees in tests/detection.rs.)
#[test]
fn sets_equal_an_independent_oracle() {
    for src in ["de", "en"] {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("o");
        extract_pud(src, &out, &["--paper-compat"]);
        let trees = oracle_trees(&data(&format!("ud/{src}_pud-ud-test.conllu")));
        assert_eq!(trees.len(), 1000);
        let mut expected: BTreeMap<(&str, String), BTreeSet<u64>> = BTreeMap::new();
        let phens: &[&str] = if src == "en" {
            &["reflexive", "particle", "preposition_stranding"]
        } else {
            &["reflexive", "particle"]
        };
        for (i, words) in trees.iter().enumerate() {
            for w in words {
                let id: i64 = w[0].parse().unwrap();
                let head: i64 = w[6].parse().unwrap();
                if head == 0 {
                    continue;
                }
                let d = (id - head).unsigned_abs() - 1;
                let rel = &w[7];
                let mut hit = vec![];
                if w[5].split('|').any(|f| f == "Reflex=Yes") {
                    hit.push("reflexive");
                }
                if rel == "compound:prt" || rel == "prt" || rel.starts_with("compound:prt:") {
                    hit.push("particle");
                }
                if src == "en" && w[3] == "ADP" && (rel == "obl" || rel.starts_with("obl:")) {
                    hit.push("preposition_stranding");
                }
                for p in hit {
                    for k in 0..=5u64 {
                        if d >= k {
                            expected
                                .entry((p, format!("ge{k}")))
                                .or_default()
                                .insert(i as u64 + 1);
                        }
                        if d == k {
                            expected
                                .entry((p, format!("eq{k}")))
                                .or_default()
                                .insert(i as u64 + 1);
                        }
                    }
                }
            }
        }
        for p in phens {
            for k in 0..=5 {
                for b in [format!("ge{k}"), format!("eq{k}")] {
                    let want = expected.get(&(*p, b.clone())).cloned().unwrap_or_default();
                    assert_eq!(ids(&out.join(p), &b), want, "{src} {p} {b}");
                }
            }
        }
    }
}

#[test]
fn set_invariants_hold() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("de");
    extract_pud("de", &out, &[]);
    let corpus_src = lines(&data("parallel/pud.de-en.de"));
    let corpus_tgt = lines(&data("parallel/pud.de-en.en"));
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    let summary = lines(&out.join("summary.csv"));
    assert_eq!(
        summary[0],
        "phenomenon,bucket,sentences,pairs,mean_source_words"
    );
    let msets = manifest["sets"].as_array().unwrap();
    // 2 phenomena x 12 buckets, plus reorder ge5, ge10, ge15, ge20
    assert_eq!(msets.len(), 2 * 12 + 4);
    assert_eq!(summary.len(), 1 + msets.len());
    assert_eq!(manifest["corpus"]["lines"], 1000);
    assert_eq!(manifest["inputs"]["source"]["lines"], 1000);
    assert_eq!(manifest["inputs"]["conllu"]["lines"], 1000);

    for p in ["reflexive", "particle"] {
        let dir = out.join(p);
        for k in 0..5 {
            let ge = ids(&dir, &format!("ge{k}"));
            let next = ids(&dir, &format!("ge{}", k + 1));
            let eq = ids(&dir, &format!("eq{k}"));
            assert!(next.is_subset(&ge), "{p}: ge{} ⊆ ge{k}", k + 1);
            let union: BTreeSet<u64> = eq.union(&next).copied().collect();
            assert_eq!(union, ge, "{p}: ge{k} = eq{k} ∪ ge{}", k + 1);
        }
        for k in 0..=5 {
            for b in [format!("ge{k}"), format!("eq{k}")] {
                let id_lines = lines(&dir.join(format!("{b}.ids")));
                let ids: Vec<usize> = id_lines.iter().map(|l| l.parse().unwrap()).collect();
                assert!(
                    ids.windows(2).all(|w| w[0] < w[1]),
                    "{p}/{b}: ids ascending, unique"
                );
                let src = lines(&dir.join(format!("{b}.de")));
                let tgt = lines(&dir.join(format!("{b}.en")));
                let marked = lines(&dir.join(format!("{b}.marked.de")));
                assert_eq!(src.len(), ids.len());
                assert_eq!(tgt.len(), ids.len());
                assert_eq!(marked.len(), ids.len());
                for (row, &id) in ids.iter().enumerate() {
                    assert_eq!(src[row], corpus_src[id - 1], "{p}/{b} line {row}");
                    assert_eq!(tgt[row], corpus_tgt[id - 1], "{p}/{b} line {row}");
                    assert!(marked[row].contains("<d1>") && marked[row].contains("<h1>"));
                }
                let trees = std::fs::read_to_string(dir.join(format!("{b}.conllu"))).unwrap();
                assert_eq!(trees.matches("# text = ").count(), ids.len());
                // manifest and summary agree with the files
                let m = msets
                    .iter()
                    .find(|s| s["phenomenon"] == p && s["bucket"] == b.as_str())
                    .unwrap();
                assert_eq!(m["sentences"].as_u64().unwrap() as usize, ids.len());
                let row = summary
                    .iter()
                    .find(|l| l.starts_with(&format!("{p},{b},")))
                    .unwrap();
                let cols: Vec<&str> = row.split(',').collect();
                assert_eq!(cols[2].parse::<usize>().unwrap(), ids.len());
                assert_eq!(
                    cols[3].parse::<u64>().unwrap(),
                    m["pairs"].as_u64().unwrap()
                );
                assert!(m["pairs"].as_u64().unwrap() >= ids.len() as u64);
            }
        }
    }
    // The trees in a set are the corpus trees: the 3rd tree of particle/ge3 is
    // corpus tree 78 ("... und lehnen jegliche neue Gesetzgebung ab.").
    let trees = std::fs::read_to_string(out.join("particle/ge3.conllu")).unwrap();
    let third = trees.split("\n\n").nth(2).unwrap();
    let original = std::fs::read_to_string(data("ud/de_pud-ud-test.conllu")).unwrap();
    let tree78 = original.split("\n\n").nth(77).unwrap();
    assert_eq!(third.trim_end(), tree78.trim_end());
    assert!(third.contains("\tlehnen\t"));
}

#[test]
fn output_is_deterministic_across_thread_counts_and_reruns() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
    extract_pud("en", &a, &["--threads", "1"]);
    extract_pud("en", &b, &["--threads", "2"]);
    // rerun into the same directory: replaced, not duplicated
    extract_pud("en", &b, &["--threads", "2"]);
    let mut files = vec![];
    for e in walk(&a) {
        let rel = e.strip_prefix(&a).unwrap().to_path_buf();
        files.push(rel);
    }
    assert!(files.len() > 30);
    assert_eq!(walk(&a).len(), walk(&b).len());
    for rel in files {
        let x = std::fs::read(a.join(&rel)).unwrap();
        let y = std::fs::read(b.join(&rel)).unwrap();
        assert!(x == y, "{} differs", rel.display());
    }
    // no staging directories are left beside the output
    let leftovers: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = vec![];
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}
