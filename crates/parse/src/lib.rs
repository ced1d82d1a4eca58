//! The UDPipe parse stage of ldd-sets.
//!
//! Parses the source side of a parallel corpus with UDPipe 1 (compiled by `udpipe-rs`, called
//! through a small C++ shim that keeps UDPipe's whole CoNLL-U, multiword tokens included) so that
//! **one corpus line gives exactly one CoNLL-U tree**: block `i` of the output has
//! `# sent_id = i` and belongs to input line `i`. Parsing is streaming and parallel
//! ([`Parser::parse_stream`]) and results are cached, resumably, by corpus and model content
//! ([`ParseCache`]). See README.md for the design decisions.

mod analyses;
mod cache;
mod error;
mod input;
mod model;
mod parser;
mod stream;
mod udpipe;

pub use analyses::{AnalysisCache, ANALYSES_FORMAT};
pub use cache::{
    CacheManifest, CacheOutcome, ChunkRecord, Got, ParseCache, Piece, Waited, WholeCorpus,
    CACHE_FORMAT,
};
pub use error::{ParseError, Result};
pub use input::{read_corpus_lines, CorpusLines};
pub use ldd_io::LineRange;
pub use model::{
    default_models_dir, resolve_model, ModelSource, DEFAULT_MODEL_BASE_URL, MAX_MODEL_BYTES,
    MODELS_ENV,
};
pub use parser::{ParsedLine, Parser};
pub use stream::{ParseOptions, ParseStats};

/// One token's analysis by the model: its tags from the tagger ([`Parser::tags`]), and
/// with the parser its head and relation ([`Parser::analyse`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tag {
    /// LEMMA.
    pub lemma: String,
    /// UPOS.
    pub upos: String,
    /// XPOS (the model's language-specific tag, e.g. STTS `PTKVZ`).
    pub xpos: String,
    /// FEATS as UDPipe writes them (`Case=Acc|Person=3`), empty when there are none.
    pub feats: String,
    /// HEAD: the 1-based position of the token's head in its sentence, 0 for the root (and
    /// for every token when only tagged).
    pub head: u32,
    /// DEPREL (empty when only tagged).
    pub deprel: String,
}

impl Tag {
    /// The values of feature `name` (`Case=Acc,Dat` gives both), none when absent.
    pub fn feature(&self, name: &str) -> Vec<&str> {
        ldd_conllu::feature(&self.feats, name)
    }
}
