//! What a test that could not run means to the user: the system error
//! behind it turned into a [`Fault`] that names the cause and what to do.
//!
//! A fault is not a verdict (the loop retries the candidate and stops the
//! run if the fault lasts), so its message must tell the user what to fix
//! before running the same command again, which resumes the run.

use std::path::Path;

use crate::interfaces::Fault;

/// The exit status of a launcher that could not run the test itself (the
/// convention of `timeout`, `env`, `nice`, `docker run`, `podman run`):
/// with `--launcher`, a fault rather than a verdict.
pub(crate) const LAUNCHER_FAILED: i32 = 125;

/// Where a test was being set up or started when it failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Making the test's directory or writing into it.
    Prepare,
    /// Starting the script (or the launcher's shell).
    Spawn,
}

/// The fault `err` (a failed set-up or start of a test under `work_dir`)
/// stands for: its system error named with what to do, else its text.
pub(crate) fn fault_of(err: &anyhow::Error, step: Step, work_dir: &Path) -> Fault {
    let os = err.chain().find_map(os_error);
    let dir = work_dir.display();
    let cause = match (os, step) {
        (Some(libc::ENOSPC | libc::EDQUOT | libc::EFBIG), _) => format!(
            "the work directory {dir} is full (or a file size or quota limit was reached); \
             free some space there or choose another with --work-dir"
        ),
        (Some(libc::EMFILE | libc::ENFILE), _) => {
            "too many open files; raise the limit (ulimit -n) or lower -j".to_string()
        }
        (Some(libc::EAGAIN), Step::Spawn) => {
            "the process table is full (or the limit on processes, ulimit -u, is reached); \
             lower -j or stop other processes"
                .to_string()
        }
        (Some(libc::ENOMEM), _) => "memory is short; lower -j or stop other processes".into(),
        (Some(libc::EROFS | libc::EACCES | libc::EPERM), Step::Prepare) => format!(
            "the work directory {dir} is read-only or not writable; \
             make it writable or choose another with --work-dir"
        ),
        (Some(libc::ENOENT), Step::Prepare) if !work_dir.is_dir() => format!(
            "the work directory {dir} no longer exists; create it again or choose another with --work-dir"
        ),
        _ => {
            return Fault {
                cause: format!("a test could not run: {err:#}"),
            };
        }
    };
    Fault {
        cause: format!("a test could not run: {cause} ({})", err.root_cause()),
    }
}

/// The system error number behind `err`; for an io error that wraps
/// another (the `tempfile` crate's carry the path), the number its kind
/// stands for.
fn os_error(err: &(dyn std::error::Error + 'static)) -> Option<i32> {
    use std::io::ErrorKind as K;
    let io = err.downcast_ref::<std::io::Error>()?;
    io.raw_os_error().or(match io.kind() {
        K::StorageFull | K::QuotaExceeded | K::FileTooLarge => Some(libc::ENOSPC),
        K::NotFound => Some(libc::ENOENT),
        K::PermissionDenied => Some(libc::EACCES),
        K::ReadOnlyFilesystem => Some(libc::EROFS),
        K::OutOfMemory => Some(libc::ENOMEM),
        _ => None,
    })
}

/// The fault of a launcher that exited with [`LAUNCHER_FAILED`].
pub(crate) fn launcher_fault(launcher: &str) -> Fault {
    Fault {
        cause: format!(
            "the launcher `{launcher}` could not run a test (exit status {LAUNCHER_FAILED}); \
             check the cluster or the launcher"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn io(code: i32) -> anyhow::Error {
        anyhow::Error::new(std::io::Error::from_raw_os_error(code)).context("cannot write x")
    }

    #[test]
    fn system_errors_are_named_with_what_to_do() {
        let dir = Path::new("/");
        let cause = |code, step| fault_of(&io(code), step, dir).cause;
        assert!(cause(libc::ENOSPC, Step::Prepare).contains("the work directory / is full"));
        assert!(cause(libc::EMFILE, Step::Prepare).contains("too many open files"));
        assert!(cause(libc::EAGAIN, Step::Spawn).contains("the process table is full"));
        assert!(cause(libc::ENOMEM, Step::Spawn).contains("memory is short"));
        assert!(cause(libc::EROFS, Step::Prepare).contains("read-only"));
        let gone = fault_of(&io(libc::ENOENT), Step::Prepare, Path::new("/no/such/dir")).cause;
        assert!(gone.contains("/no/such/dir no longer exists"), "{gone}");
        let wrapped = anyhow::Error::new(std::io::Error::new(
            std::io::ErrorKind::StorageFull,
            "no space left at path /x",
        ));
        assert!(
            fault_of(&wrapped, Step::Prepare, dir)
                .cause
                .contains("is full")
        );
        let other = cause(libc::EIO, Step::Prepare);
        assert!(other.contains("cannot write x"), "{other}");
    }
}
