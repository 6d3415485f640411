//! Writing a reduced set of files so that it is never half-written: a
//! fresh directory built beside the output and swapped in with one atomic
//! exchange (`renameat2(RENAME_EXCHANGE)`). `--in-place` on a directory
//! does the same to the directory itself, after copying it whole to
//! `DIR.orig`; on listed files (no directory of their own to swap) each
//! changed file is replaced by a rename after its `FILE.orig` copy was
//! saved.
//!
//! A non-empty `-o` directory is refused unless a journal beside it says
//! it is the output of an interrupted run (which the same command resumes).
//!
//! The swap makes each improvement one step: killing `reduce` at any moment
//! leaves the output directory whole, as of an interesting candidate (at
//! worst a hidden `.NAME.reduce-new-*` directory beside it, the previous
//! result, which the next run removes). Listed files in place are renamed
//! file by file: an improvement of the default pipeline's file stages
//! changes one file, so that holds for it too, but one of its pool stages
//! may change several files, which a kill can leave half-applied. So does
//! a directory in place that holds the working directory, which the swap
//! would move away from under the user's shell.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::atomic_write::{backup_path, make_parent, parent_dir, write_atomically};
use crate::fileset::{FileSet, decode};
use crate::journal::journal_path;

/// Where a reduced set of files goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeOutput {
    /// The output directory (or the input's base directory, in place).
    pub dir: PathBuf,
    pub in_place: bool,
    /// The output is the default one (`<dir>.reduced`), replaced if it exists.
    pub default: bool,
    /// In place on a directory: the directory swapped whole after every
    /// improvement, its original kept as `DIR.orig` (else, in place, each
    /// file renamed and kept as `FILE.orig`).
    swap_in_place: bool,
    /// The input's base directory, whose files give each output file its
    /// permissions.
    base: PathBuf,
    /// The directories under the input directory (in place), made in
    /// every fresh copy so that an empty one is not lost.
    subdirs: Vec<String>,
    /// The files of the original, relative to `dir` (in place: to remove
    /// the ones the reduction deleted).
    originals: Vec<String>,
    /// Files `--exclude` kept, copied into a fresh output as they are.
    kept: Vec<(String, PathBuf)>,
}

/// The default output of a set: `<dir>.reduced` for a directory, `reduced`
/// in the listed files' common directory for a list.
pub fn default_dir(set: &FileSet) -> PathBuf {
    if set.is_directory {
        let mut name = set.base.file_name().unwrap_or_default().to_os_string();
        name.push(".reduced");
        set.base.with_file_name(name)
    } else {
        set.base.join("reduced")
    }
}

impl TreeOutput {
    pub fn new(set: &FileSet, output: Option<&Path>, in_place: bool) -> Self {
        let (dir, default) = match (in_place, output) {
            (true, _) => (set.base.clone(), false),
            (false, Some(o)) => (o.to_path_buf(), false),
            (false, None) => (default_dir(set), true),
        };
        let swap_in_place = in_place && set.is_directory && !holds_the_working_directory(&dir);
        let mut subdirs = Vec::new();
        if swap_in_place {
            subdirs_of(&dir, "", &mut subdirs);
        }
        TreeOutput {
            dir,
            in_place,
            default,
            swap_in_place,
            base: set.base.clone(),
            subdirs,
            originals: set.members.iter().map(|m| m.path.clone()).collect(),
            kept: set.kept.clone(),
        }
    }

    /// Refuses an output that would overwrite what it should not: a
    /// non-empty directory given with `-o`, a file, an existing `.orig`.
    pub fn check_writable(&self) -> Result<()> {
        if self.in_place {
            let backups: Vec<PathBuf> = if self.swap_in_place {
                vec![backup_path(&self.dir)]
            } else {
                self.originals
                    .iter()
                    .map(|rel| backup_path(&self.dir.join(rel)))
                    .collect()
            };
            for backup in backups {
                if backup.exists() {
                    bail!(
                        "{} already exists; move it away (it may hold an earlier original) or use -o",
                        backup.display()
                    );
                }
            }
            return if self.swap_in_place {
                self.remove_stale()
            } else {
                Ok(())
            };
        }
        match fs::symlink_metadata(&self.dir) {
            Err(_) => {}
            Ok(m) if !m.is_dir() => bail!(
                "cannot write the result to {}: it exists and is not a directory",
                self.dir.display()
            ),
            Ok(_)
                if !self.default
                    && !self.resumable()
                    && fs::read_dir(&self.dir)?.next().is_some() =>
            {
                bail!(
                    "-o {} is a directory that is not empty; give a new or empty one",
                    self.dir.display()
                )
            }
            Ok(_) => {}
        }
        let parent = parent_dir(&self.dir);
        if !parent.is_dir() {
            bail!(
                "cannot write the result to {}: directory {} does not exist",
                self.dir.display(),
                parent.display()
            );
        }
        self.remove_stale()
    }

    /// Whether the output is an interrupted run's, its journal beside it
    /// (`journal.rs`): the same command resumes it, `--fresh` starts over,
    /// and either replaces it.
    fn resumable(&self) -> bool {
        journal_path(&self.dir).is_file()
    }

    /// Removes what a run killed between a swap and its clean-up left.
    fn remove_stale(&self) -> Result<()> {
        let prefix = self.scratch_prefix();
        for entry in fs::read_dir(parent_dir(&self.dir))?.flatten() {
            if entry.file_name().to_string_lossy().starts_with(&prefix) {
                let _ = fs::remove_dir_all(entry.path());
            }
        }
        Ok(())
    }

    fn scratch_prefix(&self) -> String {
        let name = self.dir.file_name().unwrap_or_default().to_string_lossy();
        format!(".{name}.reduce-new-")
    }

    /// Saves the originals as `.orig` for `--in-place` (a directory whole
    /// as `DIR.orig`, through a scratch copy renamed); call once before
    /// reducing.
    pub fn prepare(&self) -> Result<()> {
        if self.swap_in_place {
            let scratch = self.scratch()?;
            copy_tree(&self.dir, scratch.path())?;
            let target = backup_path(&self.dir);
            fs::rename(scratch.keep(), &target)
                .with_context(|| format!("cannot save {} as .orig", self.dir.display()))?;
        } else if self.in_place {
            for rel in &self.originals {
                let path = self.dir.join(rel);
                fs::copy(&path, backup_path(&path))
                    .with_context(|| format!("cannot save {} as .orig", path.display()))?;
            }
        }
        Ok(())
    }

    /// Writes the files of `archive`.
    pub fn save(&self, archive: &[u8]) -> Result<()> {
        let files = decode(archive).context("the result's archive does not decode")?;
        if self.in_place && !self.swap_in_place {
            return self.save_in_place(&files);
        }
        let scratch = self.scratch()?;
        for rel in &self.subdirs {
            make_dir(&scratch.path().join(rel))?;
        }
        for (rel, content) in &files {
            let path = scratch.path().join(rel);
            write_file(&path, content)?;
            if let Ok(meta) = fs::metadata(self.base.join(rel)) {
                let _ = fs::set_permissions(&path, meta.permissions());
            }
        }
        if let Ok(meta) = fs::metadata(&self.dir) {
            let _ = fs::set_permissions(scratch.path(), meta.permissions());
        }
        for (rel, from) in &self.kept {
            let to = scratch.path().join(rel);
            make_parent(&to)?;
            fs::copy(from, &to).with_context(|| format!("cannot copy {}", from.display()))?;
        }
        let scratch = scratch.keep();
        if self.dir.exists() {
            exchange(&scratch, &self.dir)?;
            fs::remove_dir_all(&scratch)
                .with_context(|| format!("cannot remove {}", scratch.display()))?;
        } else {
            fs::rename(&scratch, &self.dir)
                .with_context(|| format!("cannot write {}", self.dir.display()))?;
        }
        Ok(())
    }

    /// A fresh hidden directory beside the output.
    fn scratch(&self) -> Result<tempfile::TempDir> {
        let parent = parent_dir(&self.dir);
        tempfile::Builder::new()
            .prefix(&self.scratch_prefix())
            .tempdir_in(parent)
            .with_context(|| format!("cannot create a directory in {}", parent.display()))
    }

    fn save_in_place(&self, files: &[(&str, &[u8])]) -> Result<()> {
        for rel in &self.originals {
            let path = self.dir.join(rel);
            let content = files.iter().find(|(p, _)| p == rel).map(|(_, c)| *c);
            match content {
                Some(content) if fs::read(&path).ok().as_deref() != Some(content) => {
                    write_file(&path, content)?;
                }
                None if path.exists() => fs::remove_file(&path)
                    .with_context(|| format!("cannot remove {}", path.display()))?,
                _ => {}
            }
        }
        Ok(())
    }
}

fn make_dir(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))
}

/// Whether the working directory is `dir` or under it (a swap would move
/// it away from under the user's shell).
fn holds_the_working_directory(dir: &Path) -> bool {
    match (fs::canonicalize(dir), std::env::current_dir()) {
        (Ok(dir), Ok(cwd)) => cwd.starts_with(dir),
        _ => true,
    }
}

/// The directories under `dir` (relative to it, `/`-separated, parents
/// first), as far as they can be read.
fn subdirs_of(dir: &Path, prefix: &str, found: &mut Vec<String>) {
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            let rel = format!("{prefix}{}", entry.file_name().to_string_lossy());
            found.push(rel.clone());
            subdirs_of(&entry.path(), &format!("{rel}/"), found);
        }
    }
}

/// Copies the tree `from` (directories and regular files, modes kept) to
/// the existing directory `to`.
fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    let entries =
        fs::read_dir(from).with_context(|| format!("cannot read directory {}", from.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read directory {}", from.display()))?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            make_dir(&target)?;
            copy_tree(&entry.path(), &target)?;
        } else {
            fs::copy(entry.path(), &target)
                .with_context(|| format!("cannot copy {}", entry.path().display()))?;
        }
    }
    if let Ok(meta) = fs::metadata(from) {
        let _ = fs::set_permissions(to, meta.permissions());
    }
    Ok(())
}

/// Replaces `path` with `bytes` in one rename, making its directory first.
fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    make_parent(path)?;
    write_atomically(path, bytes)
}

/// Swaps two directories in one step.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> Result<()> {
    use std::ffi::CString;
    let c = |p: &Path| CString::new(p.as_os_str().as_encoded_bytes()).context("a path holds NUL");
    let (ca, cb) = (c(a)?, c(b)?);
    // SAFETY: both are valid NUL-terminated paths; AT_FDCWD resolves them
    // as relative to the current directory.
    let rc = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            ca.as_ptr(),
            libc::AT_FDCWD,
            cb.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if rc != 0 {
        return Err(std::io::Error::last_os_error())
            .with_context(|| format!("cannot replace {}", b.display()));
    }
    Ok(())
}

/// Elsewhere: the old directory moved aside, then the new one in (a kill
/// between the two leaves the result in the scratch directory).
#[cfg(not(target_os = "linux"))]
fn exchange(a: &Path, b: &Path) -> Result<()> {
    let aside = a.with_extension("old");
    fs::rename(b, &aside)?;
    fs::rename(a, b)?;
    fs::rename(&aside, a)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fileset::encode;

    fn output_in(dir: &Path) -> TreeOutput {
        TreeOutput {
            dir: dir.join("out"),
            in_place: false,
            default: true,
            swap_in_place: false,
            base: dir.to_path_buf(),
            subdirs: vec![],
            originals: vec![],
            kept: vec![],
        }
    }

    #[test]
    fn each_save_replaces_the_whole_output_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let out = output_in(tmp.path());
        out.check_writable().unwrap();
        out.save(&encode([("a.c", &b"int a;"[..]), ("sub/b.h", b"int b;")]))
            .unwrap();
        out.save(&encode([("a.c", &b"int;"[..])])).unwrap();
        assert_eq!(fs::read(out.dir.join("a.c")).unwrap(), b"int;");
        assert!(!out.dir.join("sub").exists(), "deleted files go");
        let names: Vec<_> = fs::read_dir(tmp.path()).unwrap().flatten().collect();
        assert_eq!(names.len(), 1, "nothing left beside the output");
    }
}
