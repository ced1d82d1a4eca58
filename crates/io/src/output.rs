//! The one way ldd-sets writes: outputs appear whole or not at all, and only what
//! ldd-sets wrote itself is ever replaced.
//!
//! - A directory output (the sets of a run) is written into a hidden staging directory
//!   beside it, [`Staging`], and swapped into place by [`Staging::commit`] only when
//!   complete. The swap exchanges the two directories in one step (`renameat2` with
//!   `RENAME_EXCHANGE` on Linux), so the output always exists, old or new, even if the
//!   process is killed during it. An existing directory is replaced only if the caller
//!   recognises it as its own output, and never if it holds one of the run's inputs. A
//!   [`Lock`] beside the output keeps a second process out while the first writes.
//! - A file output (alignments, a parse, scores) is written by [`AtomicFile`] to a hidden
//!   temporary file in the same directory and renamed over the target when complete; an
//!   output that is one of the inputs is refused. A file the user names that replaces only
//!   an earlier output of its kind goes through [`check_replaceable_file`] (never a link,
//!   never a file that is not ours), the file counterpart of [`Staging`]'s check; every
//!   option whose value is written to is checked that way before any work
//!   ([`crate::named`]).
//!
//! Temporary names are `.<name>.ldd-tmp-<pid>-<n>`; they are registered for removal on
//! SIGINT/SIGTERM ([`crate::cleanup`]) and reaped by the next run if their process died.
//!
//! No output is ever one of the inputs: each command notes the files it was given to read
//! ([`note_input`]: corpus sides, parses, models, aligner models, training data, system
//! outputs), and every output is checked against them when it is created and again when
//! it is moved into place: a file output that is an input (the same path, or the same file
//! through another name or a link) and a directory output that contains an input are
//! refused, whatever option named them.
//!
//! Files and directories are created with the process umask, so finished outputs have the
//! permissions of any file the user creates.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use crate::cleanup::{
    base_name, create_tmp_beside, tmp_sibling, Lock, Registration, STAGING_MARKER,
};
use crate::error::{shown, Error, Result};

/// The directory holding `path` (`.` for a bare file name).
pub fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
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
        if let Ok(c) = std::fs::canonicalize(cur) {
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

/// A noted input: the path as given, resolved, and its file identity if it exists.
struct Noted {
    given: PathBuf,
    resolved: PathBuf,
    id: Option<(u64, u64)>,
}

static INPUTS: Mutex<Vec<Noted>> = Mutex::new(Vec::new());

fn inputs() -> std::sync::MutexGuard<'static, Vec<Noted>> {
    INPUTS.lock().unwrap_or_else(|e| e.into_inner())
}

fn file_id(path: &Path) -> Option<(u64, u64)> {
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// Notes `path` as an input of this process.
pub fn note_input(path: &Path) {
    inputs().push(Noted {
        given: path.to_path_buf(),
        resolved: resolved(path),
        id: file_id(path),
    });
}

/// Notes every path of `paths` as an input.
pub fn note_inputs<'a>(paths: impl IntoIterator<Item = &'a Path>) {
    for p in paths {
        note_input(p);
    }
}

/// Refuses a file output `target` that is an input of the command — one of `given` or a
/// noted input, by path or as the same file through a link or hard link: writing it would
/// destroy the input — and one that is a directory.
pub fn check_file_output(target: &Path, given: &[&Path]) -> Result<()> {
    let t = resolved(target);
    let tid = file_id(target);
    let noted = inputs()
        .iter()
        .find(|i| i.resolved == t || (tid.is_some() && (i.id == tid || file_id(&i.given) == tid)))
        .map(|i| i.given.clone());
    let clash = noted.or_else(|| {
        given
            .iter()
            .find(|i| same_file(target, i))
            .map(|i| i.to_path_buf())
    });
    let is_dir = fs::symlink_metadata(target).is_ok_and(|m| m.is_dir());
    match (clash, is_dir) {
        (Some(input), _) => Err(Error::Refused(format!(
            "{}: this output is the input {} of the same command; writing it would destroy \
             the input — choose another output",
            shown(target),
            shown(&input)
        ))),
        (None, true) => Err(Error::Refused(format!(
            "{}: is a directory, not a file",
            shown(target)
        ))),
        (None, false) => Ok(()),
    }
}

/// Refuses a directory output `target` that is or contains an input of the command —
/// one of `given` or a noted input: replacing the directory would delete it.
pub fn check_dir_output(target: &Path, given: &[&Path]) -> Result<()> {
    let t = resolved(target);
    let noted = inputs()
        .iter()
        .find(|i| i.resolved.starts_with(&t))
        .map(|i| i.given.clone());
    let clash = noted.or_else(|| {
        given
            .iter()
            .find(|i| resolved(i).starts_with(&t))
            .map(|i| i.to_path_buf())
    });
    match clash {
        Some(input) => Err(Error::Refused(format!(
            "{}: the output directory contains the input {} of the same command; it would \
             be deleted when the output is replaced — choose another output",
            shown(target),
            shown(&input)
        ))),
        None => Ok(()),
    }
}

/// Whether `first` and `second` name the same file: the same path once resolved, or (when
/// both exist) the same file through a link or hard link.
pub fn same_file(first: &Path, second: &Path) -> bool {
    let same_inode = match (fs::metadata(first), fs::metadata(second)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    };
    same_inode || resolved(first) == resolved(second)
}

/// Whether a path names something to write into: not empty, not `.` or `..` as its
/// last part (those cannot be swapped into place).
fn check_target(target: &Path) -> Result<()> {
    let text = target.as_os_str().as_encoded_bytes();
    if text.ends_with(b"/.") || text.ends_with(b"/..") {
        return Err(Error::Refused(format!(
            "{}: not a usable output path: name the directory itself, without a final `/.`",
            shown(target)
        )));
    }
    match target.components().next_back() {
        Some(Component::Normal(_)) => Ok(()),
        _ => Err(Error::Refused(format!(
            "{}: not a usable output path (name a directory to create or replace)",
            shown(target)
        ))),
    }
}

/// `path` without the slashes that end it (`out/` is `out`; `/` stays).
pub fn without_trailing_slash(path: &Path) -> PathBuf {
    let bytes = path.as_os_str().as_encoded_bytes();
    let mut end = bytes.len();
    while end > 1 && bytes[end - 1] == b'/' {
        end -= 1;
    }
    // SAFETY: cut at an ASCII `/`, so the bytes stay valid for an `OsStr`.
    let cut = unsafe { std::ffi::OsStr::from_encoded_bytes_unchecked(&bytes[..end]) };
    PathBuf::from(cut)
}

/// Refuses a file output `target` that may not be replaced — the guard every file output
/// named on the command line goes through, as [`Staging`] is for directories: a symbolic
/// link (replacing it would replace the link, not its file), anything but a regular file,
/// an existing file that `is_ours` does not recognise as an earlier output of the same
/// kind (never replaced, whatever it is: a set's file, the corpus, a user's file), and an
/// input of the command ([`check_file_output`]). `owner` names the command in refusals.
pub fn check_replaceable_file(
    target: &Path,
    owner: &str,
    is_ours: &dyn Fn(&Path) -> bool,
    inputs: &[&Path],
) -> Result<()> {
    let target = &without_trailing_slash(target);
    check_file_output(target, inputs)?;
    match fs::symlink_metadata(target) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Error::io(target, e)),
        Ok(m) if m.file_type().is_symlink() => Err(Error::Refused(format!(
            "{}: is a symbolic link; name the file itself (a link is never written through \
             or replaced)",
            shown(target)
        ))),
        Ok(m) if !m.is_file() => Err(Error::Refused(format!(
            "{}: exists and is not a regular file",
            shown(target)
        ))),
        Ok(_) if is_ours(target) => Ok(()),
        Ok(_) => Err(Error::Refused(format!(
            "{}: exists and was not written by `{owner}`; refusing to replace it — choose \
             another file or remove it",
            shown(target)
        ))),
    }
}

/// A hidden directory that becomes the output directory on [`Staging::commit`]; removed
/// if dropped uncommitted. Holds the output's [`Lock`] while it lives.
#[derive(Debug)]
pub struct Staging {
    dir: PathBuf,
    target: PathBuf,
    reg: Option<Registration>,
    _lock: Lock,
}

impl Staging {
    /// Locks `target`, checks that it may be (re)written — it does not exist, is an empty
    /// directory, or `is_ours` accepts it — and does not contain any of `inputs`, removes
    /// stale temporary siblings of dead processes, and creates the staging directory.
    pub fn new(
        target: &Path,
        is_ours: &dyn Fn(&Path) -> bool,
        inputs: &[&Path],
    ) -> Result<Staging> {
        check_target(target)?;
        // `link/` names what the link points to, but the output replaces the name itself:
        // the checks below must see the link, now rather than when the run is done.
        let target = &without_trailing_slash(target);
        let parent = parent_dir(target);
        fs::create_dir_all(&parent).map_err(|e| Error::io(&parent, e))?;
        let lock = Lock::acquire(target)?;
        check_replaceable(target, is_ours)?;
        check_dir_output(target, inputs)?;
        // The marker inside says that ldd-sets made the directory: only such directories
        // are ever reaped as stale (`cleanup::reap_stale`).
        let made = |d: &Path| {
            fs::create_dir(d)?;
            fs::write(d.join(STAGING_MARKER), std::process::id().to_string())
        };
        let (dir, reg) =
            create_tmp_beside(&parent, target, true, made).map_err(|e| Error::io(&parent, e))?;
        Ok(Staging {
            dir,
            target: target.to_path_buf(),
            reg: Some(reg),
            _lock: lock,
        })
    }

    /// Where to write the outputs until they are committed.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The final location.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Moves the staged outputs into place, replacing a previous output as a whole.
    pub fn commit(mut self, is_ours: &dyn Fn(&Path) -> bool) -> Result<()> {
        let target = self.target.clone();
        let marker = self.dir.join(STAGING_MARKER);
        fs::remove_file(&marker).map_err(|e| Error::io(&marker, e))?;
        check_replaceable(&target, is_ours)?;
        check_dir_output(&target, &[])?;
        // A signal during these steps removes whatever is at the staging path: the new
        // output before the swap, the old one after it; the target is never missing.
        if fs::symlink_metadata(&target).is_ok() {
            exchange(&self.dir, &target).map_err(|e| Error::io(&target, e))?;
            let old = self.dir.clone();
            fs::remove_dir_all(&old).map_err(|e| Error::io(&old, e))?;
        } else {
            fs::rename(&self.dir, &target).map_err(|e| Error::io(&target, e))?;
        }
        self.reg = None;
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if self.reg.is_some() {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

/// Exchanges two directories in one step where the system can (Linux `renameat2`), else in
/// two renames.
fn exchange(first: &Path, second: &Path) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::ffi::CString;
        use std::os::unix::ffi::OsStrExt;
        let ca = CString::new(first.as_os_str().as_bytes())?;
        let cb = CString::new(second.as_os_str().as_bytes())?;
        // SAFETY: both are valid NUL-terminated paths; AT_FDCWD resolves them like rename.
        let r = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                ca.as_ptr(),
                libc::AT_FDCWD,
                cb.as_ptr(),
                libc::RENAME_EXCHANGE,
            )
        };
        if r == 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        if !matches!(e.raw_os_error(), Some(libc::EINVAL) | Some(libc::ENOSYS)) {
            return Err(e);
        }
    }
    // No atomic exchange: move the old one aside, then the new one in.
    let aside = tmp_sibling(&parent_dir(second), &base_name(second));
    fs::rename(second, &aside)?;
    if let Err(e) = fs::rename(first, second) {
        let _ = fs::rename(&aside, second);
        return Err(e);
    }
    fs::rename(&aside, first)
}

/// `target` may be written if it does not exist, is an empty directory, or `is_ours`
/// recognises it as a previous output.
fn check_replaceable(target: &Path, is_ours: &dyn Fn(&Path) -> bool) -> Result<()> {
    let meta = match fs::symlink_metadata(target) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io(target, e)),
    };
    if meta.file_type().is_symlink() {
        // Replacing would swap the link, not what it points to: name the directory itself.
        return Err(Error::Refused(format!(
            "{}: is a symbolic link; give the directory it points to as the output",
            shown(target)
        )));
    }
    if !meta.is_dir() {
        return Err(Error::Refused(format!(
            "{}: exists and is not a directory",
            shown(target)
        )));
    }
    let mut entries = fs::read_dir(target).map_err(|e| Error::io(target, e))?;
    if entries.next().is_none() || is_ours(target) {
        return Ok(());
    }
    Err(Error::Refused(format!(
        "{}: directory is not empty and is not an ldd-sets output; refusing to overwrite \
         it — choose another --out or remove it",
        shown(target)
    )))
}

/// A file written all-or-nothing: writes go to a hidden temporary file beside the target,
/// which [`AtomicFile::commit`] flushes, syncs and renames over the target; dropped
/// uncommitted (an error, a panic), the temporary file is removed.
#[derive(Debug)]
pub struct AtomicFile {
    tmp: PathBuf,
    target: PathBuf,
    writer: Option<BufWriter<File>>,
    reg: Option<Registration>,
}

impl AtomicFile {
    /// Starts writing `target`.
    pub fn create(target: &Path) -> Result<AtomicFile> {
        Self::create_checked(target, &[])
    }

    /// Starts writing `target`, refusing it if it is one of `inputs`.
    pub fn create_checked(target: &Path, inputs: &[&Path]) -> Result<AtomicFile> {
        check_file_output(target, inputs)?;
        let parent = parent_dir(target);
        let mut file = None;
        let open = |t: &Path| {
            file = Some(
                fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(t)?,
            );
            Ok(())
        };
        let (tmp, reg) =
            create_tmp_beside(&parent, target, false, open).map_err(|e| Error::io(&parent, e))?;
        let file = file
            .ok_or_else(|| Error::io(&tmp, std::io::Error::other("temporary file not opened")))?;
        Ok(AtomicFile {
            tmp,
            target: target.to_path_buf(),
            writer: Some(BufWriter::with_capacity(1 << 16, file)),
            reg: Some(reg),
        })
    }

    /// Starts writing `target`, an output the user named, through the guard of
    /// [`check_replaceable_file`] (checked again when committed).
    pub fn create_replacing(
        target: &Path,
        owner: &str,
        is_ours: &dyn Fn(&Path) -> bool,
        inputs: &[&Path],
    ) -> Result<AtomicFile> {
        check_replaceable_file(target, owner, is_ours, inputs)?;
        Self::create_checked(&without_trailing_slash(target), inputs)
    }

    /// Starts writing each of `targets`, the outputs of one command that are committed
    /// together ([`AtomicFile::commit_together`]), refusing any that is one of `inputs`
    /// and two that name the same file (by path, link or hard link).
    pub fn create_all(targets: &[&Path], inputs: &[&Path]) -> Result<Vec<AtomicFile>> {
        for (i, a) in targets.iter().enumerate() {
            if let Some(b) = targets[..i].iter().find(|b| same_file(a, b)) {
                return Err(Error::Refused(format!(
                    "{} and {} name the same file: give each output a file of its own",
                    shown(b),
                    shown(a)
                )));
            }
        }
        targets
            .iter()
            .map(|t| Self::create_checked(t, inputs))
            .collect()
    }

    /// The final location.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The hidden temporary file being written (its content is complete once flushed).
    pub fn tmp_path(&self) -> &Path {
        &self.tmp
    }

    /// Flushes and syncs the data and renames the file into place.
    pub fn commit(mut self) -> Result<()> {
        if self.reg.is_none() {
            return Ok(());
        }
        self.sync()?;
        check_file_output(&self.target, &[])?;
        fs::rename(&self.tmp, &self.target).map_err(|e| Error::io(&self.target, e))?;
        self.reg = None;
        Ok(())
    }

    /// Commits `files` together: all are flushed and synced first, then renamed into place
    /// with stops held back ([`crate::cleanup::uninterrupted`]), so that a stop finds
    /// either all of them or none in place (the outputs of one command that belong
    /// together, e.g. `scores.json` and `scores.csv`).
    pub fn commit_together(files: Vec<AtomicFile>) -> Result<()> {
        Self::commit_into(files, None)
    }

    /// [`AtomicFile::commit_together`], and the directory `made` for the files (its
    /// registration for removal on a stop) kept from the same uninterrupted step on.
    fn commit_into(mut files: Vec<AtomicFile>, made: Option<Registration>) -> Result<()> {
        // Every file complete on disk and every target checked before any moves: a failure
        // or a refusal leaves all as they were (and no directory made for them).
        let ready = files
            .iter_mut()
            .try_for_each(AtomicFile::sync)
            .and_then(|_| {
                files
                    .iter()
                    .filter(|f| f.reg.is_some())
                    .try_for_each(|f| check_file_output(&f.target, &[]))
            });
        if let Err(e) = ready {
            drop(files);
            if let Some(m) = made {
                m.remove();
            }
            return Err(e);
        }
        crate::cleanup::uninterrupted(move || {
            let done = files.into_iter().try_for_each(AtomicFile::commit);
            drop(made);
            done
        })
    }

    /// Flushes the buffer and syncs the data to disk, closing the file (no more writes).
    fn sync(&mut self) -> Result<()> {
        let Some(w) = self.writer.take() else {
            return Ok(());
        };
        let file = w
            .into_inner()
            .map_err(|e| Error::io(&self.target, e.into_error()))?;
        file.sync_all().map_err(|e| Error::io(&self.target, e))
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.writer {
            Some(w) => w.write(buf),
            None => Err(std::io::Error::other("file already committed")),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match &mut self.writer {
            Some(w) => w.write_all(buf),
            None => Err(std::io::Error::other("file already committed")),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.writer {
            Some(w) => w.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.reg.is_some() {
            self.writer = None;
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// Writes the file `path` all-or-nothing with `fill` (see [`AtomicFile`]); errors of
/// `fill` name the target.
pub fn write_file_atomic<E: From<Error>>(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::result::Result<(), E> {
    let mut f = AtomicFile::create(path)?;
    fill(&mut f).map_err(|e| Error::io(path, e))?;
    f.commit()?;
    Ok(())
}

/// Writes `files` (path and content; all of them in `dir`) as one output of `owner`, the
/// command named in refusals: `dir` is created if needed; a file already there is
/// replaced only if `is_ours` recognises it as an earlier output, never if it is one of
/// `inputs`; every file is written to its temporary sibling, then all are moved into
/// place with stops held back ([`AtomicFile::commit_together`]), so a stop finds all of
/// them or none — and no directory made for them ([`crate::fs::create_output_dir`]).
pub fn write_together(
    dir: &Path,
    files: &[(PathBuf, Vec<u8>)],
    owner: &str,
    is_ours: &dyn Fn(&Path) -> bool,
    inputs: &[&Path],
) -> Result<()> {
    for (path, _) in files {
        check_replaceable_file(path, owner, is_ours, inputs)?;
    }
    let made = crate::fs::create_output_dir(dir)?;
    let mut open = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        let written = AtomicFile::create(path).and_then(|mut f| {
            f.write_all(bytes)
                .map(|_| f)
                .map_err(|e| Error::io(path, e))
        });
        match written {
            Ok(f) => open.push(f),
            Err(e) => {
                // Nothing of this output stays: no temporary, and no directory made for it.
                drop(open);
                if let Some(m) = made {
                    m.remove();
                }
                return Err(e);
            }
        }
    }
    AtomicFile::commit_into(open, made)
}

/// Why a name given for a place below a directory was refused by [`confined`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outside {
    /// The name is empty, absolute, or has a `.` or `..` part: it could leave the directory.
    Name,
    /// This part of it, below the directory, is a symbolic link.
    Link(PathBuf),
}

/// `dir/rel`, where `rel` (a name read from input) must stay inside `dir`: a plain
/// relative name (no root, no `.` or `..` part) whose existing parts below `dir` include
/// no symbolic link, so that nothing is read or written outside `dir` through it.
pub fn confined(dir: &Path, rel: &str) -> std::result::Result<PathBuf, Outside> {
    let p = Path::new(rel);
    let plain = !rel.is_empty()
        && !rel.contains('\0')
        && p.components().all(|c| matches!(c, Component::Normal(_)));
    if !plain {
        return Err(Outside::Name);
    }
    let mut cur = dir.to_path_buf();
    for part in p.components() {
        cur.push(part);
        match fs::symlink_metadata(&cur) {
            Ok(m) if m.file_type().is_symlink() => return Err(Outside::Link(cur)),
            Ok(_) => {}
            Err(_) => break,
        }
    }
    Ok(dir.join(p))
}

/// Files written into an existing directory, all of them or none: each is written into a
/// hidden staging directory inside it as it is added, and [`FilesInto::commit`] moves
/// every one to its place with stops held back, so that a stop finds all of them moved or
/// none. Existing files of those names are replaced; nothing else in the directory is
/// touched. Each name must stay inside the directory ([`confined`]): checked when the
/// file is added and again just before it moves. Dropped uncommitted, the staging
/// directory is removed and the directory is as it was. Memory: one file at a time.
#[derive(Debug)]
pub struct FilesInto {
    dir: PathBuf,
    staging: Staging,
    names: Vec<String>,
}

impl FilesInto {
    /// Starts writing files into `dir` for `purpose` (names the hidden staging
    /// directory, `.<purpose>`, and its lock: two such writers of one purpose do not run
    /// at once).
    pub fn new(dir: &Path, purpose: &str) -> Result<FilesInto> {
        Ok(FilesInto {
            dir: dir.to_path_buf(),
            staging: Staging::new(&dir.join(format!(".{purpose}")), &|_| false, &[])?,
            names: Vec::new(),
        })
    }

    /// The place of `rel` below `root`, refused when it is not confined to it.
    fn place(root: &Path, rel: &str) -> Result<PathBuf> {
        confined(root, rel).map_err(|e| {
            Error::Refused(match e {
                Outside::Name => format!(
                    "{}: the name `{}` leaves the directory",
                    shown(root),
                    crate::error::quote(rel, 80)
                ),
                Outside::Link(p) => format!(
                    "{}: is a symbolic link; ldd-sets writes a directory's files only inside \
                     it, never through a link",
                    shown(&p)
                ),
            })
        })
    }

    /// Writes `bytes` as the file `rel` (a relative name) of the directory, staged.
    pub fn add(&mut self, rel: &str, bytes: &[u8]) -> Result<()> {
        Self::place(&self.dir, rel)?;
        let path = Self::place(self.staging.path(), rel)?;
        crate::fs::create_parent(&path)?;
        crate::fs::write(&path, bytes)?;
        self.names.push(rel.to_string());
        Ok(())
    }

    /// Moves every added file into place, with stops held back.
    pub fn commit(self) -> Result<()> {
        crate::cleanup::uninterrupted(|| {
            for rel in &self.names {
                let to = Self::place(&self.dir, rel)?;
                crate::fs::create_parent(&to)?;
                crate::fs::rename(&self.staging.path().join(rel), &to)?;
            }
            Ok(())
        })
    }
}

/// Writes `bytes` to `path` all-or-nothing (see [`AtomicFile`]).
pub fn write_bytes_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_file_atomic(path, |w| w.write_all(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_equal_to_or_holding_an_input_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("sub/model.fwd.ldda");
        std::fs::create_dir_all(input.parent().unwrap()).unwrap();
        std::fs::write(&input, "x").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&input, &link).unwrap();
        let hard = dir.path().join("hard");
        std::fs::hard_link(&input, &hard).unwrap();
        note_input(&input);
        for t in [
            &input,
            &link,
            &hard,
            &dir.path().join("sub/../sub/model.fwd.ldda"),
        ] {
            assert!(check_file_output(t, &[]).is_err(), "{}", t.display());
        }
        assert!(check_file_output(&dir.path().join("other"), &[]).is_ok());
        // Inputs given to the check, not noted: the same, by path or through a link.
        let given = dir.path().join("given.txt");
        std::fs::write(&given, "g").unwrap();
        let to_given = dir.path().join("to-given");
        std::os::unix::fs::symlink(&given, &to_given).unwrap();
        for t in [&given, &to_given] {
            let e = check_file_output(t, &[given.as_path()]).unwrap_err();
            assert!(e.to_string().contains("is the input"), "{e}");
        }
        assert!(check_file_output(&given, &[]).is_ok());
        // A directory is not a file output.
        let e = check_file_output(&dir.path().join("sub"), &[]).unwrap_err();
        assert!(e.to_string().contains("is a directory, not a file"), "{e}");
        assert!(check_dir_output(&dir.path().join("sub"), &[]).is_err());
        assert!(check_dir_output(dir.path(), &[]).is_err());
        assert!(check_dir_output(&dir.path().join("out"), &[]).is_ok());
        // A directory holding an input given to the check, not noted.
        let other = tempfile::tempdir().unwrap();
        let held = other.path().join("deep/held.txt");
        std::fs::create_dir_all(held.parent().unwrap()).unwrap();
        std::fs::write(&held, "h").unwrap();
        let e = check_dir_output(other.path(), &[held.as_path()]).unwrap_err();
        assert!(e.to_string().contains("contains the input"), "{e}");
        assert!(check_dir_output(other.path(), &[]).is_ok());
    }

    #[test]
    fn files_created_together_may_not_name_one_file() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
        std::fs::write(&a, "old").unwrap();
        std::fs::hard_link(&a, &b).unwrap();
        let same = [
            (a.clone(), a.clone()),
            (a.clone(), dir.path().join("./a.txt")),
            (a.clone(), b.clone()),
        ];
        for (x, y) in &same {
            let e = AtomicFile::create_all(&[x, y], &[]).unwrap_err();
            assert!(e.to_string().contains("name the same file"), "{e}");
        }
        // Nothing was started: no temporary beside them, the file unchanged.
        assert_eq!(names(dir.path()), ["a.txt", "b.txt"]);
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "old");
        // Two files, committed together.
        let c = dir.path().join("c.txt");
        let mut files = AtomicFile::create_all(&[&a, &c], &[]).unwrap();
        for (f, text) in files.iter_mut().zip(["new a", "new c"]) {
            f.write_all(text.as_bytes()).unwrap();
        }
        AtomicFile::commit_together(files).unwrap();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "new a");
        assert_eq!(std::fs::read_to_string(&c).unwrap(), "new c");
        assert_eq!(names(dir.path()), ["a.txt", "b.txt", "c.txt"]);
    }

    #[test]
    fn confined_names_stay_inside_and_never_pass_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir(d.join("sub")).unwrap();
        std::os::unix::fs::symlink("/tmp", d.join("link")).unwrap();
        assert_eq!(confined(d, "sub/new.txt"), Ok(d.join("sub/new.txt")));
        assert_eq!(confined(d, "not/yet/made"), Ok(d.join("not/yet/made")));
        for bad in ["", "/etc/passwd", "../x", "sub/../../x", "./x", "a\0b"] {
            assert_eq!(confined(d, bad), Err(Outside::Name), "{bad:?}");
        }
        assert_eq!(confined(d, "link/x"), Err(Outside::Link(d.join("link"))));
        assert_eq!(confined(d, "link"), Err(Outside::Link(d.join("link"))));
    }

    #[test]
    fn files_into_a_directory_move_all_together_or_none() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir(d.join("a")).unwrap();
        std::fs::write(d.join("a/old.txt"), "old").unwrap();
        std::fs::write(d.join("keep.txt"), "keep").unwrap();
        // Dropped uncommitted: the directory is as it was, no staging left behind.
        let before = names(d);
        let mut f = FilesInto::new(d, "test").unwrap();
        f.add("a/old.txt", b"new").unwrap();
        drop(f);
        assert_eq!(names(d), before);
        assert_eq!(std::fs::read_to_string(d.join("a/old.txt")).unwrap(), "old");
        // A name leaving the directory is refused when added; nothing moves.
        let mut f = FilesInto::new(d, "test").unwrap();
        f.add("a/old.txt", b"new").unwrap();
        assert!(matches!(f.add("../out.txt", b"x"), Err(Error::Refused(_))));
        drop(f);
        assert_eq!(names(d), before);
        // Committed: every file in place (parents made), the rest untouched.
        let mut f = FilesInto::new(d, "test").unwrap();
        f.add("a/old.txt", b"new").unwrap();
        f.add("b/c/made.txt", b"made").unwrap();
        f.commit().unwrap();
        assert_eq!(std::fs::read_to_string(d.join("a/old.txt")).unwrap(), "new");
        assert_eq!(
            std::fs::read_to_string(d.join("b/c/made.txt")).unwrap(),
            "made"
        );
        assert_eq!(std::fs::read_to_string(d.join("keep.txt")).unwrap(), "keep");
        assert_eq!(names(d), ["a", "b", "keep.txt"]);
    }

    /// The names in `d`, sorted.
    fn names(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn outputs_containing_inputs_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("out/corpus.de");
        fs::create_dir_all(input.parent().unwrap()).unwrap();
        fs::write(&input, "x\n").unwrap();
        let out = dir.path().join("out");
        let e = Staging::new(&out, &|_| true, &[&input]).unwrap_err();
        assert!(e.to_string().contains("contains the input"), "{e}");
        // Through a `..` detour too.
        let detour = dir.path().join("out/../out");
        assert!(Staging::new(&detour, &|_| true, &[&input]).is_err());
        assert!(input.exists());
        let e =
            AtomicFile::create_checked(&dir.path().join("out/./corpus.de"), &[&input]).unwrap_err();
        assert!(e.to_string().contains("is the input"), "{e}");
        assert!(Staging::new(&dir.path().join(".."), &|_| true, &[]).is_err());
    }

    #[test]
    fn a_symlink_as_output_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        fs::create_dir(&real).unwrap();
        fs::write(real.join("x"), "mine\n").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        // Even when the directory it points to would count as ours.
        let e = Staging::new(&link, &|_| true, &[]).unwrap_err();
        assert!(e.to_string().contains("is a symbolic link"), "{e}");
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(real.join("x")).unwrap(), "mine\n");
    }

    #[test]
    fn commit_swaps_and_nothing_is_left_behind() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        for round in 0..3 {
            let s = Staging::new(&out, &|d| d.join("mark").exists(), &[]).unwrap();
            fs::write(s.path().join("mark"), format!("{round}")).unwrap();
            s.commit(&|d| d.join("mark").exists()).unwrap();
            assert_eq!(
                fs::read_to_string(out.join("mark")).unwrap(),
                round.to_string()
            );
        }
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().flatten().collect();
        assert_eq!(left.len(), 1, "{left:?}");
        // Dropped uncommitted: nothing left either.
        let s = Staging::new(&out, &|_| true, &[]).unwrap();
        let p = s.path().to_path_buf();
        drop(s);
        assert!(!p.exists());
    }
}
