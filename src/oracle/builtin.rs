//! The oracle without a script: `--run 'CMD {}'` judged by `--expect-*`
//! and `--same-crash`, so that shrinking a fuzzer's crash needs no shell
//! script (and none that greps for too little and lets the reduction slide
//! to another bug).
//!
//! The command runs like a script (`oracle/mod.rs`: a fresh directory
//! holding the candidate, its own process group, the timeout, the
//! launcher, the cache and the journal are the same); only the verdict
//! differs: instead of "exit 0", every expectation given must hold of the
//! run's exit and output. `{}` in the command is the candidate's absolute
//! path; without `{}` the candidate is the command's standard input. The
//! command runs through `/bin/sh -c` in the directory `reduce` was started
//! from, so `./target {}` names what the user sees (as `--reduce-with`
//! commands do); its `TMPDIR` is inside the test's directory.
//!
//! `--print-oracle` writes the same judgement as a shell script
//! ([`BuiltIn::script`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use regex::Regex;

use super::Exit;
use super::signature::{Signature, fatal_signal, signal_name, signature_of};

/// What `--run`'s command must do for a candidate to be interesting: every
/// expectation given (at least one).
#[derive(Clone, Debug, Default)]
pub(crate) struct Expectations {
    /// `--expect-exit`: the exit status, as a shell reports it (a signal N
    /// is 128 + N).
    pub(crate) exit: Option<i32>,
    /// `--expect-signal`: the signal that kills it (or a shell's 128 + N).
    pub(crate) signal: Option<i32>,
    /// `--expect-stdout`: a regular expression its stdout matches (`^`
    /// and `$` at line ends).
    pub(crate) stdout: Option<Regex>,
    /// `--expect-stderr`: the same for its stderr.
    pub(crate) stderr: Option<Regex>,
    /// `--expect-timeout`: it runs past `--timeout` (else a timeout is
    /// not interesting).
    pub(crate) timeout: bool,
    /// `--same-crash`: it crashes as the original does, the signature
    /// keeping this many frames (`--signature-frames`).
    pub(crate) same_crash: Option<usize>,
}

impl Expectations {
    /// Whether anything is expected at all.
    pub(crate) fn any(&self) -> bool {
        self.exit.is_some()
            || self.signal.is_some()
            || self.stdout.is_some()
            || self.stderr.is_some()
            || self.timeout
            || self.same_crash.is_some()
    }
}

/// `--run` as the command line gives it.
#[derive(Clone, Debug)]
pub(crate) struct RunSpec {
    /// The command, with `{}` for the candidate's path.
    pub(crate) command: String,
    pub(crate) expect: Expectations,
}

/// The built-in oracle's judgement, once the original's crash signature is
/// known (with `--same-crash`).
#[derive(Clone, Debug)]
pub(crate) struct BuiltIn {
    spec: RunSpec,
    /// Where the command runs: the directory `reduce` was started from.
    cwd: PathBuf,
    /// The original's signature, which every interesting candidate shows.
    signature: Option<Signature>,
    /// The same read from a symbolized run, when the tests run without
    /// symbolizing: what is shown, and what `--print-oracle`'s script
    /// (run with the user's environment) checks.
    shown: Option<Signature>,
    /// `--timeout`, for the script `--print-oracle` writes.
    timeout_secs: Option<f64>,
}

/// A run's status as a shell reports it: a signal N as 128 + N.
fn shell_status(exit: Exit) -> Option<i32> {
    match exit {
        Exit::Code(c) => Some(c),
        Exit::Signal(s) => Some(128 + s),
        Exit::Timeout | Exit::Cancelled => None,
    }
}

/// `text` quoted for `/bin/sh`.
pub(crate) fn shell_quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,".contains(c))
    {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

impl BuiltIn {
    pub(crate) fn new(spec: RunSpec, cwd: PathBuf, timeout_secs: Option<f64>) -> Self {
        BuiltIn {
            spec,
            cwd,
            signature: None,
            shown: None,
            timeout_secs,
        }
    }

    /// The judgement with the original's crash signature.
    pub(crate) fn with_signature(mut self, signature: Signature) -> Self {
        self.signature = Some(signature);
        self
    }

    /// The signature as read from a symbolized run, shown to the user
    /// (`signature` when it is the same).
    pub(crate) fn with_shown(mut self, shown: Signature) -> Self {
        self.shown = Some(shown);
        self
    }

    /// The original's signature as shown: with function names where the
    /// target has them.
    pub(crate) fn signature(&self) -> Option<&Signature> {
        self.shown.as_ref().or(self.signature.as_ref())
    }

    /// `--same-crash`'s depth, when it was asked for.
    pub(crate) fn same_crash(&self) -> Option<usize> {
        self.spec.expect.same_crash
    }

    /// The command as the user gave it.
    pub(crate) fn command(&self) -> &str {
        &self.spec.command
    }

    pub(crate) fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// Whether the candidate is the command's standard input (no `{}`).
    pub(crate) fn reads_stdin(&self) -> bool {
        !self.spec.command.contains("{}")
    }

    /// The command's words with `candidate` in place of `{}`, when the
    /// command is simple enough to start without a shell: words of
    /// letters, digits and `._/+,:@%=-` (no `=` in the first, which would
    /// be an assignment), `{}` the only braces. A shell's start costs
    /// about 1.2 ms, a sixth of a test of a small AddressSanitizer target.
    pub(crate) fn direct_words(&self, candidate: &Path) -> Option<Vec<OsString>> {
        let command = &self.spec.command;
        let plain = |c: char| c.is_ascii_alphanumeric() || "._/+,:@%=- \t".contains(c);
        let words: Vec<&str> = command.split_whitespace().collect();
        let simple = command.replace("{}", "").chars().all(plain)
            && words
                .first()
                .is_some_and(|w| !w.contains('=') && !w.contains("{}"));
        if !simple {
            return None;
        }
        let path = candidate.as_os_str();
        let words = words.iter().map(|w| match *w {
            "{}" => path.to_os_string(),
            w if w.contains("{}") => w.replace("{}", &path.to_string_lossy()).into(),
            w => w.into(),
        });
        Some(words.collect())
    }

    /// The shell command line that tests `candidate`.
    pub(crate) fn shell_line(&self, candidate: &Path) -> String {
        let path = shell_quote(&candidate.to_string_lossy());
        self.spec.command.replace("{}", &path)
    }

    /// The signature of a run, the candidate's path in its output read as
    /// `{}` (it differs from test to test).
    pub(crate) fn signature_of(
        exit: Exit,
        stdout: &[u8],
        stderr: &[u8],
        candidate: &Path,
        depth: usize,
    ) -> Option<Signature> {
        let mut text = String::from_utf8_lossy(stderr).into_owned();
        text.push('\n');
        text.push_str(&String::from_utf8_lossy(stdout));
        let path = candidate.to_string_lossy();
        if !path.is_empty() {
            text = text.replace(path.as_ref(), "{}");
        }
        signature_of(exit, &text, depth)
    }

    /// Whether a run that ended with `exit` and printed `stdout` and
    /// `stderr` on `candidate` is interesting: every expectation holds.
    pub(crate) fn judge(&self, exit: Exit, stdout: &[u8], stderr: &[u8], candidate: &Path) -> bool {
        let expect = &self.spec.expect;
        if exit == Exit::Cancelled || (exit == Exit::Timeout) != expect.timeout {
            return false;
        }
        let matches = |re: &Option<Regex>, text: &[u8]| {
            re.as_ref()
                .is_none_or(|re| re.is_match(&String::from_utf8_lossy(text)))
        };
        expect
            .exit
            .is_none_or(|code| shell_status(exit) == Some(code))
            && expect
                .signal
                .is_none_or(|s| fatal_signal(exit) == Some(s) || exit == Exit::Signal(s))
            && matches(&expect.stdout, stdout)
            && matches(&expect.stderr, stderr)
            && match (expect.same_crash, &self.signature) {
                (None, _) => true,
                (Some(depth), Some(original)) => {
                    Self::signature_of(exit, stdout, stderr, candidate, depth).as_ref()
                        == Some(original)
                }
                (Some(_), None) => false,
            }
    }

    /// What is expected, in words, for messages: `signal SIGSEGV, stderr
    /// matching /overflow/`.
    pub(crate) fn expected(&self) -> String {
        let e = &self.spec.expect;
        let mut parts = Vec::new();
        if let Some(code) = e.exit {
            parts.push(format!("exit code {code}"));
        }
        if let Some(signal) = e.signal {
            parts.push(format!("signal {}", signal_name(signal)));
        }
        if let Some(re) = &e.stdout {
            parts.push(format!("stdout matching /{}/", re.as_str()));
        }
        if let Some(re) = &e.stderr {
            parts.push(format!("stderr matching /{}/", re.as_str()));
        }
        if e.timeout {
            parts.push("a timeout".into());
        }
        if e.same_crash.is_some() {
            match self.signature() {
                Some(s) => parts.push(format!("the crash {s}")),
                None => parts.push("the original's crash".into()),
            }
        }
        parts.join(", ")
    }

    /// The equivalent shell script (`--print-oracle`): interesting (exit 0)
    /// iff every expectation holds, the crash signature checked with grep
    /// and awk as `reduce` reads it from the common report formats.
    pub(crate) fn script(&self) -> String {
        let e = &self.spec.expect;
        let mut s = String::from("#!/bin/sh\n");
        s.push_str(&format!(
            "# Written by reduce --print-oracle: interesting (exit 0) iff the command\n\
             # below shows {}.\n\
             # Use it as: reduce --oracle THIS_SCRIPT INPUT\n",
            self.expected()
        ));
        s.push_str(&format!(
            "cd {} || exit 125\n",
            shell_quote(&self.cwd.to_string_lossy())
        ));
        s.push_str(
            "out=$(mktemp) && err=$(mktemp) || exit 125\n\
             trap 'rm -f \"$out\" \"$err\"' EXIT\n",
        );
        let mut line = self.spec.command.replace("{}", "\"$1\"");
        if self.reads_stdin() {
            line = format!("{{ {line}\n}} <\"$1\"");
        } else {
            line = format!("{{ {line}\n}}");
        }
        if e.timeout {
            let secs = self.timeout_secs.unwrap_or(10.0);
            line = format!(
                "timeout -s KILL {secs} sh -c {} sh \"$1\"",
                shell_quote(&self.spec.command.replace("{}", "\"$1\""))
            );
            if self.reads_stdin() {
                line.push_str(" <\"$1\"");
            }
        }
        s.push_str(&format!("{line} >\"$out\" 2>\"$err\"\nstatus=$?\n"));
        if e.timeout {
            s.push_str("[ \"$status\" -eq 137 ] || exit 1   # killed by timeout\n");
        }
        if let Some(code) = e.exit {
            s.push_str(&format!("[ \"$status\" -eq {code} ] || exit 1\n"));
        }
        if let Some(signal) = e.signal {
            s.push_str(&format!(
                "[ \"$status\" -eq {} ] || exit 1   # {}\n",
                128 + signal,
                signal_name(signal)
            ));
        }
        for (re, file) in [(&e.stdout, "out"), (&e.stderr, "err")] {
            if let Some(re) = re {
                s.push_str(&format!(
                    "LC_ALL=C grep -aPq -e {} \"${file}\" || exit 1\n",
                    shell_quote(re.as_str())
                ));
            }
        }
        if let (Some(depth), Some(signature)) = (e.same_crash, self.signature()) {
            s.push_str(&crash_check(signature, depth));
        }
        s.push_str("exit 0\n");
        s
    }
}

/// The script's check of a crash signature.
fn crash_check(signature: &Signature, depth: usize) -> String {
    let mut s = format!("# The crash: {signature}\n");
    let frames = signature.frames.join("\n");
    if let Some((tool, kind)) = signature.kind.split_once("Sanitizer: ")
        && !tool.contains(' ')
    {
        let first = format!("{tool}Sanitizer: {kind}");
        s.push_str(&format!(
            "first=$(grep -m1 -E '^==[0-9]+==[[:space:]]*(ERROR|WARNING): [A-Za-z]+Sanitizer: ' \"$err\" | sed -E 's/^==[0-9]+==[[:space:]]*(ERROR|WARNING): //')\n\
             case \"$first\" in {}*) ;; *) exit 1 ;; esac\n",
            shell_quote(&first)
        ));
        s.push_str(&format!(
            "frames=$(awk -v depth={depth} '\n\
             /^==[0-9]+==[[:space:]]*(ERROR|WARNING): / {{ report = 1; next }}\n\
             report && /^[[:space:]]*#[0-9]+ 0x/ {{\n\
             \x20 started = 1\n\
             \x20 if ($0 ~ /libsanitizer\\/|compiler-rt\\//) next\n\
             \x20 if ($3 == \"in\") {{ name = $4; if (index(name, \"(\") > 1) name = substr(name, 1, index(name, \"(\") - 1) }}\n\
             \x20 else if (match($0, /\\([^() ]+\\+0x[0-9a-fA-F]+\\)/)) {{ name = substr($0, RSTART + 1, RLENGTH - 2); sub(/.*\\//, \"\", name) }}\n\
             \x20 else next\n\
             \x20 if (name ~ /^(__interceptor_|___interceptor_|__asan_|__msan_|__lsan_|__ubsan_|__sanitizer_|__tsan_)/) next\n\
             \x20 if (n < depth) {{ print name; n++ }}\n\
             \x20 next\n\
             }}\n\
             started {{ exit }}' \"$err\")\n"
        ));
        s.push_str(&format!(
            "[ \"$frames\" = {} ] || exit 1\n",
            shell_quote(&frames)
        ));
    } else if let Some(name) = signature.kind.strip_prefix("signal ") {
        let number = super::signature::signal_number(name).unwrap_or(0);
        s.push_str(&format!(
            "[ \"$status\" -eq {} ] || exit 1\n\
             ! grep -qE '(ERROR|WARNING): [A-Za-z]+Sanitizer: |runtime error: |panicked at |^panic: |^Traceback |Assertion .* failed' \"$err\" \"$out\" || exit 1\n",
            128 + number
        ));
    } else {
        // Panics, tracebacks, assertions: their place, as printed.
        for frame in &signature.frames {
            let place = frame.split(" in ").next().unwrap_or(frame);
            let place = place.split(" (").next().unwrap_or(place);
            s.push_str(&format!(
                "cat \"$err\" \"$out\" | grep -qF -e {} || exit 1\n",
                shell_quote(place.split(':').next().unwrap_or(place))
            ));
        }
        let what = signature.kind.split(": ").last().unwrap_or(&signature.kind);
        let what = what.split(" N").next().unwrap_or(what);
        let what = what.trim_start_matches("Python ");
        s.push_str(&format!(
            "cat \"$err\" \"$out\" | grep -qF -e {} || exit 1\n",
            shell_quote(what)
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn builtin(expect: Expectations, command: &str) -> BuiltIn {
        let spec = RunSpec {
            command: command.into(),
            expect,
        };
        BuiltIn::new(spec, PathBuf::from("/"), None)
    }

    #[test]
    fn every_expectation_given_must_hold() {
        let b = builtin(
            Expectations {
                signal: Some(libc::SIGSEGV),
                stderr: Some(Regex::new("(?m)^boom$").unwrap()),
                ..Expectations::default()
            },
            "./t {}",
        );
        let at = Path::new("/tmp/x");
        assert!(b.judge(Exit::Signal(libc::SIGSEGV), b"", b"a\nboom\n", at));
        assert!(!b.judge(Exit::Signal(libc::SIGSEGV), b"", b"a\nboom!\n", at));
        assert!(b.judge(Exit::Code(139), b"", b"boom", at));
        assert!(!b.judge(Exit::Code(1), b"", b"boom", at));
        assert!(!b.judge(Exit::Signal(libc::SIGSEGV), b"boom", b"", at));
        assert!(!b.judge(Exit::Timeout, b"", b"boom", at));
    }

    #[test]
    fn a_timeout_is_interesting_only_when_expected() {
        let b = builtin(
            Expectations {
                timeout: true,
                ..Expectations::default()
            },
            "./t",
        );
        let at = Path::new("/tmp/x");
        assert!(b.judge(Exit::Timeout, b"", b"", at));
        assert!(!b.judge(Exit::Code(0), b"", b"", at));
        assert!(!b.judge(Exit::Cancelled, b"", b"", at));
        assert!(b.reads_stdin());
    }

    #[test]
    fn a_simple_command_starts_without_a_shell_and_any_other_through_one() {
        let spec = |command: &str| RunSpec {
            command: command.to_string(),
            expect: Expectations::default(),
        };
        let words = |command: &str| {
            let b = BuiltIn::new(spec(command), PathBuf::from("/w"), None);
            b.direct_words(Path::new("/t/in.bin"))
        };
        let os = |w: &[&str]| w.iter().map(OsString::from).collect::<Vec<_>>();
        assert_eq!(words("./target {}"), Some(os(&["./target", "/t/in.bin"])));
        assert_eq!(
            words("prog -x --in={} -o /dev/null"),
            Some(os(&["prog", "-x", "--in=/t/in.bin", "-o", "/dev/null"]))
        );
        for shell in [
            "./t {} | head",
            "ASAN_OPTIONS=x=1 ./t {}",
            "./t \"{}\"",
            "./t {} > out",
            "./t $HOME/{}",
            "./t {} && true",
        ] {
            assert_eq!(words(shell), None, "{shell}");
        }
    }

    #[test]
    fn the_same_crash_ignores_the_candidates_path_in_the_output() {
        let spec = Expectations {
            same_crash: Some(1),
            ..Expectations::default()
        };
        let report = |path: &str| {
            format!("thread 'main' panicked at src/main.rs:3:5:\ncannot parse {path}\n")
        };
        let original = Path::new("/dev/shm/reduce-test-a/crash.bin");
        let signature = BuiltIn::signature_of(
            Exit::Code(101),
            b"",
            report("/dev/shm/reduce-test-a/crash.bin").as_bytes(),
            original,
            1,
        )
        .unwrap();
        assert_eq!(signature.kind, "Rust panic: cannot parse {}");
        let b = builtin(spec, "./t {}").with_signature(signature);
        let other = Path::new("/dev/shm/reduce-test-b/crash.bin");
        assert!(b.judge(
            Exit::Code(101),
            b"",
            report("/dev/shm/reduce-test-b/crash.bin").as_bytes(),
            other
        ));
        assert!(!b.judge(
            Exit::Code(101),
            b"",
            b"thread 'main' panicked at src/main.rs:9:5:\nx\n",
            other
        ));
        assert_eq!(b.shell_line(Path::new("/a b/c")), "./t '/a b/c'");
    }
}
