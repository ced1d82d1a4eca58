//! Class: deleting or replacing what ldd-sets did not write. An output that is not
//! ldd-sets' own or holds the inputs, a file an input names, a user's file at the lock's
//! name or a corpus's, a link: each is refused and left as it was; every output a user
//! names (`sheets --key`, `--out link/`, `align --posteriors`) goes through the guard of
//! `--out`.

use super::*;

#[test]
fn outputs_that_are_not_ours_or_hold_inputs_are_never_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    // A web project with a file named manifest.json.
    let web = tmp.path().join("web");
    std::fs::create_dir(&web).unwrap();
    std::fs::write(web.join("manifest.json"), "{\"name\": \"my app\"}").unwrap();
    std::fs::write(web.join("index.html"), "<html>").unwrap();
    let o = run_args(&pud_args(&web, &[]));
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not an ldd-sets output"),
        "{}",
        stderr(&o)
    );
    assert_eq!(entries(&web), vec!["index.html", "manifest.json"]);

    // A previous output that now also holds the inputs.
    let out = tmp.path().join("out");
    assert!(
        run_args(&pud_args(&out, &["--controls", "0", "--no-reorder"]))
            .status
            .success()
    );
    let (src, tgt, tree) = (out.join("c.de"), out.join("c.en"), out.join("c.conllu"));
    std::fs::copy(data("parallel/pud.de-en.de"), &src).unwrap();
    std::fs::copy(data("parallel/pud.de-en.en"), &tgt).unwrap();
    std::fs::copy(data("ud/de_pud-ud-test.conllu"), &tree).unwrap();
    let mut args = pud_args(&out, &["--controls", "0", "--no-reorder"]);
    for (flag, p) in [("--src", &src), ("--tgt", &tgt), ("--conllu", &tree)] {
        let i = args.iter().position(|a| a == flag).unwrap();
        args[i + 1] = s(p).to_string();
    }
    let o = run_args(&args);
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(stderr(&o).contains("contains the input"), "{}", stderr(&o));
    assert!(src.exists() && tgt.exists() && tree.exists());

    // File outputs equal to an input.
    let corpus = tmp.path().join("corpus.de");
    std::fs::copy(data("parallel/pud.de-en.de"), &corpus).unwrap();
    let before = std::fs::read(&corpus).unwrap();
    let o = bin()
        .args([
            "align",
            "--src",
            s(&corpus),
            "--tgt",
            s(&data("parallel/pud.de-en.en")),
        ])
        .args(["--out", s(&corpus), "--quiet"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    let o = bin()
        .args([
            "parse",
            "--src",
            s(&corpus),
            "--out",
            s(&tmp.path().join("./corpus.de")),
        ])
        .args(["--model", s(&shared().join("models/german-small.udpipe"))])
        .args(["--cache", s(&tmp.path().join("cache")), "--quiet"])
        .output()
        .unwrap();
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(stderr(&o).contains("is the input"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&corpus).unwrap(), before);
}

#[test]
fn a_lock_name_planted_as_a_symlink_is_not_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let victim = tmp.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    std::os::unix::fs::symlink(&victim, tmp.path().join(".out.ldd-lock")).unwrap();
    let o = run_args(&pud_args(&tmp.path().join("out"), &["--controls", "0"]));
    assert_ne!(code(&o), 0);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
}

#[test]
fn corpora_never_replaces_or_removes_a_users_file_at_its_output_name() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("corpora");
    std::fs::create_dir_all(&dir).unwrap();
    let mine = dir.join("plain.de-en.de.gz");
    std::fs::write(&mine, "my own notes\n").unwrap();
    let de = std::fs::read(data("parallel/pud.de-en.de")).unwrap();
    let en = std::fs::read(data("parallel/pud.de-en.en")).unwrap();
    let base = serve(
        std::collections::HashMap::from([
            ("/plain.de".to_string(), de),
            ("/plain.en".to_string(), en),
        ]),
        4,
    );
    let pair = pair_config(tmp.path(), &base);
    let o = bin()
        .args(["corpora", "-q", "--pair", s(&pair), "--dir", s(&dir)])
        .output()
        .unwrap();
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("does not replace a file it may not have written"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), "my own notes\n");
    assert_eq!(entries(&dir), vec!["plain.de-en.de.gz"]);
}

#[test]
fn no_output_may_be_an_input_of_the_same_command() {
    let tmp = tempfile::tempdir().unwrap();
    let (de, en) = (data("parallel/pud.de-en.de"), data("parallel/pud.de-en.en"));
    let prefix = tmp.path().join("m");
    let o = bin()
        .args([
            "align",
            "-q",
            "--src",
            s(&de),
            "--tgt",
            s(&en),
            "--align-model-type",
            "fast-align",
            "--save-align-model",
            s(&prefix),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let fwd = tmp.path().join("m.fwd.ldda");
    let model = std::fs::read(&fwd).unwrap();
    // `align --out` naming the model file it loads.
    let o = bin()
        .args([
            "align",
            "-q",
            "--src",
            s(&de),
            "--tgt",
            s(&en),
            "--align-model-type",
            "fast-align",
            "--align-model",
            s(&prefix),
        ])
        .args(["--out", s(&fwd)])
        .output()
        .unwrap();
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(stderr(&o).contains("is the input"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&fwd).unwrap(), model);
    // `--save-align-model P` where an input (here the target side) is the file `name` the
    // model would be saved as: refused, the input untouched.
    let save_over_input = |name: &str, prefix: &str, model_type: &[&str]| {
        let tgt = tmp.path().join(name);
        std::fs::copy(&en, &tgt).unwrap();
        let o = bin()
            .args(["align", "-q", "--src", s(&de), "--tgt", s(&tgt)])
            .args(model_type)
            .args(["--save-align-model", s(&tmp.path().join(prefix))])
            .output()
            .unwrap();
        assert_eq!(code(&o), 4, "{name}: {}", stderr(&o));
        assert_eq!(std::fs::read(&tgt).unwrap(), std::fs::read(&en).unwrap());
    };
    save_over_input("t.fwd.ldda", "t", &["--align-model-type", "fast-align"]);
    assert!(!tmp.path().join("t.rev.ldda").exists());
    // The HMM's model file, loaded and named as the output.
    let h = tmp.path().join("h");
    let o = bin()
        .args(["align", "-q", "--src", s(&de), "--tgt", s(&en)])
        .args(["--align-model-type", "hmm", "--save-align-model", s(&h)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let hfile = tmp.path().join("h.hmm.ldda");
    let model = std::fs::read(&hfile).unwrap();
    let o = bin()
        .args(["align", "-q", "--src", s(&de), "--tgt", s(&en)])
        .args(["--align-model-type", "hmm"])
        .args(["--align-model", s(&h), "--out", s(&hfile)])
        .output()
        .unwrap();
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(stderr(&o).contains("is the input"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&hfile).unwrap(), model);
    // The same with the default model, the HMM: P.hmm.ldda.
    save_over_input("u.hmm.ldda", "u", &[]);
}

#[test]
fn a_users_file_at_the_locks_name_is_refused_and_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let lock = tmp.path().join(".out.ldd-lock");
    std::fs::write(&lock, "my notes, not a lock\n").unwrap();
    let o = run_args(&pud_args(&out, &["-q", "--no-reorder"]));
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not an ldd-sets lock"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(&lock).unwrap(),
        "my notes, not a lock\n"
    );
    assert!(!out.exists());
    // A directory there too.
    std::fs::remove_file(&lock).unwrap();
    std::fs::create_dir(&lock).unwrap();
    let o = run_args(&pud_args(&out, &["-q", "--no-reorder"]));
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(lock.is_dir());
    assert_eq!(entries(tmp.path()), vec![".out.ldd-lock"]);
}

#[test]
fn directories_that_are_files_or_dot_get_a_clear_message() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("afile");
    std::fs::write(&file, "x").unwrap();
    // A directory output named by a file is refused by the one output guard before any
    // work (exit 4, as `--out` is).
    let o = parse_pud(&file, &tmp.path().join("x.conllu"))
        .output()
        .unwrap();
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("exists and is not a directory"),
        "{}",
        stderr(&o)
    );
    let o = bin()
        .args(["corpora", "-q", "--pair", "de-en", "--dir", s(&file)])
        .output()
        .unwrap();
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("exists and is not a directory"),
        "{}",
        stderr(&o)
    );
    let prev = tmp.path().join("prev");
    std::fs::create_dir(&prev).unwrap();
    let o = run_args(&pud_args(&prev.join("."), &["-q", "--no-reorder"]));
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("without a final `/.`"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
}

/// Every output path a user names goes through the guard of `--out`: `sheets --key` never
/// replaces the sets' manifest, a set's ids or locus file, the corpus, a user's file or a
/// link (exit 4, nothing written, the file unchanged), nor a user's file at the default key
/// path; `--out link/` fails before any work (extract, permute, sheets — no key left
/// behind); `align --posteriors` naming its input model leaves `--out` as it was.
#[test]
fn user_named_outputs_are_guarded_like_out() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let sets = judged_sets(t, None, &[]);
    let [a, b] = two_systems(t);
    let corpus = t.join("corpus.en");
    std::fs::copy(data("parallel/pud.de-en.en"), &corpus).unwrap();
    let mine = t.join("notes.txt");
    std::fs::write(&mine, "mine\n").unwrap();
    let link = t.join("link.csv");
    std::os::unix::fs::symlink(&mine, &link).unwrap();
    let victims = [
        sets.join("manifest.json"),
        sets.join("reflexive/eq1.ids"),
        sets.join("reflexive/eq1.locus.tsv"),
        corpus.clone(),
        a.clone(),
        mine.clone(),
        link.clone(),
    ];
    for v in &victims {
        let before = std::fs::read(v).unwrap();
        let o = sheets_cmd(&sets, &[&a, &b], &t.join("sh"), &["--key", s(v)]);
        assert_eq!(code(&o), 4, "{}: {}", v.display(), stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains("was not written by `ldd-sets sheets`")
                || e.contains("is a symbolic link")
                || e.contains("is the input"),
            "{e}"
        );
        assert_eq!(std::fs::read(v).unwrap(), before, "{}", v.display());
        assert!(!t.join("sh").exists());
    }
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    // A user's file at the default key path.
    std::fs::write(t.join("sh.key.csv"), "my key\n").unwrap();
    let o = sheets_cmd(&sets, &[&a, &b], &t.join("sh"), &[]);
    refused(
        &o,
        4,
        "sh.key.csv: exists and was not written by `ldd-sets sheets`",
    );
    assert_eq!(
        std::fs::read_to_string(t.join("sh.key.csv")).unwrap(),
        "my key\n"
    );
    // A key `sheets` wrote is replaced by the next run.
    std::fs::remove_file(t.join("sh.key.csv")).unwrap();
    for _ in 0..2 {
        let o = sheets_cmd(&sets, &[&a, &b], &t.join("sh"), &[]);
        assert!(o.status.success(), "{}", stderr(&o));
    }

    // `--out link/`: refused before any work, naming the link; nothing left.
    let real = t.join("real");
    std::fs::create_dir(&real).unwrap();
    std::os::unix::fs::symlink(&real, t.join("to-real")).unwrap();
    let slash = format!("{}/", s(&t.join("to-real")));
    let books = data("parallel/books-sample.de-en");
    let runs: Vec<(&str, Vec<String>)> = vec![
        (
            "extract",
            pud_args(Path::new(&slash), &["-q", "--align-train", s(&books)]),
        ),
        (
            "permute",
            [
                "permute",
                "-q",
                "--src",
                s(&data("parallel/newstest2013.de-en.de")),
                "--tgt",
                s(&data("parallel/newstest2013.de-en.en")),
                "--src-lang",
                "de",
                "--tgt-lang",
                "en",
                "--test",
                "10",
                "--dev",
                "10",
                "--out",
                &slash,
            ]
            .map(String::from)
            .to_vec(),
        ),
        (
            "sheets",
            [
                "sheets",
                "-q",
                "--sets",
                s(&sets),
                "--hyp",
                s(&a),
                "--out",
                &slash,
                "--key",
                s(&t.join("k.csv")),
            ]
            .map(String::from)
            .to_vec(),
        ),
    ];
    for (name, args) in runs {
        let started = Instant::now();
        let o = run_args(&args);
        refused(&o, 4, "to-real: is a symbolic link");
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{name} worked before refusing"
        );
        assert!(entries(&real).is_empty(), "{name}");
        assert!(!t.join("k.csv").exists(), "{name} left its key behind");
    }

    // `align --posteriors` naming the model it reads: refused, `--out` as it was.
    let out = t.join("old.align");
    std::fs::write(&out, "0-0\n").unwrap();
    let o = bin()
        .args(["align", "-q", "--src", s(&data("parallel/pud.de-en.de"))])
        .args(["--tgt", s(&data("parallel/pud.de-en.en"))])
        .args(["--src-lang", "de", "--tgt-lang", "en"])
        .args(["--align-model", s(&t.join("model")), "--out", s(&out)])
        .args(["--posteriors", s(&t.join("model.hmm.ldda"))])
        .output()
        .unwrap();
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "0-0\n");
    assert!(t.join("model.hmm.ldda").is_file());
}
