//! Stage 1, **read**: the corpus and everything else ldd-sets reads, through `ldd-io`.
//!
//! What enters: file paths (corpus sides, CoNLL-U, id lists, corpus directories).
//! What leaves: corpus lines read in lockstep with their trees' text ([`lockstep`]) and
//! checked to belong together ([`belongs`]), selected lines by id ([`select`]), the corpora of a
//! directory ([`discover`]), the line range of a shard ([`shard`]), and the
//! [`Languages`] of a corpus. Downloading corpora is [`crate::fetch`]'s.

pub mod belongs;
pub mod discover;
pub mod lockstep;
pub mod select;
pub mod shard;

use ldd_io::name::{check, NameKind};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Language codes of a corpus.
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq, Eq)]
pub struct Languages {
    /// Source language (the parsed side).
    pub source: String,
    /// Target language.
    pub target: String,
}

impl Languages {
    /// Checks both codes (they name set files: letters, digits and hyphens, not a file
    /// extension ldd-sets uses) and that they differ.
    pub fn new(source: &str, target: &str) -> Result<Languages> {
        let l = Languages {
            source: source.to_string(),
            target: target.to_string(),
        };
        l.check()?;
        Ok(l)
    }

    /// See [`Languages::new`].
    pub fn check(&self) -> Result<()> {
        check(NameKind::Language, &self.source, "source language")?;
        check(NameKind::Language, &self.target, "target language")?;
        if self.source.eq_ignore_ascii_case(&self.target) {
            return Err(Error::Config(format!(
                "source and target language are both `{}`: set file names would collide",
                self.source
            )));
        }
        Ok(())
    }
}
