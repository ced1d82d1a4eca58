//! The shards given to `merge`, read and checked before anything is written: each an
//! output of one shard (not of a whole corpus, not merged already), the N shards of one run
//! each exactly once, all from the same inputs and settings ([`Manifest::run_settings`])
//! and made by this version.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::format::manifest::{Manifest, ShardPart, ShardRecord, Tool, MANIFEST};
use crate::pipeline::read::shard::Shard;

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

/// A shard's output at `dir`, read: its manifest (of one shard, not merged already) and
/// the manifest's checksum.
fn read_part(dir: &Path) -> Result<Part> {
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
    Ok(Part {
        dir: dir.to_path_buf(),
        manifest,
        shard,
        manifest_sha256,
    })
}

/// Checks that `part` is a shard of the run of `first`: the same number of shards, its
/// own lines of the corpus, the same inputs and settings.
fn check_same_run(part: &Part, first: &Part) -> Result<()> {
    let n = first.shard.count;
    let here = format!(
        "{} (shard {}/{})",
        ldd_io::error::shown(&part.dir),
        part.shard.index,
        part.shard.count
    );
    if part.shard.count != n {
        return Err(Error::Config(format!(
            "merge: {here} belongs to a run of {} shards but {} to a run of {n}: shards of \
             different runs",
            part.shard.count,
            ldd_io::error::shown(&first.dir)
        )));
    }
    let want = Shard {
        index: part.shard.index,
        count: n,
    }
    .range(part.shard.corpus_lines);
    if part.shard.lines != want || part.shard.index == 0 {
        return Err(Error::Data(format!(
            "merge: {here}: its lines {}+{} are not shard {}/{n} of {} lines; the manifest \
             was edited or is corrupt",
            part.shard.lines.first,
            part.shard.lines.count,
            part.shard.index,
            part.shard.corpus_lines
        )));
    }
    let (reference, settings) = (first.manifest.run_settings(), part.manifest.run_settings());
    if settings != reference {
        let differ = reference.differences(&settings, 3);
        return Err(Error::Config(format!(
            "merge: {here} is not from the same inputs and settings as {} (shard {}/{n}): \
             their manifests differ at {}",
            ldd_io::error::shown(&first.dir),
            first.shard.index,
            differ
                .iter()
                .map(|d| format!("`{d}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(())
}

/// The shards `1/n` … `n/n` not among `indices`, as `i/n`.
fn missing_shards(indices: &[u32], shard_count: u32) -> Vec<String> {
    (1..=shard_count)
        .filter(|i| !indices.contains(i))
        .map(|i| format!("{i}/{shard_count}"))
        .collect()
}

/// Checks that the parts, sorted by shard, are the `shard_count` shards each once.
fn check_each_once(parts: &[Part], shard_count: u32) -> Result<()> {
    for w in parts.windows(2) {
        if w[0].shard.index == w[1].shard.index {
            return Err(Error::Config(format!(
                "merge: shard {}/{shard_count} is given twice: {} and {}",
                w[0].shard.index,
                ldd_io::error::shown(&w[0].dir),
                ldd_io::error::shown(&w[1].dir)
            )));
        }
    }
    let indices: Vec<u32> = parts.iter().map(|p| p.shard.index).collect();
    let missing = missing_shards(&indices, shard_count);
    if !missing.is_empty() {
        let given: Vec<String> = parts
            .iter()
            .map(|p| {
                format!(
                    "{}/{shard_count} {}",
                    p.shard.index,
                    ldd_io::error::shown(&p.dir)
                )
            })
            .collect();
        return Err(Error::Config(format!(
            "merge: shard{} {} missing (given: {})",
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", "),
            given.join("; ")
        )));
    }
    Ok(())
}

/// Checks that the shards were made by this version of ldd-sets.
fn check_version(first: &Part) -> Result<()> {
    let tool = Tool::default();
    let made_by = &first.manifest.tool;
    if made_by.version != tool.version {
        return Err(Error::Config(format!(
            "merge: the shards were made by ldd-sets {}, this is {}: merge them with the \
             version that made them",
            ldd_io::error::escape(&made_by.version),
            tool.version
        )));
    }
    Ok(())
}

/// Reads the shards' manifests and checks that they are the N shards of one run, each once.
pub fn check(dirs: &[PathBuf]) -> Result<Vec<Part>> {
    let mut parts = dirs
        .iter()
        .map(|dir| read_part(dir))
        .collect::<Result<Vec<Part>>>()?;
    for part in &parts {
        check_same_run(part, &parts[0])?;
    }
    let n = parts[0].shard.count;
    parts.sort_by_key(|p| p.shard.index);
    check_each_once(&parts, n)?;
    check_version(&parts[0])?;
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shard not given is named, in order.
    #[test]
    fn missing_shards_named() {
        assert_eq!(missing_shards(&[2, 4], 4), ["1/4", "3/4"]);
        assert!(missing_shards(&[3, 1, 2], 3).is_empty());
    }
}
