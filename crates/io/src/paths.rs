//! Path helpers shared by the writers: parents, sibling temporary names, resolution.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Marker in the names of temporary files and directories: `.<name>.ldd-tmp-<pid>-<n>`.
pub const TMP_MARK: &str = ".ldd-tmp-";

/// The file in a staging directory that marks it as made by ldd-sets (removed when the
/// directory is moved into place).
pub const STAGING_MARKER: &str = ".ldd-staging";

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// The directory holding `path` (`.` for a bare file name).
pub fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The file name of `path` as text (for building sibling names).
pub(crate) fn base_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into())
}

/// A fresh hidden sibling name of `target` for temporary use: `.<name>.ldd-tmp-<pid>-<n>`.
pub(crate) fn tmp_sibling(target: &Path) -> PathBuf {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    parent_dir(target).join(format!(
        ".{}{TMP_MARK}{}-{n}",
        base_name(target),
        std::process::id()
    ))
}

/// `path` made absolute with every existing part resolved (symbolic links, `..`); the
/// parts that do not exist yet are appended as given.
pub fn resolved(path: &Path) -> PathBuf {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .unwrap_or_else(|_| PathBuf::from("/"))
            .join(path)
    };
    let mut rest = Vec::new();
    let mut cur = abs.as_path();
    loop {
        if let Ok(c) = fs::canonicalize(cur) {
            let mut out = c;
            for part in rest.iter().rev() {
                out.push(part);
            }
            return out;
        }
        match (cur.parent(), cur.file_name()) {
            (Some(p), Some(name)) => {
                rest.push(name.to_os_string());
                cur = p;
            }
            _ => return abs,
        }
    }
}
