//! Where tests run: the directory test directories are made in (by
//! default a RAM-backed `/dev/shm` when it is suitable), the run's shared
//! cache directory every test may keep caches in, and removing a test
//! directory whatever the script did to it.
//!
//! Each test gets a fresh `TMPDIR` inside its own directory, removed when
//! it ends: nothing leaks from one test to the next. A compiler cache
//! kept there (`GOCACHE`, `CCACHE_DIR`) would start cold at every test, so
//! the run also makes one directory that lasts from its first test to its
//! end, named by [`CACHE_DIR_VAR`] in every test's environment, and says
//! once when tests leave more than [`TMPDIR_NOTICE_BYTES`] in their
//! `TMPDIR`. A directory a test left behind that cannot be removed (a
//! process that escaped the test's group still writing into it) is
//! removed after the run's stray processes are killed.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

/// The environment variable naming the run's shared cache directory.
pub(crate) const CACHE_DIR_VAR: &str = "REDUCE_CACHE_DIR";

/// What tests may leave in their `TMPDIR` before the run says once that
/// it is thrown away after each test.
pub(crate) const TMPDIR_NOTICE_BYTES: u64 = 4 << 20;

/// What a shared cache directory's name starts with.
const CACHE_PREFIX: &str = "reduce-cache-";

/// A fresh directory named `prefix…` in `work_dir` (else the system's
/// temporary directory), removed when dropped: a test's, an outside
/// command's, a forkserver's.
pub(super) fn temp_dir(
    work_dir: Option<&Path>,
    prefix: &str,
) -> std::io::Result<tempfile::TempDir> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(prefix);
    match work_dir {
        Some(w) => builder.tempdir_in(w),
        None => builder.tempdir(),
    }
}

/// The run's shared cache directory, removed when dropped (at the end of
/// the run: the oracle holds it), and whether the notice about `TMPDIR`
/// was said.
#[derive(Debug)]
pub(crate) struct SharedDir {
    pub(crate) path: PathBuf,
    pub(crate) said_tmp: AtomicBool,
}

impl SharedDir {
    /// Makes the run's cache directory in `work_dir` (else the system's
    /// temporary directory), removing those that runs of this machine
    /// which are no longer alive left behind (a run killed with SIGKILL).
    pub(crate) fn make(work_dir: Option<&Path>) -> std::io::Result<SharedDir> {
        let base = work_dir.map_or_else(std::env::temp_dir, Path::to_path_buf);
        let ours = format!("{CACHE_PREFIX}{}-", host_name());
        remove_dead_runs_dirs(&base, &ours);
        let path = tempfile::Builder::new()
            .prefix(&format!("{ours}{}-", std::process::id()))
            .tempdir_in(&base)?
            .keep();
        Ok(SharedDir {
            path,
            said_tmp: AtomicBool::new(false),
        })
    }
}

impl Drop for SharedDir {
    fn drop(&mut self) {
        for _ in 0..3 {
            make_dirs_writable(&self.path);
            match fs::remove_dir_all(&self.path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    super::process::kill_marked_in(&self.path);
                }
                _ => return,
            }
        }
    }
}

/// This machine's name, as cache directories carry it: a work directory
/// shared by several machines (`--launcher`) holds the others' too, whose
/// process ids mean nothing here.
fn host_name() -> String {
    fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().replace(['/', '-'], "_"))
        .unwrap_or_default()
}

/// Removes the cache directories in `base` named `ours` and a process id
/// whose run is no longer alive.
fn remove_dead_runs_dirs(base: &Path, ours: &str) {
    let Ok(entries) = fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(ours))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<i32>().ok())
        else {
            continue;
        };
        // SAFETY: kill with signal 0 only asks whether the process exists.
        let alive = unsafe { libc::kill(pid, 0) == 0 }
            || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
        if !alive && entry.file_type().is_ok_and(|t| t.is_dir()) {
            make_dirs_writable(&entry.path());
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// The bytes under `dir`, counted up to a little past `limit`.
pub(super) fn bytes_under(dir: &Path, limit: u64) -> u64 {
    let mut total = 0;
    for entry in walkdir::WalkDir::new(dir).into_iter().flatten() {
        if entry.file_type().is_file() {
            total += entry.metadata().map_or(0, |m| m.len());
            if total > limit {
                break;
            }
        }
    }
    total
}

/// Test directories that could not be removed when their test ended,
/// removed once the run has killed its stray processes.
static LEFTOVERS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes the test directories left over (after the run's strays are
/// killed); returns those that still cannot be removed.
pub(crate) fn remove_leftover_dirs() -> Vec<(PathBuf, std::io::Error)> {
    let dirs = std::mem::take(&mut *LEFTOVERS.lock().unwrap_or_else(|e| e.into_inner()));
    dirs.into_iter()
        .filter_map(|dir| {
            make_dirs_writable(&dir);
            match fs::remove_dir_all(&dir) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Some((dir, e)),
                _ => None,
            }
        })
        .collect()
}

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

/// Removes a test directory even if the script made parts of it
/// read-only, or a process of this run that left the test's group still
/// writes in it (it is killed). What still cannot be removed is left for
/// the end of the run ([`remove_leftover_dirs`]), said then only if it
/// still cannot be.
pub(super) fn remove_dir_robustly(dir: &Path) {
    for attempt in 0..4 {
        match fs::remove_dir_all(dir) {
            Ok(()) => return,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
            Err(_) if attempt == 0 => make_dirs_writable(dir),
            Err(_) => {
                super::process::kill_marked_in(dir);
                make_dirs_writable(dir);
            }
        }
    }
    LEFTOVERS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(dir.to_path_buf());
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
        remove_dir_robustly(&victim);
        assert!(!victim.exists());
        remove_dir_robustly(&victim); // already gone: nothing to do
    }

    #[test]
    fn the_shared_cache_directory_goes_with_its_run_and_a_dead_runs_with_the_next() {
        let base = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let ours = format!("{CACHE_PREFIX}{}-", host_name());
        let stale = base.path().join(format!("{ours}{dead}-x"));
        fs::create_dir_all(stale.join("sub")).unwrap();
        let elsewhere = base
            .path()
            .join(format!("{CACHE_PREFIX}elsewhere-{dead}-x"));
        fs::create_dir(&elsewhere).unwrap();
        let shared = SharedDir::make(Some(base.path())).unwrap();
        assert!(!stale.exists(), "a dead run's directory is removed");
        assert!(elsewhere.exists(), "another machine's is not");
        assert!(shared.path.is_dir());
        let path = shared.path.clone();
        fs::write(path.join("cache"), "x").unwrap();
        drop(shared);
        assert!(!path.exists());
    }
}
