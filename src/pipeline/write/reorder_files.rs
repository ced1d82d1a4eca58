//! The corpus-wide reordering files: every line's alignment (`alignments.txt`, Pharaoh),
//! and every line's reordering measures (`reorder.tsv`, whose format is
//! [`crate::format::reorder`]).

use std::path::Path;

use ldd_align::{Alignment, Corpus, Reordering};

use crate::error::{Error, Result};
use crate::format::options::ReorderFiles;
use crate::format::reorder::{tsv_row, TSV_HEADER};

/// Writes `alignments.txt`, `posteriors.txt` (when `files` names it and the aligner gave
/// `posteriors`) and `reorder.tsv` under `root` (a directory that exists); pair `k` of
/// `pairs` is corpus line `first_id + k`.
pub fn write_corpus_files(
    root: &Path,
    files: &ReorderFiles,
    first_id: u64,
    pairs: &Corpus,
    alignments: &[Alignment],
    posteriors: Option<&[Vec<f64>]>,
    measures: &[Reordering],
) -> Result<()> {
    let dir = ldd_io::parent_dir(&root.join(&files.measures));
    ldd_io::fs::create_dir_all(&dir)?;
    ldd_io::write_file_atomic::<Error>(&root.join(&files.alignments), |w| {
        for a in alignments {
            writeln!(w, "{}", ldd_align::pharaoh::format_line(a))?;
        }
        Ok(())
    })?;
    if let (Some(rel), Some(post)) = (&files.posteriors, posteriors) {
        ldd_io::write_file_atomic::<Error>(&root.join(rel), |w| {
            for p in post {
                writeln!(w, "{}", super::alignments::posterior_line(p))?;
            }
            Ok(())
        })?;
    }
    ldd_io::write_file_atomic(&root.join(&files.measures), |w| {
        writeln!(w, "{TSV_HEADER}")?;
        for (k, r) in measures.iter().enumerate() {
            let row = tsv_row(
                first_id + k as u64,
                r,
                &pairs.src_tokens(k),
                &pairs.tgt_tokens(k),
            );
            writeln!(w, "{row}")?;
        }
        Ok(())
    })
}
