//! `align`'s files: the alignments of a corpus (Pharaoh, one line per pair) and, from the
//! HMM, the posterior of every link (one line per pair, one probability per link of the
//! Pharaoh line, in its order, 4 decimals). Written together, or not at all.

use std::io::Write as _;
use std::path::Path;

use ldd_align::Alignment;
use ldd_io::AtomicFile;

use crate::detect::alignment::{AlignOptions, ModelType};
use crate::error::{Error, Result};

/// The posteriors of one pair's links as a line: 4 decimals, space-separated.
pub fn posterior_line(p: &[f64]) -> String {
    let v: Vec<String> = p.iter().map(|x| format!("{x:.4}")).collect();
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
/// its target, removed if the run fails or is stopped) and moved into place together by
/// [`AlignFiles::write`].
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

    /// Writes `alignments` (Pharaoh, one line per pair) and the `posteriors` of their
    /// links, and moves both files into place together once both are written.
    pub fn write(self, alignments: &[Alignment], posteriors: Option<&[Vec<f64>]>) -> Result<()> {
        let mut files = Vec::new();
        if let Some(mut w) = self.out {
            for a in alignments {
                writeln!(w, "{}", ldd_align::pharaoh::format_line(a))
                    .map_err(|e| ldd_io::Error::io(w.target(), e))?;
            }
            files.push(w);
        }
        if let Some(mut w) = self.posteriors {
            let Some(post) = posteriors else {
                return Err(Error::Config(
                    "internal: link posteriors asked for but not computed".into(),
                ));
            };
            for p in post {
                writeln!(w, "{}", posterior_line(p))
                    .map_err(|e| ldd_io::Error::io(w.target(), e))?;
            }
            files.push(w);
        }
        AtomicFile::commit_together(files)?;
        Ok(())
    }
}
