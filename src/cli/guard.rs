//! The one guard, before any work: every option of the command whose value is an output
//! ([`ldd_io::Output`], the value type of every option ldd-sets writes to — found from
//! clap's definitions, not a list) is checked by [`ldd_io::Output::check`] once the
//! command's inputs are noted, so a user's file, a link or an input is refused (exit 4)
//! before anything is read or written. The writers check again when they write.

use clap::{ArgMatches, Command};
use ldd_io::Output;

use ldd_sets::error::Result;

/// The options of `cmd` whose values are outputs (their ids).
pub fn output_options(cmd: &Command) -> Vec<&str> {
    cmd.get_arguments()
        .filter(|a| a.get_value_parser().type_id() == std::any::TypeId::of::<Output>())
        .map(|a| a.get_id().as_str())
        .collect()
}

/// The subcommand `matches` (parsed by `cli`) ran, with its matches.
fn subcommand<'a>(
    cli: &'a Command,
    matches: &'a ArgMatches,
) -> Option<(&'a Command, &'a ArgMatches)> {
    let (name, m) = matches.subcommand()?;
    Some((cli.find_subcommand(name)?, m))
}

/// Notes the value of every option of the command whose value is a path (type `PathBuf`,
/// from clap's definitions) as an input ([`ldd_io::output::note_input`]), beside what each
/// command notes itself ([`super::args::Common::inputs`]): every file ldd-sets writes is
/// checked against the noted inputs, so an option is either an output, through the guard,
/// or an input that nothing may write.
pub fn note_inputs(cli: &Command, matches: &ArgMatches) {
    let Some((cmd, m)) = subcommand(cli, matches) else {
        return;
    };
    for a in cmd.get_arguments() {
        if a.get_value_parser().type_id() != std::any::TypeId::of::<std::path::PathBuf>() {
            continue;
        }
        if let Ok(Some(values)) = m.try_get_many::<std::path::PathBuf>(a.get_id().as_str()) {
            ldd_io::output::note_inputs(values.map(|p| p.as_path()));
        }
    }
}

/// Checks every output named on the command line of `matches` (parsed by `cli`).
pub fn check_outputs(cli: &Command, matches: &ArgMatches) -> Result<()> {
    let Some((cmd, m)) = subcommand(cli, matches) else {
        return Ok(());
    };
    let replace = matches!(m.try_get_one::<bool>("replace"), Ok(Some(true)));
    for id in output_options(cmd) {
        if let Ok(Some(values)) = m.try_get_many::<Output>(id) {
            for out in values {
                out.check(replace, &[])?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use clap::{Arg, CommandFactory};
    use ldd_io::Shape;

    use super::super::record::tests::{base, fill_missing, parses, strict, with};
    use super::super::Cli;
    use super::*;

    /// `args` without `a`'s values.
    fn without(args: &[String], a: &Arg) -> Vec<String> {
        let long = a.get_long().map(|l| format!("--{l}"));
        args.iter()
            .filter(|w| {
                !long
                    .as_ref()
                    .is_some_and(|l| *w == l || w.starts_with(&format!("{l}=")))
            })
            .cloned()
            .collect()
    }

    /// The smallest command line of `sub` with `a` given `value` (and `extra`), parsed:
    /// beside the base's arguments, else (an option that conflicts with one of them, as
    /// `mqm --export` with `--sets`) beside the strictly required ones.
    fn given(cli: &Command, sub: &Command, a: &Arg, value: &Path, extra: &[&str]) -> ArgMatches {
        let value = value.to_str().unwrap();
        [without(&base(cli, sub), a), strict(cli, sub)]
            .into_iter()
            .find_map(|args| {
                let mut args = with(&args, a, value);
                args.extend(extra.iter().map(|e| e.to_string()));
                parses(cli, &fill_missing(cli, sub, args)?)
            })
            .unwrap_or_else(|| {
                panic!(
                    "{} --{}: no command line parses",
                    sub.get_name(),
                    a.get_id()
                )
            })
    }

    fn bytes(p: &Path) -> Option<Vec<u8>> {
        std::fs::read(p).ok()
    }

    /// Every option of every command whose value is written to — found from clap's
    /// definitions by its value type, not from a list — refuses a user's file of comment
    /// lines, a symbolic link to it, and (where it replaces a directory) a directory holding
    /// a user's file, with exit code 4, before any work, also with `--replace`; each is left
    /// as it was.
    #[test]
    fn every_output_option_refuses_a_users_file_a_link_and_a_users_directory() {
        let cli = Cli::command();
        let t = tempfile::tempdir().unwrap();
        let notes = t.path().join("notes.txt");
        std::fs::write(&notes, "# mine\n# keep\n").unwrap();
        let link = t.path().join("link.txt");
        std::os::unix::fs::symlink(&notes, &link).unwrap();
        let mine = t.path().join("mine");
        std::fs::create_dir(&mine).unwrap();
        std::fs::write(mine.join("thesis.tex"), "mine").unwrap();
        let mut checked = Vec::new();
        for sub in cli.get_subcommands() {
            for id in output_options(sub) {
                let a = sub.get_arguments().find(|a| a.get_id() == id).unwrap();
                let m = given(&cli, sub, a, &notes, &[]);
                let (_, sm) = m.subcommand().unwrap();
                let out = sm.get_one::<Output>(id).unwrap();
                let mut targets = vec![notes.clone(), link.clone()];
                if out.kind().shape == Shape::Dir {
                    targets.push(mine.clone());
                }
                if out.kind().files.is_some() {
                    // A prefix: the user's file and the link are at the names it writes.
                    targets = vec![t.path().join("user"), t.path().join("linked")];
                    for f in Output::new(&targets[0], out.kind()).files() {
                        std::fs::copy(&notes, f).unwrap();
                    }
                    for f in Output::new(&targets[1], out.kind()).files() {
                        let _ = std::os::unix::fs::symlink(&notes, f);
                    }
                }
                let replace = sub.get_arguments().any(|x| x.get_id() == "replace");
                for target in &targets {
                    for extra in [&[][..], &["--replace"][..]] {
                        if !extra.is_empty() && !replace {
                            continue;
                        }
                        let m = given(&cli, sub, a, target, extra);
                        let before = (bytes(&notes), bytes(&mine.join("thesis.tex")));
                        let e = check_outputs(&cli, &m).expect_err(&format!(
                            "{} --{id} {} {extra:?} was not refused",
                            sub.get_name(),
                            target.display()
                        ));
                        assert_eq!(e.exit_code(), 4, "{} --{id}: {e}", sub.get_name());
                        assert_eq!(before, (bytes(&notes), bytes(&mine.join("thesis.tex"))));
                        assert!(std::fs::symlink_metadata(&link)
                            .unwrap()
                            .file_type()
                            .is_symlink());
                    }
                }
                checked.push(format!("{} --{id}", sub.get_name()));
            }
        }
        println!("{} output options: {}", checked.len(), checked.join(", "));
        for must in [
            "check-detection --record",
            "align --out",
            "align --posteriors",
            "align --save_align_model",
            "extract --save_align_model",
            "parse --out",
            "report --out",
            "sheets --key",
            "mqm --items",
        ] {
            assert!(checked.iter().any(|c| c == must), "{must} is not guarded");
        }
    }

    /// Every option whose value is a path (type `PathBuf`) and not an output is a noted
    /// input ([`note_inputs`]), and a noted input cannot be written: a file output at its
    /// path is refused. So a new option that writes to a path without being an `Output`
    /// is refused when it writes.
    #[test]
    fn every_other_path_option_is_an_input_nothing_may_write() {
        let cli = Cli::command();
        let t = tempfile::tempdir().unwrap();
        let mut checked = 0;
        for sub in cli.get_subcommands() {
            for a in sub.get_arguments() {
                if a.get_value_parser().type_id() != std::any::TypeId::of::<PathBuf>() {
                    continue;
                }
                let mark = t.path().join(format!("{}-{}", sub.get_name(), a.get_id()));
                std::fs::write(&mark, "mine\n").unwrap();
                let m = given(&cli, sub, a, &mark, &[]);
                note_inputs(&cli, &m);
                let e = ldd_io::AtomicFile::create(&mark).expect_err(&format!(
                    "{} --{}: a path that is neither an output nor a noted input",
                    sub.get_name(),
                    a.get_id()
                ));
                assert!(e.to_string().contains("is the input"), "{e}");
                assert_eq!(std::fs::read(&mark).unwrap(), b"mine\n");
                checked += 1;
            }
        }
        assert!(checked > 30, "{checked}");
    }
}
