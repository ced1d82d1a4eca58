//! What ldd-sets must remove if it is stopped: temporary files and directories, locks.
//!
//! Every temporary path is [`register`]ed while it exists. [`install_signal_handlers`]
//! (called once by the binary) starts a thread that, on SIGINT, SIGTERM or SIGHUP, removes
//! every registered path and exits with 128 + the signal number, so an interrupted run
//! leaves nothing behind. A registered path is moved into place by one rename (or
//! exchange) before it is unregistered: a signal before the move removes the temporary
//! path, a signal after it finds nothing (or the replaced old output) there.
//!
//! Temporary names carry the process id (`.<name>.ldd-tmp-<pid>-<n>`); [`reap_stale`]
//! removes those of processes that no longer exist (a `kill -9`, a power cut), with a note.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

pub use crate::paths::TMP_MARK;

struct Entry {
    id: u64,
    path: PathBuf,
    dir: bool,
}

static REGISTRY: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
/// Held while outputs that belong together are moved into place, and by the signal
/// handler before it removes anything (always taken before `REGISTRY`).
static GATE: Mutex<()> = Mutex::new(());
static NEXT: AtomicU64 = AtomicU64::new(0);

fn registry() -> MutexGuard<'static, Vec<Entry>> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

/// A registered path; dropping it unregisters it (it does not remove the path).
#[derive(Debug)]
pub struct Registration(u64);

impl Drop for Registration {
    fn drop(&mut self) {
        registry().retain(|e| e.id != self.0);
    }
}

/// Registers `path` (a directory if `dir`) for removal if the process is stopped.
pub fn register(path: &Path, dir: bool) -> Registration {
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    registry().push(Entry {
        id,
        path: path.to_path_buf(),
        dir,
    });
    Registration(id)
}

/// Creates `path` with `create` (which must fail if something is there already) and
/// registers it, in one step for the signal handler: it is registered only if this call
/// created it (so a stop never removes what was there before), and a stop cannot fall
/// between its creation and its registration (it would be left behind).
pub fn create_registered(
    path: &Path,
    dir: bool,
    create: impl FnOnce(&Path) -> std::io::Result<()>,
) -> std::io::Result<Registration> {
    let mut entries = registry();
    create(path)?;
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    entries.push(Entry {
        id,
        path: path.to_path_buf(),
        dir,
    });
    Ok(Registration(id))
}

/// Runs `f` with stops held back: a SIGINT, SIGTERM or SIGHUP arriving meanwhile is acted
/// on when `f` returns. For moving several finished outputs into place (a few renames), so
/// that a stop finds all of them moved or none; `f` must be short and must not wait on
/// another thread.
pub fn uninterrupted<T>(f: impl FnOnce() -> T) -> T {
    let _gate = GATE.lock().unwrap_or_else(|e| e.into_inner());
    f()
}

/// Removes a directory that other threads may still be writing into: it is first moved
/// aside and an empty file put at its name, so that their next file or directory created
/// by path fails instead of re-creating it (`create_dir_all`); should one re-create it
/// before the file is there, that is moved aside too. The asides are then removed,
/// retried while a straggler's file makes them non-empty. Returns the placeholder, to be
/// removed just before the process exits.
fn remove_dir_racing(path: &Path) -> Option<PathBuf> {
    let mut asides = Vec::new();
    let mut blocked = None;
    for k in 0..20 {
        let mut aside = path.as_os_str().to_os_string();
        aside.push(format!(".ldd-gone-{k}"));
        let aside = PathBuf::from(aside);
        if fs::rename(path, &aside).is_err() {
            break;
        }
        asides.push(aside);
        let placed = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path);
        if placed.is_ok() {
            blocked = Some(path.to_path_buf());
            break;
        }
    }
    if asides.is_empty() {
        asides.push(path.to_path_buf());
    }
    for a in &asides {
        for _ in 0..50 {
            match fs::remove_dir_all(a) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    std::thread::sleep(std::time::Duration::from_millis(2))
                }
                _ => break,
            }
        }
    }
    blocked
}

/// Removes every registered path (what the signal handler does), except the placeholder
/// files at the names of removed directories, which are returned: the caller removes them
/// with [`exit_removing`] as its very last act.
fn remove_all() -> Vec<PathBuf> {
    let entries = registry();
    let mut placeholders = Vec::new();
    for e in entries.iter() {
        if e.dir {
            placeholders.extend(remove_dir_racing(&e.path));
        } else {
            let _ = fs::remove_file(&e.path);
        }
    }
    // Keep the registry locked: the process is about to exit, and nothing may move a
    // temporary path into place any more.
    std::mem::forget(entries);
    placeholders
}

/// Removes the placeholders and ends the process at once with `code` (no unwinding, no
/// exit handlers: the other threads must not get to re-create a removed directory).
fn exit_removing(placeholders: &[PathBuf], code: i32) -> ! {
    for p in placeholders {
        let _ = fs::remove_file(p);
    }
    // SAFETY: `_exit` ends the process; nothing of ours needs flushing (stderr is
    // unbuffered, the outputs are being discarded).
    unsafe { libc::_exit(code) }
}

/// Starts (once) the thread that cleans up and exits on SIGINT, SIGTERM and SIGHUP.
pub fn install_signal_handlers() -> std::io::Result<()> {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    if INSTALLED.get().is_some() {
        return Ok(());
    }
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("ldd-signals".into())
        .spawn(move || {
            if let Some(sig) = signals.forever().next() {
                // Wait for outputs being moved into place together, and keep the gate.
                std::mem::forget(GATE.lock().unwrap_or_else(|e| e.into_inner()));
                let placeholders = remove_all();
                eprintln!("ldd-sets: stopped by signal {sig}; temporary files removed");
                exit_removing(&placeholders, 128 + sig);
            }
        })?;
    let _ = INSTALLED.set(());
    Ok(())
}

/// Whether process `pid` exists (a process of another user counts as existing).
pub fn process_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    let Ok(pid) = i32::try_from(pid) else {
        return false;
    };
    if pid <= 0 {
        return false;
    }
    // SAFETY: kill with signal 0 only checks whether the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// The process id in a temporary name `.<base>.ldd-tmp-<pid>-<n>` of `base`.
fn tmp_pid(file_name: &str, base: &str) -> Option<u32> {
    let rest = file_name
        .strip_prefix('.')?
        .strip_prefix(base)?
        .strip_prefix(TMP_MARK)?;
    let (pid, n) = rest.split_once('-')?;
    n.parse::<u64>().ok()?;
    pid.parse().ok()
}

/// Removes the temporary siblings of `target` left by processes that no longer exist;
/// returns what was removed.
pub fn reap_stale(target: &Path) -> Vec<PathBuf> {
    let Some(base) = target.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return Vec::new();
    };
    let parent = crate::paths::parent_dir(target);
    let Ok(entries) = fs::read_dir(&parent) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = tmp_pid(&name, &base) else {
            continue;
        };
        if process_alive(pid) {
            continue;
        }
        let p = e.path();
        let gone = match fs::symlink_metadata(&p) {
            // A directory only with ldd-sets' marker: never one of the user's that happens
            // to have such a name.
            Ok(m) if m.is_dir() => {
                p.join(crate::paths::STAGING_MARKER).is_file() && fs::remove_dir_all(&p).is_ok()
            }
            Ok(_) => fs::remove_file(&p).is_ok(),
            Err(_) => false,
        };
        if gone {
            eprintln!(
                "ldd-sets: note: removed {} left by process {pid}, which no longer runs \
                 (an interrupted run)",
                crate::text::shown(&p)
            );
            removed.push(p);
        }
    }
    removed.sort();
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_carry_the_pid() {
        assert_eq!(tmp_pid(".out.ldd-tmp-123-4", "out"), Some(123));
        assert_eq!(tmp_pid(".out.ldd-tmp-123-4", "ou"), None);
        assert_eq!(tmp_pid(".out.ldd-tmp-x-4", "out"), None);
        assert_eq!(tmp_pid("out.ldd-tmp-1-4", "out"), None);
        assert!(process_alive(std::process::id()));
        assert!(!process_alive(0));
    }

    #[test]
    fn stale_siblings_of_dead_processes_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out");
        // A pid that cannot exist (above the kernel's pid_max of 4194304).
        let dead = dir.path().join(".out.ldd-tmp-99999999-0");
        std::fs::create_dir(&dead).unwrap();
        std::fs::write(dead.join("f"), "x").unwrap();
        std::fs::write(dead.join(crate::paths::STAGING_MARKER), "99999999").unwrap();
        // The same name without the marker: not ldd-sets', kept.
        let users = dir.path().join(".out.ldd-tmp-99999998-0");
        std::fs::create_dir(&users).unwrap();
        let live = dir
            .path()
            .join(format!(".out.ldd-tmp-{}-0", std::process::id()));
        std::fs::create_dir(&live).unwrap();
        let other = dir.path().join(".other.ldd-tmp-99999999-0");
        std::fs::write(&other, "x").unwrap();
        assert_eq!(reap_stale(&target), vec![dead.clone()]);
        assert!(!dead.exists() && live.exists() && other.exists() && users.exists());
    }
}
