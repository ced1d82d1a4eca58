//! All-or-nothing output directories.
//!
//! Outputs are written into a hidden temporary directory beside the target and
//! renamed into place only when complete. A failed run leaves nothing at the
//! target; a repeated run replaces the previous output of ldd-sets as a whole, so
//! sets are never partial or duplicated. A non-empty directory that is not an
//! ldd-sets output is never overwritten.

use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The file whose presence marks a directory as an ldd-sets output.
pub const MANIFEST: &str = "manifest.json";

/// A temporary directory that becomes the output directory on [`Staging::commit`].
#[derive(Debug)]
pub struct Staging {
    tmp: tempfile::TempDir,
    target: PathBuf,
}

impl Staging {
    /// Checks that `target` may be (re)written and creates the staging directory
    /// beside it. Fails early, before any work is done.
    pub fn new(target: &Path) -> Result<Staging> {
        check_replaceable(target)?;
        let parent = parent_dir(target);
        fs::create_dir_all(&parent).map_err(|e| Error::io(&parent, e))?;
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".into());
        let tmp = tempfile::Builder::new()
            .prefix(&format!(".{name}.tmp-"))
            .tempdir_in(&parent)
            .map_err(|e| Error::io(&parent, e))?;
        Ok(Staging {
            tmp,
            target: target.to_path_buf(),
        })
    }

    /// Where to write the outputs until they are committed.
    pub fn path(&self) -> &Path {
        self.tmp.path()
    }

    /// The final location.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Moves the staged outputs into place, replacing a previous output.
    pub fn commit(self) -> Result<()> {
        let target = &self.target;
        check_replaceable(target)?;
        let staged = self.tmp.keep();
        if target.exists() {
            // Move the old output aside first, so the target never holds a mix.
            let old = staged.with_extension("old");
            fs::rename(target, &old).map_err(|e| Error::io(target, e))?;
            if let Err(e) = fs::rename(&staged, target) {
                let _ = fs::rename(&old, target);
                let _ = fs::remove_dir_all(&staged);
                return Err(Error::io(target, e));
            }
            fs::remove_dir_all(&old).map_err(|e| Error::io(&old, e))?;
        } else {
            fs::rename(&staged, target).map_err(|e| {
                let _ = fs::remove_dir_all(&staged);
                Error::io(target, e)
            })?;
        }
        Ok(())
    }
}

/// The directory holding `path` (`.` for a bare file name).
pub fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes the file `path` all-or-nothing: `fill` writes into a temporary file in the
/// same directory, which is renamed to `path` only if `fill` succeeds.
pub fn write_file_atomic(
    path: &Path,
    fill: impl FnOnce(&mut fs::File) -> Result<()>,
) -> Result<()> {
    let dir = parent_dir(path);
    let mut tmp = tempfile::NamedTempFile::new_in(&dir).map_err(|e| Error::io(&dir, e))?;
    fill(tmp.as_file_mut())?;
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(())
}

/// `target` may be written if it does not exist, is an empty directory, or holds a
/// previous ldd-sets output (it has a manifest).
fn check_replaceable(target: &Path) -> Result<()> {
    if !target.exists() {
        return Ok(());
    }
    if !target.is_dir() {
        return Err(Error::Config(format!(
            "{}: exists and is not a directory",
            target.display()
        )));
    }
    let mut entries = fs::read_dir(target).map_err(|e| Error::io(target, e))?;
    if entries.next().is_none() || target.join(MANIFEST).is_file() {
        return Ok(());
    }
    Err(Error::Config(format!(
        "{}: directory is not empty and is not an ldd-sets output (no {MANIFEST}); \
         refusing to overwrite it — choose another --out or remove it",
        target.display()
    )))
}
