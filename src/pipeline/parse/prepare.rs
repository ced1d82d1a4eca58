//! A corpus's trees, resolved once for `extract`, `run` and `parse`: a CoNLL-U given, or the
//! source side parsed with the parse cache, for the whole corpus or one shard of it.

use std::path::{Path, PathBuf};

use super::{describe, parse_cached_lines, ParseSettings, Parsed};
use crate::error::Result;
use crate::format::manifest::ShardParse;
use crate::pipeline::read::shard::{count_lines, shard_range, Shard, ShardRun};

/// Where a corpus's trees come from.
pub enum Trees {
    /// A CoNLL-U of the whole corpus, one tree per line (`extract --conllu`).
    Given(PathBuf),
    /// Parsed from the source side with this UDPipe model (cached).
    Parse(PathBuf),
}

/// A corpus ready for extraction.
pub struct Prepared {
    /// Its trees: the given CoNLL-U, or the cached parse (of the shard's lines, with a
    /// shard).
    pub conllu: PathBuf,
    /// The shard being run (`None`: the whole corpus).
    pub shard: Option<ShardRun>,
    /// The parse, when ldd-sets parsed.
    pub parsed: Option<Parsed>,
}

/// Prepares the corpus whose source side is `source`: the line range of `shard` (if any),
/// then its trees, given or parsed with `settings` (and said on stderr unless quiet). The
/// one way `extract`, `run` and `parse` get their trees.
pub fn prepare_corpus(
    source: &Path,
    trees: Trees,
    settings: &ParseSettings,
    shard: Option<Shard>,
) -> Result<Prepared> {
    let lines = match shard {
        Some(s) => {
            let total = count_lines(source)?;
            Some((s, shard_range(s, source, total)?, total))
        }
        None => None,
    };
    let run = |parse| {
        lines.map(|(shard, lines, corpus_lines)| ShardRun {
            shard,
            lines,
            corpus_lines,
            parse,
        })
    };
    Ok(match trees {
        Trees::Given(conllu) => Prepared {
            conllu,
            shard: run(None),
            parsed: None,
        },
        Trees::Parse(model) => {
            let parsed = parse_cached_lines(source, &model, lines.map(|l| l.1), settings)?;
            if !settings.quiet {
                ldd_io::message::say(&format!("ldd-sets: {}", describe(&parsed, source)));
            }
            Prepared {
                conllu: parsed.conllu.clone(),
                shard: run(Some(shard_parse(&parsed))),
                parsed: Some(parsed),
            }
        }
    })
}

/// The record of a shard's own parse (its `file` is set when the shard's output is
/// written).
fn shard_parse(parsed: &Parsed) -> ShardParse {
    ShardParse {
        file: String::new(),
        corpus: parsed.entry.corpus.clone(),
        corpus_sha256: parsed.entry.corpus_sha256.clone(),
        model: parsed.entry.model.clone(),
        model_sha256: parsed.entry.model_sha256.clone(),
        chunk_lines: ldd_parse::ParseOptions::default().chunk_lines as u64,
        chunks: parsed.entry.chunks.clone(),
    }
}
