//! The files only a shard's output has, for `merge`: the source length of every line of the
//! shard (`shard-lengths.txt`) and a copy of the shard's own parse (`shard-parse.conllu.gz`);
//! and the shard's record in its manifest ([`shard_record`]).

use std::path::Path;

use ldd_io::Input;

use crate::error::{Error, Result};
use crate::format::manifest::{ShardParse, ShardPart, ShardRecord};
use crate::pipeline::read::shard::ShardRun;
use crate::pipeline::sample::ControlOptions;

/// The lengths file of a shard's output.
pub use crate::layout::SHARD_LENGTHS as LENGTHS;

/// The copy of a shard's parse in its output.
pub use crate::layout::SHARD_PARSE as PARSE;

/// Writes the files of a shard's output into `root`: the source length of every line of
/// the shard (`lengths`) and, when the shard parsed its own lines, a copy of that parse
/// (`parse`, never replacing a file).
pub fn write_files(root: &Path, lengths: &[u32], parse: Option<&Path>) -> Result<()> {
    write_lengths(&root.join(LENGTHS), lengths)?;
    if let Some(conllu) = parse {
        ldd_io::fs::copy_new(conllu, &root.join(PARSE))?;
    }
    Ok(())
}

/// The shard's record for the manifest, once its own files are written into `root`
/// ([`write_files`]: `lengths`, the lengths of its lines, and a copy of its own parse
/// `conllu`); `merge` draws the controls of `controls` over the whole corpus.
pub fn shard_record(
    root: &Path,
    run: &ShardRun,
    lengths: &[u32],
    conllu: &Path,
    controls: &ControlOptions,
) -> Result<ShardRecord> {
    write_files(root, lengths, run.parse.as_ref().map(|_| conllu))?;
    let parse = run.parse.as_ref().map(|p| ShardParse {
        file: PARSE.to_string(),
        ..p.clone()
    });
    Ok(ShardRecord::Part(ShardPart {
        index: run.shard.index,
        count: run.shard.count,
        lines: run.lines,
        corpus_lines: run.corpus_lines,
        lengths: LENGTHS.to_string(),
        controls: (*controls).into(),
        parse,
    }))
}

/// Writes one length per line (all-or-nothing).
fn write_lengths(path: &Path, lengths: &[u32]) -> Result<()> {
    ldd_io::write_file_atomic::<Error>(path, |w| {
        let mut buf = itoa::Buffer::new();
        for &l in lengths {
            w.write_all(buf.format(l).as_bytes())?;
            w.write_all(b"\n")?;
        }
        Ok(())
    })
}

/// Reads a lengths file of exactly `expected` lines, appending to `out`.
pub fn read_lengths(path: &Path, expected: u64, out: &mut Vec<u32>) -> Result<()> {
    let mut r = Input::open(path)?;
    let mut n = 0u64;
    while let Some(l) = r.next_line()? {
        n += 1;
        let v: u32 = l.parse().map_err(|_| {
            Error::input(
                path,
                n,
                format!("not a sentence length: `{}`", ldd_io::error::quote(l, 40)),
            )
        })?;
        out.push(v);
    }
    if n != expected {
        return Err(Error::input(
            path,
            n,
            format!("{n} lengths, but the shard has {expected} lines"),
        ));
    }
    Ok(())
}
