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

use std::collections::BTreeMap;

use safetensors::{Dtype, SafeTensors, tensor::TensorView};

use super::network::Weights;
use crate::diagnostic::{Diagnostic, codes};

/// The value of the `format` metadata entry.
const FORMAT: &str = "cnpi-core-1";
const CHECKSUM: &str = "checksum";
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

/// Serialises a core. The header is written here rather than by
/// `safetensors::serialize`, whose metadata map is a `HashMap` that comes
/// out in a different order every run: with sorted keys, the same weights
/// and metadata always give the same bytes.
pub fn write(weights: &Weights, metadata: &Metadata) -> Vec<u8> {
    let info = BTreeMap::from([
        ("format".to_string(), FORMAT.to_string()),
        ("combinators".to_string(), metadata.combinators.join(",")),
        ("cells".to_string(), weights.cells.to_string()),
        ("seed".to_string(), metadata.seed.to_string()),
        ("epochs".to_string(), metadata.epochs.to_string()),
        ("command".to_string(), metadata.command.clone()),
        ("cnpi_version".to_string(), metadata.version.clone()),
        ("verification".to_string(), metadata.verification.clone()),
    ]);
    let tensors = weights
        .tensors()
        .map(|(name, shape, values)| (name, shape, to_bytes(values)))
        .collect();
    encode(tensors, info)
}

/// The safetensors bytes of `tensors` with the metadata `info` plus its
/// checksum.
fn encode(
    mut tensors: Vec<(&str, Vec<usize>, Vec<u8>)>,
    mut info: BTreeMap<String, String>,
) -> Vec<u8> {
    tensors.sort_by_key(|(name, ..)| *name);
    let fields: Vec<Field> = tensors
        .iter()
        .map(|(n, s, d)| (*n, s.as_slice(), d.as_slice()))
        .collect();
    let checksum = checksum(fields, &info);
    info.insert(CHECKSUM.to_string(), format!("{checksum:016x}"));
    let mut header = serde_json::Map::new();
    header.insert("__metadata__".to_string(), serde_json::json!(info));
    let mut offset = 0;
    for (name, shape, data) in &tensors {
        let entry = serde_json::json!({
            "dtype": "F32",
            "shape": shape,
            "data_offsets": [offset, offset + data.len()],
        });
        header.insert(name.to_string(), entry);
        offset += data.len();
    }
    let mut header = serde_json::Value::Object(header).to_string().into_bytes();
    // safetensors pads the header with spaces to a multiple of 8 bytes.
    header.resize(header.len().next_multiple_of(8), b' ');
    let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
    bytes.extend(header);
    for (_, _, data) in tensors {
        bytes.extend(data);
    }
    bytes
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
    let file = SafeTensors::deserialize(bytes)
        .map_err(|e| malformed(format!("{e} (is it truncated or not a safetensors file?)")))?;
    let (_, header) = SafeTensors::read_metadata(bytes).map_err(|e| malformed(e.to_string()))?;
    let info = header.metadata().clone().unwrap_or_default();
    let entry = |key: &str| {
        info.get(key)
            .ok_or_else(|| malformed(format!("no `{key}` entry")))
    };
    if entry("format")? != FORMAT {
        return Err(malformed(format!("its format is not `{FORMAT}`")));
    }
    let stored = entry(CHECKSUM)?;
    let tensors: Vec<(String, TensorView)> = file.tensors();
    let fields: Vec<Field> = tensors
        .iter()
        .map(|(name, view)| (name.as_str(), view.shape(), view.data()))
        .collect();
    let mut rest: BTreeMap<String, String> = info.clone().into_iter().collect();
    rest.remove(CHECKSUM);
    let actual = checksum(fields, &rest);
    if *stored != format!("{actual:016x}") {
        return Err(Diagnostic::error(
            codes::E1003,
            format!("`{name}` was modified or damaged: its checksum does not match its contents"),
        )
        .with_help("regenerate it with `cnpic train-core`, or use the shipped core"));
    }
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
        command: entry("command")?.clone(),
        version: entry("cnpi_version")?.clone(),
        verification: entry("verification")?.clone(),
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
        let view = file
            .tensor(tensor)
            .map_err(|_| malformed(format!("it has no tensor `{tensor}`")))?;
        if view.dtype() != Dtype::F32 || view.shape() != shape.as_slice() {
            return Err(malformed(format!(
                "tensor `{tensor}` is {:?} {:?}, expected F32 {shape:?}",
                view.dtype(),
                view.shape()
            )));
        }
        *values = from_bytes(view.data());
        if values.iter().any(|v| !v.is_finite()) {
            return Err(malformed(format!(
                "tensor `{tensor}` holds a NaN or infinite weight"
            )));
        }
    }
    Ok((weights, metadata))
}

fn to_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn from_bytes(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// A tensor as the checksum sees it: name, shape, bytes.
type Field<'a> = (&'a str, &'a [usize], &'a [u8]);

/// 64-bit FNV-1a over the tensors (sorted by name) and the metadata
/// entries (sorted by key).
fn checksum(mut tensors: Vec<Field>, info: &BTreeMap<String, String>) -> u64 {
    tensors.sort_by_key(|(name, ..)| *name);
    let mut hash = Fnv(0xcbf2_9ce4_8422_2325);
    for (name, shape, data) in tensors {
        hash.field(name.as_bytes());
        hash.field(format!("{shape:?}").as_bytes());
        hash.field(data);
    }
    for (key, value) in info {
        hash.field(key.as_bytes());
        hash.field(value.as_bytes());
    }
    hash.0
}

struct Fnv(u64);

impl Fnv {
    /// Hashes `bytes` and then its length, so fields cannot run together.
    fn field(&mut self, bytes: &[u8]) {
        for &byte in bytes.iter().chain(&(bytes.len() as u64).to_le_bytes()) {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
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
        let info = BTreeMap::from([
            ("format".to_string(), FORMAT.to_string()),
            ("combinators".to_string(), "c0,c1".to_string()),
            ("cells".to_string(), (1u64 << 40).to_string()),
            ("seed".to_string(), "1".to_string()),
            ("epochs".to_string(), "1".to_string()),
            ("command".to_string(), String::new()),
            ("cnpi_version".to_string(), String::new()),
            ("verification".to_string(), String::new()),
        ]);
        let bytes = encode(vec![("end.bias", vec![1], vec![0; 4])], info);
        let error = read(&bytes, "core").err().map(|d| d.message);
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
