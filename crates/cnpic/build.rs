//! Build script of `cnpic`: on Linux the binary is linked as a
//! position-dependent executable (`-no-pie`). A position-independent one
//! has the dynamic loader apply about 10,000 relocations to the binary's
//! own tables at every start, writing (so copying) each page they lie on;
//! a position-dependent one has them resolved when it is linked. Only the
//! binary's link changes: the code is compiled as usual, and the tests and
//! the Python module link as before. The price: the binary's own code and
//! data are loaded at a fixed address (no address randomisation for them;
//! the shared libraries, stack and heap keep it).
//!
//! Where the C compiler finds glibc's and libgcc's static archives, the
//! binary is also linked statically (`-static`): no dynamic loader, no
//! shared libraries to map, resolve and relocate at every start. rustc
//! names the system libraries it links against (`-lc`, `-lgcc_s`, ...)
//! after `-Bdynamic`, which would pick their shared objects, so this
//! script writes, for the binary's link alone, a directory of linker
//! scripts with those names that stand for the static archives
//! (`-lgcc_s` for libgcc's unwinder, `libgcc_eh.a`), searched first. What
//! `+crt-static` would do, for the binary only: in `.cargo/config.toml` it
//! applies to every crate, and the proc-macros and the Python module's
//! cdylib do not build with it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The system libraries rustc links the binary against on
/// `x86_64-unknown-linux-gnu`, each with the static archives that stand
/// for it.
const LIBRARIES: [(&str, &[&str]); 7] = [
    ("gcc_s", &["libgcc_eh.a", "libgcc.a", "libc.a"]),
    ("util", &["libutil.a"]),
    ("rt", &["librt.a"]),
    ("pthread", &["libpthread.a"]),
    ("m", &["libm.a"]),
    ("dl", &["libdl.a"]),
    ("c", &["libc.a", "libgcc_eh.a", "libgcc.a"]),
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux") {
        println!("cargo:rustc-link-arg-bin=cnpic=-no-pie");
        if let Some(dir) = static_scripts() {
            println!("cargo:rustc-link-arg-bin=cnpic=-L{}", dir.display());
            println!("cargo:rustc-link-arg-bin=cnpic=-static");
        }
    }
}

/// The directory of linker scripts (see the file's doc), or `None` if an
/// archive is missing (the binary then links dynamically, as before).
fn static_scripts() -> Option<PathBuf> {
    let dir = Path::new(&std::env::var_os("OUT_DIR")?).join("static");
    std::fs::create_dir_all(&dir).ok()?;
    for (name, archives) in LIBRARIES {
        let paths = archives
            .iter()
            .map(|archive| archive_path(archive))
            .collect::<Option<Vec<_>>>()?;
        let script = format!("GROUP({})\n", paths.join(" "));
        std::fs::write(dir.join(format!("lib{name}.a")), script).ok()?;
    }
    Some(dir)
}

/// Where the C compiler finds `archive`, if it does.
fn archive_path(archive: &str) -> Option<String> {
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let output = Command::new(compiler)
        .arg(format!("-print-file-name={archive}"))
        .output()
        .ok()?;
    let path = String::from_utf8(output.stdout).ok()?.trim().to_owned();
    Path::new(&path).is_absolute().then_some(path)
}
