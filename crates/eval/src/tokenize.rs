//! sacreBLEU 2.4.3's BLEU tokenizers (`--tokenize`), each exactly as sacreBLEU applies it
//! to a line (already lowercased with `--lowercase` and right-stripped):
//!
//! | name | what |
//! | --- | --- |
//! | `13a` | mteval-v13a ([`crate::tokenize13a`]), the default |
//! | `intl` | mteval-v14's international tokenization: `(\P{N})(\p{P})` → `\1 \2 `, `(\p{P})(\P{N})` → ` \1 \2`, `(\p{S})` → ` \1 ` (Unicode general categories) |
//! | `zh` | the line stripped, every Chinese character (sacreBLEU's `_UCODE_RANGES`, compared as Python compares strings) spaced, then 13a's four substitutions without its padding |
//! | `char` | every character a token |
//! | `none` | the line split on whitespace |
//! | `ja-mecab`, `ko-mecab` | the line stripped and segmented by MeCab with the dictionary sacreBLEU uses ([`crate::mecab`]) |
//!
//! The default for a target language is sacreBLEU's: `zh` for Chinese, `ja-mecab` for
//! Japanese, `ko-mecab` for Korean, else `13a` ([`TokenizerName::for_language`]).

use std::sync::{Arc, OnceLock};

use regex::Regex;

use crate::mecab::{Dictionary, Mecab};
use crate::util::{pad, py_split, py_strip};
use crate::EvalError;

/// A tokenizer's name, as `--tokenize` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenizerName {
    /// `13a`.
    Tok13a,
    /// `intl`.
    Intl,
    /// `zh`.
    Zh,
    /// `char`.
    Char,
    /// `none`.
    None,
    /// `ja-mecab`.
    JaMecab,
    /// `ko-mecab`.
    KoMecab,
}

impl TokenizerName {
    /// Every name, in `--tokenize`'s order.
    pub const ALL: [TokenizerName; 7] = [
        TokenizerName::Tok13a,
        TokenizerName::Intl,
        TokenizerName::Zh,
        TokenizerName::Char,
        TokenizerName::None,
        TokenizerName::JaMecab,
        TokenizerName::KoMecab,
    ];

    /// The name as sacreBLEU spells it.
    pub fn name(self) -> &'static str {
        match self {
            TokenizerName::Tok13a => "13a",
            TokenizerName::Intl => "intl",
            TokenizerName::Zh => "zh",
            TokenizerName::Char => "char",
            TokenizerName::None => "none",
            TokenizerName::JaMecab => "ja-mecab",
            TokenizerName::KoMecab => "ko-mecab",
        }
    }

    /// The tokenizer named `name`, if there is one.
    pub fn parse(name: &str) -> Option<TokenizerName> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }

    /// sacreBLEU's default for the target language `lang`: `zh`, `ja-mecab`, `ko-mecab`
    /// for `zh`, `ja`, `ko`, else `13a`.
    pub fn for_language(lang: &str) -> TokenizerName {
        match lang {
            "zh" => TokenizerName::Zh,
            "ja" => TokenizerName::JaMecab,
            "ko" => TokenizerName::KoMecab,
            _ => TokenizerName::Tok13a,
        }
    }
}

/// A tokenizer ready to use (MeCab loaded for `ja-mecab` and `ko-mecab`).
#[derive(Debug, Clone)]
pub struct Tokenizer {
    name: TokenizerName,
    mecab: Option<Arc<Mecab>>,
}

impl Default for Tokenizer {
    fn default() -> Self {
        Tokenizer {
            name: TokenizerName::Tok13a,
            mecab: None,
        }
    }
}

impl Tokenizer {
    /// The tokenizer `name`; MeCab is loaded here for `ja-mecab` and `ko-mecab`
    /// ([`Mecab::load`]), an error saying how to install it when it is missing.
    pub fn new(name: TokenizerName) -> Result<Tokenizer, EvalError> {
        let mecab = match name {
            TokenizerName::JaMecab => Some(Arc::new(Mecab::load(Dictionary::Ipadic)?)),
            TokenizerName::KoMecab => Some(Arc::new(Mecab::load(Dictionary::KoDic)?)),
            _ => None,
        };
        Ok(Tokenizer { name, mecab })
    }

    /// Its name.
    pub fn name(&self) -> TokenizerName {
        self.name
    }

    /// Its part of sacreBLEU's signature (`tok:` value): the name, and for MeCab
    /// `ja-mecab-VERSION-IPA` / `ko-mecab-VERSION-KO` with the library's version.
    pub fn signature(&self) -> String {
        match &self.mecab {
            Some(m) => m.signature(),
            None => self.name.name().to_string(),
        }
    }

    /// Calls `on_token` on each token of `line`.
    pub fn for_each_token(
        &self,
        line: &str,
        mut on_token: impl FnMut(&str),
    ) -> Result<(), EvalError> {
        match self.name {
            TokenizerName::Tok13a => crate::tokenize13a::for_each_token(line, on_token),
            TokenizerName::Intl => py_split(&intl(line)).for_each(on_token),
            TokenizerName::Zh => py_split(&zh(line)).for_each(on_token),
            TokenizerName::Char => {
                let mut buf = [0u8; 4];
                for c in line.chars().filter(|&c| !crate::util::is_py_space(c)) {
                    on_token(c.encode_utf8(&mut buf));
                }
            }
            TokenizerName::None => py_split(line).for_each(on_token),
            TokenizerName::JaMecab | TokenizerName::KoMecab => {
                let m = self.mecab.as_ref().ok_or_else(|| {
                    EvalError::Resource(format!("{}: MeCab not loaded", self.name.name()))
                })?;
                py_split(&m.parse(py_strip(line))?).for_each(on_token);
            }
        }
        Ok(())
    }

    /// The tokenization of `line`, tokens joined by one space (sacreBLEU's output).
    pub fn tokenize(&self, line: &str) -> Result<String, EvalError> {
        let mut out = String::new();
        self.for_each_token(line, |t| {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(t);
        })?;
        Ok(out)
    }
}

/// `intl`'s three substitutions (before its whitespace normalisation).
fn intl(line: &str) -> String {
    static RES: OnceLock<[(Regex, &str); 3]> = OnceLock::new();
    let res = RES.get_or_init(|| {
        let re = |p: &str| Regex::new(p).unwrap_or_else(|e| unreachable!("{p}: {e}"));
        [
            (re(r"(\P{N})(\p{P})"), "$1 $2 "),
            (re(r"(\p{P})(\P{N})"), " $1 $2"),
            (re(r"(\p{S})"), " $1 "),
        ]
    });
    let mut s = line.to_string();
    for (re, with) in res {
        if let std::borrow::Cow::Owned(o) = re.replace_all(&s, *with) {
            s = o;
        }
    }
    s
}

/// Whether sacreBLEU's `zh` tokenizer spaces `character`: its `_UCODE_RANGES`, compared as
/// Python compares strings, so that the two bounds written with five hex digits (`\u20000`,
/// `\u2f800`: a four-digit escape and a `0`) give U+2001–U+2A6D and U+2F81–U+2FA1 (the
/// first holds the ranges U+2600–U+26FF and U+2700–U+27BF of the list too).
pub fn is_chinese_char(character: char) -> bool {
    matches!(character as u32,
        0x3400..=0x4DB5
        | 0x4E00..=0x9FA5
        | 0x9FA6..=0x9FBB
        | 0xF900..=0xFA2D
        | 0xFA30..=0xFA6A
        | 0xFA70..=0xFAD9
        | 0x2001..=0x2A6D
        | 0x2F81..=0x2FA1
        | 0xFF00..=0xFFEF
        | 0x2E80..=0x2EFF
        | 0x3000..=0x303F
        | 0x31C0..=0x31EF
        | 0x2F00..=0x2FDF
        | 0x2FF0..=0x2FFF
        | 0x3100..=0x312F
        | 0x31A0..=0x31BF
        | 0xFE10..=0xFE1F
        | 0xFE30..=0xFE4F
        | 0x3200..=0x32FF
        | 0x3300..=0x33FF)
}

/// `zh` before its whitespace normalisation.
fn zh(line: &str) -> String {
    crate::tokenize13a::regexp(&pad(py_strip(line), is_chinese_char))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tok(name: TokenizerName, s: &str) -> String {
        Tokenizer::new(name).unwrap().tokenize(s).unwrap()
    }

    /// Outputs of sacreBLEU 2.4.3's tokenizers on the same lines.
    #[test]
    fn tokenizers_match_sacrebleu() {
        use TokenizerName::*;
        // sacrebleu.tokenizers.tokenizer_intl.TokenizerV14International()(s)
        assert_eq!(
            tok(Intl, "Hello, world! 3.5 € (x) «y» 2000."),
            "Hello , world ! 3.5 € ( x ) « y » 2000."
        );
        // tokenizer_zh.TokenizerZh()(s)
        assert_eq!(
            tok(Zh, " 我喜欢猫。It's 3.5, ok "),
            "我 喜 欢 猫 。 It's 3.5 , ok"
        );
        assert_eq!(
            tok(Zh, "a\u{2a6d}b\u{2a6e}c\u{2f80}d\u{2f81}e\u{2010}f"),
            "a \u{2a6d} b\u{2a6e}c \u{2f80} d \u{2f81} e \u{2010} f"
        );
        // tokenizer_char.TokenizerChar()(s).split()
        assert_eq!(tok(Char, "ab c"), "a b c");
        assert_eq!(tok(None, " a  b\u{a0}c "), "a b c");
        assert_eq!(TokenizerName::for_language("ja"), JaMecab);
        assert_eq!(TokenizerName::parse("ko-mecab"), Some(KoMecab));
        assert_eq!(TokenizerName::parse("spm"), Option::None);
    }
}
