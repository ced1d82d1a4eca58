//! The inputs of this process, so that no output is ever one of them.
//!
//! Each command notes the files it was given to read ([`note_input`]: corpus sides,
//! parses, models, aligner models, training data, system outputs). Every output is then
//! checked against them when it is created and again when it is moved into place
//! ([`crate::AtomicFile`], [`crate::Staging`]): a file output that is an input (the same
//! path, or the same file through another name or a link) and a directory output that
//! contains an input are refused, whatever option named them.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::error::{Error, Result};
use crate::paths::resolved;
use crate::text::shown;

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

/// Refuses a file output `target` that is a noted input.
pub fn check_file_output(target: &Path) -> Result<()> {
    let t = resolved(target);
    let tid = file_id(target);
    for i in inputs().iter() {
        if i.resolved == t || (tid.is_some() && (i.id == tid || file_id(&i.given) == tid)) {
            return Err(Error::Refused(format!(
                "{}: this output is the input {} of the same command; writing it would destroy \
                 the input — choose another output",
                shown(target),
                shown(&i.given)
            )));
        }
    }
    Ok(())
}

/// Refuses a directory output `target` that is or contains a noted input.
pub fn check_dir_output(target: &Path) -> Result<()> {
    let t = resolved(target);
    for i in inputs().iter() {
        if i.resolved.starts_with(&t) {
            return Err(Error::Refused(format!(
                "{}: the output directory contains the input {} of the same command; it would \
                 be deleted when the output is replaced — choose another output",
                shown(target),
                shown(&i.given)
            )));
        }
    }
    Ok(())
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
            assert!(check_file_output(t).is_err(), "{}", t.display());
        }
        assert!(check_file_output(&dir.path().join("other")).is_ok());
        assert!(check_dir_output(&dir.path().join("sub")).is_err());
        assert!(check_dir_output(dir.path()).is_err());
        assert!(check_dir_output(&dir.path().join("out")).is_ok());
    }
}
