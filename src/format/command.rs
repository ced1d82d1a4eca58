//! The command line recorded in the files a command writes (`manifest.json`'s
//! `tool.command`, `scores.json`'s `commands`): what was typed, in the parser's canonical
//! form (`--flag=value`, one token per value), without the options that change nothing in
//! the content of the output (`--out`, `--threads`, `--quiet`), so that outputs stay
//! byte-identical at any thread count and wherever they are written. The command line sets it once, before the command runs ([`record`]); a library
//! caller that does not has nothing recorded.

use std::sync::OnceLock;

static COMMAND: OnceLock<Vec<String>> = OnceLock::new();

/// Records `args` (`ldd-sets`, the command, then its options) as this process's command
/// line. Only the first call counts.
pub fn record(args: Vec<String>) {
    let _ = COMMAND.set(args);
}

/// This process's recorded command line (empty when none was recorded).
pub fn recorded() -> Vec<String> {
    COMMAND.get().cloned().unwrap_or_default()
}

/// `args` as one line a POSIX shell reads back into the same words ([`ldd_io::shell`],
/// the one quoting of every printed command).
pub fn shell_line(args: &[String]) -> String {
    ldd_io::shell::line(args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_line_quotes_what_a_shell_would_split_or_expand() {
        let args: Vec<String> = [
            "ldd-sets",
            "score",
            "--hyp=my file.en",
            "--ref=it's",
            "--seed=7",
            "",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            shell_line(&args),
            r"ldd-sets score '--hyp=my file.en' '--ref=it'\''s' --seed=7 ''"
        );
    }
}
