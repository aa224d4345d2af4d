//! Checked safetensors files: named `F32` tensors, string metadata, and a
//! checksum over both.
//!
//! Core files, program-memory files and the detector cache are written
//! with [`Writer`] and read with [`Reader`]. The checksum (64-bit FNV-1a
//! over every tensor's name, shape and bytes and every other metadata
//! entry, in sorted order) catches truncation, bit rot and hand edits; what
//! the numbers mean is checked by the readers of each format. Reading never
//! panics: every problem is an [`OpenError`] or an error message.

use std::collections::{BTreeMap, HashMap};

use safetensors::Dtype;
use safetensors::tensor::{Metadata, TensorInfo};

mod header;

const CHECKSUM: &str = "checksum";
const FORMAT: &str = "format";

/// A file being assembled.
pub struct Writer {
    tensors: BTreeMap<String, (Vec<usize>, Vec<u8>)>,
    metadata: BTreeMap<String, String>,
}

impl Writer {
    /// A file of format `format` (checked by [`Reader::open`]).
    pub fn new(format: &str) -> Writer {
        Writer {
            tensors: BTreeMap::new(),
            metadata: BTreeMap::from([(FORMAT.to_string(), format.to_string())]),
        }
    }

    pub fn tensor(&mut self, name: impl Into<String>, shape: &[usize], values: &[f32]) {
        let bytes = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.tensors.insert(name.into(), (shape.to_vec(), bytes));
    }

    pub fn metadata(&mut self, key: &str, value: impl Into<String>) {
        self.metadata.insert(key.to_string(), value.into());
    }

    /// The file's bytes, with its checksum. The header is written here
    /// rather than by `safetensors::serialize`, whose metadata map has no
    /// fixed order: the same memory must give the same bytes.
    pub fn finish(mut self) -> Vec<u8> {
        let sum = checksum(
            self.tensors
                .iter()
                .map(|(name, (shape, bytes))| (name.as_str(), shape.as_slice(), bytes.as_slice())),
            self.metadata.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        );
        self.metadata.insert(CHECKSUM.into(), format!("{sum:016x}"));
        // serde_json's map keeps keys sorted.
        let mut header = serde_json::Map::new();
        header.insert("__metadata__".into(), serde_json::json!(self.metadata));
        let mut offset = 0;
        for (name, (shape, bytes)) in &self.tensors {
            let entry = serde_json::json!({
                "dtype": "F32",
                "shape": shape,
                "data_offsets": [offset, offset + bytes.len()],
            });
            header.insert(name.clone(), entry);
            offset += bytes.len();
        }
        let mut header = serde_json::Value::Object(header).to_string().into_bytes();
        // safetensors pads the header with spaces to a multiple of 8 bytes.
        header.resize(header.len().next_multiple_of(8), b' ');
        let mut file = (header.len() as u64).to_le_bytes().to_vec();
        file.extend(header);
        for (_, bytes) in self.tensors.into_values() {
            file.extend(bytes);
        }
        file
    }
}

/// Why a file could not be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpenError {
    /// Not a safetensors file of the format, or truncated.
    Malformed(String),
    /// Well formed, but its checksum does not match its contents.
    Modified,
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Malformed(why) => f.write_str(why),
            OpenError::Modified => {
                f.write_str("its checksum does not match its contents: it was modified or damaged")
            }
        }
    }
}

/// The `format` entry of a safetensors file, if `bytes` start like one:
/// how a file is recognised by its contents rather than its name.
pub fn format_of(bytes: &[u8]) -> Option<String> {
    let (_, _, mut metadata) = header::read(bytes).ok()?;
    metadata.as_mut()?.remove(FORMAT)
}

/// A file whose checksum and format have been checked: its header, read
/// once, and the bytes of its tensors.
pub struct Reader<'a> {
    header: Metadata,
    data: &'a [u8],
    metadata: HashMap<String, String>,
}

impl<'a> Reader<'a> {
    /// Parses `bytes` as a safetensors file of format `format` and checks
    /// its checksum.
    pub fn open(bytes: &'a [u8], format: &str) -> Result<Reader<'a>, OpenError> {
        let malformed = |why: String| OpenError::Malformed(why);
        let (size, header, metadata) = header::read(bytes).map_err(|e| {
            malformed(format!(
                "it is not a safetensors file, or it is truncated ({e})"
            ))
        })?;
        // After the header's length (8 bytes) and the header.
        let data = bytes.get(8 + size..).unwrap_or_default();
        let mut metadata = metadata.unwrap_or_default();
        match metadata.get(FORMAT) {
            Some(found) if found == format => {}
            Some(found) => {
                return Err(malformed(format!(
                    "its format is `{found}`, but this cnpic reads `{format}` (the file was \
                     written by another version)"
                )));
            }
            None => return Err(malformed(format!("it has no `{FORMAT}` entry"))),
        }
        let stored = metadata
            .remove(CHECKSUM)
            .ok_or_else(|| malformed(format!("it has no `{CHECKSUM}` entry")))?;
        let reader = Reader {
            header,
            data,
            metadata,
        };
        let mut sorted: Vec<(&str, &str)> = (reader.metadata.iter())
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        sorted.sort_unstable();
        let tensors = reader.header.tensors();
        let actual = checksum(
            (tensors.iter())
                .map(|(name, info)| (name.as_str(), info.shape.as_slice(), reader.bytes(info))),
            sorted,
        );
        if stored != format!("{actual:016x}") {
            return Err(OpenError::Modified);
        }
        Ok(reader)
    }

    /// The bytes of the tensor `info` describes (its offsets were checked
    /// against the file when the header was read).
    fn bytes(&self, info: &TensorInfo) -> &'a [u8] {
        let (start, end) = info.data_offsets;
        self.data.get(start..end).unwrap_or_default()
    }

    /// The description of tensor `name`.
    fn info(&self, name: &str) -> Result<&TensorInfo, String> {
        (self.header.info(name)).ok_or_else(|| format!("it has no tensor `{name}`"))
    }

    pub fn metadata(&self, key: &str) -> Result<&str, String> {
        self.metadata
            .get(key)
            .map(String::as_str)
            .ok_or_else(|| format!("it has no `{key}` entry"))
    }

    /// The tensor `name`, which must be `F32` of shape `shape`, with
    /// finite values.
    pub fn tensor(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>, String> {
        let info = self.info(name)?;
        if info.dtype != Dtype::F32 || info.shape != shape {
            return Err(format!(
                "tensor `{name}` is {:?} {:?}, expected F32 {shape:?}",
                info.dtype, info.shape
            ));
        }
        let values: Vec<f32> = (self.bytes(info))
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if values.iter().any(|v| !v.is_finite()) {
            return Err(format!("tensor `{name}` holds a NaN or an infinity"));
        }
        Ok(values)
    }

    /// The shape of tensor `name`.
    pub fn shape(&self, name: &str) -> Result<Vec<usize>, String> {
        Ok(self.info(name)?.shape.clone())
    }
}

/// The 64-bit FNV-1a hash; each field also feeds its length, so fields
/// cannot run into each other.
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    pub fn field(&mut self, bytes: &[u8]) {
        self.bytes(bytes);
        self.bytes(&(bytes.len() as u64).to_le_bytes());
    }

    /// The bytes hashed one after another, in a loop of its own (a chained
    /// iterator cost twice the instructions per byte, and the shipped
    /// core's checksum is hashed at every start).
    fn bytes(&mut self, bytes: &[u8]) {
        let mut hash = self.0;
        for &byte in bytes {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        self.0 = hash;
    }

    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// 64-bit FNV-1a over tensors (sorted here by name) and metadata entries
/// (in the order given: the callers' sorted maps).
fn checksum<'t>(
    tensors: impl Iterator<Item = (&'t str, &'t [usize], &'t [u8])>,
    metadata: impl IntoIterator<Item = (&'t str, &'t str)>,
) -> u64 {
    let mut sorted: Vec<_> = tensors.collect();
    sorted.sort_by_key(|(name, ..)| *name);
    let mut hash = Fnv::default();
    let mut text = String::new();
    for (name, shape, data) in sorted {
        hash.field(name.as_bytes());
        shape_text(shape, &mut text);
        hash.field(text.as_bytes());
        hash.field(data);
    }
    for (key, value) in metadata {
        hash.field(key.as_bytes());
        hash.field(value.as_bytes());
    }
    hash.finish()
}

/// `shape` as `format!("{shape:?}")` writes it (`[4, 5]`), into `text`:
/// without the formatting machinery, which cost most of a small file's
/// checksum.
fn shape_text(shape: &[usize], text: &mut String) {
    text.clear();
    text.push('[');
    for (i, &length) in shape.iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        text.push_str(itoa::Buffer::new().format(length));
    }
    text.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_written_as_their_debug_form() {
        let mut text = String::from("left over");
        let shapes: [&[usize]; 6] = [&[], &[0], &[4], &[4, 5], &[10, 100, 9], &[usize::MAX, 1]];
        for shape in shapes {
            shape_text(shape, &mut text);
            assert_eq!(text, format!("{shape:?}"));
        }
    }

    fn sample() -> Vec<u8> {
        let mut writer = Writer::new("test-1");
        writer.tensor("a", &[2, 2], &[1.0, -2.0, 3.5, 0.0]);
        writer.metadata("note", "hello");
        writer.finish()
    }

    #[test]
    fn files_round_trip() {
        let bytes = sample();
        let reader = Reader::open(&bytes, "test-1").expect("reads back");
        assert_eq!(reader.tensor("a", &[2, 2]), Ok(vec![1.0, -2.0, 3.5, 0.0]));
        assert_eq!(reader.metadata("note"), Ok("hello"));
        assert!(reader.tensor("a", &[4]).is_err());
        assert!(reader.tensor("b", &[4]).is_err());
        assert!(Reader::open(&bytes, "other-1").is_err());
    }

    #[test]
    fn core_files_share_the_layout_and_checksum() {
        let core = Reader::open(crate::core::SHIPPED, "cnpi-core-1").expect("reads");
        assert_eq!(core.metadata("cells"), Ok("16"));
        assert!(core.tensor("lstm.bias", &[64]).is_ok());
    }

    #[test]
    fn damage_is_detected() {
        let bytes = sample();
        for cut in [0, 7, bytes.len() / 2, bytes.len() - 1] {
            assert!(
                Reader::open(&bytes[..cut], "test-1").is_err(),
                "cut at {cut}"
            );
        }
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 0x40;
        let error = Reader::open(&flipped, "test-1").err();
        assert_eq!(error, Some(OpenError::Modified));
    }
}
