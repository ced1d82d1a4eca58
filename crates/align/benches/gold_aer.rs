//! Alignment quality against hand-made gold alignments: AER, precision and recall of every
//! direction and symmetrisation on the 100 German–English Europarl sentences of
//! `shared/data/reference/gold-align/de-en-europarl100` (all links sure).
//!
//! Run: `cargo bench -p ldd-align --bench gold_aer` (part of `make bench-align`).
//!
//! Protocol (the usual one for AER): the aligner is trained on the shared de-en corpora
//! (books sample, Multi30k, newstest2013, PUD: 61,030 pairs, split by the aligner's
//! tokenizer) plus the 100 gold sentences (already tokenized: split on whitespace), all
//! lowercased, and the gold sentences are aligned by the final pass of that training.
//! Baselines in the same run: the same aligner trained on the 100 sentences alone, and
//! the diagonal (every source word linked to the target word at the same relative
//! position). The gold's one link outside its sentence (sentence 63, `12-16`) is reported
//! and left out.
//!
//! eflomal 2.0 (Östling & Tiedemann 2016; `--model 3`, IBM1 + HMM + fertility, collapsed
//! Gibbs sampling) is measured in the same run on the same tokens, both directions, when
//! `eflomal-align` is found (`make bench-align` installs it from PyPI into `.venv`; or
//! `EFLOMAL_ALIGN=/path/to/eflomal-align`): AER of every direction and symmetrisation
//! (symmetrised by ldd-align, as for the built-in aligner), wall time and peak memory
//! (`/usr/bin/time`), next to the built-in aligner's time and this process's peak memory.

mod common;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use ldd_align::{
    alignment_error_rate, read_gold, symmetrize, tokenize, AerScores, Aligner, AlignerSpec,
    Alignment, Corpus, Direction, Event, Gold, GoldOptions, HmmOptions, Method, Model, Pairs,
    TrainOptions, SILENT,
};

/// Published AER of other aligners on the 508-sentence RWTH German–English gold set (not
/// available here; awesome-align and lilt/alignment-scripts READMEs, as quoted in the
/// gold data's README): documented figures, not measured.
const PUBLISHED: [(&str, &str); 3] = [
    ("fast_align", "0.27-0.28"),
    ("eflomal", "0.23"),
    ("GIZA++", "0.21"),
];

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data")
}

fn lines(p: &Path) -> Vec<String> {
    ldd_io::read_lines(p).unwrap_or_else(|e| panic!("{e}"))
}

fn lower(tokens: Vec<&str>) -> Vec<String> {
    tokens.into_iter().map(str::to_lowercase).collect()
}

/// Forward and reverse alignments of the last `n` pairs of `corpus` after training on it.
fn align_last(corpus: &Corpus, n: usize) -> (Vec<Alignment>, Vec<Alignment>, f64) {
    let t = Instant::now();
    let mut out = Vec::new();
    for reverse in [false, true] {
        let opts = TrainOptions {
            reverse,
            ..TrainOptions::default()
        };
        let (_, al) = Model::train_and_align(corpus, &opts).expect("training");
        out.push(al[al.len() - n..].to_vec());
    }
    let rev = out.pop().unwrap_or_default();
    let fwd = out.pop().unwrap_or_default();
    (fwd, rev, t.elapsed().as_secs_f64())
}

/// `eflomal-align`: `EFLOMAL_ALIGN`, else the repository's `.venv`.
fn eflomal_bin() -> Option<PathBuf> {
    let p = match std::env::var_os("EFLOMAL_ALIGN") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/eflomal-align"),
    };
    p.is_file().then_some(p)
}

/// eflomal on the same tokens (written one pair per line): forward and reverse
/// alignments (source–target) of the last `n` pairs, wall seconds, peak MB.
fn eflomal(
    bin: &Path,
    corpus: &Corpus,
    n: usize,
) -> (Vec<Alignment>, Vec<Alignment>, f64, Option<f64>) {
    let dir = std::env::temp_dir().join(format!("ldd-gold-aer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (s, t) = (dir.join("train.de"), dir.join("train.en"));
    let (fw, rv) = (dir.join("fwd"), dir.join("rev"));
    for (path, src) in [(&s, true), (&t, false)] {
        let mut w = std::io::BufWriter::new(std::fs::File::create(path).expect("write"));
        for k in 0..corpus.len() {
            let toks = if src {
                corpus.src_tokens(k)
            } else {
                corpus.tgt_tokens(k)
            };
            writeln!(w, "{}", toks.join(" ")).expect("write");
        }
        w.flush().expect("write");
    }
    let time = Path::new("/usr/bin/time").exists();
    let mut cmd = if time {
        let mut c = Command::new("/usr/bin/time");
        c.args(["-f", "%M"]).arg(bin);
        c
    } else {
        Command::new(bin)
    };
    cmd.args(["--model", "3", "--overwrite", "-s"])
        .arg(&s)
        .arg("-t")
        .arg(&t)
        .arg("-f")
        .arg(&fw)
        .arg("-r")
        .arg(&rv);
    let clock = Instant::now();
    let o = cmd.output().expect("eflomal-align runs");
    let secs = clock.elapsed().as_secs_f64();
    assert!(
        o.status.success(),
        "eflomal-align: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let peak = time
        .then(|| {
            String::from_utf8_lossy(&o.stderr)
                .lines()
                .last()?
                .trim()
                .parse::<f64>()
                .ok()
        })
        .flatten()
        .map(|kb| kb / 1024.0);
    let read = |p: &Path| {
        let al = ldd_align::pharaoh::read_file(p, None).expect("eflomal's alignments");
        assert_eq!(al.len(), corpus.len(), "one eflomal alignment per pair");
        al[al.len() - n..].to_vec()
    };
    let out = (read(&fw), read(&rv), secs, peak);
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// The HMM aligner trained by agreement with `opts` on `pairs`: its forward and reverse
/// alignments of the last `n` pairs of `corpus`, seconds, and the word pairs of its table
/// (kept, seen).
type Two = (Vec<Alignment>, Vec<Alignment>);
fn hmm_last(
    pairs: Pairs<'_>,
    corpus: &Corpus,
    n: usize,
    opts: &HmmOptions,
) -> (Two, f64, (u64, u64)) {
    let t = Instant::now();
    let table = std::sync::Mutex::new((0, 0));
    let report = |e: Event| {
        if let Event::Table { seen, kept, .. } = e {
            *table.lock().unwrap() = (kept, seen);
        }
    };
    let a = Aligner::train(pairs, &AlignerSpec::Hmm(opts.clone()), &report).expect("training");
    let last = |d| {
        let al = a.align(corpus, d, SILENT).expect("aligning").links;
        al[al.len() - n..].to_vec()
    };
    let out = (last(Direction::Forward), last(Direction::Reverse));
    let kept = *table.lock().unwrap();
    (out, t.elapsed().as_secs_f64(), kept)
}

fn print_row(name: &str, s: &AerScores) {
    println!(
        "  {name:<38} AER {:.3}  P {:.3}  R {:.3}   ({} links, {} sure matched)",
        s.aer, s.precision, s.recall, s.hyp_links, s.hyp_sure
    );
}

/// Rows for the two directions and the three symmetrisations; returns the best AER and
/// the AER of each row, in order (forward, reverse, intersection, union, gdfa).
fn report(
    title: &str,
    gold: &Gold,
    lens: &[(usize, usize)],
    fwd: &[Alignment],
    rev: &[Alignment],
) -> (f64, Vec<f64>) {
    println!("{title}");
    let mut best = f64::INFINITY;
    let mut rows = Vec::new();
    let sym = |m: Method| -> Vec<Alignment> {
        (0..lens.len())
            .map(|k| symmetrize(&fwd[k], &rev[k], lens[k].0, lens[k].1, m))
            .collect()
    };
    for (name, al) in [
        ("forward", fwd.to_vec()),
        ("reverse", rev.to_vec()),
        ("intersection", sym(Method::Intersection)),
        ("union", sym(Method::Union)),
        ("grow-diag-final-and", sym(Method::GrowDiagFinalAnd)),
    ] {
        let s = alignment_error_rate(&gold.sentences, &al).expect("100 alignments");
        best = best.min(s.aer);
        rows.push(s.aer);
        print_row(name, &s);
    }
    (best, rows)
}

fn main() {
    ldd_align::return_freed_memory();
    let gdir = shared().join("reference/gold-align/de-en-europarl100");
    if !gdir.join("de-en.wa").exists() {
        println!("SKIP: gold alignments not found at {}", gdir.display());
        return;
    }
    let (gde, gen) = (lines(&gdir.join("test.de")), lines(&gdir.join("test.en")));
    let gold_pairs: Vec<(Vec<String>, Vec<String>)> = gde
        .iter()
        .zip(&gen)
        .map(|(d, e)| {
            (
                lower(d.split_whitespace().collect()),
                lower(e.split_whitespace().collect()),
            )
        })
        .collect();
    let lens: Vec<(usize, usize)> = gold_pairs.iter().map(|(s, t)| (s.len(), t.len())).collect();
    let gold = read_gold(&gdir.join("de-en.wa"), &GoldOptions::default(), &lens).expect("gold");
    println!(
        "gold: {} sentence pairs, {} sure links, {} possible (one annotator)",
        gold.sentences.len(),
        gold.sure_links(),
        gold.possible_links() - gold.sure_links()
    );
    for o in &gold.outside {
        println!("  de-en.wa:{}: {o}; left out", o.line);
    }

    // The shared de-en corpora, tokenized by the aligner's tokenizer, lowercased.
    let par = shared().join("parallel");
    let mut corpus = Corpus::new();
    let mut n = 0;
    for name in [
        "books-sample.de-en",
        "multi30k-train.de-en",
        "newstest2013.de-en",
        "pud.de-en",
    ] {
        let find = |lang: &str| -> PathBuf {
            let p = par.join(format!("{name}.{lang}"));
            let gz = par.join(format!("{name}.{lang}.gz"));
            if gz.exists() {
                gz
            } else {
                p
            }
        };
        let (de, en) = (lines(&find("de")), lines(&find("en")));
        assert_eq!(de.len(), en.len(), "{name}");
        for (d, e) in de.iter().zip(&en) {
            corpus.push_pair(&lower(tokenize(d)), &lower(tokenize(e)));
        }
        n += de.len();
    }
    for (s, t) in &gold_pairs {
        corpus.push_pair(s, t);
    }
    println!(
        "training: {n} pairs of the shared de-en corpora + the 100 gold pairs, lowercased, 5 EM iterations, -d -o -v"
    );
    println!("(reverse = fast_align -r, the paper's; intersection = ldd-sets' default)");

    // Peak memory of each aligner: reset before it runs (the corpus is already in memory).
    let reset = common::reset_hwm();
    let peak = || common::vm_hwm_kb() as f64 / 1024.0;
    let (fwd, rev, secs) = align_last(&corpus, gold_pairs.len());
    let ours_peak = peak();
    if !reset {
        println!("(peak memory cannot be reset here: each peak is this process's so far)");
    }
    let (best, ours) = report(
        &format!(
            "aligner trained on {} pairs ({secs:.1} s for both directions, peak {ours_peak:.0} MB):",
            corpus.len()
        ),
        &gold,
        &lens,
        &fwd,
        &rev,
    );

    // The HMM aligner trained by agreement, on the same data: its table pruned (the
    // default), whole, and trained on a quarter of the pairs (`--align-train-max`).
    common::reset_hwm();
    let o = HmmOptions::default();
    let ((hf, hr), hsecs, (kept, seen)) =
        hmm_last(Pairs::from(&corpus), &corpus, gold_pairs.len(), &o);
    let hmm_peak = peak();
    let (_, hmm) = report(
        &format!(
            "HMM aligner by agreement ({} IBM1 iterations per direction, then {} joint HMM iterations; p0 {}, alpha {}, max_jump {}; table pruned at {}: {kept} of {seen} word pairs kept) on the same {} pairs ({hsecs:.1} s for both directions, peak {hmm_peak:.0} MB):",
            o.ibm1_iterations, o.hmm_iterations, o.p0, o.alpha, o.max_jump, o.prune,
            corpus.len()
        ),
        &gold,
        &lens,
        &hf,
        &hr,
    );
    common::reset_hwm();
    let whole = HmmOptions {
        prune: 0.0,
        ..HmmOptions::default()
    };
    let ((wf, wr), wsecs, _) = hmm_last(Pairs::from(&corpus), &corpus, gold_pairs.len(), &whole);
    let whole_peak = peak();
    let (_, unpruned) = report(
        &format!(
            "the same HMM with its whole table (prune 0: exact EM) ({wsecs:.1} s, peak {whole_peak:.0} MB):"
        ),
        &gold,
        &lens,
        &wf,
        &wr,
    );
    println!(
        "pruning costs AER intersection {:+.4}, grow-diag-final-and {:+.4}; memory {:.2}x, time {:.2}x",
        hmm[2] - unpruned[2],
        hmm[4] - unpruned[4],
        hmm_peak / whole_peak,
        hsecs / wsecs
    );
    let quarter = corpus.len() / 4;
    let ((qf, qr), qsecs, _) = hmm_last(
        Pairs::from(&corpus).sample(quarter),
        &corpus,
        gold_pairs.len(),
        &o,
    );
    let (_, sampled) = report(
        &format!(
            "the HMM trained on {quarter} of the pairs, spread evenly (--align-train-max {quarter}), aligning all ({qsecs:.1} s):"
        ),
        &gold,
        &lens,
        &qf,
        &qr,
    );
    println!(
        "training on a quarter costs the gold pairs, most of them outside it, AER intersection {:+.4}, grow-diag-final-and {:+.4}, in {:.2}x the time",
        sampled[2] - hmm[2],
        sampled[4] - hmm[4],
        qsecs / hsecs
    );
    // The same quarter of the corpus, the gold pairs among it: the lines trained on.
    let mut inside = Corpus::new();
    let n_corpus = corpus.len() - gold_pairs.len();
    for k in (0..n_corpus)
        .filter(|k| k % 4 == 3)
        .chain(n_corpus..corpus.len())
    {
        inside.push_pair(&corpus.src_tokens(k), &corpus.tgt_tokens(k));
    }
    let ((sf, sr), ssecs, _) = hmm_last(Pairs::from(&inside), &inside, gold_pairs.len(), &o);
    let (_, trained) = report(
        &format!(
            "the HMM trained on a quarter of the corpus and the gold pairs ({} pairs; {ssecs:.1} s):",
            inside.len()
        ),
        &gold,
        &lens,
        &sf,
        &sr,
    );
    println!(
        "training on a quarter costs the gold pairs trained on AER intersection {:+.4}, grow-diag-final-and {:+.4}",
        trained[2] - hmm[2],
        trained[4] - hmm[4]
    );

    // Baseline 1: the same aligner trained on the 100 gold pairs alone.
    let small = Corpus::from_pairs(gold_pairs.iter().cloned());
    let (f1, r1, _) = align_last(&small, gold_pairs.len());
    let (base, _) = report(
        "baseline: the same aligner trained on the 100 gold pairs alone:",
        &gold,
        &lens,
        &f1,
        &r1,
    );
    // Baseline 2: the diagonal.
    let diag: Vec<Alignment> = lens
        .iter()
        .map(|&(m, l)| {
            (0..m)
                .map(|i| (i, ((2 * i + 1) * l / (2 * m)).min(l.saturating_sub(1))))
                .collect()
        })
        .collect();
    println!("baseline: the diagonal (source word i of m linked to target word floor((i + 0.5) l / m) of l):");
    let d = alignment_error_rate(&gold.sentences, &diag).expect("100 alignments");
    print_row("diagonal", &d);
    println!(
        "best AER {best:.3}: {:.2}x the best AER trained on the gold pairs alone ({base:.3}), {:.2}x the diagonal's ({:.3})",
        best / base,
        best / d.aer,
        d.aer
    );
    // eflomal on the same data, in the same run.
    match eflomal_bin() {
        None => println!(
            "eflomal: not measured (no eflomal-align; `make bench-align` installs it into .venv, or set EFLOMAL_ALIGN)"
        ),
        Some(bin) => {
            let (ef, er, esecs, epeak) = eflomal(&bin, &corpus, gold_pairs.len());
            let mem = epeak.map_or("peak memory not measured (no /usr/bin/time)".into(), |m| {
                format!("peak {m:.0} MB")
            });
            let (_, theirs) = report(
                &format!("eflomal 2.0 --model 3 on the same {} pairs ({esecs:.1} s wall for both directions, {mem}):", corpus.len()),
                &gold,
                &lens,
                &ef,
                &er,
            );
            println!(
                "HMM vs eflomal: AER intersection {:+.3}, grow-diag-final-and {:+.3}, forward {:+.3}, reverse {:+.3}; time {hsecs:.1} s vs {esecs:.1} s = {:.3}x; peak {hmm_peak:.0} MB vs {}",
                hmm[2] - theirs[2],
                hmm[4] - theirs[4],
                hmm[0] - theirs[0],
                hmm[1] - theirs[1],
                hsecs / esecs,
                epeak.map_or("–".into(), |m| format!("{m:.0} MB"))
            );
            println!(
                "built-in vs eflomal: AER intersection {:+.3}, grow-diag-final-and {:+.3}, forward {:+.3}, reverse {:+.3}; \
                 time {secs:.1} s vs {esecs:.1} s = {:.3}x; peak {ours_peak:.0} MB vs {}",
                ours[2] - theirs[2],
                ours[4] - theirs[4],
                ours[0] - theirs[0],
                ours[1] - theirs[1],
                secs / esecs,
                epeak.map_or("–".into(), |m| format!("{m:.0} MB"))
            );
        }
    }
    print!("published, other gold set (RWTH de-en, 508 sentences), not measured here:");
    for (name, aer) in PUBLISHED {
        print!(" {name} {aer};");
    }
    println!("\n(100 sentences, one annotator: differences below about 0.02 AER are noise)");
}
