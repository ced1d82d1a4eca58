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

/// A held lock; released (and its file removed) when dropped.
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
    target: PathBuf,
    file: File,
    _reg: Registration,
}

/// The lock file of `target`: `.<name>.ldd-lock` beside it.
pub fn lock_path(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    target.with_file_name(format!(".{name}.ldd-lock"))
}

/// What a lock file holds before the owner's process id.
const LOCK_MARK: &str = "ldd-sets lock, process ";

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

/// Why the lock was not taken.
enum Refusal {
    /// The system failed on this file or directory.
    Io(PathBuf, std::io::Error),
    /// Something that is not an ldd-sets lock is at the lock's name (this one).
    NotALock(PathBuf, Option<std::io::Error>),
    /// Another process (this id) holds the lock file (this one).
    InUse(PathBuf, u32),
}

impl Refusal {
    /// The error for a refusal to lock `target`.
    fn into_error(self, target: &Path) -> Error {
        match self {
            Refusal::Io(path, e) => Error::io(&path, e),
            Refusal::NotALock(path, e) => {
                let why = e.map(|e| format!(" ({e})")).unwrap_or_default();
                Error::Refused(format!(
                    "{}: the lock of {} cannot be taken: something that is not an ldd-sets \
                     lock is at its name{why}; ldd-sets leaves it alone — move it away or \
                     choose another output",
                    crate::text::shown(&path),
                    crate::text::shown(target)
                ))
            }
            Refusal::InUse(lock, pid) => Error::InUse {
                path: target.to_path_buf(),
                lock,
                pid,
            },
        }
    }
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

    fn take(target: &Path, waiting: Option<&mut dyn FnMut(u32)>) -> Result<Lock> {
        claim(target, waiting).map_err(|r| r.into_error(target))
    }

    /// The locked output.
    pub fn target(&self) -> &Path {
        &self.target
    }
}

/// Takes the lock of `target`: claims the lock file's name, locks the file (waiting if
/// `waiting` is given) and writes the owner's process id into it.
fn claim(target: &Path, mut waiting: Option<&mut dyn FnMut(u32)>) -> Result<Lock, Refusal> {
    let path = lock_path(target);
    // The directory the output and its lock go into (none to make for a bare name).
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|e| Refusal::Io(parent.to_path_buf(), e))?;
    }
    // The lock file: created (failing if something is there) when `create`, else an
    // existing one; never opened through a symbolic link.
    let open = |p: &Path, create: bool| {
        OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(create)
            .custom_flags(libc::O_NOFOLLOW)
            .open(p)
    };
    loop {
        // Claim the name atomically (never following a symbolic link planted there); a
        // file already there is used only if it is an ldd-sets lock.
        let mut created = None;
        let reg = create_registered(&path, false, |p| {
            created = Some(open(p, true)?);
            Ok(())
        });
        let (mut file, reg) = match (reg, created) {
            (Ok(reg), Some(f)) => (f, Some(reg)),
            (Err(e), _) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                match open(&path, false) {
                    Ok(f) => (f, None),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                    Err(e) => return Err(Refusal::NotALock(path, Some(e))),
                }
            }
            (Err(e), _) => return Err(Refusal::Io(path, e)),
            (Ok(_), None) => return Err(Refusal::Io(path, std::io::Error::other("not opened"))),
        };
        if reg.is_none() && !is_lock_file(&mut file) {
            return Err(Refusal::NotALock(path, None));
        }
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let pid = pid_in(&mut file);
                match waiting.take() {
                    None => return Err(Refusal::InUse(path, pid)),
                    Some(w) => {
                        w(pid);
                        if let Err(e) = file.lock() {
                            return Err(Refusal::Io(path, e));
                        }
                    }
                }
            }
            Err(TryLockError::Error(e)) => return Err(Refusal::Io(path, e)),
        }
        // The file may have been removed by its previous owner between our open and our
        // lock: then we hold a lock nobody else can see; take the new file.
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
        if let Err(e) = lock
            .file
            .set_len(0)
            .and_then(|()| lock.file.write_all(owner.as_bytes()))
        {
            return Err(Refusal::Io(lock.path.clone(), e));
        }
        return Ok(lock);
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
