//! Why a test could not be started: the script, its `#!` interpreter,
//! the test directory or `/dev/null` named, and whether trying again can
//! help (a missing script cannot, a missing directory may).

use std::fs;
use std::path::Path;

/// Why the oracle could not be started, with what to do about it. A
/// spawn's "not found" may mean the script, its `#!` interpreter, the test
/// directory or `/dev/null` (its standard input): each is looked at, and
/// the one missing named; only a missing script or interpreter (or one
/// that is not a program, or not executable) is a lasting cause.
pub(super) fn spawn_error(script: &Path, dir: Option<&Path>, err: std::io::Error) -> anyhow::Error {
    let shebang = fs::read(script).ok().and_then(|bytes| {
        let line = bytes.split(|&b| b == b'\n').next()?;
        let line = String::from_utf8_lossy(line.strip_prefix(b"#!")?);
        Some(line.trim().to_string())
    });
    let interpreter = shebang
        .as_deref()
        .and_then(|line| line.split_whitespace().next())
        .map(Path::new);
    let (hint, lasting) = match err.raw_os_error() {
        Some(libc::ENOENT) if !script.exists() => (": the script no longer exists".into(), true),
        Some(libc::ENOENT) if interpreter.is_some_and(|i| !i.exists()) => (
            format!(
                ": its interpreter `{}` (the #! line) was not found; fix the #! line",
                shebang.unwrap_or_default()
            ),
            true,
        ),
        Some(libc::ENOENT) if dir.is_some_and(|d| !d.is_dir()) => (
            format!(
                ": its test directory {} was gone when it started",
                dir.unwrap_or(Path::new("")).display()
            ),
            false,
        ),
        Some(libc::ENOENT) if dev_null_problem().is_some() => (
            format!(": {}", dev_null_problem().unwrap_or_default()),
            false,
        ),
        Some(libc::ENOENT) => (
            ": a file it needs to start was missing (the script, its interpreter, \
             the test directory and /dev/null are all there)"
                .into(),
            false,
        ),
        Some(libc::ENOEXEC) => (
            ": it is neither a program nor a script starting with #! (add e.g. #!/bin/sh)".into(),
            true,
        ),
        Some(libc::EACCES) => (
            ": permission denied (its interpreter or a directory on the path is not executable)"
                .into(),
            true,
        ),
        _ => (String::new(), false),
    };
    anyhow::anyhow!(err).context(SpawnFailed {
        message: format!("cannot run the oracle {}{hint}", script.display()),
        lasting,
    })
}

/// What is wrong with `/dev/null`, if anything: every test's standard
/// input, and where oracles send what they do not want. Something
/// running as root may replace it with a regular file (a compiler given
/// `-o /dev/null`), which every oracle then misbehaves with.
pub(crate) fn dev_null_problem() -> Option<String> {
    use std::os::unix::fs::FileTypeExt;
    match fs::metadata("/dev/null") {
        Ok(m) if m.file_type().is_char_device() => None,
        Ok(_) => Some(
            "/dev/null is not a character device (something replaced it with a file); \
             restore it as root: rm /dev/null && mknod -m 666 /dev/null c 1 3"
                .into(),
        ),
        Err(e) => Some(format!(
            "/dev/null cannot be used ({e}); restore it as root: mknod -m 666 /dev/null c 1 3"
        )),
    }
}

/// The context of an error starting the script, which tells it from one
/// setting up its directory; `lasting` when trying again cannot help
/// (the script or its interpreter is missing or unusable).
#[derive(Debug)]
pub(super) struct SpawnFailed {
    message: String,
    lasting: bool,
}

impl std::fmt::Display for SpawnFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Whether `err` (from [`crate::oracle::ScriptOracle::run`]) says the oracle can never
/// start: its script or interpreter is missing or unusable. Any other
/// failure to set up or start a test may pass, and is worth trying again.
pub(crate) fn cannot_ever_start(err: &anyhow::Error) -> bool {
    err.downcast_ref::<SpawnFailed>().is_some_and(|s| s.lasting)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interfaces::Watch;
    use crate::oracle::ScriptOracle;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    #[test]
    fn a_test_that_cannot_start_names_what_is_missing_not_an_interpreter_that_exists() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("check.sh");
        fs::write(&script, "#!/bin/sh\nexit 0\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
        let oracle = ScriptOracle::new(script.clone(), "in.txt".into(), Duration::from_secs(10));
        let never = AtomicBool::new(false);
        let gone = dir.path().join("gone");
        let err = oracle
            .run_by_hand(&script, &gone, Watch::Flag(&never))
            .unwrap_err();
        let said = format!("{err:#}");
        assert!(said.contains("its test directory"), "{said}");
        assert!(said.contains(&gone.display().to_string()), "{said}");
        assert!(!said.contains("interpreter"), "{said}");
        assert!(!cannot_ever_start(&err), "a passing cause is worth a retry");
        // A missing interpreter is named, and lasting.
        fs::write(&script, "#!/nonexistent/bin/sh\nexit 0\n").unwrap();
        let err = oracle
            .run_by_hand(&script, dir.path(), Watch::Flag(&never))
            .unwrap_err();
        assert!(format!("{err:#}").contains("its interpreter `/nonexistent/bin/sh`"));
        assert!(cannot_ever_start(&err));
    }
}
