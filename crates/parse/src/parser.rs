//! Loading a UDPipe model and parsing one corpus line into one CoNLL-U tree.

use std::path::{Path, PathBuf};

use crate::error::{ParseError, Result};
use ldd_conllu::{field, sanitize, write_merged, Sentence, Word};

/// A `udpipe_rs::Model` that may be shared between threads.
///
/// SAFETY (see README.md, "Is a UDPipe model thread-safe?"): `udpipe_rs::Model::parse` takes
/// `&self` and calls the C function `udpipe_parse`, which only calls the `const` methods
/// `model::new_tokenizer` (a fresh tokenizer per call), `model::tag` and `model::parse` of the
/// loaded `model_morphodita_parsito`. Their scratch buffers are taken from and returned to
/// `threadsafe_stack` pools (spin-lock protected), the model weights are never written after
/// loading, and the wrapper's error string is `thread_local`. UDPipe's own REST server shares
/// one loaded model between its worker threads. The audit is for udpipe-rs 0.2.0, which is
/// pinned in Cargo.toml.
struct SharedModel(udpipe_rs::Model);

// SAFETY: see the comment on `SharedModel`: all methods reachable through `&SharedModel` are
// thread-safe in the vendored UDPipe 1 C++ code.
unsafe impl Sync for SharedModel {}

/// A loaded UDPipe model; cheap to share by reference between threads (`Parser: Sync`).
pub struct Parser {
    model: SharedModel,
    path: PathBuf,
}

impl std::fmt::Debug for Parser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Parser").field("path", &self.path).finish()
    }
}

/// The CoNLL-U block produced for one input line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParsedLine {
    /// The complete block: `# sent_id`, `# text`, word lines, terminating blank line.
    pub conllu: String,
    /// Number of syntactic words in the tree.
    pub words: usize,
    /// Number of sentences UDPipe's tokenizer split the line into before merging (0 if empty).
    pub udpipe_sentences: usize,
}

impl Parser {
    /// Loads a UDPipe 1 model file (`*.udpipe`).
    pub fn load(model_path: impl AsRef<Path>) -> Result<Self> {
        let path = model_path.as_ref();
        let meta = std::fs::metadata(path).map_err(|e| ParseError::ModelLoad {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        if !meta.is_file() {
            return Err(ParseError::ModelLoad {
                path: path.to_owned(),
                message: "not a regular file".into(),
            });
        }
        check_model_header(path)?;
        let model = udpipe_rs::Model::load(path).map_err(|e| ParseError::ModelLoad {
            path: path.to_owned(),
            message: format!("{} (not a UDPipe 1 model?)", e.message),
        })?;
        Ok(Self {
            model: SharedModel(model),
            path: path.to_owned(),
        })
    }

    /// The path the model was loaded from.
    pub fn model_path(&self) -> &Path {
        &self.path
    }

    /// Runs plain UDPipe (tokenize, tag, parse) on `text`, without merging or formatting.
    ///
    /// Control characters are replaced by spaces first. Returns UDPipe's words; `sentence_id`
    /// tells which tokenizer sentence each word belongs to.
    pub fn udpipe(&self, text: &str) -> Result<Vec<udpipe_rs::Word>, String> {
        let clean = sanitize(text);
        self.model.0.parse(&clean).map_err(|e| e.message)
    }

    /// Parses one corpus line into exactly one tree and formats it as a CoNLL-U block.
    ///
    /// `sent_id` is written as `# sent_id`, the trimmed line as `# text`. UDPipe sentences are
    /// merged (see [`ldd_conllu::write_merged`]); an empty or whitespace-only line gives the
    /// comment lines only. A trailing `\r` must already be stripped (the corpus reader does).
    pub fn parse_line(&self, sent_id: u64, line: &str) -> Result<ParsedLine> {
        let mut out = ParsedLine::default();
        let text = sanitize(line);
        if text.trim().is_empty() {
            write_merged(&mut out.conllu, sent_id, "", &[]);
            return Ok(out);
        }
        let words = self.model.0.parse(&text).map_err(|e| ParseError::Udpipe {
            line: sent_id,
            message: e.message,
        })?;
        // Field values as they will be written (sanitized, `_` when empty), then one
        // borrowed sentence per tokenizer sentence.
        let mut rows = Vec::with_capacity(words.len());
        for w in &words {
            let (Ok(id), Ok(head)) = (u32::try_from(w.id), u32::try_from(w.head)) else {
                return Err(ParseError::Udpipe {
                    line: sent_id,
                    message: format!("word {:?} has id {} / head {}", w.form, w.id, w.head),
                });
            };
            let f = |v: &str| field(v).into_owned();
            rows.push((
                w.sentence_id,
                id,
                head,
                [
                    f(&w.form),
                    f(&w.lemma),
                    f(&w.upostag),
                    f(&w.xpostag),
                    f(&w.feats),
                    f(&w.deprel),
                    f(&w.misc),
                ],
            ));
        }
        let mut sentences: Vec<Sentence<'_>> = Vec::new();
        let mut current = None;
        for (sid, id, head, v) in &rows {
            if current != Some(*sid) {
                current = Some(*sid);
                sentences.push(Sentence::default());
            }
            if let Some(s) = sentences.last_mut() {
                if *id as usize != s.words.len() + 1 {
                    return Err(ParseError::Udpipe {
                        line: sent_id,
                        message: format!("word {:?} has id {id} out of sequence", v[0]),
                    });
                }
                s.words.push(Word {
                    form: &v[0],
                    lemma: &v[1],
                    upos: &v[2],
                    xpos: &v[3],
                    feats: &v[4],
                    head: Some(*head),
                    deprel: &v[5],
                    deps: "_",
                    misc: &v[6],
                });
            }
        }
        out.udpipe_sentences = sentences.len();
        out.words = sentences.iter().map(Sentence::len).sum();
        write_merged(&mut out.conllu, sent_id, &text, &sentences);
        Ok(out)
    }
}

/// Checks the UDPipe 1 model header (`\x12morphodita_parsito`, version 1..=3, sentinel) before
/// the file reaches the C++ loader, which aborts the process (an uncatchable C++ exception) on
/// some non-model files: it reads the name length as a signed `char`.
fn check_model_header(path: &Path) -> Result<()> {
    use std::io::Read;
    const NAME: &[u8] = b"morphodita_parsito";
    let mut head = Vec::with_capacity(22);
    std::fs::File::open(path)
        .and_then(|f| f.take(22).read_to_end(&mut head))
        .map_err(|e| ParseError::ModelLoad {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
    let ok = head.len() >= 20
        && usize::from(head[0]) == NAME.len()
        && &head[1..19] == NAME
        && (1..=3).contains(&head[19])
        && (head[19] < 2 || head.get(20..22) == Some(&[0x7f, 0x7f][..]));
    if ok {
        Ok(())
    } else {
        Err(ParseError::ModelLoad {
            path: path.to_owned(),
            message: "not a UDPipe 1 model (expected a morphodita_parsito header)".into(),
        })
    }
}
