//! Full names (issue 56): no public function of `src/` or `crates/*/src` takes a
//! one-letter parameter, and no public field has a one-letter name, so that a reader of a
//! signature knows what it takes without looking up its type. Read with `syn`, as the
//! walk reads the code ([`is_cfg_test`], [`pat_names`], [`type_name`]).

use super::walk::{is_cfg_test, pat_names, type_name};
use super::{root, rust_files};

/// Whether an item is visible outside its module: `pub`, `pub(crate)`, `pub(super)`.
fn is_public(visibility: &syn::Visibility) -> bool {
    !matches!(visibility, syn::Visibility::Inherited)
}

/// A name of one lower-case letter (`_` and `_x` are allowed: unused).
fn one_letter(name: &str) -> bool {
    name.len() == 1 && name.chars().all(|c| c.is_ascii_lowercase())
}

/// `function(parameter)` for each one-letter parameter of a public function `sig`.
fn short_parameters(owner: &str, sig: &syn::Signature, out: &mut Vec<String>) {
    for input in &sig.inputs {
        if let syn::FnArg::Typed(typed) = input {
            for name in pat_names(&typed.pat).into_iter().filter(|n| one_letter(n)) {
                out.push(format!("{owner}{}({name})", sig.ident));
            }
        }
    }
}

/// The one-letter names of `items` and the modules inside them, but `#[cfg(test)]` ones:
/// `function(parameter)`, `Type::method(parameter)` and `pub field Type.field`.
fn short_names(items: &[syn::Item], out: &mut Vec<String>) {
    for item in items {
        match item {
            syn::Item::Fn(f) if is_public(&f.vis) && !is_cfg_test(&f.attrs) => {
                short_parameters("", &f.sig, out);
            }
            syn::Item::Impl(block) if block.trait_.is_none() && !is_cfg_test(&block.attrs) => {
                let owner = format!("{}::", type_name(&block.self_ty).unwrap_or_default());
                for inner in &block.items {
                    if let syn::ImplItem::Fn(f) = inner {
                        if is_public(&f.vis) {
                            short_parameters(&owner, &f.sig, out);
                        }
                    }
                }
            }
            syn::Item::Struct(s) => {
                for field in s.fields.iter().filter(|f| is_public(&f.vis)) {
                    let name = field.ident.as_ref().map(ToString::to_string);
                    if let Some(name) = name.filter(|n| one_letter(n)) {
                        out.push(format!("pub field {}.{name}", s.ident));
                    }
                }
            }
            syn::Item::Mod(m) if !is_cfg_test(&m.attrs) => {
                if let Some((_, inner)) = &m.content {
                    short_names(inner, out);
                }
            }
            _ => {}
        }
    }
}

/// The one-letter names of a file's text ([`short_names`]).
fn short_names_of(text: &str) -> Vec<String> {
    let file = syn::parse_file(text).expect("Rust source");
    let mut out = Vec::new();
    short_names(&file.items, &mut out);
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
                pub fn e(&mut self, mut n: u8) {}\n    fn g(&self, y: u8) {}\n}\n\
                impl std::fmt::Display for P {\n    \
                fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result { Ok(()) }\n}\n\
                #[cfg(test)]\nmod tests {\n    pub fn z(q: u8) {}\n}\n";
    assert_eq!(
        short_names_of(text),
        ["a(s)", "b(f)", "pub field P.d", "P::c(x)", "P::e(n)"]
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
        for name in short_names_of(&std::fs::read_to_string(&f).unwrap()) {
            short.push(format!("{rel}: {name}"));
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
