//! Scoring all sets × 100 controls of the German→English PUD extract, against
//! re-scoring each subset from scratch (re-tokenizing and re-counting its lines).
//!
//! `cargo bench --bench score_sets`. The from-scratch baseline is measured on every
//! 10th subset (sets and controls) in the same run and extrapolated to all of them.

use std::path::{Path, PathBuf};
use std::time::Instant;

use ldd_io::read_lines;
use ldd_sets::config::Languages;
use ldd_sets::pipeline::detect::reorder::ReorderOptions;
use ldd_sets::pipeline::detect::rules::RuleSet;
use ldd_sets::pipeline::sample::ControlOptions;
use ldd_sets::pipeline::{extract, CorpusFiles, Output, SetOptions};
use ldd_sets::score::{load, score_sets, ScoreOptions, SignificanceOptions};

fn shared(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(rel)
}

fn ids(p: &Path) -> Vec<usize> {
    std::fs::read_to_string(p)
        .expect("ids file")
        .lines()
        .map(|l| l.parse::<usize>().expect("id") - 1)
        .collect()
}

fn main() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("o");
    let src = shared("parallel/pud.de-en.de");
    let tgt = shared("parallel/pud.de-en.en");
    let rules = RuleSet::builtin()
        .and_then(|r| r.select(None, "de"))
        .expect("built-in rules");
    let corpus = CorpusFiles {
        source: src,
        target: tgt.clone(),
        conllu: shared("ud/de_pud-ud-test.conllu"),
        trust_conllu: false,
        shard: None,
    };
    let languages = Languages::new("de", "en").expect("languages");
    let sets = SetOptions {
        rules,
        reorder: Some(ReorderOptions::default()),
    };
    let controls = ControlOptions {
        count: 100,
        ..ControlOptions::default()
    };
    let output = Output {
        dir: out.clone(),
        protect: Vec::new(),
        replace: true,
    };
    let t = Instant::now();
    extract(&corpus, &languages, &sets, &controls, &output).expect("extract");
    let extract_s = t.elapsed().as_secs_f64();

    // A degraded system: every 3rd word dropped.
    let refs = read_lines(&tgt).expect("reference");
    let hyps: Vec<String> = refs
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
    let hyp = tmp.path().join("sys.en");
    std::fs::write(&hyp, hyps.join("\n") + "\n").expect("write hyp");

    let args = ScoreOptions {
        hyps: vec![hyp],
        names: vec!["sys".into()],
        references: vec![tgt],
        settings: Default::default(),
        seg_scores: Vec::new(),
        metrics: Vec::new(),
        align_model: None,
        parsing: Default::default(),
        contrastive: None,
        // Scores only (no resampling): `make bench-significance` times the intervals.
        significance: SignificanceOptions {
            bootstrap: 0,
            ..SignificanceOptions::default()
        },
    };
    let t = Instant::now();
    let loaded = load(&out).expect("load");
    let load_s = t.elapsed().as_secs_f64();
    let report = score_sets(&loaded, &args).expect("score");
    let ours = t.elapsed().as_secs_f64();
    let subsets: usize = report
        .scores
        .rows
        .iter()
        .filter(|r| r.scope == "set" && r.metric == "bleu")
        .map(|r| usize::from(r.score.is_some()) + r.controls)
        .sum();

    // Baseline: BLEU + chrF of each subset from its text.
    let m: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("manifest.json")).expect("manifest"),
    )
    .expect("json");
    let mut files = Vec::new();
    for c in m["controls"].as_array().expect("controls") {
        let (p, b) = (
            c["phenomenon"].as_str().unwrap_or(""),
            c["bucket"].as_str().unwrap_or(""),
        );
        if c["sentences"] == 0 {
            continue;
        }
        files.push(out.join(format!("{p}/{b}.ids")));
        for k in 1..=c["count"].as_u64().unwrap_or(0) {
            files.push(out.join(format!("{p}/controls/{b}.{k}.ids")));
        }
    }
    let sample: Vec<&PathBuf> = files.iter().step_by(10).collect();
    let t = Instant::now();
    let mut checksum = 0.0;
    for f in &sample {
        let ids = ids(f);
        let h: Vec<&str> = ids.iter().map(|&i| hyps[i].as_str()).collect();
        let r: Vec<&str> = ids.iter().map(|&i| refs[i].as_str()).collect();
        checksum += ldd_eval::bleu::corpus_bleu(&h, &r).expect("bleu").score;
        checksum += ldd_eval::chrf::corpus_chrf(&h, &r).expect("chrf");
    }
    let per = t.elapsed().as_secs_f64() / sample.len() as f64;
    let scratch = per * files.len() as f64;
    println!(
        "PUD de→en, {} lines, built-in German phenomena, 100 controls per set",
        refs.len()
    );
    println!("extract incl. sampling + writing controls: {extract_s:.2} s");
    println!(
        "score (per-line BLEU+chrF stats once + summing {} subsets = sets + controls): {:.3} s",
        subsets, ours
    );
    println!(
        "  of which loading the sets (manifest, every ids file read once with its SHA-256 checked): {load_s:.3} s",
    );
    println!(
        "from scratch: {:.2} ms/subset measured on {} of {} subsets → {:.2} s extrapolated (checksum {checksum:.1})",
        per * 1e3,
        sample.len(),
        files.len(),
        scratch
    );
    println!(
        "speed-up of score over re-scoring from scratch: {:.1}×",
        scratch / ours
    );
}
