//! Benchmark against the C++ fast_align reference output on the 31,030 books+news pairs.
//!
//! Run: `cargo bench -p ldd-align --bench align_reference`
//!
//! Each job runs in a child process (this binary re-invoked) so that its peak RSS (VmHWM,
//! taken after training and the final alignment pass) is its own: forward and reverse with all threads, then forward with one thread as the in-run
//! baseline (its alignments must be identical to the multi-threaded ones). The parent prints
//! wall times, peak memory, F1 against the reference forward, reverse and grow-diag-final-and
//! files, and ratios against the baseline and against fast_align's documented timings.
//!
//! Set `FAST_ALIGN_BIN=/path/to/fast_align` to also time the C++ program side by side (wall
//! time and, through `/usr/bin/time`, peak memory) on the same machine in the same run.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use ldd_align::{
    pharaoh, precision_recall_f1, symmetrize, Alignment, Corpus, Method, Model, TrainOptions,
};

/// fast_align (C++, OpenMP, both cores of a quiet 2-core machine) wall time, forward, from
/// `shared/data/reference/fast_align/README.md`. A documented figure, not measured here.
const FAST_ALIGN_FWD_SECS: f64 = 15.3;
/// Same, reverse (`-r`).
const FAST_ALIGN_REV_SECS: f64 = 16.7;
/// fast_align peak memory per direction (same README), in MB.
const FAST_ALIGN_PEAK_MB: f64 = 760.0;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/reference/fast_align")
}

/// CPU time (user + system) of this process so far, in seconds, from /proc/self/stat.
fn cpu_secs() -> f64 {
    let ticks = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // Fields after the parenthesised command name; utime and stime are 14th and 15th.
            let rest = s.rsplit_once(')')?.1.to_string();
            let f: Vec<&str> = rest.split_whitespace().collect();
            Some(f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?)
        })
        .unwrap_or(0.0);
    ticks / 100.0 // USER_HZ is 100 on Linux
}

fn child(job: &str, out: &Path) {
    let t0 = Instant::now();
    let corpus =
        Corpus::read_fast_align(data_dir().join("books-news.de-en.fa.gz")).expect("corpus");
    let load = t0.elapsed().as_secs_f64();
    let opts = TrainOptions {
        reverse: job == "rev",
        threads: if job == "fwd1" { Some(1) } else { None },
        ..TrainOptions::default()
    };
    // One direction as fast_align runs it: EM, then the Viterbi pass of the final iteration.
    let t1 = Instant::now();
    let cpu0 = cpu_secs();
    let (model, al) = Model::train_and_align(&corpus, &opts).expect("train");
    let train = t1.elapsed().as_secs_f64();
    let cpu = cpu_secs() - cpu0;
    let hwm = common::vm_hwm_kb();
    // Re-aligning the corpus with the trained model (index rebuilt from scratch), timed
    // separately; it must give the same alignments.
    let t2 = Instant::now();
    let again = model.align(&corpus);
    let align = t2.elapsed().as_secs_f64();
    assert!(
        again == al,
        "Model::align differs from the final training pass"
    );
    let text: String = al.iter().map(|a| pharaoh::format_line(a) + "\n").collect();
    std::fs::write(out, text).expect("write alignments");
    println!(
        "RESULT {job} {load:.3} {train:.3} {align:.3} {hwm} {:.4} {} {cpu:.2}",
        model.tension(),
        model.num_params()
    );
}

struct JobResult {
    load: f64,
    train: f64,
    align: f64,
    hwm_mb: f64,
    alignments: Vec<Alignment>,
}

fn run_job(job: &str, tmp: &Path) -> JobResult {
    let out = tmp.join(format!("{job}.align"));
    let exe = std::env::current_exe().expect("current exe");
    let o = Command::new(exe)
        .env("LDD_ALIGN_BENCH_CHILD", job)
        .env("LDD_ALIGN_BENCH_OUT", &out)
        .output()
        .expect("spawn child");
    let stdout = String::from_utf8_lossy(&o.stdout);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("RESULT"))
        .unwrap_or_else(|| panic!("child {job} failed: {}", String::from_utf8_lossy(&o.stderr)));
    let f: Vec<&str> = line.split_whitespace().collect();
    let num = |k: usize| f[k].parse::<f64>().expect("number");
    println!(
        "  {job:5} read corpus {:5.2} s | train+align {:6.2} s wall ({:5.2} s CPU), peak RSS {:5.0} MB | re-align with trained model {:5.2} s | tension {} | {} word pairs",
        num(2),
        num(3),
        num(8),
        num(5) / 1024.0,
        num(4),
        f[6],
        f[7]
    );
    JobResult {
        load: num(2),
        train: num(3),
        align: num(4),
        hwm_mb: num(5) / 1024.0,
        alignments: pharaoh::read_file(&out, None).expect("read back"),
    }
}

fn time_fast_align(
    bin: &str,
    input: &Path,
    reverse: bool,
    out: &Path,
) -> Option<(f64, Option<f64>)> {
    let mut args: Vec<String> = vec!["-f".into(), "%M".into(), bin.into()];
    args.extend(["-i", input.to_str()?, "-d", "-o", "-v"].map(String::from));
    if reverse {
        args.push("-r".into());
    }
    let use_time = Path::new("/usr/bin/time").exists();
    let t = Instant::now();
    let o = if use_time {
        Command::new("/usr/bin/time").args(&args).output().ok()?
    } else {
        Command::new(bin).args(&args[3..]).output().ok()?
    };
    let secs = t.elapsed().as_secs_f64();
    std::fs::write(out, &o.stdout).ok()?;
    let peak = if use_time {
        String::from_utf8_lossy(&o.stderr)
            .lines()
            .last()
            .and_then(|l| l.trim().parse::<f64>().ok())
            .map(|kb| kb / 1024.0)
    } else {
        None
    };
    Some((secs, peak))
}

fn main() {
    if let Ok(job) = std::env::var("LDD_ALIGN_BENCH_CHILD") {
        let out = std::env::var("LDD_ALIGN_BENCH_OUT").expect("LDD_ALIGN_BENCH_OUT");
        child(&job, Path::new(&out));
        return;
    }
    // `cargo bench` passes `--bench`; ignore arguments.
    let dir = data_dir();
    let input = dir.join("books-news.de-en.fa.gz");
    if !input.exists() {
        println!("SKIP: reference data not found at {}", dir.display());
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let threads = rayon::current_num_threads();
    println!("ldd-align vs fast_align reference, 31,030 pairs, 5 iterations, -d -o -v ({threads} threads)");
    let fwd = run_job("fwd", tmp.path());
    let rev = run_job("rev", tmp.path());
    let fwd1 = run_job("fwd1", tmp.path());
    let _ = (fwd.load, fwd.align, rev.align, fwd1.load);

    let corpus = Corpus::read_fast_align(&input).expect("corpus");
    let lens: Vec<(usize, usize)> = (0..corpus.len()).map(|k| corpus.lengths(k)).collect();
    let gdfa: Vec<Alignment> = (0..corpus.len())
        .map(|k| {
            symmetrize(
                &fwd.alignments[k],
                &rev.alignments[k],
                lens[k].0,
                lens[k].1,
                Method::GrowDiagFinalAnd,
            )
        })
        .collect();
    let reference = |name: &str| {
        pharaoh::read_file(
            dir.join(format!("books-news.de-en.{name}.align.gz")),
            Some(&lens),
        )
        .expect("reference alignments")
    };
    println!("agreement with fast_align reference (links, micro-averaged):");
    for (name, hyp) in [
        ("fwd", &fwd.alignments),
        ("rev", &rev.alignments),
        ("gdfa", &gdfa),
    ] {
        let p = precision_recall_f1(&reference(name), hyp).expect("same length");
        println!(
            "  {name:5} P {:.4}  R {:.4}  F1 {:.4}  ({} / {} links)",
            p.precision, p.recall, p.f1, p.matched, p.ref_links
        );
    }
    // One direction = train + final Viterbi pass (what fast_align's wall time covers, minus
    // reading the corpus, which is printed separately).
    let ft = fwd.train;
    let rt = rev.train;
    let bt = fwd1.train;
    println!("speed:");
    println!(
        "  in-run baseline (1 thread, forward): {bt:.2} s; {threads} threads: forward {ft:.2} s = {:.2}x the baseline time",
        ft / bt
    );
    println!(
        "  single-thread output identical to {threads}-thread output: {}",
        fwd1.alignments == fwd.alignments
    );
    println!(
        "  vs fast_align documented figure (not measured here; README: {FAST_ALIGN_FWD_SECS} s fwd / {FAST_ALIGN_REV_SECS} s rev, ~{FAST_ALIGN_PEAK_MB} MB): forward {:.3}x, reverse {:.3}x of its time; peak {:.0}/{:.0} MB = {:.2}/{:.2}x its memory",
        ft / FAST_ALIGN_FWD_SECS,
        rt / FAST_ALIGN_REV_SECS,
        fwd.hwm_mb,
        rev.hwm_mb,
        fwd.hwm_mb / FAST_ALIGN_PEAK_MB,
        rev.hwm_mb / FAST_ALIGN_PEAK_MB
    );
    if let Ok(bin) = std::env::var("FAST_ALIGN_BIN") {
        let plain = tmp.path().join("books-news.de-en.fa");
        let mut text = String::new();
        for k in 0..corpus.len() {
            text.push_str(&corpus.src_tokens(k).join(" "));
            text.push_str(" ||| ");
            text.push_str(&corpus.tgt_tokens(k).join(" "));
            text.push('\n');
        }
        std::fs::write(&plain, text).expect("write plain corpus");
        for (rev_flag, ours, name) in [(false, ft, "fwd"), (true, rt, "rev")] {
            let out = tmp.path().join(format!("cxx.{name}"));
            match time_fast_align(&bin, &plain, rev_flag, &out) {
                Some((secs, peak)) => {
                    let al = pharaoh::read_file(&out, Some(&lens)).expect("C++ output");
                    let p = precision_recall_f1(&reference(name), &al).expect("len");
                    println!(
                        "  C++ fast_align measured now, {name}: {secs:.2} s (ours {ours:.2} s = {:.3}x), peak {} MB, F1 vs reference file {:.4}",
                        ours / secs,
                        peak.map_or("?".into(), |m| format!("{m:.0}")),
                        p.f1
                    );
                }
                None => println!("  C++ fast_align at {bin} could not be run"),
            }
        }
    }
}
