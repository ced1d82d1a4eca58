//! The corpora of a directory: files named `<name>.<files>.<lang>[.gz]`; and the corpora a
//! `run` works on ([`corpus_jobs`]).

use std::path::{Path, PathBuf};

use crate::config::Pair;
use crate::error::{Error, Result};

/// A corpus found on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalCorpus {
    /// Corpus name (`newstest2013`).
    pub name: String,
    /// Source-side file.
    pub source: PathBuf,
    /// Target-side file.
    pub target: PathBuf,
}

/// Corpora in `dir` named `<name>.<files>.<source>[.gz]` with a matching target file,
/// sorted by name. Errors if there are none.
pub fn discover(pair: &Pair, dir: &Path) -> Result<Vec<LocalCorpus>> {
    let entries = ldd_io::fs::list_dir(dir)?;
    let mut found = Vec::new();
    for e in entries {
        let Some(name) = crate::layout::corpus_name(&e.name, &pair.files, &pair.source) else {
            continue;
        };
        let candidates = crate::layout::side_candidates(
            &crate::layout::corpus_stem(name, &pair.files),
            &pair.target,
        );
        let tgt_name = &candidates[1];
        let target = candidates
            .iter()
            .map(|f| dir.join(f))
            .find(|p| p.is_file())
            .ok_or_else(|| {
                Error::Data(format!(
                    "{}: found the source side but no target side {}[.gz]",
                    ldd_io::error::shown(&e.path),
                    ldd_io::error::shown(&dir.join(tgt_name))
                ))
            })?;
        found.push(LocalCorpus {
            name: name.to_string(),
            source: e.path,
            target,
        });
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    found.dedup_by(|a, b| a.name == b.name);
    if found.is_empty() {
        return Err(Error::Resource(format!(
            "{}: no corpora for {src}-{tgt} (expected files named <name>.{files}.{src}[.gz] with a \
             matching <name>.{files}.{tgt}[.gz]; `make corpora LANG={src}-{tgt}` downloads the paper's)",
            ldd_io::error::shown(dir),
            src = pair.source,
            tgt = pair.target,
            files = pair.files,
        )));
    }
    Ok(found)
}

/// One corpus of a `run`: its files, where its sets go, and what else its run reads.
#[derive(Debug, Clone)]
pub struct CorpusJob {
    /// The corpus.
    pub corpus: LocalCorpus,
    /// Its output directory.
    pub out: PathBuf,
    /// The aligner's training data (unless a model is loaded): every corpus of the pair,
    /// this one too, as `PREFIX`es; the same for every corpus of a run.
    pub align_train: Vec<PathBuf>,
    /// Files the run depends on besides the corpus (the corpora directory): never inside
    /// an output.
    pub protect: Vec<PathBuf>,
}

/// The corpora of `pair` in `dir` (only those `only` names, if given), each with its
/// output directory `out/<name>` and, as the aligner's training data, all the pair's
/// corpora: a small test set alone aligns poorly (the paper used a large training corpus).
pub fn corpus_jobs(
    pair: &Pair,
    dir: &Path,
    only: Option<&[String]>,
    out: &Path,
) -> Result<Vec<CorpusJob>> {
    let all = discover(pair, dir)?;
    if let Some(only) = only {
        if let Some(name) = only.iter().find(|n| !all.iter().any(|c| &c.name == *n)) {
            let found: Vec<&str> = all.iter().map(|c| c.name.as_str()).collect();
            return Err(Error::Config(format!(
                "--only: no corpus `{}` in {} (found: {})",
                ldd_io::error::escape(name),
                ldd_io::error::shown(dir),
                found.join(", ")
            )));
        }
    }
    let wanted = |c: &&LocalCorpus| only.is_none_or(|o| o.contains(&c.name));
    Ok(all
        .iter()
        .filter(wanted)
        .map(|c| CorpusJob {
            corpus: c.clone(),
            out: out.join(&c.name),
            align_train: all
                .iter()
                .map(|o| dir.join(crate::layout::corpus_stem(&o.name, &pair.files)))
                .collect(),
            protect: vec![dir.to_path_buf()],
        })
        .collect())
}
