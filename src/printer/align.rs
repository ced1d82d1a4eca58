//! What `align --gold` prints: warnings about the gold alignments read (stderr) and the
//! scores against them (stdout).

use std::fmt::Write as _;
use std::path::Path;

use ldd_align::{AerScores, Gold};

use crate::detect::alignment::AlignOptions;

/// The warnings about `gold`, read from `path`, one a line: links outside their sentence
/// pair (left out), and sentence pairs without a gold link.
pub fn gold_warnings(gold: &Gold, path: &Path) -> Vec<String> {
    let shown = ldd_io::error::shown(path);
    let mut out: Vec<String> = gold
        .outside
        .iter()
        .map(|o| format!("ldd-sets: warning: {shown}:{}: {o}; left out", o.line))
        .collect();
    let unlinked = gold
        .sentences
        .iter()
        .filter(|g| g.sure.is_empty() && g.possible.is_empty())
        .count();
    if unlinked > 0 {
        out.push(format!(
            "ldd-sets: warning: {shown}: {unlinked} of {} sentence pairs have no gold link, so \
             every link aligned in them counts against precision (is the gold for part of the \
             corpus only?)",
            gold.sentences.len()
        ));
    }
    out
}

/// The gold alignments read from `path` (`base`: their first index; `order`: `src-tgt`
/// or `tgt-src`), the alignments of `options` and their scores `s`: AER, precision and
/// recall.
pub fn gold_summary(
    gold: &Gold,
    path: &Path,
    (base, order): (u8, &str),
    options: &AlignOptions,
    s: &AerScores,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "gold {} ({}, {base}-based, {order}): {} sentence pairs, {} sure and {} possible links{}{}",
        ldd_io::error::shown(path),
        gold.format,
        gold.sentences.len(),
        s.sure_links,
        s.possible_links - s.sure_links,
        match gold.outside.len() {
            0 => String::new(),
            n => format!("; {n} outside their sentence pair, left out"),
        },
        match gold.null_links {
            0 => String::new(),
            n => format!("; {n} to NULL, ignored"),
        },
    );
    let _ = writeln!(
        out,
        "alignment {}{}: {} links",
        options.direction,
        if options.lowercase {
            ", lowercased"
        } else {
            ""
        },
        s.hyp_links
    );
    let _ = writeln!(
        out,
        "AER {:.4}  precision {:.4}  recall {:.4}  (|A∩S| {}, |A∩P| {})",
        s.aer, s.precision, s.recall, s.hyp_sure, s.hyp_possible
    );
    out
}
