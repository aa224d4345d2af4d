//! Reports that stay short however much is wrong: `cnpic fmt` over a
//! folder of a thousand broken files prints a bounded report, capped
//! across the files as `check` caps one file.

use std::process::Command;

#[test]
fn fmt_over_a_thousand_broken_files_prints_a_short_report() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..1000 {
        std::fs::write(dir.path().join(format!("b{i:04}.cnpi")), "def X: seq(\n").unwrap();
    }
    let output = Command::new(env!("CARGO_BIN_EXE_cnpic"))
        .arg("fmt")
        .arg(dir.path())
        .output()
        .expect("cnpic runs");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.len() < 40_000, "{} bytes of report", stderr.len());
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("... and ") && last.contains("more files not formatted"),
        "{last}"
    );
}

/// Issue 29: a cycle between appliers through 10^5 definitions is one
/// short E0501 naming its first and last members and counting the rest
/// (it was 300k lines).
#[test]
fn a_cycle_through_a_hundred_thousand_definitions_is_one_short_report() {
    let dir = tempfile::tempdir().unwrap();
    let n = 100_000;
    let mut text = String::from("env array(P1 = 0)\n");
    for i in 0..n {
        text.push_str(&format!("def D{i}: seq(; D{}, NOP, NOP)\n", (i + 1) % n));
    }
    let path = dir.path().join("cycle.cnpi");
    std::fs::write(&path, text).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_cnpic"))
        .arg("check")
        .arg(&path)
        .output()
        .expect("cnpic runs");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.len() < 10_000, "{} bytes of report", stderr.len());
    assert_eq!(stderr.matches("[E0501]").count(), 1, "{stderr}");
    assert!(
        stderr.contains("`D0 → D1 → D2 → … 99994 more … → D99997 → D99998 → D99999 → D0`"),
        "{stderr}"
    );
}
