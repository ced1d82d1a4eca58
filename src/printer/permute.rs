//! What `permute` prints: the pairs kept, the splits and σ.

use std::fmt::Write as _;
use std::path::Path;

use crate::format::permute::PermuteRecord;

/// The summary of a `permute` run written to `out`.
pub fn permute_summary(r: &PermuteRecord, out: &Path) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{} of {} pairs have a source of {} tokens: train {}, dev {}, test {} (seed {})",
        r.pairs, r.source.lines, r.length, r.splits.train, r.splits.dev, r.splits.test, r.seed
    );
    let sigma: Vec<String> = r.permutation.iter().map(usize::to_string).collect();
    let _ = writeln!(
        t,
        "σ ({}): {} — the token at position i moves to position σ[i]",
        r.permutation_from,
        sigma.join(" ")
    );
    let _ = writeln!(
        t,
        "written to {}: {}/{{train,dev,test}}.{{{},{}}}, {{train,dev,test}}.ids, permutation.txt, \
         permute.json",
        ldd_io::error::shown(out),
        r.settings.join(","),
        r.source_lang,
        r.target_lang
    );
    t
}
