//! The corpus-wide reordering files: every line's alignment, and every line's largest
//! reordering.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use ldd_align::{Alignment, Corpus, ReorderHit};

use crate::detect::reorder::ReorderFiles;
use crate::error::{Error, Result};

/// Writes `alignments.txt` (Pharaoh) and `max_distance.tsv` under `root`.
pub fn write_corpus_files(
    root: &Path,
    files: &ReorderFiles,
    pairs: &Corpus,
    alignments: &[Alignment],
    hits: &[Option<ReorderHit>],
) -> Result<()> {
    let p = root.join(&files.alignments);
    if let Some(dir) = p.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    let res = (|| -> std::io::Result<()> {
        let mut w = BufWriter::new(File::create(&p)?);
        for a in alignments {
            writeln!(w, "{}", ldd_align::pharaoh::format_line(a))?;
        }
        w.flush()
    })();
    res.map_err(|e| Error::io(&p, e))?;
    let p = root.join(&files.max_distance);
    let res = (|| -> std::io::Result<()> {
        let mut w = BufWriter::new(File::create(&p)?);
        writeln!(w, "id\tdistance\tsrc_index\tsrc_word\ttgt_index\ttgt_word")?;
        for (k, h) in hits.iter().enumerate() {
            if let Some(h) = h {
                let (s, t) = (pairs.src_tokens(k), pairs.tgt_tokens(k));
                writeln!(
                    w,
                    "{}\t{}\t{}\t{}\t{}\t{}",
                    k + 1,
                    h.distance,
                    h.src_index,
                    s[h.src_index],
                    h.tgt_index,
                    t[h.tgt_index]
                )?;
            }
        }
        w.flush()
    })();
    res.map_err(|e| Error::io(&p, e))
}
