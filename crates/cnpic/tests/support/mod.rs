//! What the tests of the real binary share: `cnpic` run in the workspace
//! root (where the examples are, so paths read as in the docs), a run
//! stopped if it hangs, its output read back, and the smallest
//! reinforcement-learning run that learns a core.

// Each test file uses some of these, never all.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The workspace root.
pub const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// `cnpic ARGS` in the workspace root, to adjust before it runs.
pub fn command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cnpic"));
    command.args(args).current_dir(ROOT);
    command
}

/// `cnpic ARGS` run to its end in the workspace root.
pub fn cnpic(args: &[&str]) -> Output {
    command(args).output().expect("cnpic runs")
}

/// `cnpic ARGS` started in the workspace root, stdout and stderr piped.
pub fn spawn(args: &[&str]) -> Child {
    command(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cnpic starts")
}

/// `child`'s output once it ends; killed, with `hung` as the panic
/// message, if it still runs after `limit` (a read that blocks would
/// otherwise hang the test suite).
pub fn within(mut child: Child, limit: Duration, hung: &str) -> Output {
    let start = Instant::now();
    while child.try_wait().expect("waits").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("{hung}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("its output")
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The one JSON object a successful run printed.
pub fn json(output: &Output) -> serde_json::Value {
    assert!(output.status.success(), "{}", stderr(output));
    serde_json::from_slice(&output.stdout).expect("one JSON object on stdout")
}

/// A path as an argument.
pub fn text(path: &Path) -> String {
    path.display().to_string()
}

/// `experiment rl-core` on ten trials of the adaptive, mixed setting from
/// seed 1: small, and some trial learns a core.
pub const RL_CORE: [&str; 10] = [
    "experiment",
    "rl-core",
    "--sampling",
    "adaptive",
    "--curriculum",
    "mixed",
    "--trials",
    "10",
    "--seed",
    "1",
];
