//! One map (issue 56, item 5): the stage order is written in `ORDER`; docs/design.md's table
//! of `src/` and src/lib.rs's stage list are held to it, so the three cannot drift.

use super::{root, ORDER};

/// The units of `src/` named in the first cell of each row of design.md's table of
/// folders (`| \`src/pipeline/read/\` | ...` is `pipeline/read`, `| \`src/config/\`,
/// \`src/error.rs\` | ...` two), in order, with each row's length; the binary's `src/cli/`
/// is no stage.
fn design_rows(design: &str) -> Vec<(Vec<String>, usize)> {
    let mut rows = Vec::new();
    for line in design.lines().filter(|l| l.starts_with("| `src/")) {
        let cell = line[1..].split('|').next().unwrap_or_default();
        let mods: Vec<String> = cell
            .split('`')
            .filter_map(|p| p.strip_prefix("src/"))
            .map(|p| p.trim_end_matches('/').trim_end_matches(".rs").to_string())
            .filter(|m| !m.is_empty() && m != "cli")
            .collect();
        if !mods.is_empty() {
            rows.push((mods, line.chars().count()));
        }
    }
    rows
}

/// The longest a row of design.md's table may be: one short line per room, the details in
/// the room's `mod.rs` doc.
const ROW_CHARS: usize = 240;

/// What keeps `names` (in their order of appearance) from being `ORDER`'s modules in
/// `ORDER`'s order, each once: missing ones, unknown ones, and pairs out of order.
fn against_order(names: &[String]) -> Vec<String> {
    let rank = |m: &str| ORDER.iter().position(|o| *o == m);
    let mut wrong = Vec::new();
    for o in ORDER {
        match names.iter().filter(|n| *n == o).count() {
            0 => wrong.push(format!("no {o}")),
            1 => {}
            k => wrong.push(format!("{o} {k} times")),
        }
    }
    for n in names.iter().filter(|n| rank(n).is_none()) {
        wrong.push(format!("{n} is not in ORDER"));
    }
    let ranked: Vec<(usize, &String)> = names.iter().filter_map(|n| Some((rank(n)?, n))).collect();
    for w in ranked.windows(2).filter(|w| w[0].0 > w[1].0) {
        wrong.push(format!("{} before {}", w[0].1, w[1].1));
    }
    wrong
}

#[test]
fn against_order_names_what_is_missing_unknown_or_out_of_order() {
    let mut names: Vec<String> = ORDER.iter().map(|s| s.to_string()).collect();
    assert!(against_order(&names).is_empty());
    names.swap(0, 1);
    names.retain(|n| n != "report");
    names.push("nowhere".to_string());
    assert_eq!(
        against_order(&names),
        [
            "no report",
            "nowhere is not in ORDER",
            "config before error"
        ]
    );
}

#[test]
fn design_md_has_one_short_row_per_stage_in_order() {
    let design = std::fs::read_to_string(root().join("docs/design.md")).unwrap();
    let rows = design_rows(&design);
    assert!(rows.len() >= 10, "{rows:?}");
    let names: Vec<String> = rows.iter().flat_map(|(m, _)| m.clone()).collect();
    let long: Vec<String> = rows
        .iter()
        .filter(|(_, n)| *n > ROW_CHARS)
        .map(|(m, n)| format!("{} ({n})", m.join(", ")))
        .collect();
    let wrong = against_order(&names);
    assert!(
        wrong.is_empty() && long.is_empty(),
        "docs/design.md's table against ORDER {ORDER:?}: {wrong:?}; rows over {ROW_CHARS} \
         characters: {long:?}"
    );
}

/// The modules src/lib.rs's doc names as links (`[`read`]`, `[`write`](mod@write)`), in
/// order of first mention; those on its lines with arrows (the stage chain, `[`read`] →
/// [`parse`] → ...`), in order; and its `pub mod` lines.
fn lib_doc(lib: &str) -> (Vec<String>, Vec<String>, Vec<String>) {
    let (mut named, mut chain) = (Vec::new(), Vec::new());
    for line in lib.lines().filter_map(|l| l.strip_prefix("//!")) {
        for part in line.split("[`").skip(1) {
            let name = part.split('`').next().unwrap_or_default().to_string();
            if line.contains('→') {
                chain.push(name.clone());
            }
            if !named.contains(&name) {
                named.push(name);
            }
        }
    }
    let mods = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';').to_string())
        .collect();
    (named, chain, mods)
}

/// A unit of `ORDER` by the name lib.rs's doc gives it: a stage of the pipeline by its
/// own (`pipeline/read` → `read`).
fn short(unit: &str) -> &str {
    unit.rsplit('/').next().unwrap_or(unit)
}

#[test]
fn lib_rs_names_every_stage_and_chains_them_in_order() {
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).unwrap();
    let (named, chain, mods) = lib_doc(&lib);
    let mut top: Vec<&str> = ORDER.into_iter().filter(|o| !o.contains('/')).collect();
    top.sort_unstable();
    assert_eq!(mods, top, "src/lib.rs's modules are ORDER's top-level ones");
    let mut stages: Vec<String> = std::fs::read_dir(root().join("src/pipeline"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| format!("pipeline/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    stages.sort_unstable();
    let mut want: Vec<&str> = ORDER.into_iter().filter(|o| o.contains('/')).collect();
    want.sort_unstable();
    assert_eq!(
        stages, want,
        "the folders of src/pipeline/ are ORDER's stages"
    );
    let rank = |m: &String| ORDER.iter().position(|o| short(o) == m);
    let ranks: Vec<Option<usize>> = chain.iter().map(rank).collect();
    assert!(
        chain.len() >= 8 && ranks.windows(2).all(|w| w[0].is_some() && w[0] < w[1]),
        "src/lib.rs's stage chain {chain:?} against ORDER {ORDER:?}"
    );
    let missing: Vec<&str> = ORDER
        .into_iter()
        .filter(|o| !named.iter().any(|n| n == short(o)))
        .collect();
    assert!(missing.is_empty(), "src/lib.rs's doc names no {missing:?}");
}
