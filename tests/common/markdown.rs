//! The README and the pages of `docs/` as a reader meets them: the pages, their fenced
//! code blocks, and the commands those blocks show.

use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A file's text (panics naming the file).
pub fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// README.md and every page of docs/, the pages sorted by name.
pub fn pages() -> Vec<PathBuf> {
    let mut v = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    v.extend(docs);
    v
}

/// README.md, then the pages of docs/ in the order of the README's table of pages (its
/// "Documentation" section: the order a reader takes), then any page it does not list, by
/// name.
pub fn reading_order() -> Vec<PathBuf> {
    let text = read(&root().join("README.md"));
    let readme = text
        .split_once("## Documentation")
        .map_or(text.as_str(), |(_, t)| t);
    let mut all = pages();
    let first = all.remove(0);
    let at = |p: &PathBuf| {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        readme.find(&format!("(docs/{name})")).unwrap_or(usize::MAX)
    };
    all.sort_by_key(|p| (at(p), p.clone()));
    let mut v = vec![first];
    v.extend(all);
    v
}

/// Lines outside fenced code blocks, and the fenced blocks' lines with their language.
pub fn split(text: &str) -> (Vec<&str>, Vec<(String, &str)>) {
    let (mut prose, mut code) = (Vec::new(), Vec::new());
    let mut fence: Option<String> = None;
    for l in text.lines() {
        if let Some(rest) = l.strip_prefix("```") {
            fence = match fence {
                None => Some(rest.trim().to_string()),
                Some(_) => None,
            };
        } else if let Some(lang) = &fence {
            code.push((lang.clone(), l));
        } else {
            prose.push(l);
        }
    }
    (prose, code)
}

/// The commands a page shows: every line of its `sh` blocks and the `$ ` lines of its
/// other blocks (a block of output is marked `text`, or nothing), continuation lines
/// joined, comments dropped, split at `&&`, `;` and `|`.
pub fn commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for (lang, l) in split(text).1 {
        let l = match l.strip_prefix("$ ") {
            Some(c) => c,
            None if lang == "sh" => l,
            None => continue,
        };
        let l = match l.find(" #") {
            Some(i) => &l[..i],
            None if l.trim_start().starts_with('#') => "",
            None => l,
        };
        match l.trim_end().strip_suffix('\\') {
            Some(part) => cur.push_str(part),
            None => {
                cur.push_str(l);
                for c in cur
                    .split("&&")
                    .flat_map(|c| c.split(';'))
                    .flat_map(|c| c.split('|'))
                {
                    if !c.trim().is_empty() {
                        out.push(c.trim().to_string());
                    }
                }
                cur.clear();
            }
        }
    }
    out
}
