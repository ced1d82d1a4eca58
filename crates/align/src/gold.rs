//! Gold (hand-made) word alignments with sure and possible links, in the two common
//! formats:
//!
//! - **Pharaoh**: one line per sentence pair, links separated by whitespace: `i-j` is a
//!   sure link, `i?j` or `ipj` a possible one (e.g. `0-0 1p2 3?3`);
//! - **WPT** (the HLT-NAACL 2003 / ACL 2005 shared tasks' format): one link per line,
//!   `sentence i j [S|P] [confidence]`, the sentence numbered from 1 (its corpus line);
//!   without the `S|P` field a link is sure. Blank lines are skipped.
//!
//! Token indices are 0- or 1-based and the first index is the source or the target token,
//! as the caller states ([`GoldOptions`]). With 1-based indices, index 0 is the NULL word
//! (the WPT convention): such links align nothing and are counted, not kept.
//!
//! A link outside its sentence pair (an index beyond the sentence's tokens) cannot be
//! matched by any aligner; it is neither an error nor silently counted: it is left out of
//! the gold links and listed in [`Gold::outside`], with its file line, for the caller to
//! report. Malformed lines, unknown link kinds and sentence numbers beyond the corpus are
//! errors naming the file and line.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use crate::error::{AlignError, Result};
use crate::{Alignment, Link};

/// File format of a gold alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoldFormat {
    /// One line per sentence pair: `i-j` (sure), `i?j` / `ipj` (possible).
    Pharaoh,
    /// One link per line: `sentence i j [S|P] [confidence]`.
    Wpt,
}

impl GoldFormat {
    /// The format's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            GoldFormat::Pharaoh => "pharaoh",
            GoldFormat::Wpt => "wpt",
        }
    }

    /// Recognises the format from the first non-blank line: WPT lines start with three
    /// integers separated by whitespace; a Pharaoh token never is a bare integer.
    pub fn detect(first_line: &str) -> GoldFormat {
        let f: Vec<&str> = first_line.split_whitespace().collect();
        let int = |s: &&str| s.bytes().all(|b| b.is_ascii_digit());
        if f.len() >= 3 && f[..3].iter().all(int) {
            GoldFormat::Wpt
        } else {
            GoldFormat::Pharaoh
        }
    }
}

impl fmt::Display for GoldFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GoldFormat {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "pharaoh" => Ok(GoldFormat::Pharaoh),
            "wpt" => Ok(GoldFormat::Wpt),
            _ => Err(format!("`{s}`: expected pharaoh or wpt")),
        }
    }
}

/// How to read a gold file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GoldOptions {
    /// The format; `None` recognises it ([`GoldFormat::detect`]).
    pub format: Option<GoldFormat>,
    /// Token indices start at 1 (index 0 is NULL) instead of 0.
    pub one_based: bool,
    /// The first index of a link is the target token (`j i`), not the source token.
    pub target_first: bool,
}

impl Default for GoldOptions {
    /// Pharaoh conventions: recognised format, 0-based, source index first.
    fn default() -> Self {
        GoldOptions {
            format: None,
            one_based: false,
            target_first: false,
        }
    }
}

/// The gold links of one sentence pair, 0-based `(source, target)`, sorted, no repeats.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoldSentence {
    /// Sure links (S).
    pub sure: Alignment,
    /// Possible links that are not sure (P \ S); the possible set is `sure ∪ possible`.
    pub possible: Alignment,
}

/// A gold link that lies outside its sentence pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutsideLink {
    /// 1-based line of the gold file.
    pub line: usize,
    /// 1-based sentence pair.
    pub sentence: usize,
    /// The link as written.
    pub token: String,
    /// The link, 0-based `(source, target)`.
    pub link: Link,
    /// Source tokens of the pair.
    pub src_len: usize,
    /// Target tokens of the pair.
    pub tgt_len: usize,
}

impl fmt::Display for OutsideLink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "link {} of sentence {} is outside the sentence pair ({} source x {} target tokens)",
            ldd_io::error::escape(&self.token),
            self.sentence,
            self.src_len,
            self.tgt_len
        )
    }
}

/// A gold alignment read from a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gold {
    /// The format read.
    pub format: GoldFormat,
    /// One entry per sentence pair.
    pub sentences: Vec<GoldSentence>,
    /// Links left out because they lie outside their sentence pair.
    pub outside: Vec<OutsideLink>,
    /// Links to the NULL word (index 0 with 1-based indices), left out.
    pub null_links: usize,
}

impl Gold {
    /// Number of sure links.
    pub fn sure_links(&self) -> usize {
        self.sentences.iter().map(|s| s.sure.len()).sum()
    }

    /// Number of possible links (sure ones included).
    pub fn possible_links(&self) -> usize {
        self.sentences
            .iter()
            .map(|s| s.sure.len() + s.possible.len())
            .sum()
    }
}

/// Reads a gold file (plain or gzip, through `ldd_io::Input`) for a corpus whose sentence
/// pairs have the token counts `lengths` (`(source, target)`, one per pair).
///
/// A Pharaoh file must have one line per pair; WPT sentence numbers must lie in
/// `1..=lengths.len()`. Errors name the file and line.
pub fn read_gold(path: &Path, opts: &GoldOptions, lengths: &[(usize, usize)]) -> Result<Gold> {
    let mut input = ldd_io::Input::open(path)?;
    let mut sure: Vec<Vec<Link>> = vec![Vec::new(); lengths.len()];
    let mut possible: Vec<Vec<Link>> = vec![Vec::new(); lengths.len()];
    let mut outside = Vec::new();
    let mut null_links = 0;
    let mut format = opts.format;
    let bad = |line: u64, reason: String| AlignError::GoldLine {
        path: path.to_path_buf(),
        line: line as usize,
        reason,
    };
    let mut line = 0u64;
    while let Some(text) = input.next_line()? {
        line += 1;
        let fmt = match format {
            Some(f) => f,
            // A blank line holds no link in either format: read on until one says which.
            None if text.trim().is_empty() => continue,
            None => *format.insert(GoldFormat::detect(text)),
        };
        // (sentence index, first index, second index, sure, token as written)
        let mut links: Vec<(usize, usize, usize, bool, &str)> = Vec::new();
        match fmt {
            GoldFormat::Pharaoh => {
                let k = line as usize - 1;
                if k >= lengths.len() {
                    return Err(AlignError::LineCount {
                        path: path.to_path_buf(),
                        expected: lengths.len(),
                        found: input.count_rest_up_to(lengths.len() as u64 + 1)?,
                    });
                }
                for tok in text.split_whitespace() {
                    let (a, b, is_sure) = parse_pharaoh(tok).ok_or_else(|| {
                        bad(
                            line,
                            format!(
                                "malformed gold link {} (expected i-j, i?j or ipj)",
                                ldd_io::error::quote(tok, 40)
                            ),
                        )
                    })?;
                    links.push((k, a, b, is_sure, tok));
                }
            }
            GoldFormat::Wpt => {
                let f: Vec<&str> = text.split_whitespace().collect();
                if f.is_empty() {
                    continue;
                }
                let num = |s: &str| -> Option<usize> {
                    s.bytes()
                        .all(|b| b.is_ascii_digit())
                        .then(|| s.parse().ok())
                        .flatten()
                };
                let expected = "expected `sentence i j [S|P] [confidence]`";
                if f.len() < 3 || f.len() > 5 {
                    return Err(bad(line, format!("{} fields; {expected}", f.len())));
                }
                let (Some(s), Some(a), Some(b)) = (num(f[0]), num(f[1]), num(f[2])) else {
                    return Err(bad(line, format!("non-numeric index; {expected}")));
                };
                let is_sure = match f.get(3) {
                    None => true,
                    Some(&"S") | Some(&"s") => true,
                    Some(&"P") | Some(&"p") => false,
                    Some(other) => {
                        return Err(bad(
                            line,
                            format!(
                                "link kind {} is neither S nor P",
                                ldd_io::error::quote(other, 20)
                            ),
                        ))
                    }
                };
                if let Some(c) = f.get(4) {
                    if c.parse::<f64>().is_err() {
                        return Err(bad(
                            line,
                            format!("confidence {} is not a number", ldd_io::error::quote(c, 20)),
                        ));
                    }
                }
                if s == 0 || s > lengths.len() {
                    return Err(bad(
                        line,
                        format!(
                            "sentence {s} does not exist (the corpus has {} sentence pairs, numbered from 1)",
                            lengths.len()
                        ),
                    ));
                }
                links.push((s - 1, a, b, is_sure, text.trim()));
            }
        }
        for (k, a, b, is_sure, tok) in links {
            let (a, b) = if opts.one_based {
                if a == 0 || b == 0 {
                    null_links += 1;
                    continue;
                }
                (a - 1, b - 1)
            } else {
                (a, b)
            };
            let (i, j) = if opts.target_first { (b, a) } else { (a, b) };
            let (src_len, tgt_len) = lengths[k];
            if i >= src_len || j >= tgt_len {
                outside.push(OutsideLink {
                    line: line as usize,
                    sentence: k + 1,
                    token: tok.to_string(),
                    link: (i, j),
                    src_len,
                    tgt_len,
                });
                continue;
            }
            if is_sure {
                sure[k].push((i, j));
            } else {
                possible[k].push((i, j));
            }
        }
    }
    let lines = input.finish()?.lines as usize;
    let format = format.unwrap_or(GoldFormat::Pharaoh);
    if format == GoldFormat::Pharaoh && lines != lengths.len() {
        return Err(AlignError::LineCount {
            path: path.to_path_buf(),
            expected: lengths.len(),
            found: ldd_io::Counted::Exactly(lines as u64),
        });
    }
    let sentences = sure
        .into_iter()
        .zip(possible)
        .map(|(mut s, mut p)| {
            s.sort_unstable();
            s.dedup();
            p.sort_unstable();
            p.dedup();
            p.retain(|l| s.binary_search(l).is_err());
            GoldSentence {
                sure: s,
                possible: p,
            }
        })
        .collect();
    Ok(Gold {
        format,
        sentences,
        outside,
        null_links,
    })
}

/// `i-j` → sure, `i?j` / `ipj` → possible.
fn parse_pharaoh(tok: &str) -> Option<(usize, usize, bool)> {
    let (pos, sure) = tok.char_indices().find_map(|(p, c)| match c {
        '-' => Some((p, true)),
        '?' | 'p' => Some((p, false)),
        _ => None,
    })?;
    let (a, b) = (&tok[..pos], &tok[pos + 1..]);
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    if !digits(a) || !digits(b) {
        return None;
    }
    Some((a.parse().ok()?, b.parse().ok()?, sure))
}
