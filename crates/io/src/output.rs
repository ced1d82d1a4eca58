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
//!   output that is one of the inputs is refused.
//!
//! Temporary names are `.<name>.ldd-tmp-<pid>-<n>`; they are registered for removal on
//! SIGINT/SIGTERM ([`crate::cleanup`]) and reaped by the next run if their process died.
//! Files and directories are created with the process umask, so finished outputs have the
//! permissions of any file the user creates.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

use crate::cleanup::{create_registered, reap_stale, Registration};
use crate::error::{Error, Result};
use crate::lock::Lock;
use crate::paths::tmp_sibling;
pub use crate::paths::STAGING_MARKER;
pub use crate::paths::{parent_dir, resolved};
use crate::text::shown;

/// Refuses an output directory `target` that is or contains one of `inputs`: replacing it
/// would delete the input.
pub fn refuse_containing(target: &Path, inputs: &[&Path]) -> Result<()> {
    let t = resolved(target);
    for input in inputs {
        let i = resolved(input);
        if i.starts_with(&t) {
            return Err(Error::Refused(format!(
                "{}: the output directory contains the input {}; it would be deleted when the \
                 output is replaced — choose another --out",
                shown(target),
                shown(input)
            )));
        }
    }
    Ok(())
}

/// Whether `a` and `b` name the same file: the same path once resolved, or (when both
/// exist) the same file through a link or hard link.
pub fn same_file(a: &Path, b: &Path) -> bool {
    let same_inode = match (fs::metadata(a), fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    };
    same_inode || resolved(a) == resolved(b)
}

/// Refuses an output file `target` that is one of `inputs` (same path or same file).
pub fn refuse_same_file(target: &Path, inputs: &[&Path]) -> Result<()> {
    for input in inputs {
        if same_file(target, input) {
            return Err(Error::Refused(format!(
                "{}: the output is the input {}; writing it would destroy the input — choose \
                 another output file",
                shown(target),
                shown(input)
            )));
        }
    }
    Ok(())
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
        let parent = parent_dir(target);
        fs::create_dir_all(&parent).map_err(|e| Error::io(&parent, e))?;
        let lock = Lock::acquire(target)?;
        check_replaceable(target, is_ours)?;
        refuse_containing(target, inputs)?;
        crate::identity::check_dir_output(target)?;
        reap_stale(target);
        loop {
            let dir = tmp_sibling(target);
            // The marker inside says that ldd-sets made the directory: only such directories
            // are ever reaped as stale (`cleanup::reap_stale`).
            let made = |d: &Path| {
                fs::create_dir(d)?;
                fs::write(d.join(STAGING_MARKER), std::process::id().to_string())
            };
            match create_registered(&dir, true, made) {
                Ok(reg) => {
                    return Ok(Staging {
                        dir,
                        target: target.to_path_buf(),
                        reg: Some(reg),
                        _lock: lock,
                    })
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(Error::io(&parent, e)),
            }
        }
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
        crate::identity::check_dir_output(&target)?;
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
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::ffi::CString;
        use std::os::unix::ffi::OsStrExt;
        let ca = CString::new(a.as_os_str().as_bytes())?;
        let cb = CString::new(b.as_os_str().as_bytes())?;
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
    let aside = tmp_sibling(b);
    fs::rename(b, &aside)?;
    if let Err(e) = fs::rename(a, b) {
        let _ = fs::rename(&aside, b);
        return Err(e);
    }
    fs::rename(&aside, a)
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
        refuse_same_file(target, inputs)?;
        crate::identity::check_file_output(target)?;
        if fs::symlink_metadata(target).is_ok_and(|m| m.is_dir()) {
            return Err(Error::Refused(format!(
                "{}: is a directory, not a file",
                shown(target)
            )));
        }
        reap_stale(target);
        loop {
            let tmp = tmp_sibling(target);
            let mut file = None;
            let made = create_registered(&tmp, false, |t| {
                file = Some(
                    fs::OpenOptions::new()
                        .write(true)
                        .create_new(true)
                        .open(t)?,
                );
                Ok(())
            });
            match made.and_then(|reg| {
                file.take()
                    .map(|f| (f, reg))
                    .ok_or_else(|| std::io::Error::other("temporary file not opened"))
            }) {
                Ok((f, reg)) => {
                    return Ok(AtomicFile {
                        tmp,
                        target: target.to_path_buf(),
                        writer: Some(BufWriter::with_capacity(1 << 16, f)),
                        reg: Some(reg),
                    })
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(Error::io(&parent_dir(target), e)),
            }
        }
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
        crate::identity::check_file_output(&self.target)?;
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
        for f in &mut files {
            f.sync()?;
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
        refuse_same_file(path, inputs)?;
        if path.exists() && !is_ours(path) {
            return Err(Error::Refused(format!(
                "{}: exists and was not written by `{owner}`; refusing to replace it — \
                 choose another --out",
                shown(path)
            )));
        }
    }
    let made = crate::fs::create_output_dir(dir)?;
    let mut open = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        let mut f = AtomicFile::create(path)?;
        f.write_all(bytes).map_err(|e| Error::io(path, e))?;
        open.push(f);
    }
    AtomicFile::commit_into(open, made)
}

/// Writes `bytes` to `path` all-or-nothing (see [`AtomicFile`]).
pub fn write_bytes_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_file_atomic(path, |w| w.write_all(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

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
