//! Aligns a fast_align-format corpus (`source ||| target` per line, `.gz` accepted) and prints
//! Pharaoh alignments to stdout, like `fast_align -i FILE -d -o -v [-r]`.
//!
//! `cargo run --release -p ldd-align --example align_file -- FILE [-r]`
//! (set `LDD_ALIGN_VERBOSE=1` for per-iteration statistics on stderr).

use std::io::Write;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.iter().find(|a| !a.starts_with('-')) else {
        eprintln!("usage: align_file FILE [-r]");
        std::process::exit(2);
    };
    let opts = ldd_align::TrainOptions {
        reverse: args.iter().any(|a| a == "-r"),
        ..Default::default()
    };
    let t = std::time::Instant::now();
    let corpus = ldd_align::Corpus::read_fast_align(path)?;
    eprintln!(
        "[align_file] read {} pairs in {:.2}s",
        corpus.len(),
        t.elapsed().as_secs_f64()
    );
    let (_, al) = ldd_align::Model::train_and_align(&corpus, &opts)?;
    eprintln!(
        "[align_file] trained and aligned at {:.2}s",
        t.elapsed().as_secs_f64()
    );
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for a in &al {
        writeln!(out, "{}", ldd_align::pharaoh::format_line(a))?;
    }
    Ok(())
}
