//! The classifier cache: trained detector weights on disk, by condition.
//!
//! A classifier is stored under its condition's canonical text and the
//! training seed, in `$CNPI_CACHE_DIR` if set, else `$XDG_CACHE_HOME/cnpi`,
//! else `$HOME/.cache/cnpi` (`detectors/<hash>.safetensors`). The file
//! records the full text, so a hash collision is a miss, never a wrong
//! detector; and whatever is read is verified again before use, so a
//! damaged or stale entry is only a miss too. Writes are atomic
//! ([`cnpi::files::write_atomic`]); a cache that cannot be written is
//! silently skipped (the detector is still trained and verified, just not
//! kept). The same directory keeps the embeddings of combinators programs
//! define (`combinators/`, written by `core::embedding` through
//! [`Cache::file`] and [`Cache::keep`]).

use std::path::{Path, PathBuf};

use super::classifier::Classifier;
use crate::tensors::{Fnv, Reader, Writer};

/// The `format` metadata entry of a cached detector.
pub const FORMAT: &str = "cnpi-detector-1";

/// Where classifiers are kept, if anywhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cache {
    dir: Option<PathBuf>,
}

impl Cache {
    /// The cache the environment names (see the module documentation).
    pub fn from_env() -> Cache {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        let dir = var("CNPI_CACHE_DIR")
            .map(PathBuf::from)
            .or_else(|| var("XDG_CACHE_HOME").map(|d| Path::new(&d).join("cnpi")))
            .or_else(|| var("HOME").map(|d| Path::new(&d).join(".cache").join("cnpi")));
        Cache { dir }
    }

    /// A cache in `dir`.
    pub fn at(dir: impl Into<PathBuf>) -> Cache {
        Cache {
            dir: Some(dir.into()),
        }
    }

    /// No cache: every detector is trained.
    pub fn none() -> Cache {
        Cache { dir: None }
    }

    fn path(&self, text: &str, seed: u64) -> Option<PathBuf> {
        self.file("detectors", &[text.as_bytes(), &seed.to_le_bytes()])
    }

    /// The file of an entry of `folder` (`detectors`, `combinators`), named
    /// by a hash of `fields`; `None` without a cache directory. The file
    /// must record the fields in full, so a collision is only a miss.
    pub(crate) fn file(&self, folder: &str, fields: &[&[u8]]) -> Option<PathBuf> {
        let mut hash = Fnv::default();
        for field in fields {
            hash.field(field);
        }
        let name = format!("{:016x}.safetensors", hash.finish());
        Some(self.dir.as_ref()?.join(folder).join(name))
    }

    /// Writes `bytes` to `path` atomically ([`cnpi::files::write_atomic`]);
    /// a cache that cannot be written is skipped (a failed write leaves no
    /// file, so the entry is simply not kept).
    pub(crate) fn keep(path: &Path, bytes: &[u8]) {
        if path
            .parent()
            .is_some_and(|dir| std::fs::create_dir_all(dir).is_ok())
        {
            let _ = cnpi::files::write_atomic(path, bytes);
        }
    }

    /// The classifier stored for `text` and `seed`, if any.
    pub fn load(&self, text: &str, seed: u64) -> Option<Classifier> {
        let bytes = cnpi::read::bytes(&self.path(text, seed)?).ok()?;
        let reader = Reader::open(&bytes, FORMAT).ok()?;
        if reader.metadata("condition").ok()? != text
            || reader.metadata("seed").ok()? != seed.to_string()
        {
            return None;
        }
        read_classifier(&reader, "").ok()
    }

    /// Keeps `classifier` for `text` and `seed`, if the cache is writable.
    pub fn store(&self, text: &str, seed: u64, classifier: &Classifier) {
        let Some(path) = self.path(text, seed) else {
            return;
        };
        let mut writer = Writer::new(FORMAT);
        writer.metadata("condition", text);
        writer.metadata("seed", seed.to_string());
        write_classifier(&mut writer, "", classifier);
        Cache::keep(&path, &writer.finish());
    }
}

/// Writes a classifier's four tensors under `prefix`.
pub fn write_classifier(writer: &mut Writer, prefix: &str, c: &Classifier) {
    writer.tensor(format!("{prefix}w1"), &[c.hidden, c.inputs], &c.w1);
    writer.tensor(format!("{prefix}b1"), &[c.hidden], &c.b1);
    writer.tensor(format!("{prefix}w2"), &[c.hidden], &c.w2);
    writer.tensor(format!("{prefix}b2"), &[1], &[c.b2]);
}

/// Reads what [`write_classifier`] wrote.
pub fn read_classifier(reader: &Reader, prefix: &str) -> Result<Classifier, String> {
    let w1_name = format!("{prefix}w1");
    let (hidden, inputs) = match reader.shape(&w1_name)?.as_slice() {
        [rows, columns] => (*rows, *columns),
        shape => return Err(format!("tensor `{w1_name}` has shape {shape:?}")),
    };
    Ok(Classifier {
        inputs,
        hidden,
        w1: reader.tensor(&w1_name, &[hidden, inputs])?,
        b1: reader.tensor(&format!("{prefix}b1"), &[hidden])?,
        w2: reader.tensor(&format!("{prefix}w2"), &[hidden])?,
        b2: reader.tensor(&format!("{prefix}b2"), &[1])?[0],
    })
}
