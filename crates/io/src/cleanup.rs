//! What ldd-sets must remove if it is stopped: temporary files and directories, locks.
//!
//! Every temporary path is [`register`]ed while it exists. [`install_signal_handlers`]
//! (called once by the binary) starts a thread that, on SIGINT, SIGTERM, SIGHUP or SIGQUIT,
//! removes every registered path and exits with 128 + the signal number, so an interrupted run
//! leaves nothing behind. A registered path is moved into place by one rename (or
//! exchange) before it is unregistered: a signal before the move removes the temporary
//! path, a signal after it finds nothing (or the replaced old output) there.
//!
//! Temporary names carry the process id (`.<name>.ldd-tmp-<pid>-<n>`); [`reap_stale`]
//! removes those of processes that no longer exist (a `kill -9`, a power cut), with a note.
//!
//! A [`Lock`] keeps two processes from writing one output at once: the file
//! `.<name>.ldd-lock` beside the output, locked with the operating system's advisory file
//! lock (`flock`, through `std::fs::File::try_lock`), holding the owner's process id and
//! registered like a temporary. A second process fails at once with [`Error::InUse`]
//! naming that process (or, with [`Lock::wait`], waits). The file is removed when the lock
//! is released; a lock whose file was replaced meanwhile is taken again, so removing it is
//! safe. A crashed owner's lock is released by the operating system.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

use crate::error::{Error, Result};

/// Marker in the names of temporary files and directories: `.<name>.ldd-tmp-<pid>-<n>`.
pub const TMP_MARK: &str = ".ldd-tmp-";

/// The file in a staging directory that marks it as made by ldd-sets (removed when the
/// directory is moved into place).
pub const STAGING_MARKER: &str = ".ldd-staging";

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
static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

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

impl Registration {
    /// Removes the registered path now (a directory with what is in it) and unregisters it:
    /// for an output abandoned on an error, which a stop would have removed too.
    pub fn remove(self) {
        let entry = registry()
            .iter()
            .find(|e| e.id == self.0)
            .map(|e| (e.path.clone(), e.dir));
        if let Some((path, dir)) = entry {
            let _ = if dir {
                fs::remove_dir_all(&path)
            } else {
                fs::remove_file(&path)
            };
        }
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

/// Runs `action` (a directory creation) unless a stop has begun: a stop holds the registry
/// from its first removal until the process ends, so `action` either finishes before it
/// (and what it made, inside a registered directory, is removed with it) or never runs — a
/// thread cannot re-create a removed directory between the stop's last removal and the
/// exit. `action` must not register anything itself.
pub(crate) fn unless_stopping<T>(action: impl FnOnce() -> T) -> T {
    let _registry = registry();
    action()
}

/// Runs `action` with stops held back: a SIGINT, SIGTERM, SIGHUP or SIGQUIT arriving
/// meanwhile is acted on when `action` returns. For moving several finished outputs into
/// place (a few renames), so that a stop finds all of them moved or none; `action` must be
/// short and must not wait on another thread.
pub fn uninterrupted<T>(action: impl FnOnce() -> T) -> T {
    let _gate = GATE.lock().unwrap_or_else(|e| e.into_inner());
    action()
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

/// Starts (once) the thread that cleans up and exits on SIGINT, SIGTERM, SIGHUP and SIGQUIT
/// (Ctrl-\ stops a run like Ctrl-C, without a core dump).
pub fn install_signal_handlers() -> std::io::Result<()> {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    if INSTALLED.get().is_some() {
        return Ok(());
    }
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP, SIGQUIT])?;
    std::thread::Builder::new()
        .name("ldd-signals".into())
        .spawn(move || {
            if let Some(sig) = signals.forever().next() {
                // Wait for outputs being moved into place together, and keep the gate.
                std::mem::forget(GATE.lock().unwrap_or_else(|e| e.into_inner()));
                let placeholders = remove_all();
                // The one message a library prints itself (tests/architecture.rs): the
                // process is being stopped, and no sink of the binary's may run any more.
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

/// The file name of an output as its temporaries and lock are named after it (`out` for a
/// path without one).
pub(crate) fn base_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into())
}

/// A fresh temporary name in `parent` for the output named `base`:
/// `.<base>.ldd-tmp-<pid>-<n>` (hidden, and recognised by [`reap_stale`]).
pub fn tmp_sibling(parent: &Path, base: &str) -> PathBuf {
    let n = TMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    parent.join(format!(".{base}{TMP_MARK}{}-{n}", std::process::id()))
}

/// Creates a fresh temporary beside the output `target` (in `parent`, its directory) with
/// `create` (which must fail if the name is taken) and registers it, after removing the
/// temporaries of `target` that processes no longer running left there ([`reap_stale`]).
/// Returns the temporary's path and registration.
pub fn create_tmp_beside(
    parent: &Path,
    target: &Path,
    dir: bool,
    mut create: impl FnMut(&Path) -> std::io::Result<()>,
) -> std::io::Result<(PathBuf, Registration)> {
    let base = base_name(target);
    reap_stale(parent, &base);
    loop {
        let tmp = tmp_sibling(parent, &base);
        match create_registered(&tmp, dir, &mut create) {
            Ok(reg) => return Ok((tmp, reg)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
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

/// Removes the temporary siblings (in `parent`) of the output named `base` left by
/// processes that no longer exist; returns what was removed.
pub fn reap_stale(parent: &Path, base: &str) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(parent) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = tmp_pid(&name, base) else {
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
                p.join(STAGING_MARKER).is_file() && fs::remove_dir_all(&p).is_ok()
            }
            Ok(_) => fs::remove_file(&p).is_ok(),
            Err(_) => false,
        };
        if gone {
            crate::message::say(&format!(
                "ldd-sets: note: removed {} left by process {pid}, which no longer runs \
                 (an interrupted run)",
                crate::error::shown(&p)
            ));
            removed.push(p);
        }
    }
    removed.sort();
    removed
}

// Locks: an advisory lock next to an output, so two processes never write it at once.

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
    target.with_file_name(format!(".{}.ldd-lock", base_name(target)))
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
                    crate::error::shown(&path),
                    crate::error::shown(target)
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

    /// Takes the lock of `target`, waiting while another process holds it (and while each
    /// next one does, when several wait); `waiting` is called with that process's id before
    /// each wait.
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
    loop {
        let Some((mut file, reg)) = claim_name(&path)? else {
            continue;
        };
        lock_file(&mut file, &path, &mut waiting)?;
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

/// Opens the lock file `path`: created (failing if something is there) when `create`, else
/// an existing one; never through a symbolic link.
fn open_lock_file(path: &Path, create: bool) -> std::io::Result<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(create)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

/// Claims the name `path` atomically (never following a symbolic link planted there): the
/// file created, registered for removal, or the ldd-sets lock file already there (not
/// registered: it is not ours yet). `None`: that file vanished before it was opened; try
/// again.
fn claim_name(path: &Path) -> Result<Option<(File, Option<Registration>)>, Refusal> {
    let mut created = None;
    let reg = create_registered(path, false, |p| {
        created = Some(open_lock_file(p, true)?);
        Ok(())
    });
    let (mut file, reg) = match (reg, created) {
        (Ok(reg), Some(f)) => (f, Some(reg)),
        (Err(e), _) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            match open_lock_file(path, false) {
                Ok(f) => (f, None),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
                Err(e) => return Err(Refusal::NotALock(path.to_path_buf(), Some(e))),
            }
        }
        (Err(e), _) => return Err(Refusal::Io(path.to_path_buf(), e)),
        (Ok(_), None) => {
            let e = std::io::Error::other("not opened");
            return Err(Refusal::Io(path.to_path_buf(), e));
        }
    };
    if reg.is_none() && !is_lock_file(&mut file) {
        return Err(Refusal::NotALock(path.to_path_buf(), None));
    }
    Ok(Some((file, reg)))
}

/// Locks `file` (the lock file `path`): at once, or, while another process holds it, by
/// waiting if `waiting` is given (it is told that process's id before each wait) and failing with
/// [`Refusal::InUse`] if not.
fn lock_file(
    file: &mut File,
    path: &Path,
    waiting: &mut Option<&mut dyn FnMut(u32)>,
) -> Result<(), Refusal> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(TryLockError::WouldBlock) => {
            let pid = pid_in(file);
            // Not taken: a later turn of the claim (the file was replaced while we waited
            // and another process holds the new one) waits again rather than failing.
            match waiting.as_mut() {
                None => Err(Refusal::InUse(path.to_path_buf(), pid)),
                Some(w) => {
                    w(pid);
                    file.lock().map_err(|e| Refusal::Io(path.to_path_buf(), e))
                }
            }
        }
        Err(TryLockError::Error(e)) => Err(Refusal::Io(path.to_path_buf(), e)),
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
        // A pid that cannot exist (above the kernel's pid_max of 4194304).
        let dead = dir.path().join(".out.ldd-tmp-99999999-0");
        std::fs::create_dir(&dead).unwrap();
        std::fs::write(dead.join("f"), "x").unwrap();
        std::fs::write(dead.join(STAGING_MARKER), "99999999").unwrap();
        // The same name without the marker: not ldd-sets', kept.
        let users = dir.path().join(".out.ldd-tmp-99999998-0");
        std::fs::create_dir(&users).unwrap();
        let live = dir
            .path()
            .join(format!(".out.ldd-tmp-{}-0", std::process::id()));
        std::fs::create_dir(&live).unwrap();
        let other = dir.path().join(".other.ldd-tmp-99999999-0");
        std::fs::write(&other, "x").unwrap();
        assert_eq!(reap_stale(dir.path(), "out"), vec![dead.clone()]);
        assert!(!dead.exists() && live.exists() && other.exists() && users.exists());
    }

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

    /// The lock file's name is claimed by creating it; an existing ldd-sets lock is
    /// opened; anything else there (a user's file, a symbolic link) is refused.
    #[test]
    fn lock_names_are_claimed_only_for_lock_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".out.ldd-lock");
        let Ok(Some((file, reg))) = claim_name(&path) else {
            panic!("not created")
        };
        assert!(reg.is_some() && path.exists());
        drop(reg);
        drop(file);
        std::fs::write(&path, format!("{LOCK_MARK}42\n")).unwrap();
        let Ok(Some((mut file, reg))) = claim_name(&path) else {
            panic!("an existing lock not opened")
        };
        assert!(reg.is_none());
        assert_eq!(pid_in(&mut file), 42);
        std::fs::write(&path, "the user's notes\n").unwrap();
        assert!(matches!(claim_name(&path), Err(Refusal::NotALock(_, None))));
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink(dir.path().join("elsewhere"), &path).unwrap();
        assert!(matches!(
            claim_name(&path),
            Err(Refusal::NotALock(_, Some(_)))
        ));
        assert!(!dir.path().join("elsewhere").exists());
    }
}
