//! `make bench` (core): throughput of lexical extraction on a >= 1,000,000-word CoNLL-U
//! built from the shared UD files, against the paper's approach (one phenomenon at one
//! distance per run, plain Python: benches/paper_baseline.py) measured in the same run.
//!
//! Figures are per thread: bytes (or words) divided by CPU seconds of the process
//! (rusage), so they stay meaningful on a loaded machine; wall times are printed too.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use ldd_sets::config::Languages;
use ldd_sets::detect::rules::RuleSet;
use ldd_sets::pipeline::{extract, CorpusFiles, Output, SetOptions};
use ldd_sets::sample::ControlOptions;

/// CPU seconds (user + system) of this process, or of its finished children.
fn cpu_seconds(who: i32) -> f64 {
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes into the struct we own.
    unsafe { libc::getrusage(who, &mut ru) };
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    t(ru.ru_utime) + t(ru.ru_stime)
}

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/ud")
}

/// Concatenates the shared UD files `copies` times; writes the matching corpus sides.
fn build_corpus(dir: &Path, copies: usize) -> (PathBuf, PathBuf, PathBuf, u64, u64) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(shared())
        .expect("../shared/data/ud")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "conllu"))
        .collect();
    files.sort();
    let conllu = dir.join("big.conllu");
    let src = dir.join("big.de");
    let tgt = dir.join("big.en");
    let mut c = std::io::BufWriter::new(std::fs::File::create(&conllu).unwrap());
    let mut s = std::io::BufWriter::new(std::fs::File::create(&src).unwrap());
    let mut words = 0u64;
    for _ in 0..copies {
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            c.write_all(text.as_bytes()).unwrap();
            for block in text.split("\n\n").filter(|b| !b.trim().is_empty()) {
                // The corpus line is the sentence's text (`# text =`), as a corpus holds it:
                // "im", not the syntactic words "in dem" (extract checks that each tree
                // belongs to its line).
                let line = block
                    .lines()
                    .find_map(|l| l.strip_prefix("# text = "))
                    .expect("every shared UD sentence has `# text =`");
                words += block
                    .lines()
                    .filter(|l| {
                        l.split('\t').next().is_some_and(|id| {
                            !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())
                        })
                    })
                    .count() as u64;
                writeln!(s, "{line}").unwrap();
            }
        }
    }
    c.flush().unwrap();
    s.flush().unwrap();
    drop(s);
    std::fs::copy(&src, &tgt).unwrap();
    let bytes = std::fs::metadata(&conllu).unwrap().len();
    (conllu, src, tgt, bytes, words)
}

fn main() {
    let tmp = tempfile::tempdir().unwrap();
    let (conllu, src, tgt, bytes, words) = build_corpus(tmp.path(), 5);
    assert!(words >= 1_000_000, "{words} words");
    let mb = bytes as f64 / 1e6;
    println!("corpus: {mb:.1} MB of CoNLL-U, {words} words (5 x the shared UD files)");

    let mut rules = RuleSet::builtin().unwrap().select(None, "en").unwrap();
    rules.max_distance = 5;
    let n_jobs = rules.phenomena.len() * 6 * 2;
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let corpus = CorpusFiles {
            source: src.clone(),
            target: tgt.clone(),
            conllu: conllu.clone(),
            trust_conllu: false,
            shard: None,
        };
        let languages = Languages::new("en", "de").expect("languages");
        let sets = SetOptions {
            rules: rules.clone(),
            reorder: None,
        };
        let controls = ControlOptions {
            count: 0,
            ..Default::default()
        };
        let output = Output {
            dir: tmp.path().join(format!("out{threads}")),
            protect: Vec::new(),
            replace: true,
        };
        let mut best = (f64::MAX, f64::MAX);
        for _ in 0..3 {
            let cpu0 = cpu_seconds(libc::RUSAGE_SELF);
            let t0 = Instant::now();
            pool.install(|| extract(&corpus, &languages, &sets, &controls, &output))
                .unwrap();
            let wall = t0.elapsed().as_secs_f64();
            let cpu = cpu_seconds(libc::RUSAGE_SELF) - cpu0;
            best = (best.0.min(wall), best.1.min(cpu));
        }
        println!(
            "ldd-sets extract, {threads} thread(s), {} phenomena x 6 distances x 2 bucket kinds = {n_jobs} sets: \
             wall {:.3} s ({:.0} MB/s), cpu {:.3} s => {:.0} MB/s and {:.0} words/s per thread",
            rules.phenomena.len(),
            best.0,
            mb / best.0,
            best.1,
            mb / best.1,
            words as f64 / best.1
        );
        if threads == 1 {
            // Baseline: the paper's approach, one phenomenon at one distance.
            let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/paper_baseline.py");
            let mut py_best = (f64::MAX, f64::MAX);
            for _ in 0..2 {
                let c0 = cpu_seconds(libc::RUSAGE_CHILDREN);
                let t0 = Instant::now();
                let out = Command::new("python3").arg(&script).arg(&conllu).output();
                let wall = t0.elapsed().as_secs_f64();
                let cpu = cpu_seconds(libc::RUSAGE_CHILDREN) - c0;
                match out {
                    Ok(o) if o.status.success() => {
                        py_best = (py_best.0.min(wall), py_best.1.min(cpu))
                    }
                    _ => {
                        println!("baseline: python3 not available, ratio not measured");
                        break;
                    }
                }
            }
            if py_best.1 < f64::MAX {
                let py = mb / py_best.1;
                println!(
                    "baseline (benches/paper_baseline.py, 1 phenomenon x 1 distance): cpu {:.3} s => {py:.0} MB/s",
                    py_best.1
                );
                println!(
                    "ratio: ldd-sets' whole job ({n_jobs} sets in one pass) vs {n_jobs} baseline runs: {:.0}x \
                     (target >= 100 MB/s per thread: {})",
                    (mb / best.1) / (py / n_jobs as f64),
                    if mb / best.1 >= 100.0 { "met" } else { "NOT met" }
                );
            }
        }
    }
}
