//! Writing a file in one rename, so that a reader (or a run killed at any
//! moment) sees the old content or the new one, never a part: the output
//! of one file, each file of a set's output, the stats, the history; and
//! where `--in-place` keeps an original.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// Replaces `path` with `bytes` in one rename, keeping its permissions if it existed.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = parent_dir(path);
    let mut tmp = tempfile::Builder::new()
        .prefix(".reduce-")
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    tmp.write_all(bytes)
        .and_then(|()| tmp.flush())
        .with_context(|| format!("cannot write {}", path.display()))?;
    if let Ok(meta) = fs::metadata(path) {
        let _ = fs::set_permissions(tmp.path(), meta.permissions());
    }
    tmp.persist(path)
        .with_context(|| format!("cannot replace {}", path.display()))?;
    Ok(())
}

/// The `.orig` backup path of `path` (`--in-place` keeps the original there).
pub(crate) fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".orig");
    path.with_file_name(name)
}

/// Makes the directory `path` goes in, and its parents.
pub(crate) fn make_parent(path: &Path) -> Result<()> {
    let dir = parent_dir(path);
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))
}

/// The directory `path` is in (`.` for a bare file name).
pub(crate) fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}
