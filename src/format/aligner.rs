//! The aligner cache's record of one entry, `<key>.json` beside the model it describes
//! (`crate::pipeline::align::cache`): written last, after the model, so that an entry
//! whose record reads, names its key and matches its model's checksums is whole.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Version of the record; part of every key, so that a change of the record or of what
/// a key covers never reads an old entry.
pub const CACHE_FORMAT: &str = "ldd-sets-aligner-cache-1";

/// One cached aligner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CacheEntry {
    /// [`CACHE_FORMAT`] when written.
    pub format: String,
    /// The entry's key (the file stem).
    pub key: String,
    /// The model type (`hmm`, `fast-align`).
    pub model_type: String,
    /// The source and target languages.
    pub languages: (String, String),
    /// Sentence pairs it was trained on.
    pub trained_pairs: u64,
    /// SHA-256 of each file of the model, by file name.
    pub files: BTreeMap<String, String>,
    /// The files it was trained on, as given then (informational only: the key holds
    /// their checksums).
    pub training: Vec<PathBuf>,
}
