//! Reading the files a command is given: regular files only, and at most
//! [`MAX_BYTES`] of them.
//!
//! Every file cnpic reads, or locks, is opened here by [`open`]: its type
//! is looked at before it is opened and again on the open handle, which
//! is opened without blocking (`O_NONBLOCK`, so a FIFO put there meanwhile
//! opens at once), and anything but a regular file is refused. A FIFO, a device such as `/dev/zero` or a directory is
//! therefore never read (reading a FIFO waits for a writer, `/dev/zero`
//! never ends), and a regular file larger than the bound is refused from
//! its size, so no input makes a command hang or grow without limit. The
//! bound leaves room for the largest inputs the project reads: an
//! `--input` of a 1024 × 1024 matrix is a few tens of MB of JSON, a
//! sweep's `results.json` a few tens of MB too. Errors are `io::Error`s
//! whose message says what the path is, so every caller keeps its own
//! diagnostic code.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// The most bytes any input file may hold: 256 MiB.
pub const MAX_BYTES: u64 = 256 << 20;

/// The bytes of the regular file `path`, if it holds at most [`MAX_BYTES`].
pub fn bytes(path: &Path) -> io::Result<Vec<u8>> {
    bounded(path, MAX_BYTES)
}

/// The text of the regular file `path` (see [`bytes`]); not UTF-8 is an
/// `InvalidData` error.
pub fn text(path: &Path) -> io::Result<String> {
    utf8(bytes(path)?)
}

/// `bytes`, read from a file, as its text: not UTF-8 is the
/// `InvalidData` error [`text`] gives.
pub fn utf8(bytes: Vec<u8>) -> io::Result<String> {
    String::from_utf8(bytes).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            "the file is not valid UTF-8 text",
        )
    })
}

/// [`bytes`] with another bound.
pub fn bounded(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = open(path)?;
    let length = file.metadata()?.len();
    too_large(length, limit)?;
    // Read one byte past the bound to catch a file that grew meanwhile.
    let mut bytes = Vec::with_capacity(length as usize);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    too_large(bytes.len() as u64, limit)?;
    Ok(bytes)
}

/// The regular file `path`, open for reading; anything else is refused
/// without waiting (see the module documentation).
pub fn open(path: &Path) -> io::Result<File> {
    // A device is not even opened (opening some has effects of its own);
    // the type is looked at again on the handle, in case the path changed.
    regular(&std::fs::metadata(path)?)?;
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    // `O_NONBLOCK` stays set: it changes nothing for a regular file.
    regular(&file.metadata()?)?;
    Ok(file)
}

fn regular(metadata: &std::fs::Metadata) -> io::Result<()> {
    if metadata.is_file() {
        return Ok(());
    }
    let kind = if metadata.is_dir() {
        "a directory"
    } else {
        kind_of_special(metadata)
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("it is {kind}, not a regular file"),
    ))
}

#[cfg(unix)]
fn kind_of_special(metadata: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let kind = metadata.file_type();
    if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn kind_of_special(_: &std::fs::Metadata) -> &'static str {
    "a special file"
}

fn too_large(length: u64, limit: u64) -> io::Result<()> {
    if length <= limit {
        return Ok(());
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "it holds more than {} MiB, the most an input may",
            limit >> 20
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_within_the_bound_is_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("input.json");
        std::fs::write(&path, "[1, 2, 3]").unwrap();
        assert_eq!(text(&path).unwrap(), "[1, 2, 3]");
        assert_eq!(bounded(&path, 9).unwrap().len(), 9);
    }

    #[test]
    fn a_file_past_the_bound_is_refused_from_its_size() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.json");
        std::fs::write(&path, vec![b'1'; 1000]).unwrap();
        let error = bounded(&path, 999).unwrap_err();
        assert!(error.to_string().contains("more than"), "{error}");
    }

    #[cfg(unix)]
    #[test]
    fn devices_fifos_and_directories_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|status| status.success()) {
            let error = bytes(&fifo).unwrap_err();
            assert_eq!(error.to_string(), "it is a FIFO, not a regular file");
        }
        let error = bytes(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "it is a character device, not a regular file"
        );
        let error = bytes(dir.path()).unwrap_err();
        assert_eq!(error.to_string(), "it is a directory, not a regular file");
    }

    #[test]
    fn text_that_is_not_utf8_is_invalid_data() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("latin1.txt");
        std::fs::write(&path, [0xe9, b'a']).unwrap();
        assert_eq!(text(&path).unwrap_err().kind(), io::ErrorKind::InvalidData);
    }
}
