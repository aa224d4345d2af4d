//! Build script of `cnpic`: on Linux the binary is linked as a
//! position-dependent executable (`-no-pie`). A position-independent one
//! has the dynamic loader apply about 10,000 relocations to the binary's
//! own tables at every start, writing (so copying) each page they lie on;
//! a position-dependent one has them resolved when it is linked. Only the
//! binary's link changes: the code is compiled as usual, and the tests and
//! the Python module link as before. The price: the binary's own code and
//! data are loaded at a fixed address (no address randomisation for them;
//! the shared libraries, stack and heap keep it).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux") {
        println!("cargo:rustc-link-arg-bin=cnpic=-no-pie");
    }
}
