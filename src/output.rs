//! Where the result goes, written so that it is never lost or half-written.
//!
//! A file destination is replaced atomically (a temp file in the same
//! directory, then a rename) after every improvement, so killing `reduce` at
//! any moment leaves an interesting result and the untouched input. Standard
//! output is written once, at the end. `--in-place` saves the input as
//! `INPUT.orig` before the first write.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

pub(crate) use crate::atomic_write::write_atomically;
use crate::atomic_write::{backup_path, parent_dir};
use crate::fileset::output::TreeOutput;

/// Where the reduced result is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Destination {
    File(PathBuf),
    Stdout,
    /// Overwrite the input, whose original is kept beside it as `.orig`.
    InPlace(PathBuf),
    /// Several files, written as a directory (`crate::fileset`).
    Tree(TreeOutput),
}

/// Where each improvement is written as it comes: a [`Destination`], or a
/// part of one (one file of a set, `crate::multi`).
pub(crate) trait Save: Sync {
    fn save(&self, bytes: &[u8]) -> Result<()>;
}

impl Save for Destination {
    fn save(&self, bytes: &[u8]) -> Result<()> {
        Destination::save(self, bytes)
    }
}

/// The default output path: `dir/stem.reduced.ext` beside the input
/// (`stem.reduced` when it has no extension).
pub(crate) fn default_output(input: &Path) -> PathBuf {
    let stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "input".into());
    let name = match input.extension() {
        Some(ext) => format!("{stem}.reduced.{}", ext.to_string_lossy()),
        None => format!("{stem}.reduced"),
    };
    input.with_file_name(name)
}

impl Destination {
    /// Checks, before any test runs, that the result can be written here.
    pub(crate) fn check_writable(&self) -> Result<()> {
        let path = match self {
            Destination::Stdout => return Ok(()),
            Destination::Tree(tree) => return tree.check_writable(),
            Destination::File(p) | Destination::InPlace(p) => p,
        };
        if is_special(path) {
            return Ok(()); // written once, in place, at the end
        }
        let dir = parent_dir(path);
        if !dir.is_dir() {
            bail!(
                "cannot write the result to {}: directory {} does not exist",
                path.display(),
                dir.display()
            );
        }
        tempfile::Builder::new()
            .prefix(".reduce-check-")
            .tempfile_in(dir)
            .with_context(|| {
                format!(
                    "cannot write the result to {}: directory {} is not writable",
                    path.display(),
                    dir.display()
                )
            })?;
        if let Destination::InPlace(input) = self {
            let backup = backup_path(input);
            if backup.exists() {
                bail!(
                    "{} already exists; move it away (it may hold an earlier original) or use -o",
                    backup.display()
                );
            }
        }
        Ok(())
    }

    /// Where the journal of a run writing here goes (`journal.rs`): beside
    /// a result file or a set's output directory; none for standard
    /// output, a special file or `--in-place` (whose input changes as the
    /// run goes).
    pub(crate) fn journal_path(&self) -> Option<PathBuf> {
        match self {
            Destination::File(p) if !is_special(p) => Some(crate::journal::journal_path(p)),
            Destination::Tree(tree) if !tree.in_place => {
                Some(crate::journal::journal_path(&tree.dir))
            }
            _ => None,
        }
    }

    /// Saves the input's backup for `--in-place`; call once before reducing.
    pub(crate) fn prepare(&self, original: &[u8]) -> Result<()> {
        match self {
            Destination::InPlace(input) => write_atomically(&backup_path(input), original),
            Destination::Tree(tree) => tree.prepare(),
            _ => Ok(()),
        }
    }

    /// Writes an improved result (files only; stdout waits for [`Self::finish`]).
    pub(crate) fn save(&self, bytes: &[u8]) -> Result<()> {
        match self {
            Destination::File(p) | Destination::InPlace(p) if !is_special(p) => {
                write_atomically(p, bytes)
            }
            Destination::Tree(tree) => tree.save(bytes),
            _ => Ok(()),
        }
    }

    /// Writes the final result.
    pub fn finish(&self, bytes: &[u8]) -> Result<()> {
        match self {
            Destination::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(bytes)
                    .context("cannot write the result to standard output")?;
                out.flush()
                    .context("cannot write the result to standard output")
            }
            Destination::File(p) | Destination::InPlace(p) if is_special(p) => {
                let mut out = fs::OpenOptions::new()
                    .write(true)
                    .open(p)
                    .with_context(|| format!("cannot open {}", p.display()))?;
                out.write_all(bytes)
                    .with_context(|| format!("cannot write {}", p.display()))
            }
            _ => self.save(bytes),
        }
    }

    /// How to name this destination in messages.
    pub fn describe(&self) -> String {
        match self {
            Destination::File(p) | Destination::InPlace(p) => p.display().to_string(),
            Destination::Stdout => "standard output".into(),
            Destination::Tree(tree) => format!("{}/", tree.dir.display()),
        }
    }
}

/// Whether `path` exists and is neither a regular file nor a directory
/// (`/dev/null`, a FIFO, a terminal): such an output is opened and written
/// once, at the end, never replaced by a rename (which would put a regular
/// file in its place) and never written per improvement.
fn is_special(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Writes `bytes` on standard output (what a run prints instead of
/// reducing, e.g. `--print-oracle`'s script).
pub(crate) fn write_stdout(bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .context("cannot write to standard output")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_output_sits_beside_the_input_and_keeps_the_extension() {
        assert_eq!(
            default_output(Path::new("dir/crash.c")),
            Path::new("dir/crash.reduced.c")
        );
        assert_eq!(
            default_output(Path::new("crash")),
            Path::new("crash.reduced")
        );
        assert_eq!(
            backup_path(Path::new("a/b.json")),
            Path::new("a/b.json.orig")
        );
    }

    #[test]
    fn an_output_in_a_missing_directory_is_refused_before_reducing() {
        let d = Destination::File(PathBuf::from("/nonexistent-dir-for-reduce/x.c"));
        let err = d.check_writable().unwrap_err().to_string();
        assert!(err.contains("does not exist"), "{err}");
    }

    #[test]
    fn atomic_writes_replace_the_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.txt");
        write_atomically(&p, b"first version").unwrap();
        write_atomically(&p, b"2nd").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"2nd");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// `-o /dev/null` or `-o some.fifo`: the special file stays what it is
    /// and gets the final result once (a rename would replace /dev/null
    /// with a regular file for the whole machine).
    #[test]
    fn a_special_output_file_is_written_in_place_once_and_never_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("out.fifo");
        let c_path = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: mkfifo reads a NUL-terminated path we own.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(fifo).unwrap())
        };
        let out = Destination::File(fifo.clone());
        out.check_writable().unwrap();
        out.save(b"an intermediate result").unwrap();
        out.finish(b"final").unwrap();
        assert_eq!(reader.join().unwrap(), b"final");
        assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temp file left"
        );
    }
}
