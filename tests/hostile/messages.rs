//! Class: messages and permissions. Control characters in paths, CoNLL-U fields and edited
//! names reach the terminal, CSV, HTML and LaTeX only escaped; outputs follow the umask.

use super::*;

#[test]
fn messages_escape_control_characters() {
    let tmp = tempfile::tempdir().unwrap();
    let evil = tmp.path().join("x\u{1b}[2J\u{7}.de");
    let mut args = pud_args(&tmp.path().join("out"), &[]);
    let i = args.iter().position(|a| a == "--src").unwrap();
    args[i + 1] = s(&evil).to_string();
    let o = run_args(&args);
    assert_eq!(code(&o), 5, "{}", stderr(&o));
    let e = stderr(&o);
    assert!(!e.contains('\u{1b}') && !e.contains('\u{7}'), "{e:?}");
    assert!(e.contains("x\\u{1b}[2J\\u{7}.de"), "{e}");
    // A CoNLL-U line carrying escape sequences in a bad HEAD.
    let mut blocks = pud_blocks();
    blocks[0] = blocks[0].replacen("\t0\troot\t", "\t\u{1b}]0;pwned\u{7}\troot\t", 1);
    let o = with_conllu(tmp.path(), "esc.conllu", &blocks.concat());
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        !e.contains('\u{1b}') && e.contains("invalid HEAD `\\u{1b}]0;pwned\\u{7}`"),
        "{e:?}"
    );
}

#[test]
fn outputs_follow_the_umask() {
    for (umask, file_mode, dir_mode) in [(0o022, 0o644, 0o755), (0o077, 0o600, 0o700)] {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let mut cmd = bin();
        cmd.args(pud_args(&out, &["--controls", "2", "--quiet"]));
        // SAFETY: umask in the child before exec.
        unsafe {
            cmd.pre_exec(move || {
                libc::umask(umask);
                Ok(())
            });
        }
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&out), dir_mode);
        assert_eq!(mode(&out.join("reflexive")), dir_mode);
        for f in [
            out.join("manifest.json"),
            out.join("summary.csv"),
            out.join("reflexive/ge1.de"),
            out.join("reflexive/controls/ge1.1.ids"),
            out.join("reorder/alignments.txt"),
        ] {
            assert_eq!(mode(&f), file_mode, "{}", f.display());
        }
    }
}

#[test]
fn names_from_an_edited_manifest_are_escaped_in_the_table_and_the_csv() {
    let tmp = tempfile::tempdir().unwrap();
    let sets = scored_sets(tmp.path());
    let m = sets.join("manifest.json");
    let text = std::fs::read_to_string(&m).unwrap();
    let evil = text.replace(
        "\"bucket\": \"ge3\"",
        "\"bucket\": \"ge3\\u001b[2J\\u0007\"",
    );
    assert_ne!(evil, text);
    std::fs::write(&m, evil).unwrap();
    let o = bin()
        .args([
            "score",
            "--sets",
            s(&sets),
            "--hyp",
            s(&tmp.path().join("sys.en")),
        ])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned() + &stderr(&o);
    assert!(!out.contains('\u{1b}') && !out.contains('\u{7}'), "{out:?}");
    assert!(o.status.success(), "{out}");
    let csv = std::fs::read_to_string(sets.join("scores.csv")).unwrap();
    assert!(!csv.contains('\u{1b}'), "raw escape in scores.csv");
    assert!(csv.contains("ge3\\u{1b}[2J\\u{7}"), "{csv}");
    assert!(out.contains("ge3\\u{1b}[2J\\u{7}"), "{out}");
}

/// Writes `text` as the items of the contrast directory `con` and forges the checksum
/// its `contrast.json` records, so that the checks behind the checksum are reached.
fn forge_items(con: &Path, text: &str) {
    std::fs::write(con.join("items.jsonl"), text).unwrap();
    let rec = con.join("contrast.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    v["items_sha256"] = ldd_io::sha256_bytes(text.as_bytes()).into();
    std::fs::write(&rec, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

/// Text from edited files reaches HTML, LaTeX and the terminal only escaped: a metric key
/// of `scores.json` holding a `<meta http-equiv=refresh>` tag and ESC/BEL is text in every
/// caption, title and table of the report (whose policy also forbids a base URL and form
/// targets), one LaTeX comment line, and an edited `items.jsonl` variant type is refused
/// by `score --contrast` with its escape shown, never raw, as is a `--seg-scores` name. A
/// truncated `items.jsonl` is named as the culprit (not the score file); `--target-model
/// auto` without the model advises the command's own remedy, not `--model`.
#[test]
fn edited_names_reach_html_latex_and_the_terminal_only_as_text() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let sets = judged_sets(t, None, &[]);
    let [a, b] = two_systems(t);
    let o = bin()
        .args([
            "score",
            "-q",
            "--sets",
            s(&sets),
            "--hyp",
            s(&a),
            "--hyp",
            s(&b),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let scores = sets.join("scores.json");
    let text = std::fs::read_to_string(&scores).unwrap();
    let tag = "<meta http-equiv=\\\"refresh\\\" content=\\\"0;url=file:///etc/passwd\\\">";
    for (k, evil) in [
        format!("chrf{tag}\\u001b[2J\\u0007"),
        "chrf\\n\\\\input{/etc/passwd}<b>x</b>".to_string(),
    ]
    .iter()
    .enumerate()
    {
        let edited = text.replace("\"chrf\"", &format!("\"{evil}\""));
        assert_ne!(edited, text);
        std::fs::write(&scores, &edited).unwrap();
        let o = bin().args(["report", "--sets", s(&sets)]).output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let page = std::fs::read_to_string(sets.join("report.html")).unwrap();
        assert!(!page.contains("<meta http-equiv=\"refresh"), "case {k}");
        assert!(!page.contains("<b>x</b>"), "case {k}");
        assert!(page.contains("&lt;meta http-equiv=&quot;refresh") || k == 1);
        assert!(page.contains("base-uri 'none'; form-action 'none'"));
        let tex = t.join("r.tex");
        let o = bin()
            .args(["report", "--sets", s(&sets), "--format", "latex"])
            .args(["--out", s(&tex)])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let latex = std::fs::read_to_string(&tex).unwrap();
        assert!(!latex.contains('\u{1b}') && !latex.contains('\u{7}'));
        assert!(
            !latex.lines().any(|l| l.starts_with("\\input")),
            "a line break in a name ended a LaTeX comment"
        );
    }
    std::fs::write(&scores, &text).unwrap();

    // A variant type of an edited items.jsonl: refused, escaped in the message.
    let con = t.join("con");
    let o = bin()
        .args(["contrast", "-q", "--sets", s(&sets), "--out", s(&con)])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let items = std::fs::read_to_string(con.join("items.jsonl")).unwrap();
    let n = std::fs::read_to_string(con.join("contrast.en"))
        .unwrap()
        .lines()
        .count();
    let lp = t.join("lp.txt");
    std::fs::write(&lp, "-1.5\n".repeat(n)).unwrap();
    for evil in ["dropped\\u001b[2J\\u0007", "dropped<b>x</b>", "Dropped"] {
        let edited = items.replacen("\"type\":\"dropped\"", &format!("\"type\":\"{evil}\""), 1);
        assert_ne!(edited, items);
        forge_items(&con, &edited);
        let o = bin()
            .args(["score", "--sets", s(&sets), "--contrast", s(&con)])
            .args(["--contrastive", s(&lp), "--out", s(&t.join("sc"))])
            .output()
            .unwrap();
        let all = String::from_utf8_lossy(&o.stdout).into_owned() + &stderr(&o);
        assert_eq!(code(&o), 3, "{all}");
        assert!(all.contains("is not a type name"), "{all}");
        assert!(!all.contains('\u{1b}') && !all.contains('\u{7}'), "{all:?}");
    }

    // A truncated items.jsonl is blamed, not the score file, and with no line count of it.
    let last = items.trim_end().rfind('\n').unwrap();
    for (cut, want) in [
        (&items[..=last], "items, but contrast.json records"),
        (&items[..last - 5], "not a contrast item"),
    ] {
        forge_items(&con, cut);
        let o = bin()
            .args(["score", "-q", "--sets", s(&sets), "--contrast", s(&con)])
            .args(["--contrastive", s(&lp), "--out", s(&t.join("sc"))])
            .output()
            .unwrap();
        refused(&o, 3, want);
        let e = stderr(&o);
        assert!(e.contains("items.jsonl") && !e.contains("lp.txt"), "{e}");
    }

    // A metric's name with controls never reaches score's table: refused, shown escaped.
    let seg: Vec<std::path::PathBuf> = (0..2).map(|k| t.join(format!("seg{k}.txt"))).collect();
    for f in &seg {
        std::fs::write(f, "0.5\n".repeat(1000)).unwrap();
    }
    let o = bin()
        .args(["score", "--sets", s(&sets), "--hyp", s(&a), "--hyp", s(&b)])
        .arg("--seg-scores")
        .arg(format!("m\u{1b}[2J\u{7}={},{}", s(&seg[0]), s(&seg[1])))
        .args(["--metrics", "bleu", "--out", s(&t.join("sc2"))])
        .output()
        .unwrap();
    let all = String::from_utf8_lossy(&o.stdout).into_owned() + &stderr(&o);
    assert!(!all.contains('\u{1b}') && !all.contains('\u{7}'), "{all:?}");
    assert_eq!(code(&o), 4, "{all}");
    assert!(
        all.contains("--seg-scores name `m\\u{1b}[2J\\u{7}`"),
        "{all}"
    );

    // `auto` for a target model that is not there: the advice names the command's option.
    let empty = t.join("no-models");
    std::fs::create_dir(&empty).unwrap();
    let o = bin()
        .args([
            "contrast",
            "-q",
            "--sets",
            s(&sets),
            "--out",
            s(&t.join("c2")),
        ])
        .args(["--target-model", "auto"])
        .env("LDD_SETS_MODELS", &empty)
        .output()
        .unwrap();
    refused(&o, 6, "or give the model file instead of `auto`");
    assert!(!stderr(&o).contains("--model"), "{}", stderr(&o));
}
