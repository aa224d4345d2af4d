//! One fixture per diagnostic code, run through the real `cnpic` binary.
//!
//! Each `tests/diagnostics/CODE_name.cnpi` must make `cnpic` report CODE.
//! Header comments choose the command: `# input: JSON` runs
//! `cnpic run --symbolic --input JSON` (`cnpic run --input JSON` on the
//! network with `# engine: neural`), `# command: combinatorize` runs
//! `cnpic combinatorize`, otherwise `cnpic check`; `# entry: NAME` adds
//! `--entry NAME`. The rendered stderr (no colour, since
//! it is not a terminal) and the exit status are snapshot-tested.

/// The workspace root: examples, fixtures and the stdlib live there, and
/// commands run from it so that paths in their output read as in the docs.
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

use std::process::Command;

fn header<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines()
        .filter_map(|line| line.strip_prefix('#'))
        .find_map(|line| line.trim().strip_prefix(key))
        .map(str::trim)
}

#[test]
fn every_fixture_reports_its_code() {
    insta::glob!("../../../tests/diagnostics", "*.cnpi", |path| {
        let text = std::fs::read_to_string(path).expect("fixture is readable");
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let code = name.split('_').next().unwrap().to_string();
        let relative = format!("tests/diagnostics/{name}");
        let mut command = Command::new(env!("CARGO_BIN_EXE_cnpic"));
        match (header(&text, "input:"), header(&text, "command:")) {
            // `# engine: neural` runs on the network instead.
            (Some(input), _) if header(&text, "engine:") == Some("neural") => {
                command.args(["run", &relative, "--input", input])
            }
            (Some(input), _) => command.args(["run", "--symbolic", &relative, "--input", input]),
            (None, Some("combinatorize")) => command.args(["combinatorize", &relative]),
            (None, _) => command.args(["check", &relative]),
        };
        if let Some(entry) = header(&text, "entry:") {
            command.args(["--entry", entry]);
        }
        let output = command
            .current_dir(crate::ROOT)
            .output()
            .expect("cnpic runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        let status = output.status.code();
        assert!(
            stderr.contains(&format!("[{code}]")),
            "{name}: expected {code} in:\n{stderr}"
        );
        let expected = if code.starts_with('W') { 0 } else { 1 };
        assert_eq!(status, Some(expected), "{name}: exit status\n{stderr}");
        insta::assert_snapshot!(format!("exit: {status:?}\n{stderr}"));
    });
}

/// Internal errors (a stdlib that fails to load, an impossible machine
/// state) cannot be triggered by a source file; neither can the E09xx
/// failures to read files, nor the E10xx errors about core files (which
/// `tests/core.rs` covers through the CLI), nor the E11xx errors about
/// program-memory files and entries, a normal program handed to program
/// memory without combinatorizing (the command line always does), or a
/// cross-check mismatch between two verified engines (`tests/neural/`
/// covers those, and `exec::compare`'s unit tests the first difference),
/// nor W1106, no longer reported (a run that ends differently from the
/// program as written is E1106), nor the E0801-E0806 and W0801-W0803 of Algorithm 3, which
/// only decide that the programs run on frames and are never reported
/// (`tests/combinatorize/frames_*.cnpi` are the programs that drew them),
/// nor E0807, whose two shapes now run on the network
/// (`tests/neural/calls.rs` runs the programs that drew it),
/// nor E1109, a combinator the program defines that the
/// core cannot learn: every body E0111 lets through is one of the 57
/// members, and the shipped core learns all of them (`tests/neural/`
/// checks; it also covers a stored embedding that fails, and
/// `core::embedding` a core that learns nothing), nor the E13xx and W1301
/// of experiments and their files (`tests/experiments.rs` covers those),
/// nor the E1401-E1403 errors of `cnpic learn`, which take an examples
/// file besides the source (`tests/rl.rs` covers them through the CLI),
/// nor E1501, a document too large for the language server (its tests,
/// `crates/cnpi-lsp/tests/`, cover it), nor E0708, which needs a
/// `--max-memory` (`tests/cli.rs` and `tests/neural/limits.rs` cover it
/// on every engine), nor E0709, an interrupt from outside (the Python
/// package's tests send one). Unit tests cover them instead.
const WITHOUT_FIXTURE: &[&str] = &[
    "E0100", "E0799", "E0899", "E1101", "E1102", "E1105", "E1106", "E1107", "E1108", "E1109",
    "E1201", "E1202", "E1301", "E1302", "E1303", "E1304", "E1305", "E1401", "E1402", "E1403",
    "E1501", "W1106", "W1301", "E0801", "E0802", "E0803", "E0804", "E0805", "E0806", "E0807",
    "W0801", "W0802", "W0803", "E0708", "E0709",
];

#[test]
fn every_code_has_a_fixture_and_an_explanation() {
    let fixtures: Vec<String> =
        std::fs::read_dir(std::path::Path::new(crate::ROOT).join("tests/diagnostics"))
            .expect("fixture folder exists")
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
    for (code, explanation) in cnpi::diagnostic::codes::ALL {
        assert!(
            explanation.starts_with(&format!("# {code}: ")),
            "{code}: explanation must start with its title"
        );
        if WITHOUT_FIXTURE.contains(&code.0)
            || code.0.starts_with("E09")
            || code.0.starts_with("E10")
        {
            continue;
        }
        assert!(
            fixtures.iter().any(|f| f.starts_with(&format!("{code}_"))),
            "{code} has no fixture in tests/diagnostics"
        );
    }
}
