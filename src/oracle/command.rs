//! How one test's process is started: the script with the candidate, or
//! `--run`'s command (directly when it is simple, else through
//! `/bin/sh -c`), through the launcher if there is one, with the
//! sanitizers told not to symbolize for `--same-crash`.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::ScriptOracle;

/// The sanitizers' option variables given `symbolize=0` for the tests of a
/// `--same-crash` run (unless the user's own value sets `symbolize`):
/// symbolizing a report's stacks costs most of a crashing run (about 110
/// ms of 115 on the two-bug fixture), and the signature compares module
/// offsets as well as function names. The original's signature is read
/// symbolized once more, for what is shown.
const UNSYMBOLIZED: [&str; 4] = [
    "ASAN_OPTIONS",
    "UBSAN_OPTIONS",
    "MSAN_OPTIONS",
    "LSAN_OPTIONS",
];

/// The executable `word` names, as the shell would find it: a path with a
/// `/` (relative to `cwd`), else the first in `PATH`; `None` when there
/// is none, so that the shell runs the command and says why (exit 126 or
/// 127, a verdict, instead of a test that cannot start).
fn executable(word: &std::ffi::OsStr, cwd: &Path) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let runnable = |p: &Path| {
        fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    let path = Path::new(word);
    if path.components().count() > 1 {
        let path = cwd.join(path);
        return runnable(&path).then_some(path);
    }
    let dirs = std::env::var_os("PATH")?;
    std::env::split_paths(&dirs)
        .map(|dir| dir.join(path))
        .find(|p| runnable(p))
}

impl ScriptOracle {
    /// The command that tests `candidate`: the script itself, or the
    /// launcher given the script and the candidate as its last arguments.
    /// With `--run`, its command instead of the script (started directly
    /// when simple and found, else through `/bin/sh -c`), in the directory
    /// `reduce` was started from.
    pub(super) fn command(&self, candidate: &Path, cwd: &Path) -> Command {
        let direct = match (&self.builtin, &self.launcher) {
            (Some(b), None) => b.direct_words(candidate),
            _ => None,
        };
        let (program, args): (PathBuf, Vec<OsString>) = match (&self.builtin, direct) {
            (Some(b), Some(mut words)) if let Some(program) = executable(&words[0], b.cwd()) => {
                words.remove(0);
                (program, words)
            }
            (Some(b), _) => (
                PathBuf::from("/bin/sh"),
                vec!["-c".into(), b.shell_line(candidate).into()],
            ),
            (None, _) => (self.script.clone(), vec![candidate.into()]),
        };
        let mut command = match &self.launcher {
            None => {
                let mut command = Command::new(&program);
                command.args(args);
                command
            }
            Some(launcher) => {
                let mut command = Command::new("/bin/sh");
                command
                    .arg("-c")
                    .arg(format!("{launcher} \"$@\""))
                    .arg("reduce-launcher")
                    .arg(&program)
                    .args(args);
                command
            }
        };
        command.current_dir(self.builtin.as_ref().map_or(cwd, |b| b.cwd()));
        if self.unsymbolized {
            for var in UNSYMBOLIZED {
                let value = std::env::var(var).unwrap_or_default();
                if !value.contains("symbolize=") {
                    let sep = if value.is_empty() { "" } else { ":" };
                    command.env(var, format!("{value}{sep}symbolize=0"));
                }
            }
        }
        command
    }
}
