//! The call-graph walk behind tests/architecture.rs's trip check: each command's trip
//! in stage rooms (issue 46), in a module of its own (issue 56) with its test on a small
//! house.
//!
//! Each command's trip in stage rooms (issue 46: printed, not gated).
//!
//! A small static walk that follows one parameter, as a designer's "be the parameter" walk
//! does: start in a command's handler with its parameter `args` and follow every call that
//! passes on a name carrying it, depth-first in the order the code is written. Each
//! function entered is a step into its ROOM: the top-level module of `src/` it lives in
//! (`cli`, `report`, `pipeline` with its stages, ...; a file directly in `src/`, such as
//! `error.rs`, is its own room), or, for a call into a workspace crate (`ldd_io::...`), that LIBRARY (not
//! followed inside).
//!
//! - Carrying names: the parameter, and the names bound by `let` (any pattern), `for`,
//!   `if let`/`while let`, `match` arms and `x = ...` from an expression that mentions a
//!   carrying name; the parameters of a closure handed to a method of a carrying receiver.
//!   Scopes and shadowing are ignored (a name once carrying stays so in its function).
//! - Steps: a call `f(..)`, `path::f(..)`, `Type::f(..)` or `recv.m(..)` whose argument (or
//!   receiver) mentions a carrying name is one step into the callee, which is then walked
//!   with each parameter so passed (`self` for the receiver). Arguments are walked before
//!   the call; macro arguments (`format!`, `vec!`, ...) are read as expressions.
//! - Resolution: paths through `use` (renames, groups, globs, `pub use` re-exports),
//!   `crate`/`self`/`super`/`ldd_sets`, child modules, free fns, and `Type::f` among the
//!   impls of that type name (the one, or the one in the type's module). A method call
//!   `x.m()` is resolved by `x`'s type when the walk knows it (a typed parameter, `self`,
//!   `let x: T`, `let x = T::f(..)`, `T { .. }`); otherwise by the name: among the methods
//!   of that name and arity in rooms the caller's room may import (`ORDER`), the only one,
//!   or else the only one in the caller's module — never for the names of common std
//!   methods (`STD_METHODS`). Anything else (std, closures in variables, trait objects,
//!   ambiguous names) is not followed.
//! - Each (function, parameter) is walked once and each call site stepped through once;
//!   a later call to a function already walked is still a step into its room. The walk is
//!   bounded by that; `EVENTS` only guards against a runaway, and the test fails rather
//!   than cut a trip short.
//!
//! Counting. Only the GLUE's steps make the trip: steps into `cli` or the HUB (the
//! command's own stage, `HANDLERS`) and the steps they take out of them (doors). What a
//! stage then does inside (read → format → ldd_io) is its own business: those rooms are
//! listed as "beneath", not counted. The trip is the rooms the glue enters, in order,
//! consecutive repeats collapsed. ROOMS = its distinct rooms: cli, the hub and the other
//! stages (`printer` included). The SHARED rooms (the ranks of `ORDER` below `fetch`:
//! error, config, layout, format, view — the vocabulary every stage uses) and the
//! libraries the glue calls are listed beside the trip but neither counted nor on it: a
//! command touches `error` and `ldd_io` wherever it builds an error or a path, and that is
//! no stage of its data's journey. A RETURN is the trip coming back to a stage (not cli,
//! the hub or `printer`, the one sink every message goes through) that it had left:
//! `report → read → report → read` is one; going back to the hub between stages is the
//! normal pattern and is none.

use std::collections::{BTreeMap, BTreeSet};

use syn::visit::Visit;
use syn::visit_mut::VisitMut;

use super::{root, rust_files, unit, ORDER};

/// The most steps a walk takes (today's longest: under 500).
pub(crate) const EVENTS: usize = 2000;

/// Method names std gives to its own types: a call `x.m()` of one of them on a receiver of
/// unknown type is not taken for a crate method of the same name.
pub(crate) const STD_METHODS: [&str; 61] = [
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
pub(crate) enum Target {
    Fn(usize),
    Module(String),
    /// (module, type name)
    Type(String, String),
    Library(String),
    Unknown,
}

/// A function of the source: a free fn, an impl method or a trait's default method.
pub(crate) struct Func {
    /// `lib::report::inputs`, `bin::cli::plan`.
    pub(crate) module: String,
    pub(crate) file: String,
    /// The impl's type (or the trait) of a method.
    pub(crate) owner: Option<String>,
    pub(crate) name: String,
    /// The names each parameter binds (`self` for the receiver) and its type.
    pub(crate) params: Vec<(Vec<String>, Option<syn::Type>)>,
    pub(crate) body: syn::Block,
}

impl Func {
    pub(crate) fn label(&self) -> String {
        match &self.owner {
            Some(o) => format!("{o}::{} ({})", self.name, self.file),
            None => format!("{} ({})", self.name, self.file),
        }
    }
    pub(crate) fn has_receiver(&self) -> bool {
        self.params.first().is_some_and(|(n, _)| n == &["self"])
    }
}

/// What one module defines and imports.
#[derive(Default)]
pub(crate) struct Module {
    pub(crate) mods: BTreeSet<String>,
    pub(crate) fns: BTreeMap<String, usize>,
    pub(crate) types: BTreeSet<String>,
    pub(crate) uses: BTreeMap<String, Vec<String>>,
    pub(crate) globs: Vec<Vec<String>>,
}

/// Every function and module of the source, and the workspace's library names.
#[derive(Default)]
pub(crate) struct Index {
    pub(crate) modules: BTreeMap<String, Module>,
    pub(crate) funcs: Vec<Func>,
    pub(crate) methods: BTreeMap<String, Vec<usize>>,
    pub(crate) libraries: BTreeSet<String>,
}

/// The module path of a file of `src/`: `src/cli/**` is the binary's (`bin::`), the rest
/// the library's (`lib::`).
pub(crate) fn module_path(rel: &str) -> String {
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

pub(crate) fn parent(m: &str) -> String {
    m.rsplit_once("::").map_or(m, |(p, _)| p).to_string()
}

pub(crate) fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
    })
}

/// The names a pattern binds.
pub(crate) fn pat_names(p: &syn::Pat) -> Vec<String> {
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
pub(crate) fn type_name(t: &syn::Type) -> Option<String> {
    match t {
        syn::Type::Reference(r) => type_name(&r.elem),
        syn::Type::Paren(p) => type_name(&p.elem),
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

pub(crate) fn path_segs(p: &syn::Path) -> Vec<String> {
    p.segments.iter().map(|s| s.ident.to_string()).collect()
}

/// Macro arguments read as expressions (`format!("{}", f(a))` → `["{}", f(a)]`), so the
/// walk sees the calls inside them.
pub(crate) struct ExpandMacros;
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
    pub(crate) fn build(files: &[(String, String)], libraries: &[String]) -> Index {
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

    pub(crate) fn items(&mut self, m: &str, file: &str, items: &[syn::Item]) {
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

    pub(crate) fn module(&mut self, m: &str) -> &mut Module {
        self.modules.entry(m.to_string()).or_default()
    }

    pub(crate) fn add(
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
    pub(crate) fn resolve(&self, m: &str, segs: &[String], value: bool, depth: usize) -> Target {
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
    pub(crate) fn lookup(&self, m: &str, name: &str, value: bool, depth: usize) -> Target {
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
    pub(crate) fn named(&self, name: &str) -> impl Iterator<Item = usize> + '_ {
        self.methods.get(name).into_iter().flatten().copied()
    }

    /// The method `name` of type `t` (defined in `tm`): the one impl of that name, or the
    /// one in `tm`.
    pub(crate) fn method_of(&self, tm: &str, t: &str, name: &str) -> Target {
        let of: Vec<usize> = self
            .named(name)
            .filter(|&f| self.funcs[f].owner.as_deref() == Some(t))
            .collect();
        one_or_in(&of, |f| self.funcs[f].module == tm)
    }

    /// `recv.name()` with `recv` of unknown type, called from module `m`: among the
    /// methods of that name taking `args` arguments in rooms `m`'s room may import (`ORDER`).
    pub(crate) fn method_by_name(&self, m: &str, name: &str, args: usize) -> Target {
        if STD_METHODS.contains(&name) {
            return Target::Unknown;
        }
        let rank = |r: &str| ORDER.iter().position(|o| *o == r);
        let caller = rank(&unit_of(m));
        let of: Vec<usize> = self
            .named(name)
            .filter(|&f| self.funcs[f].has_receiver() && self.funcs[f].params.len() == args + 1)
            .filter(|&f| match (caller, rank(&unit_of(&self.funcs[f].module))) {
                (Some(c), Some(r)) => r <= c,
                _ => true,
            })
            .collect();
        one_or_in(&of, |f| self.funcs[f].module == m)
    }

    /// The type a `Type` names from module `m` (`Self` is `owner`).
    pub(crate) fn type_target(
        &self,
        m: &str,
        owner: Option<&str>,
        t: &syn::Type,
    ) -> Option<Target> {
        match t {
            syn::Type::Reference(r) => self.type_target(m, owner, &r.elem),
            syn::Type::Paren(p) => self.type_target(m, owner, &p.elem),
            syn::Type::Path(p) => self.path_type(m, owner, &path_segs(&p.path)),
            _ => None,
        }
    }

    pub(crate) fn path_type(
        &self,
        m: &str,
        owner: Option<&str>,
        segs: &[String],
    ) -> Option<Target> {
        if segs == ["Self"] {
            return owner.map(|o| Target::Type(m.to_string(), o.to_string()));
        }
        match self.resolve(m, segs, false, 0) {
            t @ (Target::Type(..) | Target::Library(_)) => Some(t),
            _ => None,
        }
    }

    /// The room of function `f`.
    pub(crate) fn room(&self, f: usize) -> String {
        room_of(&self.funcs[f].module)
    }
}

/// The only candidate, or the only one that `prefer` picks; else none.
pub(crate) fn one_or_in(of: &[usize], prefer: impl Fn(usize) -> bool) -> Target {
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
pub(crate) fn flatten_use(
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

/// The unit of `ORDER` a module belongs to: its room, but a stage of the pipeline is a
/// unit of its own (`lib::pipeline::read::shard` → `pipeline/read`), as [`unit`] says.
pub(crate) fn unit_of(module: &str) -> String {
    unit(&room_of(module), module.split("::").nth(2))
}

/// The room of a module: the top-level module of `src/` (`lib::report::html` → `report`,
/// `lib::pipeline::read` → `pipeline`; the binary's `cli`); the crate roots are `lib` and
/// `main`.
pub(crate) fn room_of(module: &str) -> String {
    let mut segs = module.split("::");
    let krate = segs.next().unwrap_or_default();
    match segs.next() {
        Some(r) => r.to_string(),
        None if krate == "bin" => "main".to_string(),
        None => krate.to_string(),
    }
}

/// One step of a walk: a room entered.
pub(crate) struct Step {
    pub(crate) room: String,
    /// The function that passed the parameter on (`None`: the handler itself).
    pub(crate) from: Option<usize>,
    /// The function entered (`None`: a library).
    pub(crate) to: Option<usize>,
    /// In `cli` or the hub, or entered from there (a door); else beneath a door.
    pub(crate) glue: bool,
}

/// A walk of one parameter.
pub(crate) struct Walk<'a> {
    pub(crate) ix: &'a Index,
    pub(crate) hub: String,
    pub(crate) steps: Vec<Step>,
    pub(crate) walked: BTreeSet<(usize, usize)>,
    /// The call sites already stepped through (a function walked for a second parameter
    /// does not step again where it stepped for the first).
    pub(crate) sites: BTreeSet<usize>,
}

impl<'a> Walk<'a> {
    pub(crate) fn home(&self, room: &str) -> bool {
        room == "cli" || room == self.hub
    }

    /// A step into `room` from function `from`.
    pub(crate) fn step(&mut self, room: String, from: Option<usize>, to: Option<usize>) {
        let glue = self.home(&room) || from.is_none_or(|f| self.home(&self.ix.room(f)));
        self.steps.push(Step {
            room,
            from,
            to,
            glue,
        });
    }

    /// Walks `f`'s body carrying its parameter `param` (once for each pair).
    pub(crate) fn walk(&mut self, f: usize, param: usize) {
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
pub(crate) struct Body<'w, 'a> {
    pub(crate) walk: &'w mut Walk<'a>,
    pub(crate) func: usize,
    pub(crate) carriers: BTreeSet<String>,
    pub(crate) types: BTreeMap<String, Target>,
}

impl<'a> Body<'_, 'a> {
    pub(crate) fn mentions(&self, e: &syn::Expr) -> bool {
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

    pub(crate) fn bind(&mut self, p: &syn::Pat) {
        self.carriers.extend(pat_names(p));
    }

    pub(crate) fn func(&self) -> &'a Func {
        &self.walk.ix.funcs[self.func]
    }

    /// The type of a `let`'s value: `T::f(..)`, `T::f(..)?`, `T { .. }`.
    pub(crate) fn value_type(&self, e: &syn::Expr) -> Option<Target> {
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
    pub(crate) fn call(
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
pub(crate) struct Trip {
    /// The glue's rooms in order, consecutive repeats collapsed, with the step of each.
    pub(crate) rooms: Vec<(String, usize)>,
    /// Its distinct rooms: `cli`, the hub and stages (counted).
    pub(crate) distinct: Vec<String>,
    /// The shared rooms and libraries the glue uses (listed, not counted).
    pub(crate) uses: Vec<String>,
    /// Rooms entered only beneath a door (a stage's own business, not counted).
    pub(crate) beneath: Vec<String>,
    /// (room, the step that came back to it)
    pub(crate) returns: Vec<(String, usize)>,
    pub(crate) steps: Vec<Step>,
}

/// Rooms every stage uses: the ranks of `ORDER` below `fetch`.
pub(crate) fn shared(room: &str) -> bool {
    let fetch = ORDER.iter().position(|o| *o == "fetch").unwrap();
    ORDER[..fetch].contains(&room)
}

pub(crate) fn trip(ix: &Index, handler: usize, hub: &str) -> Trip {
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
    pub(crate) fn line(&self, ix: &Index) -> String {
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
    pub(crate) fn door(&self, ix: &Index, i: usize) -> String {
        let s = &self.steps[i];
        let from = s.from.map_or("-".to_string(), |f| ix.funcs[f].label());
        let to = s.to.map_or(s.room.clone(), |f| ix.funcs[f].label());
        format!("{from} → {to}")
    }
}

/// The index of today's source: every `src/**/*.rs`, and the workspace crates' names.
pub(crate) fn source_index() -> Index {
    source_index_of(&source_files())
}

/// Every `src/**/*.rs`: (path from the root, text).
pub(crate) fn source_files() -> Vec<(String, String)> {
    rust_files(&root().join("src"))
        .iter()
        .map(|p| {
            let rel = p
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, std::fs::read_to_string(p).unwrap())
        })
        .collect()
}

/// The index of `files` (as `source_files` gives them), with the workspace crates' names.
pub(crate) fn source_index_of(files: &[(String, String)]) -> Index {
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
    Index::build(files, &libraries)
}

/// The walk on a small hand-checked house: a parameter passed on through a `use` rename,
/// a let-binding, an associated function and a method of a typed value, a `for` binding
/// and a library; a call that does not carry it is not followed; a return to `pipeline`
/// (whose stages, such as `read`, are one room).
#[test]
fn the_walk_follows_one_parameter_through_a_small_house() {
    let files = [
        (
            "src/cli/x.rs",
            "use ldd_sets::pipeline::read::load as fetch_sets;\n\
             use ldd_sets::judge;\n\
             pub fn go(a: Args) -> Result<()> {\n\
                 let sets = fetch_sets(&a.dir)?;\n\
                 ldd_io::note(&sets);\n\
                 let n = count(3);\n\
                 let out = judge::Builder::new(&sets);\n\
                 out.run(&a, n);\n\
                 println!(\"{}\", ldd_sets::pipeline::read::again(&a.more));\n\
                 Ok(())\n\
             }\n\
             fn count(n: usize) -> usize { ldd_sets::pipeline::read::never(n) }\n",
        ),
        (
            "src/pipeline/read/mod.rs",
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
    assert_eq!(rooms, ["cli", "pipeline", "judge", "score", "pipeline"]);
    assert_eq!(t.distinct, ["cli", "pipeline", "judge", "score"]);
    assert_eq!(t.uses, ["ldd_io"]);
    assert_eq!(t.beneath, ["format"]);
    let returns: Vec<&str> = t.returns.iter().map(|(r, _)| r.as_str()).collect();
    assert_eq!(returns, ["pipeline"]);
    assert_eq!(
        t.line(&ix),
        "cli → pipeline → judge → score → pipeline (4 rooms: cli, hub and 2 stages; 1 returns: \
         pipeline) \
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
        "go (src/cli/x.rs) → again (src/pipeline/read/mod.rs)"
    );
}
