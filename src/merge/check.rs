//! The shards given to `merge`, read and checked before anything is written: each an
//! output of one shard (not of a whole corpus, not merged already), the N shards of one run
//! each exactly once, all from the same inputs and settings ([`Manifest::run_settings`])
//! and made by this version.

use std::path::PathBuf;

use crate::error::{Error, Result};
use crate::format::manifest::{Manifest, ShardPart, ShardRecord, Tool, MANIFEST};
use crate::read::shard::Shard;

/// One shard's output, read and checked.
pub struct Part {
    /// Its directory, as given.
    pub dir: PathBuf,
    /// Its manifest.
    pub manifest: Manifest,
    /// Its shard record.
    pub shard: ShardPart,
    /// SHA-256 of its `manifest.json`.
    pub manifest_sha256: String,
}

/// Reads the shards' manifests and checks that they are the N shards of one run, each once.
pub fn check(dirs: &[PathBuf]) -> Result<Vec<Part>> {
    let mut parts: Vec<Part> = Vec::new();
    for dir in dirs {
        let manifest = Manifest::read(dir)?;
        let shard = match &manifest.shard {
            Some(ShardRecord::Part(p)) => p.clone(),
            Some(ShardRecord::Merged(_)) => {
                return Err(Error::Config(format!(
                    "merge: {} is a merged output already, not the output of one shard",
                    ldd_io::error::shown(dir)
                )))
            }
            None => {
                return Err(Error::Config(format!(
                    "merge: {} is not the output of a shard (it was made without --shard)",
                    ldd_io::error::shown(dir)
                )))
            }
        };
        let (manifest_sha256, _) = ldd_io::sha256_file(&dir.join(MANIFEST))?;
        parts.push(Part {
            dir: dir.clone(),
            manifest,
            shard,
            manifest_sha256,
        });
    }
    let n = parts[0].shard.count;
    let reference = parts[0].manifest.run_settings();
    for p in &parts {
        let here = format!(
            "{} (shard {}/{})",
            ldd_io::error::shown(&p.dir),
            p.shard.index,
            p.shard.count
        );
        if p.shard.count != n {
            return Err(Error::Config(format!(
                "merge: {here} belongs to a run of {} shards but {} to a run of {n}: shards of \
                 different runs",
                p.shard.count,
                ldd_io::error::shown(&parts[0].dir)
            )));
        }
        let want = Shard {
            index: p.shard.index,
            count: n,
        }
        .range(p.shard.corpus_lines);
        if p.shard.lines != want || p.shard.index == 0 {
            return Err(Error::Data(format!(
                "merge: {here}: its lines {}+{} are not shard {}/{n} of {} lines; the manifest \
                 was edited or is corrupt",
                p.shard.lines.first, p.shard.lines.count, p.shard.index, p.shard.corpus_lines
            )));
        }
        let settings = p.manifest.run_settings();
        if settings != reference {
            let differ = reference.differences(&settings, 3);
            return Err(Error::Config(format!(
                "merge: {here} is not from the same inputs and settings as {} (shard {}/{n}): \
                 their manifests differ at {}",
                ldd_io::error::shown(&parts[0].dir),
                parts[0].shard.index,
                differ
                    .iter()
                    .map(|d| format!("`{d}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    }
    parts.sort_by_key(|p| p.shard.index);
    for w in parts.windows(2) {
        if w[0].shard.index == w[1].shard.index {
            return Err(Error::Config(format!(
                "merge: shard {}/{n} is given twice: {} and {}",
                w[0].shard.index,
                ldd_io::error::shown(&w[0].dir),
                ldd_io::error::shown(&w[1].dir)
            )));
        }
    }
    let missing: Vec<String> = (1..=n)
        .filter(|i| !parts.iter().any(|p| p.shard.index == *i))
        .map(|i| format!("{i}/{n}"))
        .collect();
    if !missing.is_empty() {
        let given: Vec<String> = parts
            .iter()
            .map(|p| format!("{}/{n} {}", p.shard.index, ldd_io::error::shown(&p.dir)))
            .collect();
        return Err(Error::Config(format!(
            "merge: shard{} {} missing (given: {})",
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", "),
            given.join("; ")
        )));
    }
    let tool = Tool::default();
    let made_by = &parts[0].manifest.tool;
    if made_by.version != tool.version {
        return Err(Error::Config(format!(
            "merge: the shards were made by ldd-sets {}, this is {}: merge them with the \
             version that made them",
            ldd_io::error::escape(&made_by.version),
            tool.version
        )));
    }
    Ok(parts)
}
