//! Length-matched controls written by `extract` (Choshen & Abend 2019, §4), on the
//! German PUD corpus with its gold trees, and on a 40-line slice of it where the
//! corpus cannot match every length.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::*;

/// Source length (UD words) of every tree of a CoNLL-U file, in order.
fn tree_lengths(conllu: &Path) -> Vec<u32> {
    let text = std::fs::read_to_string(conllu).unwrap();
    let mut out = Vec::new();
    let mut n = 0u32;
    let mut in_tree = false;
    for l in text.lines() {
        if l.trim().is_empty() {
            if in_tree {
                out.push(n);
            }
            n = 0;
            in_tree = false;
            continue;
        }
        in_tree = true;
        let id = l.split('\t').next().unwrap_or("");
        if !l.starts_with('#') && id.parse::<u32>().is_ok() {
            n += 1;
        }
    }
    if in_tree {
        out.push(n);
    }
    out
}

fn manifest(out: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap()
}

fn id_list(p: &Path) -> Vec<u64> {
    lines(p).iter().map(|l| l.parse().expect("an id")).collect()
}

/// The `subject` rule (nsubj dependents) gives big sets on PUD, plus the defaults.
fn rules(dir: &Path) -> PathBuf {
    let p = dir.join("rules.toml");
    std::fs::write(
        &p,
        "[buckets]\nmax = 8\n\n[[phenomenon]]\nname = \"subject\"\n[phenomenon.dependent]\n\
         deprel = [\"nsubj\"]\n\n[[phenomenon]]\nname = \"particle\"\n[phenomenon.dependent]\n\
         deprel = [\"compound:prt\"]\n",
    )
    .unwrap();
    p
}

/// Checks every written control of `out` against its set; returns the number checked.
/// Size of the largest ±1 matching between two multisets of lengths: `a` ascending, each
/// takes the shortest unused `b` within its window.
fn max_matching(a: &[u32], b: &[u32]) -> usize {
    let mut avail: std::collections::BTreeMap<u32, usize> = std::collections::BTreeMap::new();
    for &l in b {
        *avail.entry(l).or_default() += 1;
    }
    let mut a = a.to_vec();
    a.sort_unstable();
    let mut n = 0;
    for l in a {
        let hit = avail
            .range(l.saturating_sub(1)..=l + 1)
            .find(|(_, &c)| c > 0)
            .map(|(&k, _)| k);
        if let Some(k) = hit {
            *avail.get_mut(&k).unwrap() -= 1;
            n += 1;
        }
    }
    n
}

fn check_controls(out: &Path, lengths: &[u32], include_set: bool) -> (usize, usize) {
    let m = manifest(out);
    let src = lines(&data("parallel/pud.de-en.de"));
    let tgt = lines(&data("parallel/pud.de-en.en"));
    let mut checked = 0;
    let mut set_members_drawn = 0;
    let controls = m["controls"].as_array().unwrap();
    assert_eq!(
        controls.len(),
        m["sets"].as_array().unwrap().len(),
        "every set is recorded"
    );
    for c in controls {
        let (p, b) = (
            c["phenomenon"].as_str().unwrap(),
            c["bucket"].as_str().unwrap(),
        );
        let set_ids = id_list(&out.join(format!("{p}/{b}.ids")));
        assert_eq!(c["sentences"].as_u64().unwrap() as usize, set_ids.len());
        assert_eq!(c["include_set"].as_bool(), Some(include_set));
        assert_eq!(c["tolerance"], 1);
        let status = c["status"].as_str().unwrap();
        if set_ids.is_empty() {
            assert_eq!(status, "empty_set");
            continue;
        }
        if status == "pool_too_small" {
            // Only when the set is larger than the lines outside it.
            assert!(
                !include_set && set_ids.len() > 1000 - set_ids.len(),
                "{p}/{b}"
            );
            assert!(c["note"].as_str().unwrap().contains("eligible"));
            assert!(!out.join(format!("{p}/controls/{b}.1.ids")).exists());
            assert!(c.get("files").is_none(), "{p}/{b}: no files recorded");
            continue;
        }
        assert_eq!(status, "written", "{p}/{b}");
        assert_eq!(c["count"].as_u64(), Some(4));
        // Big `subject` sets exhaust some lengths (recorded as shortfalls); the small
        // particle sets never do.
        let exact = c["shortfall_total"] == 0;
        if p == "particle" {
            assert!(exact, "{p}/{b}: PUD matches every particle length");
        }
        let set: BTreeSet<u64> = set_ids.iter().copied().collect();
        let mut set_lens: Vec<u32> = set_ids.iter().map(|&i| lengths[i as usize - 1]).collect();
        set_lens.sort_unstable();
        // The manifest records each control's files, named as documented.
        let files = c["files"].as_array().unwrap();
        assert_eq!(files.len(), 4, "{p}/{b}");
        for k in 1..=4 {
            let base = format!("{p}/controls/{b}.{k}");
            let f = &files[k - 1];
            for (key, ext) in [("ids", "ids"), ("source", "de"), ("target", "en")] {
                assert_eq!(f[key].as_str(), Some(format!("{base}.{ext}").as_str()));
            }
            let ids = id_list(&out.join(format!("{base}.ids")));
            assert_eq!(ids.len(), set_ids.len(), "{base}: same size as the set");
            assert!(
                ids.windows(2).all(|w| w[0] < w[1]),
                "{base}: ascending, no repeats"
            );
            set_members_drawn += ids.iter().filter(|i| set.contains(i)).count();
            // Lines are the corpus lines at those ids, in id order.
            let s = lines(&out.join(format!("{base}.de")));
            let t = lines(&out.join(format!("{base}.en")));
            assert_eq!(s.len(), ids.len());
            for ((id, s), t) in ids.iter().zip(&s).zip(&t) {
                assert_eq!(s, &src[*id as usize - 1]);
                assert_eq!(t, &tgt[*id as usize - 1]);
            }
            // A partner within 1 word for every set sentence, except the draws recorded
            // as this control's shortfalls: the largest ±1 matching between the set's and
            // the control's lengths (ascending greedy, optimal for equal windows) leaves
            // at most that many out.
            let lens: Vec<u32> = ids.iter().map(|&i| lengths[i as usize - 1]).collect();
            let off = set_lens.len() - max_matching(&set_lens, &lens);
            let short: u64 = c["shortfalls"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|x| x["control"] == k)
                .map(|x| x["count"].as_u64().unwrap())
                .sum();
            if exact {
                assert_eq!(off, 0, "{base}: {set_lens:?} vs {lens:?}");
            } else {
                assert!(off as u64 <= short, "{base}: {off} > {short}");
            }
            assert!(lens.iter().all(|&l| l > 0));
            checked += 1;
        }
    }
    (checked, set_members_drawn)
}

#[test]
fn controls_match_size_and_length_and_exclude_the_set() {
    let tmp = tempfile::tempdir().unwrap();
    let lengths = tree_lengths(&data("ud/de_pud-ud-test.conllu"));
    assert_eq!(lengths.len(), 1000);
    let r = rules(tmp.path());
    let out = tmp.path().join("o");
    extract_pud(
        "de",
        &out,
        &["--rules", r.to_str().unwrap(), "--controls", "4"],
    );
    let (checked, drawn) = check_controls(&out, &lengths, false);
    assert!(checked >= 60, "only {checked} controls checked");
    assert_eq!(drawn, 0, "no control contains a sentence of its own set");
    // The manifest's histograms agree with the files.
    let m = manifest(&out);
    let c = &m["controls"][0];
    assert_eq!(c["phenomenon"], "subject");
    let hist = |ids: &[u64]| {
        let mut h = std::collections::BTreeMap::new();
        for &i in ids {
            *h.entry(lengths[i as usize - 1]).or_insert(0) += 1;
        }
        h.iter()
            .map(|(l, n)| format!("{l}:{n}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let p = c["phenomenon"].as_str().unwrap();
    let b = c["bucket"].as_str().unwrap();
    assert_eq!(
        c["set_lengths"],
        hist(&id_list(&out.join(format!("{p}/{b}.ids"))))
    );
    if c["status"] == "written" {
        assert_eq!(
            c["control_lengths"][1],
            hist(&id_list(&out.join(format!("{p}/controls/{b}.2.ids"))))
        );
    }
    // subject/ge0 covers most of PUD: no controls without set members, and recorded.
    let ge0 = m["controls"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["phenomenon"] == "subject" && c["bucket"] == "ge0")
        .unwrap();
    assert_eq!(ge0["status"], "pool_too_small");
}

#[test]
fn include_set_lets_set_members_in() {
    let tmp = tempfile::tempdir().unwrap();
    let lengths = tree_lengths(&data("ud/de_pud-ud-test.conllu"));
    let r = rules(tmp.path());
    let out = tmp.path().join("o");
    extract_pud(
        "de",
        &out,
        &[
            "--rules",
            r.to_str().unwrap(),
            "--controls",
            "4",
            "--controls-include-set",
        ],
    );
    let (checked, drawn) = check_controls(&out, &lengths, true);
    assert!(checked >= 60);
    assert!(
        drawn > 0,
        "with --controls-include-set some set sentences are drawn"
    );
    // No set is too big for its pool now.
    let m = manifest(&out);
    assert!(m["controls"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["status"] != "pool_too_small"));
}

#[test]
fn same_seed_same_bytes_any_threads_other_seed_differs() {
    let tmp = tempfile::tempdir().unwrap();
    let r = rules(tmp.path());
    let r = r.to_str().unwrap();
    let run = |name: &str, extra: &[&str]| {
        let out = tmp.path().join(name);
        let mut args = vec!["--rules", r, "--controls", "3", "--seed", "7"];
        args.extend_from_slice(extra);
        extract_pud("de", &out, &args);
        out
    };
    let a = run("a", &["--threads", "1"]);
    let b = run("b", &["--threads", "2"]);
    let sa = snapshot(&a);
    assert!(sa.keys().any(|p| p.ends_with("particle/controls/ge1.3.de")));
    assert_eq!(
        sa,
        snapshot(&b),
        "same seed: byte-identical output for 1 and 2 threads"
    );
    let c = {
        let out = tmp.path().join("c");
        extract_pud(
            "de",
            &out,
            &["--rules", r, "--controls", "3", "--seed", "8"],
        );
        out
    };
    let ids = |o: &Path| lines(&o.join("particle/controls/ge1.1.ids"));
    assert_ne!(ids(&a), ids(&c), "another seed draws other controls");
    let m = manifest(&c);
    assert_eq!(m["controls"][0]["seed"], 8);
}

#[test]
fn unmatched_lengths_are_reported_not_hung_on() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    // The first 40 lines of PUD: too few sentences of some lengths.
    let take = |rel: &str| lines(&data(rel))[..40].join("\n") + "\n";
    std::fs::write(d.join("t.de"), take("parallel/pud.de-en.de")).unwrap();
    std::fs::write(d.join("t.en"), take("parallel/pud.de-en.en")).unwrap();
    let trees = std::fs::read_to_string(data("ud/de_pud-ud-test.conllu")).unwrap();
    let blocks: Vec<&str> = trees.split("\n\n").take(40).collect();
    std::fs::write(d.join("t.conllu"), blocks.join("\n\n") + "\n\n").unwrap();
    let lengths = tree_lengths(&d.join("t.conllu"));
    assert_eq!(lengths.len(), 40);
    std::fs::write(
        d.join("r.toml"),
        "[buckets]\nmax = 12\n[[phenomenon]]\nname = \"subject\"\n[phenomenon.dependent]\ndeprel = [\"nsubj\"]\n",
    )
    .unwrap();
    let out = d.join("o");
    let p = |f: &str| d.join(f).to_str().unwrap().to_string();
    let start = std::time::Instant::now();
    run_ok(&[
        "extract",
        "--src",
        &p("t.de"),
        "--tgt",
        &p("t.en"),
        "--src-lang",
        "de",
        "--tgt-lang",
        "en",
        "--conllu",
        &p("t.conllu"),
        "--rules",
        &p("r.toml"),
        "--out",
        &p("o"),
        "-q",
    ]);
    assert!(start.elapsed().as_secs() < 60);
    let m = manifest(&out);
    let cs = m["controls"].as_array().unwrap();
    let status = |s: &str| cs.iter().filter(|c| c["status"] == s).count();
    assert!(
        status("pool_too_small") > 0,
        "big sets of a tiny corpus are recorded"
    );
    assert!(status("empty_set") > 0);
    let short: Vec<&serde_json::Value> = cs
        .iter()
        .filter(|c| c["shortfall_total"].as_u64().unwrap() > 0)
        .collect();
    assert!(
        !short.is_empty(),
        "some length could not be matched within 1 word"
    );
    for c in short {
        let (ph, b) = (
            c["phenomenon"].as_str().unwrap(),
            c["bucket"].as_str().unwrap(),
        );
        let n = c["sentences"].as_u64().unwrap() as usize;
        let entries = c["shortfalls"].as_array().unwrap();
        let total: u64 = entries.iter().map(|e| e["count"].as_u64().unwrap()).sum();
        assert_eq!(total, c["shortfall_total"].as_u64().unwrap());
        for e in entries {
            // The nearest available length was used instead.
            let used = e["lengths_used"].as_str().unwrap();
            let sl = e["set_length"].as_u64().unwrap() as u32;
            for part in used.split(' ') {
                let l: u32 = part.split(':').next().unwrap().parse().unwrap();
                assert!(l.abs_diff(sl) > 1, "{ph}/{b}: {used} for {sl}");
            }
        }
        // Still full size.
        for k in 1..=c["count"].as_u64().unwrap() {
            let ids = id_list(&out.join(format!("{ph}/controls/{b}.{k}.ids")));
            assert_eq!(ids.len(), n);
        }
    }
}
