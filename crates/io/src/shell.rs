//! Words of a command that ldd-sets prints for a person to paste into a shell: the one
//! quoting of every printed command (the "next:" lines, notes and advice, the command
//! lines that outputs record and the report shows).
//!
//! A word made only of safe characters (letters, digits, `-_./=:,+@%`) that does not start
//! with `=` is printed as it is; any other word is put in single quotes (a `'` in it
//! written `'\''`), so a path holding `$(…)`, backticks, `;`, spaces or quotes comes back
//! as the same one word and runs nothing, in `sh`, bash and zsh alike, interactive or not:
//! a leading `=` (zsh's `=cmd`), a `~` anywhere (a home directory, also after `=` or `:`
//! in bash), a `!` anywhere (history expansion in interactive shells), `*`, `?`, `[`,
//! `{`, `^`, `#`, `$`, `&`, `|`, `;`, `<`, `>`, `(`, quotes, blanks and non-ASCII text are
//! all quoted.
//!
//! Characters that must not reach a terminal raw (control characters but the line feed,
//! DEL, C1 controls, the bidirectional overrides, the line and paragraph separators; see
//! [`crate::error`]) and bytes that are not UTF-8 are written as `"$(printf '\NNN…')"` —
//! octal escapes that every POSIX shell's `printf` (and zsh's) reads back into the same
//! bytes (command substitution only drops trailing line feeds, which are never written
//! this way: a line feed stays in single quotes).
//!
//! A path that starts with `-` is written `./-…` ([`path`]), so that it cannot be taken
//! for an option; a system's file given to `--hyp` or `--contrastive` (of `score`,
//! `sheets`, `report`, …) is written with its `NAME=`, or so that it cannot be read as
//! one ([`system`]). tests/hostile/paste_back.rs pastes every command ldd-sets prints
//! into `sh`, bash and zsh.
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

/// Whether `byte` needs no quoting as the first of a word: a [`safe`] byte but `=`, which
/// zsh expands at the start of a word (`=ls` is `/usr/bin/ls`).
fn safe_first(byte: u8) -> bool {
    safe(byte) && byte != b'='
}

/// Whether `character` is written with `printf` rather than as it is (see the module docs).
fn escaped(character: char) -> bool {
    character != '\n' && crate::error::unsafe_char(character)
}

/// `value` as one word of a POSIX shell command (see the module docs).
pub fn word(value: impl AsRef<OsStr>) -> String {
    let bytes = value.as_ref().as_bytes();
    if bytes.first().is_some_and(|&b| safe_first(b)) && bytes.iter().all(|&b| safe(b)) {
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

/// Whether `text`, before a `=`, is read as a system's name by `--hyp NAME=FILE` (and
/// every option that takes `NAME=FILE`): a letter or digit, then letters, digits, `.`, `_`
/// and `-` — the split of `ldd-sets`'s `parse_system` (src/cli/args.rs), which splits a
/// UTF-8 value at its first `=` when what is before it is such a name.
fn name_like(text: &[u8]) -> bool {
    text.first().is_some_and(u8::is_ascii_alphanumeric)
        && text
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b".-_".contains(b))
}

/// The value of a `--hyp` (or `--contrastive`) that names the system `name` (when it has
/// one) reading `file`, as one shell word ([`word`]) that ldd-sets reads back as the same
/// name and the same file: `NAME=FILE` (split at the first `=`, and a name holds none, so
/// `base=a=b.en` is system `base`, file `a=b.en`; `NAME=-` reads standard input, as `-`
/// does); without a name, the file alone, written `./…` when it is relative and would
/// otherwise be read as `NAME=FILE` (`./a=b.en`) or as an option (`./-x`). A `name` that
/// could not be read back as one (never one ldd-sets accepted) is left out, and so is one
/// with a file that is not UTF-8 (which is never split: the whole value is the file).
///
/// ```
/// use std::path::Path;
/// use ldd_io::shell::{system, word};
///
/// assert_eq!(system(Some("base"), Path::new("a=b.en")), "base=a=b.en");
/// assert_eq!(system(None, Path::new("a=b.en")), "./a=b.en");
/// assert_eq!(system(None, Path::new("-")), "-");
/// assert_eq!(system(Some("s"), Path::new("my file.en")), "'s=my file.en'");
/// assert_eq!(word("=ls"), "'=ls'");
/// ```
pub fn system(name: Option<&str>, file: &Path) -> String {
    let bytes = file.as_os_str().as_bytes();
    let utf8 = std::str::from_utf8(bytes).is_ok();
    if let Some(name) = name.filter(|n| utf8 && name_like(n.as_bytes())) {
        let mut value = format!("{name}=").into_bytes();
        value.extend_from_slice(bytes);
        return word(OsStr::from_bytes(&value));
    }
    if bytes == b"-" {
        return word("-");
    }
    let split = bytes
        .iter()
        .position(|&b| b == b'=')
        .is_some_and(|at| utf8 && name_like(&bytes[..at]));
    if split {
        let mut dotted = b"./".to_vec();
        dotted.extend_from_slice(bytes);
        return word(OsStr::from_bytes(&dotted));
    }
    path(file)
}

/// `words` as one command line ([`word`] each, joined by spaces).
pub fn line<S: AsRef<OsStr>>(words: &[S]) -> String {
    words.iter().map(word).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shells a printed command is pasted into: `sh`, bash reading its input as an
    /// interactive bash does (history expansion on), and, when installed, zsh both run
    /// with `-c` and reading its input interactively (`!` expanded there too). Each is
    /// given `printf '%s\0' WORDS` and its NUL-separated words are read back.
    const SHELLS: [(&str, &[&str], bool); 4] = [
        ("sh", &["-c"], false),
        ("bash", &["-s"], true),
        ("/usr/bin/zsh", &["-f", "-c"], false),
        ("/usr/bin/zsh", &["-f", "-i", "-s"], true),
    ];

    /// What `shell` makes of the printed words: with `stdin`, the command is its input
    /// (after what turns history expansion on in bash), else its `-c` argument; the words
    /// go to a file, as an interactive shell also prints prompts.
    fn through(shell: &str, flags: &[&str], stdin: bool, printed: &str) -> Vec<Vec<u8>> {
        use std::io::Write as _;
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("words");
        let command = format!("printf '%s\\0' {printed} > '{}'", out.display());
        let mut c = std::process::Command::new(shell);
        c.args(flags)
            .current_dir(dir.path())
            .env("HOME", dir.path());
        let status = if stdin {
            let mut child = c
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            let mut input = child.stdin.take().unwrap();
            // History expansion needs a line in the history to expand to.
            let _ = write!(
                input,
                "set -o history -o histexpand 2>/dev/null\n: HISTORY\n{command}\nexit\n"
            );
            drop(input);
            child.wait().unwrap()
        } else {
            c.arg(&command).status().unwrap()
        };
        assert!(status.success(), "{shell} {flags:?}: {printed}");
        let mut words: Vec<Vec<u8>> = std::fs::read(&out)
            .unwrap()
            .split(|&b| b == 0)
            .map(<[u8]>::to_vec)
            .collect();
        words.pop();
        words
    }

    /// `printed` comes back as `want` from every shell of [`SHELLS`] installed here.
    fn pastes_back(printed: &str, want: &[&[u8]]) {
        for (shell, flags, stdin) in SHELLS {
            if shell.starts_with('/') && !Path::new(shell).exists() {
                continue;
            }
            let back = through(shell, flags, stdin, printed);
            assert_eq!(back, want, "{shell} {flags:?}: {printed}");
        }
    }

    #[test]
    fn safe_words_stay_and_others_come_back_the_same_in_every_shell() {
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
            "caf\u{e9} \u{65e5}\u{672c}.de".as_bytes(),
            b"~root/*",
            b"a;b|c&d>e<f",
            b"!x ^y #z",
            b"!!",
            b"a!!b",
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
            pastes_back(&printed, &[w]);
            pastes_back(&line(&[os, OsStr::new("next")]), &[w, b"next"]);
        }
    }

    #[test]
    fn a_word_a_shell_would_expand_at_its_start_is_quoted() {
        // zsh: `=ls` is /usr/bin/ls, `==` an error; bash and zsh: `~x` a home directory,
        // `#x` a comment, `{a,b}` two words, `*`, `?` and `[` globs, `!` history.
        for w in [
            "=ls", "==", "=", "=x=y", "~x", "~", "#x", "{a,b}", "*", "?x", "[ab]", "!x", "!!",
            "^x", "a=~", "x:~/y",
        ] {
            let printed = word(w);
            assert!(printed.starts_with('\''), "{w}: printed bare as {printed}");
            pastes_back(&printed, &[w.as_bytes()]);
        }
        assert_eq!(word("=ls"), "'=ls'");
        assert_eq!(word("a=b"), "a=b");
        assert_eq!(path(Path::new("=ls")), "'=ls'");
    }

    #[test]
    fn every_safe_byte_anywhere_in_a_bare_word_comes_back_as_it_is() {
        // Every byte left bare but letters and digits: the ten of the module docs.
        let others: Vec<u8> = (0u8..=255)
            .filter(|&b| safe(b) && !b.is_ascii_alphanumeric())
            .collect();
        assert_eq!(others, b"%+,-./:=@_");
        let mut words: Vec<Vec<u8>> = Vec::new();
        for &b in &others {
            for w in [
                vec![b],
                vec![b'a', b],
                vec![b, b'a'],
                vec![b'a', b, b'a'],
                vec![b, b],
            ] {
                words.push(w);
            }
        }
        let printed: Vec<String> = words.iter().map(|w| word(OsStr::from_bytes(w))).collect();
        for (w, p) in words.iter().zip(&printed) {
            assert_eq!(p.starts_with('\''), w[0] == b'=', "{p}");
        }
        let want: Vec<&[u8]> = words.iter().map(Vec::as_slice).collect();
        pastes_back(&printed.join(" "), &want);
    }

    /// `value` as `--hyp VALUE` reads it: a name and a file (src/cli/args.rs's split).
    fn parsed(value: &[u8]) -> (Option<&[u8]>, &[u8]) {
        match value.iter().position(|&b| b == b'=') {
            Some(at) if std::str::from_utf8(value).is_ok() && name_like(&value[..at]) => {
                (Some(&value[..at]), &value[at + 1..])
            }
            _ => (None, value),
        }
    }

    #[test]
    fn a_system_is_printed_so_that_it_reads_back_as_the_same_name_and_file() {
        assert_eq!(system(Some("base"), Path::new("a=b.en")), "base=a=b.en");
        assert_eq!(system(None, Path::new("a=b.en")), "./a=b.en");
        assert_eq!(system(None, Path::new("/x/a=b.en")), "/x/a=b.en");
        assert_eq!(system(None, Path::new("-")), "-");
        assert_eq!(system(Some("base"), Path::new("-")), "base=-");
        assert_eq!(system(None, Path::new("-x")), "./-x");
        assert_eq!(system(None, Path::new("=ls")), "'=ls'");
        assert_eq!(system(Some("s"), Path::new("~x")), "'s=~x'");
        assert_eq!(system(Some("s"), Path::new("my file")), "'s=my file'");
        // Not a name ldd-sets accepts: the file alone.
        assert_eq!(system(Some("=x"), Path::new("a=b.en")), "./a=b.en");
        let files: Vec<&[u8]> = vec![
            b"a=b.en",
            b"sys=x=y",
            b"-",
            b"-x=y",
            b"=ls",
            b"~x",
            b"!x",
            b"$(touch PWNED)",
            b"d/a=b.en",
            b"a b'c\"\nd",
            b"\xff=x",
            "na\u{ef}ve=\u{65e5}.en".as_bytes(),
        ];
        for f in files {
            for name in [None, Some("base"), Some("b-1.x_y")] {
                let printed = system(name, Path::new(OsStr::from_bytes(f)));
                for (shell, flags, stdin) in SHELLS {
                    if shell.starts_with('/') && !Path::new(shell).exists() {
                        continue;
                    }
                    let back = through(shell, flags, stdin, &printed);
                    assert_eq!(back.len(), 1, "{shell}: {printed}");
                    let (n, file) = parsed(&back[0]);
                    let utf8 = std::str::from_utf8(f).is_ok();
                    let want_name = name.filter(|_| utf8).map(str::as_bytes);
                    assert_eq!(n, want_name, "{shell}: {printed}");
                    let file = Path::new(OsStr::from_bytes(file));
                    let file = match file.strip_prefix("./") {
                        Ok(rest) if n.is_none() && f != b"-" => rest,
                        _ => file,
                    };
                    assert_eq!(file.as_os_str().as_bytes(), f, "{shell}: {printed}");
                    assert!(n.is_some() || !back[0].starts_with(b"-") || f == b"-");
                }
            }
        }
    }
}
