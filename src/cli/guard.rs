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

/// Checks every output named on the command line of `matches` (parsed by `cli`).
pub fn check_outputs(cli: &Command, matches: &ArgMatches) -> Result<()> {
    let Some((name, m)) = matches.subcommand() else {
        return Ok(());
    };
    let Some(cmd) = cli.find_subcommand(name) else {
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
