//! A safetensors header read straight into its parts.
//!
//! `SafeTensors::read_metadata` reads the header through a flattened serde
//! map, which buffers every value before typing it: most of the cost of
//! opening the small files cnpic reads at every start (the shipped core and
//! the cached detectors). [`read`] reads the same JSON with a map visitor
//! that types each entry as it comes, then has safetensors itself check the
//! tensors ([`Metadata::new`]: offsets contiguous from 0, sizes matching
//! shapes) and checks that they end where the file ends. A header it does
//! not take is read again by `read_metadata`, which gives the error: every
//! file reads as before, and fails with the same message.

use std::collections::HashMap;
use std::fmt;

use safetensors::SafeTensors;
use safetensors::tensor::{Metadata, SafeTensorError, TensorInfo};
use serde::de::{Deserializer, Error, MapAccess, Visitor};

/// The metadata entry of a header.
const METADATA: &str = "__metadata__";
/// `safetensors`' bound on the header's size.
const MAX_SIZE: usize = 100_000_000;

/// A header: its metadata map (`__metadata__`) and its tensors.
#[derive(Default)]
struct Header {
    metadata: Option<HashMap<String, String>>,
    tensors: Vec<(String, TensorInfo)>,
}

impl<'de> serde::Deserialize<'de> for Header {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Header, D::Error> {
        deserializer.deserialize_map(HeaderVisitor)
    }
}

struct HeaderVisitor;

impl<'de> Visitor<'de> for HeaderVisitor {
    type Value = Header;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a safetensors header")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Header, A::Error> {
        let mut header = Header::default();
        while let Some(key) = map.next_key::<String>()? {
            if key != METADATA {
                header.tensors.push((key, map.next_value()?));
            } else if header.metadata.is_some() {
                return Err(A::Error::duplicate_field(METADATA));
            } else {
                header.metadata = map.next_value()?;
            }
        }
        Ok(header)
    }
}

/// A header as [`read`] gives it: its size in bytes, its tensors and its
/// metadata map.
pub type Parts = (usize, Metadata, Option<HashMap<String, String>>);

/// The header's size, its tensors and its metadata map, as
/// `SafeTensors::read_metadata` gives them.
pub fn read(bytes: &[u8]) -> Result<Parts, SafeTensorError> {
    read_typed(bytes).map_or_else(
        || {
            let (size, header) = SafeTensors::read_metadata(bytes)?;
            let metadata = header.metadata().clone();
            Ok((size, header, metadata))
        },
        Ok,
    )
}

/// [`read`] for a header the visitor takes and safetensors checks.
fn read_typed(bytes: &[u8]) -> Option<Parts> {
    let size = usize::try_from(u64::from_le_bytes(bytes.get(..8)?.try_into().ok()?)).ok()?;
    if size > MAX_SIZE {
        return None;
    }
    let text = std::str::from_utf8(bytes.get(8..8 + size)?).ok()?;
    let Header {
        metadata,
        mut tensors,
    } = serde_json::from_str(text).ok()?;
    // Duplicate tensor names: the last one counts, as in a map.
    let mut seen = HashMap::with_capacity(tensors.len());
    for (index, (name, _)) in tensors.iter().enumerate() {
        seen.insert(name.as_str(), index);
    }
    if seen.len() != tensors.len() {
        return None;
    }
    tensors.sort_by_key(|(_, info)| info.data_offsets);
    let end = tensors.last().map_or(0, |(_, info)| info.data_offsets.1);
    let header = Metadata::new(None, tensors).ok()?;
    (end.checked_add(8 + size)? == bytes.len()).then_some((size, header, metadata))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header's parts, written out in a fixed order to be compared.
    fn shown(size: usize, header: &Metadata, metadata: Option<HashMap<String, String>>) -> String {
        let mut tensors: Vec<_> = (header.tensors().into_iter())
            .map(|(name, info)| format!("{name}: {info:?}"))
            .collect();
        tensors.sort();
        let metadata: std::collections::BTreeMap<_, _> = metadata.into_iter().flatten().collect();
        format!("{size} {tensors:?} {metadata:?}")
    }

    /// What `read` gives for `bytes`, shown.
    fn parts(bytes: &[u8]) -> Option<String> {
        let (size, header, metadata) = read(bytes).ok()?;
        Some(shown(size, &header, metadata))
    }

    /// What `read_metadata` gives for `bytes`, shown.
    fn reference(bytes: &[u8]) -> Option<String> {
        let (size, header) = SafeTensors::read_metadata(bytes).ok()?;
        let metadata = header.metadata().clone();
        Some(shown(size, &header, metadata))
    }

    /// A file of header `json` and `data` bytes of tensor data.
    fn file(json: &str, data: usize) -> Vec<u8> {
        let mut bytes = (json.len() as u64).to_le_bytes().to_vec();
        bytes.extend(json.as_bytes());
        bytes.resize(bytes.len() + data, 0);
        bytes
    }

    #[test]
    fn headers_read_as_safetensors_reads_them() {
        let a = r#""a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}"#;
        let b = r#""b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}"#;
        let meta = r#""__metadata__":{"format":"x"}"#;
        let cases = [
            (format!("{{{meta},{a},{b}}}"), 12),
            (format!("{{{b},{a}}}"), 12),
            (format!("{{{a},{meta}}}"), 8),
            (format!(r#"{{"__metadata__":null,{a}}}"#), 8),
            (String::from("{}"), 0),
            // Refused: a gap, a short or long file, a wrong size, a
            // duplicate, not a map, not JSON.
            (format!("{{{b}}}"), 4),
            (format!("{{{a},{b}}}"), 11),
            (format!("{{{a},{b}}}"), 13),
            (
                r#"{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}"#.to_string(),
                8,
            ),
            (format!("{{{meta},{meta},{a}}}"), 8),
            (format!("{{{a},{a}}}"), 8),
            (String::from("[]"), 0),
            (String::from("{"), 0),
        ];
        for (json, data) in cases {
            let bytes = file(&json, data);
            assert_eq!(parts(&bytes), reference(&bytes), "{json} with {data} bytes");
            let ours = read(&bytes).err().map(|e| e.to_string());
            let theirs = SafeTensors::read_metadata(&bytes)
                .err()
                .map(|e| e.to_string());
            assert_eq!(ours, theirs, "{json}");
        }
        for cut in [0, 4, 9] {
            let bytes = &file(&format!("{{{a}}}"), 8)[..cut];
            assert!(read(bytes).is_err());
        }
    }
}
