//! Scoring controls by summing per-line statistics vs re-scoring each subset from scratch.
//!
//! `cargo bench -p ldd-eval --bench score_controls` — Books sample (28,030 lines): the
//! English side is the reference, the hypothesis is the reference with every 3rd word
//! dropped on even lines and adjacent words swapped on odd lines; source lengths (German
//! words) drive control sampling. 30 pseudo-random sets of ~500 lines × 100 controls.

use std::path::PathBuf;
use std::time::Instant;

use ldd_eval::rng::stream;
use ldd_eval::{
    bleu, chrf, sample_controls, sum_ids, BleuScoring, ChrfScoring, ControlOptions, SufficientStats,
};

fn read_gz(rel: &str) -> Vec<String> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared")
        .join(rel);
    ldd_io::read_lines(&p).unwrap_or_else(|e| panic!("{e}"))
}

fn hypothesis(i: usize, line: &str) -> String {
    let mut w: Vec<&str> = line.split_whitespace().collect();
    if i.is_multiple_of(2) {
        w = w
            .into_iter()
            .enumerate()
            .filter(|(k, _)| k % 3 != 2)
            .map(|(_, x)| x)
            .collect();
    } else {
        w.chunks_mut(2).for_each(|p| p.reverse());
    }
    w.join(" ")
}

fn main() {
    let refs = read_gz("data/parallel/books-sample.de-en.en.gz");
    let src = read_gz("data/parallel/books-sample.de-en.de.gz");
    let hyps: Vec<String> = refs
        .iter()
        .enumerate()
        .map(|(i, l)| hypothesis(i, l))
        .collect();
    let lengths: Vec<u32> = src
        .iter()
        .map(|l| l.split_whitespace().count() as u32)
        .collect();
    let n = refs.len();
    println!("corpus: {n} lines");

    // (a) per-line statistics, once
    let t = Instant::now();
    let (bp, cp) = (BleuScoring::default(), ChrfScoring::default());
    let bl = bleu::line_stats(&hyps, &refs).expect("bleu");
    let ch = chrf::line_stats(&hyps, &refs).expect("chrf");
    let t_stats = t.elapsed().as_secs_f64();
    println!(
        "(a) per-line BLEU+chrF stats for {n} lines: {:.3} s",
        t_stats
    );

    // 30 sets of ~500 ids (each line kept with probability 500/n)
    let sets: Vec<Vec<u32>> = (0..30)
        .map(|k| {
            let mut g = stream(2019, 1000 + k);
            (1..=n as u32).filter(|_| g.below(n as u64) < 500).collect()
        })
        .collect();
    let opts = ControlOptions {
        count: 100,
        seed: 7,
        ..Default::default()
    };
    let t = Instant::now();
    let controls: Vec<_> = sets
        .iter()
        .map(|s| sample_controls(&lengths, s, &opts).expect("controls"))
        .collect();
    let t_sample = t.elapsed().as_secs_f64();
    let shortfalls: u64 = controls.iter().map(|c| c.shortfall_total()).sum();
    println!(
        "    sampling 30 sets x 100 controls (avg set size {:.0}): {:.3} s, out-of-tolerance draws: {shortfalls}",
        sets.iter().map(Vec::len).sum::<usize>() as f64 / 30.0,
        t_sample
    );

    // (b) scoring 30 x 100 controls (+ the sets) by summing stats
    let t = Instant::now();
    let mut checksum = 0.0;
    let mut scored = 0usize;
    for (set, cs) in sets.iter().zip(&controls) {
        checksum +=
            sum_ids(&bl, set).expect("ids").score(&bp) + sum_ids(&ch, set).expect("ids").score(&cp);
        for c in &cs.controls {
            checksum += sum_ids(&bl, &c.ids).expect("ids").score(&bp);
            checksum += sum_ids(&ch, &c.ids).expect("ids").score(&cp);
            scored += 1;
        }
    }
    let t_sum = t.elapsed().as_secs_f64();
    println!(
        "(b) BLEU+chrF of {scored} controls + 30 sets by summing stats: {:.4} s ({:.1} us/corpus) [checksum {checksum:.6}]",
        t_sum,
        t_sum * 1e6 / (scored + 30) as f64
    );

    // baseline: re-tokenize and re-count each subset from scratch (measured on a sample)
    let sample = 100usize;
    let t = Instant::now();
    let mut check2 = 0.0;
    let mut k = 0usize;
    'outer: for cs in &controls {
        for c in &cs.controls {
            if k == sample {
                break 'outer;
            }
            let h: Vec<&str> = c
                .ids
                .iter()
                .map(|&i| hyps[i as usize - 1].as_str())
                .collect();
            let r: Vec<&str> = c
                .ids
                .iter()
                .map(|&i| refs[i as usize - 1].as_str())
                .collect();
            let b = bleu::corpus_bleu(&h, &r).expect("bleu").score;
            let f = chrf::corpus_chrf(&h, &r).expect("chrf");
            // same numbers as the summed route
            assert_eq!(b, sum_ids(&bl, &c.ids).expect("ids").score(&bp));
            assert_eq!(f, sum_ids(&ch, &c.ids).expect("ids").score(&cp));
            check2 += b + f;
            k += 1;
        }
    }
    let t_base = t.elapsed().as_secs_f64();
    let per = t_base / sample as f64;
    let per_sum = t_sum / (scored + 30) as f64;
    println!(
        "baseline: re-scoring {sample} controls from scratch: {:.3} s ({:.2} ms/corpus) [checksum {check2:.3}]",
        t_base,
        per * 1e3
    );
    println!(
        "          extrapolated to all {} corpora: {:.1} s; summing is {:.0}x faster per corpus ({:.0}x incl. the one-off stats pass)",
        scored + 30,
        per * (scored + 30) as f64,
        per / per_sum,
        per * (scored + 30) as f64 / (t_sum + t_stats)
    );
}
