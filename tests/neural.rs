//! The neural engine agrees with the reference interpreter.

use cnpi::neural::core::Core;
use cnpi::neural::detector::Cache;
use cnpi::neural::memory::Memory;
use cnpi::neural::runtime::{self, Options};
use cnpi::symbolic::{self, RunOptions};

fn example(file: &str) -> (cnpi::program::Program, String) {
    let path = format!("{}/examples/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("example exists");
    let program = cnpi::compile::compile(file, &text, None)
        .program
        .expect("example compiles");
    (program, text)
}

#[test]
fn smoke() {
    for (file, input) in [
        ("bubblesort.cnpi", "[5,3,9,1,-4]"),
        ("quicksort.cnpi", "[5,3,9,1,-4,7,7,0]"),
        ("toposort.cnpi", r#"{"graph": [[1, 2], [3], [3], []]}"#),
        ("addition.cnpi", r#"{"a": "1207", "b": "995"}"#),
    ] {
        let (program, text) = example(file);
        let mut memory = Memory::new(7, &Cache::none()).expect("memory");
        let unit = memory.add(&program, file, &text, &Cache::none()).expect("adds");
        let core = Core::shipped().expect("core");
        let state = cnpi::env::parse_input(program.env, input).unwrap();
        let reference = symbolic::run(&program, state.clone(), RunOptions { max_steps: 1 << 40, trace: None }).unwrap();
        for cached in [true, false] {
            let entry = memory.units[unit].entry;
            let outcome = runtime::run(core, &memory, unit, entry, state.clone(), Options { max_steps: 1 << 40, cached, trace: None }).unwrap();
            assert_eq!(outcome, reference, "{file} cached={cached}");
        }
    }
}
