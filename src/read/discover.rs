//! The corpora of a directory: files named `<name>.<files>.<lang>[.gz]`.

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
