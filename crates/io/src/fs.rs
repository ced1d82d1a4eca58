//! The file system for the few things beyond [`Input`](crate::Input) and the all-or-nothing
//! outputs: directories, listings, raw copies and renames. The library in `src/` touches
//! the file system only through this crate (asserted in `tests/architecture.rs`); every
//! call here names its path in its error.

use std::fs::OpenOptions;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// An open file (as [`open_raw`] and [`create_new`] return it).
pub use std::fs::File;

/// What a directory entry or path is, without following a symbolic link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link (not followed).
    Symlink,
    /// Anything else (fifo, socket, device).
    Other,
}

impl Kind {
    fn of(file_type: std::fs::FileType) -> Kind {
        if file_type.is_symlink() {
            Kind::Symlink
        } else if file_type.is_file() {
            Kind::File
        } else if file_type.is_dir() {
            Kind::Dir
        } else {
            Kind::Other
        }
    }
}

/// One entry of a directory listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The file name, lossily converted to UTF-8.
    pub name: String,
    /// The full path (the directory joined with the name).
    pub path: PathBuf,
    /// What it is, not following a link.
    pub kind: Kind,
}

/// What `path` is, not following a final symbolic link; `None` if nothing is there (or it
/// cannot be examined).
pub fn kind(path: &Path) -> Option<Kind> {
    std::fs::symlink_metadata(path)
        .ok()
        .map(|m| Kind::of(m.file_type()))
}

/// The entries of `dir`, sorted by name.
pub fn list_dir(dir: &Path) -> Result<Vec<Entry>> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        let e = e.map_err(|e| Error::io(dir, e))?;
        let path = e.path();
        let kind = Kind::of(e.file_type().map_err(|err| Error::io(&path, err))?);
        v.push(Entry {
            name: e.file_name().to_string_lossy().into_owned(),
            path,
            kind,
        });
    }
    v.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(v)
}

/// Creates `dir` and its missing parents; never once a stop has begun (it waits for the
/// process to end instead: see [`crate::cleanup`]), so a stop's removals stay removed.
pub fn create_dir_all(dir: &Path) -> Result<()> {
    crate::cleanup::unless_stopping(|| std::fs::create_dir_all(dir)).map_err(|e| Error::io(dir, e))
}

/// Creates `dir` and its missing parents for files about to be written into it, and
/// registers the first directory it creates for removal should the process be stopped
/// ([`crate::cleanup`]), so an interrupted command leaves no empty directory behind. Drop
/// the registration when the files are in place, in the same
/// [`uninterrupted`](crate::cleanup::uninterrupted) step as their move. `None`: `dir`
/// existed.
pub fn create_output_dir(dir: &Path) -> Result<Option<crate::cleanup::Registration>> {
    if dir.is_dir() {
        return Ok(None);
    }
    let mut top = dir.to_path_buf();
    while let Some(p) = top.parent() {
        if p.as_os_str().is_empty() || p.exists() {
            break;
        }
        top = p.to_path_buf();
    }
    // The whole chain is made under the registry's lock: a stop, which keeps that lock
    // while it removes `top` and until the process ends, cannot fall between making `top`
    // and making `dir` below it (an unlocked mkdir could re-create `top` after its removal).
    let reg = crate::cleanup::create_registered(&top, true, |t| {
        std::fs::create_dir(t)?;
        std::fs::create_dir_all(dir).inspect_err(|_| {
            let _ = std::fs::remove_dir_all(t);
        })
    })
    .map_err(|e| Error::io(&top, e))?;
    Ok(Some(reg))
}

/// Creates the parent directory of `path` and its missing parents.
pub fn create_parent(path: &Path) -> Result<()> {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => create_dir_all(d),
        _ => Ok(()),
    }
}

/// Opens `path` for reading raw bytes (no decompression, no checks: for copying a file
/// as it is; text is read through [`Input`](crate::Input)).
pub fn open_raw(path: &Path) -> Result<File> {
    File::open(path).map_err(|e| Error::io(path, e))
}

/// Creates `path`, which must not exist yet: a file of an output being staged.
pub fn create_new(path: &Path) -> Result<File> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| Error::io(path, e))
}

/// Creates or truncates `path`: a file of an output being staged, which only ldd-sets
/// writes.
pub fn create(path: &Path) -> Result<File> {
    File::create(path).map_err(|e| Error::io(path, e))
}

/// Writes `bytes` as the whole of `path` (created or truncated): a file of an output being
/// staged.
pub fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|e| Error::io(path, e))
}

/// Appends `bytes` to the existing file `path`.
pub fn append(path: &Path, bytes: &[u8]) -> Result<()> {
    OpenOptions::new()
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(bytes))
        .map_err(|e| Error::io(path, e))
}

/// Copies the file `from` to the new file `to` (inside an output being staged): a file of
/// its own, never a link (the system's `copy_file_range`, which shares the blocks — a
/// reflink — where the file system can).
pub fn copy_new(from: &Path, to: &Path) -> Result<()> {
    let mut r = open_raw(from)?;
    let mut w = create_new(to)?;
    std::io::copy(&mut r, &mut w).map_err(|e| Error::io(to, e))?;
    w.sync_all().map_err(|e| Error::io(to, e))
}

/// Makes the new file `to` a hard link of `from` (inside an output being staged), or a
/// copy where a link cannot be made (another file system, no permission). Only for a
/// `from` that is never changed in place (ldd-sets replaces files by renaming), so that
/// the link is as good as a copy.
pub fn link_or_copy_new(from: &Path, to: &Path) -> Result<()> {
    match std::fs::hard_link(from, to) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(Error::io(to, e)),
        Err(_) => copy_new(from, to),
    }
}

/// Moves `from` to `to` (same file system), replacing a file at `to`.
pub fn rename(from: &Path, to: &Path) -> Result<()> {
    std::fs::rename(from, to).map_err(|e| Error::io(to, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listing_is_sorted_and_does_not_follow_links() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("b"), "x").unwrap();
        std::fs::create_dir(d.path().join("a")).unwrap();
        std::os::unix::fs::symlink("b", d.path().join("c")).unwrap();
        let v = list_dir(d.path()).unwrap();
        let got: Vec<(&str, Kind)> = v.iter().map(|e| (e.name.as_str(), e.kind)).collect();
        assert_eq!(
            got,
            [("a", Kind::Dir), ("b", Kind::File), ("c", Kind::Symlink)]
        );
        assert_eq!(kind(&d.path().join("c")), Some(Kind::Symlink));
        assert_eq!(kind(&d.path().join("none")), None);
    }

    #[test]
    fn create_new_refuses_an_existing_file_and_names_it() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("f");
        create_new(&p).unwrap();
        append(&p, b"ab").unwrap();
        append(&p, b"c").unwrap();
        let e = create_new(&p).unwrap_err().to_string();
        assert!(e.contains(&p.display().to_string()), "{e}");
        assert_eq!(std::fs::read(&p).unwrap(), b"abc");
        let q = d.path().join("sub/g");
        create_parent(&q).unwrap();
        copy_new(&p, &q).unwrap();
        assert_eq!(std::fs::read(&q).unwrap(), b"abc");
        assert!(copy_new(&p, &q).is_err());
    }
}
