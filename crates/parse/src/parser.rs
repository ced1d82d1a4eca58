//! Loading a UDPipe model and parsing one corpus line into one CoNLL-U tree.

use std::path::{Path, PathBuf};

use crate::error::{ParseError, Result};
use crate::udpipe::Model;
use ldd_conllu::{parse_block, sanitize, write_merged, Block, Sentence};

/// A loaded UDPipe model; cheap to share by reference between threads (`Parser: Sync`, see
/// README.md, "Is a UDPipe model safe to share across threads?").
pub struct Parser {
    model: Model,
    path: PathBuf,
}

impl std::fmt::Debug for Parser {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Parser")
            .field("path", &self.path)
            .finish()
    }
}

/// The CoNLL-U block produced for one input line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParsedLine {
    /// The complete block: `# sent_id`, `# text`, multiword-token and word lines,
    /// terminating blank line.
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
        let model = Model::load(path).map_err(|message| ParseError::ModelLoad {
            path: path.to_owned(),
            message: format!("{message} (not a UDPipe 1 model?)"),
        })?;
        Ok(Self {
            model,
            path: path.to_owned(),
        })
    }

    /// The path the model was loaded from.
    pub fn model_path(&self) -> &Path {
        &self.path
    }

    /// Runs plain UDPipe (tokenize, tag, parse) on `text` and returns its own CoNLL-U output,
    /// one block per tokenizer sentence, unmerged. Control characters are replaced by spaces
    /// first.
    pub fn udpipe_conllu(&self, text: &str) -> Result<String, String> {
        Ok(self.model.parse(&sanitize(text))?.text)
    }

    /// The tags of `tokens`, one tokenized sentence, as the model's tagger gives them (no
    /// tokenizer, no parser). Tabs, line breaks and other control characters in a token are
    /// replaced by spaces first.
    pub fn tags(&self, tokens: &[&str]) -> Result<Vec<crate::Tag>, String> {
        let clean: Vec<String> = tokens.iter().map(|t| sanitize(t).into_owned()).collect();
        let refs: Vec<&str> = clean.iter().map(String::as_str).collect();
        self.model.tag(&refs, false)
    }

    /// The analyses of `tokens`, one tokenized sentence: tagged and parsed by the model
    /// (no tokenizer), each with its head and relation. Tabs, line breaks and other control
    /// characters in a token are replaced by spaces first.
    pub fn analyse(&self, tokens: &[&str]) -> Result<Vec<crate::Tag>, String> {
        let clean: Vec<String> = tokens.iter().map(|t| sanitize(t).into_owned()).collect();
        let refs: Vec<&str> = clean.iter().map(String::as_str).collect();
        self.model.tag(&refs, true)
    }

    /// The lemmas of `tokens` ([`Parser::tags`]' lemmas).
    pub fn lemmas(&self, tokens: &[&str]) -> Result<Vec<String>, String> {
        Ok(self.tags(tokens)?.into_iter().map(|t| t.lemma).collect())
    }

    /// Parses one corpus line into exactly one tree and formats it as a CoNLL-U block.
    ///
    /// `sent_id` is written as `# sent_id`, the trimmed line as `# text`. UDPipe sentences are
    /// merged (see [`ldd_conllu::write_merged`]); multiword tokens are kept; an empty or
    /// whitespace-only line gives the comment lines only. A trailing `\r` must already be
    /// stripped (the corpus reader does).
    pub fn parse_line(&self, sent_id: u64, line: &str) -> Result<ParsedLine> {
        let mut out = ParsedLine::default();
        let text = sanitize(line);
        if text.trim().is_empty() {
            write_merged(&mut out.conllu, sent_id, "", &[]);
            return Ok(out);
        }
        let udpipe_error = |message: String| ParseError::Udpipe {
            line: sent_id,
            message,
        };
        let parsed = self.model.parse(&text).map_err(udpipe_error)?;
        // UDPipe's own CoNLL-U, one block per tokenizer sentence, read back by the one
        // CoNLL-U reader (which also checks that each block is a tree).
        let blocks: Vec<Block> = parsed
            .text
            .split("\n\n")
            .filter(|b| !b.trim().is_empty())
            .map(|b| Block {
                text: format!("{}\n", b.trim_start_matches('\n')),
                first_line: 1,
            })
            .collect();
        let udpipe_output = Path::new("<UDPipe output>");
        let sentences = blocks
            .iter()
            .map(|b| parse_block(b, udpipe_output))
            .collect::<std::result::Result<Vec<Sentence<'_>>, _>>()
            .map_err(|e| udpipe_error(e.to_string()))?;
        if sentences.len() != parsed.sentences {
            return Err(udpipe_error(format!(
                "UDPipe reported {} sentences but wrote {}",
                parsed.sentences,
                sentences.len()
            )));
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
