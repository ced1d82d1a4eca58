//! Streaming, parallel parsing: batches of lines parsed on a rayon pool, written in input order.

use std::io::{BufWriter, Write};
use std::sync::mpsc::{sync_channel, Receiver};

use indicatif::ProgressBar;
use rayon::prelude::*;

use crate::error::{ParseError, Result};
use crate::parser::{ParsedLine, Parser};

/// Options of [`Parser::parse_stream`] and [`crate::ParseCache::get_or_parse`].
#[derive(Clone, Debug)]
pub struct ParseOptions {
    /// Parser threads; 0 = all available cores.
    pub threads: usize,
    /// Lines read, parsed in parallel and written per batch (memory is bounded by ~3 batches).
    pub batch_lines: usize,
    /// Progress bar advanced by one per parsed sentence, as each is parsed (by any
    /// worker); `None` = silent.
    pub progress: Option<ProgressBar>,
    /// Cache only: lines per resumable chunk of a cached parse.
    pub chunk_lines: usize,
    /// Cache only: stop with [`ParseError::Stopped`] after writing this many chunks in this run
    /// (for tests and time-boxed runs; the chunks stay and the next run resumes).
    pub stop_after_chunks: Option<usize>,
}

impl Default for ParseOptions {
    fn default() -> Self {
        Self {
            threads: 0,
            batch_lines: 512,
            progress: None,
            chunk_lines: 2000,
            stop_after_chunks: None,
        }
    }
}

/// Counts gathered while parsing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ParseStats {
    /// Input lines = CoNLL-U blocks written.
    pub lines: u64,
    /// Empty or whitespace-only lines (written as comment-only blocks).
    pub empty_lines: u64,
    /// Syntactic words written.
    pub words: u64,
    /// Lines UDPipe's tokenizer split into more than one sentence (merged into one tree).
    pub multi_sentence_lines: u64,
}

impl ParseStats {
    /// Adds the counts of one parsed line.
    pub(crate) fn add(&mut self, parsed: &ParsedLine) {
        self.lines += 1;
        self.words += parsed.words as u64;
        self.empty_lines += u64::from(parsed.udpipe_sentences == 0);
        self.multi_sentence_lines += u64::from(parsed.udpipe_sentences > 1);
    }

    /// Adds another set of counts.
    pub(crate) fn merge(&mut self, other: &Self) {
        self.lines += other.lines;
        self.empty_lines += other.empty_lines;
        self.words += other.words;
        self.multi_sentence_lines += other.multi_sentence_lines;
    }
}

/// Receives the parsed blocks in input order (runs on the writer thread).
pub(crate) trait BlockSink: Send {
    /// Takes the block of input line `line_no` (1-based).
    fn block(&mut self, line_no: u64, parsed: &ParsedLine) -> Result<()>;
}

/// Writes blocks to a `Write`.
struct WriteSink<W: Write + Send>(BufWriter<W>);

impl<W: Write + Send> BlockSink for WriteSink<W> {
    fn block(&mut self, _line_no: u64, parsed: &ParsedLine) -> Result<()> {
        self.0
            .write_all(parsed.conllu.as_bytes())
            .map_err(ParseError::Output)
    }
}

/// Number of threads `threads` stands for (0 = all cores).
pub(crate) fn effective_threads(threads: usize) -> usize {
    if threads > 0 {
        threads
    } else {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    }
}

impl Parser {
    /// Parses a stream of corpus lines, one CoNLL-U tree per line, writing blocks in input order.
    ///
    /// Lines are read in batches of `opts.batch_lines`, each batch is parsed on `opts.threads`
    /// rayon workers while a writer thread writes the previous batch, so memory is bounded by a
    /// few batches whatever the corpus size. Block `i` has `# sent_id = i` (1-based). The output
    /// does not depend on the number of threads. Errors of the line iterator are reported with
    /// the line number (errors of [`crate::read_corpus_lines`] already name file and line).
    pub fn parse_stream<I, E, W>(&self, lines: I, out: W, opts: &ParseOptions) -> Result<ParseStats>
    where
        I: IntoIterator<Item = std::result::Result<String, E>>,
        E: Into<ParseError>,
        W: Write + Send,
    {
        let mut sink = WriteSink(BufWriter::with_capacity(1 << 18, out));
        let stats = self.run_pipeline(lines.into_iter(), 1, opts, &mut sink)?;
        sink.0.flush().map_err(ParseError::Output)?;
        Ok(stats)
    }

    /// The pipeline behind [`Parser::parse_stream`]; `first_line` numbers the first line read.
    pub(crate) fn run_pipeline<I, E>(
        &self,
        mut lines: I,
        first_line: u64,
        opts: &ParseOptions,
        sink: &mut dyn BlockSink,
    ) -> Result<ParseStats>
    where
        I: Iterator<Item = std::result::Result<String, E>>,
        E: Into<ParseError>,
    {
        let pool = thread_pool(effective_threads(opts.threads))?;
        let batch_lines = opts.batch_lines.max(1);
        let (tx, rx) = sync_channel::<(u64, Vec<ParsedLine>)>(1);

        std::thread::scope(|scope| {
            let writer = scope.spawn(move || write_batches(rx, sink));
            let mut line_no = first_line;
            let mut batch: Vec<String> = Vec::with_capacity(batch_lines);
            let failure = loop {
                let read_error = read_batch(&mut lines, &mut batch, batch_lines, line_no);
                if !batch.is_empty() {
                    let start = line_no;
                    match self.parse_batch(&pool, start, &batch, opts) {
                        Ok(p) => {
                            line_no += p.len() as u64;
                            if tx.send((start, p)).is_err() {
                                break None; // the writer failed; its error is reported below
                            }
                        }
                        Err(e) => break Some(e),
                    }
                }
                if read_error.is_some() {
                    break read_error;
                }
                if batch.len() < batch_lines {
                    break None;
                }
            };
            drop(tx);
            let written = writer.join().unwrap_or_else(|_| {
                Err(ParseError::Output(std::io::Error::other(
                    "writer thread panicked",
                )))
            });
            match (written, failure) {
                (Err(e), _) | (Ok(_), Some(e)) => Err(e),
                (Ok(stats), None) => Ok(stats),
            }
        })
    }

    /// Parses the lines of `batch` (the first is line `start`) on `pool`, in order, advancing
    /// the progress bar by one per line.
    fn parse_batch(
        &self,
        pool: &rayon::ThreadPool,
        start: u64,
        batch: &[String],
        opts: &ParseOptions,
    ) -> Result<Vec<ParsedLine>> {
        pool.install(|| {
            batch
                .par_iter()
                .enumerate()
                .map(|(i, l)| {
                    let parsed = self.parse_line(start + i as u64, l);
                    if let Some(bar) = &opts.progress {
                        bar.inc(1);
                    }
                    parsed
                })
                .collect()
        })
    }
}

/// The parser's pool of `threads` workers.
fn thread_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("ldd-parse-{i}"))
        .build()
        .map_err(|e| ParseError::ThreadPool {
            threads,
            message: e.to_string(),
        })
}

/// The writer: hands each parsed batch (first line number, lines) to `sink` in order and
/// counts what it wrote.
fn write_batches(
    batches: Receiver<(u64, Vec<ParsedLine>)>,
    sink: &mut dyn BlockSink,
) -> Result<ParseStats> {
    let mut stats = ParseStats::default();
    for (first, batch) in batches {
        for (i, p) in (first..).zip(&batch) {
            sink.block(i, p)?;
            stats.add(p);
        }
    }
    Ok(stats)
}

/// Fills `batch` (emptied first) with up to `batch_lines` lines; stops at the first error of
/// the iterator and returns it, numbered as line `line_no + lines read before it`.
fn read_batch<I, E>(
    lines: &mut I,
    batch: &mut Vec<String>,
    batch_lines: usize,
    line_no: u64,
) -> Option<ParseError>
where
    I: Iterator<Item = std::result::Result<String, E>>,
    E: Into<ParseError>,
{
    batch.clear();
    for item in lines.by_ref() {
        match item {
            Ok(l) => batch.push(l),
            Err(e) => return Some(with_line(e.into(), line_no + batch.len() as u64)),
        }
        if batch.len() == batch_lines {
            break;
        }
    }
    None
}

/// Adds the line number to an iterator error that lacks one.
fn with_line(error: ParseError, line: u64) -> ParseError {
    match error {
        ParseError::Input { line: 0, message } => ParseError::Input { line, message },
        error => error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> std::result::Result<String, std::io::Error> {
        Ok(text.to_owned())
    }

    #[test]
    fn batches_are_read_in_order_and_a_read_error_is_numbered() {
        let mut lines = vec![
            line("a"),
            line("b"),
            line("c"),
            Err(std::io::Error::other("bad byte")),
            line("d"),
        ]
        .into_iter();
        let mut batch = vec!["stale".to_owned()];
        assert!(read_batch(&mut lines, &mut batch, 2, 10).is_none());
        assert_eq!(batch, ["a", "b"]);
        // Lines 12 and 13: "c" is read, the error is line 13.
        let err = read_batch(&mut lines, &mut batch, 2, 12).expect("the error");
        assert_eq!(batch, ["c"]);
        assert!(
            matches!(err, ParseError::Input { line: 13, ref message } if message == "bad byte"),
            "{err:?}"
        );
        assert!(read_batch(&mut lines, &mut batch, 2, 14).is_none());
        assert_eq!(batch, ["d"]);
    }

    /// Records what the writer hands it.
    struct Record(Vec<(u64, String)>);

    impl BlockSink for Record {
        fn block(&mut self, line_no: u64, parsed: &ParsedLine) -> Result<()> {
            self.0.push((line_no, parsed.conllu.clone()));
            Ok(())
        }
    }

    fn parsed(conllu: &str, words: usize, udpipe_sentences: usize) -> ParsedLine {
        ParsedLine {
            conllu: conllu.to_owned(),
            words,
            udpipe_sentences,
        }
    }

    #[test]
    fn the_writer_numbers_blocks_and_counts_them() {
        let (tx, rx) = sync_channel(2);
        tx.send((7, vec![parsed("x", 3, 1), parsed("y", 0, 0)]))
            .expect("send");
        tx.send((9, vec![parsed("z", 5, 2)])).expect("send");
        drop(tx);
        let mut sink = Record(Vec::new());
        let stats = write_batches(rx, &mut sink).expect("written");
        let expected = [(7, "x"), (8, "y"), (9, "z")].map(|(i, s)| (i, s.to_owned()));
        assert_eq!(sink.0, expected);
        let counts = ParseStats {
            lines: 3,
            empty_lines: 1,
            words: 8,
            multi_sentence_lines: 1,
        };
        assert_eq!(stats, counts);
    }
}
