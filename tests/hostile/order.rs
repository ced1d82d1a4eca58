//! Issue 65, 5: the order `score --help` promises. `-b`, the summary and the table show
//! this run's systems in `--hyp` order (the baseline first), then the systems kept from
//! earlier runs, marked — so that a script reading `-b`'s lines in `--hyp` order never
//! takes a kept system's score for one of this run's; the files keep their own order.

use super::*;

/// `score` of `sets` with `hyps` (`NAME=FILE`) and `extra` arguments.
fn score(sets: &Path, hyps: &[String], extra: &[&str]) -> Output {
    let mut c = bin();
    c.args(["score", "--sets", s(sets)]).args(extra);
    for h in hyps {
        c.args(["--hyp", h]);
    }
    let o = c.output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    o
}

/// `-b`'s lines as (system, metric, score, the rest).
fn lines_of(o: &Output) -> Vec<Vec<String>> {
    String::from_utf8(o.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| l.split('\t').map(String::from).collect())
        .collect()
}

/// The systems of `scores.json`, in its order.
fn file_order(sets: &Path) -> Vec<String> {
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sets.join("scores.json")).unwrap()).unwrap();
    j["systems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn stdout_follows_the_hyp_order_and_marks_kept_systems() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let sets = quick_sets(t);
    let [a, b] = two_systems(t);
    // A third system: PUD's reference without every fourth word.
    let c = t.join("sysc.en");
    let reference = std::fs::read_to_string(data("parallel/pud.de-en.en")).unwrap();
    write_lines(&c, &reference, |_, l| {
        let w: Vec<&str> = l.split(' ').collect();
        let kept: Vec<&str> = (0..w.len()).filter(|k| k % 4 != 3).map(|k| w[k]).collect();
        kept.join(" ")
    });
    let hyp = |name: &str, p: &Path| format!("{name}={}", s(p));
    let (base, b, c) = (hyp("base", &a), hyp("b", &b), hyp("c", &c));
    score(&sets, &[base.clone(), b.clone()], &["-q"]);
    // Each system's numbers alone, scored elsewhere: what its lines must carry.
    let alone = |h: &String, out: &str| {
        let o = score(
            &sets,
            &[base.clone(), h.clone()],
            &["-b", "--out", s(&t.join(out))],
        );
        lines_of(&o)[2..].to_vec()
    };
    let (b_alone, c_alone) = (alone(&b, "b-alone"), alone(&c, "c-alone"));
    assert_ne!(b_alone[0][2], c_alone[0][2], "b and c score differently");
    // This run: base and c; b kept from the first run, after them and marked.
    let o = score(&sets, &[base.clone(), c.clone()], &["-b"]);
    let got = lines_of(&o);
    let names: Vec<&str> = got.iter().map(|l| l[0].as_str()).collect();
    assert_eq!(names, ["base", "base", "c", "c", "b", "b"]);
    assert_eq!(got[2..4], c_alone[..], "c's lines are c's numbers");
    for (l, want) in got[4..].iter().zip(&b_alone) {
        assert_eq!(l[..3], want[..3]);
        assert_eq!(l[3..], ["(kept)".to_string()], "{l:?}");
    }
    assert!(got[..4].iter().all(|l| l.len() == 3), "{got:?}");
    // The file keeps its own order: the earlier systems first.
    assert_eq!(file_order(&sets), ["base", "b", "c"]);
    // The summary and the table: the same order, the kept system named.
    let o = score(&sets, &[base.clone(), c.clone()], &["-f", "summary"]);
    let text = String::from_utf8(o.stdout).unwrap();
    let rows: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| ["base", "b", "c"].contains(w))
        .collect();
    assert_eq!(rows, ["base", "c", "b"], "{text}");
    assert!(text.contains("\nb (kept) "), "{text}");
    let o = score(&sets, &[base.clone(), c.clone()], &[]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("kept from earlier runs (after this run's systems): b\n"),
        "{text}"
    );
    let head = text.lines().find(|l| l.starts_with("set ")).unwrap();
    let columns: Vec<&str> = head
        .split_whitespace()
        .filter(|w| ["base", "b", "c"].contains(w))
        .collect();
    assert_eq!(columns, ["base", "c", "b"], "{head}");
    // Every system scored again, in another order than the file's: none kept, nothing
    // marked, stdout in --hyp order.
    let o = score(&sets, &[base.clone(), c.clone(), b.clone()], &["-b"]);
    let names: Vec<String> = lines_of(&o).iter().map(|l| l[0].clone()).collect();
    assert_eq!(names, ["base", "base", "c", "c", "b", "b"]);
    assert!(lines_of(&o).iter().all(|l| l.len() == 3));
}
