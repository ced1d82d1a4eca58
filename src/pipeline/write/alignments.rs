//! `align`'s files: the alignments of a corpus (Pharaoh, one line per pair) and, from the
//! HMM, the posterior of every link (one line per pair, one probability per link of the
//! Pharaoh line, in its order, 4 decimals). Written together, or not at all.

use std::io::Write as _;
use std::path::Path;

use ldd_align::Link;
use ldd_io::AtomicFile;

use crate::error::{Error, Result};
use crate::pipeline::align::{AlignOptions, ModelType};

/// The posteriors of one pair's links as a line: 4 decimals, space-separated.
pub fn posterior_line(posteriors: &[f64]) -> String {
    let v: Vec<String> = posteriors.iter().map(|x| format!("{x:.4}")).collect();
    v.join(" ")
}

/// The directories of the files of the aligner model `opts` saves (`--save-align-model`;
/// [`crate::layout::model_files`]), created before any work rather than after training.
pub fn create_model_dirs(opts: &AlignOptions) -> Result<()> {
    if let Some(prefix) = &opts.save_model {
        for f in crate::layout::model_files(prefix, opts.model_type == ModelType::Hmm) {
            ldd_io::fs::create_parent(&f)?;
        }
    }
    Ok(())
}

/// `align`'s output files, started before any work (each a hidden temporary file beside
/// its target, removed if the run fails or is stopped), written a pair at a time
/// ([`AlignFiles::line`]) and moved into place together by [`AlignFiles::commit`].
#[derive(Debug)]
pub struct AlignFiles {
    out: Option<AtomicFile>,
    posteriors: Option<AtomicFile>,
}

impl AlignFiles {
    /// Starts writing `out` and `posteriors` (`None`: no such file), refusing outputs
    /// that would destroy an input or each other: either naming one of `inputs` (the same
    /// path, a link or a hard link), or both naming the same file.
    pub fn create(
        out: Option<&Path>,
        posteriors: Option<&Path>,
        inputs: &[&Path],
    ) -> Result<AlignFiles> {
        let targets: Vec<&Path> = out.into_iter().chain(posteriors).collect();
        let mut files = AtomicFile::create_all(&targets, inputs)?.into_iter();
        Ok(AlignFiles {
            out: out.and_then(|_| files.next()),
            posteriors: posteriors.and_then(|_| files.next()),
        })
    }

    /// Writes the alignment of the next pair (Pharaoh) and the posteriors of its links
    /// (needed when the posteriors file was asked for).
    pub fn line(&mut self, links: &[Link], posteriors: Option<&[f64]>) -> Result<()> {
        if let Some(w) = &mut self.out {
            writeln!(w, "{}", ldd_align::pharaoh::format_line(links))
                .map_err(|e| ldd_io::Error::io(w.target(), e))?;
        }
        if let Some(w) = &mut self.posteriors {
            let Some(post) = posteriors else {
                return Err(Error::Config(
                    "internal: link posteriors asked for but not computed".into(),
                ));
            };
            writeln!(w, "{}", posterior_line(post))
                .map_err(|e| ldd_io::Error::io(w.target(), e))?;
        }
        Ok(())
    }

    /// Moves both files into place together, once every line is written.
    pub fn commit(self) -> Result<()> {
        AtomicFile::commit_together(self.out.into_iter().chain(self.posteriors).collect())?;
        Ok(())
    }
}
