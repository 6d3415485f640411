//! How one test's process is started: the script with the candidate, or
//! `--run`'s command (directly when it is simple, else through
//! `/bin/sh -c`), through the launcher if there is one, with the
//! sanitizers told not to symbolize for `--same-crash`; or forked by a
//! server when the program speaks AFL++'s forkserver protocol.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use super::forkserver::{Forkservers, speaks_forkserver};
use super::process::{RUN_MARKER_VAR, run_marker};
use super::{CACHE_DIR_VAR, Finished, ScriptOracle, TEST_TMP};
use crate::interfaces::Watch;

/// The sanitizers' option variables given `symbolize=0` for the tests of a
/// `--same-crash` run (unless the user's own value sets `symbolize`):
/// symbolizing a report's stacks costs most of a crashing run (about 110
/// ms of 115 on the two-bug fixture), and the signature compares module
/// offsets as well as function names. The original's signature is read
/// symbolized once more, for what is shown. AddressSanitizer's leak check
/// at exit is turned off too (`detect_leaks=0`) once the signature kept is
/// no leak: it costs a test that does not crash about 2.5 ms, half of the
/// test of a small target through AFL++'s forkserver.
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

/// What keeps `--run`'s `command` from starting, when its program (the
/// first word, if it is a plain word) is a path that names no executable
/// file (relative to `cwd`), or a name the shell does not find.
pub(crate) fn program_problem(command: &str, cwd: &Path) -> Option<String> {
    let word = command.split_whitespace().next()?;
    let plain = |c: char| c.is_ascii_alphanumeric() || "._/+-".contains(c);
    if !word.chars().all(plain) {
        return None;
    }
    if word.contains('/') {
        let path = cwd.join(word);
        return match fs::metadata(&path) {
            Err(_) => Some(format!("program {word} does not exist")),
            Ok(m) if m.is_dir() => Some(format!("program {word} is a directory")),
            Ok(_) if executable(word.as_ref(), cwd).is_none() => Some(format!(
                "program {word} is not executable (chmod +x {word})"
            )),
            Ok(_) => None,
        };
    }
    if executable(word.as_ref(), cwd).is_some() {
        return None;
    }
    // A shell builtin or keyword is found by the shell alone.
    let found = Command::new("/bin/sh")
        .args(["-c", "command -v \"$1\" >/dev/null", "sh", word])
        .status()
        .is_ok_and(|s| s.success());
    (!found).then(|| {
        format!("program {word} is not a command: not on PATH (a program here is ./{word})")
    })
}

impl ScriptOracle {
    /// `--run`'s program when its command is simple and started without
    /// the shell (not through a launcher), found as the shell would.
    pub(super) fn direct_program(&self) -> Option<PathBuf> {
        match (&self.builtin, &self.launcher) {
            (Some(b), None) => {
                let words = b.direct_words(Path::new(""))?;
                executable(&words[0], b.cwd())
            }
            _ => None,
        }
    }

    /// The command that tests `candidate`: the script itself, or the
    /// launcher given the script and the candidate as its last arguments.
    /// With `--run`, its command instead of the script (started directly
    /// when simple and found, else through `/bin/sh -c`), in the directory
    /// `reduce` was started from.
    pub(super) fn command(&self, candidate: &Path, cwd: &Path) -> Command {
        let direct = match (&self.builtin, &self.direct) {
            (Some(b), Some(program)) => b.direct_words(candidate).map(|w| (program, w)),
            _ => None,
        };
        let (program, args): (PathBuf, Vec<OsString>) = match (&self.builtin, direct) {
            (Some(_), Some((program, mut words))) => {
                words.remove(0);
                (program.clone(), words)
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
        for var in UNSYMBOLIZED {
            let mut value = std::env::var(var).unwrap_or_default();
            let user = value.clone();
            let mut add = |option: &str| {
                let name = &option[..=option.find('=').unwrap_or(0)];
                if !user.contains(name) {
                    value.push_str(if value.is_empty() { "" } else { ":" });
                    value.push_str(option);
                }
            };
            if self.unsymbolized {
                add("symbolize=0");
            }
            if self.leaks_unchecked && var == "ASAN_OPTIONS" {
                add("detect_leaks=0");
            }
            if value != user {
                command.env(var, value);
            }
        }
        command
    }

    /// Forks `--run`'s tests through AFL++'s forkserver when `allowed` and
    /// its command is simple (started directly, the candidate its
    /// argument) and its program carries AFL++'s runtime; not with a
    /// launcher, `--memory-limit` or a file tree.
    pub(crate) fn with_forkserver(mut self, allowed: bool) -> Self {
        let program = match (&self.builtin, &self.memory, &self.tree) {
            (Some(b), None, None) if allowed && !b.reads_stdin() => self.direct.as_deref(),
            _ => None,
        };
        if program.is_some_and(speaks_forkserver) {
            let pool = Forkservers::new(self.work_dir.clone(), self.file_name.clone());
            self.forkservers = Some(Arc::new(pool));
        }
        self
    }

    /// The test of `bytes` forked by a server, when there is a pool and
    /// its servers answer; says once why they were given up.
    pub(super) fn run_forked(&self, bytes: &[u8], cancel: Watch<'_>) -> Option<Finished> {
        let pool = self.forkservers.as_ref()?;
        let start = |input: &Path, dir: &Path| {
            let mut command = self.command(input, dir);
            let tmp = dir.join(TEST_TMP);
            let _ = fs::create_dir(&tmp);
            command
                .env("TMPDIR", &tmp)
                .env(RUN_MARKER_VAR, run_marker());
            if let Some(shared) = self.shared_dir() {
                command.env(CACHE_DIR_VAR, shared);
            }
            command
        };
        let Some(run) = pool.run(bytes, self.timeout, cancel, &start) else {
            if let Some(reason) = pool.take_reason() {
                self.messages.say(&format!(
                    "reduce: AFL++'s forkserver of the --run command gave up ({reason}); \
                     every test starts the command afresh instead\n"
                ));
            }
            return None;
        };
        self.say_output(run.exit, &run.stdout, &run.stderr);
        Some(Finished {
            ran: true,
            exit: run.exit,
            took: run.took,
            stdout: run.stdout,
            stderr: run.stderr,
            arg: run.input,
        })
    }
}
