//! Class: writes outside the output directory. Language codes and a pair config's names
//! never become paths outside the directories they belong to, and `slice` never writes
//! through a set directory that is a symbolic link.

use super::*;

#[test]
fn language_codes_cannot_name_paths_or_collide_with_set_files() {
    let tmp = tempfile::tempdir().unwrap();
    let victim = tmp.path().join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    let out = tmp.path().join("a/b/out");
    for (flag, bad) in [
        ("--tgt-lang", "../../../victim.txt"),
        ("--tgt-lang", "/tmp/x"),
        ("--src-lang", "conllu"),
        ("--tgt-lang", "ids"),
        ("--tgt-lang", "DE"),
    ] {
        let mut args = pud_args(&out, &[]);
        let i = args.iter().position(|a| a == flag).unwrap();
        args[i + 1] = bad.to_string();
        let o = run_args(&args);
        assert_eq!(code(&o), 4, "{flag} {bad}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains("not a valid language code") || e.contains("would collide"),
            "{e}"
        );
        assert!(!tmp.path().join("a").exists());
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
}

#[test]
fn pair_configs_cannot_name_paths_outside_their_directories() {
    let tmp = tempfile::tempdir().unwrap();
    for (field, model_name, corpus_name, files) in [
        ("corpus", "m.udpipe", "/../../escape", "de-en"),
        ("model", "../../../etc/passwd", "books", "de-en"),
        ("files", "m.udpipe", "books", "../de-en"),
    ] {
        let pair = tmp.path().join(format!("{field}.toml"));
        std::fs::write(
            &pair,
            format!(
                "source = \"de\"\ntarget = \"en\"\nfiles = \"{files}\"\n[model]\nname = \"{model_name}\"\n\
                 [[corpus]]\nname = \"{corpus_name}\"\nurl = \"http://127.0.0.1:9/x\"\nformat = \"plain\"\n"
            ),
        )
        .unwrap();
        let dir = tmp.path().join(format!("c-{field}"));
        let o = bin()
            .args(["corpora", "--pair", s(&pair), "--dir", s(&dir), "--quiet"])
            .output()
            .unwrap();
        assert_eq!(code(&o), 4, "{field}: {}", stderr(&o));
        assert!(stderr(&o).contains("is not a valid"), "{}", stderr(&o));
        assert!(!dir.exists());
    }
    assert!(!Path::new("/escape").exists());
}

#[test]
fn slice_never_writes_through_a_symlinked_set_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let sets = scored_sets(tmp.path());
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::rename(sets.join("reflexive"), &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, sets.join("reflexive")).unwrap();
    let before = entries(&elsewhere);
    let o = bin()
        .args([
            "slice",
            "--sets",
            s(&sets),
            "--hyp",
            s(&tmp.path().join("sys.en")),
        ])
        .output()
        .unwrap();
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    assert!(stderr(&o).contains("is a symbolic link"), "{}", stderr(&o));
    assert_eq!(entries(&elsewhere), before);
    assert!(!entries(&sets).iter().any(|e| e.contains(".hyp.")));
}
