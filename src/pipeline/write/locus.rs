//! Completing the lexical sets' `locus.tsv` once the corpus is aligned: the sets are
//! written while the corpus is read, before the aligner has seen all of it, so their locus
//! rows first hold the source words only; [`add_reference`] fills in the reference tokens
//! aligned to them.

use std::io::Write;
use std::path::Path;

use ldd_align::{Alignment, Corpus};
use ldd_io::{AtomicFile, Input};

use crate::error::{Error, Result};
use crate::format::locus::{for_each_row, HEADER};
use crate::pipeline::detect::locus::AlignedLine;

/// Rewrites `root/rel`, a locus file this run wrote, with the reference tokens aligned to
/// every locus: pair `k` of `pairs` (with `alignments[k]`, `posteriors[k]`) is corpus line
/// `first + k`. Streams the file; replaces it whole.
pub fn add_reference(
    root: &Path,
    rel: &str,
    first: u64,
    pairs: &Corpus,
    alignments: &[Alignment],
    posteriors: Option<&[Vec<f64>]>,
) -> Result<()> {
    let path = root.join(rel);
    let mut r = Input::open(&path)?;
    let mut out = AtomicFile::create(&path)?;
    let io = |e| Error::io(&path, e);
    writeln!(out, "{HEADER}").map_err(io)?;
    let mut line = 1u64;
    for_each_row(&mut r, &path, |mut l| {
        line += 1;
        let k =
            l.id.checked_sub(first)
                .and_then(|k| usize::try_from(k).ok())
                .and_then(|k| AlignedLine::new(pairs, k, alignments, posteriors))
                .ok_or_else(|| Error::input(&path, line, "line id outside the aligned lines"))?;
        l.ref_dep = k.aligned_to(l.dep.id);
        l.ref_head = l
            .head
            .as_ref()
            .map(|h| k.aligned_to(h.id))
            .unwrap_or_default();
        writeln!(out, "{}", l.row()).map_err(io)
    })?;
    r.finish()?;
    out.commit()?;
    Ok(())
}
