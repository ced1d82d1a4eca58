//! Finding (and if allowed, downloading) a UDPipe model file.

use std::path::{Path, PathBuf};

use crate::error::{ParseError, Result};

/// Where the official UDPipe 1 models for UD 2.5 are published (LINDAT, handle 11234/1-3131).
pub const DEFAULT_MODEL_BASE_URL: &str =
    "https://lindat.mff.cuni.cz/repository/xmlui/bitstream/handle/11234/1-3131";

/// Environment variable naming the models directory.
pub const MODELS_ENV: &str = "LDD_SETS_MODELS";

/// The models directory: `$LDD_SETS_MODELS`, else `$XDG_CACHE_HOME/ldd-sets/models`, else
/// `$HOME/.cache/ldd-sets/models` (empty variables count as unset).
pub fn default_models_dir() -> Result<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var(MODELS_ENV) {
        return Ok(PathBuf::from(dir));
    }
    if let Some(dir) = var("XDG_CACHE_HOME") {
        return Ok(Path::new(&dir).join("ldd-sets").join("models"));
    }
    if let Some(home) = var("HOME") {
        return Ok(Path::new(&home).join(".cache/ldd-sets/models"));
    }
    Err(ParseError::NoModelsDir)
}

/// Finds the model file to use.
///
/// 1. `explicit` (e.g. `--model`) wins and must exist.
/// 2. Else `<models_dir>/<name>` if it exists.
/// 3. Else, if `allow_download`, downloads `url` (default: [`DEFAULT_MODEL_BASE_URL`]`/<name>`)
///    to a temp file in `models_dir` that is renamed to `<models_dir>/<name>` when complete,
///    with a message on stderr.
///
/// Otherwise fails with [`ParseError::ModelNotFound`], naming every path looked at and how to
/// get the model.
pub fn resolve_model(
    explicit: Option<&Path>,
    name: &str,
    models_dir: &Path,
    url: Option<&str>,
    allow_download: bool,
) -> Result<PathBuf> {
    if let Some(p) = explicit {
        if p.is_file() {
            return Ok(p.to_owned());
        }
        return Err(ParseError::ModelNotFound(format!(
            "UDPipe model {} (given explicitly) does not exist or is not a file",
            p.display()
        )));
    }
    let target = models_dir.join(name);
    if target.is_file() {
        return Ok(target);
    }
    let url = url.map_or_else(|| format!("{DEFAULT_MODEL_BASE_URL}/{name}"), str::to_owned);
    let why = if allow_download {
        match download(&url, models_dir, &target) {
            Ok(()) => return Ok(target),
            Err(e) => format!("downloading it failed: {e}"),
        }
    } else {
        "downloading is disabled".to_owned()
    };
    Err(ParseError::ModelNotFound(format!(
        "UDPipe model {name} not found; looked at: {} ({MODELS_ENV} / default models directory); \
         {why}. Get it from {url} and put it at {}, or pass --model PATH, or set {MODELS_ENV} \
         to the directory holding it",
        target.display(),
        target.display(),
    )))
}

/// Downloads `url` into `models_dir` (temp file, then rename to `target`).
fn download(url: &str, models_dir: &Path, target: &Path) -> std::result::Result<(), String> {
    std::fs::create_dir_all(models_dir)
        .map_err(|e| format!("cannot create {}: {e}", models_dir.display()))?;
    let tmp = tempfile::Builder::new()
        .prefix(".download-")
        .suffix(".udpipe.tmp")
        .tempfile_in(models_dir)
        .map_err(|e| format!("cannot create a temp file in {}: {e}", models_dir.display()))?;
    eprintln!(
        "ldd-sets: downloading UDPipe model {url} -> {} ...",
        target.display()
    );
    udpipe_rs::download_model_from_url(url, tmp.path()).map_err(|e| e.message)?;
    tmp.persist(target)
        .map_err(|e| format!("cannot rename to {}: {}", target.display(), e.error))?;
    eprintln!("ldd-sets: model saved to {}", target.display());
    Ok(())
}
