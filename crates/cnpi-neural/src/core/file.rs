//! Core files: safetensors with the weights and what produced them.
//!
//! A core file holds the nine tensors of [`Weights::tensors`] as `F32` and a
//! metadata map: the format tag, the combinators in embedding order, the
//! cell count, the seed, the epochs trained, the command line, the cnpi
//! version, the verification summary, and a checksum (64-bit FNV-1a over
//! every tensor and every other metadata entry). The checksum catches
//! truncation, bit rot and hand edits, not a deliberate forger; verification
//! at load time is what guarantees behaviour. Reading never panics: every
//! problem is an E10xx diagnostic naming the file.

use super::network::Weights;
use crate::tensors::{OpenError, Reader, Writer};
use cnpi::diagnostic::{Diagnostic, codes};

/// The value of the `format` metadata entry.
pub const FORMAT: &str = "cnpi-core-1";
/// More cells than any core needs; the bound keeps shape arithmetic small.
const MAX_CELLS: usize = 1 << 16;

/// What a core file says about its origin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metadata {
    /// The combinators, in embedding order.
    pub combinators: Vec<String>,
    pub seed: u64,
    pub epochs: usize,
    /// The command line that wrote the file.
    pub command: String,
    /// The cnpi version that wrote it.
    pub version: String,
    /// The verification summary at training time.
    pub verification: String,
}

/// Serialises a core (with `cnpim::tensors`, which writes the header
/// itself so that the same weights and metadata always give the same
/// bytes).
pub fn write(weights: &Weights, metadata: &Metadata) -> Vec<u8> {
    let mut writer = Writer::new(FORMAT);
    for (key, value) in [
        ("combinators", metadata.combinators.join(",")),
        ("cells", weights.cells().to_string()),
        ("seed", metadata.seed.to_string()),
        ("epochs", metadata.epochs.to_string()),
        ("command", metadata.command.clone()),
        ("cnpi_version", metadata.version.clone()),
        ("verification", metadata.verification.clone()),
    ] {
        writer.metadata(key, value);
    }
    for (name, shape, values) in weights.tensors() {
        writer.tensor(name, &shape, values);
    }
    writer.finish()
}

/// Parses and checks a core file (format, checksum, shapes, finite
/// weights). `name` is how diagnostics refer to it.
pub fn read(bytes: &[u8], name: &str) -> Result<(Weights, Metadata), Diagnostic> {
    let malformed = |why: String| {
        Diagnostic::error(
            codes::E1002,
            format!("`{name}` is not a valid core file: {why}"),
        )
        .with_help("regenerate it with `cnpic train-core`, or use the shipped core")
    };
    let file = Reader::open(bytes, FORMAT).map_err(|error| match error {
        OpenError::Malformed(why) => malformed(why),
        OpenError::Modified => Diagnostic::error(
            codes::E1003,
            format!("`{name}` was modified or damaged: its checksum does not match its contents"),
        )
        .with_help("regenerate it with `cnpic train-core`, or use the shipped core"),
    })?;
    let entry = |key: &str| file.metadata(key).map_err(&malformed);
    let number = |key: &str| -> Result<u64, Diagnostic> {
        entry(key)?
            .parse()
            .map_err(|_| malformed(format!("`{key}` is not a number")))
    };
    let metadata = Metadata {
        combinators: entry("combinators")?
            .split(',')
            .map(str::to_string)
            .collect(),
        seed: number("seed")?,
        epochs: usize::try_from(number("epochs")?).map_err(|e| malformed(e.to_string()))?,
        command: entry("command")?.to_string(),
        version: entry("cnpi_version")?.to_string(),
        verification: entry("verification")?.to_string(),
    };
    let cells = usize::try_from(number("cells")?).map_err(|e| malformed(e.to_string()))?;
    if !(1..=MAX_CELLS).contains(&cells) {
        return Err(malformed(format!(
            "it has {cells} cells (1 to {MAX_CELLS} are possible)"
        )));
    }
    // Shapes are checked before anything is allocated: safetensors has
    // already checked that each tensor's data is in the file.
    let shapes = Weights::shapes(cells, metadata.combinators.len());
    let mut weights = Weights::empty(cells);
    for ((tensor, values), shape) in weights.tensors_mut().zip(shapes) {
        *values = file.tensor(tensor, &shape).map_err(&malformed)?;
    }
    Ok((weights, metadata))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metadata(combinators: usize) -> Metadata {
        Metadata {
            combinators: (0..combinators).map(|i| format!("c{i}")).collect(),
            seed: 7,
            epochs: 3,
            command: "cnpic train-core --seed 7".to_string(),
            version: "0.1.0".to_string(),
            verification: "passed".to_string(),
        }
    }

    fn weights() -> Weights {
        let mut weights = Weights::zeros(3, 2);
        for (i, (_, values)) in weights.tensors_mut().enumerate() {
            for (j, value) in values.iter_mut().enumerate() {
                *value = (i * 100 + j) as f32 / 7.0;
            }
        }
        weights
    }

    fn error_code(result: Result<(Weights, Metadata), Diagnostic>) -> &'static str {
        match result {
            Ok(_) => panic!("the file was accepted"),
            Err(diagnostic) => diagnostic.code.0,
        }
    }

    #[test]
    fn a_written_core_reads_back_identically_and_deterministically() {
        let bytes = write(&weights(), &metadata(2));
        assert_eq!(bytes, write(&weights(), &metadata(2)));
        let (read_weights, read_metadata) = read(&bytes, "core").expect("a fresh file reads");
        assert_eq!(read_weights, weights());
        assert_eq!(read_metadata, metadata(2));
    }

    #[test]
    fn the_shipped_core_is_written_back_byte_for_byte() {
        let (weights, metadata) = read(super::super::SHIPPED, "shipped").expect("reads");
        assert!(write(&weights, &metadata) == super::super::SHIPPED);
    }

    #[test]
    fn every_flipped_byte_and_every_truncation_is_refused() {
        let bytes = write(&weights(), &metadata(2));
        for at in (0..bytes.len()).step_by(7) {
            let mut tampered = bytes.clone();
            tampered[at] ^= 0x10;
            let code = error_code(read(&tampered, "core"));
            assert!(code == "E1002" || code == "E1003", "byte {at}: {code}");
        }
        let data_byte = bytes.len() - 5;
        let mut tampered = bytes.clone();
        tampered[data_byte] ^= 1;
        assert_eq!(error_code(read(&tampered, "core")), "E1003");
        for length in [0, 5, 8, 100, bytes.len() - 1] {
            assert_eq!(error_code(read(&bytes[..length], "core")), "E1002");
        }
    }

    #[test]
    fn an_absurd_cell_count_is_refused_before_anything_is_allocated() {
        let mut writer = Writer::new(FORMAT);
        for (key, value) in [
            ("combinators", "c0,c1".to_string()),
            ("cells", (1u64 << 40).to_string()),
            ("seed", "1".to_string()),
            ("epochs", "1".to_string()),
            ("command", String::new()),
            ("cnpi_version", String::new()),
            ("verification", String::new()),
        ] {
            writer.metadata(key, value);
        }
        writer.tensor("end.bias", &[1], &[0.0]);
        let error = read(&writer.finish(), "core").err().map(|d| d.message);
        assert!(error.is_some_and(|m| m.contains("cells")));
    }

    #[test]
    fn wrong_shapes_and_non_finite_weights_are_refused() {
        // Two embeddings in the tensors, three combinators in the metadata.
        let wrong_shape = write(&weights(), &metadata(3));
        let error = read(&wrong_shape, "core").err().map(|d| d.message);
        assert!(error.is_some_and(|m| m.contains("embedding")));
        for bad in [f32::NAN, f32::INFINITY] {
            let mut weights = weights();
            weights.w_prog[4] = bad;
            let bytes = write(&weights, &metadata(2));
            assert_eq!(error_code(read(&bytes, "core")), "E1002");
        }
    }
}
