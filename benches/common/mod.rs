//! What the Books-sample benchmarks share: the sample parsed with `german-small` (kept in
//! the parse cache: `$LDD_SETS_CACHE`, else `~/.cache/ldd-sets/parses`; the first run
//! parses for about 7 minutes on 2 cores), its sets extracted, and two systems made from
//! its reference.
#![allow(dead_code)]

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use ldd_io::read_lines;
use ldd_sets::config::Languages;
use ldd_sets::pipeline::detect::reorder::ReorderOptions;
use ldd_sets::pipeline::detect::rules::RuleSet;
use ldd_sets::pipeline::parse::{parse_cached, ParseSettings};
use ldd_sets::pipeline::sample::ControlOptions;
use ldd_sets::pipeline::{extract, CorpusFiles, Output, SetOptions};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A file of `../shared`.
pub fn shared(rel: &str) -> PathBuf {
    root().join("../shared").join(rel)
}

/// The Books sample, parsed.
pub struct Books {
    /// German side.
    pub src: PathBuf,
    /// English side (the reference).
    pub tgt: PathBuf,
    /// Its parse.
    pub conllu: PathBuf,
}

/// Parses the Books sample (or finds its parse in the cache), printing how long it took.
pub fn parsed() -> Books {
    let src = shared("data/parallel/books-sample.de-en.de.gz");
    let tgt = shared("data/parallel/books-sample.de-en.en.gz");
    let t = Instant::now();
    let settings = ParseSettings {
        quiet: true,
        ..ParseSettings::default()
    };
    let parsed = parse_cached(&src, &shared("models/german-small.udpipe"), &settings)
        .expect("parse (german-small)");
    println!(
        "parse: {:.1} s ({:?}, {})",
        t.elapsed().as_secs_f64(),
        parsed.outcome,
        parsed.conllu.display()
    );
    Books {
        src,
        tgt,
        conllu: parsed.conllu,
    }
}

/// Extracts the sets of `b` (built-in German rules) into `out`; returns the seconds taken.
pub fn extract_sets(
    b: &Books,
    out: &Path,
    reorder: ReorderOptions,
    controls: ControlOptions,
) -> f64 {
    let rules = RuleSet::builtin()
        .and_then(|r| r.select(None, "de"))
        .expect("built-in rules");
    let t = Instant::now();
    extract(
        &CorpusFiles {
            source: b.src.clone(),
            target: b.tgt.clone(),
            conllu: b.conllu.clone(),
            trust_conllu: false,
            shard: None,
        },
        &Languages::new("de", "en").expect("languages"),
        &SetOptions {
            rules,
            reorder: Some(reorder),
        },
        &controls,
        &Output {
            dir: out.to_path_buf(),
            protect: Vec::new(),
            replace: true,
        },
    )
    .expect("extract");
    t.elapsed().as_secs_f64()
}

/// Two systems made from the reference `tgt`, written to `dir/sys0.en` and `dir/sys1.en`:
/// every 3rd word dropped on the even lines, and on the odd lines.
pub fn systems(tgt: &Path, dir: &Path) -> Vec<PathBuf> {
    let refs = read_lines(tgt).expect("reference");
    let mut hyps = Vec::new();
    for parity in 0..2 {
        let p = dir.join(format!("sys{parity}.en"));
        let mut f = std::io::BufWriter::new(std::fs::File::create(&p).expect("create"));
        for (i, l) in refs.iter().enumerate() {
            let line = if i % 2 == parity {
                l.split(' ')
                    .enumerate()
                    .filter(|(k, _)| k % 3 != 2)
                    .map(|(_, w)| w)
                    .collect::<Vec<_>>()
                    .join(" ")
            } else {
                l.clone()
            };
            writeln!(f, "{line}").expect("write");
        }
        f.flush().expect("flush");
        hyps.push(p);
    }
    hyps
}

/// The names of the systems of [`systems`]: their files' stems (`sys0`, `sys1`).
pub fn system_names(hyps: &[PathBuf]) -> Vec<String> {
    hyps.iter()
        .map(|hyp| {
            hyp.file_stem()
                .expect("a file")
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}
