//! A gold treebank's text parsed with a model, for `check-detection`: each sentence's text
//! (its `# text`, else its surface tokens) becomes one line of a temporary corpus beside
//! the parse cache, which the parse stage parses (or finds in the cache: the cache is keyed
//! by the bytes of corpus and model), one tree per gold sentence.

use std::io::Write;
use std::path::Path;

use ldd_conllu::{parse_block, Block, Reader};
use ldd_io::output::AtomicFile;

use super::{cache_dir, parse_cached, ParseSettings, Parsed};
use crate::error::{Error, Result};
use crate::layout;
use crate::pipeline::read::belongs::tree_text;

/// Parses the text of every sentence of the gold CoNLL-U `gold` with `model` (through the
/// parse cache of `settings`): the parse has one tree per gold sentence, in order. Returns
/// the parse and the number of sentences.
pub fn parse_gold_text(
    gold: &Path,
    model: &Path,
    settings: &ParseSettings,
) -> Result<(Parsed, u64)> {
    let dir = cache_dir(settings.cache_dir.as_deref())?;
    ldd_io::fs::create_dir_all(&dir)?;
    // Never committed: removed when dropped, once the parse (or the cache hit) is done.
    let mut text = AtomicFile::create(&dir.join(layout::GOLD_TEXT))?;
    let sentences = write_texts(gold, &mut text)?;
    text.flush()
        .map_err(|e| ldd_io::Error::io(text.tmp_path(), e))?;
    let parsed = parse_cached(text.tmp_path(), model, settings)?;
    Ok((parsed, sentences))
}

/// Writes the text of every sentence of `gold` to `out`, one line each; returns how many.
fn write_texts(gold: &Path, out: &mut AtomicFile) -> Result<u64> {
    let mut reader = Reader::open(gold)?;
    let mut block = Block::default();
    let mut n = 0u64;
    while reader.next_block(&mut block)? {
        let s = parse_block(&block, gold)?;
        let text = tree_text(&s);
        if text.contains(['\n', '\r']) {
            return Err(Error::input(
                gold,
                block.first_line,
                "the sentence's text holds a line break".to_string(),
            ));
        }
        writeln!(out, "{text}").map_err(|e| ldd_io::Error::io(out.tmp_path(), e))?;
        n += 1;
    }
    reader.finish()?;
    if n == 0 {
        return Err(Error::input(
            gold,
            1,
            "no sentence: not a CoNLL-U treebank".to_string(),
        ));
    }
    Ok(n)
}
