//! What `contrast` prints: items and variants per phenomenon and type.

use std::fmt::Write as _;
use std::path::Path;

use crate::format::contrast::ContrastRecord;

/// The summary of a `contrast` run written to `out`.
pub fn contrast_summary(record: &ContrastRecord, out: &Path) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{} items with {} contrastive variants ({} loci without one) written to {}",
        record.items,
        record.variants,
        record.skipped,
        ldd_io::error::shown(out)
    );
    for (p, n) in &record.per_phenomenon {
        let _ = writeln!(t, "  {:<24} {n:>6} items", ldd_io::error::escape(p));
    }
    for (k, n) in &record.per_type {
        let _ = writeln!(t, "  {k:<24} {n:>6} variants");
    }
    let [s, g] = &record.languages;
    let _ = writeln!(
        t,
        "files: items.jsonl, contrast.{s} and contrast.{g} (a reference, then its variants, \
         one per line), contrapro.json, lingeval97.json, aces.jsonl ({} rows), aces.tsv ({} \
         rows), contrast.json",
        record.aces_rows, record.aces_tsv_rows
    );
    t
}
