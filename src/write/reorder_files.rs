//! The corpus-wide reordering files: every line's alignment (`alignments.txt`, Pharaoh),
//! and every line's reordering measures (`reorder.tsv`).
//!
//! `reorder.tsv` has a header row and one row per corpus line:
//!
//! | column | content |
//! | --- | --- |
//! | `id` | 1-based corpus line |
//! | `position`, `crossing` | the measures in words |
//! | `kendall`, `fuzzy` | the measures as fractions (6 decimals) |
//! | `aligned` | source words placed in the alignment permutation (`n` of kendall, fuzzy) |
//! | `position_link`, `position_words` | the link of the largest position difference, `i-j` and `source|target` |
//! | `crossing_links`, `crossing_words` | the two crossing links, `i1-j1 i2-j2` and `s1|t1 s2|t2` (empty when `crossing` is 0) |
//!
//! A cell is empty when the measure is undefined (no link between word tokens, e.g. an
//! empty line). Indices are 0-based (source UD word, target token), as in
//! `alignments.txt`; the words are for reading, the indices are authoritative.

use std::fmt::Write as _;
use std::path::Path;

use ldd_align::{Alignment, Corpus, Link, Ratio, Reordering};

use crate::error::{Error, Result};
use crate::format::options::ReorderFiles;

/// The header of `reorder.tsv`.
pub const TSV_HEADER: &str = "id\tposition\tcrossing\tkendall\tfuzzy\taligned\t\
position_link\tposition_words\tcrossing_links\tcrossing_words";

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

/// One row of `reorder.tsv` (without line terminator).
pub fn tsv_row(id: u64, r: &Reordering, src: &[&str], tgt: &[&str]) -> String {
    let ratio = |x: Option<Ratio>| x.map_or(String::new(), |x| format!("{:.6}", x.value()));
    let word = |w: Option<&&str>| w.map_or("", |w| *w).replace(['\t', '\n', '\r'], " ");
    let words = |(i, j): Link| format!("{}|{}", word(src.get(i)), word(tgt.get(j)));
    let mut s = String::new();
    let _ = write!(
        s,
        "{id}\t{}\t{}\t{}\t{}\t{}\t",
        r.position.map_or(String::new(), |h| h.distance.to_string()),
        r.crossing.map_or(String::new(), |c| c.distance.to_string()),
        ratio(r.kendall),
        ratio(r.fuzzy),
        if r.word_links == 0 {
            String::new()
        } else {
            r.aligned.to_string()
        },
    );
    if let Some(h) = r.position {
        let l = (h.src_index, h.tgt_index);
        let _ = write!(s, "{}-{}\t{}", l.0, l.1, words(l));
    } else {
        s.push('\t');
    }
    s.push('\t');
    if let Some((a, b)) = r.crossing.and_then(|c| c.links) {
        let _ = write!(
            s,
            "{}-{} {}-{}\t{} {}",
            a.0,
            a.1,
            b.0,
            b.1,
            words(a),
            words(b)
        );
    } else {
        s.push('\t');
    }
    s
}
