//! The parser's inverse: the arguments clap read, written back as a command line that
//! parses to the same values ([`to_args`]), and the command line every output records
//! ([`note`]; see `ldd_sets::format::command`). Tested over every option of every command.

use std::ffi::OsStr;

use clap::parser::ValueSource;
use clap::{ArgAction, ArgMatches, Command};

/// Options that change nothing in the content of any output, left out of the recorded
/// command line so that outputs stay byte-identical at any thread count and verbosity, and
/// wherever they are written (`--out`: a recorded output directory would also change the
/// manifest's SHA-256 that every score signature names).
const NOT_RECORDED: [&str; 3] = ["threads", "quiet", "out"];

/// Records the command line of `matches` (parsed by `cli`) for the outputs to carry.
pub fn note(cli: &Command, matches: &ArgMatches) {
    if let Some((name, sub)) = matches.subcommand() {
        if let Some(cmd) = cli.find_subcommand(name) {
            let mut args = vec!["ldd-sets".to_string(), name.to_string()];
            args.extend(to_args(cmd, sub, &NOT_RECORDED));
            ldd_sets::format::command::record(args);
        }
    }
}

/// The arguments of `cmd` that `matches` read from the command line (not from defaults or the
/// environment), in `cmd`'s order, in canonical form: `--flag` for a switch (once per
/// count), `--flag=value` per value (joined by the option's delimiter when it has one),
/// and the positional values last (after `--` when one of them starts with `-`). Parsing
/// them with `cmd` gives `matches`'s values again. Options whose id is in `skip` are left out.
pub fn to_args(cmd: &Command, matches: &ArgMatches, skip: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut positional = Vec::new();
    for arg in cmd.get_arguments() {
        let id = arg.get_id().as_str();
        if skip.contains(&id) || matches.value_source(id) != Some(ValueSource::CommandLine) {
            continue;
        }
        let name = match (arg.get_long(), arg.get_short()) {
            (Some(l), _) => format!("--{l}"),
            (None, Some(c)) => format!("-{c}"),
            (None, None) => String::new(),
        };
        match arg.get_action() {
            ArgAction::SetTrue | ArgAction::SetFalse => out.push(name),
            ArgAction::Count => {
                let n = matches.get_count(id);
                out.extend(std::iter::repeat_n(name, usize::from(n)));
            }
            ArgAction::Set | ArgAction::Append => {
                let Ok(Some(occurrences)) = matches.try_get_raw_occurrences(id) else {
                    continue;
                };
                for occ in occurrences {
                    let values: Vec<String> = occ.map(lossy).collect();
                    if arg.is_positional() {
                        positional.extend(values);
                    } else if let Some(d) = arg.get_value_delimiter() {
                        out.push(format!("{name}={}", values.join(&d.to_string())));
                    } else if values.len() == 1 || matches!(arg.get_action(), ArgAction::Append) {
                        out.extend(values.iter().map(|v| format!("{name}={v}")));
                    } else {
                        out.push(name.clone());
                        out.extend(values);
                    }
                }
            }
            _ => {}
        }
    }
    if positional.iter().any(|v| v.starts_with('-')) {
        out.push("--".into());
    }
    out.extend(positional);
    out
}

/// The first argument of the subcommand in `matches` (parsed by `cli`) whose value is
/// not UTF-8, as `--flag` (or the positional's value name) with the value shown escaped.
/// ldd-sets records every path it reads as text (manifests, scores, the command line), so
/// such a value is refused before any work.
pub fn non_utf8(cli: &Command, matches: &ArgMatches) -> Option<(String, String)> {
    let (name, m) = matches.subcommand()?;
    let cmd = cli.find_subcommand(name)?;
    for arg in cmd.get_arguments() {
        let id = arg.get_id().as_str();
        let Ok(Some(values)) = m.try_get_raw(id) else {
            continue;
        };
        for v in values {
            if v.to_str().is_none() {
                let flag = match arg.get_long() {
                    Some(l) => format!("--{l}"),
                    None => arg
                        .get_value_names()
                        .and_then(|n| n.first())
                        .map_or_else(|| id.to_string(), |n| n.to_string()),
                };
                return Some((flag, ldd_io::error::escape(&lossy(v)).into_owned()));
            }
        }
    }
    None
}

/// The word of a command line (`argv`, the program first) that clap refused as not UTF-8
/// — an option's value clap reads as text (`--name`, `--seg-scores`, `--width`, …) —
/// as the option that takes it (`--name`; `an argument` for a positional) and the value
/// shown escaped: what [`non_utf8_message`] says, where clap's own message names no
/// option. `None` when every word is UTF-8.
pub fn non_utf8_word(argv: &[std::ffi::OsString]) -> Option<(String, String)> {
    use std::os::unix::ffi::OsStrExt;
    let k = argv.iter().skip(1).position(|a| a.to_str().is_none())? + 1;
    let word = argv[k].as_bytes();
    let shown = |b: &[u8]| ldd_io::error::escape(&String::from_utf8_lossy(b)).into_owned();
    let eq = word.iter().position(|&b| b == b'=');
    let (flag, value) = match (word.strip_prefix(b"--"), eq) {
        (Some(_), Some(i)) => (shown(&word[..i]), shown(&word[i + 1..])),
        (Some(_), None) => ("an option".to_string(), shown(word)),
        (None, _) if word.len() > 2 && word[0] == b'-' && word[1].is_ascii_alphabetic() => {
            (shown(&word[..2]), shown(&word[2..]))
        }
        (None, _) => {
            let before = argv[k - 1]
                .to_str()
                .filter(|b| b.starts_with('-') && *b != "--");
            let after_end = argv[1..k].iter().any(|a| a == "--");
            match before {
                Some(b) if !after_end && !b.contains('=') => (b.to_string(), shown(word)),
                _ => ("an argument".to_string(), shown(word)),
            }
        }
    };
    Some((flag, value))
}

/// The error for the value `value` of `flag` that is not UTF-8 ([`non_utf8_word`]).
pub fn non_utf8_message(flag: &str, value: &str) -> String {
    format!(
        "{flag} {value}: not UTF-8 text (\u{fffd} marks the bytes that are not); ldd-sets reads \
         {flag} as text and records its command line in its outputs: give it in UTF-8 (a \
         file: rename it, or give it through a link with a UTF-8 name)"
    )
}

fn lossy(value: &OsStr) -> String {
    value.to_string_lossy().into_owned()
}

#[cfg(test)]
pub(super) mod tests {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    use clap::{Arg, CommandFactory};

    use super::*;

    /// Values to try for an option, in order, until the command parses.
    const CANDIDATES: [&str; 13] = [
        "7", "1", "1/2", "de-en", "0.5", "bleu", "x.txt", "3,5", "hmm", "de", "ge1", "a=b", "-x",
    ];

    /// The smallest command line of `sub` that parses: its always required arguments,
    /// then those the parser still reports missing (`mqm --sets`, required unless
    /// `--export`).
    pub(crate) fn base(cli: &Command, sub: &Command) -> Vec<String> {
        let args = fill_missing(cli, sub, strict(cli, sub))
            .unwrap_or_else(|| panic!("{}: no value for a required option", sub.get_name()));
        assert!(parses(cli, &args).is_some(), "{args:?} does not parse");
        args
    }

    /// The values to try for `a`: its possible values (the last first: rarely the
    /// default), then [`CANDIDATES`].
    pub(crate) fn candidates(a: &Arg) -> Vec<String> {
        let mut v: Vec<String> = a
            .get_possible_values()
            .iter()
            .rev()
            .map(|p| p.get_name().to_string())
            .collect();
        v.extend(CANDIDATES.iter().map(|c| c.to_string()));
        v
    }

    /// `args` with `a` and the first candidate value the parser takes for it (only
    /// arguments still missing may make the parse fail).
    pub(crate) fn with_value(cli: &Command, args: &[String], a: &Arg) -> Option<Vec<String>> {
        candidates(a)
            .iter()
            .map(|c| with(args, a, c))
            .find(|t| parses_but_missing(cli, t))
    }

    /// `sub` with only its arguments that are always required (each with the first value
    /// the parser takes), which may not parse yet.
    pub(crate) fn strict(cli: &Command, sub: &Command) -> Vec<String> {
        let args = vec!["ldd-sets".to_string(), sub.get_name().to_string()];
        sub.get_arguments()
            .filter(|a| a.is_required_set())
            .fold(args, |args, a| with_value(cli, &args, a).unwrap_or(args))
    }

    /// Whether `args` parses but for arguments still missing.
    pub(crate) fn parses_but_missing(cli: &Command, args: &[String]) -> bool {
        match cli.clone().try_get_matches_from(args) {
            Ok(_) => true,
            Err(e) => e.kind() == ErrorKind::MissingRequiredArgument,
        }
    }

    /// `args` with `a` and the first candidate value the parser takes for it, then the
    /// arguments the parser reports missing (those `a` requires), each the same way.
    pub(crate) fn first_value(
        cli: &Command,
        sub: &Command,
        args: &[String],
        a: &Arg,
    ) -> Option<Vec<String>> {
        fill_missing(cli, sub, with_value(cli, args, a)?)
    }

    /// `t` with each argument the parser reports missing added (by its long name), until
    /// it parses or reports one that has none.
    pub(crate) fn fill_missing(
        cli: &Command,
        sub: &Command,
        mut t: Vec<String>,
    ) -> Option<Vec<String>> {
        for _ in 0..4 {
            let Err(e) = cli.clone().try_get_matches_from(&t) else {
                return Some(t);
            };
            let Some(ContextValue::Strings(missing)) = e.get(ContextKind::InvalidArg) else {
                return Some(t);
            };
            let long = missing
                .first()?
                .split([' ', '='])
                .next()?
                .trim_start_matches('-');
            let Some(other) = sub.get_arguments().find(|o| o.get_long() == Some(long)) else {
                return Some(t);
            };
            t = with_value(cli, &t, other)?;
        }
        Some(t)
    }

    /// `args` with `a` given the value `v` (or as a switch, or positionally).
    pub(crate) fn with(args: &[String], a: &Arg, v: &str) -> Vec<String> {
        let mut t = args.to_vec();
        let takes = !matches!(
            a.get_action(),
            ArgAction::SetTrue | ArgAction::SetFalse | ArgAction::Count
        );
        match (a.get_long(), takes) {
            (Some(l), true) => t.push(format!("--{l}={v}")),
            (Some(l), false) => t.push(format!("--{l}")),
            (None, _) => t.push(v.to_string()),
        }
        t
    }

    pub(crate) fn parses(cli: &Command, args: &[String]) -> Option<ArgMatches> {
        cli.clone().try_get_matches_from(args).ok()
    }

    /// Every argument's raw values, by id, as read from the command line.
    fn values(sub: &Command, m: &ArgMatches) -> Vec<(String, Vec<Vec<String>>)> {
        sub.get_arguments()
            .map(|a| {
                let id = a.get_id().as_str();
                let occ = match m.value_source(id) {
                    Some(ValueSource::CommandLine) => m
                        .try_get_raw_occurrences(id)
                        .ok()
                        .flatten()
                        .map(|o| o.map(|v| v.map(lossy).collect()).collect())
                        .unwrap_or_else(|| vec![vec![m.get_flag(id).to_string()]]),
                    _ => Vec::new(),
                };
                (id.to_string(), occ)
            })
            .collect()
    }

    /// Every option of every command, given alone beside the required ones: the inverse
    /// writes it, and parsing what the inverse wrote reads the same values for every
    /// argument.
    #[test]
    fn to_args_is_the_parsers_inverse_for_every_option() {
        let cli = super::super::Cli::command();
        let mut checked = 0;
        for sub in cli.get_subcommands() {
            let base = base(&cli, sub);
            for a in sub.get_arguments() {
                // Required ones (and those the base needed) are in every line checked.
                let in_base = |w: &String| {
                    a.get_long().is_some_and(|l| {
                        w == &format!("--{l}") || w.starts_with(&format!("--{l}="))
                    })
                };
                if matches!(a.get_action(), ArgAction::Help | ArgAction::Version)
                    || a.is_required_set()
                    || base.iter().any(in_base)
                {
                    continue;
                }
                // An option that conflicts with one the base needed (`mqm --export`, not
                // `--sets`) is tried beside the strictly required ones only.
                let Some((given, m)) = first_value(&cli, sub, &base, a)
                    .and_then(|t| parses(&cli, &t).map(|m| (t, m)))
                    .or_else(|| {
                        first_value(&cli, sub, &strict(&cli, sub), a)
                            .and_then(|t| parses(&cli, &t).map(|m| (t, m)))
                    })
                else {
                    panic!("{}: no value parses for --{}", sub.get_name(), a.get_id());
                };
                let (_, m) = m.subcommand().unwrap();
                let mut again = vec!["ldd-sets".to_string(), sub.get_name().to_string()];
                again.extend(to_args(sub, m, &[]));
                let m2 = parses(&cli, &again)
                    .unwrap_or_else(|| panic!("{given:?} → {again:?} does not parse"));
                let (_, m2) = m2.subcommand().unwrap();
                assert_eq!(values(sub, m), values(sub, m2), "{given:?} → {again:?}");
                assert!(
                    values(sub, m)
                        .iter()
                        .any(|(id, v)| id == a.get_id().as_str() && !v.is_empty()),
                    "{given:?}: {} not read",
                    a.get_id()
                );
                checked += 1;
            }
        }
        println!("{checked} options round-tripped");
        assert!(checked > 150, "{checked} options checked");
    }

    /// What every output records: the options as typed (short and sacreBLEU-style flags
    /// in their long form), without --threads, --quiet and --out.
    #[test]
    fn recorded_command_leaves_out_threads_quiet_and_out() {
        let cli = super::super::Cli::command();
        let argv = [
            "ldd-sets",
            "score",
            "--sets",
            "out dir",
            "-q",
            "--threads",
            "2",
            "--hyp",
            "a.en",
            "--hyp",
            "b.en",
            "-m",
            "bleu,chrf",
            "--out",
            "elsewhere",
        ];
        let m = cli.clone().try_get_matches_from(argv).unwrap();
        let (name, sub) = m.subcommand().unwrap();
        let cmd = cli.find_subcommand(name).unwrap();
        assert_eq!(
            to_args(cmd, sub, &NOT_RECORDED),
            [
                "--sets=out dir",
                "--hyp=a.en",
                "--hyp=b.en",
                "--metrics=bleu,chrf"
            ]
        );
    }
}
