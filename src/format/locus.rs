//! `locus.tsv`: where, in each line of a set, the long-distance relation is — its two
//! source words and the reference words aligned to them.
//!
//! One header row, then one row per locus (a line with two qualifying pairs has two rows),
//! in the order of the set's lines:
//!
//! | column | content |
//! | --- | --- |
//! | `id` | 1-based corpus line (as in the set's `.ids`) |
//! | `locus` | the locus's number within the line, 1-based, in marking order |
//! | `distance` | lexical sets: words strictly between dependent and head; reorder sets: the line's value of the measure (crossing or position distance, in words) |
//! | `dep`, `dep_word` | lexical sets: the dependent (`<dk>`); reorder sets: the source word of the first marked link; its ID in the CoNLL-U tree (1-based) and its form |
//! | `head`, `head_word` | lexical sets: the head (`<hk>`); reorder sets: the source word of the second marked link (empty for `position`, which marks one link) |
//! | `ref_dep`, `ref_dep_words`, `ref_dep_conf` | the reference tokens aligned to `dep`: positions (1-based, in the reference as the aligner tokenized it), tokens, and the aligner's confidence in each link (4 decimals), each space-separated |
//! | `ref_head`, `ref_head_words`, `ref_head_conf` | the same for `head` |
//!
//! Lexical sets take every reference token aligned to the word; reorder sets take the one
//! target token of the marked link. A reference cell is empty when no token is aligned to
//! the word (the reference has no locus there), or when the run did not align (`--no-reorder`:
//! the manifest then has no `reorder` record); a confidence cell is empty when the aligner
//! gives none (fast_align's model, `--alignments`). Tabs and line breaks in words are
//! written as spaces.

use std::fmt::Write as _;
use std::path::Path;

use super::cells::Cells;
use super::tsv_cell as cell;
use crate::error::{Error, Result};

/// The header row of `locus.tsv`.
pub const HEADER: &str = "id\tlocus\tdistance\tdep\tdep_word\thead\thead_word\t\
ref_dep\tref_dep_words\tref_dep_conf\tref_head\tref_head_words\tref_head_conf";

/// Columns of a row.
const COLUMNS: usize = 13;

/// A source word of a locus.
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    /// Its ID in the CoNLL-U tree (1-based).
    pub id: u32,
    /// Its form.
    pub form: String,
}

/// A reference token aligned to a locus word.
#[derive(Debug, Clone, PartialEq)]
pub struct RefToken {
    /// Its position in the tokenized reference (1-based).
    pub position: u32,
    /// The token.
    pub form: String,
    /// The aligner's confidence in the link (`None`: the aligner gives none).
    pub conf: Option<f64>,
}

/// One row of `locus.tsv`.
#[derive(Debug, Clone, PartialEq)]
pub struct Locus {
    /// 1-based corpus line.
    pub id: u64,
    /// Number of the locus within its line (1-based).
    pub number: u32,
    /// Words between dependent and head (reorder sets: the measure's value).
    pub distance: u32,
    /// The dependent (reorder sets: the first marked link's source word).
    pub dep: Word,
    /// The head (reorder sets: the second marked link's source word; `None` for one link).
    pub head: Option<Word>,
    /// Reference tokens aligned to `dep`.
    pub ref_dep: Vec<RefToken>,
    /// Reference tokens aligned to `head`.
    pub ref_head: Vec<RefToken>,
}

/// The three reference cells of `toks`.
fn ref_cells(toks: &[RefToken], out: &mut String) {
    let pos: Vec<String> = toks.iter().map(|t| t.position.to_string()).collect();
    let words: Vec<String> = toks.iter().map(|t| cell(&t.form)).collect();
    let conf: Vec<String> = if toks.iter().all(|t| t.conf.is_some()) {
        toks.iter()
            .filter_map(|t| t.conf)
            .map(|c| format!("{c:.4}"))
            .collect()
    } else {
        Vec::new()
    };
    let _ = write!(
        out,
        "{}\t{}\t{}",
        pos.join(" "),
        words.join(" "),
        conf.join(" ")
    );
}

impl Locus {
    /// The row (without line terminator).
    pub fn row(&self) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            "{}\t{}\t{}\t{}\t{}\t",
            self.id,
            self.number,
            self.distance,
            self.dep.id,
            cell(&self.dep.form)
        );
        match &self.head {
            Some(h) => {
                let _ = write!(s, "{}\t{}\t", h.id, cell(&h.form));
            }
            None => s.push_str("\t\t"),
        }
        ref_cells(&self.ref_dep, &mut s);
        s.push('\t');
        ref_cells(&self.ref_head, &mut s);
        s
    }

    /// Reads a row; `path` and `line` (1-based) name it in errors.
    pub fn parse(text: &str, path: &Path, line: u64) -> Result<Locus> {
        let c: Vec<&str> = text.split('\t').collect();
        if c.len() != COLUMNS {
            return Err(Error::input(
                path,
                line,
                format!(
                    "expected {COLUMNS} tab-separated columns, found {}",
                    c.len()
                ),
            ));
        }
        let row = Cells {
            cells: c,
            path,
            line,
        };
        // Checked in this order: the first error is the one reported.
        let head = if row.cells[5].is_empty() {
            None
        } else {
            Some(Word {
                id: row.small(5, "head")?,
                form: row.cells[6].to_string(),
            })
        };
        Ok(Locus {
            id: row.number(0, "id")?,
            number: row.small(1, "locus")?,
            distance: row.small(2, "distance")?,
            dep: Word {
                id: row.small(3, "dep")?,
                form: row.cells[4].to_string(),
            },
            head,
            ref_dep: row.ref_tokens(7, "ref_dep")?,
            ref_head: row.ref_tokens(10, "ref_head")?,
        })
    }
}

impl Cells<'_> {
    /// Reference tokens from three columns from `column`: positions, words, confidences.
    fn ref_tokens(&self, column: usize, what: &str) -> Result<Vec<RefToken>> {
        let pos: Vec<&str> = self.cells[column].split_whitespace().collect();
        let words: Vec<&str> = self.cells[column + 1]
            .split(' ')
            .filter(|w| !w.is_empty())
            .collect();
        let conf: Vec<&str> = self.cells[column + 2].split_whitespace().collect();
        if words.len() != pos.len() || !(conf.is_empty() || conf.len() == pos.len()) {
            return Err(self.bad(
                what,
                format!(
                    "{} positions, {} words and {} confidences do not correspond",
                    pos.len(),
                    words.len(),
                    conf.len()
                ),
            ));
        }
        pos.iter()
            .enumerate()
            .map(|(i, p)| {
                let position = p.parse().ok().filter(|&p: &u32| p > 0).ok_or_else(|| {
                    self.bad(
                        what,
                        format!("not a position: `{}`", ldd_io::error::quote(p, 20)),
                    )
                })?;
                let conf = conf.get(i).map(|x| self.confidence(x, what)).transpose()?;
                Ok(RefToken {
                    position,
                    form: words[i].to_string(),
                    conf,
                })
            })
            .collect()
    }

    fn confidence(&self, cell: &str, what: &str) -> Result<f64> {
        cell.parse()
            .ok()
            .filter(|x: &f64| (0.0..=1.0).contains(x))
            .ok_or_else(|| {
                self.bad(
                    what,
                    format!("not a confidence: `{}`", ldd_io::error::quote(cell, 20)),
                )
            })
    }
}

/// Calls `each` with every row of a locus file read from `input` (its header checked), in order;
/// `path` names the file in errors.
pub fn for_each_row(
    input: &mut ldd_io::Input,
    path: &Path,
    mut each: impl FnMut(Locus) -> Result<()>,
) -> Result<()> {
    super::for_each_tsv_row(input, path, HEADER, "a locus file", |line, n| {
        each(Locus::parse(line, path, n)?)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_reads_back_as_written() {
        let l = Locus {
            id: 17,
            number: 2,
            distance: 5,
            dep: Word {
                id: 9,
                form: "an".into(),
            },
            head: Some(Word {
                id: 3,
                form: "fängt".into(),
            }),
            ref_dep: vec![],
            ref_head: vec![
                RefToken {
                    position: 2,
                    form: "begins".into(),
                    conf: Some(0.98765),
                },
                RefToken {
                    position: 4,
                    form: "with".into(),
                    conf: Some(0.5),
                },
            ],
        };
        let row = l.row();
        assert_eq!(
            row,
            "17\t2\t5\t9\tan\t3\tfängt\t\t\t\t2 4\tbegins with\t0.9877 0.5000"
        );
        let back = Locus::parse(&row, Path::new("x"), 2).unwrap();
        assert_eq!(back.ref_head[0].conf, Some(0.9877));
        assert_eq!(back.head, l.head);
        assert_eq!(back.ref_dep, l.ref_dep);
        assert_eq!(row.split('\t').count(), HEADER.split('\t').count());
    }

    #[test]
    fn bad_rows_are_refused_with_file_and_line() {
        let p = Path::new("set/ge1.locus.tsv");
        for (row, want) in [
            ("1\t1\t0\t2\tx", "expected 13"),
            ("a\t1\t0\t2\tx\t\t\t\t\t\t\t\t", "column `id`"),
            ("1\t1\t0\t2\tx\t\t\t3\ty z\t\t\t\t", "do not correspond"),
            ("1\t1\t0\t2\tx\t\t\t0\ty\t\t\t\t", "not a position"),
            ("1\t1\t0\t2\tx\t\t\t3\ty\t1.5\t\t\t", "not a confidence"),
        ] {
            let e = Locus::parse(row, p, 7).unwrap_err().to_string();
            assert!(e.contains("set/ge1.locus.tsv") && e.contains('7'), "{e}");
            assert!(e.contains(want), "{row}: {e}");
        }
    }
}
