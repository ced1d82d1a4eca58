//! `ldd-sets compare`: precision and recall of one run's sets against another's, by
//! line ids — e.g. sets extracted from a UDPipe parse against sets from gold trees.

use std::collections::BTreeSet;
use std::path::Path;

use crate::error::{Error, Result};
use crate::format::manifest::Manifest;
use crate::pipeline::read::select::read_ids_hashed;
use crate::pipeline::read::sets::read_recorded;

/// Agreement of one set.
#[derive(Debug, Clone, PartialEq)]
pub struct SetAgreement {
    /// Phenomenon.
    pub phenomenon: String,
    /// Bucket.
    pub bucket: String,
    /// Lines in the reference (gold) set.
    pub gold: usize,
    /// Lines in the predicted set.
    pub predicted: usize,
    /// Lines in both.
    pub both: usize,
    /// both / predicted (1 when nothing is predicted).
    pub precision: f64,
    /// both / gold (1 when the gold set is empty).
    pub recall: f64,
}

impl SetAgreement {
    /// Harmonic mean of precision and recall.
    pub fn f1(&self) -> f64 {
        if self.precision + self.recall == 0.0 {
            0.0
        } else {
            2.0 * self.precision * self.recall / (self.precision + self.recall)
        }
    }
}

/// Compares set `bucket` of every phenomenon present in both output directories (by their
/// manifests), which must come from the same corpus (same source-side SHA-256).
pub fn compare_sets(gold: &Path, predicted: &Path, bucket: &str) -> Result<Vec<SetAgreement>> {
    let g = Manifest::read_complete(gold)?;
    let p = Manifest::read_complete(predicted)?;
    if g.inputs.source.sha256 != p.inputs.source.sha256 {
        return Err(Error::Data(format!(
            "{} and {} were extracted from different corpora (source SHA-256 {} vs {}); \
             line ids cannot be compared",
            ldd_io::error::shown(gold),
            ldd_io::error::shown(predicted),
            g.inputs.source.sha256,
            p.inputs.source.sha256
        )));
    }
    let mut out = Vec::new();
    for gs in g.sets.iter().filter(|s| s.bucket == bucket) {
        let Some(ps) = p.set(&gs.phenomenon, bucket) else {
            continue;
        };
        // Each ids file read once, its SHA-256 checked against the record as it is read.
        let gi: BTreeSet<u32> = read_recorded(&g, gold, &gs.files.ids, read_ids_hashed)?
            .1
            .into_iter()
            .collect();
        let pi: BTreeSet<u32> = read_recorded(&p, predicted, &ps.files.ids, read_ids_hashed)?
            .1
            .into_iter()
            .collect();
        let both = gi.intersection(&pi).count();
        out.push(SetAgreement {
            phenomenon: gs.phenomenon.clone(),
            bucket: bucket.to_string(),
            gold: gi.len(),
            predicted: pi.len(),
            both,
            precision: if pi.is_empty() {
                1.0
            } else {
                both as f64 / pi.len() as f64
            },
            recall: if gi.is_empty() {
                1.0
            } else {
                both as f64 / gi.len() as f64
            },
        });
    }
    out.sort_by(|a, b| a.phenomenon.cmp(&b.phenomenon));
    if out.is_empty() {
        return Err(Error::Data(format!(
            "no set `{}` common to {} and {}",
            ldd_io::error::quote(bucket, 40),
            ldd_io::error::shown(gold),
            ldd_io::error::shown(predicted)
        )));
    }
    Ok(out)
}
