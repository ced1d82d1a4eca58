//! `pip install .` (issue 55): the checkout builds into a wheel that carries the `ldd-sets`
//! binary (maturin, `bindings = "bin"`, pyproject.toml), installed into a fresh virtualenv;
//! the demo then runs from the installed command. maturin builds the binary alone, so cargo
//! resolves the dependencies' features without the tests' and builds them again: to keep
//! the suite's time, the test builds with the release profile's optimisation but without
//! LTO and with 16 codegen units (the command's behaviour is the same; only its speed
//! differs). pip fetches maturin from PyPI into its isolated build environment, as for any
//! user.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use common::stderr;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Cargo's target directory of this test run: the binary under test is `TARGET/release/ldd-sets`.
fn target_dir() -> PathBuf {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_ldd-sets"));
    bin.parent().and_then(Path::parent).unwrap().to_path_buf()
}

#[test]
fn pip_install_gives_a_working_command_that_runs_the_demo() {
    let t = tempfile::tempdir().unwrap();
    let venv = t.path().join("venv");
    let o = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .output()
        .unwrap();
    assert!(o.status.success(), "python3 -m venv: {}", stderr(&o));
    let start = Instant::now();
    let o = Command::new(venv.join("bin/pip"))
        .args([
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-input",
        ])
        .arg(root())
        .env("CARGO_TARGET_DIR", target_dir())
        .env("CARGO_PROFILE_RELEASE_LTO", "false")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
        .env("CARGO_PROFILE_RELEASE_DEBUG", "0")
        .env_remove("MAKEFLAGS")
        .output()
        .unwrap();
    assert!(o.status.success(), "pip install .: {}", stderr(&o));
    eprintln!("pip install . took {:.0} s", start.elapsed().as_secs_f64());
    // The command is the environment's, and it is ldd-sets.
    let bin = venv.join("bin/ldd-sets");
    assert!(bin.is_file(), "no {}", bin.display());
    let o = Command::new(&bin).arg("--version").output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).starts_with("ldd-sets "),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // The demo, from the installed command: sizes, scores, the report.
    let demo = t.path().join("demo");
    let o = Command::new("make")
        .current_dir(root())
        .args(["--no-print-directory", "-s", "demo-run"])
        .arg(format!("BIN={}", bin.display()))
        .arg(format!("DEMO_OUT={}", demo.display()))
        .env_remove("MAKEFLAGS")
        .output()
        .unwrap();
    assert!(o.status.success(), "make demo-run: {}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    for want in [
        "sentences with a pair at distance >= d:",
        "\nsystem ",
        "ref-swap",
        "report written to",
    ] {
        assert!(out.contains(want), "no `{want}` in: {out}");
    }
    assert!(demo.join("report.html").is_file());
    assert!(demo.join("scores.json").is_file());
}
