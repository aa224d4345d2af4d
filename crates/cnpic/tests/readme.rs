//! The documentation's examples are tests: every fenced block of
//! README.md, docs/combinatorize.md and docs/neural.md that has no info
//! string is a `trycmd` session of `$ cnpic ...` commands and the output
//! each prints (stdout and stderr together), run from the repository root
//! in order. Blocks of other text name their language (```cnpi, ```sh,
//! ```text) and are not run. A wrong number in a doc fails here.

use std::path::{Path, PathBuf};

#[test]
fn the_documented_sessions_print_what_the_docs_say() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // The sessions read `examples/` and write where the README says, as
    // a reader who runs them from the repository root would.
    std::env::set_current_dir(&root).expect("the repository root exists");
    let cache = tempfile::tempdir().expect("a temporary folder");
    trycmd::TestCases::new()
        .register_bin(
            "cnpic",
            trycmd::schema::Bin::Path(PathBuf::from(env!("CARGO_BIN_EXE_cnpic"))),
        )
        .env("CNPI_CACHE_DIR", cache.path().display().to_string())
        .case("README.md")
        .case("docs/combinatorize.md")
        .case("docs/neural.md")
        .run();
}
