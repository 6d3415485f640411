//! Where tests run: the directory test directories are made in (by
//! default a RAM-backed `/dev/shm` when it is suitable), and removing a
//! test directory whatever the script did to it.

use std::fs;
use std::path::{Path, PathBuf};

use crate::interfaces::Messages;

/// Where test directories go without `--work-dir`: `/dev/shm` when it is a
/// writable tmpfs that allows executables and has [`SHM_MIN_FREE`] free,
/// unless the user set `TMPDIR` (then theirs, as the `tempfile` crate reads
/// it); `None` means `TMPDIR` or `/tmp`. Creating, writing and removing a
/// directory per test skips ext4's inode allocation on tmpfs (about 5% of
/// the reducer's CPU, docs/benchmarks.md), and the oracle's own temporary files, which
/// go to the test's TMPDIR, never reach a disk.
pub(crate) fn default_work_dir() -> Option<PathBuf> {
    if std::env::var_os("TMPDIR").is_some_and(|t| !t.is_empty()) {
        return None;
    }
    let shm = Path::new("/dev/shm");
    shm_is_suitable(shm).then(|| shm.to_path_buf())
}

/// The free space a RAM-backed work directory must have: small `/dev/shm`s
/// (a container's 64 MB) are left alone.
pub(crate) const SHM_MIN_FREE: u64 = 1 << 30;

#[cfg(target_os = "linux")]
#[allow(clippy::unnecessary_cast)] // the statfs field types differ between targets
fn shm_is_suitable(dir: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    const TMPFS_MAGIC: i64 = 0x0102_1994;
    let Ok(path) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `path` is a valid C string and both structs are plain data
    // the calls fill in.
    let (fs, vfs) = unsafe {
        let mut fs: libc::statfs = std::mem::zeroed();
        let mut vfs: libc::statvfs = std::mem::zeroed();
        if libc::statfs(path.as_ptr(), &mut fs) != 0
            || libc::statvfs(path.as_ptr(), &mut vfs) != 0
            || libc::access(path.as_ptr(), libc::W_OK | libc::X_OK) != 0
        {
            return false;
        }
        (fs, vfs)
    };
    fs.f_type as i64 == TMPFS_MAGIC
        && vfs.f_flag & (libc::ST_NOEXEC | libc::ST_RDONLY) == 0
        && (vfs.f_bavail as u64).saturating_mul(vfs.f_frsize as u64) >= SHM_MIN_FREE
}

#[cfg(not(target_os = "linux"))]
fn shm_is_suitable(_dir: &Path) -> bool {
    false
}

/// Removes a test directory even if the script made parts of it read-only.
/// A failure is reported, not fatal: the reduction goes on.
pub(super) fn remove_dir_robustly(dir: &Path, messages: &dyn Messages) {
    for attempt in 0..3 {
        match fs::remove_dir_all(dir) {
            Ok(()) => return,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
            Err(e) if attempt == 2 => {
                messages.say(&format!(
                    "reduce: cannot remove the test directory {}: {e}\n",
                    dir.display()
                ));
            }
            Err(_) => make_dirs_writable(dir),
        }
    }
}

/// `chmod u+rwx` on `dir` and every directory below it (symlinks are not followed).
fn make_dirs_writable(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let _ = fs::set_permissions(&d, fs::Permissions::from_mode(0o700));
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(entry.path());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_test_directory_made_read_only_is_still_removed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("test");
        fs::create_dir_all(victim.join("ro/sub")).unwrap();
        fs::write(victim.join("ro/sub/f"), "x").unwrap();
        for d in ["ro/sub", "ro", ""] {
            fs::set_permissions(victim.join(d), fs::Permissions::from_mode(0o500)).unwrap();
        }
        let messages = crate::progress::Printer::stderr();
        remove_dir_robustly(&victim, &messages);
        assert!(!victim.exists());
        remove_dir_robustly(&victim, &messages); // already gone: nothing to do
    }
}
