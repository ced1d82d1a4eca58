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
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.name())
    }
}

impl FromStr for GoldFormat {
    type Err = String;
    fn from_str(name: &str) -> std::result::Result<Self, String> {
        match name {
            "pharaoh" => Ok(GoldFormat::Pharaoh),
            "wpt" => Ok(GoldFormat::Wpt),
            _ => Err(format!("`{name}`: expected pharaoh or wpt")),
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
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            formatter,
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
    let mut links = Links::new(lengths.len());
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
        let raw = match fmt {
            GoldFormat::Pharaoh => {
                let k = line as usize - 1;
                if k >= lengths.len() {
                    return Err(AlignError::LineCount {
                        path: path.to_path_buf(),
                        expected: lengths.len(),
                        found: input.count_rest_up_to(lengths.len() as u64 + 1)?,
                    });
                }
                pharaoh_links(text, k).map_err(|reason| bad(line, reason))?
            }
            GoldFormat::Wpt => wpt_link(text, lengths.len())
                .map_err(|reason| bad(line, reason))?
                .into_iter()
                .collect(),
        };
        links.add(line as usize, raw, opts, lengths);
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
    Ok(links.into_gold(format))
}

/// A link as a gold file writes it, before index conventions are applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RawLink<'a> {
    /// 0-based sentence pair.
    sentence: usize,
    /// First index as written.
    first: usize,
    /// Second index as written.
    second: usize,
    /// Sure (S), not only possible (P).
    sure: bool,
    /// The link as written.
    token: &'a str,
}

/// The links of Pharaoh line `text`, of sentence pair `sentence` (0-based); the error is the
/// reason a link is malformed.
fn pharaoh_links(text: &str, sentence: usize) -> std::result::Result<Vec<RawLink<'_>>, String> {
    text.split_whitespace()
        .map(|token| {
            let (first, second, sure) = parse_pharaoh(token).ok_or_else(|| {
                format!(
                    "malformed gold link {} (expected i-j, i?j or ipj)",
                    ldd_io::error::quote(token, 40)
                )
            })?;
            Ok(RawLink {
                sentence,
                first,
                second,
                sure,
                token,
            })
        })
        .collect()
}

/// The link of WPT line `text` (`None` for a blank line) in a corpus of `pairs` sentence
/// pairs; the error is the reason the line is malformed.
fn wpt_link(text: &str, pairs: usize) -> std::result::Result<Option<RawLink<'_>>, String> {
    let f: Vec<&str> = text.split_whitespace().collect();
    if f.is_empty() {
        return Ok(None);
    }
    let num = |s: &str| -> Option<usize> {
        s.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| s.parse().ok())
            .flatten()
    };
    let expected = "expected `sentence i j [S|P] [confidence]`";
    if f.len() < 3 || f.len() > 5 {
        return Err(format!("{} fields; {expected}", f.len()));
    }
    let (Some(s), Some(first), Some(second)) = (num(f[0]), num(f[1]), num(f[2])) else {
        return Err(format!("non-numeric index; {expected}"));
    };
    let sure = match f.get(3) {
        None | Some(&"S") | Some(&"s") => true,
        Some(&"P") | Some(&"p") => false,
        Some(other) => {
            let kind = ldd_io::error::quote(other, 20);
            return Err(format!("link kind {kind} is neither S nor P"));
        }
    };
    if let Some(c) = f.get(4) {
        if c.parse::<f64>().is_err() {
            let c = ldd_io::error::quote(c, 20);
            return Err(format!("confidence {c} is not a number"));
        }
    }
    if s == 0 || s > pairs {
        return Err(format!(
            "sentence {s} does not exist (the corpus has {pairs} sentence pairs, numbered from 1)"
        ));
    }
    Ok(Some(RawLink {
        sentence: s - 1,
        first,
        second,
        sure,
        token: text.trim(),
    }))
}

/// The gold links gathered so far, per sentence pair.
struct Links {
    sure: Vec<Vec<Link>>,
    possible: Vec<Vec<Link>>,
    outside: Vec<OutsideLink>,
    null_links: usize,
}

impl Links {
    /// No links yet, for `pairs` sentence pairs.
    fn new(pairs: usize) -> Self {
        Links {
            sure: vec![Vec::new(); pairs],
            possible: vec![Vec::new(); pairs],
            outside: Vec::new(),
            null_links: 0,
        }
    }

    /// Adds the links `raw` of file line `line`: links to NULL (1-based index 0) are counted,
    /// links outside their pair (token counts `lengths`) listed, the others kept 0-based as
    /// `(source, target)`.
    fn add(
        &mut self,
        line: usize,
        raw: Vec<RawLink>,
        opts: &GoldOptions,
        lengths: &[(usize, usize)],
    ) {
        for r in raw {
            let (a, b) = if opts.one_based {
                if r.first == 0 || r.second == 0 {
                    self.null_links += 1;
                    continue;
                }
                (r.first - 1, r.second - 1)
            } else {
                (r.first, r.second)
            };
            let (i, j) = if opts.target_first { (b, a) } else { (a, b) };
            let k = r.sentence;
            let (src_len, tgt_len) = lengths[k];
            if i >= src_len || j >= tgt_len {
                self.outside.push(OutsideLink {
                    line,
                    sentence: k + 1,
                    token: r.token.to_string(),
                    link: (i, j),
                    src_len,
                    tgt_len,
                });
            } else if r.sure {
                self.sure[k].push((i, j));
            } else {
                self.possible[k].push((i, j));
            }
        }
    }

    /// The gold alignment: links sorted, repeats dropped, possible links that are also sure
    /// kept only as sure.
    fn into_gold(self, format: GoldFormat) -> Gold {
        let sentences = self
            .sure
            .into_iter()
            .zip(self.possible)
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
        Gold {
            format,
            sentences,
            outside: self.outside,
            null_links: self.null_links,
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pharaoh_lines_give_sure_and_possible_links() {
        let links = pharaoh_links("0-0 1p2  3?3", 4).expect("well formed");
        let got: Vec<_> = links
            .iter()
            .map(|r| (r.sentence, r.first, r.second, r.sure, r.token))
            .collect();
        assert_eq!(
            got,
            [
                (4, 0, 0, true, "0-0"),
                (4, 1, 2, false, "1p2"),
                (4, 3, 3, false, "3?3")
            ]
        );
        let reason = pharaoh_links("0-0 1x2", 0).expect_err("malformed");
        assert!(reason.starts_with("malformed gold link"), "{reason}");
    }

    #[test]
    fn wpt_lines_give_one_link_or_a_reason() {
        let link = wpt_link(" 2 3 4 P 0.5 ", 2).expect("ok").expect("a link");
        assert_eq!((link.sentence, link.first, link.second), (1, 3, 4));
        assert!(!link.sure);
        assert_eq!(link.token, "2 3 4 P 0.5");
        assert!(wpt_link("1 1 1", 2).expect("ok").expect("a link").sure);
        assert_eq!(wpt_link("  ", 2), Ok(None));
        let reasons = [
            ("1 2", "2 fields"),
            ("1 a 2", "non-numeric index"),
            ("1 2 3 X", "neither S nor P"),
            ("1 2 3 S high", "is not a number"),
            (
                "3 1 1",
                "sentence 3 does not exist (the corpus has 2 sentence pairs",
            ),
            ("0 1 1", "sentence 0 does not exist"),
        ];
        for (text, reason) in reasons {
            let got = wpt_link(text, 2).expect_err(text);
            assert!(got.contains(reason), "{text}: {got}");
        }
    }

    #[test]
    fn links_follow_the_index_conventions() {
        let opts = GoldOptions {
            format: Some(GoldFormat::Wpt),
            one_based: true,
            target_first: true,
        };
        let raw = |first, second, sure| RawLink {
            sentence: 0,
            first,
            second,
            sure,
            token: "t",
        };
        let mut links = Links::new(1);
        // 1-based, target first: (2, 1) is source 0, target 1; index 0 is NULL; target 5
        // lies outside a pair of 3 x 2 tokens; a possible link that is also sure stays sure.
        let batch = vec![
            raw(2, 1, true),
            raw(0, 3, true),
            raw(5, 1, false),
            raw(2, 1, false),
            raw(1, 3, false),
        ];
        links.add(7, batch, &opts, &[(3, 2)]);
        let gold = links.into_gold(GoldFormat::Wpt);
        assert_eq!(gold.null_links, 1);
        assert_eq!(gold.sentences[0].sure, [(0, 1)]);
        assert_eq!(gold.sentences[0].possible, [(2, 0)]);
        assert_eq!(gold.outside.len(), 1);
        assert_eq!((gold.outside[0].line, gold.outside[0].link), (7, (0, 4)));
    }
}
