//! `reorder.tsv`, every line's reordering measures: written by `extract`
//! ([`crate::pipeline::write::reorder_files`]), its measures counted by `report` ([`measures`]).
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

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use ldd_align::{Link, Ratio, Reordering};
use ldd_io::Input;

use crate::error::{Error, Result};

/// The header of `reorder.tsv`.
pub const TSV_HEADER: &str = "id\tposition\tcrossing\tkendall\tfuzzy\taligned\t\
position_link\tposition_words\tcrossing_links\tcrossing_words";

/// One row of `reorder.tsv` (without line terminator).
pub fn tsv_row(id: u64, reordering: &Reordering, src: &[&str], tgt: &[&str]) -> String {
    let ratio = |x: Option<Ratio>| x.map_or(String::new(), |x| format!("{:.6}", x.value()));
    let word = |w: Option<&&str>| super::tsv_cell(w.map_or("", |w| *w));
    let words = |(i, j): Link| format!("{}|{}", word(src.get(i)), word(tgt.get(j)));
    let mut s = String::new();
    let _ = write!(
        s,
        "{id}\t{}\t{}\t{}\t{}\t{}\t",
        reordering
            .position
            .map_or(String::new(), |h| h.distance.to_string()),
        reordering
            .crossing
            .map_or(String::new(), |c| c.distance.to_string()),
        ratio(reordering.kendall),
        ratio(reordering.fuzzy),
        if reordering.word_links == 0 {
            String::new()
        } else {
            reordering.aligned.to_string()
        },
    );
    if let Some(h) = reordering.position {
        let l = (h.src_index, h.tgt_index);
        let _ = write!(s, "{}-{}\t{}", l.0, l.1, words(l));
    } else {
        s.push('\t');
    }
    s.push('\t');
    if let Some((a, b)) = reordering.crossing.and_then(|c| c.links) {
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

/// A per-line reordering measure, counted by value.
#[derive(Debug, Clone)]
pub struct Measure {
    /// Column name (`position`, `crossing`, `kendall`, `fuzzy`; `distance` in older runs).
    pub name: String,
    /// Value × 100 (rounded) → lines.
    pub counts: BTreeMap<i64, u64>,
    /// Whether every value is a whole number.
    pub integral: bool,
    /// Lines where the measure is undefined (empty cell, or no row).
    pub undefined: u64,
}

/// Columns of the reordering file that are measures.
const MEASURES: [&str; 5] = ["position", "crossing", "kendall", "fuzzy", "distance"];

/// The measures of the per-line reordering file `path` (`reorder.tsv`, or older runs'
/// `max_distance.tsv`, which has rows only for lines with a link), counted by value, read
/// from `input` (up to its first bad line); `corpus_lines` counts the lines without a row as
/// undefined. Memory: one counter per distinct value (rounded to 0.01), whatever the
/// corpus size.
pub fn measures(input: &mut Input, path: &Path, corpus_lines: u64) -> Result<Vec<Measure>> {
    let Some(header) = input.next_line()? else {
        return Err(Error::input(path, 1, "empty file: expected a header row"));
    };
    let columns: Vec<(usize, String)> = header
        .split('\t')
        .enumerate()
        .filter(|(_, c)| MEASURES.contains(c))
        .map(|(i, c)| (i, c.to_string()))
        .collect();
    if columns.is_empty() {
        return Err(Error::input(
            path,
            1,
            format!("no measure column ({}) in the header", MEASURES.join(", ")),
        ));
    }
    let mut measures: Vec<Measure> = columns
        .iter()
        .map(|(_, n)| Measure {
            name: n.clone(),
            counts: BTreeMap::new(),
            integral: true,
            undefined: 0,
        })
        .collect();
    let mut rows = 0u64;
    while let Some(line) = input.next_line()? {
        rows += 1;
        let cells: Vec<&str> = line.split('\t').collect();
        for ((i, name), meas) in columns.iter().zip(measures.iter_mut()) {
            let cell = cells.get(*i).copied().unwrap_or("").trim();
            if cell.is_empty() {
                meas.undefined += 1;
                continue;
            }
            let v: f64 = cell
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| {
                    Error::input(
                        path,
                        rows + 1,
                        format!(
                            "column `{name}`: not a number: `{}`",
                            ldd_io::error::quote(cell, 40)
                        ),
                    )
                })?;
            if v.fract() != 0.0 {
                meas.integral = false;
            }
            *meas.counts.entry((v * 100.0).round() as i64).or_insert(0) += 1;
        }
    }
    // max_distance.tsv has rows only for lines with a link.
    for meas in &mut measures {
        meas.undefined += corpus_lines.saturating_sub(rows);
    }
    Ok(measures)
}
