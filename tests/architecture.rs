//! The shape of the code, checked: stages import only earlier stages, no module cycle in
//! any crate of the workspace, one file constructs a gzip decoder, the library does not
//! depend on clap, the library touches the file system only through ldd-io, only
//! `src/layout` names output files, only `src/format` gives types a file form, every
//! stage folder says what enters and what leaves it, tests spawn the binary through
//! one builder, only the printer prints, no file of `src/report/` reaches 600 lines, and
//! `src/pipeline/` only glues (at most 500 lines, `extract()` at most 60), the report reads
//! in one place, and only the command line's plan module builds the library's options.
//! It also prints, without gating, each command's trip in stage rooms (which stages its
//! handler and hub hand the parameter `a` to, and how often it comes back to one), with a
//! note for each command over 7 rooms or 2 returns; the walk behind it is tested on a
//! small house.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// Code of a file without comments (line comments and doc comments).
fn code(p: &Path) -> String {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules of the crate in `src` that a file refers to as `crate::m` or
/// `super::m` (from a top-level file) — its imports within the crate.
fn crate_refs(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, _) in text.match_indices("crate::") {
        let before = text[..i].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // e.g. `ldd_crate::`
        }
        let rest = &text[i + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.insert(name);
        }
        // `use crate::{a, b}`
        if rest.starts_with('{') {
            let inner = &rest[1..rest.find('}').unwrap_or(rest.len())];
            for part in inner.split(',') {
                let n: String = part
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !n.is_empty() {
                    out.insert(n);
                }
            }
        }
    }
    out
}

/// The top-level module a source file of `src` belongs to (`src/read/x.rs` → `read`).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_string_lossy();
    let m = first.trim_end_matches(".rs").to_string();
    (m != "lib" && m != "main").then_some(m)
}

/// Module graph of a crate: module → modules it refers to.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in rust_files(src) {
        let Some(m) = module_of(src, &f) else {
            continue;
        };
        if m == "cli" {
            continue; // the binary's command line, not the library
        }
        let refs = crate_refs(&code(&f));
        let e = g.entry(m.clone()).or_default();
        e.extend(refs.into_iter().filter(|r| *r != m));
    }
    g
}

fn find_cycle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(n) {
            Some(2) => return None,
            Some(1) => {
                let start = path.iter().position(|p| p == n).unwrap_or(0);
                let mut c = path[start..].to_vec();
                c.push(n.to_string());
                return Some(c);
            }
            _ => {}
        }
        state.insert(n.to_string(), 1);
        path.push(n.to_string());
        for m in g.get(n).into_iter().flatten() {
            if let Some(c) = visit(m, g, state, path) {
                return Some(c);
            }
        }
        path.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in g.keys() {
        if let Some(c) = visit(n, g, &mut state, &mut Vec::new()) {
            return Some(c);
        }
    }
    None
}

/// The pipeline order of `src/`: a module may import only modules of lower rank. `merge`
/// joins the written outputs of a sharded run's shards (drawing their controls with
/// `write`), so it follows `write`.
const ORDER: [&str; 23] = [
    "error", "progress", "config", "layout", "format", "view", "fetch", "read", "permute", "parse",
    "align", "detect", "bucket", "sample", "write", "merge", "contrast", "locus", "score", "judge",
    "report", "pipeline", "printer",
];

/// The map of the stages is written once more in `docs/design.md` (a row per room) and in
/// `src/lib.rs` (its modules, and the flow in its doc): both follow [`ORDER`], so that
/// neither drifts from the order the imports are held to.
#[test]
fn design_md_and_lib_rs_follow_order() {
    let design = std::fs::read_to_string(root().join("docs/design.md")).unwrap();
    let rows: Vec<&str> = design
        .lines()
        .filter_map(|l| l.strip_prefix("| `src/"))
        .map(|l| l.split(['/', '.', '`']).next().unwrap_or(""))
        .filter(|room| *room != "cli")
        .collect();
    assert_eq!(rows, ORDER, "docs/design.md's rows, one per room in ORDER");
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).unwrap();
    let mut modules: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod ")?.strip_suffix(';'))
        .collect();
    modules.sort_unstable();
    let mut order = ORDER.to_vec();
    order.sort_unstable();
    assert_eq!(modules, order, "src/lib.rs declares the rooms of ORDER");
    // The flow in lib.rs's doc: `[`read`] → [`parse`] → ...`, in ORDER's order.
    let flow: Vec<&str> = lib
        .lines()
        .filter(|l| l.starts_with("//!") && l.contains(" → "))
        .flat_map(|l| l.split("[`").skip(1))
        .filter_map(|l| l.split('`').next())
        .collect();
    assert!(flow.len() >= 10, "the flow in src/lib.rs's doc: {flow:?}");
    let ranks: Vec<usize> = flow
        .iter()
        .map(|m| {
            ORDER
                .iter()
                .position(|o| o == m)
                .unwrap_or_else(|| panic!("{m}"))
        })
        .collect();
    assert!(
        ranks.windows(2).all(|w| w[0] < w[1]),
        "src/lib.rs's flow {flow:?} is not in ORDER's order"
    );
}

#[test]
fn stages_import_only_earlier_stages() {
    let g = graph(&root().join("src"));
    let rank = |m: &str| ORDER.iter().position(|o| *o == m);
    let mut back = Vec::new();
    for (m, refs) in &g {
        let r = rank(m).unwrap_or_else(|| panic!("src/{m}: not a stage of {ORDER:?}"));
        for x in refs {
            let Some(rx) = rank(x) else {
                panic!("src/{m} refers to crate::{x}, which is not a module of src/")
            };
            if rx >= r {
                back.push(format!("{m} -> {x}"));
            }
        }
    }
    assert!(back.is_empty(), "imports against the flow: {back:?}");
    assert!(g.contains_key("read") && g["pipeline"].contains("write"));
}

#[test]
fn no_module_cycle_in_any_crate() {
    let mut crates = vec![root().join("src")];
    for e in std::fs::read_dir(root().join("crates")).unwrap() {
        crates.push(e.unwrap().path().join("src"));
    }
    assert!(crates.len() >= 6, "{crates:?}");
    for src in crates {
        let g = graph(&src);
        assert!(
            find_cycle(&g).is_none(),
            "{}: import cycle {:?}",
            src.display(),
            find_cycle(&g)
        );
    }
}

#[test]
fn exactly_one_source_file_constructs_a_gzip_decoder() {
    let mut files = Vec::new();
    for dir in ["src", "benches"] {
        files.extend(rust_files(&root().join(dir)));
    }
    for e in std::fs::read_dir(root().join("crates")).unwrap() {
        let c = e.unwrap().path();
        files.extend(rust_files(&c.join("src")));
        files.extend(rust_files(&c.join("benches")));
    }
    let decoders: Vec<String> = files
        .iter()
        .filter(|f| code(f).contains("GzDecoder"))
        .map(|f| f.strip_prefix(root()).unwrap().display().to_string())
        .collect();
    assert_eq!(decoders, vec!["crates/io/src/input.rs".to_string()]);
}

#[test]
fn the_library_does_not_depend_on_clap() {
    let src = root().join("src");
    let users: Vec<String> = rust_files(&src)
        .into_iter()
        .filter(|f| !f.starts_with(src.join("cli")) && !f.ends_with("main.rs"))
        .filter(|f| code(f).contains("clap"))
        .map(|f| f.display().to_string())
        .collect();
    assert!(users.is_empty(), "{users:?}");
}

/// Whether `w` occurs in `line` not as the end of a longer name (`File::` but not
/// `AtomicFile::`).
fn has_word(line: &str, w: &str) -> bool {
    line.match_indices(w).any(|(i, _)| {
        !line[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The lines of `text` that `hit` accepts, as `rel:line: code` (lines counted from 1).
fn hits(rel: &str, text: &str, hit: impl Fn(&str) -> bool) -> Vec<String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| hit(l))
        .map(|(k, l)| format!("{rel}:{}: {}", k + 1, l.trim()))
        .collect()
}

/// The library in `src/` opens, creates, lists, copies and renames files only through
/// ldd-io (`ldd_io::fs`, `Input`, the outputs): none of `std::fs`, `File::`, `OpenOptions`
/// or a CSV/JSON writer opened from a path outside its tests (`#[cfg(test)]` onwards).
#[test]
fn the_library_touches_the_file_system_only_through_ldd_io() {
    let src = root().join("src");
    let mut found = Vec::new();
    for f in rust_files(&src) {
        let text = code(&f);
        let lib = text.split("#[cfg(test)]").next().unwrap_or("");
        let rel = f.strip_prefix(root()).unwrap().display().to_string();
        found.extend(hits(&rel, lib, |line| {
            let line_no_io = line.replace("ldd_io::fs::", "");
            ["fs::", "File::", "OpenOptions", "from_path("]
                .iter()
                .any(|w| has_word(&line_no_io, w))
        }));
    }
    assert!(found.is_empty(), "outside ldd-io:\n{}", found.join("\n"));
}

/// Output file names are made in one place, `src/layout`: no other code of `src/` (the
/// CLI included, tests excluded) spells a bucket, a control, slice, score, report, shard,
/// reorder, aligner-model or manifest file name.
#[test]
fn only_the_layout_module_names_output_files() {
    const NAMES: [&str; 22] = [
        "\"ge{",
        "/ge{",
        "\"eq{",
        "/eq{",
        "marked.{",
        "/controls/",
        "hyp.{",
        "\"manifest.json\"",
        "\"scores.json\"",
        "\"scores.csv\"",
        "\"summary.csv\"",
        "report.{",
        ".ldda",
        "alignments.txt",
        "reorder.tsv\"",
        "shard-lengths",
        "shard-parse",
        "{base}.",
        "{stem}.",
        "{prefix}.",
        ".ids\"",
        "\"marked.",
    ];
    let src = root().join("src");
    let mut found = Vec::new();
    for f in rust_files(&src) {
        if f.starts_with(src.join("layout")) {
            continue;
        }
        let text = code(&f);
        let lib = text.split("#[cfg(test)]").next().unwrap_or("");
        for (k, line) in lib.lines().enumerate() {
            if let Some(n) = NAMES.iter().find(|n| line.contains(*n)) {
                let rel = f.strip_prefix(root()).unwrap().display().to_string();
                found.push(format!("{rel}:{}: {n} in {}", k + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "file names outside src/layout:\n{}",
        found.join("\n")
    );
}

/// One schema per file ldd-sets writes: only `src/format` gives a type a serialised form
/// (`Serialize`, derived or implemented). Outside it, `Deserialize` reads only the TOML
/// that users write — pair files and the model registry (`src/config`), rule files
/// (`src/detect/rules.rs`) — into their raw types. Stage types reach the manifest through
/// records in `src/format` and conversions, so renaming a stage field changes no file.
#[test]
fn only_the_format_module_gives_types_a_file_form() {
    let src = root().join("src");
    let reads_user_toml =
        |f: &Path| f.starts_with(src.join("config")) || f == src.join("detect/rules.rs");
    let mut found = Vec::new();
    for f in rust_files(&src) {
        if f.starts_with(src.join("format")) {
            continue;
        }
        let text = code(&f);
        let lib = text.split("#[cfg(test)]").next().unwrap_or("");
        for (k, line) in lib.lines().enumerate() {
            let serialises =
                line.contains("Serialize") && (line.contains("derive(") || line.contains("impl"));
            let deserialises =
                line.contains("Deserialize") && (line.contains("derive(") || line.contains("impl"));
            if serialises || (deserialises && !reads_user_toml(&f)) {
                let rel = f.strip_prefix(root()).unwrap().display().to_string();
                found.push(format!("{rel}:{}: {}", k + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "serialised forms outside src/format:\n{}",
        found.join("\n")
    );
}

/// Every message goes through one sink: no `print!`, `println!`, `eprint!` or `eprintln!`
/// in `src/` outside `src/printer/` (the commands hand their text to `printer::out` and
/// `printer::say`), nor in the libraries of `crates/` (they tell the user through
/// `ldd_io::message::say`, or return what to say), unit tests (`#[cfg(test)]` onwards),
/// benches and build scripts excepted. The one exception: ldd-io's line when a signal
/// stops the process, written while no sink of the binary's may run any more.
#[test]
fn only_the_printer_prints() {
    const MACROS: [&str; 4] = ["print!", "println!", "eprint!", "eprintln!"];
    const EXCEPTIONS: [(&str, &str); 1] = [("crates/io/src/cleanup.rs", "stopped by signal")];
    let src = root().join("src");
    let mut files: Vec<PathBuf> = rust_files(&src)
        .into_iter()
        .filter(|f| !f.starts_with(src.join("printer")))
        .collect();
    for e in std::fs::read_dir(root().join("crates")).unwrap() {
        files.extend(rust_files(&e.unwrap().path().join("src")));
    }
    assert!(files.len() > 100, "{} files", files.len());
    let mut found = Vec::new();
    let mut excepted = Vec::new();
    for f in files {
        let rel = f.strip_prefix(root()).unwrap().display().to_string();
        let text = code(&f);
        let lib = text.split("#[cfg(test)]").next().unwrap_or("");
        for at in hits(&rel, lib, |line| MACROS.iter().any(|m| has_word(line, m))) {
            if EXCEPTIONS
                .iter()
                .any(|(file, text)| rel == *file && at.contains(text))
            {
                excepted.push(at);
            } else {
                found.push(at);
            }
        }
    }
    assert!(
        found.is_empty(),
        "printed outside src/printer (hand the text to printer::out or printer::say; in a \
         library, to ldd_io::message::say):\n{}",
        found.join("\n")
    );
    // The exception is still there (or it goes from the list).
    assert_eq!(excepted.len(), EXCEPTIONS.len(), "{excepted:?}");
}

/// Where a type whose name ends in `Options` is followed by `{` in `text` (code without
/// comments): its line (from 1), its name, and whether it is a struct literal (`let o =
/// ScoreOptions {`, `&ldd::MergeOptions {`) rather than the type's definition or impl
/// block (after `struct`, `enum`, `union`, `trait`, `impl` or `for`); a return type
/// (`-> ScoreOptions {`) is neither and left out.
fn options_braces(text: &str) -> Vec<(usize, String, bool)> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for (i, _) in text.match_indices("Options") {
        let end = i + "Options".len();
        if text[end..].chars().next().is_some_and(ident)
            || !text[end..].trim_start().starts_with('{')
        {
            continue;
        }
        let start = text[..i].trim_end_matches(ident).len();
        // The word before the type's path (`impl a::b::XOptions`: `impl`).
        let mut before = text[..start].trim_end();
        while let Some(rest) = before.strip_suffix("::") {
            before = rest.trim_end_matches(ident).trim_end();
        }
        if before.ends_with("->") {
            continue;
        }
        let word = &before[before.trim_end_matches(ident).len()..];
        let definition = ["struct", "enum", "union", "trait", "impl", "for"].contains(&word);
        let line = text[..i].matches('\n').count() + 1;
        out.push((line, text[start..end].to_string(), !definition));
    }
    out
}

/// The check below tells a struct literal from a definition, an impl block and a return
/// type, whatever the path and spacing.
#[test]
fn options_braces_tell_literals_from_definitions() {
    let text = "let o = FooOptions {\n    a: 1,\n};\nimpl FooOptions {\nimpl Default for \
                ldd::FooOptions {\npub struct BarOptions {\nfn f() -> BarOptions {\n\
                run(&ldd::y::BazOptions{ a });\nenum QuxOptions {\nlet x = Options  {\n\
                let y = MyOptionsX { };\nlet z = BarOptions::default();";
    let braces = options_braces(text);
    let found: Vec<(usize, &str, bool)> = braces
        .iter()
        .map(|(l, n, lit)| (*l, n.as_str(), *lit))
        .collect();
    assert_eq!(
        found,
        [
            (1, "FooOptions", true),
            (4, "FooOptions", false),
            (5, "FooOptions", false),
            (6, "BarOptions", false),
            (8, "BazOptions", true),
            (9, "QuxOptions", false),
            (10, "Options", true),
        ]
    );
}

/// Every command's flags become its typed plan in one place, `src/cli/plan/` (ripgrep's
/// `HiArgs`): no other file of `src/cli/` builds a library's options — no struct literal
/// of a type named `...Options` — nor defines such a type outside the option groups of
/// `src/cli/args.rs`.
#[test]
fn only_the_plan_module_builds_options() {
    let cli = root().join("src/cli");
    let plan = cli.join("plan");
    let mut found = Vec::new();
    let mut in_plan = 0;
    let files = rust_files(&cli);
    assert!(files.len() >= 20, "{files:?}");
    for f in &files {
        let rel = f.strip_prefix(root()).unwrap().display().to_string();
        for (line, name, literal) in options_braces(&code(f)) {
            if f.starts_with(&plan) {
                in_plan += usize::from(literal);
            } else if literal || !f.ends_with("args.rs") {
                let what = if literal { "literal" } else { "definition" };
                found.push(format!("{rel}:{line}: {name} {what}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "options built outside src/cli/plan/ (resolve the flags in the command's plan):\n{}",
        found.join("\n")
    );
    // The plans do build them, so the check reads what it should.
    assert!(in_plan >= 14, "{in_plan} options literals in src/cli/plan/");
}

/// Tests run `ldd-sets` through the one builder of `tests/common` (`Ldd`), not through
/// command lines spelled in each file: the binary is spawned in `tests/common` only (other
/// tests hand its path to `make`, a shell or Slurm).
#[test]
fn tests_run_the_binary_through_the_common_builder() {
    let tests = root().join("tests");
    let mut found = Vec::new();
    for f in rust_files(&tests) {
        if f.starts_with(tests.join("common")) {
            continue;
        }
        for (k, line) in code(&f).lines().enumerate() {
            if line.contains("Command::new(env!(\"CARGO_BIN_EXE") {
                let rel = f.strip_prefix(root()).unwrap().display().to_string();
                found.push(format!("{rel}:{}: {}", k + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "spawned outside tests/common:\n{}",
        found.join("\n")
    );
}

/// The `.rs` files below `dir` with their line counts, largest first (ties by path).
fn line_counts(dir: &Path) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = rust_files(dir)
        .into_iter()
        .map(|f| {
            let n = std::fs::read_to_string(&f).unwrap().lines().count();
            (f.strip_prefix(root()).unwrap().display().to_string(), n)
        })
        .collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out
}

/// The files of `counts` with `limit` lines or more.
fn at_or_over(counts: &[(String, usize)], limit: usize) -> Vec<&(String, usize)> {
    counts.iter().filter(|(_, n)| *n >= limit).collect()
}

/// The report is split by page section and chart kind: every `.rs` file of `src/report/`
/// has fewer than 600 lines (the largest are printed).
#[test]
fn report_files_stay_under_600_lines() {
    const LIMIT: usize = 600;
    let counts = line_counts(&root().join("src/report"));
    for (f, n) in counts.iter().take(5) {
        println!("{n:>5} {f}");
    }
    let html = counts.iter().find(|(f, _)| f == "src/report/html/mod.rs");
    assert!(
        counts.len() >= 10 && html.is_some_and(|(_, n)| *n > 100),
        "src/report/ read with its line counts: {counts:?}"
    );
    let over = at_or_over(&counts, LIMIT);
    assert!(
        over.is_empty(),
        "files of {LIMIT} lines or more in src/report/ (split them): {over:?}"
    );
    // The check can fail: a limit at the largest file's size catches exactly the largest.
    let largest = &counts[0];
    assert_eq!(at_or_over(&counts, largest.1).first(), Some(&largest));
    assert!(at_or_over(&counts, largest.1 + 1).is_empty());
}

/// What reads a file, as the report's code would call it.
const READS: [&str; 12] = [
    "ldd_io::read",
    "ldd_io::sha256",
    "ldd_io::fs::",
    "Input::open",
    "crate::read::select",
    "crate::read::sets::read",
    "crate::read::sets::reorder",
    "crate::read::sets::load",
    "sheet::read",
    "mqm::read",
    ".is_file()",
    "std::fs",
];

/// The lines of `text` (code without comments, [`code`]) that read a file, as
/// `file:line: code`.
fn reading_lines(file: &str, text: &str) -> Vec<String> {
    hits(file, text, |l| READS.iter().any(|r| l.contains(r)))
}

/// The report gathers everything it needs in one read, then computes without I/O: of
/// `src/report/`, only `inputs.rs` (what the page shows) and `out.rs` (the output path)
/// touch files.
#[test]
fn the_report_reads_in_one_place() {
    let dir = root().join("src/report");
    let mut readers = BTreeSet::new();
    let mut elsewhere = Vec::new();
    for f in rust_files(&dir) {
        let rel = f.strip_prefix(&dir).unwrap().display().to_string();
        let found = reading_lines(&rel, &code(&f));
        if found.is_empty() {
            continue;
        }
        readers.insert(rel.clone());
        if rel != "inputs.rs" && rel != "out.rs" {
            elsewhere.extend(found);
        }
    }
    assert!(
        elsewhere.is_empty(),
        "src/report/ reads files outside inputs.rs and out.rs:\n{}",
        elsewhere.join("\n")
    );
    // The check sees what it looks for: both files read, and a probe line is caught.
    assert_eq!(
        readers.into_iter().collect::<Vec<_>>(),
        ["inputs.rs", "out.rs"]
    );
    assert_eq!(
        reading_lines("probe.rs", "let t = ldd_io::read_text(p, 10)?;").len(),
        1
    );
}

/// The lines of the function whose definition starts with `start` in `text`, from that line
/// to its closing brace (found by matching braces), or `None` when it is not there.
fn fn_lines(text: &str, start: &str) -> Option<usize> {
    let at = text.find(start)?;
    let mut depth = 0usize;
    for (i, c) in text[at..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(text[at..=at + i].lines().count());
                }
            }
            _ => {}
        }
    }
    None
}

/// `pipeline/` only glues: the work is the stages' own, so every `.rs` file of
/// `src/pipeline/`, and the folder in total, stays within 500 lines, and `extract()` within
/// 60 (the sizes are printed).
#[test]
fn pipeline_stays_glue() {
    const FOLDER: usize = 500;
    const EXTRACT: usize = 60;
    let counts = line_counts(&root().join("src/pipeline"));
    let total: usize = counts.iter().map(|(_, n)| n).sum();
    for (f, n) in &counts {
        println!("{n:>5} {f}");
    }
    println!("{total:>5} src/pipeline/ in total");
    assert!(
        counts.len() >= 3 && counts.iter().any(|(f, _)| f == "src/pipeline/extract.rs"),
        "src/pipeline/ read with its line counts: {counts:?}"
    );
    let over = at_or_over(&counts, FOLDER + 1);
    assert!(
        over.is_empty(),
        "files over {FOLDER} lines in src/pipeline/ (move the work to its stage): {over:?}"
    );
    assert!(
        total <= FOLDER,
        "src/pipeline/ has {total} lines, over {FOLDER}: move the work to its stage"
    );
    let extract = code(&root().join("src/pipeline/extract.rs"));
    let n = fn_lines(&extract, "pub fn extract(").expect("src/pipeline/extract.rs: no extract()");
    println!("{n:>5} lines of extract()");
    assert!(
        n <= EXTRACT,
        "extract() has {n} lines, over {EXTRACT}: move the work to its stage"
    );
    // The count is exact: a function of 3 lines with nested braces counts 3, one of 1 line
    // 1, and an unclosed one is not counted.
    let f = "pub fn g() {}\npub fn f(x: u8) -> u8 {\n    if x > 0 { 1 } else { 0 }\n}\n";
    assert_eq!(fn_lines(f, "pub fn f("), Some(3));
    assert_eq!(fn_lines(f, "pub fn g("), Some(1));
    assert_eq!(fn_lines("pub fn f() {\n    {\n}\n", "pub fn f("), None);
    assert!(n > 20, "extract() found whole: {n} lines");
}

#[test]
fn every_stage_folder_says_what_enters_and_leaves() {
    for stage in [
        "fetch", "read", "parse", "detect", "bucket", "sample", "write", "merge", "locus", "score",
        "report", "view",
    ] {
        let p = root().join("src").join(stage).join("mod.rs");
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let doc: String = text
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            doc.contains("What enters") && doc.contains("What leaves"),
            "src/{stage}/mod.rs: its module doc must say what enters and what leaves"
        );
    }
}

/// CI runs exactly the README's test command, `make test`, and every Makefile target
/// finds the binary where cargo put it (`CARGO_TARGET_DIR` honoured).
#[test]
fn ci_runs_the_readme_test_command_and_make_honours_cargo_target_dir() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(
        readme.contains("```sh\nmake test\n```"),
        "README gives `make test`"
    );
    let ci_tests: Vec<&str> = ci
        .lines()
        .filter(|l| l.contains("cargo test") || l.trim() == "make test")
        .collect();
    assert_eq!(ci_tests, ["make test"], ".ci/run runs exactly `make test`");

    let dry_run = |target_dir: Option<&str>| {
        let mut c = std::process::Command::new("make");
        c.args(["-n", "--no-print-directory", "demo-run"])
            .current_dir(root())
            .env_remove("BIN")
            .env_remove("MAKEFLAGS");
        match target_dir {
            Some(d) => c.env("CARGO_TARGET_DIR", d),
            None => c.env_remove("CARGO_TARGET_DIR"),
        };
        let o = c.output().expect("make runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let elsewhere = dry_run(Some("/some/where"));
    assert!(
        elsewhere.starts_with("/some/where/release/ldd-sets extract "),
        "{elsewhere}"
    );
    let default = dry_run(None);
    let want = format!(
        "{}/release/ldd-sets extract ",
        root().join("target").display()
    );
    assert!(default.starts_with(&want), "{default}");
}

// ---------------------------------------------------------------------------------------
// Each command's trip in stage rooms (issue 46: printed, not gated).
//
// A small static walk that follows one parameter, as a designer's "be the parameter" walk
// does: start in a command's handler with its parameter `a` and follow every call that
// passes on a name carrying it, depth-first in the order the code is written. Each
// function entered is a step into its ROOM: the top-level module of `src/` it lives in
// (`cli`, `report`, `read`, ...; a file directly in `src/`, such as `error.rs`, is its own
// room), or, for a call into a workspace crate (`ldd_io::...`), that LIBRARY (not
// followed inside).
//
// - Carrying names: the parameter, and the names bound by `let` (any pattern), `for`,
//   `if let`/`while let`, `match` arms and `x = ...` from an expression that mentions a
//   carrying name; the parameters of a closure handed to a method of a carrying receiver.
//   Scopes and shadowing are ignored (a name once carrying stays so in its function).
// - Steps: a call `f(..)`, `path::f(..)`, `Type::f(..)` or `recv.m(..)` whose argument (or
//   receiver) mentions a carrying name is one step into the callee, which is then walked
//   with each parameter so passed (`self` for the receiver). Arguments are walked before
//   the call; macro arguments (`format!`, `vec!`, ...) are read as expressions.
// - Resolution: paths through `use` (renames, groups, globs, `pub use` re-exports),
//   `crate`/`self`/`super`/`ldd_sets`, child modules, free fns, and `Type::f` among the
//   impls of that type name (the one, or the one in the type's module). A method call
//   `x.m()` is resolved by `x`'s type when the walk knows it (a typed parameter, `self`,
//   `let x: T`, `let x = T::f(..)`, `T { .. }`); otherwise by the name: among the methods
//   of that name and arity in rooms the caller's room may import (`ORDER`), the only one,
//   or else the only one in the caller's module — never for the names of common std
//   methods (`STD_METHODS`). Anything else (std, closures in variables, trait objects,
//   ambiguous names) is not followed.
// - Each (function, parameter) is walked once and each call site stepped through once;
//   a later call to a function already walked is still a step into its room. The walk is
//   bounded by that; `EVENTS` only guards against a runaway, and the test fails rather
//   than cut a trip short.
//
// Counting. Only the GLUE's steps make the trip: steps into `cli` or the HUB (the
// command's own stage, `HANDLERS`) and the steps they take out of them (doors). What a
// stage then does inside (read → format → ldd_io) is its own business: those rooms are
// listed as "beneath", not counted. The trip is the rooms the glue enters, in order,
// consecutive repeats collapsed. ROOMS = its distinct rooms: cli, the hub and the other
// stages (`printer` included). The SHARED rooms (the ranks of `ORDER` below `fetch`:
// error, progress, config, layout, format — the vocabulary every stage uses) and the
// libraries the glue calls are listed beside the trip but neither counted nor on it: a
// command touches `error` and `ldd_io` wherever it builds an error or a path, and that is
// no stage of its data's journey. A RETURN is the trip coming back to a stage (not cli,
// the hub or `printer`, the one sink every message goes through) that it had left:
// `report → read → report → read` is one; going back to the hub between stages is the
// normal pattern and is none.
// ---------------------------------------------------------------------------------------

use syn::visit::Visit;
use syn::visit_mut::VisitMut;

/// Each command's handler: (command, file of `src/cli/`, function, hub).
const HANDLERS: [(&str, &str, &str, &str); 17] = [
    ("extract", "extract", "extract", "pipeline"),
    ("run", "extract", "run", "pipeline"),
    ("parse", "parse", "parse", "parse"),
    ("corpora", "corpora", "corpora", "fetch"),
    ("align", "align", "align", "pipeline"),
    ("score", "score", "score", "score"),
    ("slice", "score", "slice", "score"),
    ("compare", "score", "compare", "score"),
    ("contrast", "contrast", "contrast", "contrast"),
    ("sheets", "judge", "sheets", "judge"),
    ("tally", "judge", "tally", "judge"),
    ("mqm", "mqm", "mqm", "judge"),
    ("report", "report", "report", "report"),
    ("permute", "permute", "permute", "permute"),
    ("merge", "merge", "merge", "merge"),
    ("languages", "languages", "languages", "config"),
    ("check-detection", "detection", "check_detection", "detect"),
];

/// The most rooms and returns a command's trip should have (issue 46: printed, not gated).
const MAX_ROOMS: usize = 7;
const MAX_RETURNS: usize = 2;
/// The most steps a walk takes (today's longest: under 500).
const EVENTS: usize = 2000;
/// Method names std gives to its own types: a call `x.m()` of one of them on a receiver of
/// unknown type is not taken for a crate method of the same name.
const STD_METHODS: [&str; 61] = [
    "as_ref",
    "as_str",
    "as_path",
    "as_slice",
    "borrow",
    "chars",
    "clone",
    "cloned",
    "collect",
    "contains",
    "contains_key",
    "copied",
    "count",
    "display",
    "entry",
    "extend",
    "filter",
    "find",
    "first",
    "flat_map",
    "flush",
    "fmt",
    "from",
    "get",
    "get_mut",
    "insert",
    "into",
    "into_iter",
    "is_empty",
    "iter",
    "iter_mut",
    "join",
    "keys",
    "last",
    "len",
    "lines",
    "map",
    "max",
    "min",
    "next",
    "ok_or",
    "parse",
    "push",
    "read",
    "read_line",
    "remove",
    "sort",
    "split",
    "sum",
    "take",
    "to_owned",
    "to_string",
    "trim",
    "unwrap",
    "unwrap_or",
    "values",
    "write",
    "write_all",
    "zip",
    "and_then",
    "extension",
];

/// Where a path leads.
#[derive(Clone, Debug, PartialEq)]
enum Target {
    Fn(usize),
    Module(String),
    /// (module, type name)
    Type(String, String),
    Library(String),
    Unknown,
}

/// A function of the source: a free fn, an impl method or a trait's default method.
struct Func {
    /// `lib::report::inputs`, `bin::cli::plan`.
    module: String,
    file: String,
    /// The impl's type (or the trait) of a method.
    owner: Option<String>,
    name: String,
    /// The names each parameter binds (`self` for the receiver) and its type.
    params: Vec<(Vec<String>, Option<syn::Type>)>,
    body: syn::Block,
}

impl Func {
    fn label(&self) -> String {
        match &self.owner {
            Some(o) => format!("{o}::{} ({})", self.name, self.file),
            None => format!("{} ({})", self.name, self.file),
        }
    }
    fn has_receiver(&self) -> bool {
        self.params.first().is_some_and(|(n, _)| n == &["self"])
    }
}

/// What one module defines and imports.
#[derive(Default)]
struct Module {
    mods: BTreeSet<String>,
    fns: BTreeMap<String, usize>,
    types: BTreeSet<String>,
    uses: BTreeMap<String, Vec<String>>,
    globs: Vec<Vec<String>>,
}

/// Every function and module of the source, and the workspace's library names.
#[derive(Default)]
struct Index {
    modules: BTreeMap<String, Module>,
    funcs: Vec<Func>,
    methods: BTreeMap<String, Vec<usize>>,
    libraries: BTreeSet<String>,
}

/// The module path of a file of `src/`: `src/cli/**` is the binary's (`bin::`), the rest
/// the library's (`lib::`).
fn module_path(rel: &str) -> String {
    let inner = rel.trim_start_matches("src/").trim_end_matches(".rs");
    let mut segs: Vec<&str> = inner.split('/').collect();
    let krate = if segs[0] == "cli" || inner == "main" {
        "bin"
    } else {
        "lib"
    };
    if matches!(segs.last(), Some(&("mod" | "lib" | "main"))) {
        segs.pop();
    }
    std::iter::once(krate)
        .chain(segs)
        .collect::<Vec<_>>()
        .join("::")
}

fn parent(m: &str) -> String {
    m.rsplit_once("::").map_or(m, |(p, _)| p).to_string()
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
    })
}

/// The names a pattern binds.
fn pat_names(p: &syn::Pat) -> Vec<String> {
    struct Names(Vec<String>);
    impl<'a> Visit<'a> for Names {
        fn visit_pat_ident(&mut self, p: &'a syn::PatIdent) {
            self.0.push(p.ident.to_string());
            syn::visit::visit_pat_ident(self, p);
        }
    }
    let mut n = Names(Vec::new());
    n.visit_pat(p);
    n.0
}

/// The last name of a type's path (`&mut Foo<T>` → `Foo`).
fn type_name(t: &syn::Type) -> Option<String> {
    match t {
        syn::Type::Reference(r) => type_name(&r.elem),
        syn::Type::Paren(p) => type_name(&p.elem),
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

fn path_segs(p: &syn::Path) -> Vec<String> {
    p.segments.iter().map(|s| s.ident.to_string()).collect()
}

/// Macro arguments read as expressions (`format!("{}", f(a))` → `["{}", f(a)]`), so the
/// walk sees the calls inside them.
struct ExpandMacros;
impl VisitMut for ExpandMacros {
    fn visit_stmt_mut(&mut self, s: &mut syn::Stmt) {
        if let syn::Stmt::Macro(m) = s {
            let e = syn::Expr::Macro(syn::ExprMacro {
                attrs: Vec::new(),
                mac: m.mac.clone(),
            });
            *s = syn::Stmt::Expr(e, m.semi_token);
        }
        syn::visit_mut::visit_stmt_mut(self, s);
    }
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        if let syn::Expr::Macro(m) = e {
            let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
            if let Ok(elems) = m.mac.parse_body_with(parser) {
                *e = syn::Expr::Array(syn::ExprArray {
                    attrs: Vec::new(),
                    bracket_token: Default::default(),
                    elems,
                });
            }
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}

impl Index {
    /// `files`: (path from the root, text) of every `src/**/*.rs`; `libraries`: the
    /// workspace crates' names as code spells them (`ldd_io`).
    fn build(files: &[(String, String)], libraries: &[String]) -> Index {
        let mut ix = Index {
            libraries: libraries.iter().cloned().collect(),
            ..Index::default()
        };
        for (rel, text) in files {
            let file = syn::parse_file(text).unwrap_or_else(|e| panic!("{rel}: {e}"));
            let m = module_path(rel);
            let mut child = m.as_str();
            while let Some((p, name)) = child.rsplit_once("::") {
                ix.modules
                    .entry(p.to_string())
                    .or_default()
                    .mods
                    .insert(name.to_string());
                child = p;
            }
            ix.items(&m, rel, &file.items);
        }
        ix
    }

    fn items(&mut self, m: &str, file: &str, items: &[syn::Item]) {
        self.modules.entry(m.to_string()).or_default();
        for item in items {
            match item {
                syn::Item::Fn(f) if !is_cfg_test(&f.attrs) => {
                    let id = self.add(m, file, None, &f.sig, &f.block);
                    self.module(m).fns.insert(f.sig.ident.to_string(), id);
                }
                syn::Item::Impl(i) if !is_cfg_test(&i.attrs) => {
                    let owner = type_name(&i.self_ty);
                    for it in &i.items {
                        if let syn::ImplItem::Fn(f) = it {
                            self.add(m, file, owner.clone(), &f.sig, &f.block);
                        }
                    }
                }
                syn::Item::Trait(t) => {
                    self.module(m).types.insert(t.ident.to_string());
                    for it in &t.items {
                        if let syn::TraitItem::Fn(f) = it {
                            if let Some(b) = &f.default {
                                self.add(m, file, Some(t.ident.to_string()), &f.sig, b);
                            }
                        }
                    }
                }
                syn::Item::Struct(s) => _ = self.module(m).types.insert(s.ident.to_string()),
                syn::Item::Enum(s) => _ = self.module(m).types.insert(s.ident.to_string()),
                syn::Item::Type(s) => _ = self.module(m).types.insert(s.ident.to_string()),
                syn::Item::Mod(md) if !is_cfg_test(&md.attrs) => {
                    let name = md.ident.to_string();
                    self.module(m).mods.insert(name.clone());
                    if let Some((_, inner)) = &md.content {
                        self.items(&format!("{m}::{name}"), file, inner);
                    }
                }
                syn::Item::Use(u) => {
                    let (mut uses, mut globs) = (Vec::new(), Vec::new());
                    flatten_use(&u.tree, &mut Vec::new(), &mut uses, &mut globs);
                    let md = self.module(m);
                    md.uses.extend(uses);
                    md.globs.extend(globs);
                }
                _ => {}
            }
        }
    }

    fn module(&mut self, m: &str) -> &mut Module {
        self.modules.entry(m.to_string()).or_default()
    }

    fn add(
        &mut self,
        m: &str,
        file: &str,
        owner: Option<String>,
        sig: &syn::Signature,
        body: &syn::Block,
    ) -> usize {
        let params = sig
            .inputs
            .iter()
            .map(|a| match a {
                syn::FnArg::Receiver(_) => (vec!["self".to_string()], None),
                syn::FnArg::Typed(t) => (pat_names(&t.pat), Some((*t.ty).clone())),
            })
            .collect();
        let mut body = body.clone();
        ExpandMacros.visit_block_mut(&mut body);
        let id = self.funcs.len();
        let name = sig.ident.to_string();
        self.funcs.push(Func {
            module: m.to_string(),
            file: file.to_string(),
            owner: owner.clone(),
            name: name.clone(),
            params,
            body,
        });
        if owner.is_some() {
            self.methods.entry(name).or_default().push(id);
        }
        id
    }

    /// Where `segs` leads from module `m`; `value`: the last segment names a function.
    fn resolve(&self, m: &str, segs: &[String], value: bool, depth: usize) -> Target {
        if depth > 16 || segs.is_empty() {
            return Target::Unknown;
        }
        let last = segs.len() == 1;
        let mut cur = match segs[0].as_str() {
            "crate" => Target::Module(m.split("::").next().unwrap_or(m).to_string()),
            "self" => Target::Module(m.to_string()),
            "super" => Target::Module(parent(m)),
            "ldd_sets" => Target::Module("lib".to_string()),
            l if self.libraries.contains(l) => return Target::Library(l.to_string()),
            name => self.lookup(m, name, last && value, depth),
        };
        for (i, seg) in segs.iter().enumerate().skip(1) {
            let last = i + 1 == segs.len();
            cur = match cur {
                Target::Module(cm) => match seg.as_str() {
                    "super" => Target::Module(parent(&cm)),
                    "self" => Target::Module(cm),
                    _ => self.lookup(&cm, seg, last && value, depth),
                },
                Target::Type(tm, t) => self.method_of(&tm, &t, seg),
                Target::Library(l) => Target::Library(l),
                _ => Target::Unknown,
            };
        }
        cur
    }

    /// What `name` means in module `m`.
    fn lookup(&self, m: &str, name: &str, value: bool, depth: usize) -> Target {
        let Some(md) = self.modules.get(m) else {
            return Target::Unknown;
        };
        if value {
            if let Some(&f) = md.fns.get(name) {
                return Target::Fn(f);
            }
        } else if md.mods.contains(name) {
            return Target::Module(format!("{m}::{name}"));
        }
        if md.types.contains(name) {
            return Target::Type(m.to_string(), name.to_string());
        }
        if let Some(p) = md.uses.get(name) {
            let t = self.resolve(m, p, value, depth + 1);
            if t != Target::Unknown {
                return t;
            }
        }
        for g in &md.globs {
            if let Target::Module(gm) = self.resolve(m, g, false, depth + 1) {
                let t = self.lookup(&gm, name, value, depth + 1);
                if t != Target::Unknown {
                    return t;
                }
            }
        }
        Target::Unknown
    }

    /// The methods called `name`.
    fn named(&self, name: &str) -> impl Iterator<Item = usize> + '_ {
        self.methods.get(name).into_iter().flatten().copied()
    }

    /// The method `name` of type `t` (defined in `tm`): the one impl of that name, or the
    /// one in `tm`.
    fn method_of(&self, tm: &str, t: &str, name: &str) -> Target {
        let of: Vec<usize> = self
            .named(name)
            .filter(|&f| self.funcs[f].owner.as_deref() == Some(t))
            .collect();
        one_or_in(&of, |f| self.funcs[f].module == tm)
    }

    /// `recv.name()` with `recv` of unknown type, called from module `m`: among the
    /// methods of that name taking `args` arguments in rooms `m`'s room may import (`ORDER`).
    fn method_by_name(&self, m: &str, name: &str, args: usize) -> Target {
        if STD_METHODS.contains(&name) {
            return Target::Unknown;
        }
        let rank = |r: &str| ORDER.iter().position(|o| *o == r);
        let caller = rank(&room_of(m));
        let of: Vec<usize> = self
            .named(name)
            .filter(|&f| self.funcs[f].has_receiver() && self.funcs[f].params.len() == args + 1)
            .filter(|&f| match (caller, rank(&room_of(&self.funcs[f].module))) {
                (Some(c), Some(r)) => r <= c,
                _ => true,
            })
            .collect();
        one_or_in(&of, |f| self.funcs[f].module == m)
    }

    /// The type a `Type` names from module `m` (`Self` is `owner`).
    fn type_target(&self, m: &str, owner: Option<&str>, t: &syn::Type) -> Option<Target> {
        match t {
            syn::Type::Reference(r) => self.type_target(m, owner, &r.elem),
            syn::Type::Paren(p) => self.type_target(m, owner, &p.elem),
            syn::Type::Path(p) => self.path_type(m, owner, &path_segs(&p.path)),
            _ => None,
        }
    }

    fn path_type(&self, m: &str, owner: Option<&str>, segs: &[String]) -> Option<Target> {
        if segs == ["Self"] {
            return owner.map(|o| Target::Type(m.to_string(), o.to_string()));
        }
        match self.resolve(m, segs, false, 0) {
            t @ (Target::Type(..) | Target::Library(_)) => Some(t),
            _ => None,
        }
    }

    /// The room of function `f`.
    fn room(&self, f: usize) -> String {
        room_of(&self.funcs[f].module)
    }
}

/// The only candidate, or the only one that `prefer` picks; else none.
fn one_or_in(of: &[usize], prefer: impl Fn(usize) -> bool) -> Target {
    match of {
        [f] => Target::Fn(*f),
        _ => match of
            .iter()
            .copied()
            .filter(|&f| prefer(f))
            .collect::<Vec<_>>()[..]
        {
            [f] => Target::Fn(f),
            _ => Target::Unknown,
        },
    }
}

/// `use a::{b, c as d, e::*}` → (local name, path) pairs and glob paths.
fn flatten_use(
    t: &syn::UseTree,
    prefix: &mut Vec<String>,
    uses: &mut Vec<(String, Vec<String>)>,
    globs: &mut Vec<Vec<String>>,
) {
    match t {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten_use(&p.tree, prefix, uses, globs);
            prefix.pop();
        }
        syn::UseTree::Name(n) if n.ident == "self" => {
            if let Some(last) = prefix.last() {
                uses.push((last.clone(), prefix.clone()));
            }
        }
        syn::UseTree::Name(n) => {
            let mut p = prefix.clone();
            p.push(n.ident.to_string());
            uses.push((n.ident.to_string(), p));
        }
        syn::UseTree::Rename(r) => {
            let mut p = prefix.clone();
            p.push(r.ident.to_string());
            uses.push((r.rename.to_string(), p));
        }
        syn::UseTree::Glob(_) => globs.push(prefix.clone()),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                flatten_use(t, prefix, uses, globs);
            }
        }
    }
}

/// The room of a module: the top-level module of `src/` (`lib::report::html` → `report`;
/// the binary's `cli`); the crate roots are `lib` and `main`.
fn room_of(module: &str) -> String {
    let mut segs = module.split("::");
    let krate = segs.next().unwrap_or_default();
    match segs.next() {
        Some(r) => r.to_string(),
        None if krate == "bin" => "main".to_string(),
        None => krate.to_string(),
    }
}

/// One step of a walk: a room entered.
struct Step {
    room: String,
    /// The function that passed the parameter on (`None`: the handler itself).
    from: Option<usize>,
    /// The function entered (`None`: a library).
    to: Option<usize>,
    /// In `cli` or the hub, or entered from there (a door); else beneath a door.
    glue: bool,
}

/// A walk of one parameter.
struct Walk<'a> {
    ix: &'a Index,
    hub: String,
    steps: Vec<Step>,
    walked: BTreeSet<(usize, usize)>,
    /// The call sites already stepped through (a function walked for a second parameter
    /// does not step again where it stepped for the first).
    sites: BTreeSet<usize>,
}

impl<'a> Walk<'a> {
    fn home(&self, room: &str) -> bool {
        room == "cli" || room == self.hub
    }

    /// A step into `room` from function `from`.
    fn step(&mut self, room: String, from: Option<usize>, to: Option<usize>) {
        let glue = self.home(&room) || from.is_none_or(|f| self.home(&self.ix.room(f)));
        self.steps.push(Step {
            room,
            from,
            to,
            glue,
        });
    }

    /// Walks `f`'s body carrying its parameter `param` (once for each pair).
    fn walk(&mut self, f: usize, param: usize) {
        let func = &self.ix.funcs[f];
        if self.steps.len() >= EVENTS
            || param >= func.params.len()
            || !self.walked.insert((f, param))
        {
            return;
        }
        let mut types = BTreeMap::new();
        for (names, ty) in &func.params {
            let t = match ty {
                Some(ty) => self.ix.type_target(&func.module, func.owner.as_deref(), ty),
                None => func
                    .owner
                    .as_ref()
                    .map(|o| Target::Type(func.module.clone(), o.clone())),
            };
            if let ([n], Some(t)) = (&names[..], t) {
                types.insert(n.clone(), t);
            }
        }
        let mut body = Body {
            walk: self,
            func: f,
            carriers: func.params[param].0.iter().cloned().collect(),
            types,
        };
        body.visit_block(&func.body);
    }
}

/// The walk inside one function's body.
struct Body<'w, 'a> {
    walk: &'w mut Walk<'a>,
    func: usize,
    carriers: BTreeSet<String>,
    types: BTreeMap<String, Target>,
}

impl<'a> Body<'_, 'a> {
    fn mentions(&self, e: &syn::Expr) -> bool {
        struct M<'c>(&'c BTreeSet<String>, bool);
        impl<'x> Visit<'x> for M<'_> {
            fn visit_expr_path(&mut self, p: &'x syn::ExprPath) {
                if let Some(i) = p.path.get_ident() {
                    self.1 |= self.0.contains(&i.to_string());
                }
                syn::visit::visit_expr_path(self, p);
            }
            fn visit_item(&mut self, _: &'x syn::Item) {}
        }
        let mut m = M(&self.carriers, false);
        m.visit_expr(e);
        m.1
    }

    fn bind(&mut self, p: &syn::Pat) {
        self.carriers.extend(pat_names(p));
    }

    fn func(&self) -> &'a Func {
        &self.walk.ix.funcs[self.func]
    }

    /// The type of a `let`'s value: `T::f(..)`, `T::f(..)?`, `T { .. }`.
    fn value_type(&self, e: &syn::Expr) -> Option<Target> {
        let f = self.func();
        match e {
            syn::Expr::Try(t) => self.value_type(&t.expr),
            syn::Expr::Call(c) => match &*c.func {
                syn::Expr::Path(p) if p.path.segments.len() >= 2 => {
                    let segs = path_segs(&p.path);
                    self.walk
                        .ix
                        .path_type(&f.module, f.owner.as_deref(), &segs[..segs.len() - 1])
                }
                _ => None,
            },
            syn::Expr::Struct(s) => {
                self.walk
                    .ix
                    .path_type(&f.module, f.owner.as_deref(), &path_segs(&s.path))
            }
            _ => None,
        }
    }
}

impl<'a> Visit<'a> for Body<'_, 'a> {
    fn visit_item(&mut self, _: &'a syn::Item) {}

    fn visit_local(&mut self, l: &'a syn::Local) {
        let Some(init) = &l.init else { return };
        self.visit_expr(&init.expr);
        if let Some((_, e)) = &init.diverge {
            self.visit_expr(e);
        }
        if self.mentions(&init.expr) {
            self.bind(&l.pat);
        }
        let (pat, ty) = match &l.pat {
            syn::Pat::Type(t) => (&*t.pat, Some(&*t.ty)),
            p => (p, None),
        };
        if let syn::Pat::Ident(i) = pat {
            let f = self.func();
            let t = match ty {
                Some(ty) => self.walk.ix.type_target(&f.module, f.owner.as_deref(), ty),
                None => self.value_type(&init.expr),
            };
            if let Some(t) = t {
                self.types.insert(i.ident.to_string(), t);
            }
        }
    }

    fn visit_expr_for_loop(&mut self, e: &'a syn::ExprForLoop) {
        self.visit_expr(&e.expr);
        if self.mentions(&e.expr) {
            self.bind(&e.pat);
        }
        self.visit_block(&e.body);
    }

    fn visit_expr_let(&mut self, e: &'a syn::ExprLet) {
        self.visit_expr(&e.expr);
        if self.mentions(&e.expr) {
            self.bind(&e.pat);
        }
    }

    fn visit_expr_match(&mut self, e: &'a syn::ExprMatch) {
        self.visit_expr(&e.expr);
        let carrying = self.mentions(&e.expr);
        for arm in &e.arms {
            if carrying {
                self.bind(&arm.pat);
            }
            self.visit_arm(arm);
        }
    }

    fn visit_expr_assign(&mut self, e: &'a syn::ExprAssign) {
        self.visit_expr(&e.right);
        if self.mentions(&e.right) {
            if let syn::Expr::Path(p) = &*e.left {
                if let Some(i) = p.path.get_ident() {
                    self.carriers.insert(i.to_string());
                }
            }
        }
        self.visit_expr(&e.left);
    }

    fn visit_expr_call(&mut self, c: &'a syn::ExprCall) {
        for a in &c.args {
            self.visit_expr(a);
        }
        let syn::Expr::Path(p) = &*c.func else {
            self.visit_expr(&c.func);
            return;
        };
        let f = self.func();
        let mut segs = path_segs(&p.path);
        if segs.first().is_some_and(|s| s == "Self") {
            match &f.owner {
                Some(o) => segs[0] = o.clone(),
                None => return,
            }
            if segs.len() == 2 {
                let t = self.walk.ix.method_of(&f.module, &segs[0], &segs[1]);
                return self.call(c as *const _ as usize, &t, c.args.iter(), 0, false);
            }
        }
        let t = self.walk.ix.resolve(&f.module, &segs, true, 0);
        self.call(c as *const _ as usize, &t, c.args.iter(), 0, false);
    }

    fn visit_expr_method_call(&mut self, c: &'a syn::ExprMethodCall) {
        self.visit_expr(&c.receiver);
        let carrying = self.mentions(&c.receiver);
        if carrying {
            for a in &c.args {
                if let syn::Expr::Closure(cl) = a {
                    for p in &cl.inputs {
                        self.bind(p);
                    }
                }
            }
        }
        for a in &c.args {
            self.visit_expr(a);
        }
        let f = self.func();
        let m = c.method.to_string();
        let known = match &*c.receiver {
            syn::Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|i| self.types.get(&i.to_string())),
            _ => None,
        };
        let t = match known {
            Some(Target::Type(tm, ty)) => self.walk.ix.method_of(tm, ty, &m),
            Some(l @ Target::Library(_)) => l.clone(),
            _ => self.walk.ix.method_by_name(&f.module, &m, c.args.len()),
        };
        let shift = match &t {
            Target::Fn(g) if self.walk.ix.funcs[*g].has_receiver() => 1,
            _ => 0,
        };
        let site = c as *const _ as usize;
        self.call(site, &t, c.args.iter(), shift, carrying && shift == 1);
    }
}

impl<'a> Body<'_, 'a> {
    /// One step into `t` if an argument carries the parameter (`params` are the
    /// callee's parameters it passes; `receiver`: the receiver carries it too), then the
    /// callee walked with each.
    fn call(
        &mut self,
        site: usize,
        t: &Target,
        args: impl Iterator<Item = &'a syn::Expr>,
        shift: usize,
        receiver: bool,
    ) {
        let mut params: Vec<usize> = args
            .enumerate()
            .filter(|(_, a)| self.mentions(a))
            .map(|(i, _)| i + shift)
            .collect();
        if receiver {
            params.insert(0, 0);
        }
        if params.is_empty() || self.walk.steps.len() >= EVENTS {
            return;
        }
        let new = self.walk.sites.insert(site);
        match t {
            Target::Fn(f) => {
                if new {
                    self.walk
                        .step(self.walk.ix.room(*f), Some(self.func), Some(*f));
                }
                for p in params {
                    self.walk.walk(*f, p);
                }
            }
            Target::Library(l) if new => self.walk.step(l.clone(), Some(self.func), None),
            _ => {}
        }
    }
}

/// A command's trip: the rooms its glue (the handler, `cli` and the hub) hands the
/// parameter to, in order, and what they count.
struct Trip {
    /// The glue's rooms in order, consecutive repeats collapsed, with the step of each.
    rooms: Vec<(String, usize)>,
    /// Its distinct rooms: `cli`, the hub and stages (counted).
    distinct: Vec<String>,
    /// The shared rooms and libraries the glue uses (listed, not counted).
    uses: Vec<String>,
    /// Rooms entered only beneath a door (a stage's own business, not counted).
    beneath: Vec<String>,
    /// (room, the step that came back to it)
    returns: Vec<(String, usize)>,
    steps: Vec<Step>,
}

/// Rooms every stage uses: the ranks of `ORDER` below `fetch`.
fn shared(room: &str) -> bool {
    let fetch = ORDER.iter().position(|o| *o == "fetch").unwrap();
    ORDER[..fetch].contains(&room)
}

fn trip(ix: &Index, handler: usize, hub: &str) -> Trip {
    let mut w = Walk {
        ix,
        hub: hub.to_string(),
        steps: Vec::new(),
        walked: BTreeSet::new(),
        sites: BTreeSet::new(),
    };
    w.step(ix.room(handler), None, Some(handler));
    w.walk(handler, 0);
    let mut rooms: Vec<(String, usize)> = Vec::new();
    let (mut distinct, mut uses): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
    let mut returns = Vec::new();
    let used = |r: &str| !w.home(r) && (shared(r) || ix.libraries.contains(r));
    for (i, s) in w.steps.iter().enumerate().filter(|(_, s)| s.glue) {
        if used(&s.room) {
            if !uses.contains(&s.room) {
                uses.push(s.room.clone());
            }
            continue;
        }
        if !distinct.contains(&s.room) {
            distinct.push(s.room.clone());
        }
        if rooms.last().is_some_and(|(r, _)| *r == s.room) {
            continue;
        }
        if rooms.iter().any(|(r, _)| *r == s.room) && !w.home(&s.room) && s.room != "printer" {
            returns.push((s.room.clone(), i));
        }
        rooms.push((s.room.clone(), i));
    }
    let mut beneath = Vec::new();
    for s in &w.steps {
        if !distinct.contains(&s.room) && !uses.contains(&s.room) && !beneath.contains(&s.room) {
            beneath.push(s.room.clone());
        }
    }
    Trip {
        rooms,
        distinct,
        uses,
        beneath,
        returns,
        steps: w.steps,
    }
}

impl Trip {
    /// `cli → judge → read → judge → printer (4 rooms: cli, hub and 2 stages; 1 return:
    /// read) + shared: format, error; libraries: ldd_io; beneath: sample`.
    fn line(&self, ix: &Index) -> String {
        let list = |v: &[&String]| {
            if v.is_empty() {
                "-".to_string()
            } else {
                v.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
            }
        };
        let (libs, sh): (Vec<&String>, Vec<&String>) =
            self.uses.iter().partition(|r| ix.libraries.contains(*r));
        let rets: Vec<&String> = self.returns.iter().map(|(r, _)| r).collect();
        let rooms: Vec<&String> = self.rooms.iter().map(|(r, _)| r).collect();
        format!(
            "{} ({} rooms: cli, hub and {} stages; {} returns{}) + shared: {}; libraries: {}; beneath: {}",
            list(&rooms).replace(", ", " → "),
            self.distinct.len(),
            self.distinct.len().saturating_sub(2),
            rets.len(),
            if rets.is_empty() { String::new() } else { format!(": {}", list(&rets)) },
            list(&sh),
            list(&libs),
            list(&self.beneath.iter().collect::<Vec<_>>()),
        )
    }

    /// Step `i` as `caller (file) → callee (file)`.
    fn door(&self, ix: &Index, i: usize) -> String {
        let s = &self.steps[i];
        let from = s.from.map_or("-".to_string(), |f| ix.funcs[f].label());
        let to = s.to.map_or(s.room.clone(), |f| ix.funcs[f].label());
        format!("{from} → {to}")
    }
}

/// The index of today's source: every `src/**/*.rs`, and the workspace crates' names.
fn source_index() -> Index {
    let files: Vec<(String, String)> = rust_files(&root().join("src"))
        .iter()
        .map(|p| {
            let rel = p
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, std::fs::read_to_string(p).unwrap())
        })
        .collect();
    let mut libraries = Vec::new();
    for e in std::fs::read_dir(root().join("crates")).unwrap() {
        let toml = std::fs::read_to_string(e.unwrap().path().join("Cargo.toml")).unwrap();
        let name = toml
            .lines()
            .find_map(|l| l.strip_prefix("name = \""))
            .and_then(|l| l.strip_suffix('"'))
            .expect("a crate's name");
        libraries.push(name.replace('-', "_"));
    }
    Index::build(&files, &libraries)
}

#[test]
fn each_commands_trip_in_stage_rooms() {
    let ix = source_index();
    let main = std::fs::read_to_string(root().join("src/cli/mod.rs")).unwrap();
    let mut over = Vec::new();
    for (command, file, func, hub) in HANDLERS {
        assert!(
            main.contains(&format!("=> {file}::{func}(a)")),
            "src/cli/mod.rs runs `{command}` by {file}::{func}(a)"
        );
        let m = format!("bin::cli::{file}");
        let h = *ix.modules[&m]
            .fns
            .get(func)
            .unwrap_or_else(|| panic!("{m}: no fn {func}"));
        assert_eq!(
            ix.funcs[h].params[0].0,
            ["a"],
            "{command}: the handler's parameter is `a`"
        );
        let t = trip(&ix, h, hub);
        assert_eq!(t.rooms[0].0, "cli", "{command}: the trip starts in cli");
        assert!(
            t.rooms.iter().any(|(r, _)| r == hub),
            "{command}: the trip reaches its hub {hub}: {}",
            t.line(&ix)
        );
        assert!(
            t.steps.len() < EVENTS,
            "{command}: the walk reached {EVENTS} steps: raise EVENTS"
        );
        println!("{command}: {}", t.line(&ix));
        if t.distinct.len() > MAX_ROOMS || t.returns.len() > MAX_RETURNS {
            over.push(command);
            println!(
                "  OVER (at most {MAX_ROOMS} rooms, {MAX_RETURNS} returns); each room entered by"
            );
            for r in &t.distinct[1..] {
                let i = t.steps.iter().position(|s| s.glue && s.room == *r).unwrap();
                println!("    {r}: {}", t.door(&ix, i));
            }
            for (r, i) in &t.returns {
                println!("    return to {r}: {}", t.door(&ix, *i));
            }
        }
    }
    // Every command of the command line is in the table.
    let run = &main[main.find("fn run(").unwrap()..];
    assert_eq!(
        run.matches("(a),").count(),
        HANDLERS.len(),
        "a command missing from HANDLERS"
    );
    println!("over {MAX_ROOMS} rooms or {MAX_RETURNS} returns: {over:?}");
}

/// The walk on a small hand-checked house: a parameter passed on through a `use` rename,
/// a let-binding, an associated function and a method of a typed value, a `for` binding
/// and a library; a call that does not carry it is not followed; a return to `read`.
#[test]
fn the_walk_follows_one_parameter_through_a_small_house() {
    let files = [
        (
            "src/cli/x.rs",
            "use ldd_sets::read::load as fetch_sets;\n\
             use ldd_sets::judge;\n\
             pub fn go(a: Args) -> Result<()> {\n\
                 let sets = fetch_sets(&a.dir)?;\n\
                 ldd_io::note(&sets);\n\
                 let n = count(3);\n\
                 let out = judge::Builder::new(&sets);\n\
                 out.run(&a, n);\n\
                 println!(\"{}\", ldd_sets::read::again(&a.more));\n\
                 Ok(())\n\
             }\n\
             fn count(n: usize) -> usize { ldd_sets::read::never(n) }\n",
        ),
        (
            "src/read/mod.rs",
            "pub fn load(dir: &Path) -> Result<Sets> { let p = dir.join(\"x\"); crate::format::parse(&p) }\n\
             pub fn again(x: &X) -> u8 { ldd_io::touch(x) }\n\
             pub fn never(n: usize) -> usize { n }\n",
        ),
        ("src/format/mod.rs", "pub fn parse(p: &Path) -> Sets { Sets::new(p) }\n"),
        (
            "src/judge/mod.rs",
            "pub struct Builder;\n\
             impl Builder {\n\
                 pub fn new(s: &Sets) -> Self { Builder }\n\
                 pub fn run(&self, a: &Args, n: usize) {\n\
                     for f in &a.files { super::score::weigh(f); }\n\
                     helper(n);\n\
                 }\n\
             }\n\
             fn helper(n: usize) {}\n",
        ),
        ("src/score/mod.rs", "pub fn weigh(f: &F) {}\n"),
    ];
    let files: Vec<(String, String)> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    let ix = Index::build(&files, &["ldd_io".to_string()]);
    let go = ix.modules["bin::cli::x"].fns["go"];
    let t = trip(&ix, go, "judge");
    let rooms: Vec<&str> = t.rooms.iter().map(|(r, _)| r.as_str()).collect();
    assert_eq!(rooms, ["cli", "read", "judge", "score", "read"]);
    assert_eq!(t.distinct, ["cli", "read", "judge", "score"]);
    assert_eq!(t.uses, ["ldd_io"]);
    assert_eq!(t.beneath, ["format"]);
    let returns: Vec<&str> = t.returns.iter().map(|(r, _)| r.as_str()).collect();
    assert_eq!(returns, ["read"]);
    assert_eq!(
        t.line(&ix),
        "cli → read → judge → score → read (4 rooms: cli, hub and 2 stages; 1 returns: read) \
         + shared: -; libraries: ldd_io; beneath: format"
    );
    // `out.run(&a, n)`: one step into `Builder::run`, walked as `self` and as `a` (the
    // second finds `score`).
    let run = t
        .steps
        .iter()
        .filter(|s| s.to.is_some_and(|f| ix.funcs[f].name == "run"))
        .count();
    assert_eq!(run, 1);
    assert!(t.steps.iter().all(|s| s
        .to
        .is_none_or(|f| !["never", "count", "helper"].contains(&ix.funcs[f].name.as_str()))));
    assert_eq!(
        t.door(&ix, t.returns[0].1),
        "go (src/cli/x.rs) → again (src/read/mod.rs)"
    );
}

/// The set-size, score, trend and distance tables are built once, in `src/view`: the files
/// that render them as text, HTML, LaTeX and CSV take the view's lines and cells and never
/// join the records themselves — no walk over a scores file's rows or a manifest's sets, no
/// lookup of a metric's keys, no binning of distance counts — except to build the view
/// (a line calling `Sizes::of`, `ScoreView::of`).
#[test]
fn the_tables_are_built_once_in_view() {
    const RENDERERS: [&str; 10] = [
        "src/printer/scores.rs",
        "src/printer/extract.rs",
        "src/report/html/scores.rs",
        "src/report/html/sizes.rs",
        "src/report/html/findings.rs",
        "src/report/html/distances.rs",
        "src/report/latex.rs",
        "src/report/render.rs",
        "src/score/render.rs",
        "src/write/summary.rs",
    ];
    const JOINS: [&str; 7] = [
        ".rows",
        "metric_keys(",
        "m.sets",
        "r.sets",
        ".counts",
        ".trends.iter()",
        "trends.iter().find",
    ];
    let mut found = Vec::new();
    for rel in RENDERERS {
        let text = code(&root().join(rel));
        let lib = text.split("#[cfg(test)]").next().unwrap_or("");
        found.extend(hits(rel, lib, |line| {
            !line.contains("::of(") && JOINS.iter().any(|j| line.contains(j))
        }));
    }
    assert!(
        found.is_empty(),
        "a renderer joins records itself (build the table in src/view):\n{}",
        found.join("\n")
    );
}

/// Every text a command prints is rendered by the printer: the handlers of `src/cli` hand
/// `printer::out` and `printer::say` what a printer function returned (or a message the
/// library made), never text they format or spell out themselves.
#[test]
fn the_commands_print_only_what_the_printer_renders() {
    let cli = root().join("src/cli");
    let mut found = Vec::new();
    for f in rust_files(&cli) {
        let rel = f.strip_prefix(root()).unwrap().display().to_string();
        let text = code(&f);
        // A call and its argument, however rustfmt breaks it.
        let flat: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        for sink in ["printer::out(", "printer::say("] {
            for (i, _) in flat.match_indices(sink) {
                let arg = &flat[i + sink.len()..];
                let arg = &arg[..arg.len().min(60)];
                if arg.starts_with("&format!") || arg.starts_with("format!") || arg.starts_with('"')
                {
                    found.push(format!("{rel}: {sink}{arg}"));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "text formatted for printing in src/cli (render it in src/printer):\n{}",
        found.join("\n")
    );
}
