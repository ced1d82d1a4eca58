//! `ldd-sets compare`: precision and recall of one run's sets against another's, by
//! line ids — e.g. sets extracted from a UDPipe parse against sets from gold trees.

use std::collections::BTreeSet;
use std::path::Path;

use serde::Serialize;

use crate::corpus::read_lines;
use crate::error::{Error, Result};

/// Agreement of one set.
#[derive(Debug, Clone, Serialize, PartialEq)]
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

fn ids(dir: &Path, phenomenon: &str, bucket: &str) -> Result<BTreeSet<u64>> {
    let p = dir.join(phenomenon).join(format!("{bucket}.ids"));
    read_lines(&p)?
        .iter()
        .enumerate()
        .map(|(i, l)| {
            l.parse()
                .map_err(|_| Error::input(&p, i as u64 + 1, format!("`{l}` is not a line id")))
        })
        .collect()
}

/// Compares set `bucket` of every phenomenon present in both output directories.
pub fn compare(gold: &Path, predicted: &Path, bucket: &str) -> Result<Vec<SetAgreement>> {
    let mut out = Vec::new();
    let mut names: Vec<String> = std::fs::read_dir(gold)
        .map_err(|e| Error::io(gold, e))?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join(format!("{bucket}.ids")).is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        if !predicted
            .join(&name)
            .join(format!("{bucket}.ids"))
            .is_file()
        {
            continue;
        }
        let g = ids(gold, &name, bucket)?;
        let p = ids(predicted, &name, bucket)?;
        let both = g.intersection(&p).count();
        out.push(SetAgreement {
            phenomenon: name,
            bucket: bucket.to_string(),
            gold: g.len(),
            predicted: p.len(),
            both,
            precision: if p.is_empty() {
                1.0
            } else {
                both as f64 / p.len() as f64
            },
            recall: if g.is_empty() {
                1.0
            } else {
                both as f64 / g.len() as f64
            },
        });
    }
    if out.is_empty() {
        return Err(Error::Data(format!(
            "no set `{bucket}` common to {} and {}",
            gold.display(),
            predicted.display()
        )));
    }
    Ok(out)
}
