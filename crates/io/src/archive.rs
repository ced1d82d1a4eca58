//! Corpus downloads unpacked: a member of a zip or tar.gz archive read as an [`Input`] (so
//! it gets the same UTF-8, BOM, CRLF and line-length checks as any file), and lines
//! written as a gzip file that appears whole or not at all. With [`crate::input`], the
//! only code that decompresses.

use std::io::{Read, Write};
use std::path::Path;

use flate2::write::GzEncoder;

use crate::error::{Error, Result};
use crate::input::Input;
use crate::output::AtomicFile;

/// The archive formats a corpus download may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Archive {
    /// A zip archive.
    Zip,
    /// A gzip-compressed tar archive.
    Tgz,
}

/// Writes the member `member` of the archive at `path` as gzip to a temporary file for
/// `target`; returns it, complete but not yet in place, and its number of lines. An archive
/// that cannot be read, or has no such member, is an [`Error::Input`] naming the archive.
pub fn gzip_member(
    path: &Path,
    format: Archive,
    member: &str,
    target: &Path,
) -> Result<(AtomicFile, u64)> {
    let bad = |what: String| Error::input(path, 0, what);
    // A link's text is a path, not the corpus: reading it would give an empty or wrong side.
    let not_a_file = |member: &str| {
        bad(format!(
            "member `{}` is a link or not a regular file; an archive's corpus files must be \
             stored as files",
            crate::error::quote(member, 200)
        ))
    };
    match format {
        Archive::Zip => {
            let file = crate::fs::open_raw(path)?;
            let mut z =
                zip::ZipArchive::new(file).map_err(|e| bad(format!("not a zip archive: {e}")))?;
            let entry = z
                .by_name(member)
                .map_err(|e| bad(format!("no member `{member}`: {e}")))?;
            if entry.is_symlink() || !entry.is_file() {
                return Err(not_a_file(member));
            }
            let written = gzip_lines(Input::from_reader(Path::new(member), entry)?, target);
            written
        }
        Archive::Tgz => {
            let mut tar = tar::Archive::new(Input::open(path)?);
            let not_tgz = |e: std::io::Error| bad(format!("not a tar.gz archive: {e}"));
            for entry in tar.entries().map_err(not_tgz)? {
                let entry = entry.map_err(not_tgz)?;
                let name = entry.path().map_err(not_tgz)?;
                if name.to_string_lossy().trim_start_matches("./") == member {
                    let kind = entry.header().entry_type();
                    if !matches!(kind, tar::EntryType::Regular | tar::EntryType::Continuous) {
                        return Err(not_a_file(member));
                    }
                    return gzip_lines(Input::from_reader(Path::new(member), entry)?, target);
                }
            }
            Err(bad(format!("no member `{member}`")))
        }
    }
}

/// Writes the lines of `input` as gzip to a temporary file for `target`; returns it,
/// complete but not yet in place (commit it, alone or with [`AtomicFile::commit_together`]),
/// and the number of lines.
pub fn gzip_lines<R: Read>(mut input: Input<R>, target: &Path) -> Result<(AtomicFile, u64)> {
    let mut w = GzEncoder::new(AtomicFile::create(target)?, flate2::Compression::default());
    while let Some(line) = input.next_line()? {
        w.write_all(line.as_bytes())
            .and_then(|_| w.write_all(b"\n"))
            .map_err(|e| Error::io(target, e))?;
    }
    let file = w.finish().map_err(|e| Error::io(target, e))?;
    Ok((file, input.line_no()))
}
