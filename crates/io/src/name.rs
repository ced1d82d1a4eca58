//! Names that become parts of file names: one validated type for all of them.
//!
//! Language codes, phenomenon names, corpus names, model file names and system names end
//! up in paths (`OUT/<phenomenon>/ge1.<lang>`, `DIR/<corpus>.<pair>.<lang>.gz`,
//! `MODELS/<model>`, `<bucket>.hyp.<system>`). A [`Name`] is checked once, when it enters
//! the program, against its [`NameKind`]: a safe character set (no path separator, no
//! `..`, no control character, never starting with a dot), a length limit, and the names
//! ldd-sets uses itself. Anything else is an error that quotes the value, escaped.

use std::fmt;

use crate::error::quote;
use crate::error::{Error, Result};

/// What a name names; each kind has its own rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameKind {
    /// A language code: letters, digits and hyphens, starting with a letter, as BCP 47
    /// tags (`de`, `en`, `pt-BR`, `zh-Hans`); at most 35 characters. The words ldd-sets
    /// uses as file extensions in a set directory are reserved.
    Language,
    /// A phenomenon: lowercase letters, digits, `_` and `-`, starting with a letter or
    /// digit; at most 64 characters; the directory names ldd-sets uses itself are reserved.
    Phenomenon,
    /// A corpus, model or system name: letters, digits, `.`, `_` and `-`, starting with a
    /// letter or digit, no `..`; at most 200 characters.
    File,
    /// A language pair `SRC-TGT`: two language codes without hyphens.
    Pair,
}

/// Extensions of the files in a set directory: a language code equal to one of them would
/// make two kinds of set file share a name.
pub const RESERVED_LANGUAGES: [&str; 10] = [
    "ids", "conllu", "marked", "hyp", "tsv", "txt", "json", "csv", "tmp", "lock",
];

/// Directories and files ldd-sets writes itself at the top of an output.
pub const RESERVED_PHENOMENA: [&str; 6] = [
    "reorder", "controls", "manifest", "summary", "scores", "report",
];

impl NameKind {
    fn max_len(self) -> usize {
        match self {
            NameKind::Language => 35,
            NameKind::Phenomenon => 64,
            NameKind::File => 200,
            NameKind::Pair => 71,
        }
    }

    fn what(self) -> &'static str {
        match self {
            NameKind::Language => "language code",
            NameKind::Phenomenon => "phenomenon name",
            NameKind::File => "name",
            NameKind::Pair => "language pair",
        }
    }

    /// Why `candidate` is not a valid name of this kind, if it is not.
    fn problem(self, candidate: &str) -> Option<String> {
        if candidate.is_empty() {
            return Some("it is empty".into());
        }
        if candidate.chars().count() > self.max_len() {
            return Some(format!("it is longer than {} characters", self.max_len()));
        }
        let first = candidate.chars().next().unwrap_or(' ');
        match self {
            NameKind::Language => {
                if !first.is_ascii_alphabetic()
                    || !candidate
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-')
                    || candidate.ends_with('-')
                    || candidate.contains("--")
                {
                    return Some(
                        "use letters, digits and hyphens, starting with a letter (e.g. de, pt-BR)"
                            .into(),
                    );
                }
                if RESERVED_LANGUAGES.contains(&candidate.to_ascii_lowercase().as_str()) {
                    return Some("it is a file extension ldd-sets uses itself".into());
                }
            }
            NameKind::Phenomenon => {
                if !(first.is_ascii_lowercase() || first.is_ascii_digit())
                    || !candidate.chars().all(|c| {
                        c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-'
                    })
                {
                    return Some("use [a-z0-9_-], starting with a letter or digit".into());
                }
                if RESERVED_PHENOMENA.contains(&candidate) {
                    return Some("it is a name ldd-sets uses itself; choose another".into());
                }
            }
            NameKind::File => {
                if !first.is_ascii_alphanumeric()
                    || !candidate
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
                    || candidate.contains("..")
                {
                    return Some(
                        "use letters, digits, `.`, `_` and `-`, starting with a letter or digit, \
                         no `..`"
                            .into(),
                    );
                }
            }
            NameKind::Pair => {
                let ok = candidate.split_once('-').is_some_and(|(a, b)| {
                    !a.contains('-')
                        && !b.contains('-')
                        && NameKind::Language.problem(a).is_none()
                        && NameKind::Language.problem(b).is_none()
                });
                if !ok {
                    return Some("use SRC-TGT, two language codes (e.g. de-en)".into());
                }
            }
        }
        None
    }
}

/// A validated name (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Name(String);

impl Name {
    /// Checks `candidate` as a name of `kind`; `context` says where it comes from (an
    /// option, a file and line) for the error message.
    pub fn new(kind: NameKind, candidate: &str, context: &str) -> Result<Name> {
        check(kind, candidate, context)?;
        Ok(Name(candidate.to_string()))
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Name {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.0)
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// Checks `candidate` as a name of `kind` (see [`Name::new`]).
pub fn check(kind: NameKind, candidate: &str, context: &str) -> Result<()> {
    match kind.problem(candidate) {
        None => Ok(()),
        Some(why) => Err(Error::Refused(format!(
            "{context}: `{}` is not a valid {}: {why}",
            quote(candidate, 60),
            kind.what()
        ))),
    }
}

/// Whether `candidate` is a valid name of `kind`.
pub fn is_valid(kind: NameKind, candidate: &str) -> bool {
    kind.problem(candidate).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages() {
        for ok in ["de", "en", "pt-BR", "zh-Hans", "x1"] {
            assert!(is_valid(NameKind::Language, ok), "{ok}");
        }
        for bad in [
            "",
            "../../victim.txt",
            "de/en",
            "de.en",
            "-de",
            "de-",
            "d--e",
            "ids",
            "CoNLLU",
            "1de",
            "de\u{1b}",
            "a".repeat(36).as_str(),
        ] {
            assert!(!is_valid(NameKind::Language, bad), "{bad:?}");
        }
    }

    #[test]
    fn phenomena_and_files() {
        assert!(is_valid(NameKind::Phenomenon, "preposition_stranding"));
        assert!(!is_valid(NameKind::Phenomenon, "reorder"));
        assert!(!is_valid(NameKind::Phenomenon, "Reflexive"));
        assert!(!is_valid(NameKind::Phenomenon, "_x"));
        assert!(is_valid(NameKind::File, "german-gsd-ud-2.5-191206.udpipe"));
        for ok in ["de-en", "grc-en", "fra-eng"] {
            assert!(is_valid(NameKind::Pair, ok), "{ok}");
        }
        for bad in [
            "de", "de-", "-en", "de-en-fr", "../de-en", "de_en", "ids-en",
        ] {
            assert!(!is_valid(NameKind::Pair, bad), "{bad:?}");
        }
        for bad in [
            "/../../escape",
            "..",
            ".hidden",
            "a/b",
            "a\\b",
            "a b",
            "x\0",
            "a..b",
        ] {
            assert!(!is_valid(NameKind::File, bad), "{bad:?}");
        }
        let e = Name::new(NameKind::Language, "../x", "--tgt-lang").unwrap_err();
        assert_eq!(
            e.to_string(),
            "--tgt-lang: `../x` is not a valid language code: use letters, digits and \
             hyphens, starting with a letter (e.g. de, pt-BR)"
        );
    }
}
