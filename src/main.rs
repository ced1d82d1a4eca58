//! The `ldd-sets` binary: the command line in [`cli`] glues the library's stages together.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
