//! Words of a command that ldd-sets prints for a person to paste into a shell: the one
//! quoting of every printed command (the "next:" lines, notes and advice, the command
//! lines that outputs record and the report shows).
//!
//! A word made only of safe characters is printed as it is; any other word is put in
//! single quotes (a `'` in it written `'\''`), so a path holding `$(…)`, backticks, `;`,
//! spaces or quotes comes back as the same one word and runs nothing. Characters that must
//! not reach a terminal raw (control characters but the line feed, DEL, C1 controls, the
//! bidirectional overrides, the line and paragraph separators; see [`crate::error`]) and
//! bytes that are not UTF-8 are written as `"$(printf '\NNN…')"` — octal escapes that
//! every POSIX shell's `printf` reads back into the same bytes (command substitution only
//! drops trailing line feeds, which are never written this way: a line feed stays in
//! single quotes). A path that starts with `-` is written `./-…` ([`path`]), so that it
//! cannot be taken for an option.
//!
//! Not `shlex`'s or `shell-quote`'s quoting: both quote `=`, `,` and `%`, which every
//! recorded option (`--metrics=bleu,chrf`) holds, and neither keeps control characters
//! from the terminal in a form `/bin/sh` (dash) reads back.

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Whether `byte` needs no quoting anywhere in a word after the command name.
fn safe(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&byte)
}

/// Whether `character` is written with `printf` rather than as it is (see the module docs).
fn escaped(character: char) -> bool {
    character != '\n' && crate::error::unsafe_char(character)
}

/// `value` as one word of a POSIX shell command (see the module docs).
pub fn word(value: impl AsRef<OsStr>) -> String {
    let bytes = value.as_ref().as_bytes();
    if !bytes.is_empty() && bytes.iter().all(|&b| safe(b)) {
        // Safe bytes are ASCII.
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let mut out = String::with_capacity(bytes.len() + 2);
    let mut quoted = String::new();
    let mut raw: Vec<u8> = Vec::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if escaped(c) {
                flush_quoted(&mut out, &mut quoted);
                let mut b = [0u8; 4];
                raw.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
            } else {
                flush_raw(&mut out, &mut raw);
                quoted.push(c);
            }
        }
        if !chunk.invalid().is_empty() {
            flush_quoted(&mut out, &mut quoted);
            raw.extend_from_slice(chunk.invalid());
        }
    }
    flush_quoted(&mut out, &mut quoted);
    flush_raw(&mut out, &mut raw);
    if out.is_empty() {
        out.push_str("''");
    }
    out
}

/// Appends `quoted` in single quotes to `out` and empties it.
fn flush_quoted(out: &mut String, quoted: &mut String) {
    if !quoted.is_empty() {
        let _ = write!(out, "'{}'", quoted.replace('\'', r"'\''"));
        quoted.clear();
    }
}

/// Appends `raw` as `"$(printf '\NNN…')"` to `out` and empties it.
fn flush_raw(out: &mut String, raw: &mut Vec<u8>) {
    if !raw.is_empty() {
        out.push_str("\"$(printf '");
        for b in raw.iter() {
            let _ = write!(out, "\\{b:03o}");
        }
        out.push_str("')\"");
        raw.clear();
    }
}

/// `file_path` as one word of a shell command ([`word`]), written `./-…` when it starts
/// with `-` (the same file, never taken for an option).
pub fn path(file_path: &Path) -> String {
    let bytes = file_path.as_os_str().as_bytes();
    if bytes.first() == Some(&b'-') {
        let mut dotted = b"./".to_vec();
        dotted.extend_from_slice(bytes);
        return word(OsStr::from_bytes(&dotted));
    }
    word(file_path)
}

/// `words` as one command line ([`word`] each, joined by spaces).
pub fn line<S: AsRef<OsStr>>(words: &[S]) -> String {
    words.iter().map(word).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `sh -c 'printf "%s\0" WORDS'` makes of the printed words.
    fn through_sh(printed: &str) -> Vec<Vec<u8>> {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("printf '%s\\0' {printed}"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{printed}");
        let mut words: Vec<Vec<u8>> = out.stdout.split(|&b| b == 0).map(<[u8]>::to_vec).collect();
        words.pop();
        words
    }

    #[test]
    fn safe_words_stay_and_others_come_back_the_same_through_sh() {
        assert_eq!(word("../a/b.de"), "../a/b.de");
        assert_eq!(word("--metrics=bleu,chrf"), "--metrics=bleu,chrf");
        assert_eq!(word("my file"), "'my file'");
        assert_eq!(word("it's"), r"'it'\''s'");
        assert_eq!(word(""), "''");
        assert_eq!(path(Path::new("-o x")), "'./-o x'");
        assert_eq!(path(Path::new("/a/-o")), "/a/-o");
        let nasty: Vec<&[u8]> = vec![
            b"$(touch pw)",
            b"`id`",
            b"a b\tc",
            b"\"q\" 'r'",
            b"l1\nl2\n",
            b"\n",
            b"x\x1b[2J\x07.de",
            b"\xff\xfe bad utf-8",
            "bidi \u{202e}txt.de \u{85}".as_bytes(),
            b"~root/*",
            b"a;b|c&d>e<f",
            b"!x ^y #z",
        ];
        for w in nasty {
            let os = OsStr::from_bytes(w);
            let printed = word(os);
            assert!(
                !printed
                    .chars()
                    .any(|c| c != '\n' && crate::error::unsafe_char(c)),
                "{printed:?}"
            );
            assert_eq!(through_sh(&printed), vec![w.to_vec()], "{printed}");
            let both = line(&[os, OsStr::new("next")]);
            assert_eq!(through_sh(&both), vec![w.to_vec(), b"next".to_vec()]);
        }
    }
}
