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
