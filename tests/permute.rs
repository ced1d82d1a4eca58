//! `permute` on the shared corpora: the pairs kept are exactly those whose source has N
//! tokens, the splits partition them, σ and the reversal are applied exactly (σ's inverse
//! restores REGULAR), the method's σ is the paper's, the same seed gives the same bytes,
//! and bad requests are refused, leaving nothing.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use common::*;

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn permute(src: &Path, tgt: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    Ldd::cmd("permute")
        .path("--src", src)
        .path("--tgt", tgt)
        .args(&["--src-lang", "de", "--tgt-lang", "en", "-q"])
        .args(extra)
        .path("--out", out)
        .run()
}

/// The checks every output must pass, against the corpus read here.
fn check(out: &Path, src: &[String], tgt: &[String], n: usize, test: usize, dev: usize) {
    let sigma: Vec<usize> = read(&out.join("permutation.txt"))
        .split_whitespace()
        .map(|p| p.parse().unwrap())
        .collect();
    assert_eq!(sigma.len(), n);
    assert_eq!(
        sigma.iter().copied().collect::<BTreeSet<_>>(),
        (0..n).collect::<BTreeSet<_>>()
    );
    // Kept: the lines whose source has n whitespace tokens and whose target is not empty.
    let want: BTreeSet<u64> = src
        .iter()
        .zip(tgt)
        .enumerate()
        .filter(|(_, (s, t))| s.split_whitespace().count() == n && !t.trim().is_empty())
        .map(|(i, _)| i as u64 + 1)
        .collect();
    let mut seen = BTreeSet::new();
    let mut sizes = BTreeMap::new();
    for split in ["train", "dev", "test"] {
        let ids: Vec<u64> = read(&out.join(format!("{split}.ids")))
            .lines()
            .map(|l| l.parse().unwrap())
            .collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "{split}: corpus order");
        for id in &ids {
            assert!(seen.insert(*id), "{id} in two splits");
        }
        sizes.insert(split, ids.len());
        let side = |setting: &str, lang: &str| -> Vec<String> {
            read(&out.join(format!("{setting}/{split}.{lang}")))
                .lines()
                .map(String::from)
                .collect()
        };
        let (regular, permuted, reversed) = (
            side("regular", "de"),
            side("permuted", "de"),
            side("reversed", "de"),
        );
        for setting in ["regular", "permuted", "reversed"] {
            // The target side is the corpus's, the same in every setting.
            let t = side(setting, "en");
            assert_eq!(t.len(), ids.len());
            for (id, line) in ids.iter().zip(&t) {
                assert_eq!(line, &tgt[*id as usize - 1]);
            }
        }
        for (k, id) in ids.iter().enumerate() {
            let orig: Vec<&str> = src[*id as usize - 1].split_whitespace().collect();
            let r: Vec<&str> = regular[k].split(' ').collect();
            let p: Vec<&str> = permuted[k].split(' ').collect();
            let v: Vec<&str> = reversed[k].split(' ').collect();
            assert_eq!(r, orig);
            assert_eq!((p.len(), v.len()), (n, n));
            // σ moves the token at i to σ[i]; its inverse restores the order.
            for i in 0..n {
                assert_eq!(p[sigma[i]], r[i]);
            }
            let mut inverse = vec![0; n];
            for (i, &s) in sigma.iter().enumerate() {
                inverse[s] = i;
            }
            let restored: Vec<&str> = (0..n).map(|i| p[sigma[i]]).collect();
            assert_eq!(restored, r);
            assert_eq!((0..n).map(|j| p[j]).collect::<Vec<_>>(), {
                let mut x = vec![""; n];
                for j in 0..n {
                    x[j] = r[inverse[j]];
                }
                x
            });
            let back: Vec<&str> = v.iter().rev().copied().collect();
            assert_eq!(back, r);
        }
    }
    assert_eq!(seen, want, "the kept pairs are the pairs of length {n}");
    assert_eq!((sizes["test"], sizes["dev"]), (test, dev));
    let rec: serde_json::Value = serde_json::from_str(&read(&out.join("permute.json"))).unwrap();
    assert_eq!(rec["pairs"].as_u64(), Some(want.len() as u64));
    assert_eq!(rec["splits"]["train"].as_u64(), Some(sizes["train"] as u64));
    assert_eq!(rec["length"].as_u64(), Some(n as u64));
    assert_eq!(
        rec["permutation"].as_array().unwrap().len(),
        n,
        "the record holds σ"
    );
    for (k, s) in sigma.iter().enumerate() {
        assert_eq!(rec["permutation"][k].as_u64(), Some(*s as u64));
    }
    assert_eq!(rec["source"]["lines"].as_u64(), Some(src.len() as u64));
}

#[test]
fn permute_keeps_length_n_and_applies_sigma_exactly() {
    let t = tempfile::tempdir().unwrap();
    let (src, tgt) = (
        data("parallel/newstest2013.de-en.de"),
        data("parallel/newstest2013.de-en.en"),
    );
    let (s, g) = (lines(&src), lines(&tgt));
    let a = t.path().join("a");
    let o = permute(&src, &tgt, &a, &["--test", "20", "--dev", "15"]);
    assert!(o.status.success(), "{}", stderr(&o));
    check(&a, &s, &g, 18, 20, 15);
    // By hand: newstest2013 has 104 source lines of 18 tokens, all with a target.
    let rec: serde_json::Value = serde_json::from_str(&read(&a.join("permute.json"))).unwrap();
    assert_eq!(rec["pairs"], 104);
    assert_eq!(rec["permutation_from"], "seed");
    assert_eq!(
        rec["source"]["sha256"].as_str().unwrap(),
        ldd_io::sha256_file(&src).unwrap().0
    );

    // The same seed: the same bytes; another seed: another σ and another test split.
    let b = t.path().join("b");
    assert!(permute(&src, &tgt, &b, &["--test", "20", "--dev", "15"])
        .status
        .success());
    let (ta, tb) = (snapshot(&a), snapshot(&b));
    assert_eq!(ta.keys().collect::<Vec<_>>(), tb.keys().collect::<Vec<_>>());
    for (k, v) in &ta {
        if k != Path::new("permute.json") {
            assert_eq!(v, &tb[k], "{k:?}");
        }
    }
    let c = t.path().join("c");
    let o = permute(
        &src,
        &tgt,
        &c,
        &["--test", "20", "--dev", "15", "--seed", "2"],
    );
    assert!(o.status.success());
    check(&c, &s, &g, 18, 20, 15);
    let tc = snapshot(&c);
    for f in ["permutation.txt", "test.ids"] {
        assert_ne!(ta[Path::new(f)], tc[Path::new(f)], "{f}");
    }

    // The method's σ, by hand: the first token moves to position 11, the last to 7.
    let p = t.path().join("paper");
    let o = permute(
        &src,
        &tgt,
        &p,
        &["--permutation", "paper", "--test", "20", "--dev", "0"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        read(&p.join("permutation.txt")),
        "11 5 9 15 8 14 10 1 3 16 12 2 0 6 17 4 13 7\n"
    );
    check(&p, &s, &g, 18, 20, 0);
    let first = |setting: &str| -> Vec<String> {
        read(&p.join(format!("{setting}/test.de")))
            .lines()
            .next()
            .unwrap()
            .split(' ')
            .map(String::from)
            .collect()
    };
    let (r, m) = (first("regular"), first("permuted"));
    assert_eq!((&m[11], &m[7]), (&r[0], &r[17]));

    // A given σ, and a rerun replacing the output as a whole.
    let given = "3,2,1,0,4,5,6,7,8,9,10,11,12,13,14,15,16,17";
    let o = permute(
        &src,
        &tgt,
        &p,
        &["--permutation", given, "--test", "10", "--dev", "10"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    check(&p, &s, &g, 18, 10, 10);
    assert!(read(&p.join("permutation.txt")).starts_with("3 2 1 0 4 "));
}

#[test]
fn permute_reads_gzip_and_other_lengths() {
    let t = tempfile::tempdir().unwrap();
    let (src, tgt) = (
        data("parallel/books-sample.de-en.de.gz"),
        data("parallel/books-sample.de-en.en.gz"),
    );
    let (s, g) = (
        ldd_io::read_lines(&src).unwrap(),
        ldd_io::read_lines(&tgt).unwrap(),
    );
    let out = t.path().join("books");
    let o = permute(
        &src,
        &tgt,
        &out,
        &["--length", "12", "--test", "300", "--dev", "300"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    check(&out, &s, &g, 12, 300, 300);
}

#[test]
fn bad_requests_are_refused_and_leave_nothing() {
    let t = tempfile::tempdir().unwrap();
    let (src, tgt) = (
        data("parallel/newstest2013.de-en.de"),
        data("parallel/newstest2013.de-en.en"),
    );
    let out = t.path().join("out");
    for (extra, code, want) in [
        (vec!["--permutation", "2,0,0"], 4, "not a permutation"),
        (
            vec!["--permutation", "1,0"],
            4,
            "2 positions given, --length is 18",
        ),
        (vec!["--permutation", "a,b"], 4, "`a` is not a position"),
        (
            vec!["--permutation", "paper", "--length", "12"],
            4,
            "of 18 tokens, not --length 12",
        ),
        (vec![], 4, "104 pairs have a source of 18 tokens"),
    ] {
        let o = permute(&src, &tgt, &out, &extra);
        assert_eq!(o.status.code(), Some(code), "{extra:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{extra:?}: {}", stderr(&o));
        assert!(!out.exists(), "{extra:?}");
    }
    // Sides of different lengths: the shorter one is named, with its line.
    let o = permute(
        &src,
        &data("parallel/pud.de-en.en"),
        &out,
        &["--test", "5", "--dev", "5"],
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("pud.de-en.en:1001"), "{}", stderr(&o));
    assert!(!out.exists());
    // A directory permute did not write is not replaced.
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let o = permute(&src, &tgt, &out, &["--test", "5", "--dev", "5"]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert_eq!(read(&out.join("notes.txt")), "mine");
}
