//! `crates/cnpic/start-up-symbols.txt` lists the functions a small run
//! executes, by their linker names, for lld to lay out together; a name
//! the code no longer has is skipped, so a stale list only costs speed.
//! This test says how much of the list the built binary still has, and
//! fails under 80 %: then regenerate it (`sh
//! crates/cnpic/start-up-symbols.sh`, as the list's header says). A
//! linker name carries hashes of its crate's build (profile, features: the
//! binary `cargo test` builds has other ones than `cargo build`'s, which
//! the list is made from), so names are compared without them: what is
//! counted is whether each function is still there.

use std::collections::HashSet;

/// The share of the list's names the binary must still have.
const LEAST: f64 = 0.8;

/// `name` without the hashes in it: a legacy name's `17h<16 hex>E` end
/// (kept as `E`), a v0 name's crate disambiguators (`Cs<base 62>_`).
fn unhashed(name: &[u8]) -> Vec<u8> {
    let hash = b"17h0123456789abcdefE".len();
    if name.len() > hash && name[name.len() - hash..].starts_with(b"17h") {
        return [&name[..name.len() - hash], b"E"].concat();
    }
    if !name.starts_with(b"_R") {
        return name.to_vec();
    }
    let mut out = Vec::with_capacity(name.len());
    let mut rest = name;
    while let Some(at) = rest.windows(2).position(|w| w == b"Cs") {
        out.extend_from_slice(&rest[..at]);
        let tail = &rest[at + 2..];
        let digits = tail
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        match tail.get(digits) {
            Some(b'_') => rest = &tail[digits + 1..],
            _ => {
                out.extend_from_slice(b"Cs");
                rest = tail;
            }
        }
    }
    out.extend_from_slice(rest);
    out
}

#[test]
fn most_of_the_start_up_symbols_are_in_the_binary() {
    let list = include_str!("../start-up-symbols.txt");
    let names: Vec<&str> = (list.lines())
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .collect();
    assert!(names.len() > 100, "the list is nearly empty");
    let binary = std::fs::read(env!("CARGO_BIN_EXE_cnpic")).expect("the binary is readable");
    // A symbol's name is a NUL-terminated string of the symbol table.
    let strings: HashSet<Vec<u8>> = binary.split(|&byte| byte == 0).map(unhashed).collect();
    let missing: Vec<&str> = (names.iter().copied())
        .filter(|name| !strings.contains(&unhashed(name.as_bytes())))
        .collect();
    let share = 1.0 - missing.len() as f64 / names.len() as f64;
    println!(
        "{} of {} start-up symbols are in the binary ({:.1} %)",
        names.len() - missing.len(),
        names.len(),
        100.0 * share
    );
    assert!(
        share >= LEAST,
        "only {:.1} % of crates/cnpic/start-up-symbols.txt is in the binary (missing: {:?}...): \
         regenerate it with `sh crates/cnpic/start-up-symbols.sh`",
        100.0 * share,
        &missing[..missing.len().min(5)]
    );
}
