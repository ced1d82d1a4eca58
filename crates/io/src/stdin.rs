//! Standard input as a file: `--hyp -` (sacreBLEU reads a system from standard input).
//!
//! A command that takes `-` copies standard input once, through [`Input`] (so its lines are
//! checked as a file's are: UTF-8, the line-length limit, at most one line past the lines
//! it may have), into a temporary file ([`StdinCopy::read`]). While that copy lives,
//! [`Input::open`] and [`crate::sha256_file`] of the path `-` read it, as often as the
//! command needs, and name it `-` in every message. The copy is removed when the
//! [`StdinCopy`] is dropped, or by a stop ([`crate::cleanup`]).

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use crate::cleanup::{create_registered, Registration};
use crate::error::{Error, Result};
use crate::input::{set_stdin_copy, Input, STDIN};

/// Standard input, read once and kept in a temporary file for as long as this lives.
#[derive(Debug)]
pub struct StdinCopy {
    path: PathBuf,
    registration: Option<Registration>,
}

/// Passes bytes on and writes each to `copy` too.
struct Tee<R> {
    inner: R,
    copy: File,
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.copy.write_all(&buf[..n])?;
        Ok(n)
    }
}

impl StdinCopy {
    /// Reads standard input to its end, or to its line `max_lines + 1` (a line more than
    /// it may have: the reader that counts its lines then says it has too many), into a
    /// temporary file that [`Input::open`] of `-` reads from now on.
    pub fn read(max_lines: u64) -> Result<StdinCopy> {
        Self::read_from(io::stdin(), max_lines)
    }

    /// [`StdinCopy::read`] of `reader` instead of standard input.
    pub fn read_from(reader: impl Read, max_lines: u64) -> Result<StdinCopy> {
        let dir = std::env::temp_dir();
        let mut k = 0u32;
        let (path, registration) = loop {
            let path = dir.join(format!("ldd-sets-stdin.{}.{k}", std::process::id()));
            let made = create_registered(&path, false, |p| {
                File::options()
                    .write(true)
                    .create_new(true)
                    .open(p)
                    .map(|_| ())
            });
            match made {
                Ok(r) => break (path, r),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && k < 1000 => k += 1,
                Err(e) => return Err(Error::io(&path, e)),
            }
        };
        let copy = StdinCopy {
            path: path.clone(),
            registration: Some(registration),
        };
        let file = File::options()
            .write(true)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        let tee = Tee {
            inner: reader,
            copy: file,
        };
        let mut input = Input::from_reader(Path::new(STDIN), tee)?;
        let mut n = 0u64;
        while n <= max_lines && input.next_line()?.is_some() {
            n += 1;
        }
        set_stdin_copy(None, Some(path));
        Ok(copy)
    }
}

impl Drop for StdinCopy {
    fn drop(&mut self) {
        set_stdin_copy(Some(&self.path), None);
        if let Some(r) = self.registration.take() {
            r.remove();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The copy reads as the input did, as often as asked, named `-`; it stops a line past
    /// the limit, and goes with its owner.
    #[test]
    fn standard_input_reads_as_a_file_while_its_copy_lives() {
        assert!(Input::open(Path::new(STDIN)).is_err());
        let copy = StdinCopy::read_from(&b"a\nb\nc\nd\n"[..], 2).unwrap();
        for _ in 0..2 {
            let mut i = Input::open(Path::new(STDIN)).unwrap();
            let mut lines = Vec::new();
            while let Some(l) = i.next_line().unwrap() {
                lines.push(l.to_string());
            }
            // Line 3 shows there are too many; line 4 is never needed.
            assert!(lines.starts_with(&["a".into(), "b".into(), "c".into()]));
            assert_eq!(i.path(), Path::new("-"));
        }
        let kept = copy.path.clone();
        drop(copy);
        assert!(!kept.exists());
        assert!(Input::open(Path::new(STDIN)).is_err());
        let e = StdinCopy::read_from(&b"ok\n\xff\n"[..], 9).unwrap_err();
        assert!(e.to_string().contains("-"), "{e}");
    }
}
