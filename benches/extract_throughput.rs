//! `make bench-core` (benches/extract_throughput.sh): throughput of lexical extraction on a
//! CoNLL-U of at least 1,000,000 words built from the shared UD files, `ldd-sets extract`
//! run as a child process: today's binary with its built-in rules and with `--paper-compat` (the
//! paper's rules), and the binary of an earlier commit (`LDD_SETS_BEFORE`; the script
//! builds the code before issue 54, whose default rules were the paper's), alternating,
//! best of `ROUNDS` (3); against the paper's approach (one phenomenon at one distance per
//! run, plain Python: benches/paper_baseline.py), all measured in the same run.
//!
//! Figures are per thread: bytes (or words) divided by CPU seconds of the child (rusage),
//! so they stay meaningful on a loaded machine; wall times are printed too.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// CPU seconds in user space and in the kernel of this process, or of its finished
/// children.
fn cpu_times(who: i32) -> [f64; 2] {
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes into the struct we own.
    unsafe { libc::getrusage(who, &mut ru) };
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    [t(ru.ru_utime), t(ru.ru_stime)]
}

/// CPU seconds (user + system) of this process, or of its finished children.
fn cpu_seconds(who: i32) -> f64 {
    cpu_times(who).iter().sum()
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

/// A binary timed on the corpus: its name in the output, its path, its extra flags.
struct Variant {
    name: String,
    bin: PathBuf,
    args: &'static [&'static str],
}

/// The binaries timed: the one of `LDD_SETS_BEFORE` (the code before issue 54, its default
/// rules then the paper's; benches/extract_throughput.sh builds it), if set, then today's
/// with its built-in rules and with `--paper-compat` (`LDD_SETS_NOW`, if set, stands for
/// today's binary).
fn variants() -> Vec<Variant> {
    let now = std::env::var_os("LDD_SETS_NOW").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_ldd-sets")),
        PathBuf::from,
    );
    let mut v = Vec::new();
    if let Some(bin) = std::env::var_os("LDD_SETS_BEFORE") {
        let name = std::env::var("LDD_SETS_BEFORE_NAME").unwrap_or_else(|_| "before".into());
        let bin = PathBuf::from(bin);
        assert!(bin.is_file(), "LDD_SETS_BEFORE: no file {}", bin.display());
        v.push(Variant {
            name: format!("{name}, its default rules"),
            bin,
            args: &[],
        });
    }
    v.push(Variant {
        name: "today, built-in rules".into(),
        bin: now.clone(),
        args: &[],
    });
    v.push(Variant {
        name: "today, --paper-compat".into(),
        bin: now,
        args: &["--paper-compat"],
    });
    v
}

/// One run of `ldd-sets extract` of `v` as a child process on `threads` threads, the
/// English rules up to ge5/eq5, no reordering sets, no controls, in `out`'s parent (not
/// the repository, whose config/ belongs to today's binary: each binary reads the configs
/// it ships): [wall, cpu, user] seconds (cpu: user + system).
fn time_extract(
    v: &Variant,
    threads: usize,
    (src, tgt, conllu): (&Path, &Path, &Path),
    out: &Path,
) -> [f64; 3] {
    if out.exists() {
        std::fs::remove_dir_all(out).unwrap();
    }
    // The previous run's output written back to disk now, not during this run.
    // SAFETY: sync takes no arguments and cannot fail.
    unsafe { libc::sync() };
    let dir = out.parent().expect("out in a directory");
    std::fs::create_dir_all(dir).unwrap();
    let mut cmd = Command::new(&v.bin);
    cmd.current_dir(dir);
    cmd.args([
        "extract",
        "-q",
        "--offline",
        "--src-lang",
        "en",
        "--tgt-lang",
        "de",
    ])
    .args(["--no-reorder", "--controls", "0", "--max-distance", "5"])
    .arg("--src")
    .arg(src)
    .arg("--tgt")
    .arg(tgt)
    .arg("--conllu")
    .arg(conllu)
    .arg("--out")
    .arg(out)
    .arg("--threads")
    .arg(threads.to_string())
    .args(v.args);
    let [user0, sys0] = cpu_times(libc::RUSAGE_CHILDREN);
    let t0 = Instant::now();
    let o = cmd.output().expect("run ldd-sets");
    let wall = t0.elapsed().as_secs_f64();
    let [user, sys] = cpu_times(libc::RUSAGE_CHILDREN);
    let (user, sys) = (user - user0, sys - sys0);
    assert!(
        o.status.success(),
        "{}: {}",
        v.name,
        String::from_utf8_lossy(&o.stderr)
    );
    [wall, user + sys, user]
}

/// Best of `rounds` rounds of every variant, the order rotating from round to round (each
/// variant first in one round, second in the next, ...) so that none always runs in the
/// same place: (wall, cpu) of each, in the order of `vs`.
fn time_all(
    vs: &[Variant],
    rounds: usize,
    threads: usize,
    files: (&Path, &Path, &Path),
    out: &Path,
) -> Vec<[f64; 3]> {
    let mut best = vec![[f64::MAX; 3]; vs.len()];
    for round in 0..rounds {
        for k in 0..vs.len() {
            let i = (round + k) % vs.len();
            let t = time_extract(&vs[i], threads, files, &out.join(i.to_string()));
            best[i] = std::array::from_fn(|k| best[i][k].min(t[k]));
        }
    }
    best
}

/// The sets an output holds and their instances (summary.csv's rows and `pairs`).
fn set_counts(out: &Path) -> (usize, u64) {
    let text = std::fs::read_to_string(out.join("summary.csv")).expect("summary.csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let col = header
        .iter()
        .position(|h| *h == "pairs")
        .expect("a pairs column");
    let rows: Vec<u64> = lines
        .map(|l| {
            l.split(',')
                .nth(col)
                .and_then(|c| c.parse().ok())
                .expect("pairs")
        })
        .collect();
    (rows.len(), rows.iter().sum())
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

/// Prints each variant's figures on `threads` threads and the ratios of today's binary to
/// the others; returns today's built-in rules' CPU seconds.
fn report(
    vs: &[Variant],
    best: &[[f64; 3]],
    threads: usize,
    outs: &Path,
    (mb, words): (f64, u64),
) -> f64 {
    for (i, (v, &[w, c, u])) in vs.iter().zip(best).enumerate() {
        let (sets, pairs) = set_counts(&outs.join(i.to_string()));
        println!(
            "ldd-sets extract, {}, {threads} thread(s): {sets} sets, {pairs} instances; wall {w:.3} s ({:.0} MB/s), \
             cpu {c:.3} s (user {u:.3} s) => {:.1} MB/s and {:.0} words/s per thread",
            v.name,
            mb / w,
            mb / c,
            words as f64 / c
        );
    }
    let times = |name: &str| {
        vs.iter()
            .zip(best)
            .find(|(v, _)| v.name.starts_with(name))
            .map(|(_, b)| *b)
            .expect("today's binary")
    };
    let ([_, today, today_user], [_, paper, _]) =
        (times("today, built-in"), times("today, --paper"));
    println!(
        "today's built-in rules vs today's --paper-compat, {threads} thread(s): {:.3}x its throughput per thread",
        paper / today
    );
    if let Some([_, before, before_user]) = (vs.len() == 3).then(|| best[0]) {
        println!(
            "today's --paper-compat vs {}, {threads} thread(s): {:.3}x its throughput per thread",
            vs[0].name,
            before / paper
        );
        println!(
            "today's built-in rules vs {}, {threads} thread(s): {:.3}x its throughput per thread \
             (issue 54, not lower than before: {})",
            vs[0].name,
            before / today,
            if today <= before { "met" } else { "NOT met" }
        );
        println!(
            "today's built-in rules vs {}, {threads} thread(s), user-space CPU time only: {:.3}x",
            vs[0].name,
            before_user / today_user
        );
    } else {
        println!("no LDD_SETS_BEFORE: today's binary not compared with an earlier one (make bench-core does)");
    }
    today
}

fn main() {
    let tmp = tempfile::tempdir().unwrap();
    let (conllu, src, tgt, bytes, words) = build_corpus(tmp.path(), 5);
    assert!(words >= 1_000_000, "{words} words");
    let mb = bytes as f64 / 1e6;
    println!("corpus: {mb:.1} MB of CoNLL-U, {words} words (5 x the shared UD files)");
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "load average before: {}",
        load.split(' ').take(3).collect::<Vec<_>>().join(" ")
    );

    let vs = variants();
    let rounds = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let n_jobs = 3 * 6 * 2;
    let files = (src.as_path(), tgt.as_path(), conllu.as_path());
    for threads in [1, 2] {
        let out = tmp.path().join(format!("out{threads}"));
        let best = time_all(&vs, rounds, threads, files, &out);
        let cpu = report(&vs, &best, threads, &out, (mb, words));
        if threads == 1 {
            match baseline(&conllu) {
                None => println!("baseline: python3 not available, ratio not measured"),
                Some(py_cpu) => {
                    let py = mb / py_cpu;
                    println!(
                        "baseline (benches/paper_baseline.py, 1 phenomenon x 1 distance): cpu {py_cpu:.3} s => {py:.0} MB/s"
                    );
                    println!(
                        "ratio: ldd-sets' whole job ({n_jobs} sets in one pass, built-in rules) vs {n_jobs} baseline runs: {:.0}x \
                         (target >= 100 MB/s per thread: {})",
                        (mb / cpu) / (py / n_jobs as f64),
                        if mb / cpu >= 100.0 { "met" } else { "NOT met" }
                    );
                }
            }
        }
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "load average after: {}",
        load.split(' ').take(3).collect::<Vec<_>>().join(" ")
    );
}
