//! The classifier cache: trained detector weights on disk, by condition.
//!
//! A classifier is stored under its condition's canonical text and the
//! training seed, in a folder the caller names: the command line and the
//! Python package pass the one [`Cache::located`] finds from the
//! environment they read (`$CNPI_CACHE_DIR` if set, else
//! `$XDG_CACHE_HOME/cnpi`, else `$HOME/.cache/cnpi`); the library reads no
//! environment variable itself (`detectors/<hash>.safetensors`). The file
//! records the full text, so a hash collision is a miss, never a wrong
//! detector; and whatever is read is verified again before use, so a
//! damaged or stale entry is only a miss too. Writes are atomic and
//! replace a symbolic link found at an entry's path rather than write
//! through it ([`cnpi::files::write_atomic_here`]); a cache that cannot be
//! written is silently skipped (the detector is still trained and
//! verified, just not kept). As ssh refuses a key others may change, a
//! cache folder writable by others (its group or anyone) is not used at
//! all: the folders cnpi makes are private to the user. The same directory keeps the embeddings of combinators programs
//! define (`combinators/`, written by `core::embedding` through
//! [`Cache::file`] and [`Cache::keep`]).

use std::ffi::OsString;
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
    /// The cache the environment's variables name, read by `var` (the
    /// caller's `std::env::var_os`): `CNPI_CACHE_DIR`, else
    /// `XDG_CACHE_HOME/cnpi`, else `HOME/.cache/cnpi`, else none; an empty
    /// variable counts as unset.
    pub fn located(var: impl Fn(&str) -> Option<OsString>) -> Cache {
        let var = |name: &str| var(name).filter(|v| !v.is_empty());
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
    /// `None` too when the cache folder, or `folder` in it, is writable by
    /// others.
    pub(crate) fn file(&self, folder: &str, fields: &[&[u8]]) -> Option<PathBuf> {
        let mut hash = Fnv::default();
        for field in fields {
            hash.field(field);
        }
        let name = format!("{:016x}.safetensors", hash.finish());
        let dir = self.dir.as_ref()?;
        let folder = dir.join(folder);
        (private(dir) && private(&folder)).then(|| folder.join(name))
    }

    /// Writes `bytes` to `path` atomically
    /// ([`cnpi::files::write_atomic_here`]), making its folders, private,
    /// if needed; a cache that cannot be written is skipped (a failed
    /// write leaves no file, so the entry is simply not kept).
    pub(crate) fn keep(path: &Path, bytes: &[u8]) {
        let mut folders = std::fs::DirBuilder::new();
        folders.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut folders, 0o700);
        if path
            .parent()
            .is_some_and(|dir| folders.create(dir).is_ok() && private(dir))
        {
            let _ = cnpi::files::write_atomic_here(path, bytes);
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

/// Whether `dir` is missing or a folder only its owner may change (not
/// writable by its group or by others).
#[cfg(unix)]
fn private(dir: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    match std::fs::metadata(dir) {
        Ok(metadata) => metadata.is_dir() && metadata.permissions().mode() & 0o022 == 0,
        Err(error) => error.kind() == std::io::ErrorKind::NotFound,
    }
}

#[cfg(not(unix))]
fn private(_: &Path) -> bool {
    true
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

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn classifier() -> Classifier {
        Classifier {
            inputs: 2,
            hidden: 1,
            w1: vec![1.0, -1.0],
            b1: vec![0.5],
            w2: vec![2.0],
            b2: -1.0,
        }
    }

    #[test]
    fn a_link_planted_at_an_entry_is_replaced_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::at(dir.path().join("cache"));
        cache.store("A[P1] > 0", 7, &classifier());
        let entry = cache.path("A[P1] > 0", 7).unwrap();
        std::fs::remove_file(&entry).unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        std::os::unix::fs::symlink(&victim, &entry).unwrap();
        cache.store("A[P1] > 0", 7, &classifier());
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert!(std::fs::symlink_metadata(&entry).unwrap().is_file());
        assert_eq!(cache.load("A[P1] > 0", 7).unwrap().w1, [1.0, -1.0]);
    }

    #[test]
    fn a_cache_others_may_write_is_not_used() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("cache");
        let cache = Cache::at(&root);
        cache.store("A[P1] > 0", 7, &classifier());
        let folder = root.join("detectors");
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!((mode(&root), mode(&folder)), (0o700, 0o700));
        assert!(cache.load("A[P1] > 0", 7).is_some());
        for open in [&root, &folder] {
            std::fs::set_permissions(open, std::fs::Permissions::from_mode(0o777)).unwrap();
            assert!(cache.load("A[P1] > 0", 7).is_none());
            cache.store("A[P2] > 0", 7, &classifier());
            assert!(cache.path("A[P2] > 0", 7).is_none());
            std::fs::set_permissions(open, std::fs::Permissions::from_mode(0o700)).unwrap();
        }
        let entries = std::fs::read_dir(&folder).unwrap().count();
        assert_eq!(entries, 1, "nothing was written while the cache was open");
    }
}
