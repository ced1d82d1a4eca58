//! Full names (issue 56): no public function of `src/` or `crates/*/src` takes a
//! one-letter parameter, and no public field has a one-letter name, so that a reader of a
//! signature knows what it takes without looking up its type.

use super::long_functions::{blank_code, fn_name};
use super::{root, rust_files};

/// The parameter names of the function whose `fn` line starts `code` (blanked code: no
/// comments or strings): from the `(` after its name and generics to the matching `)`;
/// `self` left out.
fn parameters(code: &str) -> Vec<String> {
    let Some(start) = code.find("fn ") else {
        return Vec::new();
    };
    let mut chars = code[start..].chars().peekable();
    let (mut angle, mut depth, mut last) = (0i32, 0i32, ' ');
    // Past the name and the generics: the first `(` outside `<...>`.
    for ch in chars.by_ref() {
        match ch {
            '<' => angle += 1,
            '>' if last != '-' => angle -= 1,
            '(' if angle == 0 => break,
            _ => {}
        }
        last = ch;
    }
    let mut params = Vec::new();
    let mut current = String::new();
    for ch in chars {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' if depth == 0 => break,
            ')' | ']' => depth -= 1,
            '<' => angle += 1,
            '>' if last != '-' => angle -= 1,
            ',' if depth == 0 && angle == 0 => {
                params.push(std::mem::take(&mut current));
                last = ch;
                continue;
            }
            _ => {}
        }
        current.push(ch);
        last = ch;
    }
    params.push(current);
    params
        .iter()
        .filter_map(|p| {
            let name = p.trim().split(':').next()?.trim();
            let name = name.strip_prefix("mut ").unwrap_or(name).trim();
            (!name.is_empty() && !name.ends_with("self")).then(|| name.to_string())
        })
        .collect()
}

/// Whether a (blanked) `fn` line is public: `pub`, `pub(crate)`, `pub(super)`.
fn is_public(line: &str) -> bool {
    line.trim_start().starts_with("pub")
}

/// A name of one lower-case letter (`_` and `_x` are allowed: unused).
fn one_letter(name: &str) -> bool {
    name.len() == 1 && name.chars().all(|c| c.is_ascii_lowercase())
}

/// `(line, function, parameter)` of every public function in `text` with a one-letter
/// parameter, and `(line, "field", name)` of every public one-letter field, up to the
/// file's `#[cfg(test)]` part.
fn short_names(text: &str) -> Vec<(usize, String, String)> {
    let code = blank_code(text);
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        if let Some(name) = fn_name(line).filter(|_| is_public(line)) {
            let signature = lines[i..lines.len().min(i + 30)].join("\n");
            for p in parameters(&signature).into_iter().filter(|p| one_letter(p)) {
                out.push((i + 1, name.to_string(), p));
            }
            continue;
        }
        let field = line
            .trim_start()
            .strip_prefix("pub")
            .map(|rest| match rest.strip_prefix('(') {
                Some(scoped) => scoped.split_once(')').map_or("", |(_, r)| r),
                None => rest,
            })
            .filter(|rest| rest.starts_with(' '))
            .map(str::trim_start);
        if let Some((name, _)) = field.and_then(|f| f.split_once(':')) {
            if one_letter(name.trim()) && !name.contains(' ') {
                out.push((i + 1, "pub field".to_string(), name.trim().to_string()));
            }
        }
    }
    out
}

#[test]
fn short_names_finds_one_letter_parameters_and_fields() {
    let text = "pub fn a(s: &str, count: usize) -> usize {\n    s.len()\n}\n\
                pub(crate) fn b<'a, T: Into<Vec<u8>>, F: Fn(u8) -> u8>(\n    value: &'a str,\n    \
                f: impl Fn(&str) -> bool,\n    _x: T,\n) {}\n\
                fn private(x: u8) {}\n\
                pub struct P {\n    pub d: f64,\n    pub count: u32,\n    e: u8,\n}\n\
                impl P {\n    pub fn c(&self, (x, name): (u8, u8)) {}\n    \
                pub fn e(&mut self, mut n: u8) {}\n}\n\
                #[cfg(test)]\nmod tests {\n    pub fn z(q: u8) {}\n}\n";
    let found: Vec<String> = short_names(text)
        .into_iter()
        .map(|(l, f, p)| format!("{l} {f} {p}"))
        .collect();
    assert_eq!(
        found,
        ["1 a s", "4 b f", "11 pub field d", "17 e n"],
        "{}",
        blank_code(text)
    );
}

#[test]
fn no_public_function_takes_a_one_letter_parameter() {
    let mut dirs = vec![root().join("src")];
    for e in std::fs::read_dir(root().join("crates")).unwrap() {
        dirs.push(e.unwrap().path().join("src"));
    }
    let mut short = Vec::new();
    for f in dirs.iter().flat_map(|d| rust_files(d)) {
        let rel = f.strip_prefix(root()).unwrap().display().to_string();
        for (line, function, name) in short_names(&std::fs::read_to_string(&f).unwrap()) {
            short.push(format!("{rel}:{line} {function}({name})"));
        }
    }
    assert!(
        short.is_empty(),
        "{} one-letter names in public functions' parameters and public fields; name \
         them after what they hold:\n{}",
        short.len(),
        short.join("\n")
    );
}
