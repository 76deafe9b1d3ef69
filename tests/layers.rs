//! The runtime's house, held by its own imports (ARCHITECTURE.md at the repository root).
//!
//! Reads every `src/**/*.rs` of the runtime, finds each `crate::`, `super::` and `self::` path
//! (in `use` trees and in expressions), resolves it to the file that defines it, and fails on:
//! - an import from a folder (a "room") to one at the same or a higher floor of [`FLOORS`];
//! - an import of `lib.rs` (the facade) from inside the crate;
//! - any file circle (two or more files that import each other, however indirectly), here and in
//!   every other crate of the workspace.
//!
//! Nothing is run: this reads text. `LAYERS_REPORT=1 cargo test --test layers -- --nocapture`
//! prints the house in figures (rooms, floors, arrows, circles) for the note.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The runtime's rooms (a top-level folder or file of `src/`), lowest floor first. A room may
/// import only rooms listed before it; the order is the call read backwards: the ground, then
/// parsing, the guards, the services a handler may call, the profiles, the end of a call,
/// rendering, the handler's side, the handlers (built-ins and resource verbs), the pre-handler
/// checks, routing, the transports.
const FLOORS: &[&str] = &[
    // The ground: leaves every layer may use.
    "codes",
    "time",
    "xdg",
    "stable",
    "retry",
    "error",
    "warning",
    "effect",
    "stdio",
    "built",
    "derive",
    // The registry's text faces, re-exported from pas-spec.
    "faces",
    // An author's tool, not part of a call: a clap tree as a spec draft (`pas::import`).
    "import",
    // What argv, the environment and files say, as plain data.
    "parse",
    // What a handler answers, before any contract shapes it.
    "reply",
    // Checks and rewrites a tool may declare (redaction, limits, schemas).
    "guards",
    // What a handler may call: store, sessions, jobs, children, idempotency, lock, net.
    "services",
    // The contracts: how a reply and an error look to an agent.
    "profile",
    // The end of a call: its state, output, signals, panics, audit.
    "end",
    // A reply driven through a profile onto stdout.
    "render",
    // What a handler sees: Context, Args, progress.
    "handler",
    // Handlers like the user's: the built-in words and the resource verbs.
    "resources",
    "builtins",
    // The pre-handler checks and the one pipeline both transports run.
    "run",
    // argv (or an MCP call) to a command.
    "route",
    // The two ways in: the CLI's argv and MCP.
    "transport",
];

/// A Rust file of a crate: its module path and what it imports.
struct File {
    /// `["parse", "argv"]` for `src/parse/argv.rs`; `[]` for `lib.rs`.
    module: Vec<String>,
    /// The files this one names, by their index in the crate's list.
    imports: BTreeSet<usize>,
}

/// One crate's source folder, read.
struct Crate {
    root: PathBuf,
    files: Vec<File>,
    paths: Vec<PathBuf>,
}

impl Crate {
    fn read(root: &Path) -> Crate {
        let mut paths = Vec::new();
        collect_rs(root, &mut paths);
        paths.sort();
        let modules: Vec<Vec<String>> = paths.iter().map(|p| module_of(root, p)).collect();
        let index: BTreeMap<Vec<String>, usize> = modules
            .iter()
            .cloned()
            .enumerate()
            .map(|(i, m)| (m, i))
            .collect();
        let files = paths
            .iter()
            .zip(&modules)
            .enumerate()
            .map(|(me, (path, module))| {
                let text = std::fs::read_to_string(path).unwrap();
                let mut imports = BTreeSet::new();
                for target in named_modules(&strip(&text), module) {
                    // The longest prefix of the path that is a file: the rest are items.
                    let found = (0..=target.len())
                        .rev()
                        .find_map(|n| index.get(&target[..n]));
                    if let Some(&file) = found
                        && file != me
                    {
                        imports.insert(file);
                    }
                }
                File {
                    module: module.clone(),
                    imports,
                }
            })
            .collect();
        Crate {
            root: root.to_path_buf(),
            files,
            paths,
        }
    }

    fn name(&self, file: usize) -> String {
        self.paths[file]
            .strip_prefix(&self.root)
            .unwrap()
            .display()
            .to_string()
    }

    /// Every set of two or more files that reach each other by their imports. The crates are
    /// small (a few hundred files), so reachability from each file is plain enough.
    fn circles(&self) -> Vec<Vec<String>> {
        let n = self.files.len();
        let reach: Vec<Vec<bool>> = (0..n)
            .map(|start| {
                let mut seen = vec![false; n];
                let mut todo = vec![start];
                while let Some(v) = todo.pop() {
                    for &w in &self.files[v].imports {
                        if !seen[w] {
                            seen[w] = true;
                            todo.push(w);
                        }
                    }
                }
                seen
            })
            .collect();
        let mut placed = vec![false; n];
        let mut found = Vec::new();
        for v in 0..n {
            if placed[v] || !reach[v][v] {
                continue;
            }
            let members: Vec<usize> = (0..n).filter(|&w| reach[v][w] && reach[w][v]).collect();
            for &w in &members {
                placed[w] = true;
            }
            if members.len() > 1 {
                found.push(members.iter().map(|&w| self.name(w)).collect());
            }
        }
        found
    }
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_rs(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_mod_rs(path: &Path) -> bool {
    matches!(
        path.file_name().and_then(|n| n.to_str()),
        Some("mod.rs" | "lib.rs" | "main.rs")
    )
}

fn module_of(root: &Path, path: &Path) -> Vec<String> {
    let rel = path.strip_prefix(root).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if is_mod_rs(path) {
        parts.pop();
    }
    parts
}

/// The text with comments, strings and character literals blanked, so that neither a doc
/// comment nor a string that mentions `crate::x` counts as an import.
fn strip(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if let Some(hashes) = raw_string_start(rest, i == 0 || !is_ident(b[i - 1])) {
            // r"..." or r#"..."#: ends at a quote followed by as many hashes.
            i += 2 + hashes;
            let end: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            while i < b.len() && !b[i..].starts_with(&end) {
                i += 1;
            }
            i += end.len();
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' {
            // A character literal ('x', '\n', 'é') or a lifetime ('a).
            if rest.get(1) == Some(&b'\\') {
                i += 2;
                while i < b.len() && b[i] != b'\'' {
                    i += 1;
                }
                i += 1;
                out.push_str("' '");
            } else if let Some(c) = text[i + 1..].chars().next()
                && text[i + 1 + c.len_utf8()..].starts_with('\'')
            {
                i += 2 + c.len_utf8();
                out.push_str("' '");
            } else {
                out.push('\'');
                i += 1;
            }
        } else {
            let c = text[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

fn raw_string_start(rest: &[u8], at_token_start: bool) -> Option<usize> {
    let after_r = match rest {
        [b'r', tail @ ..] if at_token_start => tail,
        [b'b', b'r', tail @ ..] if at_token_start => tail,
        _ => return None,
    };
    let hashes = after_r.iter().take_while(|&&c| c == b'#').count();
    let prefix = if rest[0] == b'b' { 1 } else { 0 };
    (after_r.get(hashes) == Some(&b'"')).then_some(hashes + prefix)
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

#[derive(Debug, PartialEq, Clone)]
enum Token {
    Ident(String),
    Path,
    Open,
    Close,
    Comma,
    Semi,
    Other,
}

fn tokens(text: &str) -> Vec<Token> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if is_ident(c) {
            let start = i;
            while i < b.len() && is_ident(b[i]) {
                i += 1;
            }
            out.push(Token::Ident(text[start..i].to_string()));
            continue;
        }
        if b[i..].starts_with(b"::") {
            out.push(Token::Path);
            i += 2;
            continue;
        }
        match c {
            b'{' => out.push(Token::Open),
            b'}' => out.push(Token::Close),
            b',' => out.push(Token::Comma),
            b';' => out.push(Token::Semi),
            b' ' | b'\n' | b'\t' | b'\r' => {}
            b'$' => {}
            _ => out.push(Token::Other),
        }
        i += 1;
    }
    out
}

/// Every module path the file names from the crate's root: `use` trees expanded, expression
/// paths (`crate::x::f()`) as they stand, `super::` and `self::` resolved from the inline module
/// the path sits in (`mod tests { use super::*; }` names the file itself).
fn named_modules(text: &str, module: &[String]) -> Vec<Vec<String>> {
    let toks = tokens(text);
    let mut found = Vec::new();
    // The inline modules open at each point: (name, brace depth at which it closes).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let here = |inline: &[(String, usize)]| -> Vec<String> {
        module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(n, _)| n.clone()))
            .collect()
    };
    let mut i = 0;
    while i < toks.len() {
        match &toks[i] {
            Token::Open => depth += 1,
            Token::Close => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            Token::Ident(word) if word == "mod" => {
                if let (Some(Token::Ident(name)), Some(Token::Open)) =
                    (toks.get(i + 1), toks.get(i + 2))
                {
                    inline.push((name.clone(), depth + 1));
                }
            }
            Token::Ident(word) if word == "use" => {
                let base = here(&inline);
                let mut j = i + 1;
                let mut prefixes = Vec::new();
                use_tree(&toks, &mut j, Vec::new(), &mut prefixes);
                for path in prefixes {
                    if let Some(resolved) = resolve(&base, &path) {
                        found.push(resolved);
                    }
                }
                i = j;
                continue;
            }
            Token::Ident(word)
                if toks.get(i + 1) == Some(&Token::Path)
                    && !matches!(i.checked_sub(1).map(|k| &toks[k]), Some(Token::Path)) =>
            {
                let mut path = vec![word.clone()];
                let mut j = i + 1;
                while toks.get(j) == Some(&Token::Path) {
                    match toks.get(j + 1) {
                        Some(Token::Ident(seg)) => {
                            path.push(seg.clone());
                            j += 2;
                        }
                        _ => break,
                    }
                }
                if let Some(resolved) = resolve(&here(&inline), &path) {
                    found.push(resolved);
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// Reads one `use` tree from `toks[*j]`, pushing each whole path (prefix included).
fn use_tree(toks: &[Token], j: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut path = prefix;
    loop {
        match toks.get(*j) {
            Some(Token::Ident(seg)) => {
                if seg == "as" {
                    // `x as y`: the alias names nothing new.
                    *j += 2;
                    out.push(path);
                    return;
                }
                path.push(seg.clone());
                *j += 1;
            }
            Some(Token::Path) => *j += 1,
            Some(Token::Open) => {
                *j += 1;
                loop {
                    use_tree(toks, j, path.clone(), out);
                    match toks.get(*j) {
                        Some(Token::Comma) => *j += 1,
                        Some(Token::Close) => {
                            *j += 1;
                            break;
                        }
                        _ => break,
                    }
                    if toks.get(*j) == Some(&Token::Close) {
                        *j += 1;
                        break;
                    }
                }
                return;
            }
            Some(Token::Other) => {
                // `*`: a glob names the module itself.
                *j += 1;
                out.push(path);
                return;
            }
            _ => {
                out.push(path);
                return;
            }
        }
    }
}

/// A path from inside module `here` as a path from the crate root, or `None` when it is not
/// an explicit path into the crate (`std::`, a dependency, `Vec::new`). A parent's own use of
/// its child (`mod child;` then `child::f()`) is how a folder is built, not an arrow between
/// rooms, so only `crate::`, `super::` and `self::` paths count, as they did when the circles
/// of the issue were counted.
fn resolve(here: &[String], path: &[String]) -> Option<Vec<String>> {
    let (first, rest) = path.split_first()?;
    let mut base: Vec<String> = match first.as_str() {
        "crate" => Vec::new(),
        "self" => here.to_vec(),
        "super" => here[..here.len().checked_sub(1)?].to_vec(),
        _ => return None,
    };
    let mut rest = rest;
    while let Some((seg, tail)) = rest.split_first() {
        if seg == "super" {
            base.pop();
        } else if seg != "self" {
            break;
        }
        rest = tail;
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The runtime's `src/`, and every other crate's source folder of the workspace.
fn workspace() -> (PathBuf, Vec<PathBuf>) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let members = [
        "pas-spec/src",
        "pas-macros/src",
        "pas-gen/src",
        "pas-emit/src",
        "pas-conform/src",
        "pas-testbins/src",
        "bench/src",
        "bench/baseline/src",
        "examples/word-counter/src",
        "examples/word-counter-spec/src",
        "examples/todo/src",
        "examples/notes/src",
        "examples/triage/src",
    ];
    (
        root.join("src"),
        members
            .iter()
            .map(|m| root.join(m))
            .filter(|p| p.is_dir())
            .collect(),
    )
}

fn room(file: &File) -> &str {
    file.module.first().map(String::as_str).unwrap_or("lib")
}

/// Every import of `src/` against the layers, and the rooms FLOORS does not place.
fn layer_problems(krate: &Crate) -> (Vec<String>, BTreeSet<String>) {
    let floor = |room: &str| FLOORS.iter().position(|r| *r == room);
    let mut problems = Vec::new();
    let mut unplaced = BTreeSet::new();
    for (i, file) in krate.files.iter().enumerate() {
        let from = room(file);
        if from == "lib" {
            continue;
        }
        let Some(from_floor) = floor(from) else {
            unplaced.insert(from.to_string());
            continue;
        };
        for &to in &file.imports {
            let target = &krate.files[to];
            if target.module.is_empty() {
                problems.push(format!("{} imports lib.rs", krate.name(i)));
                continue;
            }
            let to_room = room(target);
            if to_room == from {
                continue;
            }
            if floor(to_room).is_some_and(|f| f >= from_floor) {
                problems.push(format!("{} imports {}", krate.name(i), krate.name(to)));
            }
        }
    }
    (problems, unplaced)
}

/// Every file circle of the workspace, named by crate folder.
fn all_circles() -> Vec<String> {
    let (src, others) = workspace();
    let mut circles = Vec::new();
    for dir in std::iter::once(src).chain(others) {
        let krate = Crate::read(&dir);
        for circle in krate.circles() {
            let dir = dir
                .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .unwrap()
                .display()
                .to_string();
            circles.push(format!("{dir}: {}", circle.join(" <-> ")));
        }
    }
    circles
}

#[test]
fn the_runtime_imports_only_downwards_and_never_the_facade() {
    let (problems, unplaced) = layer_problems(&Crate::read(&workspace().0));
    assert!(
        unplaced.is_empty(),
        "rooms of src/ missing from FLOORS in tests/layers.rs (place each on its floor): {unplaced:?}"
    );
    assert!(
        problems.is_empty(),
        "imports against the layers (a room imports only rooms below it in FLOORS, and names an \
         item by its home module, never through lib.rs):\n{}",
        problems.join("\n")
    );
}

#[test]
fn no_crate_of_the_workspace_has_a_file_circle() {
    let circles = all_circles();
    assert!(
        circles.is_empty(),
        "files that import each other:\n{}",
        circles.join("\n")
    );
}

/// `LAYERS_REPORT=1`: the house in figures, for the note and ARCHITECTURE.md.
#[test]
fn report() {
    if std::env::var_os("LAYERS_REPORT").is_none() {
        return;
    }
    let (src, _) = workspace();
    let krate = Crate::read(&src);
    let mut arrows = BTreeSet::new();
    for file in &krate.files {
        for &to in &file.imports {
            let (a, b) = (room(file), room(&krate.files[to]));
            if a != b {
                arrows.insert((a.to_string(), b.to_string()));
            }
        }
    }
    let rooms: BTreeSet<&str> = krate.files.iter().map(room).collect();
    let floor = |room: &str| FLOORS.iter().position(|r| *r == room);
    let back = arrows
        .iter()
        .filter(|(a, b)| match (floor(a), floor(b)) {
            (Some(fa), Some(fb)) => fb >= fa,
            _ => a != "lib",
        })
        .count();
    println!(
        "src/: {} files, {} rooms, {} room arrows, {} against the floors",
        krate.files.len(),
        rooms.len(),
        arrows.len(),
        back
    );
    for (a, b) in &arrows {
        if let (Some(fa), Some(fb)) = (floor(a), floor(b))
            && fb >= fa
        {
            println!("  back: {a} -> {b}");
        }
    }
    for problem in layer_problems(&krate).0 {
        println!("problem: {problem}");
    }
    for circle in all_circles() {
        println!("circle: {circle}");
    }
}

#[test]
fn the_reader_finds_use_trees_expression_paths_and_inline_supers() {
    let text = strip(
        "use crate::{a::b, c::{d, e as f}};\n\
         // crate::commented\n\
         fn g() { let s = \"crate::in_string\"; crate::h::i(); }\n\
         mod tests { use super::*; }\n",
    );
    let mut names = named_modules(&text, &["m".to_string()]);
    names.sort();
    let expect: Vec<Vec<String>> = [
        vec!["a", "b"],
        vec!["c", "d"],
        vec!["c", "e"],
        vec!["h", "i"],
        vec!["m"],
    ]
    .iter()
    .map(|p| p.iter().map(|s| s.to_string()).collect())
    .collect();
    assert_eq!(names, expect);
}

#[test]
fn architecture_md_shows_the_floors_of_the_test() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    // The floor table's rows: `| N | `room` | ... |`, top floor first.
    let shown: Vec<&str> = text
        .lines()
        .filter_map(|line| {
            let mut cells = line.split('|').map(str::trim).skip(1);
            let floor = cells.next()?;
            let room = cells.next()?;
            (floor.parse::<usize>().is_ok() && room.starts_with('`'))
                .then(|| room.trim_matches('`'))
        })
        .collect();
    let floors: Vec<&str> = FLOORS.iter().rev().copied().collect();
    assert_eq!(
        shown, floors,
        "ARCHITECTURE.md's floor table and FLOORS in tests/layers.rs differ"
    );
}

/// The workspace crates each crate's `[dependencies]` names (dev-dependencies aside).
fn workspace_dependencies(manifest: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(manifest).unwrap();
    let mut in_dependencies = false;
    let mut found = BTreeSet::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]";
            continue;
        }
        let key = line.split(['=', '.', ' ']).next().unwrap_or_default();
        if in_dependencies && key.starts_with("pas-") {
            found.insert(key.to_string());
        }
    }
    found
}

#[test]
fn architecture_md_shows_the_crates_as_their_manifests_do() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let mut checked = 0;
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some(name) = cells.get(1).filter(|c| c.starts_with("`pas")) else {
            continue;
        };
        let name = name.split('`').nth(1).unwrap();
        let dir = if name == "pas-kit" {
            root.clone()
        } else {
            root.join(name)
        };
        let shown: BTreeSet<String> = cells[3]
            .split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect();
        assert_eq!(
            shown,
            workspace_dependencies(&dir.join("Cargo.toml")),
            "ARCHITECTURE.md: the dependencies of {name}"
        );
        checked += 1;
    }
    assert_eq!(checked, 6, "ARCHITECTURE.md lists the six published crates");
}
