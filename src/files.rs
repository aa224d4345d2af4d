//! Files written whole or not at all.
//!
//! Every file the toolchain writes goes through [`write_atomic`] or
//! [`write_atomic_with`]: the bytes go to a temporary file in the target's
//! own directory, which is synced and then renamed over the target. A full
//! disk, a failing writer or a kill half way therefore leaves the old file
//! byte for byte (and on an error the temporary file is removed). A file
//! that is replaced keeps its permissions and its owner; a new one gets the
//! usual permissions for the user's umask. Only a regular file is
//! replaced: not a read-only one, nor one with other hard links (which a
//! rename would separate from it). [`replace_unchanged`] also refuses when
//! the file changed since it was read, so an edit made meanwhile is not
//! lost. [`refuse_overwriting`], the one check every command makes before
//! it reads anything, stops it from writing an output over one of its
//! inputs (however the paths are spelled: `./`, `..`, a symbolic or a hard
//! link), and looks at files without opening them, so a FIFO never blocks
//! it; [`lock`] serialises read-modify-write updates of one file.
//!
//! A temporary file is named `.NAME.XXXXXX.tmp` and locked (an advisory
//! lock) while it is written. A process killed half way (`kill -9`) leaves
//! it behind, unlocked: the next write to the same target removes such
//! leftovers once they are [`STALE_AFTER`] old, and leaves alone the locked
//! temporaries of writers still at work, and the young ones, which may be
//! a writer's between its creating and its locking the file (issue 47: a
//! writer removed another's temporary in that window). Writers of one path
//! at once therefore all succeed, and the path holds one whole output,
//! the last renamed. [`write_all_atomic`] writes several files as one unit: every
//! temporary is written and synced before the first is renamed, so a kill
//! while writing leaves all the old files, never a mix of old and new.
//! [`write_atomic_here`] replaces a symbolic link found at the path
//! rather than its target (for a cache, where a link may be planted).

use std::fs::{File, Permissions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostic, codes};

/// Writes `bytes` to `path` atomically (see the module documentation).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, |writer| writer.write_all(bytes))
}

/// Writes to `path` atomically whatever `write` writes into the writer it
/// is given; if `write` fails, `path` is left as it was.
pub fn write_atomic_with<F>(path: &Path, write: F) -> io::Result<()>
where
    F: FnOnce(&mut dyn Write) -> io::Result<()>,
{
    stage(path, Links::Follow, write)?.commit(None)
}

/// Writes `bytes` to `path` atomically without following a symbolic link
/// found there: the new file replaces the link, whose target is left
/// alone. For files in folders where a link may have been planted (a
/// cache), unlike a user's own outputs, where a link is kept.
pub fn write_atomic_here(path: &Path, bytes: &[u8]) -> io::Result<()> {
    stage(path, Links::Replace, |writer| writer.write_all(bytes))?.commit(None)
}

/// Writes `bytes` over `path` atomically if `path` still holds `read`,
/// what was read from it; otherwise an error, and the file keeps what
/// it holds now.
pub fn replace_unchanged(path: &Path, read: &[u8], bytes: &[u8]) -> io::Result<()> {
    stage(path, Links::Follow, |writer| writer.write_all(bytes))?.commit(Some(read))
}

/// Writes each `(path, bytes)` atomically and all of them as one unit:
/// the renames start only once every file's bytes are on disk (see the
/// module documentation). On an error no file has changed.
pub fn write_all_atomic(files: &[(PathBuf, Vec<u8>)]) -> io::Result<()> {
    let staged = files
        .iter()
        .map(|(path, bytes)| stage(path, Links::Follow, |writer| writer.write_all(bytes)))
        .collect::<io::Result<Vec<_>>>()?;
    staged
        .into_iter()
        .try_for_each(|staged| staged.commit(None))
}

/// A temporary file written and synced, waiting to be renamed over its
/// target; dropped, it is removed.
struct Staged {
    temporary: tempfile::NamedTempFile,
    target: PathBuf,
}

impl Staged {
    /// Renames the temporary over the target; with `expected`, only if the
    /// target still holds those bytes.
    fn commit(self, expected: Option<&[u8]>) -> io::Result<()> {
        if let Some(read) = expected
            && crate::read::bytes(&self.target)? != read
        {
            return Err(io::Error::other(
                "the file changed since it was read; it was left as it is now (run the command again)",
            ));
        }
        self.temporary
            .persist(&self.target)
            .map_err(|error| error.error)?;
        sync_directory(directory_of(&self.target));
        Ok(())
    }
}

/// What a write does with a symbolic link at its path.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Links {
    /// Replaces the link's target, keeping the link.
    Follow,
    /// Replaces the link itself.
    Replace,
}

/// Writes the temporary file for `path`, locked while it is written.
fn stage<F>(path: &Path, links: Links, write: F) -> io::Result<Staged>
where
    F: FnOnce(&mut dyn Write) -> io::Result<()>,
{
    let (target, existing) = match links {
        Links::Follow => {
            let target = resolve(path);
            let existing = std::fs::metadata(&target).ok();
            (target, existing)
        }
        Links::Replace => {
            let existing = std::fs::symlink_metadata(path).ok();
            let link = existing
                .as_ref()
                .is_some_and(|m| m.file_type().is_symlink());
            (path.to_path_buf(), existing.filter(|_| !link))
        }
    };
    if let Some(metadata) = &existing {
        refuse_replacing(metadata)?;
    }
    let dir = directory_of(&target);
    let name = target
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(name);
    prefix.push(".");
    remove_stale_temporaries(dir, &prefix);
    // Dropping `temporary` on any early return removes the file.
    let mut builder = tempfile::Builder::new();
    builder
        .prefix(&prefix)
        .suffix(TEMPORARY_SUFFIX)
        .rand_bytes(RANDOM_CHARACTERS);
    if let Some(permissions) = permissions_for(existing.as_ref()) {
        builder.permissions(permissions);
    }
    let temporary = builder.tempfile_in(dir)?;
    // Best effort: where advisory locks are not supported, a leftover is
    // still removed, and a live writer is not protected from a cleaner.
    let _ = temporary.as_file().try_lock();
    let mut writer = BufWriter::new(temporary);
    write(&mut writer)?;
    let temporary = writer
        .into_inner()
        .map_err(io::IntoInnerError::into_error)?;
    if let Some(metadata) = &existing {
        keep_owner(temporary.as_file(), metadata)?;
    }
    temporary.as_file().sync_all()?;
    Ok(Staged { temporary, target })
}

const TEMPORARY_SUFFIX: &str = ".tmp";
const RANDOM_CHARACTERS: usize = 6;

/// How old an unlocked temporary must be for a write to remove it as a
/// killed writer's leftover: far longer than a live writer takes from
/// creating its temporary to locking it.
pub const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(10);

/// The folder `target` is in (`.` for a bare name).
fn directory_of(target: &Path) -> &Path {
    match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Removes the temporaries of earlier writes to the same target whose
/// writer is gone: regular files named `PREFIX` + six characters + `.tmp`,
/// last changed [`STALE_AFTER`] ago or more, that nobody holds locked.
/// Best effort, like the cleaning it replaces.
fn remove_stale_temporaries(dir: &Path, prefix: &std::ffi::OsStr) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let prefix = prefix.as_encoded_bytes();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.as_encoded_bytes();
        let ours = name.len() == prefix.len() + RANDOM_CHARACTERS + TEMPORARY_SUFFIX.len()
            && name.starts_with(prefix)
            && name.ends_with(TEMPORARY_SUFFIX.as_bytes());
        let old = |metadata: std::fs::Metadata| {
            (metadata.modified().ok())
                .and_then(|modified| modified.elapsed().ok())
                .is_some_and(|age| age >= STALE_AFTER)
        };
        if !ours || !entry.metadata().is_ok_and(|m| m.is_file() && old(m)) {
            continue;
        }
        let path = entry.path();
        if File::open(&path).is_ok_and(|file| file.try_lock().is_ok()) {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// The file a write to `path` should replace: the target of a symbolic
/// link rather than the link itself, so that the link survives.
fn resolve(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(metadata) if metadata.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

/// Only a regular file is replaced; not a read-only one, nor one with
/// other hard links (the rename would leave them holding the old text).
fn refuse_replacing(metadata: &std::fs::Metadata) -> io::Result<()> {
    if !metadata.is_file() {
        return Err(io::Error::other(
            "it is not a regular file (a device, a pipe or a folder), which a write would replace",
        ));
    }
    if metadata.permissions().readonly() {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "the file is read-only; make it writable first if it should change",
        ));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if metadata.nlink() > 1 {
            return Err(io::Error::other(format!(
                "the file has {} hard links, and replacing it would separate this name from the others; write to a copy instead",
                metadata.nlink()
            )));
        }
    }
    Ok(())
}

/// Gives the new file the owner and group of the file it replaces (a
/// no-op when they are already the writer's); an error when that is not
/// allowed, so that the file never changes hands.
#[cfg(unix)]
fn keep_owner(file: &File, replaced: &std::fs::Metadata) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let new = file.metadata()?;
    if (new.uid(), new.gid()) == (replaced.uid(), replaced.gid()) {
        return Ok(());
    }
    std::os::unix::fs::fchown(file, Some(replaced.uid()), Some(replaced.gid())).map_err(|error| {
        io::Error::new(
            error.kind(),
            format!("cannot keep the file's owner and group ({error}); it was left unchanged"),
        )
    })
}

#[cfg(not(unix))]
fn keep_owner(_: &File, _: &std::fs::Metadata) -> io::Result<()> {
    Ok(())
}

/// The permissions of the file being replaced, or those of a new file
/// (`None`: the temporary file's own).
fn permissions_for(existing: Option<&std::fs::Metadata>) -> Option<Permissions> {
    match existing {
        Some(metadata) => Some(metadata.permissions()),
        None => new_file_permissions(),
    }
}

/// tempfile makes its files private (0600); an output file is an ordinary
/// file: read and write for everyone, narrowed by the umask.
#[cfg(unix)]
fn new_file_permissions() -> Option<Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(Permissions::from_mode(0o666))
}

#[cfg(not(unix))]
fn new_file_permissions() -> Option<Permissions> {
    None
}

/// Makes the rename itself durable. Best effort: the data is already
/// synced, and some systems cannot open or sync a directory.
fn sync_directory(dir: &Path) {
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
}

/// An exclusive advisory lock on an existing file, held until dropped.
pub struct Lock {
    _file: File,
}

/// Waits for an exclusive lock on `path`, for a command that reads the
/// file, changes it and writes it back: two such commands then run one
/// after the other and neither loses the other's change. Since writes
/// rename a new file over the path, the lock is taken again until it is
/// held on the file the path names now.
pub fn lock(path: &Path) -> io::Result<Lock> {
    let target = resolve(path);
    loop {
        let file = crate::read::open(&target)?;
        file.lock()?;
        if identity(&file.metadata()?) == identity(&std::fs::metadata(&target)?) {
            return Ok(Lock { _file: file });
        }
    }
}

/// What tells files apart: device and inode.
#[cfg(unix)]
fn identity(metadata: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (metadata.dev(), metadata.ino())
}

/// True when `a` and `b` name the same existing file, however spelled
/// (`./s.cnpi`, `dir/../s.cnpi`, a hard or symbolic link). Neither is
/// opened (opening a FIFO waits for its other end).
#[cfg(unix)]
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => identity(&a) == identity(&b),
        _ => false,
    }
}

#[cfg(not(unix))]
fn identity(_: &std::fs::Metadata) {}

#[cfg(not(unix))]
pub fn same_file(a: &Path, b: &Path) -> bool {
    same_file::is_same_file(a, b).unwrap_or(false)
}

/// E0904 when one of `outputs` is one of `inputs` (see [`same_file`]), so
/// that a command never writes its result over what it reads. Commands
/// call it first, before reading anything, so that nothing is written
/// even when an input turns out to be wrong.
pub fn refuse_overwriting(inputs: &[&Path], outputs: &[&Path]) -> Result<(), Diagnostic> {
    for output in outputs {
        let Some(input) = inputs.iter().find(|input| same_file(input, output)) else {
            continue;
        };
        return Err(Diagnostic::error(
            codes::E0904,
            format!(
                "the output `{}` is the input file `{}`",
                output.display(),
                input.display()
            ),
        )
        .with_help("name another output file; the input was left unchanged"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leftovers(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn a_writer_failing_half_way_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("memory.cnpim");
        let old = b"the old contents, byte for byte".repeat(1000);
        std::fs::write(&path, &old).unwrap();
        let result = write_atomic_with(&path, |writer| {
            writer.write_all(&vec![b'x'; 100_000])?;
            Err(io::Error::other("injected failure"))
        });
        assert_eq!(result.unwrap_err().to_string(), "injected failure");
        assert_eq!(std::fs::read(&path).unwrap(), old);
        assert_eq!(leftovers(dir.path()), Vec::<String>::new());
    }

    #[test]
    fn a_successful_write_replaces_the_file_and_keeps_its_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.cnpi");
        std::fs::write(&path, "old").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, Permissions::from_mode(0o640)).unwrap();
        }
        write_atomic(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o640);
        }
        assert_eq!(leftovers(dir.path()), Vec::<String>::new());
    }

    #[cfg(unix)]
    #[test]
    fn a_write_through_a_symbolic_link_replaces_its_target() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("real.cnpim");
        let link = dir.path().join("link.cnpim");
        std::fs::write(&target, "old").unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
    }

    #[test]
    fn a_killed_writers_temporary_is_removed_by_the_next_write_and_a_live_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("results.json");
        // What `kill -9` leaves: a temporary of our naming, unlocked, and
        // old.
        let stale = dir.path().join(".results.json.a1B2c3.tmp");
        std::fs::write(&stale, "half a file").unwrap();
        let long_ago = std::time::SystemTime::now() - 2 * STALE_AFTER;
        (File::options().write(true).open(&stale).unwrap())
            .set_modified(long_ago)
            .unwrap();
        // A writer that has just created its temporary and not yet locked
        // it (issue 47's race): young, so kept.
        let young = dir.path().join(".results.json.YoUnG0.tmp");
        std::fs::write(&young, "").unwrap();
        // A writer still at work holds its temporary locked.
        let live = dir.path().join(".results.json.LiVe00.tmp");
        let held = File::create(&live).unwrap();
        held.lock().unwrap();
        // Not ours: another target's temporary, and another naming.
        let other = dir.path().join(".rows.csv.a1B2c3.tmp");
        std::fs::write(&other, "x").unwrap();
        let user = dir.path().join(".results.json.mine.tmp");
        std::fs::write(&user, "x").unwrap();
        write_atomic(&path, b"{}").unwrap();
        let mut left = leftovers(dir.path());
        left.sort();
        assert_eq!(
            left,
            [
                ".results.json.LiVe00.tmp",
                ".results.json.YoUnG0.tmp",
                ".results.json.mine.tmp",
                ".rows.csv.a1B2c3.tmp"
            ]
        );
        drop(held);
    }

    /// Issue 47: writers of one path at once each succeed (none removes
    /// another's temporary), and the path holds one whole output; 16 at
    /// once, several rounds.
    #[test]
    fn sixteen_writers_of_one_path_all_succeed_and_one_whole_output_remains() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("same.cnpi");
        let output = |writer: usize| vec![b'a' + writer as u8; 64 << 10];
        for _ in 0..5 {
            let start = std::sync::Barrier::new(16);
            std::thread::scope(|scope| {
                let writers: Vec<_> = (0..16)
                    .map(|writer| {
                        let (path, start) = (&path, &start);
                        scope.spawn(move || {
                            start.wait();
                            write_atomic(path, &output(writer))
                        })
                    })
                    .collect();
                for (writer, done) in writers.into_iter().enumerate() {
                    let done = done.join().expect("no panic");
                    assert!(done.is_ok(), "writer {writer}: {done:?}");
                }
            });
            let held = std::fs::read(&path).unwrap();
            assert!(
                (0..16).any(|writer| held == output(writer)),
                "a mix of outputs"
            );
            assert_eq!(leftovers(dir.path()), Vec::<String>::new());
        }
    }

    #[test]
    fn files_written_as_one_unit_all_change_or_none_does() {
        let dir = tempfile::tempdir().unwrap();
        let rows = dir.path().join("rows.csv");
        let results = dir.path().join("results.json");
        std::fs::write(&rows, "old rows").unwrap();
        std::fs::write(&results, "old results").unwrap();
        // The second file cannot be staged: nothing may change.
        let blocked = dir.path().join("missing").join("summary.csv");
        let failed = write_all_atomic(&[
            (results.clone(), b"new results".to_vec()),
            (blocked, b"summary".to_vec()),
        ]);
        assert!(failed.is_err());
        assert_eq!(std::fs::read_to_string(&results).unwrap(), "old results");
        assert_eq!(leftovers(dir.path()), Vec::<String>::new());
        write_all_atomic(&[
            (results.clone(), b"new results".to_vec()),
            (rows.clone(), b"new rows".to_vec()),
        ])
        .unwrap();
        assert_eq!(std::fs::read_to_string(&results).unwrap(), "new results");
        assert_eq!(std::fs::read_to_string(&rows).unwrap(), "new rows");
    }

    #[cfg(unix)]
    fn set_mode(path: &Path, mode: u32) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, Permissions::from_mode(mode)).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn read_only_files_are_refused_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.cnpi");
        std::fs::write(&path, "old").unwrap();
        set_mode(&path, 0o444);
        let error = write_atomic(&path, b"new").unwrap_err();
        assert!(error.to_string().contains("read-only"), "{error}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(leftovers(dir.path()), Vec::<String>::new());
    }

    #[test]
    fn an_edit_made_since_the_read_is_not_lost() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.cnpi");
        std::fs::write(&path, "as read").unwrap();
        std::fs::write(&path, "edited meanwhile").unwrap();
        let error = replace_unchanged(&path, b"as read", b"formatted").unwrap_err();
        assert!(
            error.to_string().contains("changed since it was read"),
            "{error}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "edited meanwhile");
        replace_unchanged(&path, b"edited meanwhile", b"formatted").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "formatted");
    }

    #[cfg(unix)]
    #[test]
    fn hard_links_and_special_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.cnpi");
        let link = dir.path().join("t.cnpi");
        std::fs::write(&path, "old").unwrap();
        std::fs::hard_link(&path, &link).unwrap();
        let error = write_atomic(&path, b"new").unwrap_err();
        assert!(error.to_string().contains("2 hard links"), "{error}");
        assert_eq!(std::fs::read_to_string(&link).unwrap(), "old");
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|status| status.success()) {
            let error = write_atomic(&fifo, b"new").unwrap_err();
            assert!(error.to_string().contains("not a regular file"), "{error}");
            assert!(!std::fs::metadata(&fifo).unwrap().is_file());
        }
    }

    /// Run by root (as in CI), a replaced file keeps another user's
    /// ownership; for anyone else, changing hands is not possible anyway.
    #[cfg(unix)]
    #[test]
    fn the_owner_is_kept() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.cnpi");
        std::fs::write(&path, "old").unwrap();
        if std::os::unix::fs::chown(&path, Some(4321), Some(4321)).is_err() {
            return;
        }
        write_atomic(&path, b"new").unwrap();
        let metadata = std::fs::metadata(&path).unwrap();
        assert_eq!((metadata.uid(), metadata.gid()), (4321, 4321));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
    }

    #[test]
    fn a_missing_directory_is_an_error_that_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no").join("such").join("file");
        assert!(write_atomic(&path, b"x").is_err());
        assert!(!path.exists());
    }

    #[test]
    fn the_same_file_is_recognised_under_another_spelling() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.cnpi");
        std::fs::write(&path, "env array()").unwrap();
        let other = dir.path().join(".").join("sub").join("..").join("s.cnpi");
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let refused = refuse_overwriting(&[&path], &[&other]).unwrap_err();
        assert_eq!(refused.code, codes::E0904);
        let elsewhere = dir.path().join("s.cnpim");
        assert!(refuse_overwriting(&[&path], &[&elsewhere]).is_ok());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "env array()");
    }

    #[cfg(unix)]
    #[test]
    fn every_output_is_checked_against_every_input_without_opening_either() {
        let dir = tempfile::tempdir().unwrap();
        let program = dir.path().join("q.cnpi");
        let input = dir.path().join("input.json");
        std::fs::write(&program, "env array()").unwrap();
        std::fs::write(&input, "[3, 1, 2]").unwrap();
        let symbolic = dir.path().join("page.html");
        std::os::unix::fs::symlink(&input, &symbolic).unwrap();
        let hard = dir.path().join("hard.html");
        std::fs::hard_link(&program, &hard).unwrap();
        let inputs = [program.as_path(), input.as_path()];
        let refused = refuse_overwriting(&inputs, &[&dir.path().join("new.html"), &symbolic]);
        let refused = refused.unwrap_err();
        assert_eq!(refused.code, codes::E0904);
        assert!(
            refused.message.contains("input.json"),
            "{}",
            refused.message
        );
        let refused = refuse_overwriting(&inputs, &[&hard]).unwrap_err();
        assert!(refused.message.contains("q.cnpi"), "{}", refused.message);
        // A FIFO is compared, and locked, without waiting for a writer.
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|status| status.success()) {
            assert!(refuse_overwriting(&inputs, &[&fifo]).is_ok());
            assert!(refuse_overwriting(&[&fifo], &[&program]).is_ok());
            assert!(refuse_overwriting(&[&fifo], &[&fifo]).is_err());
            let error = lock(&fifo).err().unwrap();
            assert_eq!(error.to_string(), "it is a FIFO, not a regular file");
        }
        assert_eq!(std::fs::read_to_string(&input).unwrap(), "[3, 1, 2]");
    }

    #[cfg(unix)]
    #[test]
    fn a_write_here_replaces_a_planted_link_and_not_its_target() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        let entry = dir.path().join("entry.safetensors");
        std::fs::write(&victim, "precious").unwrap();
        std::os::unix::fs::symlink(&victim, &entry).unwrap();
        write_atomic_here(&entry, b"cached").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert!(std::fs::symlink_metadata(&entry).unwrap().is_file());
        assert_eq!(std::fs::read_to_string(&entry).unwrap(), "cached");
        write_atomic_here(&entry, b"again").unwrap();
        assert_eq!(std::fs::read_to_string(&entry).unwrap(), "again");
    }
}
