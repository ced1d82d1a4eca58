//! Reordering LDD sets: hand-made pairs with known answers (external alignments), the
//! built-in aligner on real PUD text, direction invariants, saved models, bad alignments.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::*;

/// A valid CoNLL-U tree of `words` (word 1 is the root, the others attach to it).
fn flat_tree(words: &[&str]) -> String {
    let mut s = String::new();
    for (i, w) in words.iter().enumerate() {
        let (head, rel) = if i == 0 { (0, "root") } else { (1, "dep") };
        s.push_str(&format!(
            "{}\t{w}\t{w}\tX\t_\t_\t{head}\t{rel}\t_\t_\n",
            i + 1
        ));
    }
    s.push('\n');
    s
}

struct Toy {
    dir: tempfile::TempDir,
}

impl Toy {
    /// Three pairs: monotone (8 words), reversed (8 words), and one whose only long link
    /// is on punctuation/numbers.
    fn new() -> Toy {
        let dir = tempfile::tempdir().unwrap();
        let src = ["a b c d e f g h", "a b c d e f g h", "x 1 2 3 4 5 6 ."];
        let tgt = ["A B C D E F G H", "H G F E D C B A", ". 6 5 4 3 2 1 X"];
        std::fs::write(dir.path().join("c.src"), src.join("\n") + "\n").unwrap();
        std::fs::write(dir.path().join("c.tgt"), tgt.join("\n") + "\n").unwrap();
        let trees: String = src
            .iter()
            .map(|l| flat_tree(&l.split(' ').collect::<Vec<_>>()))
            .collect();
        std::fs::write(dir.path().join("c.conllu"), trees).unwrap();
        Toy { dir }
    }
    fn p(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    fn extract(&self, alignments: &str, out: &str) -> std::process::Output {
        let a = self.p("c.align");
        std::fs::write(&a, alignments).unwrap();
        run(&[
            "extract",
            "--src",
            self.p("c.src").to_str().unwrap(),
            "--tgt",
            self.p("c.tgt").to_str().unwrap(),
            "--src-lang",
            "xx",
            "--tgt-lang",
            "yy",
            "--conllu",
            self.p("c.conllu").to_str().unwrap(),
            "--alignments",
            a.to_str().unwrap(),
            "--pretokenized",
            "--controls",
            "0",
            "-q",
            "--out",
            self.p(out).to_str().unwrap(),
        ])
    }
}

#[test]
fn hand_made_pairs_with_known_answers() {
    let t = Toy::new();
    let mono = "0-0 1-1 2-2 3-3 4-4 5-5 6-6 7-7";
    let rev = "0-7 1-6 2-5 3-4 4-3 5-2 6-1 7-0";
    // Pair 3 links x↔X (0-7, letters, distance 7) and numbers/punctuation (1-6, 2-5, 7-0).
    let third = "0-7 1-6 2-5 7-0";
    let o = t.extract(&format!("{mono}\n{rev}\n{third}\n"), "o");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = t.p("o");
    // The monotone pair has max distance 0 and is in no set; the reversed pair has max
    // distance 7 (a↔A at 0-7): in ge5, not in ge10. Pair 3's letter link x(0)↔X(7) is 7.
    assert_eq!(ids(&out.join("reorder"), "ge5"), BTreeSet::from([2, 3]));
    assert!(ids(&out.join("reorder"), "ge10").is_empty());
    let tsv = lines(&out.join("reorder/max_distance.tsv"));
    assert_eq!(
        tsv[0],
        "id\tdistance\tsrc_index\tsrc_word\ttgt_index\ttgt_word"
    );
    assert_eq!(tsv[1], "1\t0\t0\ta\t0\tA");
    assert_eq!(tsv[2], "2\t7\t0\ta\t7\tA");
    assert_eq!(tsv[3], "3\t7\t0\tx\t7\tX");
    // both words of the pair are marked
    assert_eq!(
        lines(&out.join("reorder/ge5.marked.xx"))[0],
        "<s1>a</s1> b c d e f g h"
    );
    assert_eq!(
        lines(&out.join("reorder/ge5.marked.yy"))[0],
        "H G F E D C B <t1>A</t1>"
    );

    // Links between numbers or punctuation never count: pair 3 without its letter link.
    let o = t.extract(&format!("{mono}\n{rev}\n1-6 2-5 7-0\n"), "o2");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(ids(&t.p("o2").join("reorder"), "ge5"), BTreeSet::from([2]));
}

#[test]
fn bad_external_alignments_are_rejected_with_file_and_line() {
    let t = Toy::new();
    let o = t.extract("0-0\n0-0\n", "o");
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let a = t.p("c.align");
    assert!(
        stderr(&o).contains(&a.display().to_string()),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("expected 3 alignment lines, found 2"),
        "{}",
        stderr(&o)
    );
    assert!(absent_or_empty(&t.p("o")));
    // index beyond the sentence (8 source words: 0..7)
    let o = t.extract("0-0\n0-0 8-1\n0-0\n", "o");
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("{}:2:", a.display())),
        "{}",
        stderr(&o)
    );
    let o = t.extract("0-0\nzero-one\n0-0\n", "o");
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("{}:2:", a.display())),
        "{}",
        stderr(&o)
    );
    assert!(absent_or_empty(&t.p("o")));
}

/// Reorder sets of a PUD run with the built-in aligner (trained on PUD plus the books
/// sample) in `dir`.
fn pud_reorder(out: &Path, extra: &[&str]) {
    let books = data("parallel/books-sample.de-en");
    let mut args = vec!["--controls", "0", "--align-train", books.to_str().unwrap()];
    args.extend_from_slice(extra);
    extract_pud("de", out, &args);
}

fn max_distances(out: &Path) -> Vec<(u64, u64)> {
    lines(&out.join("reorder/max_distance.tsv"))[1..]
        .iter()
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            (c[0].parse().unwrap(), c[1].parse().unwrap())
        })
        .collect()
}

#[test]
fn builtin_aligner_on_pud_directions_and_saved_models() {
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("aligner");
    let inter = tmp.path().join("inter");
    pud_reorder(&inter, &["--save-align-model", model.to_str().unwrap()]);
    let corpus_src = lines(&data("parallel/pud.de-en.de"));
    let corpus_tgt = lines(&data("parallel/pud.de-en.en"));
    let r = inter.join("reorder");
    let (g5, g10, g15, g20) = (
        ids(&r, "ge5"),
        ids(&r, "ge10"),
        ids(&r, "ge15"),
        ids(&r, "ge20"),
    );
    assert!(g10.is_subset(&g5) && g15.is_subset(&g10) && g20.is_subset(&g15));
    // German verb-final clauses: many PUD pairs have a link at distance >= 5, fewer >= 10.
    assert!(g5.len() > 150 && g5.len() < 700, "{}", g5.len());
    assert!(g10.len() < g5.len() / 2, "{} {}", g10.len(), g5.len());
    // each set line equals the corpus line its id names; the distances agree with the tsv
    let dist: std::collections::BTreeMap<u64, u64> = max_distances(&inter).into_iter().collect();
    for (b, k) in [("ge5", 5), ("ge10", 10)] {
        let src = lines(&r.join(format!("{b}.de")));
        let tgt = lines(&r.join(format!("{b}.en")));
        let set = ids(&r, b);
        assert_eq!(src.len(), set.len());
        for (row, id) in set.iter().enumerate() {
            assert_eq!(src[row], corpus_src[*id as usize - 1]);
            assert_eq!(tgt[row], corpus_tgt[*id as usize - 1]);
            assert!(dist[id] >= k);
        }
        let expect: BTreeSet<u64> = dist
            .iter()
            .filter(|(_, d)| **d >= k)
            .map(|(i, _)| *i)
            .collect();
        assert_eq!(set, expect);
    }
    // alignments.txt has one line per corpus line
    assert_eq!(lines(&r.join("alignments.txt")).len(), 1000);
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(inter.join("manifest.json")).unwrap())
            .unwrap();
    assert_eq!(m["reorder"]["options"]["direction"], "intersection");
    assert_eq!(m["reorder"]["trained_pairs"], 28_030 + 1000);
    assert!(m["sets"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["kind"] == "reorder" && s["bucket"] == "ge5"));

    // A saved model round-trips: loading it gives the same alignments, without training.
    let loaded = tmp.path().join("loaded");
    extract_pud(
        "de",
        &loaded,
        &["--controls", "0", "--align-model", model.to_str().unwrap()],
    );
    assert_eq!(
        std::fs::read(loaded.join("reorder/alignments.txt")).unwrap(),
        std::fs::read(r.join("alignments.txt")).unwrap()
    );

    // The intersection's links are links of each directional model, and the union's
    // include both: per line, max distance(intersection) <= forward, reverse <= union.
    let mut per = std::collections::BTreeMap::new();
    for d in ["forward", "reverse", "union"] {
        let o = tmp.path().join(d);
        extract_pud(
            "de",
            &o,
            &[
                "--controls",
                "0",
                "--align-model",
                model.to_str().unwrap(),
                "--align-direction",
                d,
            ],
        );
        per.insert(
            d,
            max_distances(&o)
                .into_iter()
                .collect::<std::collections::BTreeMap<_, _>>(),
        );
    }
    for (id, d) in &dist {
        for dir in ["forward", "reverse"] {
            let other = per[dir].get(id).copied().unwrap_or(0);
            assert!(*d <= other, "line {id}: intersection {d} > {dir} {other}");
            assert!(other <= per["union"][id], "line {id}: {dir} > union");
        }
    }
}

/// `(metric, phenomenon, bucket, score)` of the set rows of `scores.csv` (one system).
fn score_rows(out: &Path) -> Vec<(String, String, String, f64)> {
    let csv = lines(&out.join("scores.csv"));
    assert!(csv[0].starts_with(
        "system,metric,scope,kind,phenomenon,bucket,min_distance,exact,sentences,score,"
    ));
    csv[1..]
        .iter()
        .filter(|l| l.split(',').nth(2) == Some("set"))
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            (
                c[1].to_string(),
                c[4].to_string(),
                c[5].to_string(),
                c[9].parse().unwrap_or(f64::NAN),
            )
        })
        .collect()
}

#[test]
fn reorder_sets_are_scored_with_ribes() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    extract_pud("de", &out, &["--controls", "2", "--phenomena", "particle"]);
    let reference = data("parallel/pud.de-en.en");
    run_ok(&[
        "score",
        "--sets",
        out.to_str().unwrap(),
        "--hyp",
        reference.to_str().unwrap(),
        "-q",
    ]);
    let rows = score_rows(&out);
    let ribes: Vec<_> = rows
        .iter()
        .filter(|r| r.0 == "ribes" && r.1 == "reorder")
        .collect();
    assert_eq!(ribes.len(), 4, "RIBES for reorder ge5, ge10, ge15, ge20");
    assert!(
        ribes.iter().all(|r| (r.3 - 100.0).abs() < 1e-9),
        "{ribes:?}"
    );
    assert!(
        !rows.iter().any(|r| r.0 == "ribes" && r.1 == "particle"),
        "RIBES only for reorder sets"
    );
    // A word-reversed hypothesis keeps every unigram but ruins the order: RIBES (and
    // BLEU) fall far below the reference's 100.
    let rev: String = std::fs::read_to_string(&reference)
        .unwrap()
        .lines()
        .map(|l| l.split(' ').rev().collect::<Vec<_>>().join(" ") + "\n")
        .collect();
    let hyp = tmp.path().join("reversed.en");
    std::fs::write(&hyp, rev).unwrap();
    run_ok(&[
        "score",
        "--sets",
        out.to_str().unwrap(),
        "--hyp",
        hyp.to_str().unwrap(),
        "-q",
    ]);
    let rows = score_rows(&out);
    let ge5 = rows
        .iter()
        .find(|r| r.0 == "ribes" && r.1 == "reorder" && r.2 == "ge5")
        .unwrap();
    assert!(
        ge5.3 < 30.0,
        "RIBES of reversed output on reorder/ge5: {}",
        ge5.3
    );
}

fn read_gz_lines(p: &Path) -> Vec<String> {
    ldd_io::read_lines(p).unwrap_or_else(|e| panic!("{e}"))
}

/// Link-level F1 of two Pharaoh files' lines.
fn f1(reference: &[String], hyp: &[String]) -> f64 {
    assert_eq!(reference.len(), hyp.len());
    let (mut both, mut r, mut h) = (0usize, 0usize, 0usize);
    for (a, b) in reference.iter().zip(hyp) {
        let a: BTreeSet<&str> = a.split_whitespace().collect();
        let b: BTreeSet<&str> = b.split_whitespace().collect();
        both += a.intersection(&b).count();
        r += a.len();
        h += b.len();
    }
    2.0 * both as f64 / (r + h) as f64
}

/// `ldd-sets align` on the fast_align reference input (31,030 pairs) agrees with the C++
/// fast_align output (`-d -o -v`, 5 iterations) at F1 >= 0.95 in all three settings.
#[test]
fn align_subcommand_agrees_with_fast_align() {
    let refdir = data("reference/fast_align");
    let pairs = read_gz_lines(&refdir.join("books-news.de-en.fa.gz"));
    assert_eq!(pairs.len(), 31_030);
    let tmp = tempfile::tempdir().unwrap();
    let (de, en): (Vec<&str>, Vec<&str>) = pairs
        .iter()
        .map(|l| l.split_once(" ||| ").expect("a ||| separator"))
        .unzip();
    let (src, tgt) = (tmp.path().join("c.de"), tmp.path().join("c.en"));
    std::fs::write(&src, de.join("\n") + "\n").unwrap();
    std::fs::write(&tgt, en.join("\n") + "\n").unwrap();
    let model = tmp.path().join("m");
    let align = |direction: &str, extra: &[&str]| {
        let out = tmp.path().join(format!("{direction}.align"));
        let mut args = vec![
            "align",
            "--src",
            src.to_str().unwrap(),
            "--tgt",
            tgt.to_str().unwrap(),
            "--pretokenized",
            "--align-direction",
            direction,
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        run_ok(&args);
        lines(&out)
    };
    let gdfa = align(
        "grow-diag-final-and",
        &["--save-align-model", model.to_str().unwrap()],
    );
    let fwd = align("forward", &["--align-model", model.to_str().unwrap()]);
    let rev = align("reverse", &["--align-model", model.to_str().unwrap()]);
    for (name, ours) in [("fwd", &fwd), ("rev", &rev), ("gdfa", &gdfa)] {
        let reference = read_gz_lines(&refdir.join(format!("books-news.de-en.{name}.align.gz")));
        let f = f1(&reference, ours);
        assert!(f >= 0.95, "{name}: F1 {f:.4}");
    }
}

/// `align --conllu` aligns exactly the source tokens `extract` uses (the UD words of the
/// parse): its output fed to `extract --alignments` gives byte-identical reordering sets
/// (and controls) to `extract`'s own alignment with the same (default) settings. Without
/// --conllu, `align` tokenizes the raw line, and its indices would not match the parse.
#[test]
fn align_with_conllu_feeds_extract_the_same_reorder_sets() {
    let tmp = tempfile::tempdir().unwrap();
    let own = tmp.path().join("own");
    extract_pud("de", &own, &[]);
    let al = tmp.path().join("pud.align");
    let conllu = data("ud/de_pud-ud-test.conllu");
    let (src, tgt) = (data("parallel/pud.de-en.de"), data("parallel/pud.de-en.en"));
    let mut args = vec![
        "align",
        "--src",
        src.to_str().unwrap(),
        "--tgt",
        tgt.to_str().unwrap(),
        "--src-lang",
        "de",
        "--tgt-lang",
        "en",
        "--out",
        al.to_str().unwrap(),
        "--quiet",
    ];
    let mut with_parse = args.clone();
    with_parse.extend(["--conllu", conllu.to_str().unwrap()]);
    run_ok(&with_parse);
    assert_eq!(lines(&al), lines(&own.join("reorder/alignments.txt")));

    let fed = tmp.path().join("fed");
    extract_pud("de", &fed, &["--alignments", al.to_str().unwrap()]);
    let files = |d: &Path| -> Vec<(String, Vec<u8>)> {
        let mut v = Vec::new();
        for dir in [d.join("reorder"), d.join("reorder/controls")] {
            for e in std::fs::read_dir(&dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_file() {
                    let rel = p.strip_prefix(d).unwrap().display().to_string();
                    v.push((rel, std::fs::read(&p).unwrap()));
                }
            }
        }
        v.sort();
        v
    };
    let (a, b) = (files(&own), files(&fed));
    assert!(a.len() > 40, "{} reorder files", a.len());
    assert_eq!(
        a.iter().map(|x| &x.0).collect::<Vec<_>>(),
        b.iter().map(|x| &x.0).collect::<Vec<_>>()
    );
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        assert!(x == y, "{name} differs");
    }

    // The raw-text tokenization gives other token indices on many lines (German `am` is
    // one token but two UD words, `an dem`).
    let raw = tmp.path().join("raw.align");
    args[10] = raw.to_str().unwrap();
    run_ok(&args);
    let differing = lines(&raw)
        .iter()
        .zip(lines(&al))
        .filter(|(r, p)| *r != p)
        .count();
    assert!(differing > 100, "{differing} lines differ");
}
