//! An advisory lock next to an output, so two processes never write it at once.
//!
//! The lock is the file `.<name>.ldd-lock` beside the output, locked with the operating
//! system's advisory file lock (`flock`, through `std::fs::File::try_lock`) and holding
//! the owner's process id. A second process fails at once with [`Error::InUse`] naming
//! that process (or, with [`Lock::wait`], waits). The file is removed when the lock is
//! released; a lock whose file was replaced meanwhile is taken again, so removing it is
//! safe. A crashed owner's lock is released by the operating system.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use crate::cleanup::{create_registered, register, Registration};
use crate::error::{Error, Result};
use crate::paths::parent_dir;

/// A held lock; released (and its file removed) when dropped.
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
    target: PathBuf,
    file: File,
    _reg: Registration,
}

/// The lock file of `target`.
pub fn lock_path(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    parent_dir(target).join(format!(".{name}.ldd-lock"))
}

/// What a lock file holds before the owner's process id.
const LOCK_MARK: &str = "ldd-sets lock, process ";

/// Opens the lock file at `path`: creating it (failing if something is there) when
/// `create`, else an existing one; never through a symbolic link.
fn open_lock(path: &Path, create: bool) -> std::io::Result<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(create)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

/// The start of a lock file's text (at most 64 bytes).
fn head(file: &mut File) -> String {
    let mut s = String::new();
    let _ = file.seek(SeekFrom::Start(0));
    let _ = file.take(64).read_to_string(&mut s);
    s
}

/// Whether an existing file at a lock's name is an ldd-sets lock: a regular file, empty
/// (just created by another ldd-sets process) or holding a lock's text (or a process id
/// alone, as earlier versions wrote).
fn is_lock_file(file: &mut File) -> bool {
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return false;
    }
    let s = head(file);
    let t = s.trim();
    t.is_empty() || t.starts_with(LOCK_MARK) || t.bytes().all(|b| b.is_ascii_digit())
}

/// The error for a file or directory of someone else's at the lock's name.
fn not_a_lock(path: &Path, target: &Path, e: Option<std::io::Error>) -> Error {
    let why = e.map(|e| format!(" ({e})")).unwrap_or_default();
    Error::Refused(format!(
        "{}: the lock of {} cannot be taken: something that is not an ldd-sets lock is at its \
         name{why}; ldd-sets leaves it alone — move it away or choose another output",
        crate::text::shown(path),
        crate::text::shown(target)
    ))
}

fn pid_in(file: &mut File) -> u32 {
    let s = head(file);
    let t = s.trim();
    t.strip_prefix(LOCK_MARK)
        .unwrap_or(t)
        .trim()
        .parse()
        .unwrap_or(0)
}

impl Lock {
    /// Takes the lock of `target`, failing at once with [`Error::InUse`] if another
    /// process holds it.
    pub fn acquire(target: &Path) -> Result<Lock> {
        Self::take(target, None)
    }

    /// Takes the lock of `target`, waiting while another process holds it; `waiting` is
    /// called once with that process's id before waiting.
    pub fn wait(target: &Path, waiting: &mut dyn FnMut(u32)) -> Result<Lock> {
        Self::take(target, Some(waiting))
    }

    fn take(target: &Path, mut waiting: Option<&mut dyn FnMut(u32)>) -> Result<Lock> {
        let path = lock_path(target);
        let parent = parent_dir(target);
        fs::create_dir_all(&parent).map_err(|e| Error::io(&parent, e))?;
        loop {
            // Claim the name atomically (never following a symbolic link planted there);
            // a file already there is used only if it is an ldd-sets lock.
            let mut created = None;
            let reg = create_registered(&path, false, |p| {
                created = Some(open_lock(p, true)?);
                Ok(())
            });
            let (mut file, reg) = match (reg, created) {
                (Ok(reg), Some(f)) => (f, Some(reg)),
                (Err(e), _) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    match open_lock(&path, false) {
                        Ok(f) => (f, None),
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                        Err(e) => return Err(not_a_lock(&path, target, Some(e))),
                    }
                }
                (Err(e), _) => return Err(Error::io(&path, e)),
                (Ok(_), None) => return Err(Error::io(&path, std::io::Error::other("not opened"))),
            };
            if reg.is_none() && !is_lock_file(&mut file) {
                return Err(not_a_lock(&path, target, None));
            }
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    let pid = pid_in(&mut file);
                    match waiting.take() {
                        None => {
                            return Err(Error::InUse {
                                path: target.to_path_buf(),
                                lock: path,
                                pid,
                            })
                        }
                        Some(w) => {
                            w(pid);
                            file.lock().map_err(|e| Error::io(&path, e))?;
                        }
                    }
                }
                Err(TryLockError::Error(e)) => return Err(Error::io(&path, e)),
            }
            // The file may have been removed by its previous owner between our open and
            // our lock: then we hold a lock nobody else can see; take the new file.
            let same = match (file.metadata(), fs::metadata(&path)) {
                (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
                _ => false,
            };
            if !same {
                continue;
            }
            let reg = reg.unwrap_or_else(|| register(&path, false));
            // From here the file is ours: dropping the lock (on an error too, e.g. a full
            // disk) removes it.
            let mut lock = Lock {
                path,
                target: target.to_path_buf(),
                file,
                _reg: reg,
            };
            let owner = format!("{LOCK_MARK}{}\n", std::process::id());
            lock.file
                .set_len(0)
                .and_then(|()| lock.file.write_all(owner.as_bytes()))
                .map_err(|e| Error::io(&lock.path, e))?;
            return Ok(lock);
        }
    }

    /// The locked output.
    pub fn target(&self) -> &Path {
        &self.target
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Remove the file while still holding the lock (see the module docs).
        let _ = fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_holder_is_refused_with_the_pid_and_the_file_goes_away() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out");
        let a = Lock::acquire(&target).unwrap();
        assert!(lock_path(&target).exists());
        // A second open file description conflicts even within one process (flock).
        match Lock::acquire(&target) {
            Err(Error::InUse { pid, .. }) => assert_eq!(pid, std::process::id()),
            other => panic!("{other:?}"),
        }
        drop(a);
        assert!(!lock_path(&target).exists());
        let b = Lock::acquire(&target).unwrap();
        assert_eq!(b.target(), target);
    }
}
