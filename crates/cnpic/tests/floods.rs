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
