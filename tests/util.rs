//! Helpers shared by the integration tests: a sandbox directory per test with
//! its own TMPDIR, running the binary, and the invariants every end-to-end
//! run must satisfy.
//!
//! Every child process a test starts (`reduce`, an oracle script, gcc, ...)
//! runs with its standard streams captured or discarded, never inherited:
//! the test harness does not capture a child's output, and some oracles here
//! write hundreds of megabytes by design. Build commands with [`quiet`] and
//! run them with [`run_quietly`] or [`succeeds_quietly`].

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// `PATH` with the directories of the real `python3` and `rustc` first,
/// for every process a test starts. Where they are version managers'
/// shims (pyenv's and rustup's), each start of the shim costs more than
/// the tool: 80 ms against 9 ms for `python3 -S` on the CI machine, over
/// a thousand times per Python fixture. The tools are the same ones the
/// shims would pick.
fn tool_path() -> &'static OsString {
    static PATH: OnceLock<OsString> = OnceLock::new();
    PATH.get_or_init(|| {
        let ask = |program: &str, args: &[&str]| {
            let out = Command::new(program)
                .args(args)
                .stdin(Stdio::null())
                .stderr(Stdio::null())
                .output()
                .ok()
                .filter(|o| o.status.success())?;
            let line = String::from_utf8(out.stdout).ok()?;
            Some(PathBuf::from(line.trim()))
        };
        let python = ask(
            "python3",
            &["-S", "-c", "import sys; print(sys.executable)"],
        )
        .and_then(|p| p.parent().map(Path::to_path_buf));
        let rustc = ask("rustc", &["--print", "sysroot"]).map(|p| p.join("bin"));
        let current = std::env::var_os("PATH").unwrap_or_default();
        let dirs = python
            .into_iter()
            .chain(rustc)
            .filter(|d| d.is_dir())
            .chain(std::env::split_paths(&current));
        std::env::join_paths(dirs).unwrap_or(current)
    })
}

/// `command` with [`tool_path`] as its `PATH`, unless it sets one.
fn with_tool_path(command: &mut Command) -> &mut Command {
    if !command.get_envs().any(|(key, _)| key == "PATH") {
        command.env("PATH", tool_path());
    }
    command
}

/// `program` with no stdin and its stdout and stderr piped, for `output()`
/// or `spawn()` (then read or drop the pipes); it cannot write to the test's
/// own streams. Callers that need other settings (a piped stdin, a discarded
/// stdout) set them afterwards. Not for `status()`, which would leave a
/// loud child blocked on a full pipe: use [`succeeds_quietly`].
pub fn quiet(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut command = Command::new(program);
    command
        .env("PATH", tool_path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Runs `command` to the end with no stdin and its output captured.
pub fn run_quietly(command: &mut Command) -> Output {
    with_tool_path(command)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

/// Runs `command` to the end with no stdin and its output discarded; true
/// iff it exits 0.
pub fn succeeds_quietly(command: &mut Command) -> bool {
    with_tool_path(command)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap()
        .success()
}

/// A directory owned by one test; `reduce` runs inside it with `TMPDIR` in it.
pub struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    pub fn new() -> Self {
        let dir = tempfile::Builder::new()
            .prefix("reduce-it-")
            .tempdir()
            .unwrap();
        fs::create_dir(dir.path().join("tmp")).unwrap();
        Sandbox { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The TMPDIR every run in this sandbox gets.
    pub fn tmp(&self) -> PathBuf {
        self.dir.path().join("tmp")
    }

    /// Copies `fixtures/<name>/*` into the sandbox (modes kept, folders
    /// with what they hold) and returns the sandbox path.
    pub fn fixture(&self, name: &str) -> &Path {
        let src = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(name);
        for entry in walkdir::WalkDir::new(&src).min_depth(1) {
            let entry = entry.unwrap();
            let to = self.path().join(entry.path().strip_prefix(&src).unwrap());
            if entry.file_type().is_dir() {
                fs::create_dir_all(to).unwrap();
            } else {
                fs::copy(entry.path(), to).unwrap();
            }
        }
        self.path()
    }

    /// Writes a file (executable when `exec`).
    pub fn write(&self, name: &str, text: &str, exec: bool) -> PathBuf {
        let p = self.path().join(name);
        fs::write(&p, text).unwrap();
        if exec {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&p, fs::Permissions::from_mode(0o755)).unwrap();
        }
        p
    }

    pub fn read(&self, name: &str) -> Vec<u8> {
        fs::read(self.path().join(name)).unwrap()
    }

    /// `reduce ARGS` to run in the sandbox, with its TMPDIR, no stdin and its
    /// output piped (see [`quiet`]).
    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = quiet(env!("CARGO_BIN_EXE_reduce"));
        command
            .args(args)
            .current_dir(self.path())
            .env("TMPDIR", self.tmp());
        command
    }

    /// Starts `reduce ARGS` in the sandbox (stdout discarded, stderr piped),
    /// for tests that signal it while it runs.
    pub fn spawn_reduce(&self, args: &[&str]) -> std::process::Child {
        self.command(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    /// Runs `reduce ARGS` in the sandbox.
    pub fn reduce(&self, args: &[&str]) -> Output {
        self.reduce_with_stdin(args, None)
    }

    pub fn reduce_with_stdin(&self, args: &[&str], stdin: Option<&[u8]>) -> Output {
        use std::io::Write;
        let mut child = self
            .command(args)
            .stdin(if stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        if let Some(bytes) = stdin {
            child.stdin.take().unwrap().write_all(bytes).unwrap();
        }
        child.wait_with_output().unwrap()
    }

    /// Runs `reduce ARGS` in the sandbox with extra environment variables.
    pub fn reduce_env(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        run_quietly(self.command(args).envs(env.iter().copied()))
    }

    /// Runs `reduce ARGS` with its data segment limited to `limit` bytes
    /// (`RLIMIT_DATA`, inherited by the tests it runs): a `reduce` that tried
    /// to hold more dies. (Peak RSS from `wait4` is no measure here: a child
    /// started from this big test process inherits its high-water mark.)
    pub fn reduce_with_memory_limit(&self, args: &[&str], limit: u64) -> Output {
        self.command_with_memory_limit(env!("CARGO_BIN_EXE_reduce"), args, limit)
    }

    /// Runs `program ARGS` in the sandbox under `RLIMIT_DATA = limit`.
    pub fn command_with_memory_limit(&self, program: &str, args: &[&str], limit: u64) -> Output {
        use std::os::unix::process::CommandExt;
        let mut command = quiet(program);
        command
            .args(args)
            .current_dir(self.path())
            .env("TMPDIR", self.tmp());
        // SAFETY: the closure runs between fork and exec and only calls
        // setrlimit, which is async-signal-safe.
        unsafe {
            command.pre_exec(move || {
                let rl = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                if libc::setrlimit(libc::RLIMIT_DATA, &rl) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        run_quietly(&mut command)
    }

    /// Nothing is left in the sandbox's TMPDIR.
    pub fn assert_no_temp_left(&self) {
        let left: Vec<_> = fs::read_dir(self.tmp())
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert!(left.is_empty(), "temporary files left behind: {left:?}");
    }

    /// Runs the oracle script on `file`, copied under the input's name `name`
    /// into a fresh directory, the way a user would (its output discarded);
    /// true iff it exits 0.
    pub fn oracle_accepts(&self, oracle: &str, file: &Path, name: &str) -> bool {
        self.oracle_accepts_with(oracle, file, name, &[])
    }

    /// [`Self::oracle_accepts`] with `extra` files (sandbox-relative) copied
    /// beside the candidate, as `--copy` does.
    pub fn oracle_accepts_with(
        &self,
        oracle: &str,
        file: &Path,
        name: &str,
        extra: &[&str],
    ) -> bool {
        let dir = tempfile::tempdir_in(self.tmp()).unwrap();
        fs::copy(file, dir.path().join(name)).unwrap();
        for e in extra {
            let from = self.path().join(e);
            fs::copy(&from, dir.path().join(from.file_name().unwrap())).unwrap();
        }
        let ok = succeeds_quietly(
            Command::new(self.path().join(oracle))
                .arg(dir.path().join(name))
                .current_dir(dir.path()),
        );
        drop(dir);
        ok
    }
}

/// Panics with the run's stderr unless it exited with `code`.
pub fn assert_exit(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "unexpected exit; stderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The invariants every successful end-to-end run must keep: the result passes
/// the oracle, is no larger than the input, the input is untouched, and
/// reducing the result again changes nothing.
///
/// Algorithms that stop before their own fixpoint by design only have to
/// stay interesting and not grow on the second run: see [`stops_before_fixpoint`].
pub fn assert_invariants(
    sb: &Sandbox,
    oracle: &str,
    input: &str,
    original: &[u8],
    output: &str,
    args: &[&str],
) {
    let result = sb.read(output);
    assert_eq!(sb.read(input), original, "the input was modified");
    assert!(result.len() <= original.len(), "the result grew");
    let copies: Vec<&str> = args
        .windows(2)
        .filter(|w| w[0] == "--copy")
        .map(|w| w[1])
        .collect();
    assert!(
        sb.oracle_accepts_with(oracle, &sb.path().join(output), input, &copies),
        "the result is not interesting"
    );
    // A second run on the result (named like the input) changes nothing.
    let second_dir = sb.path().join("second-run");
    fs::create_dir_all(&second_dir).unwrap();
    fs::write(second_dir.join(input), &result).unwrap();
    let second_input = format!("second-run/{input}");
    let mut second: Vec<&str> = args.to_vec();
    second.extend([
        "--oracle",
        oracle,
        &second_input,
        "-o",
        "second-run/out",
        "-q",
    ]);
    let out = sb.reduce(&second);
    assert_exit(&out, 0);
    let again = sb.read("second-run/out");
    if stops_before_fixpoint(args) {
        assert!(again.len() <= result.len(), "a second run grew the result");
        let again_path = sb.path().join("second-run/out");
        assert!(sb.oracle_accepts_with(oracle, &again_path, input, &copies));
    } else {
        assert_eq!(again, result, "a second run changed the result");
    }
    fs::remove_dir_all(&second_dir).unwrap();
    sb.assert_no_temp_left();
}

/// Whether `args` name an algorithm that stops before its own fixpoint by
/// design: plain HDD visits each level once, T-PDD gives up below a gain
/// threshold. A second run of those may legitimately remove more, so for
/// them the second run is only required to stay interesting and not grow.
pub fn stops_before_fixpoint(args: &[&str]) -> bool {
    let algo = |a: &str| args.windows(2).any(|w| w == ["--algo", a]);
    (algo("hdd") && !args.contains(&"--fixpoint")) || algo("tpdd")
}

/// Reads a `--stats-json` file.
pub fn stats(sb: &Sandbox, name: &str) -> serde_json::Value {
    serde_json::from_slice(&sb.read(name)).unwrap()
}

/// The names of the phases in stats `s`, in the order they ran.
pub fn phase_names(s: &serde_json::Value) -> Vec<&str> {
    s["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect()
}

/// No process whose command line contains `marker` is alive; any found is
/// killed (by pid) before the assertion fails.
pub fn assert_no_process(marker: &str) {
    let pids = kill_processes(marker);
    assert!(pids.trim().is_empty(), "processes left ({marker}): {pids}");
}

/// Kills (by pid) the processes whose command line contains `marker`, e.g.
/// those a script run directly by a test helper left; returns their pids.
pub fn kill_processes(marker: &str) -> String {
    let ps = run_quietly(Command::new("pgrep").args(["-f", marker]));
    let pids = String::from_utf8_lossy(&ps.stdout).into_owned();
    for pid in pids.split_whitespace() {
        if let Ok(pid) = pid.parse::<i32>() {
            // SAFETY: kill has no memory-safety preconditions.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
    pids
}

/// Waits until `ready` holds, looking every 10 ms; panics naming `what`
/// after two minutes (a guard against a hang, not a timing assertion).
pub fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !ready() {
        assert!(
            std::time::Instant::now() < deadline,
            "gave up waiting for {what}"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// The number of lines in `path` (0 if it does not exist): scripts count
/// their runs by appending one line each.
pub fn lines_in(path: &Path) -> usize {
    fs::read(path).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count())
}

/// Whether `signal` is no longer pending for process `pid` (it has been
/// delivered and its handler has run or is running).
pub fn signal_delivered(pid: u32, signal: i32) -> bool {
    let Ok(status) = fs::read_to_string(format!("/proc/{pid}/status")) else {
        return true; // gone
    };
    let bit = 1u64 << (signal - 1);
    status
        .lines()
        .filter(|l| l.starts_with("SigPnd:") || l.starts_with("ShdPnd:"))
        .filter_map(|l| u64::from_str_radix(l.split_whitespace().nth(1)?, 16).ok())
        .all(|mask| mask & bit == 0)
}

/// Waits until no process whose command line contains `marker` is left
/// (one killed a moment ago may still be exiting), then asserts it.
pub fn assert_no_process_soon(marker: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::time::Instant::now() < deadline {
        let ps = run_quietly(Command::new("pgrep").args(["-f", marker]));
        if ps.stdout.is_empty() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert_no_process(marker);
}
