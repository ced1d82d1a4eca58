//! The locus files (`<set>.locus.tsv`) on the shared PUD with its gold trees, the aligner
//! trained on the shared de-en corpora: hand-checked rows for each phenomenon, and every
//! row of every set checked against the trees, `alignments.txt`, `posteriors.txt` and
//! `reorder.tsv` that the same run wrote.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use common::*;

const HEADER: &str = "id\tlocus\tdistance\tdep\tdep_word\thead\thead_word\t\
ref_dep\tref_dep_words\tref_dep_conf\tref_head\tref_head_words\tref_head_conf";

/// The rows of a locus file, as cells, after checking its header.
fn rows(path: &Path) -> Vec<Vec<String>> {
    let l = lines(path);
    assert_eq!(l[0], HEADER, "{}", path.display());
    l[1..]
        .iter()
        .map(|r| r.split('\t').map(String::from).collect())
        .collect()
}

/// The trees of a set's `.conllu`, in order: word ID -> form.
fn trees(path: &Path) -> Vec<BTreeMap<u32, String>> {
    oracle_trees(path)
        .into_iter()
        .map(|t| {
            t.into_iter()
                .map(|c| (c[0].parse().unwrap(), c[1].clone()))
                .collect()
        })
        .collect()
}

/// A row without its two confidence columns: what is checked by hand.
fn without_conf(r: &[String]) -> String {
    let keep: Vec<&str> = r
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 9 && *i != 12)
        .map(|(_, c)| c.as_str())
        .collect();
    keep.join(" | ")
}

fn pud_aligned(out: &Path, extra: &[&str]) {
    let books = data("parallel/books-sample.de-en");
    let news = data("parallel/newstest2013.de-en");
    let mut args = vec!["--controls", "0", "--quiet"];
    args.extend(["--align-train", books.to_str().unwrap()]);
    args.extend(["--align-train", news.to_str().unwrap()]);
    args.extend_from_slice(extra);
    extract_pud("de", out, &args);
}

#[test]
fn locus_rows_on_pud_are_right_by_hand_and_agree_with_the_run() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("sets");
    pud_aligned(&out, &[]);
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();

    // Hand-checked: the source words are the marked pair; the reference words are the
    // translation of each (or nothing, where the English has no word for it).
    let find = |set: &str, id: &str| -> String {
        let r = rows(&out.join(format!("{set}.locus.tsv")));
        let r = r
            .iter()
            .find(|r| r[0] == id)
            .expect("the line is in the set");
        without_conf(r)
    };
    // "Osborne meldete sich … an" / "Mr Osborne signed up …": the particle is unaligned.
    assert_eq!(
        find("particle/ge5", "26"),
        "26 | 1 | 5 | 8 | an | 2 | meldete |  |  | 3 | signed"
    );
    // "1856 brach der zweite Opiumkrieg aus" / "… War broke out": both words found.
    assert_eq!(
        find("particle/ge3", "626"),
        "626 | 1 | 3 | 6 | aus | 2 | brach | 9 | out | 8 | broke"
    );
    // "… ließ sich … finden" / "they could not find …": English has no reflexive.
    assert_eq!(
        find("reflexive/ge4", "81"),
        "81 | 1 | 4 | 5 | sich | 10 | finden |  |  | 6 | find"
    );
    // Reorder: "Anstatt beispielsweise … erarbeiten" / "Rather than teaching … for
    // example": the crossing pair's two links.
    assert_eq!(
        find("reorder/ge9", "11"),
        "11 | 1 | 10 | 2 | beispielsweise | 12 | erarbeiten | 13 | example | 3 | teaching"
    );

    // Every row of every set, against the files of the same run.
    let alignments = lines(&out.join("reorder/alignments.txt"));
    let posteriors = lines(&out.join("reorder/posteriors.txt"));
    let links = |id: u64| -> Vec<((u32, u32), String)> {
        let a = &alignments[id as usize - 1];
        let p: Vec<&str> = posteriors[id as usize - 1].split_whitespace().collect();
        a.split_whitespace()
            .zip(p)
            .map(|(l, p)| {
                let (i, j) = l.split_once('-').unwrap();
                ((i.parse().unwrap(), j.parse().unwrap()), p.to_string())
            })
            .collect()
    };
    let measures: BTreeMap<u64, Vec<String>> = lines(&out.join("reorder/reorder.tsv"))[1..]
        .iter()
        .map(|l| {
            let c: Vec<String> = l.split('\t').map(String::from).collect();
            (c[0].parse().unwrap(), c)
        })
        .collect();
    let mut checked = 0;
    for set in m["sets"].as_array().unwrap() {
        let f = &set["files"];
        let file = out.join(f["locus"].as_str().expect("every set names its locus file"));
        let rows = rows(&file);
        let ids: Vec<u64> = lines(&out.join(f["ids"].as_str().unwrap()))
            .iter()
            .map(|l| l.parse().unwrap())
            .collect();
        let trees = trees(&out.join(f["conllu"].as_str().unwrap()));
        let tree_of: BTreeMap<u64, &BTreeMap<u32, String>> =
            ids.iter().copied().zip(trees.iter()).collect();
        assert_eq!(
            rows.len() as u64,
            set["pairs"].as_u64().unwrap(),
            "{file:?}"
        );
        let row_ids: BTreeSet<u64> = rows.iter().map(|r| r[0].parse().unwrap()).collect();
        assert_eq!(row_ids, ids.iter().copied().collect(), "{file:?}");
        let reorder = set["kind"] == "reorder";
        let mut last = (0u64, 0u32);
        for r in &rows {
            assert_eq!(r.len(), 13, "{file:?}: {r:?}");
            let id: u64 = r[0].parse().unwrap();
            let n: u32 = r[1].parse().unwrap();
            assert_eq!(
                n,
                if id == last.0 { last.1 + 1 } else { 1 },
                "{file:?}: {r:?}"
            );
            assert!(id >= last.0, "rows in corpus order");
            last = (id, n);
            let (dep, head): (u32, u32) = (r[3].parse().unwrap(), r[5].parse().unwrap());
            let tree = tree_of[&id];
            assert_eq!(tree[&dep], r[4], "{file:?}: {r:?}");
            assert_eq!(tree[&head], r[6], "{file:?}: {r:?}");
            let l = links(id);
            let cells = |k: usize| -> Vec<(u32, String)> {
                let pos: Vec<u32> = r[k]
                    .split_whitespace()
                    .map(|p| p.parse().unwrap())
                    .collect();
                let conf: Vec<String> = r[k + 2].split_whitespace().map(String::from).collect();
                assert_eq!(pos.len(), conf.len(), "{file:?}: {r:?}");
                assert_eq!(pos.len(), r[k + 1].split_whitespace().count(), "{r:?}");
                pos.into_iter().zip(conf).collect()
            };
            if reorder {
                // The marked crossing links, with their confidences.
                let c = &measures[&id];
                assert_eq!(r[2], c[2], "distance = crossing");
                let want = format!(
                    "{}-{} {}-{}",
                    dep - 1,
                    cells(7)[0].0 - 1,
                    head - 1,
                    cells(10)[0].0 - 1
                );
                assert_eq!(c[8], want, "{file:?}: {r:?}");
                for (k, w) in [(7, dep), (10, head)] {
                    let (p, conf) = &cells(k)[0];
                    let link = l.iter().find(|(x, _)| *x == (w - 1, p - 1)).unwrap();
                    assert_eq!(&link.1, conf);
                }
            } else {
                assert_eq!(r[2], (dep.abs_diff(head) - 1).to_string(), "{r:?}");
                // Every token aligned to each word, and only those, with its confidence.
                for (k, w) in [(7, dep), (10, head)] {
                    let want: Vec<(u32, String)> = l
                        .iter()
                        .filter(|((i, _), _)| *i == w - 1)
                        .map(|((_, j), p)| (j + 1, p.clone()))
                        .collect();
                    assert_eq!(cells(k), want, "{file:?}: {r:?}");
                }
            }
            checked += 1;
        }
    }
    // Every pair of every set: 1,233 rows on PUD (the sets overlap: ge0 holds all).
    assert!(checked > 1000, "{checked}");

    // Locus accuracy needs the aligner's saved model: this run saved none.
    let hyp = data("parallel/pud.de-en.en");
    let score = |extra: &[&str]| {
        Ldd::cmd("score")
            .path("--sets", &out)
            .path("--hyp", &hyp)
            .args(extra)
            .path("--out", &t.path().join("scores"))
            .run()
    };
    let o = score(&["--metrics", "locus"]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("records no saved model: give --align-model PREFIX"),
        "{}",
        stderr(&o)
    );
    let missing = t.path().join("nowhere/model");
    let o = score(&[
        "--metrics",
        "locus",
        "--align-model",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("nowhere/model.hmm.ldda does not exist"),
        "{}",
        stderr(&o)
    );
    let o = score(&["--metrics", "bleu,lokus"]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("unknown metric `lokus`; expected some of bleu, chrf, ribes, locus"),
        "{}",
        stderr(&o)
    );
    assert!(absent_or_empty(&t.path().join("scores")));
}

#[test]
fn without_the_aligner_the_locus_has_its_source_words_only() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("sets");
    extract_pud("de", &out, &["--controls", "0", "--no-reorder", "--quiet"]);
    let r = rows(&out.join("particle/ge5.locus.tsv"));
    let row = r.iter().find(|r| r[0] == "26").unwrap();
    assert_eq!(row.join("\t"), "26\t1\t5\t8\tan\t2\tmeldete\t\t\t\t\t\t");
    assert!(r.iter().all(|c| c[7..].iter().all(String::is_empty)));
    // No aligner, no reference words: locus accuracy is refused, saying why.
    let o = Ldd::cmd("score")
        .path("--sets", &out)
        .path("--hyp", &data("parallel/pud.de-en.en"))
        .args(&["--metrics", "locus"])
        .run();
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("--no-reorder"), "{}", stderr(&o));
    // Nor RIBES, which scores reorder sets.
    let o = Ldd::cmd("score")
        .path("--sets", &out)
        .path("--hyp", &data("parallel/pud.de-en.en"))
        .args(&["--metrics", "bleu,ribes"])
        .run();
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("--metrics ribes"), "{}", stderr(&o));
}

/// The locus rows of a set as (id, dep positions in the reference), for building systems.
fn ref_dep_positions(path: &Path) -> BTreeMap<u64, Vec<usize>> {
    let mut out: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
    for r in rows(path) {
        let e = out.entry(r[0].parse().unwrap()).or_default();
        e.extend(r[7].split_whitespace().map(|p| p.parse::<usize>().unwrap()));
    }
    out
}

/// The locus rows of `scores.json` of `metric` for `system`: (phenomenon/bucket) -> row.
fn score_rows(
    scores: &serde_json::Value,
    metric: &str,
    system: &str,
) -> BTreeMap<String, serde_json::Value> {
    scores["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["metric"] == metric && r["system"] == system)
        .map(|r| {
            let key = format!(
                "{}/{}",
                r["phenomenon"].as_str().unwrap(),
                r["bucket"].as_str().unwrap()
            );
            (key, r.clone())
        })
        .collect()
}

#[test]
fn locus_accuracy_judges_the_locus_not_the_sentence() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("sets");
    let model = t.path().join("model");
    pud_aligned(&out, &["--save-align-model", model.to_str().unwrap()]);

    // Three systems made from the reference, tokenized as the aligner tokenizes it:
    // itself; without the tokens aligned to each particle (the dependent of every particle
    // locus); with every line's tokens shuffled, the even-numbered first and then the odd
    // (each word moved half the line away, no two neighbours left together).
    let reference = lines(&data("parallel/pud.de-en.en"));
    let particles = ref_dep_positions(&out.join("particle/ge0.locus.tsv"));
    let (mut same, mut dropped, mut shuffled_lines) = (Vec::new(), Vec::new(), Vec::new());
    for (k, line) in reference.iter().enumerate() {
        let toks = ldd_align::tokenize(line);
        same.push(toks.join(" "));
        let gone = particles.get(&(k as u64 + 1)).cloned().unwrap_or_default();
        let kept: Vec<&str> = toks
            .iter()
            .enumerate()
            .filter(|(i, _)| !gone.contains(&(i + 1)))
            .map(|(_, w)| *w)
            .collect();
        dropped.push(kept.join(" "));
        let evens = toks.iter().step_by(2);
        let odds = toks.iter().skip(1).step_by(2);
        let shuffled: Vec<&str> = evens.chain(odds).copied().collect();
        shuffled_lines.push(shuffled.join(" "));
    }
    let write = |name: &str, l: &[String]| {
        let p = t.path().join(name);
        std::fs::write(&p, l.join("\n") + "\n").unwrap();
        p
    };
    let (a, b, c) = (
        write("ref.en", &same),
        write("noparticle.en", &dropped),
        write("shuffled.en", &shuffled_lines),
    );
    let scored = t.path().join("scores");
    Ldd::cmd("score")
        .path("--sets", &out)
        .path("--hyp", &a)
        .path("--hyp", &b)
        .path("--hyp", &c)
        .args(&["--metrics", "bleu,locus", "--quiet"])
        .path("--out", &scored)
        .ok();
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(scored.join("scores.json")).unwrap())
            .unwrap();
    let (ra, rb, rc) = (
        score_rows(&s, "locus", "ref"),
        score_rows(&s, "locus", "noparticle"),
        score_rows(&s, "locus", "shuffled"),
    );
    let score = |r: &BTreeMap<String, serde_json::Value>, k: &str| r[k]["score"].as_f64().unwrap();
    for (k, row) in &ra {
        if row["loci"].as_u64() > Some(0) {
            assert_eq!(
                row["score"].as_f64(),
                Some(100.0),
                "the reference renders itself: {k}"
            );
        }
    }
    // Dropping the particles' words: the particle sets lose what their particles weighed;
    // the reflexive sets do not move.
    // Exactly the loci whose particle has a reference word become wrong.
    for k in ["particle/ge1", "particle/ge3", "particle/ge5"] {
        let r = rows(&out.join(format!("{k}.locus.tsv")));
        let judged = r
            .iter()
            .filter(|c| !c[7].is_empty() || !c[10].is_empty())
            .count();
        let with_dep = r.iter().filter(|c| !c[7].is_empty()).count();
        let want = 100.0 * (judged - with_dep) as f64 / judged as f64;
        assert!(
            (score(&rb, k) - want).abs() < 1e-9,
            "{k}: {} {want}",
            score(&rb, k)
        );
        assert!(with_dep > 10, "{k}");
    }
    for k in ["reflexive/ge0", "reflexive/ge1", "reflexive/ge3"] {
        assert_eq!(score(&rb, k), 100.0, "{k}");
    }
    // Shuffling the words: BLEU falls far, the loci are still rendered.
    let bleu = score_rows(&s, "bleu", "shuffled");
    for k in ["particle/ge1", "reflexive/ge1", "particle/ge5"] {
        assert!(bleu[k]["score"].as_f64().unwrap() < 5.0, "{k}");
        assert!(score(&rc, k) > 70.0, "{k}: {}", score(&rc, k));
    }

    // Intervals and paired tests against statsmodels, on every set of both systems (the
    // reference, the baseline, renders every locus: the discordant loci are the system's
    // errors).
    let mut items = Vec::new();
    let mut got = Vec::new();
    for r in [&rb, &rc] {
        for row in r.values().filter(|row| row["loci"].as_u64() > Some(0)) {
            let n = row["loci"].as_u64().unwrap();
            let correct = (row["score"].as_f64().unwrap() * n as f64 / 100.0).round() as u64;
            items.push(serde_json::json!({
                "n": n, "correct": correct, "only_base": n - correct, "only_sys": 0,
                "confidence": 0.95
            }));
            got.push(
                [&row["ci_low"], &row["ci_high"], &row["p_value"]].map(|v| v.as_f64().unwrap()),
            );
        }
    }
    let Some(py) = python_with("statsmodels") else {
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/locus_stats.py");
    let mut child = std::process::Command::new(py)
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(&items).unwrap().as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    let want: Vec<serde_json::Value> = serde_json::from_slice(&o.stdout).unwrap();
    assert!(want.len() > 40, "{}", want.len());
    for (g, w) in got.iter().zip(&want) {
        let w = ["ci_low", "ci_high", "p"].map(|k| w[k].as_f64().unwrap());
        for (a, b) in g.iter().zip(w) {
            assert!((a - b).abs() <= 1e-9 * b.abs().max(1.0), "{g:?} {w:?}");
        }
    }
}

/// The venv's Python when it has `module` (`LDD_PYTHON` overrides; `LDD_SKIP_PYTHON=1`
/// skips the oracle comparison).
fn python_with(module: &str) -> Option<std::path::PathBuf> {
    if std::env::var("LDD_SKIP_PYTHON").as_deref() == Ok("1") {
        eprintln!("LDD_SKIP_PYTHON=1: skipping the statsmodels comparison");
        return None;
    }
    let py = std::env::var_os("LDD_PYTHON")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python"));
    let ok = std::process::Command::new(&py)
        .args(["-c", &format!("import {module}")])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "{module} not found at {} — tests/setup/install.sh, or set LDD_PYTHON (LDD_SKIP_PYTHON=1 skips)",
        py.display()
    );
    Some(py)
}
