//! Names that become path components — language codes, pair names, model and corpus file
//! names — checked in one place ([`check`]), so that no configuration, registry entry or
//! command-line value can name a file outside the directory it belongs to.

use crate::error::{Error, Result};

/// What a name is used for (decides the characters allowed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameKind {
    /// A language code (`de`, `grc`): ASCII letters, digits and hyphens, 1–32 characters.
    Code,
    /// A language pair (`de-en`): `SRC-TGT`, two codes of ASCII letters and digits.
    Pair,
    /// A file name (model, corpus, `files` part): ASCII letters, digits, `.`, `_`, `-`,
    /// 1–200 characters, not starting with `.` or `-`, no `..`.
    File,
}

impl NameKind {
    fn what(self) -> &'static str {
        match self {
            NameKind::Code => "language code",
            NameKind::Pair => "language pair",
            NameKind::File => "file name",
        }
    }
}

/// Checks `name` as a `kind`; `context` says where it comes from (e.g. `--pair`).
pub fn check(kind: NameKind, name: &str, context: &str) -> Result<()> {
    let alnum = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric());
    let ok = match kind {
        NameKind::Code => {
            (1..=32).contains(&name.len())
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !name.starts_with('-')
                && !name.ends_with('-')
        }
        NameKind::Pair => name
            .split_once('-')
            .is_some_and(|(s, t)| alnum(s) && alnum(t) && s.len() <= 32 && t.len() <= 32),
        NameKind::File => {
            (1..=200).contains(&name.len())
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
                && !name.starts_with(['.', '-'])
                && !name.contains("..")
        }
    };
    if ok {
        return Ok(());
    }
    let rule = match kind {
        NameKind::Code => "ASCII letters, digits and inner hyphens, at most 32",
        NameKind::Pair => "SRC-TGT, two language codes of ASCII letters and digits",
        NameKind::File => {
            "ASCII letters, digits, '.', '_' and '-', not starting with '.' or '-', no '..'"
        }
    };
    Err(Error::Config(format!(
        "{context}: `{}` is not a valid {} ({rule})",
        ldd_io::text::escape(name),
        kind.what()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_could_leave_their_directory_are_refused() {
        for ok in ["de", "grc", "pt-br", "zh2"] {
            check(NameKind::Code, ok, "t").unwrap();
        }
        for bad in ["", "../x", "de/en", "-de", "de-", "d e", "dé", ".", "a\0b"] {
            assert!(check(NameKind::Code, bad, "t").is_err(), "{bad:?}");
        }
        for ok in ["de-en", "grc-en", "fra-eng"] {
            check(NameKind::Pair, ok, "t").unwrap();
        }
        for bad in [
            "de",
            "de-",
            "-en",
            "de-en-x",
            "../de-en",
            "de-en/..",
            "de_en",
            "de-en.toml",
        ] {
            assert!(check(NameKind::Pair, bad, "t").is_err(), "{bad:?}");
        }
        for ok in [
            "french-gsd-ud-2.5-191206.udpipe",
            "books",
            "news_2013.v2",
            "de-en",
        ] {
            check(NameKind::File, ok, "t").unwrap();
        }
        for bad in [
            "",
            ".",
            "..",
            ".hidden",
            "-x",
            "a/b",
            "a\\b",
            "..x",
            "x..udpipe",
            "a b",
        ] {
            assert!(check(NameKind::File, bad, "t").is_err(), "{bad:?}");
        }
        let e = check(
            NameKind::File,
            "../../etc/passwd",
            "pair x.toml: [model] name",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("pair x.toml: [model] name: `../../etc/passwd` is not a valid file name"),
            "{e}"
        );
    }
}
