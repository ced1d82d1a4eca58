//! Issue 65, 4 and 6: MQM rows read with the same keys everywhere — the check for the same
//! row twice compares severities and categories as the rest of the reading does (case,
//! whitespace and `No-error`'s spellings aside) and spans by the words they cover, so a
//! copy of a file spelled otherwise is refused, not counted twice — and the files'
//! unclear cases: a trailing empty line, a file of rater checks only. On the published
//! WMT21 TED file of ../shared (`mqm --export`, fast) and on the excerpt judged.

use std::path::{Path, PathBuf};
use std::process::Output;

use super::common::*;
use super::mqm::{excerpt, excerpt_rows, json, judge, system, write_rows};
use super::refused;

/// The WMT21 TED en→de MQM file of ../shared.
fn ted() -> PathBuf {
    data("mqm/mqm_ted_ende.tsv")
}

/// Its rows (header first) as cells, with each one's line.
fn ted_rows() -> Vec<Vec<String>> {
    lines(&ted())
        .iter()
        .map(|l| l.split('\t').map(String::from).collect())
        .collect()
}

/// Columns of the TED file.
const TARGET: usize = 6;
const CATEGORY: usize = 7;
const SEVERITY: usize = 8;

/// `mqm --export` of `files` into `out`, from `dir`.
fn export(dir: &Path, files: &[&Path], out: &str) -> Output {
    let mut c = Ldd::cmd("mqm")
        .args(&[
            "--export",
            out,
            "--src-lang",
            "en",
            "--tgt-lang",
            "de",
            "-q",
        ])
        .current_dir(dir);
    for f in files {
        c = c.path("--mqm", f);
    }
    c.run()
}

/// Whether a row of the TED file is an error row (not `No-error`).
fn is_error(r: &[String]) -> bool {
    r[SEVERITY] != "No-error" && r[CATEGORY] != "No-error"
}

/// The header and the error rows of `rows`, each changed by `f` (`None`: left out).
fn copy_of(rows: &[Vec<String>], f: impl Fn(&[String]) -> Option<Vec<String>>) -> Vec<Vec<String>> {
    let mut out = vec![rows[0].clone()];
    out.extend(
        rows[1..]
            .iter()
            .filter(|r| is_error(r))
            .filter_map(|r| f(r)),
    );
    out
}

/// A copy of the TED file's error rows with category and severity lowercased, spaced out,
/// uppercased with non-ASCII letters, or their spans widened over whitespace, given beside
/// the file: the same annotations, refused at the copy's first row naming the file's —
/// never merged into doubled scores.
#[test]
fn a_copy_spelled_otherwise_is_the_same_annotations() {
    let t = tempfile::tempdir().unwrap();
    let t = t.path();
    let mut rows = ted_rows();
    // A category with non-ASCII letters, for Unicode's case: the first error row's.
    let first = 1 + rows[1..].iter().position(|r| is_error(r)).unwrap();
    rows[first][CATEGORY] = "Flüssigkeit/Übersetzung".into();
    let file = t.join("ted.tsv");
    write_rows(&file, &rows);
    type Change = fn(&[String]) -> Option<Vec<String>>;
    let variants: [(&str, Change); 4] = [
        ("lower", |r| {
            let mut r = r.to_vec();
            r[CATEGORY] = r[CATEGORY].to_lowercase();
            r[SEVERITY] = r[SEVERITY].to_lowercase();
            Some(r)
        }),
        ("spaced", |r| {
            let mut r = r.to_vec();
            r[CATEGORY] = format!(" {} ", r[CATEGORY].replace(' ', "  "));
            r[SEVERITY] = format!("{}  ", r[SEVERITY].to_uppercase());
            Some(r)
        }),
        ("unicode", |r| {
            let mut r = r.to_vec();
            r[CATEGORY] = r[CATEGORY].to_uppercase();
            Some(r)
        }),
        // `Tatsache <v>in` as `Tatsache<v> in`: the same text, the same words marked.
        ("widened", |r| {
            let mut r = r.to_vec();
            if !r[TARGET].contains(" <v>") {
                return None;
            }
            r[TARGET] = r[TARGET].replacen(" <v>", "<v> ", 1);
            Some(r)
        }),
    ];
    for (name, change) in variants {
        let copy = copy_of(&rows, change);
        assert!(copy.len() > 100, "{name}: {} rows", copy.len());
        let second = t.join(format!("{name}.tsv"));
        write_rows(&second, &copy);
        // The copy's first row is this row of the file.
        let k = 1 + rows[1..]
            .iter()
            .position(|r| is_error(r) && change(r).as_ref() == Some(&copy[1]))
            .unwrap();
        let o = export(t, &[&file, &second], &format!("x-{name}"));
        refused(
            &o,
            3,
            &format!(
                "{name}.tsv:2: the same row as {}:{} (system {}, segment {}",
                file.display(),
                k + 1,
                rows[k][0],
                rows[k][3]
            ),
        );
        assert!(stderr(&o).contains("given twice"), "{}", stderr(&o));
        assert!(!t.join(format!("x-{name}")).exists());
    }
    // Each file alone is read (the copy rates no segment twice).
    assert!(export(t, &[&file], "alone").status.success());
}

/// The excerpt judged beside a copy of its error rows lowercased: refused (it doubled
/// every MQM score); the excerpt with every category and severity spelled otherwise is
/// judged with the same scores as the excerpt (the keys read the same everywhere).
#[test]
fn the_excerpt_spelled_otherwise_scores_the_same_and_not_twice() {
    let t = tempfile::tempdir().unwrap();
    let t = t.path();
    let rows = excerpt_rows();
    let (cat, sev) = (7, 8);
    let errors = |r: &Vec<String>| {
        !r[sev].eq_ignore_ascii_case("no-error")
            && r[sev] != "HOTW-test"
            && !r[rater_col()].is_empty()
    };
    let mut lower = vec![rows[0].clone()];
    for r in rows[1..].iter().filter(|r| errors(r)) {
        let mut r = r.clone();
        r[cat] = r[cat].to_lowercase();
        r[sev] = r[sev].to_lowercase();
        lower.push(r);
    }
    assert!(lower.len() > 5, "{}", lower.len());
    let copy = t.join("lower.tsv");
    write_rows(&copy, &lower);
    let o = judge(&[&excerpt(), &copy], &t.join("j"), &[]);
    refused(&o, 3, "lower.tsv:2: the same row as ");
    assert!(!t.join("j").exists());
    // Every category and severity spelled otherwise, alone: the same scores.
    let mut other = rows.clone();
    for r in other[1..].iter_mut() {
        r[cat] = format!(" {}", r[cat].to_uppercase().replace('_', " "));
        r[sev] = format!("{} ", r[sev].to_lowercase().replace('-', "_"));
    }
    let spelled = t.join("spelled.tsv");
    write_rows(&spelled, &other);
    let (a, b) = (t.join("a"), t.join("b"));
    let o = judge(&[&excerpt()], &a, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = judge(&[&spelled], &b, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (a, b) = (json(&a.join("mqm.json")), json(&b.join("mqm.json")));
    for s in ["sysX", "sysY"] {
        let (x, y) = (system(&a, s)["mqm"].as_f64(), system(&b, s)["mqm"].as_f64());
        assert!(x.is_some() && x == y, "{s}: {x:?} {y:?}");
    }
    assert_eq!(a["segments"], b["segments"]);
}

/// The rater column of the excerpt's layout.
fn rater_col() -> usize {
    4
}

/// A file ending in one or more empty lines is read as without them (the same export); an
/// empty line among the rows is refused naming its line, not as a row of one field.
#[test]
fn trailing_empty_lines_are_left_out_and_inner_ones_named() {
    let t = tempfile::tempdir().unwrap();
    let t = t.path();
    let head: Vec<String> = lines(&ted());
    let text = head.join("\n") + "\n";
    let plain = t.join("plain.tsv");
    std::fs::write(&plain, &text).unwrap();
    let o = export(t, &[&plain], "plain");
    assert!(o.status.success(), "{}", stderr(&o));
    let want = snapshot(&t.join("plain/systems"));
    assert!(!want.is_empty());
    for (name, tail) in [("one", "\n"), ("three", "\n \n\n")] {
        let f = t.join(format!("{name}.tsv"));
        std::fs::write(&f, format!("{text}{tail}")).unwrap();
        let o = export(t, &[&f], name);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert_eq!(snapshot(&t.join(name).join("systems")), want, "{name}");
        for side in ["mqm.en-de.en", "mqm.en-de.de", "segments.tsv"] {
            assert_eq!(
                std::fs::read(t.join(name).join(side)).unwrap(),
                std::fs::read(t.join("plain").join(side)).unwrap(),
                "{name} {side}"
            );
        }
    }
    // Line 101 empty, rows after it.
    let mut inner = head.clone();
    inner.insert(100, String::new());
    let f = t.join("inner.tsv");
    std::fs::write(&f, inner.join("\n") + "\n").unwrap();
    let o = export(t, &[&f], "inner");
    refused(
        &o,
        3,
        "inner.tsv:101: an empty line among the rows (line 102 is a row)",
    );
    assert!(!stderr(&o).contains("tab-separated"), "{}", stderr(&o));
}

/// Files of rater checks only rate no system: refused naming the files and what was left
/// out, for `--export` (with and without --reference-system) and for judging — never
/// "(they rate )".
#[test]
fn files_of_rater_checks_only_say_so() {
    let t = tempfile::tempdir().unwrap();
    let t = t.path();
    let rows = ted_rows();
    let checks: Vec<Vec<String>> = rows
        .iter()
        .take(5)
        .enumerate()
        .map(|(k, r)| {
            let mut r = r.clone();
            if k > 0 {
                r[SEVERITY] = "HOTW-test".into();
            }
            r
        })
        .collect();
    let f = t.join("checks.tsv");
    write_rows(&f, &checks);
    let want = "checks.tsv: no row rates a system: all 4 rows are left out, 4 as rater checks \
                (severity HOTW-test) and 0 as metadata only";
    let with_ref = Ldd::cmd("mqm")
        .args(&["--export", "r", "--src-lang", "en", "--tgt-lang", "de"])
        .args(&["--reference-system", "ref"])
        .path("--mqm", &f)
        .current_dir(t)
        .run();
    for o in [
        export(t, &[&f], "x"),
        with_ref,
        judge(&[&f], &t.join("j"), &[]),
    ] {
        refused(&o, 3, want);
        assert!(!stderr(&o).contains("they rate"), "{}", stderr(&o));
    }
}
