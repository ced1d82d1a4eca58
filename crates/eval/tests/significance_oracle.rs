//! Paired bootstrap resampling and approximate randomization agree with sacreBLEU 2.4.3
//! (`sacrebleu.significance.PairedTest`, what `sacrebleu --paired-bs` / `--paired-ar`
//! run) within Monte-Carlo error, on the first 600 lines of newstest2013 with four
//! systems made here: a baseline, a clearly better one, a clearly worse one, and one that
//! differs from the baseline only by noise.
//!
//! Needs the venv (`make venv`); `LDD_PYTHON` overrides the interpreter, `LDD_SKIP_PYTHON=1`
//! skips the comparison.

use std::path::{Path, PathBuf};
use std::process::Command;

use ldd_eval::significance::{self, interval, paired_ar_p, paired_bs_p, DEFAULT_SEED};
use ldd_eval::{
    bleu, chrf, sum_all, BleuScoring, BleuStats, ChrfScoring, ChrfStats, SufficientStats,
};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn python() -> Option<PathBuf> {
    if std::env::var("LDD_SKIP_PYTHON").as_deref() == Ok("1") {
        eprintln!("LDD_SKIP_PYTHON=1: skipping the sacreBLEU oracle");
        return None;
    }
    let py = std::env::var_os("LDD_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest().join("../../.venv/bin/python"));
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
        "sacreBLEU 2.4.3 not found at {} — `make venv` from the workspace root, or set \
         LDD_PYTHON (or LDD_SKIP_PYTHON=1 to skip)",
        py.display()
    );
    Some(py)
}

/// sacreBLEU's own paired tests (`tests/oracle/sacrebleu_paired.py`, shared with the
/// CLI-level test): per metric and system the score, p-value, bootstrap mean and CI
/// half-width.
fn oracle_script() -> PathBuf {
    manifest().join("../../tests/oracle/sacrebleu_paired.py")
}

fn write(dir: &Path, name: &str, lines: &[String]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p
}

/// Drops every `k`-th word of a line.
fn drop_every(line: &str, k: usize) -> String {
    line.split(' ')
        .enumerate()
        .filter(|(i, _)| i % k != k - 1)
        .map(|(_, w)| w)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A deterministic hash of a line number, to pick which lines a system degrades.
fn h(i: usize, salt: u64) -> u64 {
    ldd_eval::rng::mix64(i as u64 ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

struct Oracle {
    score: f64,
    p: Option<f64>,
    mean: Option<f64>,
    ci: Option<f64>,
}

fn oracle(py: &Path, refp: &Path, test: &str, n: usize, systems: &[PathBuf]) -> serde_json::Value {
    let mut args = vec![
        oracle_script().display().to_string(),
        refp.display().to_string(),
        test.to_string(),
        n.to_string(),
    ];
    args.extend(systems.iter().map(|p| p.display().to_string()));
    let o = Command::new(py).args(&args).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn row(v: &serde_json::Value, metric: &str, k: usize) -> Oracle {
    let r = &v[metric][k];
    Oracle {
        score: r["score"].as_f64().unwrap(),
        p: r["p"].as_f64(),
        mean: r["mean"].as_f64(),
        ci: r["ci"].as_f64(),
    }
}

/// Two Monte-Carlo estimates of one p-value from `n` draws each agree within 4 standard
/// errors of their difference (plus one count).
fn p_close(a: f64, b: f64, n: usize) -> bool {
    let p = 0.5 * (a + b);
    let se = (2.0 * p * (1.0 - p) / n as f64).sqrt();
    (a - b).abs() <= 4.0 * se + 2.0 / n as f64
}

#[test]
fn paired_tests_agree_with_sacrebleu() {
    let Some(py) = python() else { return };
    let refs: Vec<String> =
        ldd_io::read_lines(&manifest().join("../../../shared/data/parallel/newstest2013.de-en.en"))
            .unwrap()
            .into_iter()
            .take(600)
            .collect();
    // Baseline: half of the lines (chosen by hash) lose every 3rd word.
    let degrade = |salt: u64, share: u64, k: usize| -> Vec<String> {
        refs.iter()
            .enumerate()
            .map(|(i, l)| {
                if h(i, salt) % 100 < share {
                    drop_every(l, k)
                } else {
                    l.clone()
                }
            })
            .collect()
    };
    let systems = [
        ("base", degrade(1, 50, 3)),
        ("better", degrade(1, 20, 3)),
        ("worse", degrade(1, 90, 2)),
        ("noise", degrade(2, 50, 3)),
    ];
    let tmp = tempfile::tempdir().unwrap();
    let refp = write(tmp.path(), "ref.en", &refs);
    let paths: Vec<PathBuf> = systems
        .iter()
        .map(|(n, l)| write(tmp.path(), &format!("{n}.en"), l))
        .collect();
    let bl: Vec<Vec<BleuStats>> = systems
        .iter()
        .map(|(_, l)| bleu::line_stats(l, &refs).unwrap())
        .collect();
    let ch: Vec<Vec<ChrfStats>> = systems
        .iter()
        .map(|(_, l)| chrf::line_stats(l, &refs).unwrap())
        .collect();
    let ids: Vec<u32> = (1..=refs.len() as u32).collect();
    let n_bs = 1000;
    let n_ar = 4000;
    let bs = oracle(&py, &refp, "bs", n_bs, &paths);
    let ar = oracle(&py, &refp, "ar", n_ar, &paths);
    assert_eq!(
        bs["signatures"]["BLEU"],
        "nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.4.3"
    );
    assert_eq!(
        ar["signatures"]["chrF2"],
        "nrefs:1|ar:4000|seed:12345|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.4.3"
    );

    #[allow(clippy::too_many_arguments)]
    fn check<T: SufficientStats + Sync + PartialEq>(
        params: &T::Params,
        name: &str,
        key: &str,
        stats: &[Vec<T>],
        ids: &[u32],
        bs: &serde_json::Value,
        ar: &serde_json::Value,
        n_bs: usize,
        n_ar: usize,
    ) -> Vec<(f64, f64)> {
        let views: Vec<&[T]> = stats.iter().map(|s| s.as_slice()).collect();
        let res = significance::bootstrap(&views, params, ids, n_bs, DEFAULT_SEED, 0).unwrap();
        let scores: Vec<f64> = stats.iter().map(|s| sum_all(s).score(params)).collect();
        let mut ps = Vec::new();
        for k in 0..stats.len() {
            let o = row(bs, key, k);
            assert!((o.score - scores[k]).abs() < 1e-9, "{name} {k}: score");
            let i = interval(&res[k], 0.95).unwrap();
            let (mean, ci) = (o.mean.unwrap(), o.ci.unwrap());
            // The mean of 1,000 resamples: within 4 standard errors (sd ≈ ci / 1.96).
            let se = ci / 1.96 / (n_bs as f64).sqrt();
            assert!(
                (i.mean - mean).abs() <= 4.0 * se * 2f64.sqrt(),
                "{name} {k}: mean {} vs {mean}",
                i.mean
            );
            // The 2.5% / 97.5% percentiles of 1,000 resamples: within 15% in width.
            assert!(
                (i.half_width() - ci).abs() <= 0.15 * ci,
                "{name} {k}: ci ±{} vs ±{ci}",
                i.half_width()
            );
            assert!(i.low < scores[k] && scores[k] < i.high);
            if k == 0 {
                assert_eq!(o.p, None);
                continue;
            }
            let p_bs = paired_bs_p(&res[0], &res[k], scores[0], scores[k]).unwrap();
            let p_ar = paired_ar_p(&stats[0], &stats[k], params, ids, n_ar, DEFAULT_SEED, 0)
                .unwrap()
                .unwrap();
            let (sb_bs, sb_ar) = (o.p.unwrap(), row(ar, key, k).p.unwrap());
            eprintln!("{name} system {k}: bs p {p_bs} (sacreBLEU {sb_bs}), ar p {p_ar} (sacreBLEU {sb_ar})");
            assert!(
                p_close(p_bs, sb_bs, n_bs),
                "{name} {k}: bs p {p_bs} vs {sb_bs}"
            );
            assert!(
                p_close(p_ar, sb_ar, n_ar),
                "{name} {k}: ar p {p_ar} vs {sb_ar}"
            );
            ps.push((p_bs, p_ar));
        }
        ps
    }
    for (name, ps) in [
        (
            "BLEU",
            check(
                &BleuScoring::default(),
                "BLEU",
                "BLEU",
                &bl,
                &ids,
                &bs,
                &ar,
                n_bs,
                n_ar,
            ),
        ),
        (
            "chrF",
            check(
                &ChrfScoring::default(),
                "chrF",
                "chrF2",
                &ch,
                &ids,
                &bs,
                &ar,
                n_bs,
                n_ar,
            ),
        ),
    ] {
        // better and worse: the smallest p-value there is; noise: not significant.
        assert_eq!(ps[0], (1.0 / 1001.0, 1.0 / 4001.0), "{name} better");
        assert_eq!(ps[1], (1.0 / 1001.0, 1.0 / 4001.0), "{name} worse");
        assert!(
            ps[2].0 > 0.05 && ps[2].1 > 0.05,
            "{name} noise: {:?}",
            ps[2]
        );
    }
}
