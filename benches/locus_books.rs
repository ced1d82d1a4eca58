//! Locus accuracy on the Books sample: 2 systems scored with `--metrics locus` and with
//! BLEU alone on the same sets in the same run, so the cost of judging every locus (the
//! outputs aligned to their sources with the sets' saved aligner, then matched) stands
//! beside BLEU's.
//!
//! `make bench-locus` (`cargo bench --bench locus_books`). The Books sample (28,030 lines)
//! is parsed with `german-small` once and kept in the parse cache (`$LDD_SETS_CACHE`, else
//! `~/.cache/ldd-sets/parses`; the first run parses for about 7 minutes on 2 cores), then
//! extracted without controls, its aligner (the default HMM, trained on the sample) saved.
//! Two systems: the reference with every 3rd word dropped on the even / the odd lines.
//! Then locus accuracy again with the outputs parsed (`--tgt-model`, the small English
//! model of ../shared: lemmas and the relation).

use std::time::Instant;

mod common;

use ldd_sets::locus::Parsing;
use ldd_sets::pipeline::detect::reorder::ReorderOptions;
use ldd_sets::pipeline::parse::{TargetChoice, TargetModel};
use ldd_sets::pipeline::sample::ControlOptions;
use ldd_sets::score::{load, score_sets, ScoreOptions, SignificanceOptions};

fn main() {
    let books = common::parsed();
    let tgt = books.tgt.clone();
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("books");
    let mut reorder = ReorderOptions::default();
    reorder.align.save_model = Some(tmp.path().join("aligner"));
    let controls = ControlOptions {
        count: 0,
        ..ControlOptions::default()
    };
    let secs = common::extract_sets(&books, &out, reorder, controls);
    println!("extract (aligner trained and saved): {secs:.1} s");
    let hyps = common::systems(&tgt, tmp.path());
    let sets = load(&out).expect("load");
    let opts = |metrics: &[&str], model: TargetChoice| ScoreOptions {
        hyps: hyps.clone(),
        names: common::system_names(&hyps),
        references: vec![tgt.clone()],
        settings: Default::default(),
        seg_scores: Vec::new(),
        significance: SignificanceOptions {
            bootstrap: 0,
            ..SignificanceOptions::default()
        },
        metrics: metrics.iter().map(|m| m.to_string()).collect(),
        align_model: None,
        parsing: Parsing {
            model,
            cache: None,
            quiet: true,
        },
        contrastive: None,
    };
    let t = Instant::now();
    let bleu = score_sets(&sets, &opts(&["bleu"], TargetChoice::Off))
        .expect("score bleu")
        .scores;
    let bleu_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let locus = score_sets(&sets, &opts(&["locus"], TargetChoice::Off))
        .expect("score locus")
        .scores;
    let locus_s = t.elapsed().as_secs_f64();
    let english = common::shared("models/english-small.udpipe");
    let t = Instant::now();
    let lemma = score_sets(
        &sets,
        &opts(&["locus"], TargetChoice::Given(TargetModel::File(english))),
    )
    .expect("score locus with the target model")
    .scores;
    let lemma_s = t.elapsed().as_secs_f64();
    let corpus = |s: &ldd_sets::score::Scores| -> Vec<Option<f64>> {
        s.rows
            .iter()
            .filter(|r| r.scope == "corpus")
            .map(|r| r.score)
            .collect()
    };

    println!("\nge1 sets: BLEU and locus accuracy of the two systems (no resampling)");
    for r in locus
        .rows
        .iter()
        .filter(|r| r.bucket == "ge1" || r.bucket == "ge7")
    {
        let b = bleu
            .rows
            .iter()
            .find(|b| b.system == r.system && b.phenomenon == r.phenomenon && b.bucket == r.bucket)
            .and_then(|b| b.score);
        println!(
            "  {:<14} {:<6} {:>5} loci judged  BLEU {:>6.2}  locus {:>6.2}",
            format!("{}/{}", r.phenomenon, r.bucket),
            r.system,
            r.loci.unwrap_or(0),
            b.unwrap_or(f64::NAN),
            r.score.unwrap_or(f64::NAN)
        );
    }
    let loci: u64 = locus
        .rows
        .iter()
        .filter(|r| r.scope == "corpus")
        .map(|r| r.loci.unwrap_or(0) + r.no_reference.unwrap_or(0))
        .sum();
    println!(
        "\nscore --metrics bleu: {bleu_s:.2} s; score --metrics locus: {locus_s:.2} s \
         ({:.1}x BLEU's time; 2 systems, {} distinct loci each, the aligner model loaded once)",
        locus_s / bleu_s,
        loci / 2
    );
    println!(
        "score --metrics locus --tgt-model english-small: {lemma_s:.2} s ({:.1}x BLEU's \
         time; the judged lines of the outputs and reference parsed); corpus locus accuracy {:?} -> {:?}",
        lemma_s / bleu_s,
        corpus(&locus),
        corpus(&lemma)
    );
}
