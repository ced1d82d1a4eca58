//! Class: every command ldd-sets prints for a person to type — the advice when `score`
//! refuses to merge, the "next:" lines of `extract`, the notes after `score` that a report
//! shows other scores, the sacreBLEU habit hint, the advice for a `--hyp` read as
//! `NAME=FILE`, the directory to give instead of a `run` output, the commands a report
//! shows — pasted back into `sh -c`, `zsh -c`, and bash and zsh reading it as an
//! interactive shell does (history expansion on), with a stand-in for `ldd-sets` on the
//! PATH that records its arguments: the same files and the same `NAME=` names come back,
//! and nothing runs (issue 65, item 3). The advice and the notes are pasted into the real
//! binary too, which then scores or reports the same files.

use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use super::*;

/// File and directory names a careless or hostile user may have: each is one word that a
/// shell would split, expand, glob, run or read as history, or that `--hyp` would read as
/// `NAME=FILE`, unless it is quoted as it should be.
const HOSTILE: [&str; 23] = [
    "a=b.en",
    "sys=x=y.en",
    "=ls",
    "==x",
    "~x",
    "~",
    "!x",
    "a!!b",
    "-x",
    "$(touch PWNED1)",
    "`touch PWNED2`",
    "x;touch PWNED3",
    "sp ace",
    "q'uo\"te",
    "new\nline",
    "na\u{ef}ve \u{65e5}\u{672c}",
    "*",
    "?x",
    "[ab]",
    "{a,b}",
    "#x",
    "^x",
    "x%y@z+,:",
];

/// The shells a printed command is pasted into: the program, its flags, and whether the
/// command is its input (read as an interactive shell reads it, history expansion on)
/// rather than its `-c` argument. zsh only when installed (tests/setup/install.sh).
fn shells() -> Vec<(&'static str, &'static [&'static str], bool)> {
    let mut v: Vec<(&str, &[&str], bool)> = vec![("sh", &["-c"], false), ("bash", &["-s"], true)];
    if Path::new("/usr/bin/zsh").exists() {
        v.push(("/usr/bin/zsh", &["-f", "-c"], false));
        v.push(("/usr/bin/zsh", &["-f", "-i", "-s"], true));
    }
    v
}

/// A directory holding the stand-in `ldd-sets`: a script that appends its argument count
/// and arguments, NUL-terminated, to the file `$LDD_ARGV`.
fn stand_in(t: &Path) -> PathBuf {
    let dir = t.join(".stand-in");
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("ldd-sets");
    std::fs::write(
        &script,
        "#!/bin/sh\nprintf '%s\\0' \"$#\" \"$@\" >> \"$LDD_ARGV\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// Runs `script` with `shell` in `t`, `bin_dir` first on the PATH.
fn run_in(shell: (&str, &[&str], bool), t: &Path, bin_dir: &Path, script: &str) -> Output {
    let (program, flags, stdin) = shell;
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap());
    let mut c = Command::new(program);
    c.args(flags)
        .current_dir(t)
        .env("PATH", path)
        .env("HOME", t.join(".stand-in"))
        .env("LDD_ARGV", t.join(".argv"));
    if !stdin {
        return c.arg(script).output().unwrap();
    }
    let mut child = c
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    // History expansion needs a line in the history to expand to; `exit $?` keeps the
    // status of the pasted command.
    let _ = write!(
        input,
        "set -o history -o histexpand 2>/dev/null\n: HISTORY\n{script}\nexit $?\n"
    );
    drop(input);
    child.wait_with_output().unwrap()
}

/// The invocations of `ldd-sets` (each its arguments) when `script` is pasted into every
/// shell of [`shells`] in `t` with the stand-in: the same from each, and no payload ran.
fn paste(t: &Path, script: &str) -> Vec<Vec<Vec<u8>>> {
    let bin_dir = stand_in(t);
    let mut first: Option<Vec<Vec<Vec<u8>>>> = None;
    for shell in shells() {
        let _ = std::fs::remove_file(t.join(".argv"));
        let o = run_in(shell, t, &bin_dir, script);
        assert!(o.status.success(), "{shell:?}: {script}: {}", stderr(&o));
        let got = invocations(&std::fs::read(t.join(".argv")).unwrap_or_default());
        no_payload(t);
        match &first {
            None => first = Some(got),
            Some(f) => assert_eq!(&got, f, "{shell:?} read {script:?} otherwise"),
        }
    }
    first.unwrap_or_default()
}

/// The invocations the stand-in recorded in `bytes`: a count, then that many arguments.
fn invocations(bytes: &[u8]) -> Vec<Vec<Vec<u8>>> {
    let mut fields: Vec<&[u8]> = bytes.split(|&b| b == 0).collect();
    fields.pop();
    let mut out = Vec::new();
    let mut k = 0;
    while k < fields.len() {
        let n: usize = std::str::from_utf8(fields[k]).unwrap().parse().unwrap();
        out.push(
            fields[k + 1..k + 1 + n]
                .iter()
                .map(|f| f.to_vec())
                .collect(),
        );
        k += 1 + n;
    }
    out
}

/// The one invocation of `script` pasted ([`paste`]).
fn paste_one(t: &Path, script: &str) -> Vec<Vec<u8>> {
    let mut v = paste(t, script);
    assert_eq!(v.len(), 1, "{script}");
    v.remove(0)
}

/// Runs `script` with `sh` in `t`, the real ldd-sets on the PATH.
fn run_real(t: &Path, script: &str) -> Output {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_ldd-sets")).parent().unwrap();
    let o = run_in(("sh", &["-c"], false), t, bin_dir, script);
    no_payload(t);
    o
}

/// `value` as `--hyp` reads it: the split of src/cli/args.rs's `parse_system` (at the
/// first `=` of a UTF-8 value, when what is before it is a name: a letter or digit, then
/// letters, digits, `.`, `_`, `-`).
fn system_of(value: &[u8]) -> (Option<String>, PathBuf) {
    let text = String::from_utf8(value.to_vec()).unwrap();
    if let Some((name, file)) = text.split_once('=') {
        let mut c = name.chars();
        let is_name = c.next().is_some_and(|f| f.is_ascii_alphanumeric())
            && c.all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
        if is_name {
            return (Some(name.to_string()), PathBuf::from(file));
        }
    }
    (None, PathBuf::from(text))
}

/// Whether `printed` (an argument as a shell gave it back) names the path `want`, both
/// relative to the same directory: the same components, `./` aside.
fn same_path(printed: &[u8], want: &Path) -> bool {
    let parts = |p: &Path| -> Vec<std::ffi::OsString> {
        p.components()
            .filter(|c| !matches!(c, std::path::Component::CurDir))
            .map(|c| c.as_os_str().to_os_string())
            .collect()
    };
    let printed = Path::new(std::str::from_utf8(printed).unwrap());
    parts(printed) == parts(want)
}

/// The arguments as text, for messages.
fn shown(args: &[Vec<u8>]) -> Vec<String> {
    args.iter()
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect()
}

/// The text of `text` between `start` (the last one) and the first `end` after it.
fn between<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let at = text
        .rfind(start)
        .unwrap_or_else(|| panic!("no `{start}` in {text:?}"))
        + start.len();
    let len = text[at..]
        .find(end)
        .unwrap_or_else(|| panic!("no `{end}` after `{start}` in {text:?}"));
    &text[at..at + len]
}

/// The text of `text` after `start` (the last one) to its end, without the final line
/// break: a command printed last, which spans lines when a path holds a line feed.
fn after<'a>(text: &'a str, start: &str) -> &'a str {
    let at = text
        .rfind(start)
        .unwrap_or_else(|| panic!("no `{start}` in {text:?}"));
    text[at + start.len()..].trim_end_matches('\n')
}

/// PUD de→en sets without reordering or controls ([`quick_sets`]), in `t/sets`, and the
/// English side as a system's output, `t/hyp.en`.
fn fixture(t: &Path) -> (PathBuf, PathBuf) {
    let sets = quick_sets(t);
    let hyp = t.join("hyp.en");
    std::fs::copy(data("parallel/pud.de-en.en"), &hyp).unwrap();
    (sets, hyp)
}

/// The SHA-256 `scores.json` in `sets` records for its first system, with its name and
/// path.
fn baseline(sets: &Path) -> (String, PathBuf, String) {
    let text = std::fs::read_to_string(sets.join("scores.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let s = &v["systems"][0];
    (
        s["name"].as_str().unwrap().to_string(),
        PathBuf::from(s["path"].as_str().unwrap()),
        s["sha256"].as_str().unwrap().to_string(),
    )
}

/// `score` refusing to merge another system at another confidence level: its advice, the
/// baseline's `--hyp` value as printed.
fn merge_advice(t: &Path, sets: &Path) -> (String, String) {
    let o = bin()
        .args(["score", "-q", "--sets", s(sets), "--confidence", "0.9"])
        .args(["--hyp", "other.en"])
        .current_dir(t)
        .output()
        .unwrap();
    assert_eq!(code(&o), 4, "{}", stderr(&o));
    let e = stderr(&o);
    let word = between(&e, "paired tests: --hyp ", " ...").to_string();
    (word, e)
}

#[test]
fn merge_advice_keeps_the_name_and_the_file_in_every_shell() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let (sets, hyp) = fixture(t);
    std::fs::copy(&hyp, t.join("other.en")).unwrap();
    let german = data("parallel/pud.de-en.de");
    for file in HOSTILE {
        std::fs::copy(&hyp, t.join(file)).unwrap();
        // What `a=b.en` would be read as, were the name dropped: another file of the corpus's
        // length, so that scoring it scores another baseline.
        if let Some((_, rest)) = file.split_once('=') {
            std::fs::copy(&german, t.join(rest)).unwrap();
        }
        // `--hyp=base=FILE`: glued, as a value that starts with `-` is given.
        let o = bin()
            .args(["score", "-q", "--replace", "--sets", s(&sets)])
            .arg(format!("--hyp=base={file}"))
            .current_dir(t)
            .output()
            .unwrap();
        assert!(o.status.success(), "{file:?}: {}", stderr(&o));
        let scored = baseline(&sets);
        let (word, e) = merge_advice(t, &sets);
        let args = paste_one(t, &format!("ldd-sets score --hyp {word}"));
        assert_eq!(args.len(), 3, "{word}: {:?}", shown(&args));
        let (name, path) = system_of(&args[2]);
        assert_eq!(name.as_deref(), Some("base"), "{file:?}: {word}\n{e}");
        assert_eq!(path, Path::new(file), "{file:?}: {word}");
        // Pasted into the real binary: the same system, the same file, the same bytes.
        let script = format!("ldd-sets score -q --replace --sets sets --hyp {word}");
        let o = run_real(t, &script);
        assert!(o.status.success(), "{script}: {}", stderr(&o));
        assert_eq!(baseline(&sets), scored, "{script}");
        for f in [Some(file), file.split_once('=').map(|(_, r)| r)]
            .into_iter()
            .flatten()
        {
            std::fs::remove_file(t.join(f)).unwrap();
        }
    }
}

#[test]
fn merge_advice_for_an_unnamed_file_or_standard_input_pastes_back() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let (sets, hyp) = fixture(t);
    std::fs::copy(&hyp, t.join("other.en")).unwrap();
    // A file in a directory whose name holds `=`, named after the file (`sys`).
    std::fs::create_dir_all(t.join("d=e")).unwrap();
    std::fs::copy(&hyp, t.join("d=e/sys.en")).unwrap();
    let o = bin()
        .args(["score", "-q", "--sets", s(&sets), "--hyp", "./d=e/sys.en"])
        .current_dir(t)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let scored = baseline(&sets);
    let (word, _) = merge_advice(t, &sets);
    let args = paste_one(t, &format!("ldd-sets score --hyp {word}"));
    let (name, path) = system_of(&args[2]);
    assert_eq!(name.as_deref(), Some("sys"), "{word}");
    assert!(
        same_path(path.as_os_str().as_bytes(), Path::new("d=e/sys.en")),
        "{word}"
    );
    let o = run_real(
        t,
        &format!("ldd-sets score -q --replace --sets sets --hyp {word}"),
    );
    assert!(o.status.success(), "{word}: {}", stderr(&o));
    assert_eq!(baseline(&sets), scored, "{word}");
    // The baseline read from standard input: advised as standard input again, not `./-`.
    let o = bin()
        .args(["score", "-q", "--replace", "--sets", s(&sets), "--hyp", "-"])
        .stdin(std::fs::File::open(&hyp).unwrap())
        .current_dir(t)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let scored = baseline(&sets);
    let (word, e) = merge_advice(t, &sets);
    assert!(e.contains("standard input"), "{e}");
    let args = paste_one(t, &format!("ldd-sets score --hyp {word}"));
    assert_eq!(
        system_of(&args[2]),
        (Some("stdin".into()), PathBuf::from("-")),
        "{word}"
    );
    let script = format!("ldd-sets score -q --replace --sets sets --hyp {word} < hyp.en");
    let o = run_real(t, &script);
    assert!(o.status.success(), "{script}: {}", stderr(&o));
    assert_eq!(baseline(&sets), scored, "{script}");
}

#[test]
fn next_lines_of_extract_paste_back_to_the_same_sets() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    for dir in HOSTILE {
        let mut args = pud_command("extract", "de", &["--no-reorder", "--controls", "0"]);
        args.push(format!("--out={dir}"));
        let o = bin().args(&args).current_dir(t).output().unwrap();
        assert!(o.status.success(), "{dir:?}: {}", stderr(&o));
        let out = String::from_utf8(o.stdout).unwrap();
        let score = between(&out, "\n  ldd-sets score ", "\n  ldd-sets report ");
        let got = paste_one(t, &format!("ldd-sets score {score}"));
        assert!(
            same_path(&got[2], Path::new(dir)),
            "{dir:?}: {:?}",
            shown(&got)
        );
        let mut want: Vec<Vec<u8>> = ["score", "--sets", "", "--hyp", "SYSTEM-A.en"]
            .into_iter()
            .chain(["--hyp", "SYSTEM-B.en", "--metrics", "bleu,chrf,locus"])
            .map(|w| w.as_bytes().to_vec())
            .collect();
        want[2] = got[2].clone();
        assert_eq!(got, want, "{score}");
        let report = format!(
            "ldd-sets report --sets {}",
            after(&out, "\n  ldd-sets report --sets ")
        );
        let got = paste_one(t, &report);
        assert_eq!(got.len(), 3, "{report}");
        assert!(same_path(&got[2], Path::new(dir)), "{dir:?}: {report}");
        let o = run_real(t, &report);
        assert!(o.status.success(), "{report}: {}", stderr(&o));
        assert!(t.join(dir).join("report.html").is_file(), "{report}");
        std::fs::remove_dir_all(t.join(dir)).unwrap();
    }
}

#[test]
fn notes_after_score_paste_back_to_the_same_sets_and_scores() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let (sets, _) = fixture(t);
    for dir in HOSTILE {
        copy_tree(&sets, &t.join(dir));
        let run = |args: &[String]| bin().args(args).current_dir(t).output().unwrap();
        let o = run(&["report".into(), "-q".into(), format!("--sets={dir}")]);
        assert!(o.status.success(), "{dir:?}: {}", stderr(&o));
        let score: Vec<String> = ["score", "--hyp", "base=hyp.en"].map(String::from).to_vec();
        // The report shows the earlier scores: the command that updates it.
        let o = run(&[score.clone(), vec![format!("--sets={dir}")]].concat());
        assert!(o.status.success(), "{dir:?}: {}", stderr(&o));
        let update = format!(
            "ldd-sets report --sets {}",
            after(&stderr(&o), "update it: ldd-sets report --sets ")
        );
        let got = paste_one(t, &update);
        assert_eq!(got.len(), 3, "{update}");
        assert!(same_path(&got[2], Path::new(dir)), "{dir:?}: {update}");
        let before = std::fs::read(t.join(dir).join("report.html")).unwrap();
        let o = run_real(t, &update);
        assert!(o.status.success(), "{update}: {}", stderr(&o));
        assert_ne!(
            std::fs::read(t.join(dir).join("report.html")).unwrap(),
            before
        );
        // Scores written elsewhere: the command that makes a report of them beside them.
        let out = format!("{dir}.o");
        let o = run(&[score, vec![format!("--sets={dir}"), format!("--out={out}")]].concat());
        assert!(o.status.success(), "{dir:?}: {}", stderr(&o));
        let these = format!(
            "ldd-sets report --sets {}",
            after(&stderr(&o), "a report of these: ldd-sets report --sets ")
        );
        let got = paste_one(t, &these);
        assert_eq!(got.len(), 7, "{these}: {:?}", shown(&got));
        let o_ = Path::new(&out);
        for (k, want) in [
            (2, Path::new(dir).to_path_buf()),
            (4, o_.join("scores.json")),
        ] {
            assert!(same_path(&got[k], &want), "{these}: {:?}", shown(&got));
        }
        assert!(same_path(&got[6], &o_.join("report.html")), "{these}");
        let o = run_real(t, &these);
        assert!(o.status.success(), "{these}: {}", stderr(&o));
        assert!(
            o_.is_relative() && t.join(o_).join("report.html").is_file(),
            "{these}"
        );
        std::fs::remove_dir_all(t.join(dir)).unwrap();
        std::fs::remove_dir_all(t.join(&out)).unwrap();
    }
}

#[test]
fn the_sacrebleu_metrics_hint_pastes_back_the_same_list() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    for metric in HOSTILE.into_iter().filter(|m| !m.starts_with('-')) {
        // `-m METRIC bleu`, space-separated as sacreBLEU takes it: refused with the list.
        let o = bin()
            .args([
                "score", "--sets", "sets", "--hyp", "hyp.en", "-m", metric, "bleu",
            ])
            .current_dir(t)
            .output()
            .unwrap();
        assert_ne!(code(&o), 0);
        let e = stderr(&o);
        let list = between(
            &e,
            "as in sacreBLEU: --metrics ",
            "\n\nFor more information",
        );
        let got = paste_one(t, &format!("ldd-sets score --metrics {list}"));
        let want = format!("{metric},bleu");
        assert_eq!(shown(&got), ["score", "--metrics", want.as_str()], "{list}");
    }
}

#[test]
fn advice_for_a_file_read_as_name_and_file_pastes_back_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let (sets, hyp) = fixture(t);
    for rest in HOSTILE {
        // `--hyp x=REST`: system `x`, file REST, which does not exist; the file `x=REST` does.
        let whole = format!("x={rest}");
        std::fs::copy(&hyp, t.join(&whole)).unwrap();
        let o = bin()
            .args(["score", "-q", "--sets", s(&sets)])
            .arg(format!("--hyp={whole}"))
            .current_dir(t)
            .output()
            .unwrap();
        assert_ne!(code(&o), 0);
        let e = stderr(&o);
        let script = format!("ldd-sets score {}", after(&e, "write "));
        let got = paste_one(t, &script);
        assert_eq!(got.len(), 3, "{script}: {:?}", shown(&got));
        assert_eq!(got[1], b"--hyp", "{script}");
        let (name, path) = system_of(&got[2]);
        assert_eq!(name, None, "{script}");
        assert!(
            same_path(path.as_os_str().as_bytes(), Path::new(&whole)),
            "{script}"
        );
        std::fs::remove_file(t.join(&whole)).unwrap();
    }
}

#[test]
fn the_directory_to_give_instead_of_a_run_output_pastes_back() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let (sets, _) = fixture(t);
    for top in ["=run", "~run", "!run", "#run"] {
        for corpus in HOSTILE {
            let c = t.join(top).join(corpus);
            std::fs::create_dir_all(&c).unwrap();
            std::fs::copy(sets.join("manifest.json"), c.join("manifest.json")).unwrap();
            let o = bin()
                .args(["report", "-q"])
                .arg(format!("--sets={top}"))
                .current_dir(t)
                .output()
                .unwrap();
            assert_ne!(code(&o), 0);
            let e = stderr(&o);
            let word = between(&e, "(--sets ", ")\n");
            let got = paste_one(t, &format!("ldd-sets report --sets {word}"));
            assert_eq!(got.len(), 3, "{word}");
            assert!(same_path(&got[2], &Path::new(top).join(corpus)), "{word}");
            std::fs::remove_dir_all(t.join(top)).unwrap();
        }
    }
}

/// The text of the report page `page` between `start` and `end`, HTML unescaped.
fn page_text(page: &Path, start: &str, end: &str) -> String {
    let html = std::fs::read_to_string(page).unwrap();
    between(&html, start, end)
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

#[test]
fn commands_a_report_shows_paste_back_as_they_were_typed() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let (sets, hyp) = fixture(t);
    for name in HOSTILE {
        copy_tree(&sets, &t.join(name));
        let run = |args: &[String]| bin().args(args).current_dir(t).output().unwrap();
        let report = ["report".to_string(), "-q".into(), format!("--sets={name}")];
        let o = run(&report);
        assert!(o.status.success(), "{name:?}: {}", stderr(&o));
        // Not scored yet: the command that scores a system.
        let page = t.join(name).join("report.html");
        let hint = page_text(&page, "then run <code>", "</code>");
        let got = paste_one(t, &hint);
        assert_eq!(got.len(), 5, "{hint}");
        assert!(same_path(&got[2], Path::new(name)), "{hint}");
        // Scored with the system in a hostile file: the recorded commands, then `report`.
        std::fs::copy(&hyp, t.join(name).join("sys")).unwrap();
        let hyp_value = format!("--hyp=base={name}/sys");
        let score = ["score".to_string(), "-q".into(), format!("--sets={name}")];
        let o = run(&[&score[..], std::slice::from_ref(&hyp_value)].concat());
        assert!(o.status.success(), "{name:?}: {}", stderr(&o));
        let o = run(&report);
        assert!(o.status.success(), "{name:?}: {}", stderr(&o));
        let commands = page_text(&page, "<pre class=\"cmd\">", "</pre>");
        let got = paste(t, &commands);
        assert_eq!(got.len(), 3, "{commands}");
        assert_eq!(got[0][0], b"extract", "{commands}");
        let want = ["score", &format!("--sets={name}"), &hyp_value];
        assert_eq!(shown(&got[1]), want, "{commands}");
        assert!(same_path(&got[2][2], Path::new(name)), "{commands}");
        std::fs::remove_dir_all(t.join(name)).unwrap();
    }
}
