//! Significance on the Books sample: 1,000 paired bootstrap resamples × 2 systems × every
//! set × (the set + its 10 controls), against sacreBLEU 2.4.3's own paired bootstrap
//! (`PairedTest`, what `sacrebleu --paired-bs` runs) on the same files in the same run.
//!
//! `make bench-significance` (`cargo bench --bench significance_books`). The Books sample
//! (28,030 lines) is parsed with `german-small` once and kept in the parse cache
//! (`$LDD_SETS_CACHE`, else `~/.cache/ldd-sets/parses`; the first run parses for about
//! 7 minutes on 2 cores), then extracted with 10 controls per set. Two systems: the
//! reference with every 3rd word dropped on two different halves of the lines.
//!
//! ldd-sets: `score` with its defaults (per-line statistics once; BLEU, chrF, and RIBES on
//! reorder sets; intervals for every score, paired bootstrap against the first system,
//! set-vs-controls test, trend intervals), and the same `score` without resampling, so
//! the resampling time is their difference. sacreBLEU: for every set and control, its
//! reference and the two systems' lines are written to files and `PairedTest(bs, 1000)`
//! with BLEU and chrF runs on them in one Python process (`benches/sacrebleu_paired_bs.py`:
//! no interpreter start per file); measured on every `STEP`-th file triple and
//! extrapolated to all of them.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

mod common;

use ldd_io::read_lines;
use ldd_sets::pipeline::detect::reorder::ReorderOptions;
use ldd_sets::pipeline::sample::ControlOptions;
use ldd_sets::score::{load, score_sets, ScoreOptions, SignificanceOptions};

/// sacreBLEU runs on every STEP-th file triple.
const STEP: usize = 8;

fn ids(p: &Path) -> Vec<usize> {
    read_lines(p)
        .expect("ids file")
        .iter()
        .map(|l| l.parse::<usize>().expect("id") - 1)
        .collect()
}

fn write_lines(p: &Path, lines: &[&str]) {
    let mut f = std::io::BufWriter::new(std::fs::File::create(p).expect("create"));
    for l in lines {
        writeln!(f, "{l}").expect("write");
    }
}

fn main() {
    let books = common::parsed();
    let tgt = books.tgt.clone();
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("books");
    let secs = common::extract_sets(
        &books,
        &out,
        ReorderOptions::default(),
        ControlOptions::default(),
    );
    println!("extract (10 controls per set): {secs:.1} s");

    // Two systems: every 3rd word dropped on the even / the odd lines.
    let hyps = common::systems(&tgt, tmp.path());
    let refs = read_lines(&tgt).expect("reference");
    let systems: Vec<Vec<String>> = hyps
        .iter()
        .map(|h| read_lines(h).expect("system"))
        .collect();
    let opts = |bootstrap: usize| ScoreOptions {
        hyps: hyps.clone(),
        names: common::system_names(&hyps),
        references: vec![tgt.clone()],
        settings: Default::default(),
        seg_scores: Vec::new(),
        metrics: Vec::new(),
        align_model: None,
        parsing: Default::default(),
        contrastive: None,
        significance: SignificanceOptions {
            bootstrap,
            ..SignificanceOptions::default()
        },
    };
    let t = Instant::now();
    let plain = score_sets(&load(&out).expect("load"), &opts(0))
        .expect("score")
        .scores;
    let t_plain = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let report = score_sets(&load(&out).expect("load"), &opts(1000))
        .expect("score with significance")
        .scores;
    let t_sig = t.elapsed().as_secs_f64();
    assert_eq!(plain.rows.len(), report.rows.len());
    let sets: Vec<_> = report
        .rows
        .iter()
        .filter(|r| r.system == "sys0" && r.metric == "bleu" && r.scope == "set")
        .collect();
    let corpora: usize = sets
        .iter()
        .map(|r| usize::from(r.sentences > 0) + r.controls)
        .sum();
    let lines: u64 = sets
        .iter()
        .map(|r| r.sentences * (1 + r.controls as u64))
        .sum();
    println!(
        "Books sample: {} lines, {} sets ({} non-empty), {corpora} set + control corpora, {lines} lines in them",
        refs.len(),
        sets.len(),
        sets.iter().filter(|r| r.sentences > 0).count()
    );
    println!("ldd-sets score, no resampling (per-line statistics + scores): {t_plain:.2} s");
    println!(
        "ldd-sets score, 1,000 paired bootstrap resamples × 2 systems × every set, control and the corpus \
         (+ set-vs-control tests, trend intervals): {t_sig:.2} s → resampling {:.2} s",
        t_sig - t_plain
    );

    // sacreBLEU on the same subsets, as files.
    let files_dir = tmp.path().join("files");
    std::fs::create_dir_all(&files_dir).expect("mkdir");
    let mut triples = Vec::new();
    for r in &sets {
        if r.sentences == 0 {
            continue;
        }
        let mut id_files = vec![out.join(format!("{}/{}.ids", r.phenomenon, r.bucket))];
        for k in 1..=r.controls {
            id_files.push(out.join(format!("{}/controls/{}.{k}.ids", r.phenomenon, r.bucket)));
        }
        for f in id_files {
            triples.push(f);
        }
    }
    let sample: Vec<&PathBuf> = triples.iter().step_by(STEP).collect();
    let list = files_dir.join("list.tsv");
    let mut listing = String::new();
    for (n, f) in sample.iter().enumerate() {
        let ids = ids(f);
        let mut paths = Vec::new();
        for (name, lines) in [("ref", &refs), ("sys0", &systems[0]), ("sys1", &systems[1])] {
            let p = files_dir.join(format!("{n}.{name}"));
            write_lines(
                &p,
                &ids.iter().map(|&i| lines[i].as_str()).collect::<Vec<_>>(),
            );
            paths.push(p.display().to_string());
        }
        listing.push_str(&paths.join("\t"));
        listing.push('\n');
    }
    std::fs::write(&list, listing).expect("list");
    let py = std::env::var_os("LDD_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::root().join(".venv/bin/python"));
    let t = Instant::now();
    let o = Command::new(&py)
        .arg(common::root().join("benches/sacrebleu_paired_bs.py"))
        .arg(&list)
        .output()
        .expect("python (make venv)");
    let t_sb = t.elapsed().as_secs_f64();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let sb_lines: usize = sample.iter().map(|f| ids(f).len()).sum();
    let sb_all = t_sb * triples.len() as f64 / sample.len() as f64;
    println!(
        "sacreBLEU 2.4.3 PairedTest(bs, 1000), BLEU + chrF, one process: {t_sb:.1} s for {} of {} set/control files ({sb_lines} lines) → {sb_all:.0} s extrapolated to all",
        sample.len(),
        triples.len()
    );
    println!(
        "ldd-sets: {t_sig:.2} s for all (with the corpus, RIBES and trends) = {:.0}× faster than sacreBLEU ({:.0}× counting resampling only)",
        sb_all / t_sig,
        sb_all / (t_sig - t_plain)
    );
}
