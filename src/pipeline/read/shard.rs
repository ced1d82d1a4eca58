//! Shards: shard `I` of `N` reads a contiguous range of corpus lines, fixed by the corpus's
//! line count alone, so every shard knows its range without reading the others' output.
//!
//! Shard `I` (1-based) of a corpus of `L` lines holds lines `⌊(I−1)·L/N⌋ + 1 ..= ⌊I·L/N⌋`:
//! the ranges are contiguous, in order, cover the corpus exactly once and differ in size by
//! at most one line (a shard may be empty when `L < N`).

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use ldd_io::{Input, LineRange};

use crate::error::{Error, Result};
use crate::format::manifest::ShardParse;

/// The most shards a corpus may be cut into.
pub const MAX_SHARDS: u32 = 100_000;

/// Shard `index` of `count` (`--shard I/N`, 1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// This shard, 1..=count.
    pub index: u32,
    /// Number of shards.
    pub count: u32,
}

impl Shard {
    /// The corpus lines of this shard in a corpus of `total` lines.
    pub fn range(&self, total: u64) -> LineRange {
        let (i, n) = (u128::from(self.index), u128::from(self.count));
        let at = |k: u128| (k * u128::from(total) / n) as u64;
        let (start, end) = (at(i - 1), at(i));
        LineRange {
            first: start + 1,
            count: end - start,
        }
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N` with `1 <= I <= N <= MAX_SHARDS`.
    fn from_str(text: &str) -> std::result::Result<Self, String> {
        let bad = || {
            format!(
                "`{}`: expected I/N, shard I of N with 1 <= I <= N <= {MAX_SHARDS} (e.g. 2/8)",
                ldd_io::error::quote(text, 40)
            )
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let num = |t: &str| -> Option<u32> {
            (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse().ok())
                .flatten()
        };
        let (index, count) = (num(i).ok_or_else(bad)?, num(n).ok_or_else(bad)?);
        if index == 0 || index > count || count > MAX_SHARDS {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// What one shard of a sharded run extracts.
#[derive(Debug, Clone)]
pub struct ShardRun {
    /// The shard.
    pub shard: Shard,
    /// Its corpus lines.
    pub lines: LineRange,
    /// Lines of the whole corpus.
    pub corpus_lines: u64,
    /// The shard's own parse of its lines, when the CoNLL-U read holds only those trees
    /// (its `file` is set when written); `None`: the CoNLL-U is the whole corpus's parse.
    pub parse: Option<ShardParse>,
}

/// The number of lines of a corpus file (plain or gzip; a final line without terminator
/// counts), as every reader of ldd-sets counts them.
pub fn count_lines(path: &Path) -> Result<u64> {
    Ok(Input::open(path)?.finish()?.lines)
}

/// A shard's range in a corpus of `total` lines, with an error naming the corpus when the
/// shard would exceed what the controls and ids support.
pub fn shard_range(shard: Shard, corpus: &Path, total: u64) -> Result<LineRange> {
    if u32::try_from(total).is_err() {
        return Err(Error::Input {
            path: corpus.to_path_buf(),
            line: total,
            msg: format!(
                "more lines than ldd-sets supports ({} per corpus)",
                u32::MAX
            ),
        });
    }
    Ok(shard.range(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cover_the_corpus_once_in_order() {
        for total in [0u64, 1, 2, 5, 999, 1000, 3000, 28_030] {
            for n in [1u32, 2, 3, 7, 64] {
                let mut next = 1;
                for i in 1..=n {
                    let r = Shard { index: i, count: n }.range(total);
                    assert_eq!(r.first, next, "{i}/{n} of {total}");
                    let even = total / u64::from(n);
                    assert!(r.count == even || r.count == even + 1, "{i}/{n} of {total}");
                    next = r.end();
                }
                assert_eq!(next, total + 1);
            }
        }
        // By hand: 1000 lines in 3 shards.
        let r = |i| Shard { index: i, count: 3 }.range(1000);
        assert_eq!((r(1).first, r(1).count), (1, 333));
        assert_eq!((r(2).first, r(2).count), (334, 333));
        assert_eq!((r(3).first, r(3).count), (667, 334));
    }

    #[test]
    fn parses_i_of_n() {
        assert_eq!("2/8".parse(), Ok(Shard { index: 2, count: 8 }));
        assert_eq!("1/1".parse(), Ok(Shard { index: 1, count: 1 }));
        for bad in [
            "0/3", "4/3", "3", "/3", "1/", "a/b", "-1/3", "1/3/4", " 1/3", "1/100001",
        ] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
