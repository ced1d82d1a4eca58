//! `scores.loci.tsv`: locus accuracy's judgement of every locus for every system, written
//! by `score --metrics locus` beside `scores.json` (which names it with its SHA-256) and
//! read by `report` for its item browser.
//!
//! One header row, then one row per distinct locus (phenomenon, line, dependent, head) and
//! system: the loci in the order of the phenomena in the manifest, then of line, dependent
//! and head; for each, one row per system in `--hyp` order.
//!
//! | column | content |
//! | --- | --- |
//! | `phenomenon` | the set's phenomenon |
//! | `sets` | the buckets of that phenomenon's sets holding the locus, space-separated (e.g. `ge1 ge2 eq2`) |
//! | `id` | 1-based corpus line |
//! | `distance` | as in the sets' `locus.tsv` |
//! | `dep`, `dep_word`, `head`, `head_word` | as in `locus.tsv` (1-based word IDs, forms) |
//! | `system` | the system's name |
//! | `judgement` | `correct`, `incorrect`, `unaligned` (the output has no token aligned to a word the reference has one for: not judged) or `no_reference` (the reference has no token aligned to either word: not judged) |
//! | `ref_dep`, `ref_dep_words`, `ref_head`, `ref_head_words` | the reference tokens aligned to the dependent and the head: positions (1-based, in `reference`) and tokens, space-separated |
//! | `hyp_dep`, `hyp_dep_words`, `hyp_head`, `hyp_head_words` | the same for the system's output (positions in `output`): the tokens aligned to the word, and those the judgement found to render it elsewhere (evidence `present`, `unplaced`) |
//! | `source` | the source line's words (the tree's words; word *k* is ID *k*) |
//! | `reference`, `output` | the reference and the output, tokenized as the aligner tokenizes them |
//! | `p_error` | `locus:2`'s estimate that a rater marks an error at the locus (4 decimals); empty in files of `locus:3`, which has none |
//! | `order` | for a locus of two words: `kept` when the output has their tokens in the reference's relative order, `changed` when not, empty when a side has no token for one of them |
//! | `evidence` | what decided each word, the dependent's then the head's, comma-separated: `same`, `lemma`, `variant`, `translation:S`, `present` (correct), `unplaced` (unaligned), `other:S`, `omitted` (incorrect), `no_reference`; `S` the aligner's lexical score of the best output token (docs/evaluation.md) |
//! | `rule` | the rule's version (`locus:3`); files written before it have neither column, and are `locus:2`'s or `locus:1`'s |
//!
//! Tokens are separated by single spaces; a space, tab or line break inside a word is
//! written as `_`. A text cell that a spreadsheet would take for a formula gets a leading
//! `'` ([`super::to_spreadsheet`]), which [`Judged::parse`] removes.

use std::fmt::Write as _;
use std::path::Path;

use super::cells::Cells;
use crate::error::{Error, Result};
use crate::format::locus::Word;

/// The header row of `scores.loci.tsv`.
pub const HEADER: &str = "phenomenon\tsets\tid\tdistance\tdep\tdep_word\thead\thead_word\t\
system\tjudgement\tref_dep\tref_dep_words\tref_head\tref_head_words\t\
hyp_dep\thyp_dep_words\thyp_head\thyp_head_words\tsource\treference\toutput\tp_error\torder\t\
evidence\trule";

/// The header of files written by `locus:2` (read with `evidence` and `rule` empty).
pub const HEADER_2: &str = "phenomenon\tsets\tid\tdistance\tdep\tdep_word\thead\thead_word\t\
system\tjudgement\tref_dep\tref_dep_words\tref_head\tref_head_words\t\
hyp_dep\thyp_dep_words\thyp_head\thyp_head_words\tsource\treference\toutput\tp_error\torder";

/// The header of files written before `p_error` and `order` (read with both empty).
pub const HEADER_1: &str = "phenomenon\tsets\tid\tdistance\tdep\tdep_word\thead\thead_word\t\
system\tjudgement\tref_dep\tref_dep_words\tref_head\tref_head_words\t\
hyp_dep\thyp_dep_words\thyp_head\thyp_head_words\tsource\treference\toutput";

/// Columns of a row (rows of [`HEADER_2`]'s files have the first 23, [`HEADER_1`]'s the
/// first 21).
const COLUMNS: usize = 25;

/// Locus accuracy's judgement of one locus (or word).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Judgement {
    /// Rendered as the reference renders it, in the relation (and order) it has.
    Correct,
    /// Positive evidence of an error in the dependency: a word omitted, the relation
    /// broken, a reordering locus in the source's order.
    Incorrect,
    /// Rendered by other words, which the tool cannot vouch for: not judged (`locus:4`).
    Differs,
    /// Judged on one of its two words only (the other has no reference rendering): not
    /// judged (`locus:4`).
    Partial,
    /// The output has the word where the aligner cannot place it: not judged.
    Unaligned,
    /// The reference has no rendering of the locus: not judged.
    NoReference,
}

impl Judgement {
    /// Every judgement, in the order reports list them.
    pub const ALL: [Judgement; 6] = [
        Judgement::Correct,
        Judgement::Incorrect,
        Judgement::Differs,
        Judgement::Partial,
        Judgement::Unaligned,
        Judgement::NoReference,
    ];

    /// Whether judged correct (`Some(true)`), incorrect (`Some(false)`), or not judged.
    pub fn judged(self) -> Option<bool> {
        match self {
            Judgement::Correct => Some(true),
            Judgement::Incorrect => Some(false),
            Judgement::Differs
            | Judgement::Partial
            | Judgement::Unaligned
            | Judgement::NoReference => None,
        }
    }

    /// Its name in the file.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Correct => "correct",
            Judgement::Incorrect => "incorrect",
            Judgement::Differs => "differs",
            Judgement::Partial => "partial",
            Judgement::Unaligned => "unaligned",
            Judgement::NoReference => "no_reference",
        }
    }
}

/// One row: a locus as one system's output renders it.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    /// The phenomenon.
    pub phenomenon: String,
    /// The buckets of the phenomenon's sets that hold the locus.
    pub sets: Vec<String>,
    /// 1-based corpus line.
    pub id: u64,
    /// As in `locus.tsv`.
    pub distance: u32,
    /// The dependent (reorder sets: the first marked link's source word).
    pub dep: Word,
    /// The head (`None`: one marked link).
    pub head: Option<Word>,
    /// The system.
    pub system: String,
    /// The judgement.
    pub judgement: Judgement,
    /// Positions (1-based, in `reference`) of the reference tokens aligned to `dep`.
    pub ref_dep: Vec<u32>,
    /// The same for `head`.
    pub ref_head: Vec<u32>,
    /// Positions (1-based, in `output`) of the output tokens aligned to `dep`.
    pub hyp_dep: Vec<u32>,
    /// The same for `head`.
    pub hyp_head: Vec<u32>,
    /// The source line's words.
    pub source: Vec<String>,
    /// The reference's tokens.
    pub reference: Vec<String>,
    /// The output's tokens.
    pub output: Vec<String>,
    /// The rule's estimate that a rater marks an error at the locus (`None`: not judged).
    pub p_error: Option<f64>,
    /// For two words: whether the output keeps the reference's order of their tokens.
    pub order: Option<bool>,
    /// What decided each word (`locus:3`; empty in older files).
    pub evidence: String,
    /// The rule's version (empty in files written before `locus:3`).
    pub rule: String,
}

/// A token as a cell part: whitespace inside it as `_`.
fn token(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect()
}

fn tokens(tokens: &[String]) -> String {
    tokens
        .iter()
        .map(|w| token(w))
        .collect::<Vec<_>>()
        .join(" ")
}

fn positions(positions: &[u32]) -> String {
    positions
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The tokens of `toks` at the 1-based positions `positions`.
fn words_at(positions: &[u32], toks: &[String]) -> String {
    positions
        .iter()
        .filter_map(|&k| toks.get(k as usize - 1))
        .map(|w| token(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A text cell, safe for spreadsheets.
fn cell(text: String) -> String {
    super::to_spreadsheet(&text).into_owned()
}

impl Judged {
    /// The row (without line terminator).
    pub fn row(&self) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            "{}\t{}\t{}\t{}\t{}\t{}\t",
            cell(token(&self.phenomenon)),
            self.sets.join(" "),
            self.id,
            self.distance,
            self.dep.id,
            cell(token(&self.dep.form))
        );
        match &self.head {
            Some(h) => {
                let _ = write!(s, "{}\t{}\t", h.id, cell(token(&h.form)));
            }
            None => s.push_str("\t\t"),
        }
        let _ = write!(
            s,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            cell(token(&self.system)),
            self.judgement.name(),
            positions(&self.ref_dep),
            cell(words_at(&self.ref_dep, &self.reference)),
            positions(&self.ref_head),
            cell(words_at(&self.ref_head, &self.reference)),
            positions(&self.hyp_dep),
            cell(words_at(&self.hyp_dep, &self.output)),
            positions(&self.hyp_head),
            cell(words_at(&self.hyp_head, &self.output)),
            cell(tokens(&self.source)),
            cell(tokens(&self.reference)),
            cell(tokens(&self.output)),
            self.p_error.map(|p| format!("{p:.4}")).unwrap_or_default(),
            match self.order {
                Some(true) => "kept",
                Some(false) => "changed",
                None => "",
            },
            cell(token(&self.evidence)),
            cell(token(&self.rule)),
        );
        s
    }

    /// Reads a row; `path` and `line` (1-based) name it in errors. Positions must lie
    /// within their line (the word columns are not read: they repeat the tokens).
    pub fn parse(text: &str, path: &Path, line: u64) -> Result<Judged> {
        let cells: Vec<std::borrow::Cow<str>> =
            text.split('\t').map(super::from_spreadsheet).collect();
        let mut c: Vec<&str> = cells.iter().map(|x| x.as_ref()).collect();
        if c.len() == COLUMNS - 4 || c.len() == COLUMNS - 2 {
            c.resize(COLUMNS, "");
        }
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
        let (source, reference, output) = (row.tokens(18), row.tokens(19), row.tokens(20));
        // Checked in this order: the first error is the one reported.
        let judgement = row.judgement(9)?;
        let p_error = row.p_error(21)?;
        let order = row.order(22)?;
        Ok(Judged {
            phenomenon: row.cells[0].to_string(),
            sets: row.cells[1].split_whitespace().map(String::from).collect(),
            id: row.number(2, "id")?,
            distance: row.small(3, "distance")?,
            dep: row.word(4, "dep", &source)?,
            head: if row.cells[6].is_empty() {
                None
            } else {
                Some(row.word(6, "head", &source)?)
            },
            system: row.cells[8].to_string(),
            judgement,
            ref_dep: row.positions(10, "ref_dep", &reference)?,
            ref_head: row.positions(12, "ref_head", &reference)?,
            hyp_dep: row.positions(14, "hyp_dep", &output)?,
            hyp_head: row.positions(16, "hyp_head", &output)?,
            p_error,
            order,
            evidence: row.cells[23].to_string(),
            rule: row.cells[24].to_string(),
            source,
            reference,
            output,
        })
    }
}

impl Cells<'_> {
    fn tokens(&self, column: usize) -> Vec<String> {
        match self.cells[column] {
            "" => Vec::new(),
            t => t.split(' ').map(String::from).collect(),
        }
    }

    /// 1-based positions among the tokens `within`.
    fn positions(&self, column: usize, what: &str, within: &[String]) -> Result<Vec<u32>> {
        self.cells[column]
            .split_whitespace()
            .map(|p| {
                p.parse()
                    .ok()
                    .filter(|&p: &u32| p > 0 && p as usize <= within.len())
                    .ok_or_else(|| {
                        self.bad(
                            what,
                            format!(
                                "not a position among the line's {} tokens: `{}`",
                                within.len(),
                                ldd_io::error::quote(p, 20)
                            ),
                        )
                    })
            })
            .collect()
    }

    fn judgement(&self, column: usize) -> Result<Judgement> {
        Judgement::ALL
            .into_iter()
            .find(|j| j.name() == self.cells[column])
            .ok_or_else(|| {
                self.bad(
                    "judgement",
                    format!(
                        "`{}` is not correct, incorrect, differs, partial, unaligned or \
                         no_reference",
                        ldd_io::error::quote(self.cells[column], 40)
                    ),
                )
            })
    }

    /// A source word: its id (among the `source` words) and, in the next column, its form.
    fn word(&self, column: usize, what: &str, source: &[String]) -> Result<Word> {
        let id = self.small(column, what)?;
        if id == 0 || id as usize > source.len() {
            return Err(self.bad(
                what,
                format!("word {id} is not among the source's {} words", source.len()),
            ));
        }
        Ok(Word {
            id,
            form: self.cells[column + 1].to_string(),
        })
    }

    fn p_error(&self, column: usize) -> Result<Option<f64>> {
        match self.cells[column] {
            "" => Ok(None),
            p => p
                .parse::<f64>()
                .ok()
                .filter(|p| (0.0..=1.0).contains(p))
                .map(Some)
                .ok_or_else(|| {
                    self.bad(
                        "p_error",
                        format!("not a probability: `{}`", ldd_io::error::quote(p, 20)),
                    )
                }),
        }
    }

    fn order(&self, column: usize) -> Result<Option<bool>> {
        match self.cells[column] {
            "" => Ok(None),
            "kept" => Ok(Some(true)),
            "changed" => Ok(Some(false)),
            o => Err(self.bad(
                "order",
                format!(
                    "`{}` is not kept, changed or empty",
                    ldd_io::error::quote(o, 20)
                ),
            )),
        }
    }
}

/// Calls `each` with every row of a judgements file read from `input` (its header checked), in
/// order, and its 1-based line number; `path` names the file in errors.
pub fn for_each_row(
    input: &mut ldd_io::Input,
    path: &Path,
    mut each: impl FnMut(Judged, u64) -> Result<()>,
) -> Result<()> {
    super::for_each_tsv_row_of(
        input,
        path,
        &[HEADER, HEADER_2, HEADER_1],
        "a locus judgements file (scores.loci.tsv)",
        |line, n| each(Judged::parse(line, path, n)?, n),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Judged {
        let w = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        Judged {
            phenomenon: "particle".into(),
            sets: vec!["ge1".into(), "ge2".into(), "eq2".into()],
            id: 12,
            distance: 2,
            dep: Word {
                id: 4,
                form: "aus".into(),
            },
            head: Some(Word {
                id: 1,
                form: "Brach".into(),
            }),
            system: "sys-a".into(),
            judgement: Judgement::Incorrect,
            ref_dep: vec![2],
            ref_head: vec![1],
            hyp_dep: vec![],
            hyp_head: vec![1],
            source: w("Brach der Krieg aus ?"),
            reference: w("broke out the war ?"),
            output: w("broke the war"),
            p_error: None,
            order: Some(false),
            evidence: "omitted,same".into(),
            rule: "locus:3".into(),
        }
    }

    #[test]
    fn a_row_reads_back_as_written() {
        let j = sample();
        let row = j.row();
        assert_eq!(
            row,
            "particle\tge1 ge2 eq2\t12\t2\t4\taus\t1\tBrach\tsys-a\tincorrect\t2\tout\t1\tbroke\t\
             \t\t1\tbroke\tBrach der Krieg aus ?\tbroke out the war ?\tbroke the war\t\tchanged\t\
             omitted,same\tlocus:3"
        );
        assert_eq!(row.split('\t').count(), HEADER.split('\t').count());
        assert_eq!(Judged::parse(&row, Path::new("x"), 2).unwrap(), j);
    }

    #[test]
    fn rows_of_older_rules_read_with_what_they_have() {
        let row = sample().row();
        let cells: Vec<&str> = row.split('\t').collect();
        // `locus:2`: no evidence nor rule, a p_error.
        let mut two: Vec<&str> = cells[..23].to_vec();
        two[21] = "0.3125";
        let j = Judged::parse(&two.join("\t"), Path::new("x"), 2).unwrap();
        assert_eq!(j.p_error, Some(0.3125));
        assert_eq!((j.evidence.as_str(), j.rule.as_str()), ("", ""));
        assert_eq!(j.order, Some(false));
        // `locus:1`: nor p_error and order.
        let j = Judged::parse(&cells[..21].join("\t"), Path::new("x"), 2).unwrap();
        assert_eq!((j.p_error, j.order, j.rule.as_str()), (None, None, ""));
        assert_eq!(HEADER_2.split('\t').count(), 23);
        assert_eq!(HEADER_1.split('\t').count(), 21);
    }

    #[test]
    fn bad_rows_are_refused_with_file_and_line() {
        let p = Path::new("scores.loci.tsv");
        let row = sample().row();
        let with = |k: usize, v: &str| {
            let mut c: Vec<&str> = row.split('\t').collect();
            c[k] = v;
            c.join("\t")
        };
        for (text, want) in [
            ("a\tb".to_string(), "expected 25"),
            (with(21, "1.5"), "column `p_error`"),
            (with(22, "maybe"), "column `order`"),
            (with(2, "x"), "column `id`"),
            (with(9, "maybe"), "column `judgement`"),
            (with(10, "6"), "not a position among the line's 5 tokens"),
            (with(16, "0"), "column `hyp_head`"),
            (with(4, "9"), "not among the source's 5 words"),
        ] {
            let e = Judged::parse(&text, p, 7).unwrap_err().to_string();
            assert!(e.contains("scores.loci.tsv") && e.contains('7'), "{e}");
            assert!(e.contains(want), "{text}: {e}");
        }
    }
}
