//! What `permute` prints: the pairs kept, the splits and σ.

use std::fmt::Write as _;
use std::path::Path;

use crate::format::permute::PermuteRecord;

/// The summary of a `permute` run written to `out`.
pub fn permute_summary(record: &PermuteRecord, out: &Path) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{} of {} pairs have a source of {} tokens: train {}, dev {}, test {} (seed {})",
        record.pairs,
        record.source.lines,
        record.length,
        record.splits.train,
        record.splits.dev,
        record.splits.test,
        record.seed
    );
    let sigma: Vec<String> = record.permutation.iter().map(usize::to_string).collect();
    let _ = writeln!(
        t,
        "σ ({}): {} — the token at position i moves to position σ[i]",
        record.permutation_from,
        sigma.join(" ")
    );
    let _ = writeln!(
        t,
        "written to {}: {}/{{train,dev,test}}.{{{},{}}}, {{train,dev,test}}.ids, permutation.txt, \
         permute.json",
        ldd_io::error::shown(out),
        record.settings.join(","),
        record.source_lang,
        record.target_lang
    );
    t
}
