//! `score`'s intervals, paired tests, set-vs-controls tests, segment-level metrics,
//! signatures and small-set warnings, on the German→English PUD sets (gold trees).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use sha2::{Digest, Sha256};

fn pud_en() -> PathBuf {
    data("parallel/pud.de-en.en")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// PUD de→en sets with 5 controls, no reordering sets.
fn sets(dir: &Path) -> PathBuf {
    let out = dir.join("o");
    extract_pud("de", &out, &["--controls", "5", "--no-reorder"]);
    out
}

fn h(i: usize, salt: u64) -> u64 {
    ldd_eval::rng::mix64(i as u64 ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The reference with every 3rd word dropped in `share`% of the lines (chosen by `salt`).
fn system(dir: &Path, name: &str, salt: u64, share: u64) -> PathBuf {
    let text: Vec<String> = lines(&pud_en())
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if h(i, salt) % 100 >= share {
                return l.clone();
            }
            l.split(' ')
                .enumerate()
                .filter(|(k, _)| k % 3 != 2)
                .map(|(_, w)| w)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let p = dir.join(name);
    std::fs::write(&p, text.join("\n") + "\n").unwrap();
    p
}

fn json(p: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn score(out: &Path, hyps: &[&Path], extra: &[&str]) -> std::process::Output {
    let mut a = vec!["score", "--sets", s(out), "--ref", s(&pud_en())]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
    for h in hyps {
        a.push("--hyp".into());
        a.push(s(h).into());
    }
    a.extend(extra.iter().map(|x| x.to_string()));
    let args: Vec<&str> = a.iter().map(String::as_str).collect();
    run(&args)
}

fn row<'a>(
    j: &'a serde_json::Value,
    sys: &str,
    metric: &str,
    bucket: &str,
) -> &'a serde_json::Value {
    j["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| {
            r["system"] == sys
                && r["metric"] == metric
                && format!(
                    "{}/{}",
                    r["phenomenon"].as_str().unwrap(),
                    r["bucket"].as_str().unwrap()
                )
                .trim_start_matches('/')
                    == bucket
        })
        .unwrap_or_else(|| panic!("no row {sys} {metric} {bucket}"))
}

fn python() -> Option<PathBuf> {
    if std::env::var("LDD_SKIP_PYTHON").as_deref() == Ok("1") {
        eprintln!("LDD_SKIP_PYTHON=1: skipping the sacreBLEU comparison");
        return None;
    }
    let py = std::env::var_os("LDD_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python"));
    let ok = Command::new(&py)
        .args([
            "-c",
            "import sacrebleu; assert sacrebleu.__version__ == '2.4.3'",
        ])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(
        ok,
        "sacreBLEU 2.4.3 not found at {} — `make venv`, or set LDD_PYTHON (LDD_SKIP_PYTHON=1 skips)",
        py.display()
    );
    Some(py)
}

/// sacreBLEU's paired test on files (tests/oracle/sacrebleu_paired.py).
fn sacrebleu(
    py: &Path,
    reference: &Path,
    test: &str,
    n: usize,
    hyps: &[PathBuf],
) -> serde_json::Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/sacrebleu_paired.py");
    let mut c = Command::new(py);
    c.arg(&script)
        .arg(reference)
        .arg(test)
        .arg(n.to_string())
        .args(hyps);
    let o = c.output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// Two Monte-Carlo p-values from `n` draws each: within 4 standard errors (+2 counts).
fn p_close(a: f64, b: f64, n: usize) -> bool {
    let p = 0.5 * (a + b);
    (a - b).abs() <= 4.0 * (2.0 * p * (1.0 - p) / n as f64).sqrt() + 2.0 / n as f64
}

/// The corpus rows and the particle/ge1 rows (sliced files) agree with sacreBLEU's
/// `--paired-bs` and `--paired-ar` on the same files: scores exactly, p-values and the
/// interval's width within Monte-Carlo error. Systems: a baseline, a clearly better one,
/// a clearly worse one and one that differs only by noise.
#[test]
fn paired_tests_agree_with_sacrebleu_on_corpus_and_set() {
    let Some(py) = python() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let out = sets(tmp.path());
    let base = system(tmp.path(), "base.en", 1, 50);
    let better = system(tmp.path(), "better.en", 1, 10);
    let worse = system(tmp.path(), "worse.en", 1, 95);
    let noise = system(tmp.path(), "noise.en", 2, 50);
    let hyps = [
        base.as_path(),
        better.as_path(),
        worse.as_path(),
        noise.as_path(),
    ];
    // 4,000 AR trials instead of sacreBLEU's 10,000 keep the test short.
    for (flag, test, n) in [("--paired-bs", "bs", 1000), ("--paired-ar", "ar", 4000)] {
        let rep = tmp.path().join(test);
        let n_arg = n.to_string();
        let o = score(
            &out,
            &hyps,
            &[flag, "--paired-ar-n", &n_arg, "--out", s(&rep), "-q"],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let j = json(&rep.join("scores.json"));
        assert_eq!(j["significance"]["method"], test);
        assert_eq!(j["significance"]["n"], n);
        // The whole corpus, then particle/ge1 through `slice`.
        let mut cases = vec![(
            "corpus".to_string(),
            pud_en(),
            hyps.iter().map(|p| p.to_path_buf()).collect::<Vec<_>>(),
        )];
        for (name, h) in [
            ("base", &base),
            ("better", &better),
            ("worse", &worse),
            ("noise", &noise),
        ] {
            run_ok(&["slice", "--sets", s(&out), "--hyp", s(h), "--name", name]);
        }
        cases.push((
            "particle/ge1".to_string(),
            out.join("particle/ge1.en"),
            ["base", "better", "worse", "noise"]
                .iter()
                .map(|n| out.join(format!("particle/ge1.hyp.{n}")))
                .collect(),
        ));
        for (bucket, reference, files) in cases {
            let sb = sacrebleu(&py, &reference, test, n, &files);
            for (metric, key) in [("bleu", "BLEU"), ("chrf", "chrF2")] {
                for (k, sys) in ["base", "better", "worse", "noise"].iter().enumerate() {
                    let ours = row(&j, sys, metric, &bucket);
                    let theirs = &sb[key][k];
                    let score = ours["score"].as_f64().unwrap();
                    assert!((score - theirs["score"].as_f64().unwrap()).abs() < 1e-9);
                    if test == "bs" {
                        let half = 0.5
                            * (ours["ci_high"].as_f64().unwrap()
                                - ours["ci_low"].as_f64().unwrap());
                        let ci = theirs["ci"].as_f64().unwrap();
                        assert!(
                            (half - ci).abs() <= 0.2 * ci,
                            "{bucket} {metric} {sys}: ±{half} vs ±{ci}"
                        );
                    }
                    if k == 0 {
                        assert!(ours["p_value"].is_null());
                        continue;
                    }
                    let (p, q) = (
                        ours["p_value"].as_f64().unwrap(),
                        theirs["p"].as_f64().unwrap(),
                    );
                    eprintln!("{test} {bucket} {metric} {sys}: p {p} sacreBLEU {q}");
                    assert!(
                        p_close(p, q, n),
                        "{test} {bucket} {metric} {sys}: p {p} vs {q}"
                    );
                }
            }
        }
        // The better system is significantly different on the corpus; noise is not.
        let p = |sys: &str| row(&j, sys, "bleu", "corpus")["p_value"].as_f64().unwrap();
        assert_eq!(p("better"), 1.0 / (n as f64 + 1.0));
        assert_eq!(p("worse"), 1.0 / (n as f64 + 1.0));
        assert!(p("noise") > 0.05);
    }
}

/// A segment-level metric's score on every set, control and the corpus is the mean of
/// its values over their ids, computed here from the ids files.
#[test]
fn seg_scores_means_equal_a_direct_computation() {
    let tmp = tempfile::tempdir().unwrap();
    let out = sets(tmp.path());
    let a = system(tmp.path(), "a.en", 1, 50);
    let b = system(tmp.path(), "b.en", 2, 30);
    let values = |salt: u64| -> Vec<f64> {
        (0..1000)
            .map(|i| (h(i, salt) % 10_000) as f64 / 10_000.0 - 0.25)
            .collect()
    };
    let (va, vb) = (values(7), values(8));
    let write = |name: &str, v: &[f64]| {
        let p = tmp.path().join(name);
        let text: String = v.iter().map(|x| format!("{x}\n")).collect();
        std::fs::write(&p, text).unwrap();
        p
    };
    let (fa, fb) = (write("a.comet", &va), write("b.comet", &vb));
    let spec = format!("comet={},{}", s(&fa), s(&fb));
    let o = score(&out, &[&a, &b], &["--seg-scores", &spec, "-q"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j = json(&out.join("scores.json"));
    let mean =
        |v: &[f64], ids: &[usize]| ids.iter().map(|&i| v[i - 1]).sum::<f64>() / ids.len() as f64;
    let read_ids =
        |p: &Path| -> Vec<usize> { lines(p).iter().map(|l| l.parse().unwrap()).collect() };
    let all: Vec<usize> = (1..=1000).collect();
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-12;
    let mut checked = 0;
    for (sys, v) in [("a", &va), ("b", &vb)] {
        assert!(close(
            row(&j, sys, "comet", "corpus")["score"].as_f64().unwrap(),
            mean(v, &all)
        ));
        for r in j["rows"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["system"] == sys && r["metric"] == "comet" && r["scope"] == "set")
        {
            let (p, bk) = (
                r["phenomenon"].as_str().unwrap(),
                r["bucket"].as_str().unwrap(),
            );
            let ids = read_ids(&out.join(format!("{p}/{bk}.ids")));
            if ids.is_empty() {
                assert!(r["score"].is_null());
                continue;
            }
            assert!(
                close(r["score"].as_f64().unwrap(), mean(v, &ids)),
                "{p}/{bk}"
            );
            let ctl = r["control_scores"].as_array().unwrap();
            assert_eq!(ctl.len(), 5);
            for (k, c) in ctl.iter().enumerate() {
                let ids = read_ids(&out.join(format!("{p}/controls/{bk}.{}.ids", k + 1)));
                assert!(
                    close(c.as_f64().unwrap(), mean(v, &ids)),
                    "{p}/{bk} control {}",
                    k + 1
                );
            }
            let cm = r["control_mean"].as_f64().unwrap();
            assert!(close(
                r["control_diff"].as_f64().unwrap(),
                r["score"].as_f64().unwrap() - cm
            ));
            let higher = ctl
                .iter()
                .filter(|c| c.as_f64().unwrap() > r["score"].as_f64().unwrap())
                .count();
            assert_eq!(r["rank"].as_u64().unwrap() as usize, higher);
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked}");
    // Lower is better: ranks count the controls scoring lower.
    let o = score(
        &out,
        &[&a, &b],
        &["--seg-scores", &spec, "--lower-is-better", "comet", "-q"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let j = json(&out.join("scores.json"));
    let r = row(&j, "a", "comet", "particle/ge1");
    let lower = r["control_scores"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c.as_f64().unwrap() < r["score"].as_f64().unwrap())
        .count();
    assert_eq!(r["rank"].as_u64().unwrap() as usize, lower);
    assert!(j["signatures"]["comet"]
        .as_str()
        .unwrap()
        .contains("|seg:comet|agg:mean|better:lower|"));
}

/// Signatures are sacreBLEU's own string for BLEU and chrF plus what ldd-sets adds, the
/// same in the table, every CSV row and JSON (`signatures` and every row).
#[test]
fn signatures_in_table_csv_and_json() {
    let tmp = tempfile::tempdir().unwrap();
    let out = sets(tmp.path());
    let a = system(tmp.path(), "a.en", 1, 50);
    let b = system(tmp.path(), "b.en", 2, 50);
    // --wide: the signatures whole on one line each (the default table breaks them to fit).
    let o = score(
        &out,
        &[&a, &b],
        &["--paired-bs-n", "200", "--seed", "7", "--wide"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let sha = format!(
        "{:x}",
        Sha256::digest(std::fs::read(out.join("manifest.json")).unwrap())
    );
    let ldd = format!(
        "ldd-sets:{}|manifest:{sha}|controls:5|control-seed:1|ci-bs:200|confidence:0.95",
        env!("CARGO_PKG_VERSION")
    );
    let bleu =
        format!("nrefs:1|bs:200|seed:7|case:mixed|eff:no|tok:13a|smooth:exp|version:2.4.3|{ldd}");
    let chrf =
        format!("nrefs:1|bs:200|seed:7|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.4.3|{ldd}");
    let j = json(&out.join("scores.json"));
    assert_eq!(j["signatures"]["bleu"], bleu.as_str());
    assert_eq!(j["signatures"]["chrf"], chrf.as_str());
    for r in j["rows"]
        .as_array()
        .unwrap()
        .iter()
        .chain(j["trends"].as_array().unwrap())
    {
        let want = if r["metric"] == "bleu" { &bleu } else { &chrf };
        assert_eq!(r["signature"], want.as_str());
    }
    let csv = lines(&out.join("scores.csv"));
    let head: Vec<&str> = csv[0].split(',').collect();
    let sig = head.iter().position(|h| *h == "signature").unwrap();
    for l in &csv[1..] {
        let cells: Vec<&str> = l.split(',').collect();
        assert_eq!(cells.len(), head.len(), "{l}");
        let want = if cells[1] == "bleu" { &bleu } else { &chrf };
        assert_eq!(cells[sig], want.as_str(), "{l}");
    }
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(table.contains(&format!("  BLEU     {bleu}\n")), "{table}");
    assert!(table.contains(&format!("  chrF     {chrf}\n")), "{table}");
    // AR: sacreBLEU writes `ar:N` instead of `bs:N`.
    let o = score(
        &out,
        &[&a, &b],
        &["--paired-ar", "--paired-ar-n", "300", "-q"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let j = json(&out.join("scores.json"));
    assert!(j["signatures"]["bleu"]
        .as_str()
        .unwrap()
        .starts_with("nrefs:1|ar:300|seed:12345|case:mixed|"));
}

/// Sets under 100 sentences are still scored, flagged `small_set` in JSON and CSV, marked
/// `~` in the table, and named in a warning on stderr.
#[test]
fn small_sets_are_marked_and_warned() {
    let tmp = tempfile::tempdir().unwrap();
    let out = sets(tmp.path());
    let a = system(tmp.path(), "a.en", 1, 50);
    let o = score(&out, &[&a], &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let e = stderr(&o);
    // README's PUD table: reflexive ge1..ge5 and eq0..eq5 (11 sets), particle ge2..ge5
    // (98, 75, 64, 58) and eq0..eq5 (10 sets) have 1..99 sentences.
    assert!(
        e.contains("\n  21 sets have fewer than 100 sentences (BLEU, chrF"),
        "{e}"
    );
    assert!(!e.contains("judged loci"), "no locus accuracy here: {e}");
    assert!(e.contains("reflexive/ge1 (69)"), "{e}");
    let j = json(&out.join("scores.json"));
    let mut small = 0;
    for r in j["rows"].as_array().unwrap() {
        let n = r["sentences"].as_u64().unwrap();
        assert_eq!(r["small_set"], n < 100, "{r}");
        small += usize::from(r["metric"] == "bleu" && n < 100 && n > 0);
        if n > 0 {
            assert!(r["score"].is_number());
        }
    }
    assert_eq!(small, 21);
    let csv = lines(&out.join("scores.csv"));
    let col = csv[0].split(',').position(|c| c == "small_set").unwrap();
    assert!(csv
        .iter()
        .any(|l| l.starts_with("a,bleu,set,lexical,reflexive,ge1,")
            && l.split(',').nth(col) == Some("true")));
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("reflexive/ge1 ") && l.contains(" 69~ ")),
        "{table}"
    );
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("reflexive/ge0 ") && l.contains(" 130  ")),
        "{table}"
    );
}

/// Intervals and p-values are a function of the inputs and the seed: byte-identical at
/// 1 and 2 threads, different with another seed; the baseline has no p-value; the
/// reference itself is significantly better than a degraded system; differences and
/// intervals are consistent.
#[test]
fn deterministic_and_consistent() {
    let tmp = tempfile::tempdir().unwrap();
    let out = sets(tmp.path());
    let a = system(tmp.path(), "a.en", 1, 50);
    let reference = tmp.path().join("ref.en");
    std::fs::copy(pud_en(), &reference).unwrap();
    let mut runs = Vec::new();
    // One output directory (each run replaces the last: the same systems and metrics), so
    // that the command line each records differs only by --threads, which is not recorded.
    let dir = tmp.path().join("r");
    for (threads, seed) in [("1", "12345"), ("2", "12345"), ("2", "1")] {
        let o = score(
            &out,
            &[&a, &reference],
            &["--threads", threads, "--seed", seed, "--out", s(&dir), "-q"],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        runs.push(std::fs::read(dir.join("scores.json")).unwrap());
    }
    assert_eq!(runs[0], runs[1], "thread count changes nothing");
    assert_ne!(runs[0], runs[2], "the seed changes the resamples");
    let j: serde_json::Value = serde_json::from_slice(&runs[0]).unwrap();
    assert_eq!(j["significance"]["method"], "bs");
    assert_eq!(j["significance"]["seed"], 12345);
    for r in j["rows"].as_array().unwrap() {
        if r["score"].is_null() {
            assert!(r["ci_low"].is_null() && r["p_value"].is_null() && r["control_diff"].is_null());
            continue;
        }
        let (lo, hi) = (
            r["ci_low"].as_f64().unwrap(),
            r["ci_high"].as_f64().unwrap(),
        );
        assert!(lo <= hi);
        if r["system"] == "a" {
            assert!(r["p_value"].is_null(), "the baseline has no p-value");
        } else {
            let p = r["p_value"].as_f64().unwrap();
            assert!(p > 0.0 && p <= 1.0);
            // The reference scores 100 with a zero-width interval.
            assert!(
                (lo - 100.0).abs() < 1e-9 && (hi - 100.0).abs() < 1e-9,
                "{r}"
            );
        }
        if let Some(d) = r["control_diff"].as_f64() {
            let m = r["control_mean"].as_f64().unwrap();
            assert!((d - (r["score"].as_f64().unwrap() - m)).abs() < 1e-9);
            let (dl, dh) = (
                r["control_diff_ci_low"].as_f64().unwrap(),
                r["control_diff_ci_high"].as_f64().unwrap(),
            );
            assert!(dl <= dh);
            let p = r["control_p_value"].as_f64().unwrap();
            // the permutation floor: never below 1/(B + 1)
            assert!((1.0 / 1001.0..=1.0).contains(&p), "{r}");
            let q = r["control_q_value"].as_f64().unwrap();
            assert!(q >= p - 1e-12 && q <= 1.0, "{r}");
            // the interval excludes 0 only with a small p-value (the same null)
            if dh < 0.0 {
                assert!(p <= 0.05, "{r}");
            }
        }
    }
    assert_eq!(
        j["significance"]["controls_test"],
        "permutation within length strata"
    );
    assert_eq!(
        row(&j, "ref", "bleu", "corpus")["p_value"].as_f64(),
        Some(1.0 / 1001.0)
    );
    for t in j["trends"].as_array().unwrap() {
        for k in [
            "spearman_ci_low",
            "spearman_ci_high",
            "pearson_ci_low",
            "pearson_ci_high",
        ] {
            if let Some(x) = t[k].as_f64() {
                assert!((-1.0..=1.0).contains(&x), "{t}");
            }
        }
    }
    assert!(j["trends"][0]["spearman_ci_low"].is_number());
}

/// Bad --seg-scores input: errors name the file and line (exit 3) or the option (exit 4),
/// and nothing is written.
#[test]
fn bad_seg_scores_are_rejected() {
    let tmp = tempfile::tempdir().unwrap();
    let out = sets(tmp.path());
    let a = system(tmp.path(), "a.en", 1, 50);
    let good: String = (0..1000).map(|i| format!("{}\n", i % 7)).collect();
    let bad = good.replacen("6\n", "6\nabc\n", 1).replacen("0\n", "", 1);
    let write = |name: &str, text: &str| {
        let p = tmp.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let (g, b) = (write("good.txt", &good), write("bad.txt", &bad));
    let short = write("short.txt", &good[..good.len() - 2]);
    let inf = write("inf.txt", &good.replacen("3\n", "inf\n", 1));
    let cases: Vec<(Vec<String>, i32, String)> = vec![
        (
            vec!["--seg-scores".into(), format!("comet={}", s(&b))],
            3,
            format!("{}:7: not a number: `abc`", s(&b)),
        ),
        (
            vec!["--seg-scores".into(), format!("comet={}", s(&inf))],
            3,
            format!("{}:4: not a finite number", s(&inf)),
        ),
        (
            vec!["--seg-scores".into(), format!("comet={}", s(&short))],
            3,
            "has 999 lines but the corpus has 1000 lines".into(),
        ),
        (
            vec!["--seg-scores".into(), format!("comet={},{}", s(&g), s(&g))],
            4,
            "2 files for 1 --hyp files".into(),
        ),
        (
            vec!["--seg-scores".into(), format!("bleu={}", s(&g))],
            4,
            "is a built-in metric".into(),
        ),
        (
            vec!["--seg-scores".into(), format!("COMET={}", s(&g))],
            4,
            "lowercase letters".into(),
        ),
        (
            vec![
                "--seg-scores".into(),
                format!("comet={}", s(&g)),
                "--lower-is-better".into(),
                "metricx".into(),
            ],
            4,
            "no --seg-scores metric".into(),
        ),
        (
            vec!["--confidence".into(), "1.5".into()],
            4,
            "--confidence 1.5".into(),
        ),
        (
            vec!["--paired-ar".into()],
            4,
            "a paired test needs two or more --hyp files".into(),
        ),
        (
            vec!["--seg-scores".into(), "comet".into()],
            2,
            "NAME=FILE1".into(),
        ),
    ];
    for (extra, code, msg) in cases {
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        let o = score(&out, &[&a], &extra);
        assert_eq!(o.status.code(), Some(code), "{extra:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(&msg), "{extra:?}: {}", stderr(&o));
        assert!(!out.join("scores.json").exists());
    }
    let o = score(
        &out,
        &[&a],
        &["--seg-scores", &format!("comet={}", s(&g)), "-q"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
}
