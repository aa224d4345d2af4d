//! Combinators a program defines, on the network: learned on the frozen
//! shipped core, stored in the memory and its file, verified before a
//! run, refused when their stored embedding does not verify, and adding
//! them changes nothing that was there (Theorem 1, bit for bit).

use cnpi::diagnostic::codes;
use cnpi_neural::cnpim;
use cnpi_neural::core::embedding::{self, Extended, canonical, learn, verify};
use cnpi_neural::detector::Cache;
use cnpi_neural::memory::{EMBED_DIM, KEY_DIM, RowKind};

use super::{SEED, compile, core, memory_of, neural, reference, source};

const FILE: &str = "user_combinator.cnpi";
const INPUT: &str = "[5, 8, 1, 9, 4, -2, 7]";

fn bits(values: &[f32]) -> Vec<u32> {
    values.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn a_defined_combinator_runs_as_on_the_reference_interpreter() {
    let (program, memory) = memory_of(FILE);
    assert_eq!(memory.combinators.len(), 2);
    let want = reference(&program, INPUT).expect("runs");
    for cached in [true, false] {
        assert_eq!(neural(&memory, 0, INPUT, cached), Ok(want.clone()));
    }
    // Through the file: the embeddings are read back, not learned again.
    let file = cnpim::write(&memory, "cnpic test").expect("writes");
    let read = cnpim::read(&file, "u.cnpim").expect("reads back");
    assert_eq!(read.combinators, memory.combinators);
    assert_eq!(bits(&read.m_prog), bits(&memory.m_prog));
    assert_eq!(neural(&read, 0, INPUT, true), Ok(want));
}

#[test]
fn adding_a_defined_combinator_changes_no_existing_bit() {
    let core = core();
    let weights = core.network().weights().clone();
    let (_, mut memory) = memory_of("reverse.cnpi");
    let before = memory.clone();
    memory
        .add(&compile(FILE), FILE, &source(FILE), &Cache::none())
        .expect("adds");
    let rows = before.rows.len();
    assert!(
        memory.rows[rows..]
            .iter()
            .any(|r| r.kind == RowKind::Defined)
    );
    assert_eq!(bits(&memory.m_key[..rows * KEY_DIM]), bits(&before.m_key));
    assert_eq!(
        bits(&memory.m_prog[..rows * EMBED_DIM]),
        bits(&before.m_prog)
    );
    assert_eq!(memory.rows[..rows], before.rows[..]);
    assert_eq!(
        bits(&memory.w_key[..before.w_key.len()]),
        bits(&before.w_key)
    );
    // The core is untouched, and the extended network holds it bit for
    // bit: every tensor, the five embeddings, and their decisions.
    assert_eq!(core.network().weights(), &weights);
    let defined: Vec<_> = memory
        .combinators
        .iter()
        .map(|d| {
            let row = memory.embedding(d.row);
            let h = row[..core.cells()].to_vec();
            let c = row[core.cells()..2 * core.cells()].to_vec();
            let name = memory.rows[d.row].name.as_str();
            (name, &d.behaviour, cnpi_neural::core::CoreState { h, c })
        })
        .collect();
    let extended = Extended::new(core, &defined).expect("verifies");
    let grown = extended.network().weights();
    for ((name, _, old), (_, _, new)) in weights.tensors().zip(grown.tensors()) {
        if name.starts_with("embedding") {
            assert_eq!(bits(&new[..old.len()]), bits(old), "{name}");
            assert_eq!(new.len(), old.len() + 2 * core.cells());
        } else {
            assert_eq!(bits(new), bits(old), "{name}");
        }
    }
    let table = core.decision_table();
    for index in 0..5 {
        for length in 1..=table.depth_at(index) {
            for code in 0..1u32 << length {
                let prefix: Vec<bool> = (0..length).map(|i| code >> i & 1 == 1).collect();
                assert_eq!(
                    extended.table().decision_at(index, &prefix),
                    table.decision_at(index, &prefix)
                );
            }
        }
    }
    // The earlier program still runs the same.
    let input = "[3, 1, 2, 9]";
    assert_eq!(
        neural(&memory, 0, input, true),
        neural(&before, 0, input, true)
    );
}

#[test]
fn a_stored_embedding_that_fails_verification_is_refused() {
    let (_, mut memory) = memory_of(FILE);
    let row = memory.combinators[0].row;
    for value in &mut memory.m_prog[row * EMBED_DIM..(row + 1) * EMBED_DIM] {
        *value = 0.0;
    }
    let error = neural(&memory, 0, INPUT, true).expect_err("refused");
    assert_eq!(error.code, codes::E1109);
    // The same error meets a source file run with `--core`: the help
    // speaks of the program, not only of a memory file.
    let help = error.help.expect("a help line");
    assert!(
        help.contains("run the program there (without `--core`)"),
        "{help}"
    );
}

#[test]
fn learning_is_seeded_cached_and_verified() {
    let program = compile(FILE);
    let defined = &program.combinators.defined[1];
    let dir = std::env::temp_dir().join(format!("cnpi-usercomb-cache-{}", std::process::id()));
    let cache = Cache::at(&dir);
    let learned = learn(core(), "repeat", &defined.behaviour, SEED, &cache).expect("learns");
    assert!(learned.attempts >= 1);
    assert!(verify(core(), "repeat", &defined.behaviour, &learned.embedding).passed());
    let again = learn(core(), "repeat", &defined.behaviour, SEED, &Cache::none()).expect("learns");
    assert_eq!(
        again.embedding, learned.embedding,
        "the same seed, the same bits"
    );
    let cached = learn(core(), "repeat", &defined.behaviour, SEED, &cache).expect("cached");
    assert_eq!(
        (cached.attempts, &cached.embedding),
        (0, &learned.embedding)
    );
    // A damaged entry is a miss, and learning starts again.
    for entry in std::fs::read_dir(dir.join("combinators")).expect("cache written") {
        std::fs::write(entry.expect("entry").path(), b"garbage").expect("writable");
    }
    let relearned = learn(core(), "repeat", &defined.behaviour, SEED, &cache).expect("learns");
    assert_eq!(relearned.embedding, learned.embedding);
    assert!(canonical(&defined.behaviour).starts_with("    if c:\n        a1\n        self\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_member_of_the_family_is_learned_on_the_shipped_core_which_stays_as_it_was() {
    let core = core();
    let weights = core.network().weights().clone();
    let members = cnpi::stdlib::full_set::full_set().expect("full_set.cnpi loads");
    assert_eq!(members.len(), 57);
    for member in members {
        let learned = learn(
            core,
            &member.name,
            &member.behaviour,
            embedding::SEED,
            &Cache::none(),
        )
        .unwrap_or_else(|refused| panic!("{} refused: {}", member.name, refused.0));
        assert!(learned.attempts >= 1);
        let verification = verify(core, &member.name, &member.behaviour, &learned.embedding);
        assert!(verification.passed(), "{}", member.name);
    }
    assert_eq!(core.network().weights(), &weights);
}

#[test]
fn an_embedding_depends_on_the_body_and_the_core_not_on_the_memory_seed() {
    use cnpi_neural::memory::Memory;
    let program = compile(FILE);
    let text = source(FILE);
    let rows = |seed: u64| {
        let memory =
            Memory::with_program(&program, FILE, &text, seed, &Cache::none()).expect("builds");
        let rows: Vec<Vec<u32>> = (memory.combinators.iter())
            .map(|d| bits(memory.embedding(d.row)))
            .collect();
        (rows, bits(&memory.m_key))
    };
    let (one, keys_one) = rows(1);
    let (other, keys_other) = rows(2018);
    assert_eq!(one.len(), 2);
    assert_eq!(one, other);
    assert_ne!(keys_one, keys_other);
}
