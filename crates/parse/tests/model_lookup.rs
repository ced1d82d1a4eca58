//! Model lookup: explicit path, models directory, offline failure messages, default directory.

mod common;

use common::*;
use ldd_parse::{default_models_dir, resolve_model, ModelSource, Parser};

const NAME: &str = "german-gsd-ud-2.5-191206.udpipe";

#[test]
fn explicit_path_wins_and_must_exist() {
    let empty = tempfile::tempdir().expect("tempdir");
    let m = german_model();
    let got = resolve_model(
        Some(&m),
        NAME,
        empty.path(),
        &ModelSource::default(),
        false,
        &|_| {},
    )
    .expect("explicit");
    assert_eq!(got, m);
    Parser::load(&got).expect("loads");
    let missing = empty.path().join("nope.udpipe");
    let err = resolve_model(
        Some(&missing),
        NAME,
        empty.path(),
        &ModelSource::default(),
        true,
        &|_| {},
    )
    .expect_err("missing");
    assert!(
        err.to_string().contains(&missing.display().to_string()),
        "{err}"
    );
}

#[test]
fn models_dir_is_searched_by_name() {
    let dir = shared().join("models");
    let got = resolve_model(
        None,
        "german-small.udpipe",
        &dir,
        &ModelSource::default(),
        false,
        &|_| {},
    )
    .expect("found");
    assert_eq!(got, dir.join("german-small.udpipe"));
}

#[test]
fn missing_model_offline_names_paths_and_remedies() {
    let dir = tempfile::tempdir().expect("tempdir");
    let err = resolve_model(
        None,
        NAME,
        dir.path(),
        &ModelSource::default(),
        false,
        &|_| {},
    )
    .expect_err("offline");
    let msg = err.to_string();
    let looked = dir.path().join(NAME);
    assert!(msg.contains(&looked.display().to_string()), "{msg}");
    assert!(msg.contains("downloading is disabled"), "{msg}");
    // The command's own option is the caller's to name (`--model`, `--target-model`, …).
    assert!(!msg.contains("--"), "{msg}");
    assert!(msg.contains("LDD_SETS_MODELS"), "{msg}");
    assert!(
        msg.contains(&format!("1-3131/{NAME}")),
        "names the download URL: {msg}"
    );
}

#[test]
fn failed_download_leaves_nothing_behind() {
    let dir = tempfile::tempdir().expect("tempdir");
    // Port 9 on loopback: connection refused, no traffic leaves the machine.
    let url = "http://127.0.0.1:9/german.udpipe";
    // What it tells the caller (the crate prints nothing).
    let said = std::cell::RefCell::new(Vec::new());
    let err = resolve_model(
        None,
        NAME,
        dir.path(),
        &ModelSource {
            url: Some(url),
            ..ModelSource::default()
        },
        true,
        &|line| said.borrow_mut().push(line.to_string()),
    )
    .expect_err("refused");
    let target = dir.path().join(NAME);
    assert_eq!(
        said.into_inner(),
        [format!(
            "ldd-sets: downloading UDPipe model {url} -> {} ...",
            target.display()
        )]
    );
    let msg = err.to_string();
    assert!(msg.contains("downloading it failed"), "{msg}");
    assert!(msg.contains(url), "{msg}");
    assert!(
        msg.contains(&dir.path().join(NAME).display().to_string()),
        "{msg}"
    );
    let left: Vec<_> = std::fs::read_dir(dir.path()).expect("ls").collect();
    assert!(left.is_empty(), "temp files left: {left:?}");
}

/// The only test touching environment variables (kept in one test: tests run in threads).
#[test]
fn default_models_dir_follows_the_environment() {
    std::env::set_var("LDD_SETS_MODELS", "/x/models");
    assert_eq!(
        default_models_dir().expect("dir"),
        std::path::Path::new("/x/models")
    );
    std::env::set_var("LDD_SETS_MODELS", "");
    std::env::set_var("XDG_CACHE_HOME", "/xdg");
    assert_eq!(
        default_models_dir().expect("dir"),
        std::path::Path::new("/xdg/ldd-sets/models")
    );
    std::env::remove_var("XDG_CACHE_HOME");
    std::env::set_var("HOME", "/home/u");
    assert_eq!(
        default_models_dir().expect("dir"),
        std::path::Path::new("/home/u/.cache/ldd-sets/models")
    );
    std::env::remove_var("HOME");
    std::env::remove_var("LDD_SETS_MODELS");
    assert!(default_models_dir().is_err());
}
