//! What `contrast` prints: items and variants per phenomenon and type.

use std::fmt::Write as _;
use std::path::Path;

use crate::format::contrast::ContrastRecord;

/// The summary of a `contrast` run written to `out`.
pub fn contrast_summary(r: &ContrastRecord, out: &Path) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{} items with {} contrastive variants ({} loci without one) written to {}",
        r.items,
        r.variants,
        r.skipped,
        ldd_io::error::shown(out)
    );
    for (p, n) in &r.per_phenomenon {
        let _ = writeln!(t, "  {:<24} {n:>6} items", ldd_io::error::escape(p));
    }
    for (k, n) in &r.per_type {
        let _ = writeln!(t, "  {k:<24} {n:>6} variants");
    }
    let [s, g] = &r.languages;
    let _ = writeln!(
        t,
        "files: items.jsonl, contrast.{s} and contrast.{g} (a reference, then its variants, \
         one per line), contrapro.json, lingeval97.json, aces.jsonl ({} rows), aces.tsv ({} \
         rows), contrast.json",
        r.aces_rows, r.aces_tsv_rows
    );
    t
}
