//! `make bench` (core): throughput of lexical extraction on a >= 1,000,000-word CoNLL-U
//! built from the shared UD files, with the built-in rules and with the paper's rules
//! (`--paper-compat`, the rules before issue 54's patterns and repairs), against the
//! paper's approach (one phenomenon at one distance per run, plain Python:
//! benches/paper_baseline.py), all measured in the same run.
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

/// Best of 3 runs of `extract` with `rules` on `threads` threads: (wall, cpu) seconds.
fn time_extract(
    rules: &RuleSet,
    threads: usize,
    (src, tgt, conllu): (&Path, &Path, &Path),
    out: &Path,
) -> (f64, f64) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let corpus = CorpusFiles {
        source: src.to_path_buf(),
        target: tgt.to_path_buf(),
        conllu: conllu.to_path_buf(),
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
        dir: out.to_path_buf(),
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
    best
}

/// The paper's approach, one phenomenon at one distance (benches/paper_baseline.py): its
/// best cpu seconds of 2 runs, `None` without python3.
fn baseline(conllu: &Path) -> Option<f64> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/paper_baseline.py");
    let mut best = f64::MAX;
    for _ in 0..2 {
        let c0 = cpu_seconds(libc::RUSAGE_CHILDREN);
        let out = Command::new("python3").arg(&script).arg(conllu).output();
        let cpu = cpu_seconds(libc::RUSAGE_CHILDREN) - c0;
        match out {
            Ok(o) if o.status.success() => best = best.min(cpu),
            _ => return None,
        }
    }
    Some(best)
}

fn main() {
    let tmp = tempfile::tempdir().unwrap();
    let (conllu, src, tgt, bytes, words) = build_corpus(tmp.path(), 5);
    assert!(words >= 1_000_000, "{words} words");
    let mb = bytes as f64 / 1e6;
    println!("corpus: {mb:.1} MB of CoNLL-U, {words} words (5 x the shared UD files)");

    // The built-in rules for an English source (their English patterns, repairs included)
    // and the paper's (`--paper-compat`, the rules before issue 54), timed in the same run.
    let select = |r: RuleSet| {
        let mut r = r.select(None, "en").unwrap();
        r.max_distance = 5;
        r
    };
    let rules = select(RuleSet::builtin().unwrap());
    let paper = select(RuleSet::builtin_paper().unwrap());
    let n_jobs = rules.phenomena.len() * 6 * 2;
    let files = (src.as_path(), tgt.as_path(), conllu.as_path());
    for threads in [1, 2] {
        let out = tmp.path().join(format!("out{threads}"));
        let (p_wall, p_cpu) = time_extract(&paper, threads, files, &out);
        let (wall, cpu) = time_extract(&rules, threads, files, &out);
        for (what, w, c) in [
            ("paper's rules", p_wall, p_cpu),
            ("built-in rules", wall, cpu),
        ] {
            println!(
                "ldd-sets extract, {what}, {threads} thread(s), {} phenomena x 6 distances x 2 bucket kinds = {n_jobs} sets: \
                 wall {w:.3} s ({:.0} MB/s), cpu {c:.3} s => {:.0} MB/s and {:.0} words/s per thread",
                rules.phenomena.len(),
                mb / w,
                mb / c,
                words as f64 / c
            );
        }
        println!(
            "built-in rules vs the paper's, {threads} thread(s): {:.2}x the paper's throughput per thread",
            p_cpu / cpu
        );
        if threads == 1 {
            match baseline(&conllu) {
                None => println!("baseline: python3 not available, ratio not measured"),
                Some(py_cpu) => {
                    let py = mb / py_cpu;
                    println!(
                        "baseline (benches/paper_baseline.py, 1 phenomenon x 1 distance): cpu {py_cpu:.3} s => {py:.0} MB/s"
                    );
                    println!(
                        "ratio: ldd-sets' whole job ({n_jobs} sets in one pass) vs {n_jobs} baseline runs: {:.0}x \
                         (target >= 100 MB/s per thread: {})",
                        (mb / cpu) / (py / n_jobs as f64),
                        if mb / cpu >= 100.0 { "met" } else { "NOT met" }
                    );
                }
            }
        }
    }
}
