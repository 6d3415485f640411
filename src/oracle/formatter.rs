//! Running a formatter on the result (`--format native`, `--format-with`),
//! here because only the oracle module starts processes.
//!
//! The language's formatters (`formatters` in grammars/*.json: clang-format,
//! rustfmt, gofmt, ruff or black, prettier, shfmt, a JSON pretty-printer)
//! are tried in order, each only if its program is installed (found on
//! `PATH`); one that is missing or fails is skipped without a word. A
//! `--format-with` command runs through `/bin/sh` instead, and a failure
//! of it is said once. Each runs like an outside command (its own
//! process group, the oracle's timeout, `--memory-limit`, a fresh
//! `TMPDIR`), gets the text on stdin and prints the formatted text; the
//! format pass proposes that text, which the oracle judges like any other
//! candidate.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{Outside, ScriptOracle};
use crate::interfaces::{Formatter, Watch};

/// The formatter of a run: the user's command, else the language's.
pub(crate) struct Formatting<'a> {
    oracle: &'a ScriptOracle,
    /// `--format-with`, a shell command.
    command: Option<&'a str>,
    interrupt: Option<&'a AtomicBool>,
    /// Whether a failure of `command` was said.
    said: AtomicBool,
}

impl<'a> Formatting<'a> {
    pub(crate) fn new(
        oracle: &'a ScriptOracle,
        command: Option<&'a str>,
        interrupt: Option<&'a AtomicBool>,
    ) -> Self {
        Formatting {
            oracle,
            command,
            interrupt,
            said: AtomicBool::new(false),
        }
    }

    /// Runs `command` with `text` on its stdin; what it printed if it
    /// exited 0 and printed something.
    fn filter(&self, command: Command, text: &[u8]) -> Result<Vec<u8>, String> {
        let never = AtomicBool::new(false);
        let cancel = self.interrupt.map_or(Watch::Flag(&never), Watch::Interrupt);
        let dir = self.oracle.outside_dir().map_err(|e| format!("{e:#}"))?;
        let result = self
            .oracle
            .run_outside(command, dir.path(), Some(text), cancel);
        super::workdir::remove_dir_robustly(dir.path());
        match result {
            Ok(Outside::Gave(out)) if !out.trim_ascii().is_empty() => Ok(out),
            Ok(Outside::Gave(_)) => Err("it printed nothing".into()),
            Ok(Outside::Failed(exit)) => Err(format!("it failed ({exit})")),
            Err(e) => Err(format!("it could not run: {e:#}")),
        }
    }
}

impl Formatter for Formatting<'_> {
    fn format(&self, commands: &[Vec<String>], text: &[u8]) -> Option<Vec<u8>> {
        if let Some(command) = self.command {
            let mut shell = Command::new("/bin/sh");
            shell.arg("-c").arg(command);
            return match self.filter(shell, text) {
                Ok(out) => Some(out),
                Err(why) => {
                    if !self.said.swap(true, Ordering::Relaxed) {
                        self.oracle.messages.say(&format!(
                            "reduce: --format-with {command}: {why}; the result is laid out by reduce\n"
                        ));
                    }
                    None
                }
            };
        }
        commands.iter().find_map(|argv| {
            let (program, args) = argv.split_first()?;
            let mut command = Command::new(installed(program)?);
            command.args(args);
            self.filter(command, text).ok()
        })
    }
}

/// Where `program` is installed: itself if it names a path, else the first
/// executable file of that name in a directory of `PATH`.
fn installed(program: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &Path| {
        p.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        let path = PathBuf::from(program);
        return executable(&path).then_some(path);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| executable(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_missing_formatter_is_skipped_for_the_next_one_installed() {
        assert!(installed("no-such-formatter-for-reduce").is_none());
        assert!(installed("sh").is_some());
        let oracle =
            ScriptOracle::new("/bin/true".into(), "in.txt".into(), Duration::from_secs(10));
        let formatting = Formatting::new(&oracle, None, None);
        let commands = [
            vec!["no-such-formatter-for-reduce".to_string()],
            vec!["false".to_string()],
            vec!["tr".to_string(), "a-z".to_string(), "A-Z".to_string()],
        ];
        assert_eq!(
            formatting.format(&commands, b"int x;\n").unwrap(),
            b"INT X;\n"
        );
        assert_eq!(formatting.format(&commands[..2], b"int x;\n"), None);
    }
}
