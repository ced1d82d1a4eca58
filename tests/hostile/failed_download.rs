//! Class: a corpus download that fails. `corpora` into a directory that does not exist yet
//! makes it whole or not at all — staged beside it, moved into place once every corpus is
//! there — so a failure leaves no directory (`make extract` downloads when the directory
//! is missing, and so downloads again next time instead of finding "no corpora"). Into an
//! existing directory, each corpus is added whole or not at all.

use std::collections::HashMap;

use super::*;

/// A pair with two plain corpora, `good` and `bad`, served from `base`.
fn two_corpora(dir: &Path, base: &str) -> std::path::PathBuf {
    let pair = dir.join("two.toml");
    let corpus = |name: &str| {
        format!(
            "[[corpus]]\nname = \"{name}\"\nurl = \"{base}/{name}.{{lang}}\"\nformat = \"plain\"\n"
        )
    };
    std::fs::write(
        &pair,
        format!(
            "source = \"de\"\ntarget = \"en\"\nfiles = \"de-en\"\n[model]\nname = \"m.udpipe\"\n{}{}",
            corpus("good"),
            corpus("bad")
        ),
    )
    .unwrap();
    pair
}

/// PUD's two sides as `name.de` and `name.en`, for [`serve`].
fn served(name: &str) -> [(String, Vec<u8>); 2] {
    ["de", "en"].map(|l| {
        (
            format!("/{name}.{l}"),
            std::fs::read(data(&format!("parallel/pud.de-en.{l}"))).unwrap(),
        )
    })
}

#[test]
fn a_failed_download_leaves_no_directory_and_the_next_run_downloads_again() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let dir = t.join("corpora").join("de-en");
    // The first corpus downloads, the second is not found (404), an HTML page, or a
    // server that is not there.
    let html = (
        "/bad.de".to_string(),
        b"<!DOCTYPE html><html><body>login</body></html>".to_vec(),
    );
    let failing: [Vec<(String, Vec<u8>)>; 3] = [
        served("good").to_vec(),
        [served("good").to_vec(), vec![html]].concat(),
        Vec::new(),
    ];
    for files in failing {
        let base = match files.is_empty() {
            true => "http://127.0.0.1:9".to_string(),
            false => serve(files.into_iter().collect::<HashMap<_, _>>(), 8),
        };
        let pair = two_corpora(t, &base);
        let o = bin()
            .args(["corpora", "-q", "--pair", s(&pair), "--dir", s(&dir)])
            .output()
            .unwrap();
        assert_eq!(code(&o), 6, "{}", stderr(&o));
        assert!(!dir.exists(), "a failed download left {}", dir.display());
        let left: Vec<String> = entries(&t.join("corpora"));
        assert!(left.is_empty(), "left behind: {left:?}");
    }
    // Served whole: both corpora, in a directory made at once.
    let all: HashMap<String, Vec<u8>> = [served("good"), served("bad")]
        .concat()
        .into_iter()
        .collect();
    let pair = two_corpora(t, &serve(all.clone(), 8));
    let o = bin()
        .args(["corpora", "-q", "--pair", s(&pair), "--dir", s(&dir)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        entries(&dir),
        [
            "bad.de-en.de.gz",
            "bad.de-en.en.gz",
            "good.de-en.de.gz",
            "good.de-en.en.gz"
        ]
    );
    // Into the existing directory, a failing corpus adds nothing and removes nothing.
    std::fs::remove_file(dir.join("bad.de-en.de.gz")).unwrap();
    std::fs::remove_file(dir.join("bad.de-en.en.gz")).unwrap();
    let pair = two_corpora(t, &serve(served("good").into_iter().collect(), 8));
    let o = bin()
        .args(["corpora", "-q", "--pair", s(&pair), "--dir", s(&dir)])
        .output()
        .unwrap();
    assert_eq!(code(&o), 6, "{}", stderr(&o));
    assert_eq!(entries(&dir), ["good.de-en.de.gz", "good.de-en.en.gz"]);
}
