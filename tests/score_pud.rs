//! `slice` and `score` on the German→English PUD sets with controls.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

fn pud_en() -> PathBuf {
    data("parallel/pud.de-en.en")
}

/// Extracts PUD (de→en, gold trees) with 5 controls into `dir/o`.
fn sets(dir: &Path) -> PathBuf {
    let out = dir.join("o");
    extract_pud("de", &out, &["--controls", "5", "--no-reorder"]);
    out
}

/// Writes the reference with every 3rd word dropped.
fn degraded(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(name);
    let text: Vec<String> = lines(&pud_en())
        .iter()
        .map(|l| {
            l.split(' ')
                .enumerate()
                .filter(|(i, _)| i % 3 != 2)
                .map(|(_, w)| w)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    std::fs::write(&p, text.join("\n") + "\n").unwrap();
    p
}

/// Equal up to serde_json's float parsing (without `float_roundtrip` it may be 1 ulp
/// off; the written text is the shortest round-trip representation).
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * b.abs().max(1.0)
}

fn json(p: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn score_args<'a>(out: &'a Path, hyps: &'a [PathBuf]) -> Vec<&'a str> {
    let mut a = vec!["score", "--sets", s(out), "--ref"];
    a.push(pud_en_str());
    for h in hyps {
        a.extend(["--hyp", s(h)]);
    }
    a
}

fn pud_en_str() -> &'static str {
    Box::leak(pud_en().to_str().unwrap().to_string().into_boxed_str())
}

#[test]
fn wrong_line_count_is_rejected_with_both_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let out = sets(tmp.path());
    let short = tmp.path().join("short.en");
    std::fs::write(&short, lines(&pud_en())[..999].join("\n") + "\n").unwrap();
    let long = tmp.path().join("long.en");
    std::fs::write(&long, lines(&pud_en()).join("\n") + "\nextra\n").unwrap();
    for h in [&short, &long] {
        let n = if h == &short { "999" } else { "1001" };
        let before = std::fs::read_dir(out.join("particle")).unwrap().count();
        let o = run(&["slice", "--sets", s(&out), "--hyp", s(h)]);
        assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains(s(h)) && e.contains(n) && e.contains("1000"),
            "{e}"
        );
        assert_eq!(
            std::fs::read_dir(out.join("particle")).unwrap().count(),
            before
        );
        let hyps = vec![h.clone()];
        let o = run(&score_args(&out, &hyps));
        assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains(s(h)) && e.contains(n) && e.contains("1000"),
            "{e}"
        );
        assert!(!out.join("scores.csv").exists());
    }
    // No temporary directory is left behind in the sets dir.
    assert!(std::fs::read_dir(&out).unwrap().all(|e| !e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .starts_with('.')));
}

#[test]
fn reference_as_hypothesis_scores_100_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let out = sets(tmp.path());
    let hyp = tmp.path().join("ref.en");
    std::fs::copy(pud_en(), &hyp).unwrap();
    run_ok(&score_args(&out, &[hyp]));
    let j = json(&out.join("scores.json"));
    let rows = j["rows"].as_array().unwrap();
    let mut sets_seen = 0;
    for r in rows {
        if r["sentences"] == 0 {
            assert!(r["score"].is_null());
            continue;
        }
        let sc = r["score"].as_f64().unwrap();
        assert!((sc - 100.0).abs() < 1e-9, "{r}");
        for c in r["control_scores"].as_array().unwrap() {
            assert!((c.as_f64().unwrap() - 100.0).abs() < 1e-9);
        }
        sets_seen += usize::from(r["scope"] == "set");
    }
    assert_eq!(
        sets_seen,
        2 * 24,
        "BLEU and chrF of 2 phenomena × 12 buckets"
    );
    assert!(
        rows.iter().all(|r| r["metric"] != "ribes"),
        "no reorder sets, no RIBES"
    );
}

#[test]
fn degraded_hypothesis_equals_scoring_the_sliced_files() {
    let tmp = tempfile::tempdir().unwrap();
    let out = sets(tmp.path());
    let hyp = degraded(tmp.path(), "drop3.en");
    run_ok(&["slice", "--sets", s(&out), "--hyp", s(&hyp)]);
    run_ok(&score_args(&out, std::slice::from_ref(&hyp)));
    let j = json(&out.join("scores.json"));
    let rows = j["rows"].as_array().unwrap();
    let find = |metric: &str, p: &str, b: &str| {
        rows.iter()
            .find(|r| r["metric"] == metric && r["phenomenon"] == p && r["bucket"] == b)
            .unwrap()
    };
    // scores.csv holds the exact values (Rust's float parser round-trips).
    let csv = lines(&out.join("scores.csv"));
    let exact = |metric: &str, p: &str, b: &str| -> f64 {
        let l = csv
            .iter()
            .find(|l| l.starts_with(&format!("drop3,{metric},set,lexical,{p},{b},")))
            .unwrap();
        l.split(',').nth(9).unwrap().parse().unwrap()
    };
    let mut checked = 0;
    for p in ["reflexive", "particle"] {
        for b in [
            "ge0", "ge1", "ge2", "ge3", "ge4", "ge5", "eq0", "eq1", "eq2", "eq3", "eq4", "eq5",
        ] {
            let refs = lines(&out.join(format!("{p}/{b}.en")));
            let hyps = lines(&out.join(format!("{p}/{b}.hyp.drop3")));
            assert_eq!(refs.len(), hyps.len());
            if refs.is_empty() {
                continue;
            }
            let bleu = ldd_eval::bleu::corpus_bleu(&hyps, &refs).unwrap().score;
            let chrf = ldd_eval::chrf::corpus_chrf(&hyps, &refs).unwrap();
            assert!(
                close(find("bleu", p, b)["score"].as_f64().unwrap(), bleu),
                "{p}/{b}"
            );
            assert!(
                close(find("chrf", p, b)["score"].as_f64().unwrap(), chrf),
                "{p}/{b}"
            );
            assert_eq!(exact("bleu", p, b), bleu, "{p}/{b}: bit-identical");
            assert_eq!(exact("chrf", p, b), chrf, "{p}/{b}: bit-identical");
            assert!(bleu < 90.0);
            // Controls: control 3's sliced files give control score 3.
            let base = format!("{p}/controls/{b}.3");
            let cr = lines(&out.join(format!("{base}.en")));
            let ch = lines(&out.join(format!("{base}.hyp.drop3")));
            let cb = ldd_eval::bleu::corpus_bleu(&ch, &cr).unwrap().score;
            let row = find("bleu", p, b);
            assert!(
                close(row["control_scores"][2].as_f64().unwrap(), cb),
                "{base}"
            );
            let higher = row["control_scores"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c.as_f64().unwrap() > bleu)
                .count();
            assert_eq!(row["rank"].as_u64().unwrap() as usize, higher);
            checked += 1;
        }
    }
    assert!(checked >= 20);
    // The corpus baseline is corpus BLEU of the two whole files.
    let all = ldd_eval::bleu::corpus_bleu(&lines(&hyp), &lines(&pud_en()))
        .unwrap()
        .score;
    let base = rows
        .iter()
        .find(|r| r["metric"] == "bleu" && r["scope"] == "corpus")
        .unwrap();
    assert!(close(base["score"].as_f64().unwrap(), all));

    // sacreBLEU itself on one set (skipped only with LDD_SKIP_PYTHON=1).
    if let Some(py) = python() {
        let set_ref = out.join("particle/ge1.en");
        let set_hyp = out.join("particle/ge1.hyp.drop3");
        let o = Command::new(py)
            .args([
                "-m",
                "sacrebleu",
                s(&set_ref),
                "-i",
                s(&set_hyp),
                "-m",
                "bleu",
                "chrf",
                "-b",
                "-w",
                "4",
            ])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8_lossy(&o.stdout);
        // `-b` with two metrics prints a JSON list: [ 12.3456, 45.6789 ]
        let got: Vec<f64> = serde_json::from_str(&text).unwrap();
        assert_eq!(got.len(), 2, "{text}");
        let ours = [
            find("bleu", "particle", "ge1")["score"].as_f64().unwrap(),
            find("chrf", "particle", "ge1")["score"].as_f64().unwrap(),
        ];
        for (g, o) in got.iter().zip(ours) {
            assert_eq!(
                format!("{g:.4}"),
                format!("{o:.4}"),
                "sacreBLEU {text} vs {ours:?}"
            );
        }
    }
}

/// The sacreBLEU interpreter, like crates/eval/tests/sacrebleu_oracle.rs.
fn python() -> Option<PathBuf> {
    if std::env::var("LDD_SKIP_PYTHON").as_deref() == Ok("1") {
        eprintln!("LDD_SKIP_PYTHON=1: skipping the sacreBLEU comparison");
        return None;
    }
    let py = std::env::var_os("LDD_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python"));
    let ok = Command::new(&py)
        .args(["-c", "import sacrebleu"])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(
        ok,
        "sacreBLEU not found at {} — python3 -m venv .venv && .venv/bin/pip install sacrebleu==2.4.3, \
         or set LDD_PYTHON (or LDD_SKIP_PYTHON=1 to skip)",
        py.display()
    );
    Some(py)
}

#[test]
fn two_systems_two_columns_and_outputs_agree() {
    let tmp = tempfile::tempdir().unwrap();
    let out = sets(tmp.path());
    let a = degraded(tmp.path(), "sysA.en");
    let b = tmp.path().join("sysB.en");
    std::fs::copy(pud_en(), &b).unwrap();
    let report = tmp.path().join("report");
    let hyps = [a.clone(), b.clone()];
    let mut args = score_args(&out, &hyps);
    // --wide: every column (interval, controls, rank) of every system.
    args.extend(["--out", s(&report), "--wide"]);
    let o = run_ok(&args);
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(report.join("scores.csv").exists() && !out.join("scores.csv").exists());
    let csv = lines(&report.join("scores.csv"));
    let head: Vec<&str> = csv[0].split(',').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let j = json(&report.join("scores.json"));
    assert_eq!(j["systems"][0]["name"], "sysA");
    assert_eq!(j["systems"][1]["name"], "sysB");
    let rows = j["rows"].as_array().unwrap();
    // CSV rows = JSON rows (then trends), same values.
    let csv_rows: Vec<Vec<&str>> = csv[1..].iter().map(|l| l.split(',').collect()).collect();
    for (r, c) in rows.iter().zip(&csv_rows) {
        assert_eq!(c[col("system")], r["system"].as_str().unwrap());
        assert_eq!(c[col("bucket")], r["bucket"].as_str().unwrap());
        match r["score"].as_f64() {
            Some(x) => assert!(close(c[col("score")].parse::<f64>().unwrap(), x)),
            None => assert_eq!(c[col("score")], ""),
        }
        if let Some(x) = r["rank"].as_u64() {
            assert_eq!(c[col("rank")], x.to_string());
        }
    }
    assert_eq!(
        csv_rows.len(),
        rows.len() + j["trends"].as_array().unwrap().len()
    );
    // stdout: every set row has two system columns whose numbers match the JSON.
    let mut block = "";
    let mut matched = 0;
    for line in stdout.lines() {
        if ["BLEU", "chrF"].contains(&line.trim()) {
            block = if line.trim() == "BLEU" {
                "bleu"
            } else {
                "chrf"
            };
            continue;
        }
        let Some((label, rest)) = line.split_once(' ') else {
            continue;
        };
        let Some((p, bk)) = label.split_once('/') else {
            continue;
        };
        if block.is_empty() || line.starts_with("set ") {
            continue;
        }
        let cells: Vec<&str> = rest.split('|').skip(1).collect();
        assert_eq!(cells.len(), 2, "two systems, two columns: {line}");
        for (sys, cell) in ["sysA", "sysB"].iter().zip(cells) {
            let r = rows
                .iter()
                .find(|r| {
                    r["system"] == *sys
                        && r["metric"] == block
                        && r["phenomenon"] == p
                        && r["bucket"] == bk
                })
                .unwrap();
            // score[*] [lo, hi] mean±sd rank Δctl[!]
            let toks: Vec<&str> = cell.split_whitespace().collect();
            let star = if r["p_value"].as_f64().is_some_and(|p| p < 0.05) {
                "*"
            } else {
                ""
            };
            match r["score"].as_f64() {
                Some(x) => assert_eq!(toks[0], format!("{x:.2}{star}"), "{line}"),
                None => assert_eq!(toks[0], "-"),
            }
            if let (Some(lo), Some(hi)) = (r["ci_low"].as_f64(), r["ci_high"].as_f64()) {
                assert_eq!(
                    toks[1..3].join(" "),
                    format!("[{lo:.2}, {hi:.2}]"),
                    "{line}"
                );
            }
            if let (Some(m), Some(sd)) = (r["control_mean"].as_f64(), r["control_sd"].as_f64()) {
                assert_eq!(toks[3], format!("{m:.2}±{sd:.2}"), "{line}");
                assert_eq!(toks[4], format!("{}/5", r["rank"]), "{line}");
                let d = r["control_diff"].as_f64().unwrap();
                assert_eq!(toks[5].trim_end_matches('!'), format!("{d:+.2}"), "{line}");
            }
            matched += 1;
        }
    }
    assert_eq!(
        matched,
        2 * 2 * 24,
        "2 metrics × 24 sets × 2 systems on stdout"
    );
    // sysB (the reference) beats sysA everywhere.
    for r in rows
        .iter()
        .filter(|r| r["system"] == "sysA" && r["sentences"] != 0)
    {
        assert!(r["score"].as_f64().unwrap() < 100.0);
    }
    // Trend rows exist per phenomenon with both correlations.
    let t = &j["trends"][0];
    assert_eq!(t["points"].as_array().unwrap().len(), 6);
    assert!(t["spearman"].is_number() && t["pearson"].is_number());
    assert!(stdout.contains("spearman") && stdout.contains("pearson"));
}

/// The manifest is read with one type and its `format_version` checked first: another
/// version, a file that is not a manifest, and a file name leaving the set directory are
/// errors naming the manifest (exit 3), and nothing is written.
#[test]
fn manifest_version_and_paths_are_checked_on_read() {
    let tmp = tempfile::tempdir().unwrap();
    let out = sets(tmp.path());
    let manifest = out.join("manifest.json");
    let original = std::fs::read_to_string(&manifest).unwrap();
    let hyp = degraded(tmp.path(), "sys.en");
    let try_score = |text: &str| {
        std::fs::write(&manifest, text).unwrap();
        let o = run(&score_args(&out, std::slice::from_ref(&hyp)));
        assert!(!out.join("scores.json").exists());
        (o.status.code(), stderr(&o))
    };
    let (code, e) =
        try_score(&original.replacen("\"format_version\": 1", "\"format_version\": 999", 1));
    assert_eq!(code, Some(3), "{e}");
    assert!(
        e.contains("manifest.json") && e.contains("format_version 999 is not supported"),
        "{e}"
    );
    let (code, e) = try_score("{\"web\": \"project\"}");
    assert_eq!(code, Some(3), "{e}");
    assert!(e.contains("not an ldd-sets manifest"), "{e}");
    let (code, e) = try_score(&original.replacen(
        "\"ids\": \"reflexive/ge0.ids\"",
        "\"ids\": \"../../../../../../etc/passwd\"",
        1,
    ));
    assert_eq!(code, Some(3), "{e}");
    assert!(
        e.contains("leaves the set directory") && !e.contains("root:"),
        "{e}"
    );
    std::fs::write(&manifest, &original).unwrap();
    let o = run(&score_args(&out, &[hyp]));
    assert!(o.status.success(), "{}", stderr(&o));
}
