//! Program memories: `.cnpim` files round-trip bit for bit and refuse
//! damage; building is reproducible; adding programs changes nothing that
//! was there (Theorem 1).

use cnpi::diagnostic::codes;
use cnpi_neural::cnpim;
use cnpi_neural::detector::Cache;
use cnpi_neural::memory::{Entry, KEY_DIM, Memory};
use cnpi_neural::tensors::Writer;

use super::{SEED, compile, core, memory_of, neural, source};

const QUICKSORT_INPUT: &str = "[5, 3, 9, 1, -4, 7, 7, 0, 12, -30]";

fn bytes(memory: &Memory) -> Vec<u8> {
    cnpim::write(memory, "cnpic test").expect("writes")
}

#[test]
fn files_round_trip_and_run_the_same() {
    let (_, memory) = memory_of("quicksort.cnpi");
    let file = bytes(&memory);
    let read = cnpim::read(&file, "q.cnpim").expect("reads back");
    assert_eq!(read.m_key, memory.m_key);
    assert_eq!(read.m_prog, memory.m_prog);
    assert_eq!(read.w_key, memory.w_key);
    assert_eq!(read.rows, memory.rows);
    assert!(
        bytes(&read) == file,
        "writing what was read gives the same file"
    );
    for cached in [true, false] {
        assert_eq!(
            neural(&read, 0, QUICKSORT_INPUT, cached),
            neural(&memory, 0, QUICKSORT_INPUT, true)
        );
    }
}

#[test]
fn the_same_source_gives_the_same_memory() {
    let dir = std::env::temp_dir().join(format!("cnpi-neural-cache-{}", std::process::id()));
    let program = compile("toposort.cnpi");
    let text = source("toposort.cnpi");
    let build = |cache: &Cache| {
        bytes(&Memory::with_program(&program, "t.cnpi", &text, SEED, cache).expect("builds"))
    };
    let fresh = build(&Cache::none());
    // Trained, then stored; then read from the cache: the same bytes.
    assert!(build(&Cache::at(&dir)) == fresh);
    assert!(
        std::fs::read_dir(dir.join("detectors"))
            .expect("cache written")
            .count()
            >= 3
    );
    assert!(build(&Cache::at(&dir)) == fresh);
    // A damaged cache entry is only a miss.
    for entry in std::fs::read_dir(dir.join("detectors")).expect("cache") {
        std::fs::write(entry.expect("entry").path(), b"garbage").expect("writable");
    }
    assert!(build(&Cache::at(&dir)) == fresh);
    let other = Memory::with_program(&program, "t.cnpi", &text, SEED + 1, &Cache::none());
    assert!(bytes(&other.expect("builds")) != fresh, "the seed matters");
    std::fs::remove_dir_all(&dir).expect("removable");
}

#[test]
fn files_of_an_earlier_format_are_refused_and_say_so() {
    // Format 2 had no `ram` rows and no declared data; the same bytes
    // labelled with it are refused before anything is read.
    let file = bytes(&memory_of("reverse.cnpi").1);
    let (new, old) = (b"cnpi-memory-3", b"cnpi-memory-2");
    let at = file
        .windows(new.len())
        .position(|w| w == new)
        .expect("the format is in the header");
    let mut labelled = file.clone();
    labelled[at..at + old.len()].copy_from_slice(old);
    let error = cnpim::read(&labelled, "old.cnpim").expect_err("an old format");
    assert_eq!(error.code, codes::E1102);
    assert!(
        error
            .message
            .contains("`cnpi-memory-2`, but this cnpic reads `cnpi-memory-3`"),
        "{}",
        error.message
    );
}

#[test]
fn damaged_files_are_refused_with_e1102() {
    let file = bytes(&memory_of("quicksort.cnpi").1);
    for cut in [0, 8, 100, file.len() / 2, file.len() - 1] {
        let error = cnpim::read(&file[..cut], "q.cnpim").expect_err("truncated");
        assert_eq!(error.code, codes::E1102, "cut at {cut}");
    }
    for at in [20, file.len() / 2, file.len() - 3] {
        let mut damaged = file.clone();
        damaged[at] ^= 0x10;
        let error = cnpim::read(&damaged, "q.cnpim").expect_err("damaged");
        assert_eq!(error.code, codes::E1102, "byte {at}");
    }
    let error = cnpim::read(b"not a memory", "x.cnpim").expect_err("garbage");
    assert!(error.message.contains("x.cnpim"), "{}", error.message);
}

/// `file` with tensor `name` changed by `change` and a correct checksum:
/// tampering that only the loader's checks can catch.
fn rewrite(file: &[u8], name: &str, change: impl Fn(&mut Vec<f32>)) -> Vec<u8> {
    rebuild(
        file,
        |_| (),
        |tensor, values| {
            if tensor == name {
                change(values);
            }
        },
    )
}

/// `file` with its `memory` header changed by `header` and its tensors by
/// `tensors`, and a correct checksum.
fn rebuild(
    file: &[u8],
    header: impl Fn(&mut serde_json::Value),
    tensors: impl Fn(&str, &mut Vec<f32>),
) -> Vec<u8> {
    let stored = safetensors::SafeTensors::deserialize(file).expect("a safetensors file");
    let (_, read) = safetensors::SafeTensors::read_metadata(file).expect("a header");
    let metadata = read.metadata().clone().expect("metadata");
    let mut writer = Writer::new(&metadata["format"]);
    for (key, value) in &metadata {
        match key.as_str() {
            "format" | "checksum" => {}
            "memory" => {
                let mut memory = serde_json::from_str(value).expect("the header is JSON");
                header(&mut memory);
                writer.metadata(key, memory.to_string());
            }
            _ => writer.metadata(key, value.clone()),
        }
    }
    for (tensor, view) in stored.tensors() {
        let mut values: Vec<f32> = view
            .data()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        tensors(&tensor, &mut values);
        writer.tensor(tensor, view.shape(), &values);
    }
    writer.finish()
}

/// A row span moved inside a multi-byte character of the stored source
/// (the file otherwise consistent) is refused when read, not a panic when a
/// diagnostic is drawn from it later.
#[test]
fn spans_inside_a_character_are_refused() {
    let file = bytes(&memory_of("reverse.cnpi").1);
    let edited = rebuild(
        &file,
        |memory| {
            let rows = memory["rows"].as_array().expect("rows");
            let row = rows
                .iter()
                .find(|row| row["unit"] == 0)
                .expect("an applier row");
            let start = row["span"][0].as_u64().expect("a span") as usize;
            let source = memory["units"][0]["source"].as_str().expect("a source");
            // `é` is two bytes: the row's span now starts on its second byte.
            let edited = format!("{}é{}", &source[..start - 1], &source[start - 1..]);
            memory["units"][0]["source"] = edited.into();
        },
        |_, _| (),
    );
    let error = cnpim::read(&edited, "t.cnpim").expect_err("refused");
    assert_eq!(error.code, codes::E1102);
    assert!(
        error.message.contains("inside a character"),
        "{}",
        error.message
    );
}

/// A change to a tensor's values.
type Change = Box<dyn Fn(&mut Vec<f32>)>;

#[test]
fn consistent_but_wrong_memories_are_refused() {
    let (_, memory) = memory_of("quicksort.cnpi");
    let file = bytes(&memory);
    assert!(cnpim::read(&rewrite(&file, "m_key", |_| ()), "same").is_ok());
    let last = memory.detectors.len() - 1;
    let cases: [(&str, Change, &str); 4] = [
        (
            &format!("detector.{last}.b2"),
            Box::new(|b: &mut Vec<f32>| b[0] = -b[0] - 100.0),
            "fails verification",
        ),
        (
            "m_key",
            Box::new(|k: &mut Vec<f32>| {
                let first = k[..KEY_DIM].to_vec();
                let n = k.len();
                k[n - KEY_DIM..].copy_from_slice(&first);
            }),
            "is not the key of row",
        ),
        (
            "m_prog",
            Box::new(|p: &mut Vec<f32>| {
                let n = p.len();
                p[n - 3 * KEY_DIM] = 99.0;
            }),
            "does not parse",
        ),
        (
            "m_kind",
            Box::new(|k: &mut Vec<f32>| k[0] = 7.5),
            "no valid kind",
        ),
    ];
    for (tensor, change, why) in cases {
        let error = cnpim::read(&rewrite(&file, tensor, change), "t.cnpim").expect_err(why);
        assert_eq!(error.code, codes::E1102);
        assert!(error.message.contains(why), "{tensor}: {}", error.message);
    }
}

#[test]
fn adding_programs_changes_nothing_that_was_there() {
    // Theorem 1: after adding appliers and detectors, every earlier row,
    // key and detector, the core and the combinator embeddings are
    // bit-identical, and every earlier program gives identical results.
    let core_before = core().network().weights().clone();
    let (_, first) = memory_of("quicksort.cnpi");
    let before = cnpim::read(&bytes(&first), "before.cnpim").expect("reads");
    let mut grown = before.clone();
    for file in [
        "bubblesort.cnpi",
        "toposort.cnpi",
        "addition.cnpi",
        "reverse.cnpi",
        "ram/prefix_sums.cnpi",
    ] {
        grown
            .add(&compile(file), file, &source(file), &Cache::none())
            .expect("adds");
    }
    let grown = cnpim::read(&bytes(&grown), "grown.cnpim").expect("reads");
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    let rows = before.rows.len();
    assert!(grown.rows.len() > rows + 20);
    assert_eq!(bits(&grown.m_key[..rows * KEY_DIM]), bits(&before.m_key));
    assert_eq!(
        bits(&grown.m_prog[..before.m_prog.len()]),
        bits(&before.m_prog)
    );
    assert_eq!(grown.rows[..rows], before.rows[..]);
    let detectors = before.detectors.len();
    assert_eq!(
        bits(&grown.w_key[..detectors * KEY_DIM]),
        bits(&before.w_key)
    );
    for (old, new) in before.detectors.iter().zip(&grown.detectors) {
        assert_eq!(new.detector.classifier(), old.detector.classifier());
        assert_eq!(new.text, old.text);
    }
    assert_eq!(core().network().weights(), &core_before);
    for input in [
        "[]",
        "[1]",
        QUICKSORT_INPUT,
        "[3, 3, 3, -9223372036854775808]",
    ] {
        for cached in [true, false] {
            let old = neural(&before, 0, input, cached).expect("runs");
            assert_eq!(neural(&grown, 0, input, cached), Ok(old), "{input}");
        }
    }
    assert_eq!(
        grown.entry(Some("BUBBLESORT")),
        Ok(Entry {
            unit: 1,
            row: grown.units[1].entry
        })
    );
    let sum = neural(&grown, 3, r#"{"a": "95", "b": "1207"}"#, true).expect("adds");
    assert_eq!(sum.state.to_json(0, "")["sum"], "1302");
    let sums = neural(&grown, 5, r#"{"A": [5, -2, 9, 0]}"#, true).expect("sums");
    assert_eq!(
        sums.state.to_json(0, "")["A"],
        serde_json::json!([5, 3, 12, 12])
    );
}

/// A memory whose rows were edited and its checksum made consistent again
/// loads and runs, wrongly: `memory verify` and `--cross-check` say that
/// it disagrees with the source it stores (not that cnpic has a bug).
#[test]
fn edited_memories_disagree_with_their_sources() {
    use super::cli::{cnpic, scratch, stderr};
    let dir = scratch("edited");
    let (_, memory) = memory_of("bubblesort.cnpi");
    let compswap = (memory.rows.iter().position(|r| r.name == "COMPSWAP")).expect("a row");
    let good = dir.join("good.cnpim");
    std::fs::write(&good, bytes(&memory)).expect("writable");
    // COMPSWAP's a1 (the SWAP) and a3 (NOP) swapped: it now swaps the
    // pairs that are in order, and sorts the wrong way.
    let edited = rewrite(&bytes(&memory), "m_prog", |p| {
        let a1 = (compswap * 5 + 2) * KEY_DIM;
        let (first, rest) = p[a1..a1 + 3 * KEY_DIM].split_at_mut(KEY_DIM);
        first.swap_with_slice(&mut rest[KEY_DIM..]);
    });
    let bad = dir.join("bad.cnpim");
    std::fs::write(&bad, edited).expect("writable");
    let (good, bad) = (good.to_str().expect("utf-8"), bad.to_str().expect("utf-8"));

    let verified = cnpic(&["memory", "verify", good], &dir);
    assert_eq!(verified.status.code(), Some(0), "{}", stderr(&verified));
    let refused = cnpic(&["memory", "verify", bad], &dir);
    assert_eq!(refused.status.code(), Some(1));
    let why = stderr(&refused);
    assert!(
        why.contains("[E1102]") && why.contains("`COMPSWAP`"),
        "{why}"
    );

    let input = ["--input", "[3, 1, 2]", "--cross-check"];
    let checked = cnpic(&[&["run", bad][..], &input].concat(), &dir);
    assert_eq!(checked.status.code(), Some(1));
    let why = stderr(&checked);
    assert!(
        why.contains("disagrees with the sources it stores"),
        "{why}"
    );
    assert!(!why.contains("bug in cnpic"), "{why}");
    std::fs::remove_dir_all(&dir).expect("removable");
}

/// Issue 29: a memory whose program's environment was edited (`array` to
/// `graph`, the checksum made consistent) is refused by `memory verify`,
/// which rebuilds against what the stored source declares.
#[test]
fn an_edited_environment_is_refused_by_verify() {
    use super::cli::{cnpic, scratch, stderr};
    let dir = scratch("edited-env");
    let file = bytes(&memory_of("reverse.cnpi").1);
    let edited = rebuild(
        &file,
        |memory| memory["units"][0]["env"] = "graph".into(),
        |_, _| (),
    );
    let path = dir.join("edited.cnpim");
    std::fs::write(&path, edited).expect("writable");
    let refused = cnpic(&["memory", "verify", path.to_str().expect("utf-8")], &dir);
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    let why = stderr(&refused);
    assert!(
        why.contains("[E1102]") && why.contains("its environment: `graph`"),
        "{why}"
    );
    std::fs::remove_dir_all(&dir).expect("removable");
}
