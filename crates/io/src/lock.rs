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

use crate::cleanup::{register, Registration};
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

fn pid_in(file: &mut File) -> u32 {
    let mut s = String::new();
    let _ = file.seek(SeekFrom::Start(0));
    let _ = file.take(32).read_to_string(&mut s);
    s.trim().parse().unwrap_or(0)
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
            // Never follow a symbolic link planted at the lock's name.
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .custom_flags(libc::O_NOFOLLOW)
                .open(&path)
                .map_err(|e| Error::io(&path, e))?;
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
            file.set_len(0).map_err(|e| Error::io(&path, e))?;
            write!(file, "{}", std::process::id()).map_err(|e| Error::io(&path, e))?;
            let reg = register(&path, false);
            return Ok(Lock {
                path,
                target: target.to_path_buf(),
                file,
                _reg: reg,
            });
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
