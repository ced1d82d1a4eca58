//! Outputs a user names: the one guard every option whose value ldd-sets writes to goes
//! through, whatever the command.
//!
//! Each such option has the value type [`Output`] (clap builds it with the option's
//! [`OutputKind`]), and the command line checks every one of them with [`Output::check`]
//! before any work, the same checks for a file as for a directory: never a symbolic link
//! (replacing it would replace the link, not what it points to), never anything but what
//! the output is (a regular file, a directory), never an input of the command, and an
//! existing file or directory only if the kind recognises it as an earlier output of its
//! own ([`OutputKind::is_ours`]) — or, for a format with no room to say who wrote it
//! (Pharaoh alignments, CoNLL-U), only when the command's `--replace` says so and it reads
//! as that format. The writing itself is all-or-nothing ([`crate::AtomicFile`],
//! [`crate::Staging`]). A test of the command line enumerates every option of every
//! command from clap's definitions and tries each output on a user's file and a link, so a
//! new option cannot escape.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{shown, Error, Result};
use crate::output::{
    check_dir_output, check_file_output, check_replaceable_file, without_trailing_slash,
};

/// What a user-named output is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A file replaced whole (`align --out`, `report --out`, a model prefix's files).
    File,
    /// A file updated in place (`check-detection --record`): read, changed and written back
    /// whole, one writer at a time ([`crate::cleanup::Lock::wait`]).
    Updated,
    /// A directory replaced whole (`extract --out`, `contrast --out`).
    Dir,
    /// A directory that files are added to, each its own output (`score --out`, a cache,
    /// `corpora --dir`): created when absent; what is in it is each file's guard's.
    Into,
}

/// How the guard treats the outputs of one option.
#[derive(Debug)]
pub struct OutputKind {
    /// The command and option, named in refusals (`ldd-sets align --out`).
    pub owner: &'static str,
    /// What it is.
    pub shape: Shape,
    /// Whether an existing file or directory at the path is an earlier output of this kind
    /// that may be replaced without asking (`File`, `Updated`, `Dir`).
    pub is_ours: fn(&Path) -> bool,
    /// For a format with no room to say who wrote it: whether an existing file reads as that
    /// format, which `--replace` may then replace (`None`: never without `is_ours`).
    pub replaceable_with_flag: Option<fn(&Path) -> bool>,
    /// The files written for the value (a model prefix's files); `None`: the value itself.
    pub files: Option<fn(&Path) -> Vec<PathBuf>>,
    /// For a directory: the names its owner writes in it, so that a refusal lists the
    /// files someone else added (`None`: not listed).
    pub entries: Option<fn(&str) -> bool>,
}

/// A path given for an output: the value type of every option whose value is written to.
#[derive(Clone, Debug)]
pub struct Output {
    path: PathBuf,
    kind: &'static OutputKind,
}

impl PartialEq for Output {
    fn eq(&self, other: &Output) -> bool {
        self.path == other.path && std::ptr::eq(self.kind, other.kind)
    }
}

impl Output {
    /// The output `path` of `kind`.
    pub fn new(path: impl Into<OsString>, kind: &'static OutputKind) -> Output {
        Output {
            path: PathBuf::from(path.into()),
            kind,
        }
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The kind.
    pub fn kind(&self) -> &'static OutputKind {
        self.kind
    }

    /// The files written for this value: the path itself, or a prefix's files.
    pub fn files(&self) -> Vec<PathBuf> {
        match self.kind.files {
            Some(f) => f(&self.path),
            None => vec![self.path.clone()],
        }
    }

    /// The guard: refuses the output if it may not be written — see the module's docs.
    /// `replace`: the command's `--replace` was given. `inputs`: the command's inputs
    /// besides those noted ([`crate::output::note_input`]).
    pub fn check(&self, replace: bool, inputs: &[&Path]) -> Result<()> {
        match self.kind.shape {
            Shape::File | Shape::Updated => self
                .files()
                .iter()
                .try_for_each(|f| self.check_file(f, replace, inputs)),
            Shape::Dir => self.check_dir(inputs),
            Shape::Into => self.check_into(),
        }
    }

    fn check_file(&self, file: &Path, replace: bool, inputs: &[&Path]) -> Result<()> {
        let kind = self.kind;
        let format = |p: &Path| kind.replaceable_with_flag.is_some_and(|f| f(p));
        let ours = |p: &Path| (kind.is_ours)(p) || (replace && format(p));
        check_file_output(&without_trailing_slash(file), inputs)?;
        match check_replaceable_file(file, kind.owner, &ours, inputs) {
            Err(Error::Refused(_)) if !replace && format(file) && !is_link(file) => {
                Err(Error::Refused(format!(
                    "{}: exists, and ldd-sets cannot tell whether `{}` wrote it (the format \
                     has no room to say so): pass --replace to replace it, or choose another \
                     file",
                    shown(file),
                    kind.owner
                )))
            }
            other => other,
        }
    }

    fn check_dir(&self, inputs: &[&Path]) -> Result<()> {
        let dir = without_trailing_slash(&self.path);
        check_dir_output(&dir, inputs)?;
        match fs::symlink_metadata(&dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(Error::io(&dir, e)),
            Ok(m) if m.file_type().is_symlink() => Err(Error::Refused(format!(
                "{}: is a symbolic link; give the directory it points to as the output \
                 (a link is never replaced)",
                shown(&dir)
            ))),
            Ok(m) if !m.is_dir() => Err(Error::Refused(format!(
                "{}: exists and is not a directory",
                shown(&dir)
            ))),
            Ok(_) if is_empty_dir(&dir) || (self.kind.is_ours)(&dir) => Ok(()),
            Ok(_) => Err(self.not_ours(&dir)),
        }
    }

    /// The refusal of a directory that is not this kind's to replace: the files in it that
    /// its owner does not write, when it says which those are.
    fn not_ours(&self, dir: &Path) -> Error {
        let foreign = self
            .kind
            .entries
            .map(|known| foreign_entries(dir, &known))
            .unwrap_or_default();
        if !foreign.is_empty() && foreign.len() < fs::read_dir(dir).map_or(0, |d| d.count()) {
            let names: Vec<String> = foreign
                .iter()
                .take(8)
                .map(|n| crate::error::escape(n).into_owned())
                .collect();
            let more = if foreign.len() > 8 { ", …" } else { "" };
            return Error::Refused(format!(
                "{}: holds files that `{}` did not write ({}{more}); replacing the directory \
                 would delete them — move them elsewhere, or choose another directory",
                shown(dir),
                self.kind.owner,
                names.join(", ")
            ));
        }
        Error::Refused(format!(
            "{}: directory is not empty and is not an ldd-sets output (of `{}`); refusing \
             to replace it — choose another directory or remove it",
            shown(dir),
            self.kind.owner
        ))
    }

    fn check_into(&self) -> Result<()> {
        match fs::metadata(&self.path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(Error::io(&self.path, e)),
            Ok(m) if m.is_dir() => Ok(()),
            Ok(_) => Err(Error::Refused(format!(
                "{}: exists and is not a directory — it is a file, not a directory; `{}` \
                 writes files into a directory: give a directory",
                shown(&self.path),
                self.kind.owner
            ))),
        }
    }
}

impl std::ops::Deref for Output {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl From<Output> for PathBuf {
    fn from(output: Output) -> PathBuf {
        output.path
    }
}

impl AsRef<Path> for Output {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

/// A hidden name of ldd-sets' own: a lock, a temporary file or a staging directory.
fn ours_beside(name: &str) -> bool {
    name.starts_with('.') && name.contains(".ldd-")
}

fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

fn is_empty_dir(dir: &Path) -> bool {
    fs::read_dir(dir).is_ok_and(|mut e| e.next().is_none())
}

/// The entries of the directory `dir` (names) that `known` does not recognise as what its
/// owner writes there: files a user added to an output, which replacing the directory
/// would delete. Hidden names of ldd-sets' own (`.*.ldd-*`) are not counted.
pub fn foreign_entries(dir: &Path, known: &dyn Fn(&str) -> bool) -> Vec<String> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !(known(n) || ours_beside(n)))
        .collect();
    v.sort();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn never(_: &Path) -> bool {
        false
    }
    fn pharaoh(p: &Path) -> bool {
        fs::read_to_string(p).is_ok_and(|t| t.lines().all(|l| !l.starts_with('#')))
    }
    static PLAIN: OutputKind = OutputKind {
        owner: "ldd-sets test --out",
        shape: Shape::File,
        is_ours: never,
        replaceable_with_flag: Some(pharaoh),
        files: None,
        entries: None,
    };
    static DIR: OutputKind = OutputKind {
        owner: "ldd-sets test --out",
        shape: Shape::Dir,
        is_ours: never,
        replaceable_with_flag: None,
        files: None,
        entries: Some(|n| n == "y"),
    };

    #[test]
    fn a_users_file_a_link_and_a_foreign_directory_are_refused() {
        let t = tempfile::tempdir().unwrap();
        let notes = t.path().join("notes.txt");
        fs::write(&notes, "# mine\n").unwrap();
        let link = t.path().join("link.txt");
        std::os::unix::fs::symlink(&notes, &link).unwrap();
        let out = |p: &Path| Output::new(p, &PLAIN);
        assert!(out(&t.path().join("new.txt")).check(false, &[]).is_ok());
        for replace in [false, true] {
            let e = out(&notes).check(replace, &[]).unwrap_err().to_string();
            assert!(e.contains("was not written by"), "{e}");
            let e = out(&link).check(replace, &[]).unwrap_err().to_string();
            assert!(e.contains("symbolic link"), "{e}");
        }
        let aligned = t.path().join("a.txt");
        fs::write(&aligned, "0-0 1-1\n").unwrap();
        let e = out(&aligned).check(false, &[]).unwrap_err().to_string();
        assert!(
            e.contains("cannot tell whether") && e.contains("pass --replace"),
            "{e}"
        );
        assert!(out(&aligned).check(true, &[]).is_ok());
        assert!(out(&aligned).check(true, &[&aligned]).is_err());
        let d = t.path().join("d");
        fs::create_dir(&d).unwrap();
        assert!(Output::new(&d, &DIR).check(false, &[]).is_ok());
        fs::write(d.join("x"), "").unwrap();
        let e = Output::new(&d, &DIR).check(false, &[]).unwrap_err();
        assert!(e.to_string().contains("not an ldd-sets output"), "{e}");
        assert_eq!(foreign_entries(&d, &|n| n == "y"), ["x"]);
        assert!(foreign_entries(&d, &|n| n == "x").is_empty());
    }
}
