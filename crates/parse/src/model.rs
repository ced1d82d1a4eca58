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

/// The most bytes a downloaded model may have (the largest UDPipe 2.5 model is far smaller).
pub const MAX_MODEL_BYTES: u64 = 2 << 30;

/// Where a model can be downloaded from, and what the download must be.
#[derive(Debug, Clone, Copy, Default)]
pub struct ModelSource<'a> {
    /// Download URL (default: [`DEFAULT_MODEL_BASE_URL`]`/<name>`).
    pub url: Option<&'a str>,
    /// SHA-256 of the published file, where known: checked on download and on every use.
    pub sha256: Option<&'a str>,
    /// Size in bytes of the published file, where known.
    pub size: Option<u64>,
}

/// Finds the model file to use.
///
/// 1. `explicit` (e.g. `--model`) wins and must exist.
/// 2. Else `<models_dir>/<name>` if it exists (and has `source.sha256`, when known).
/// 3. Else, if `allow_download`, downloads `source.url` (default:
///    [`DEFAULT_MODEL_BASE_URL`]`/<name>`) to a temporary file in `models_dir`, checks it
///    (not an HTML page, the size and SHA-256 when known, and it must load as a UDPipe
///    model) and only then renames it to `<models_dir>/<name>`, telling `say` what it
///    downloads and where it saved it (one line each, no newline; the crate prints nothing).
///    A download that fails any check leaves nothing behind.
///
/// Otherwise fails with [`ParseError::ModelNotFound`], naming every path looked at and how to
/// get the model (the caller adds how to name a file on its command line).
pub fn resolve_model(
    explicit: Option<&Path>,
    name: &str,
    models_dir: &Path,
    source: &ModelSource,
    allow_download: bool,
    say: &dyn Fn(&str),
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
    if Path::new(name).file_name().and_then(|n| n.to_str()) != Some(name) || name.starts_with('.') {
        return Err(ParseError::ModelNotFound(format!(
            "UDPipe model name `{}` is not a plain file name",
            name.escape_debug()
        )));
    }
    let target = models_dir.join(name);
    if target.is_file() {
        if let Some(want) = source.sha256 {
            let (got, _) = ldd_io::sha256_file(&target)?;
            if !got.eq_ignore_ascii_case(want) {
                return Err(ParseError::ModelNotFound(format!(
                    "UDPipe model {} has SHA-256 {got}, but the published {name} has {}: the file \
                     is corrupt or another model; delete it to download it again",
                    target.display(),
                    want.to_ascii_lowercase()
                )));
            }
        }
        return Ok(target);
    }
    let url = source
        .url
        .map_or_else(|| format!("{DEFAULT_MODEL_BASE_URL}/{name}"), str::to_owned);
    let why = if allow_download {
        match download(&url, &target, source, say) {
            Ok(()) => return Ok(target),
            Err(e) => format!("downloading it failed: {e}"),
        }
    } else {
        "downloading is disabled".to_owned()
    };
    Err(ParseError::ModelNotFound(format!(
        "UDPipe model {name} not found; looked at: {} ({MODELS_ENV} / default models directory); \
         {why}. Get it from {url} and put it at {}, or set {MODELS_ENV} to the directory \
         holding it",
        target.display(),
        target.display(),
    )))
}

/// Downloads `url` beside `target`, checks it and renames it to `target`.
fn download(
    url: &str,
    target: &Path,
    source: &ModelSource,
    say: &dyn Fn(&str),
) -> std::result::Result<(), String> {
    say(&format!(
        "ldd-sets: downloading UDPipe model {url} -> {} ...",
        target.display()
    ));
    let expect = ldd_io::download::Expect {
        sha256: source.sha256,
        size: source.size,
        max_bytes: MAX_MODEL_BYTES,
    };
    let d = ldd_io::download::download(url, target, &expect).map_err(|e| e.to_string())?;
    check_loads(d.path())?;
    let verified = if source.sha256.is_some() {
        "SHA-256 verified, "
    } else {
        ""
    };
    d.persist().map_err(|e| e.to_string())?;
    say(&format!(
        "ldd-sets: model saved to {} ({verified}loads as a UDPipe model)",
        target.display()
    ));
    Ok(())
}

/// Fails unless `path` loads as a UDPipe model.
fn check_loads(path: &Path) -> std::result::Result<(), String> {
    crate::parser::Parser::load(path)
        .map(drop)
        .map_err(|e| format!("the file is not a UDPipe model ({e}); nothing was kept"))
}
