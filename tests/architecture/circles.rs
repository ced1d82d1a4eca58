//! Import circles between the files of one room (issue 56): `no_module_cycle_in_any_crate`
//! sees only the rooms of `src/` (its top-level modules); here each file of a room is a node
//! and a file imports another when a path in its code (a call, a type, a pattern) leads to
//! something the other defines, as the walk's index resolves paths (`use` renames, groups,
//! globs, `super`, `crate`). `cli/score.rs ⇄ cli/plan/score.rs` is such a circle: the
//! handler calls the plan, the plan takes the handler's argument struct.

use std::collections::{BTreeMap, BTreeSet};

use syn::visit::Visit;

use super::walk::{is_cfg_test, module_path, path_segs, room_of, source_files, source_index_of};
use super::walk::{Index, Target};

/// The file each path of a file's non-test code leads to, within the file's room.
struct Paths<'a> {
    ix: &'a Index,
    module: String,
    files: &'a BTreeMap<String, String>,
    out: BTreeSet<String>,
}

impl Paths<'_> {
    /// The file that defines module `m` (an inline module is its file's).
    fn file_of(&self, m: &str) -> Option<String> {
        let mut m = m.to_string();
        loop {
            if let Some(f) = self.files.get(&m) {
                return Some(f.clone());
            }
            m = m.rsplit_once("::")?.0.to_string();
        }
    }
}

impl<'a> Visit<'a> for Paths<'_> {
    fn visit_item(&mut self, i: &'a syn::Item) {
        let attrs = match i {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Impl(m) => &m.attrs,
            _ => return syn::visit::visit_item(self, i),
        };
        if !is_cfg_test(attrs) {
            syn::visit::visit_item(self, i);
        }
    }

    fn visit_path(&mut self, p: &'a syn::Path) {
        let segs = path_segs(p);
        let mut t = self.ix.resolve(&self.module, &segs, true, 0);
        if t == Target::Unknown {
            t = self.ix.resolve(&self.module, &segs, false, 0);
        }
        let m = match t {
            Target::Fn(f) => Some(self.ix.funcs[f].module.clone()),
            Target::Module(m) | Target::Type(m, _) => Some(m),
            _ => None,
        };
        if let Some(m) = m.filter(|m| room_of(m) == room_of(&self.module)) {
            self.out.extend(self.file_of(&m));
        }
        syn::visit::visit_path(self, p);
    }
}

/// File → the files of its room it imports, over `src/`.
fn file_graph() -> BTreeMap<String, BTreeSet<String>> {
    let files = source_files();
    let ix = source_index_of(&files);
    let by_module: BTreeMap<String, String> = files
        .iter()
        .map(|(rel, _)| (module_path(rel), rel.clone()))
        .collect();
    let mut g = BTreeMap::new();
    for (rel, text) in &files {
        let mut v = Paths {
            ix: &ix,
            module: module_path(rel),
            files: &by_module,
            out: BTreeSet::new(),
        };
        v.visit_file(&syn::parse_file(text).unwrap());
        v.out.remove(rel);
        // A module's files may use what their parent module defines (`super::Sets`): the
        // parent is their context, not a peer, so that edge is not drawn.
        v.out.retain(|to| {
            !to.strip_suffix("/mod.rs")
                .is_some_and(|folder| rel.starts_with(&format!("{folder}/")))
        });
        g.insert(rel.clone(), v.out);
    }
    g
}

/// The circles of `g`: its strongly connected parts of two files or more, each sorted.
fn circles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(n) = todo.pop() {
            for m in g.get(&n).into_iter().flatten() {
                if seen.insert(m.clone()) {
                    todo.push(m.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> = g.keys().map(|n| (n, reach(n))).collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    for (n, r) in &reaches {
        let part: Vec<String> = r
            .iter()
            .filter(|m| *m != *n && reaches.get(m).is_some_and(|b| b.contains(*n)))
            .cloned()
            .chain(std::iter::once((*n).clone()))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        if part.len() > 1 && !out.contains(&part) {
            out.push(part);
        }
    }
    out
}

#[test]
fn circles_are_found_between_files_that_import_each_other() {
    let g: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a", "e"]),
        ("e", vec!["d"]),
        ("f", vec![]),
    ]
    .into_iter()
    .map(|(n, to)| (n.to_string(), to.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(circles(&g), [vec!["a", "b", "c"], vec!["d", "e"]]);
}

/// The graph is read from today's code: the handler of `score` calls its plan, and the
/// pipeline's module reaches its files.
#[test]
fn the_file_graph_sees_calls_and_types_across_files() {
    let g = file_graph();
    assert!(
        g["src/cli/score.rs"].contains("src/cli/plan/score.rs"),
        "{:?}",
        g["src/cli/score.rs"]
    );
    assert!(g.values().map(BTreeSet::len).sum::<usize>() > 100);
}

#[test]
fn no_import_circle_inside_a_room() {
    let found = circles(&file_graph());
    assert!(
        found.is_empty(),
        "{} import circles between files of one room:\n{}",
        found.len(),
        found
            .iter()
            .map(|c| c.join(" ⇄ "))
            .collect::<Vec<_>>()
            .join("\n")
    );
}
