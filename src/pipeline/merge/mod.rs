//! Stage **merge**: the outputs of the N shards of a sharded run (`extract --shard I/N`
//! or `run --shard I/N`) joined into the output an unsharded run gives.
//!
//! What enters: the shards' output directories (each a written output with a shard record:
//! [`crate::format::manifest::ShardPart`]) and the parse cache. What leaves: one merged
//! output per corpus, written like `extract`'s (staged, then moved into place), and its
//! [`Manifest`].
//!
//! First everything is checked, before anything is written ([`check`]): every directory is
//! the output of a shard, the N shards are all there exactly once, and they come from the
//! same inputs and settings (their [`Manifest::run_settings`] are equal: the manifests agree
//! on everything but the shard's own counts, paths and command line). Then ([`join`]) the
//! sets are concatenated in corpus order (their ids are corpus line numbers already), the
//! shards' sentence lengths are joined, the length-matched controls are drawn over the
//! whole corpus exactly as an unsharded run draws them
//! ([`crate::pipeline::write::controls::draw_controls`]), and, when the shards parsed their lines
//! themselves, the whole corpus's parse is assembled in the parse cache from theirs
//! (`ldd_parse::ParseCache::assemble`). The result is byte-identical to an unsharded run
//! with the same inputs and seed, except for the manifest's `shard` record, which says what
//! was merged.
//!
//! A directory of `run --shard` outputs (one subdirectory per corpus) is merged corpus by
//! corpus into `OUT/<corpus>/`.
//!
//! In short (what enters → what leaves): the output directories of a sharded run's shards →
//! checked before anything is written (`check`: each a shard's output, all N once, equal
//! `Manifest::run_settings`, the one that differs named with the manifest path of the
//! setting) → joined (`join`: sets and reordering files concatenated in corpus order,
//! counts summed, the whole corpus's parse assembled, controls drawn over the whole corpus
//! by `write::controls`) → the output an unsharded run gives, but for the manifest's shard
//! record

pub mod check;
pub mod join;

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::format::manifest::{Manifest, MANIFEST};

/// What `merge` joins and where.
#[derive(Debug, Clone)]
pub struct MergeOptions {
    /// The shards' output directories, in any order.
    pub shards: Vec<PathBuf>,
    /// The merged output directory (a `run`'s: one subdirectory per corpus).
    pub out: PathBuf,
    /// Parse cache in which the whole corpus's parse is assembled, when the shards parsed
    /// their lines [default: the directory the shards' parses were cached in].
    pub cache: Option<PathBuf>,
}

/// One merged corpus.
#[derive(Debug)]
pub struct Merged {
    /// The corpus name (outputs of `run`), or `None`.
    pub name: Option<String>,
    /// Where it was written.
    pub out: PathBuf,
    /// The merged manifest.
    pub manifest: Manifest,
}

/// Merges the shards (see the module docs). Nothing is written unless every check passes.
pub fn merge_shards(opts: &MergeOptions) -> Result<Vec<Merged>> {
    if opts.shards.is_empty() {
        return Err(Error::Config("merge: no shard directories given".into()));
    }
    let has_manifest: Vec<bool> = opts
        .shards
        .iter()
        .map(|d| d.join(MANIFEST).is_file())
        .collect();
    let jobs: Vec<(Option<String>, Vec<PathBuf>, PathBuf)> = if has_manifest.iter().all(|&m| m) {
        vec![(None, opts.shards.clone(), opts.out.clone())]
    } else if has_manifest.iter().all(|&m| !m) {
        corpora_of_runs(&opts.shards)?
            .into_iter()
            .map(|name| {
                let dirs = opts.shards.iter().map(|d| d.join(&name)).collect();
                let out = opts.out.join(&name);
                (Some(name), dirs, out)
            })
            .collect()
    } else {
        let (with, without): (Vec<_>, Vec<_>) =
            opts.shards.iter().zip(&has_manifest).partition(|(_, &m)| m);
        return Err(Error::Config(format!(
            "merge: {} holds one corpus's sets ({MANIFEST}) but {} does not: give the shard \
             outputs of `extract --shard` or of `run --shard`, not both",
            ldd_io::error::shown(with[0].0),
            ldd_io::error::shown(without[0].0)
        )));
    };
    // Check every corpus before writing any.
    let mut plans = Vec::new();
    for (name, dirs, out) in jobs {
        plans.push((name, check::check(&dirs)?, out));
    }
    let mut merged = Vec::new();
    for (name, parts, out) in plans {
        let manifest = join::write(&parts, &out, opts.cache.as_deref())?;
        merged.push(Merged {
            name,
            out,
            manifest,
        });
    }
    Ok(merged)
}

/// The corpus subdirectories of `run --shard` outputs: the same in every one.
fn corpora_of_runs(dirs: &[PathBuf]) -> Result<Vec<String>> {
    let names = |d: &Path| -> Result<Vec<String>> {
        Ok(ldd_io::fs::list_dir(d)?
            .into_iter()
            .filter(|e| !e.name.starts_with('.') && e.path.join(MANIFEST).is_file())
            .map(|e| e.name)
            .collect())
    };
    let first = names(&dirs[0])?;
    if first.is_empty() {
        return Err(Error::Config(format!(
            "merge: {} is not the output of a shard: it has no {MANIFEST}, and no corpus \
             subdirectory with one",
            ldd_io::error::shown(&dirs[0])
        )));
    }
    for d in &dirs[1..] {
        let these = names(d)?;
        if these != first {
            let missing: Vec<&str> = first
                .iter()
                .filter(|n| !these.contains(n))
                .map(String::as_str)
                .collect();
            let extra: Vec<&str> = these
                .iter()
                .filter(|n| !first.contains(n))
                .map(String::as_str)
                .collect();
            return Err(Error::Config(format!(
                "merge: {} and {} hold different corpora (missing in the second: {}; only in \
                 the second: {})",
                ldd_io::error::shown(&dirs[0]),
                ldd_io::error::shown(d),
                if missing.is_empty() {
                    "none".into()
                } else {
                    missing.join(", ")
                },
                if extra.is_empty() {
                    "none".into()
                } else {
                    extra.join(", ")
                },
            )));
        }
    }
    Ok(first)
}
