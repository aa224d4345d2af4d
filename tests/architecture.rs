//! docs/architecture.md names only what exists: every path it writes in
//! backticks (`src/env/`, `crates/cnpi-lsp/src/server.rs`, a shorthand
//! such as `cli/run.rs` that ends some path of the workspace, a pattern
//! such as `stdlib/<env>.cnpi` or `codes/*.md` that some file fits), every
//! file it links and every heading its `#anchor` links point at. A path is
//! a word with a file extension, a trailing `/`, or the workspace's own
//! top-level folders at its start. Every Rust path it writes
//! (`runtime::OnTheNetwork`, `Plan::run`) names an item that is defined:
//! the last name in a file of the module before it, or, after a type, by
//! both names somewhere in the workspace.

use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Folders a path of the workspace starts with.
const TOP: [&str; 10] = [
    "src/",
    "crates/",
    "tests/",
    "stdlib/",
    "docs/",
    "examples/",
    "grammar/",
    "benches/",
    "editors/",
    ".ci/",
];

/// What a file's name ends with.
const EXTENSIONS: [&str; 7] = [".rs", ".md", ".cnpi", ".toml", ".lalrpop", ".json", ".html"];

/// Every file and folder of the workspace, relative to its root, with `/`
/// after each folder (build output and version control left out).
fn workspace() -> Vec<String> {
    fn walk(dir: &Path, prefix: &str, out: &mut Vec<String>) {
        let entries = std::fs::read_dir(dir).expect("a readable folder");
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if prefix.is_empty() && (name == "target" || name == ".git") {
                continue;
            }
            let path = format!("{prefix}{name}");
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                out.push(format!("{path}/"));
                walk(&entry.path(), &format!("{path}/"), out);
            } else {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(Path::new(ROOT), "", &mut out);
    out
}

/// Whether `text` fits `pattern`, where `*` stands for any characters but
/// `/`.
fn fits(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((head, tail)) => {
            let Some(rest) = text.strip_prefix(head) else {
                return false;
            };
            (0..=rest.len())
                .take_while(|&i| !rest[..i].contains('/'))
                .filter(|&i| rest.is_char_boundary(i))
                .any(|i| fits(tail, &rest[i..]))
        }
    }
}

/// `pattern` with each `<name>` as `*`.
fn wildcards(pattern: &str) -> String {
    let mut out = String::new();
    let mut rest = pattern;
    while let Some((head, tail)) = rest.split_once('<') {
        out.push_str(head);
        out.push('*');
        rest = tail.split_once('>').map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out
}

/// The words of inline code spans outside fenced blocks.
fn code_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut fenced = false;
    let mut span = String::new();
    let mut inside = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for c in line.chars().chain(['\n']) {
            match (c, inside) {
                ('`', false) => inside = true,
                ('`', true) => {
                    words.extend(span.split_whitespace().map(str::to_string));
                    span.clear();
                    inside = false;
                }
                (c, true) => span.push(c),
                _ => {}
            }
        }
    }
    words
}

fn is_path(word: &str) -> bool {
    let word = word.trim_end_matches([',', '.', ')', ';', ':']);
    !word.starts_with("--")
        && !word.contains("::")
        && !word.contains('(')
        && (TOP.iter().any(|top| word.starts_with(top))
            || (word.contains('/') && word.ends_with('/'))
            || EXTENSIONS
                .iter()
                .any(|e| word.ends_with(e) && word.len() > e.len()))
}

/// The `(target)` of every markdown link.
fn links(text: &str) -> Vec<&str> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split_once(')').map(|(target, _)| target))
        .collect()
}

/// GitHub's anchor of a heading: lower case, spaces as `-`, punctuation
/// dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

#[test]
fn every_path_link_and_anchor_of_the_architecture_exists() {
    let text = std::fs::read_to_string(format!("{ROOT}/docs/architecture.md"))
        .expect("docs/architecture.md exists");
    let all = workspace();
    let exists = |path: &str| {
        let pattern = wildcards(path);
        all.iter().any(|have| {
            fits(&pattern, have)
                || have
                    .rfind('/')
                    .into_iter()
                    .chain(have.match_indices('/').map(|(i, _)| i))
                    .any(|i| fits(&pattern, &have[i + 1..]))
        })
    };
    let mut missing = Vec::new();
    let paths: Vec<String> = code_words(&text)
        .into_iter()
        .filter(|w| is_path(w))
        .collect();
    assert!(paths.len() > 40, "the paths were not found: {paths:?}");
    for word in &paths {
        let path = word.trim_end_matches([',', '.', ')', ';', ':']);
        if !exists(path) {
            missing.push(path.to_string());
        }
    }
    let headings: Vec<String> = (text.lines())
        .filter_map(|line| line.strip_prefix('#'))
        .map(|line| anchor(line.trim_start_matches('#')))
        .collect();
    for target in links(&text) {
        match target.split_once('#') {
            Some(("", name)) if !headings.iter().any(|h| h == name) => {
                missing.push(format!("#{name}"));
            }
            Some(("", _)) => {}
            _ if target.starts_with("http") => {}
            _ => {
                let file = target.split('#').next().unwrap_or(target);
                if !Path::new(&format!("{ROOT}/docs/{file}")).exists() {
                    missing.push(target.to_string());
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "architecture.md names what does not exist: {missing:?}"
    );
}

/// Whether `body` defines `name`: an item, a `use` of it, or an enum
/// variant (a line that starts with it).
fn defines(body: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let whole = |at: usize| !body[at + name.len()..].starts_with(ident);
    let items = [
        "struct ", "enum ", "trait ", "type ", "const ", "static ", "fn ", "mod ",
    ];
    let item = items.iter().any(|item| {
        let wanted = format!("{item}{name}");
        body.match_indices(&wanted)
            .any(|(at, _)| !body[..at].ends_with(ident) && whole(at + item.len()))
    });
    item || body.lines().any(|line| {
        let line = line.trim_start();
        let used = (line.starts_with("use ") || line.starts_with("pub use "))
            && line.split(|c: char| !ident(c)).any(|word| word == name);
        let variant = line
            .strip_prefix(name)
            .is_some_and(|rest| rest.starts_with(['(', '{', ',']) || rest.starts_with(" {"));
        used || variant
    })
}

/// The Rust paths (`a::b::C`) of inline code spans.
fn rust_paths(words: &[String]) -> Vec<Vec<&str>> {
    let ident = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_');
    words
        .iter()
        .map(|w| w.trim_end_matches([',', '.', ')', ';', ':']))
        .filter(|w| w.contains("::"))
        .map(|w| w.split("::").collect::<Vec<_>>())
        .filter(|segments| segments.iter().all(|s| ident(s)))
        .collect()
}

#[test]
fn every_rust_path_of_the_architecture_is_defined() {
    let text = std::fs::read_to_string(format!("{ROOT}/docs/architecture.md"))
        .expect("docs/architecture.md exists");
    let sources: Vec<(String, String)> = (workspace().into_iter())
        .filter(|path| path.ends_with(".rs"))
        .map(|path| {
            let body = std::fs::read_to_string(format!("{ROOT}/{path}")).unwrap_or_default();
            (format!("/{path}"), body)
        })
        .collect();
    let words = code_words(&text);
    let paths = rust_paths(&words);
    assert!(paths.len() > 40, "the Rust paths were not found: {paths:?}");
    let mut missing = Vec::new();
    for segments in &paths {
        let [.., parent, last] = segments.as_slice() else {
            continue;
        };
        let defined = if parent.starts_with(char::is_uppercase) {
            let anywhere = |name: &str| sources.iter().any(|(_, body)| defines(body, name));
            anywhere(parent) && anywhere(last)
        } else {
            let krate = format!("/crates/{}/src/lib.rs", parent.replace('_', "-"));
            let module = |path: &str| {
                path.contains(&format!("/{parent}/"))
                    || path.ends_with(&format!("/{parent}.rs"))
                    || path == krate
                    || (*parent == "cnpi"
                        && path.starts_with("/src/")
                        && path.matches('/').count() == 2)
            };
            sources.iter().any(|(path, body)| {
                module(path) && (defines(body, last) || path.contains(&format!("/{parent}/{last}")))
            })
        };
        if !defined {
            missing.push(segments.join("::"));
        }
    }
    assert!(
        missing.is_empty(),
        "architecture.md names Rust items that are not defined: {missing:?}"
    );
}

#[test]
fn patterns_fit_as_meant() {
    assert!(fits("stdlib/*.cnpi", "stdlib/ram.cnpi"));
    assert!(!fits("stdlib/*.cnpi", "stdlib/x/ram.cnpi"));
    assert!(fits(&wildcards("src/env/<env>.rs"), "src/env/array.rs"));
    assert!(!fits("src/env/array.rs", "src/env/graph.rs"));
    assert!(is_path("cli/run.rs") && is_path("src/syntax/") && !is_path("i/n"));
    assert_eq!(anchor(" How to add a command"), "how-to-add-a-command");
    assert!(defines("pub struct OnTheNetwork {", "OnTheNetwork"));
    assert!(!defines("pub struct OnTheNetworks {", "OnTheNetwork"));
    assert!(defines("    DeclaredMemory,", "DeclaredMemory"));
    assert!(!defines("fn runs() {}", "run"));
}

// House rules, checked on the code itself (rust-analyzer's tidy tests are
// the model): no two modules import each other, no `<name>.rs` beside a
// `<name>/` folder, and the crate table above tells each crate's real
// dependencies.

/// The crates of the workspace: their names and source folders.
fn crates() -> Vec<(String, String)> {
    let mut out = vec![("cnpi".to_string(), "src/".to_string())];
    let dirs = std::fs::read_dir(format!("{ROOT}/crates")).expect("crates/ is readable");
    for entry in dirs.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.path().join("Cargo.toml").is_file() {
            out.push((name.clone(), format!("crates/{name}/src/")));
        }
    }
    out.sort();
    out
}

/// The module a source file of a crate (relative to its `src/`) is:
/// `a/b.rs` and `a/b/mod.rs` are `a::b`, `lib.rs` and `main.rs` the root.
fn module_of(file: &str) -> Vec<String> {
    let stem = file.strip_suffix(".rs").unwrap_or(file);
    let stem = stem.strip_suffix("/mod").unwrap_or(stem);
    if stem == "lib" || stem == "main" {
        return Vec::new();
    }
    stem.split('/').map(str::to_string).collect()
}

/// The paths a `use` tree names, braces expanded: `a::{b, c::{d, self}}`
/// is `a::b`, `a::c::d` and `a::c`; a renaming (`as x`) and a glob
/// (`*`) end their path.
fn use_paths(tree: &str) -> Vec<Vec<String>> {
    fn expand(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
        let tree = tree.trim();
        let Some(open) = tree.find('{') else {
            let path = tree.split(" as ").next().unwrap_or(tree);
            let mut full = prefix.to_vec();
            let names = path.split("::").map(str::trim);
            full.extend(
                names
                    .filter(|s| !s.is_empty() && *s != "*" && *s != "self")
                    .map(String::from),
            );
            out.push(full);
            return;
        };
        let mut full = prefix.to_vec();
        let head = tree[..open].trim_end_matches(':').trim();
        full.extend(head.split("::").filter(|s| !s.is_empty()).map(String::from));
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let (mut depth, mut start) = (0, 0);
        for (i, c) in inner.char_indices().chain([(inner.len(), ',')]) {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    if !inner[start..i].trim().is_empty() {
                        expand(&full, &inner[start..i], out);
                    }
                    start = i + 1;
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    expand(&[], tree, &mut out);
    out
}

/// The `crate::…` and `super::…` paths of a source file before its tests
/// (`#[cfg(test)]` at the start of a line), outside comments: its `use`
/// trees, whole, and the paths written in its code (`super::m::f(x)`).
fn use_trees(body: &str) -> Vec<String> {
    let code = body.split("\n#[cfg(test)]").next().unwrap_or(body);
    let code: String = (code.lines())
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut trees = Vec::new();
    for (at, _) in code.match_indices("use ") {
        let line_start = code[..at].rfind('\n').map_or(0, |i| i + 1);
        let before = code[line_start..at].trim();
        if !(before.is_empty() || before.starts_with("pub")) {
            continue;
        }
        let rest = &code[at + 4..];
        let tree = rest.split(';').next().unwrap_or(rest);
        if tree.starts_with("crate::") || tree.starts_with("super::") {
            trees.push(tree.split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
    for root in ["crate::", "super::"] {
        for (at, _) in code.match_indices(root) {
            let head = &code[..at];
            if head.ends_with(|c: char| ident(c) || c == ':') || head.trim_end().ends_with("use") {
                continue;
            }
            let rest = &code[at..];
            let end = rest
                .find(|c: char| !ident(c) && c != ':')
                .unwrap_or(rest.len());
            trees.push(rest[..end].trim_end_matches(':').to_string());
        }
    }
    trees
}

/// The imports between the files of each crate (`crate::` and `super::`
/// paths, each to the file of the deepest module it names), as pairs of
/// workspace paths.
fn imports() -> Vec<(String, String)> {
    let all = workspace();
    let mut edges = Vec::new();
    for (_, src) in crates() {
        let files: Vec<&String> = (all.iter())
            .filter(|p| p.starts_with(&src) && p.ends_with(".rs"))
            .collect();
        let modules: Vec<(Vec<String>, &String)> = (files.iter())
            .map(|f| (module_of(&f[src.len()..]), *f))
            .collect();
        for (module, file) in &modules {
            let body = std::fs::read_to_string(format!("{ROOT}/{file}")).unwrap_or_default();
            // A file's `super` is its module's parent.
            let parent = &module[..module.len().saturating_sub(1)];
            for path in use_trees(&body).iter().flat_map(|t| use_paths(t)) {
                let mut target: Vec<String> = Vec::new();
                let mut names = path.iter().peekable();
                match names.next().map(String::as_str) {
                    Some("crate") => {}
                    _ => {
                        target = parent.to_vec();
                        while names.peek().is_some_and(|n| *n == "super") {
                            names.next();
                            target.pop();
                        }
                    }
                }
                let lookup = |m: &[String]| modules.iter().find(|(have, _)| have == m);
                let mut to = lookup(&target).map(|(_, f)| *f);
                for name in names {
                    target.push(name.clone());
                    to = lookup(&target).map(|(_, f)| *f).or(to);
                }
                if let Some(to) = to.filter(|to| *to != *file) {
                    edges.push((file.to_string(), to.to_string()));
                }
            }
        }
    }
    edges.sort();
    edges.dedup();
    edges
}

/// The groups of files that import each other, around a circle (the
/// strongly connected components of more than one file), each sorted.
fn circles(edges: &[(String, String)]) -> Vec<Vec<String>> {
    let mut files: Vec<&String> = edges.iter().flat_map(|(a, b)| [a, b]).collect();
    files.sort();
    files.dedup();
    let index = |f: &String| files.binary_search(&f).unwrap_or_default();
    let mut next = vec![Vec::new(); files.len()];
    for (a, b) in edges {
        next[index(a)].push(index(b));
    }
    // What each file reaches, then the files that reach each other.
    let reaches: Vec<Vec<bool>> = (0..files.len())
        .map(|start| {
            let mut seen = vec![false; files.len()];
            let mut todo = next[start].clone();
            while let Some(f) = todo.pop() {
                if !std::mem::replace(&mut seen[f], true) {
                    todo.extend(&next[f]);
                }
            }
            seen
        })
        .collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    for (a, from_a) in reaches.iter().enumerate() {
        let group: Vec<String> = (0..files.len())
            .filter(|&b| from_a[b] && reaches[b][a])
            .map(|b| files[b].clone())
            .collect();
        if group.len() > 1 && !out.contains(&group) {
            out.push(group);
        }
    }
    out
}

#[test]
fn no_two_modules_import_each_other() {
    let edges = imports();
    assert!(edges.len() > 300, "the imports were not found: {edges:?}");
    let new: Vec<Vec<String>> = circles(&edges);
    assert!(
        new.is_empty(),
        "modules that import each other (a circle: move what both need where it belongs): {new:?}"
    );
}

#[test]
fn imports_are_read_as_meant() {
    let paths = use_paths("super::{a::{B, c::{self, D as E}}, f::*}");
    let want = [
        vec!["super", "a", "B"],
        vec!["super", "a", "c"],
        vec!["super", "a", "c", "D"],
        vec!["super", "f"],
    ];
    assert_eq!(paths, want);
    let body = "use std::fmt;\nuse crate::x::{Y,\n    Z};\npub(crate) use super::w;\n// use crate::no;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n";
    assert_eq!(use_trees(body), ["crate::x::{Y, Z}", "super::w"]);
    let body = "fn f() {\n    super::m::g(crate::h::K);\n}\n";
    assert_eq!(use_trees(body), ["crate::h::K", "super::m::g"]);
    assert_eq!(module_of("a/b/mod.rs"), ["a", "b"]);
    let edges = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    let found = circles(&edges(&[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]));
    assert_eq!(found, [["a", "b", "c"]]);
    assert!(circles(&edges(&[("a", "b"), ("b", "c")])).is_empty());
}

#[test]
fn no_module_file_beside_a_folder_of_the_same_name() {
    let all = workspace();
    let beside: Vec<&String> = (all.iter())
        .filter(|path| path.ends_with(".rs"))
        .filter(|path| {
            let folder = format!("{}/", &path[..path.len() - 3]);
            all.iter()
                .any(|other| other.starts_with(&folder) && other.ends_with(".rs"))
        })
        .collect();
    assert!(
        beside.is_empty(),
        "a folder of modules is `<name>/mod.rs`, never `<name>.rs` beside `<name>/`: {beside:?}"
    );
}

/// The dependencies a crate's `Cargo.toml` names (normal and build).
fn dependencies(manifest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == "[dependencies]" || line == "[build-dependencies]";
            continue;
        }
        let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
        if inside && !name.is_empty() && !name.starts_with('#') {
            out.push(name.to_string());
        }
    }
    out
}

#[test]
fn the_crate_table_tells_each_crates_dependencies() {
    let text = std::fs::read_to_string(format!("{ROOT}/docs/architecture.md"))
        .expect("docs/architecture.md exists");
    let rows: Vec<Vec<&str>> = (text.lines())
        .filter(|line| line.starts_with("| `cnpi"))
        .map(|line| line.split('|').map(str::trim).collect())
        .collect();
    let mut wrong = Vec::new();
    let crates = crates();
    for (name, src) in &crates {
        let Some(row) = rows.iter().find(|r| r[1] == format!("`{name}`")) else {
            wrong.push(format!("`{name}` has no row"));
            continue;
        };
        let folder = src.trim_end_matches("src/");
        let manifest = std::fs::read_to_string(format!("{ROOT}/{folder}Cargo.toml"))
            .expect("every crate has a Cargo.toml");
        let real = dependencies(&manifest);
        let named: Vec<&str> = (row[3].split(','))
            .map(|dep| dep.trim().trim_matches('`'))
            .collect();
        for dep in &named {
            if !real.iter().any(|r| r == dep) {
                wrong.push(format!("`{name}` does not depend on {dep}"));
            }
        }
        for dep in real.iter().filter(|dep| dep.starts_with("cnpi")) {
            if !named.contains(&dep.as_str()) {
                wrong.push(format!("the row of `{name}` leaves out {dep}"));
            }
        }
    }
    assert_eq!(rows.len(), crates.len(), "one row per crate: {rows:?}");
    assert!(wrong.is_empty(), "architecture.md's crate table: {wrong:?}");
}
