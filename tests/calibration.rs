//! The set-vs-controls test (`ldd_eval::strata`: the set's lines exchanged with corpus lines
//! of the same source length) is calibrated: on the German→English PUD corpus (gold trees),
//! pseudo-sets drawn at random are flagged at the nominal rate, a system with random damage
//! on the real extracted sets is flagged at about that rate, no p-value falls below
//! `1/(B + 1)`, and the demo's two-sentence set is not called worse than its controls.
//! The p-value itself is checked by hand on a tiny corpus.

mod common;

use std::path::{Path, PathBuf};

use common::*;
use ldd_eval::bleu::{line_stats, BleuScoring};
use ldd_eval::rng;
use ldd_eval::strata::{diff_interval, null_scores, permutation_p, Strata};
use ldd_eval::{sample_controls, ControlOptions, MeanStats};

/// Source length (UD words: lines whose ID is an integer) of every tree of a CoNLL-U file,
/// read independently of the library.
fn tree_lengths(conllu: &Path) -> Vec<u32> {
    let text = std::fs::read_to_string(conllu).unwrap();
    let mut out = Vec::new();
    let (mut n, mut in_tree) = (0u32, false);
    for l in text.lines().chain(std::iter::once("")) {
        if l.trim().is_empty() {
            if in_tree {
                out.push(n);
            }
            (n, in_tree) = (0, false);
            continue;
        }
        in_tree = true;
        let id = l.split('\t').next().unwrap_or("");
        if !l.starts_with('#') && id.parse::<u32>().is_ok() {
            n += 1;
        }
    }
    out
}

/// The reference with every 5th word dropped (the uniform system).
fn every_fifth_dropped(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let kept: Vec<&str> = (0..words.len())
        .filter(|k| k % 5 != 4)
        .map(|k| words[k])
        .collect();
    kept.join(" ")
}

/// The reference with each word dropped with probability 1/5, independently, drawn from
/// `seed`: damage blind to any phenomenon.
fn randomly_damaged(lines: &[String], seed: u64) -> Vec<String> {
    let mut g = rng::stream(seed, 0);
    lines
        .iter()
        .map(|l| {
            let kept: Vec<&str> = l.split(' ').filter(|_| g.below(5) != 0).collect();
            kept.join(" ")
        })
        .collect()
}

/// The central 99% interval of Binomial(n, p): the smallest `lo` with P(X ≤ lo) ≥ 0.005 and
/// the smallest `hi` with P(X ≤ hi) ≥ 0.995 (the pmf summed in log space).
fn binomial_99(n: u64, p: f64) -> (u64, u64) {
    let ln_fact = |k: u64| (1..=k).map(|i| (i as f64).ln()).sum::<f64>();
    let pmf = |k: u64| {
        (ln_fact(n) - ln_fact(k) - ln_fact(n - k)
            + k as f64 * p.ln()
            + (n - k) as f64 * (1.0 - p).ln())
        .exp()
    };
    let (mut cdf, mut lo) = (0.0, None);
    for k in 0..=n {
        cdf += pmf(k);
        if lo.is_none() && cdf >= 0.005 {
            lo = Some(k);
        }
        if cdf >= 0.995 {
            return (lo.unwrap_or(k), k);
        }
    }
    (lo.unwrap_or(n), n)
}

/// The central 99% intervals of Binomial(n, 0.05) as scipy gives them:
/// `scipy.stats.binom.ppf([0.005, 0.995], n, 0.05)` = [0, 11], [17, 45], [0, 5] for n = 100,
/// 600, 32.
#[test]
fn the_binomial_interval_is_scipys() {
    assert_eq!(binomial_99(100, 0.05), (0, 11));
    assert_eq!(binomial_99(600, 0.05), (17, 45));
    assert_eq!(binomial_99(32, 0.05), (0, 5));
}

/// A corpus of five lines (lengths 1, 1, 2, 2, 3; values 0, 10, 0, 10, 7) by hand: the set
/// {1, 3, 5} scores (0 + 0 + 7)/3; a null sample takes line 1 or 2, line 3 or 4, and line 5
/// (its length's only line), so it scores 7/3, 17/3 or 27/3 with probabilities ¼, ½, ¼; the
/// p-value counts the samples scoring 7/3 or less. A set that is a whole stratum is every
/// null sample: p = 1.
#[test]
fn the_permutation_p_by_hand() {
    let strata = Strata::new(&[1, 1, 2, 2, 3]);
    let values: Vec<MeanStats> = [0.0, 10.0, 0.0, 10.0, 7.0]
        .iter()
        .map(|&v| MeanStats::one(v))
        .collect();
    let plus_one: Vec<MeanStats> = values.iter().map(|v| MeanStats::one(v.sum + 1.0)).collect();
    let b = 4000;
    let null = null_scores(&[&values, &plus_one], &(), &strata, &[1, 3, 5], b, 1, 9).unwrap();
    let (low, mid, high) = (7.0 / 3.0, 17.0 / 3.0, 27.0 / 3.0);
    let count = |v: f64| null[0].iter().filter(|&&x| (x - v).abs() < 1e-9).count();
    assert_eq!(count(low) + count(mid) + count(high), b);
    // Binomial(4000, ¼): sd 27.4; 4 sd either side.
    assert!(count(low).abs_diff(1000) < 110, "{}", count(low));
    assert!(count(mid).abs_diff(2000) < 130, "{}", count(mid));
    // Both systems on the same draws: the second is the first plus one, sample by sample.
    assert!(null[0]
        .iter()
        .zip(&null[1])
        .all(|(a, c)| (c - a - 1.0).abs() < 1e-9));
    let p = permutation_p(&null[0], low, true).unwrap();
    assert_eq!(p, (1 + count(low)) as f64 / (b + 1) as f64);
    // Lower is better: the worst score, 9, is as bad as the samples scoring 9.
    let p = permutation_p(&null[0], high, false).unwrap();
    assert_eq!(p, (1 + count(high)) as f64 / (b + 1) as f64);
    // The whole stratum {1, 2}: every sample is the set.
    let whole = null_scores(&[&values], &(), &strata, &[1, 2], 50, 1, 9).unwrap();
    assert!(whole[0].iter().all(|&x| x == 5.0));
    assert_eq!(permutation_p(&whole[0], 5.0, true), Some(1.0));
    assert_eq!(diff_interval(&whole[0], 5.0, 0.95), Some((0.0, 0.0)));
}

/// (a) 600 pseudo-sets of 2 to 300 lines drawn at random from PUD (each with its 10
/// length-matched controls drawn as extraction draws them), scored with BLEU for the
/// reference with every 5th word dropped: p ≤ 0.05 for a share within Binomial(600, 0.05)'s
/// 99% interval; no p below 1/(B + 1); the interval of `set − controls' mean` excludes 0
/// exactly when the set scores outside the null's central 95%.
#[test]
fn random_pseudo_sets_are_flagged_at_the_nominal_rate() {
    let lengths = tree_lengths(&data("ud/de_pud-ud-test.conllu"));
    let reference = lines(&data("parallel/pud.de-en.en"));
    assert_eq!((lengths.len(), reference.len()), (1000, 1000));
    let hyp: Vec<String> = reference.iter().map(|l| every_fifth_dropped(l)).collect();
    let stats = line_stats(&hyp, &reference).unwrap();
    let params = BleuScoring::default();
    let strata = Strata::new(&lengths);
    let (sets, b) = (600u64, 499usize);
    let mut g = rng::stream(2019, 0);
    let mut flagged = 0u64;
    for k in 0..sets {
        // sizes log-uniform over 2..=300
        let size = (2.0 * 150f64.powf(g.below(1_000_001) as f64 / 1e6)).round() as usize;
        let mut ids: Vec<u32> = (1..=1000).collect();
        for i in 0..size {
            let j = i + g.below((1000 - i) as u64) as usize;
            ids.swap(i, j);
        }
        let mut ids = ids[..size].to_vec();
        ids.sort_unstable();
        let controls = sample_controls(&lengths, &ids, &ControlOptions::default()).unwrap();
        let score = ldd_eval::score_ids(&stats, &params, &ids).unwrap();
        let ctl: Vec<f64> = controls
            .controls
            .iter()
            .map(|c| {
                let mut c = c.ids.clone();
                c.sort_unstable();
                ldd_eval::score_ids(&stats, &params, &c).unwrap()
            })
            .collect();
        let mean = ctl.iter().sum::<f64>() / ctl.len() as f64;
        let null = null_scores(&[&stats], &params, &strata, &ids, b, 12345, k).unwrap();
        let p = permutation_p(&null[0], score, true).unwrap();
        assert!(p >= 1.0 / (b + 1) as f64 && p <= 1.0);
        flagged += u64::from(p <= 0.05);
        let (lo, hi) = diff_interval(&null[0], score, 0.95).unwrap();
        let mut sorted = null[0].clone();
        sorted.sort_by(f64::total_cmp);
        let outside = score < sorted[12] || score > sorted[b - 13];
        assert_eq!(lo > 0.0 || hi < 0.0, outside, "set {k}: {lo} {hi} ({mean})");
    }
    let (lo, hi) = binomial_99(sets, 0.05);
    eprintln!("pseudo-sets flagged at p <= 0.05: {flagged} of {sets} (99% interval {lo}..={hi})");
    assert!((lo..=hi).contains(&flagged), "{flagged} of {sets}");
}

/// Runs `score` (BLEU and chrF) on the extracted sets `out` with `hyps`, into `out`.
fn score(out: &Path, hyps: &[PathBuf]) -> serde_json::Value {
    let reference = data("parallel/pud.de-en.en");
    let mut args = vec!["score", "--sets", out.to_str().unwrap(), "--ref"];
    args.push(reference.to_str().unwrap());
    for h in hyps {
        args.extend(["--hyp", h.to_str().unwrap()]);
    }
    run_ok(&args);
    serde_json::from_str(&std::fs::read_to_string(out.join("scores.json")).unwrap()).unwrap()
}

/// (b) Eight systems that drop each word of the reference with probability 1/5, at random
/// (blind to the phenomena), on the real PUD sets (de→en, gold trees, 10 controls): every
/// set row's p ≥ 1/(B + 1) (d), and the share of rows flagged (p ≤ 0.05) is about the
/// nominal 5% — the rows are nested sets of one output, so they are not independent; the
/// bound is the 99% interval of as many independent tests as there are systems × metrics ×
/// phenomena. The source lengths `score` measures are the trees' word counts.
#[test]
fn randomly_damaged_systems_are_flagged_at_about_the_nominal_rate() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    extract_pud("de", &out, &["--no-reorder"]);
    let loaded = ldd_sets::score::load(&out).unwrap();
    let reference = data("parallel/pud.de-en.en");
    assert_eq!(
        ldd_sets::score::lengths::source_lengths(&loaded, &reference),
        ldd_sets::score::lengths::Lengths::Measured(tree_lengths(&data(
            "ud/de_pud-ud-test.conllu"
        )))
    );
    let ref_lines = lines(&reference);
    let mut hyps = vec![reference.clone()];
    for seed in 1..=8u64 {
        let p = tmp.path().join(format!("rand{seed}.en"));
        std::fs::write(&p, randomly_damaged(&ref_lines, seed).join("\n") + "\n").unwrap();
        hyps.push(p);
    }
    let s = score(&out, &hyps);
    assert_eq!(
        s["significance"]["controls_test"],
        "permutation within length strata"
    );
    let b = s["significance"]["bootstrap"].as_u64().unwrap() as f64;
    let (mut tests, mut flagged) = (0u64, 0u64);
    for r in s["rows"].as_array().unwrap() {
        let Some(p) = r["control_p_value"].as_f64() else {
            continue;
        };
        assert!(p >= 1.0 / (b + 1.0), "{r}");
        let q = r["control_q_value"].as_f64().unwrap();
        assert!(q >= p - 1e-12 && q <= 1.0, "{r}");
        if r["system"] == "pud.de-en" {
            // the reference itself: every sample of it scores 100
            assert_eq!(p, 1.0, "{r}");
            continue;
        }
        tests += 1;
        flagged += u64::from(p <= 0.05);
    }
    let rate = flagged as f64 / tests as f64;
    eprintln!("randomly damaged systems flagged at p <= 0.05: {flagged} of {tests} ({rate:.3})");
    let (_, hi) = binomial_99(8 * 2 * 2, 0.05);
    assert!(rate <= hi as f64 / 32.0, "{flagged} of {tests}");
    assert!(tests >= 8 * 2 * 20, "{tests}");
}

/// `particle/eq4`'s BLEU row of `scores.json` in `dir`, and the whole file.
fn eq4_row(dir: &Path) -> (serde_json::Value, serde_json::Value) {
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("scores.json")).unwrap()).unwrap();
    let row = s["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["metric"] == "bleu" && r["phenomenon"] == "particle" && r["bucket"] == "eq4")
        .unwrap()
        .clone();
    (row, s)
}

/// The demo's two-sentence set `particle/eq4`: `ref-swap` scores 4.76 BLEU against 10
/// controls scoring 4.9–12.8, and is not called worse than its controls at 1%. Extracted
/// with the demo's files named relative to a directory: scored from there, the source
/// lengths are measured again; scored from elsewhere, the files are not found and the 10
/// written controls are the null — every p at least 1/11, no interval, and the record
/// says why.
#[test]
fn the_demos_two_sentence_set_is_not_flagged() {
    let tmp = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("demo");
    for f in ["pud.de-en.de", "pud.de-en.en", "de_pud-300.conllu"] {
        std::fs::copy(root.join(f), tmp.path().join(f)).unwrap();
    }
    Ldd::cmd("extract")
        .args(&[
            "--offline",
            "--src",
            "pud.de-en.de",
            "--tgt",
            "pud.de-en.en",
        ])
        .args(&[
            "--src-lang",
            "de",
            "--tgt-lang",
            "en",
            "--conllu",
            "de_pud-300.conllu",
        ])
        .args(&["--no-reorder", "--out", "demo"])
        .current_dir(tmp.path())
        .ok();
    let swap = root.join("systems/ref-swap.en");
    let swap = swap.to_str().unwrap();
    Ldd::cmd("score")
        .args(&["--sets", "demo", "--hyp", swap])
        .current_dir(tmp.path())
        .ok();
    let (row, s) = eq4_row(&tmp.path().join("demo"));
    assert_eq!(
        s["significance"]["controls_test"],
        "permutation within length strata"
    );
    assert_eq!(row["sentences"], 2);
    assert!(
        (row["score"].as_f64().unwrap() - 4.763).abs() < 1e-3,
        "{row}"
    );
    let p = row["control_p_value"].as_f64().unwrap();
    eprintln!("demo particle/eq4, ref-swap, BLEU: p {p}");
    assert!(p >= 0.01, "{row}");
    // From elsewhere: the manifest's relative paths lead nowhere.
    let sets = tmp.path().join("demo");
    let reference = tmp.path().join("pud.de-en.en");
    let elsewhere = tmp.path().join("elsewhere");
    run_ok(&[
        "score",
        "--sets",
        sets.to_str().unwrap(),
        "--ref",
        reference.to_str().unwrap(),
        "--hyp",
        swap,
        "--out",
        elsewhere.to_str().unwrap(),
    ]);
    let (row, s) = eq4_row(&elsewhere);
    let test = s["significance"]["controls_test"].as_str().unwrap();
    assert!(
        test.starts_with("rank among the written controls ("),
        "{test}"
    );
    // below all 10 controls: the smallest p 10 controls can give
    assert_eq!(
        (row["rank"].as_u64(), row["control_p_value"].as_f64()),
        (Some(10), Some(1.0 / 11.0))
    );
    for r in s["rows"].as_array().unwrap() {
        if let Some(p) = r["control_p_value"].as_f64() {
            assert!(p >= 1.0 / 11.0 && r["control_diff_ci_low"].is_null(), "{r}");
        }
    }
}
