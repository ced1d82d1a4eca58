//! The last files of an output: `summary.csv`, the set-size table ([`Sizes`]) as one row
//! per set, then `manifest.json` with the checksums of everything else.

use std::path::Path;

use crate::error::Result;
use crate::format::manifest::Manifest;
use crate::layout;
use crate::view::Sizes;

/// Writes `summary.csv` of the manifest's sets into `root` (the staged output, complete
/// but for these two files), then the manifest with the checksums of every file there.
pub fn finish(root: &Path, manifest: &mut Manifest) -> Result<()> {
    write_summary(&root.join(layout::SUMMARY), &Sizes::of(&manifest.sets))?;
    manifest.write_into(root)
}

/// Writes `summary.csv`: one row per set, a phenomenon's `ge` sets then its `eq` sets
/// (by the one CSV writer, [`crate::format::csv_text`]).
fn write_summary(path: &Path, sizes: &Sizes) -> Result<()> {
    let rows = sizes.sets().map(|s| {
        [
            s.phenomenon.clone(),
            s.bucket.clone(),
            s.sentences.to_string(),
            s.pairs.to_string(),
            format!("{:.2}", s.mean_source_words),
        ]
    });
    let text = crate::format::csv_text(
        &[
            "phenomenon",
            "bucket",
            "sentences",
            "pairs",
            "mean_source_words",
        ],
        rows,
    );
    ldd_io::fs::write(path, text.as_bytes())?;
    Ok(())
}
