//! Build script of `cnpic`. By default it does nothing: cargo links the
//! binary as it links any other. With the feature `fast-start` (`cargo
//! build --release -p cnpic --features fast-start`, see the README), for
//! those who want about half a millisecond less CPU at every start, the
//! binary's link alone changes in the ways below; the code is compiled as
//! usual, and the tests and the Python module link as before. These are
//! link tricks a future rustc or linker may break, which is why they are
//! not the default.
//!
//! On Linux the binary is linked as a position-dependent executable
//! (`-no-pie`). A position-independent one has the dynamic loader apply
//! about 10,000 relocations to the binary's own tables at every start,
//! writing (so copying) each page they lie on; a position-dependent one
//! has them resolved when it is linked. The price: the binary's own code
//! and data are loaded at a fixed address (no address randomisation for
//! them; the shared libraries, stack and heap keep it).
//!
//! Built for the machine's own glibc target, where the C compiler finds
//! glibc's and libgcc's static archives, the binary is also linked
//! statically (`-static`): no dynamic loader, no shared libraries to map,
//! resolve and relocate at every start. rustc names the system libraries
//! it links against (`-lc`, `-lgcc_s`, ...) after `-Bdynamic`, which would
//! pick their shared objects, so this script writes, for the binary's link
//! alone, a directory of linker scripts with those names that stand for
//! the static archives (`-lgcc_s` for libgcc's unwinder, `libgcc_eh.a`),
//! searched first. What `+crt-static` would do, for the binary only: in
//! `.cargo/config.toml` it applies to every crate, and the proc-macros and
//! the Python module's cdylib do not build with it. Elsewhere (another
//! target, or no archives) the binary links dynamically.
//!
//! Where rustc links with its own lld (its default on
//! `x86_64-unknown-linux-gnu` since 1.90, unless a linker is configured),
//! the functions a small run executes (`start-up-symbols.txt`) are laid
//! out first and together: a one-element run then touches 34 fewer pages.
//! lld writes its output through a shared mapping of the file (rustc's
//! lld 22 ignores `--no-mmap-output-file` there), so the page cache holds
//! the fresh binary in single pages, and a start takes a fault for every
//! 64 KiB of code it touches; a file written by `write` (or `cp`) is held
//! in large folios, which a fault maps whole. So the link goes through
//! `rewriting-linker.sh` (as `ld.gold` in a directory of this script's,
//! which `-fuse-ld=gold` finds there after rustc's own `-B` directory):
//! rustc's lld, then the binary copied over itself. The bytes are the
//! same; a one-element run takes 104 faults instead of 114.

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
    if std::env::var_os("CARGO_FEATURE_FAST_START").is_none() {
        return;
    }
    println!("cargo:rerun-if-env-changed=CC");
    if std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux") {
        println!("cargo:rustc-link-arg-bin=cnpic=-no-pie");
        if native_gnu()
            && let Some(dir) = static_scripts()
        {
            println!("cargo:rustc-link-arg-bin=cnpic=-L{}", dir.display());
            println!("cargo:rustc-link-arg-bin=cnpic=-static");
        }
        if default_lld() {
            let symbols = Path::new(env!("CARGO_MANIFEST_DIR")).join("start-up-symbols.txt");
            println!("cargo:rerun-if-changed={}", symbols.display());
            let ordering = format!("-Wl,--symbol-ordering-file={}", symbols.display());
            println!("cargo:rustc-link-arg-bin=cnpic={ordering}");
            println!("cargo:rustc-link-arg-bin=cnpic=-Wl,--no-warn-symbol-ordering");
            println!("cargo:rerun-if-changed=rewriting-linker.sh");
            if native_gnu()
                && let Some(dir) = rewriting_linker()
            {
                println!("cargo:rustc-link-arg-bin=cnpic=-B{}", dir.display());
                println!("cargo:rustc-link-arg-bin=cnpic=-fuse-ld=gold");
            }
        }
    }
}

/// True when rustc links with its own lld: its default for
/// `x86_64-unknown-linux-gnu` from 1.90 on, when no linker, linker flavour
/// or self-contained linking is configured.
fn default_lld() -> bool {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let flags = var("CARGO_ENCODED_RUSTFLAGS");
    if var("TARGET") != "x86_64-unknown-linux-gnu"
        || std::env::var_os("RUSTC_LINKER").is_some()
        || flags.contains("link")
    {
        return false;
    }
    let version = Command::new(var("RUSTC")).arg("--version").output();
    let text = version.map(|v| String::from_utf8_lossy(&v.stdout).into_owned());
    // "rustc 1.95.0 (...)": the minor version.
    let minor = text.ok().and_then(|text| {
        let number = text.split_whitespace().nth(1)?.to_owned();
        number.split('.').nth(1)?.parse::<u32>().ok()
    });
    minor.is_some_and(|minor| minor >= 90)
}

/// A directory holding `ld.gold`, a script that links with rustc's own
/// lld and then writes the binary again with `cp` (see the file's doc), or
/// `None` where rustc's lld is not where it is expected.
fn rewriting_linker() -> Option<PathBuf> {
    let rustc = std::env::var("RUSTC").ok()?;
    let sysroot = Command::new(rustc)
        .args(["--print", "sysroot"])
        .output()
        .ok()?;
    let sysroot = String::from_utf8(sysroot.stdout).ok()?;
    let lld = Path::new(sysroot.trim())
        .join("lib/rustlib")
        .join(std::env::var("TARGET").ok()?)
        .join("bin/gcc-ld/ld.lld");
    let lld = lld.to_str().filter(|path| !path.contains('\''))?;
    if !Path::new(lld).is_file() {
        return None;
    }
    let dir = Path::new(&std::env::var_os("OUT_DIR")?).join("linker");
    std::fs::create_dir_all(&dir).ok()?;
    let script = dir.join("ld.gold");
    let text = include_str!("rewriting-linker.sh").replace("{lld}", lld);
    std::fs::write(&script, text).ok()?;
    executable(&script)?;
    Some(dir)
}

/// Makes `path` executable.
#[cfg(unix)]
fn executable(path: &Path) -> Option<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).ok()
}

#[cfg(not(unix))]
fn executable(_: &Path) -> Option<()> {
    None
}

/// True when building for this machine's own `*-linux-gnu` target: the
/// archives the C compiler finds are then the target's.
fn native_gnu() -> bool {
    let var = |name: &str| std::env::var(name).ok();
    var("CARGO_CFG_TARGET_ENV").as_deref() == Some("gnu") && var("TARGET") == var("HOST")
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
