//! No function longer than a screenful of thought (issue 56): every non-test function of
//! `src/` and `crates/*/src` is at most `MAX_LINES` lines, from its `fn` line to its closing
//! brace, outside a short allow-list of numeric kernels.

use super::{root, rust_files};

/// The most lines a function may have.
const MAX_LINES: usize = 80;

/// Functions that may stay whole: (file, function, why).
const ALLOWED: [(&str, &str, &str); 1] = [(
    "crates/align/src/hmm.rs",
    "forward_backward",
    // One numeric kernel: the scaled forward and backward passes and the posteriors share
    // their buffers and indices; cut up, they read worse (eflomal keeps its sampler whole).
    "the HMM's forward-backward kernel",
)];

/// `text` with comments, strings and character literals blanked (newlines kept), so that
/// braces can be counted.
fn blank_code(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let keep = |ch: char| if ch == '\n' { '\n' } else { ' ' };
    let at = |j: usize| c.get(j).copied().unwrap_or('\0');
    while i < c.len() {
        let start = i;
        if c[i] == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && at(i + 1) == '*' {
            i += 2;
            while i < c.len() && !(c[i] == '*' && at(i + 1) == '/') {
                i += 1;
            }
            i = (i + 2).min(c.len());
        } else if c[i] == 'r'
            && (at(i + 1) == '"' || (at(i + 1) == '#' && at(i + 2) == '"'))
            && !c
                .get(i.wrapping_sub(1))
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            let hashes = if at(i + 1) == '#' { 1 } else { 0 };
            i += 2 + hashes;
            while i < c.len() && !(c[i] == '"' && (hashes == 0 || at(i + 1) == '#')) {
                i += 1;
            }
            i = (i + 1 + hashes).min(c.len());
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i = (i + 1).min(c.len());
        } else if c[i] == '\'' && (at(i + 1) == '\\' || at(i + 2) == '\'') {
            i += 1;
            while i < c.len() && c[i] != '\'' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i = (i + 1).min(c.len());
        } else {
            out.push(c[i]);
            i += 1;
            continue;
        }
        out.extend(c[start..i.min(c.len())].iter().map(|&ch| keep(ch)));
    }
    out
}

/// The name of the function a line of blanked code starts, if it starts one.
fn fn_name(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    if let Some(r) = rest.strip_prefix("pub") {
        rest = r.trim_start();
        if rest.starts_with('(') {
            rest = rest[rest.find(')')? + 1..].trim_start();
        }
    }
    for q in ["const ", "async ", "unsafe ", "extern "] {
        rest = rest.strip_prefix(q).unwrap_or(rest).trim_start();
    }
    let name = rest.strip_prefix("fn ")?.trim_start();
    let end = name
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(name.len());
    Some(&name[..end]).filter(|n| !n.is_empty())
}

/// The line of the brace that closes the body of the function starting at line `i`, or
/// `None` for a declaration without a body (`fn f(&self);`).
fn body_end(lines: &[&str], i: usize) -> Option<usize> {
    let (mut depth, mut square, mut started) = (0i64, 0i64, false);
    for (j, l) in lines.iter().enumerate().skip(i) {
        for ch in l.chars() {
            match ch {
                '[' => square += 1,
                ']' => square -= 1,
                ';' if !started && square == 0 => return None,
                '{' => (depth, started) = (depth + 1, true),
                '}' => {
                    depth -= 1;
                    if started && depth == 0 {
                        return Some(j);
                    }
                }
                _ => {}
            }
        }
    }
    None
}

/// (name, lines) of each function with a body in `text`, up to its `#[cfg(test)]` part; a
/// function inside another counts in the outer one.
fn functions(text: &str) -> Vec<(String, usize)> {
    let code = blank_code(text);
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let Some(name) = fn_name(lines[i]) else {
            i += 1;
            continue;
        };
        match body_end(&lines, i) {
            Some(e) => {
                out.push((name.to_string(), e - i + 1));
                i = e + 1;
            }
            None => i += 1,
        }
    }
    out
}

#[test]
fn functions_are_measured_from_fn_to_closing_brace() {
    let text = "pub(crate) fn a(x: &str) -> usize {\n    let s = \"}{\";\n    // }\n    \
                let c = '{';\n    x.len() + s.len()\n}\n\nfn b<'a>(x: &'a str) {\n    \
                if true {\n        g(x);\n    }\n}\n\ntrait T {\n    fn c(&self);\n}\n\
                #[cfg(test)]\nmod tests {\n    fn d() {}\n}\n";
    assert_eq!(
        functions(text),
        [("a".to_string(), 6), ("b".to_string(), 5)],
        "{}",
        blank_code(text)
    );
}

/// Every non-test function over `MAX_LINES` lines in the workspace's sources, longest
/// first, as `lines file fn`.
fn long_functions() -> Vec<String> {
    let mut dirs = vec![root().join("src")];
    for e in std::fs::read_dir(root().join("crates")).unwrap() {
        dirs.push(e.unwrap().path().join("src"));
    }
    let mut long = Vec::new();
    for f in dirs.iter().flat_map(|d| rust_files(d)) {
        let rel = f
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .to_string();
        for (name, n) in functions(&std::fs::read_to_string(&f).unwrap()) {
            if n > MAX_LINES && !ALLOWED.iter().any(|(p, f, _)| *p == rel && *f == name) {
                long.push((n, rel.clone(), name));
            }
        }
    }
    long.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    long.iter()
        .map(|(n, p, f)| format!("{n} {p} {f}"))
        .collect()
}

/// The allow-list names functions that exist and are long (no stale entry).
#[test]
fn the_long_function_allow_list_names_long_functions() {
    for (file, name, _) in ALLOWED {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        let n = functions(&text).into_iter().find(|(f, _)| f == name);
        assert!(
            n.as_ref().is_some_and(|(_, n)| *n > MAX_LINES),
            "{file}: {name}: {n:?}"
        );
    }
}

#[test]
fn no_function_over_80_lines() {
    let long = long_functions();
    assert!(
        long.is_empty(),
        "{} functions over {MAX_LINES} lines (lines, file, function):\n{}",
        long.len(),
        long.join("\n")
    );
}
