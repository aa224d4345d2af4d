//! Build script: generates the parser from `grammar/` with lalrpop and the
//! diagnostic code table from `src/diagnostic/codes/*.md`.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    // Once a build script names what it depends on, cargo reruns it only
    // when those change: the grammar must be named as well as the codes.
    println!("cargo:rerun-if-changed=grammar");
    lalrpop::Configuration::new()
        .set_in_dir("grammar")
        .set_out_dir(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .process()
        .expect("the grammar in grammar/ must build");
    generate_codes();
}

/// One `pub const EXXXX: Code` per explanation file, and `ALL` listing them
/// with their text, sorted by code.
fn generate_codes() {
    let dir = Path::new("src/diagnostic/codes");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut codes: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("src/diagnostic/codes exists")
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .map(|path| {
            let code = path.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).expect("readable explanation");
            (code, text)
        })
        .collect();
    codes.sort();
    let mut out = String::new();
    for (code, _) in &codes {
        writeln!(
            out,
            "pub const {code}: super::Code = super::Code({code:?});"
        )
        .unwrap();
    }
    out.push_str("/// Every code with its long explanation.\n");
    out.push_str("pub const ALL: &[(super::Code, &str)] = &[\n");
    for (code, text) in &codes {
        writeln!(out, "    ({code}, {text:?}),").unwrap();
    }
    out.push_str("];\n");
    let target = Path::new(&std::env::var("OUT_DIR").unwrap()).join("codes.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
