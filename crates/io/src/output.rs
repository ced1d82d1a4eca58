//! The one way ldd-sets writes: outputs appear whole or not at all.
//!
//! - A directory output (the sets of a run) is written into a hidden staging directory
//!   beside it, [`Staging`], and swapped into place by [`Staging::commit`] only when
//!   complete. An existing directory is replaced only if the caller recognises it as its
//!   own output.
//! - A file output (alignments, a parse, scores) is written by [`write_file_atomic`] to a
//!   hidden temporary file in the same directory and renamed over the target when complete.
//!
//! Temporary names are `.<name>.ldd-tmp-<pid>-<n>`, created with the process umask (so
//! finished outputs have the same permissions as any file the user creates).

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};
use crate::text::shown;

/// Marker in the names of temporary files and directories.
pub const TMP_MARK: &str = ".ldd-tmp-";

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// The directory holding `path` (`.` for a bare file name).
pub fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The file name of `path` as text (for building sibling names).
fn base_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into())
}

/// A fresh hidden sibling name of `target` for temporary use: `.<name>.ldd-tmp-<pid>-<n>`.
fn tmp_sibling(target: &Path) -> PathBuf {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    parent_dir(target).join(format!(
        ".{}{TMP_MARK}{}-{n}",
        base_name(target),
        std::process::id()
    ))
}

/// A hidden directory that becomes the output directory on [`Staging::commit`]; removed
/// if dropped uncommitted.
#[derive(Debug)]
pub struct Staging {
    dir: PathBuf,
    target: PathBuf,
    done: bool,
}

impl Staging {
    /// Checks that `target` may be (re)written — it does not exist, is an empty
    /// directory, or `is_ours` accepts it — and creates the staging directory beside it.
    pub fn new(target: &Path, is_ours: &dyn Fn(&Path) -> bool) -> Result<Staging> {
        check_replaceable(target, is_ours)?;
        let parent = parent_dir(target);
        fs::create_dir_all(&parent).map_err(|e| Error::io(&parent, e))?;
        loop {
            let dir = tmp_sibling(target);
            match fs::create_dir(&dir) {
                Ok(()) => {
                    return Ok(Staging {
                        dir,
                        target: target.to_path_buf(),
                        done: false,
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
        check_replaceable(&target, is_ours)?;
        if target.exists() {
            // Move the old output aside first, so the target never holds a mix.
            let old = tmp_sibling(&target);
            fs::rename(&target, &old).map_err(|e| Error::io(&target, e))?;
            if let Err(e) = fs::rename(&self.dir, &target) {
                let _ = fs::rename(&old, &target);
                return Err(Error::io(&target, e));
            }
            self.done = true;
            fs::remove_dir_all(&old).map_err(|e| Error::io(&old, e))?;
        } else {
            fs::rename(&self.dir, &target).map_err(|e| Error::io(&target, e))?;
            self.done = true;
        }
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.done {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

/// `target` may be written if it does not exist, is an empty directory, or `is_ours`
/// recognises it as a previous output.
fn check_replaceable(target: &Path, is_ours: &dyn Fn(&Path) -> bool) -> Result<()> {
    let meta = match fs::symlink_metadata(target) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io(target, e)),
    };
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
}

impl AtomicFile {
    /// Starts writing `target`.
    pub fn create(target: &Path) -> Result<AtomicFile> {
        loop {
            let tmp = tmp_sibling(target);
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)
            {
                Ok(f) => {
                    return Ok(AtomicFile {
                        tmp,
                        target: target.to_path_buf(),
                        writer: Some(BufWriter::with_capacity(1 << 16, f)),
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

    /// Flushes and syncs the data and renames the file into place.
    pub fn commit(mut self) -> Result<()> {
        let Some(w) = self.writer.take() else {
            return Ok(());
        };
        let file = w
            .into_inner()
            .map_err(|e| Error::io(&self.target, e.into_error()))?;
        file.sync_all().map_err(|e| Error::io(&self.target, e))?;
        drop(file);
        fs::rename(&self.tmp, &self.target).map_err(|e| Error::io(&self.target, e))?;
        self.tmp = PathBuf::new();
        Ok(())
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
        if !self.tmp.as_os_str().is_empty() {
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

/// Writes `bytes` to `path` all-or-nothing (see [`AtomicFile`]).
pub fn write_bytes_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_file_atomic(path, |w| w.write_all(bytes))
}
