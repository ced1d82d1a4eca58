//! Length-matched control samples for every set (stub: filled in by the controls work).

use std::path::Path;

use serde::Serialize;

use crate::error::Result;
use crate::extract::ExtractOptions;
use crate::manifest::SetEntry;

/// How controls are drawn.
#[derive(Debug, Clone, Serialize)]
pub struct ControlOptions {
    /// Control corpora per set (0 disables controls).
    pub count: usize,
    /// PRNG seed.
    pub seed: u64,
    /// Largest length difference (words) between a set sentence and its partner.
    pub tolerance: u32,
    /// Whether set sentences may be drawn as controls of their own set.
    pub allow_set_members: bool,
}

impl Default for ControlOptions {
    fn default() -> Self {
        ControlOptions {
            count: 10,
            seed: 1,
            tolerance: 1,
            allow_set_members: false,
        }
    }
}

/// Controls written for one set (manifest entry).
#[derive(Debug, Clone, Serialize)]
pub struct SetControls {
    /// Phenomenon name.
    pub phenomenon: String,
    /// Bucket name.
    pub bucket: String,
}

/// Draws and writes the controls of every set under `root`.
pub fn write_controls(
    _root: &Path,
    _sets: &[SetEntry],
    _lengths: &[u32],
    _opts: &ExtractOptions,
) -> Result<Vec<SetControls>> {
    Ok(Vec::new())
}
