//! The interestingness test as a process: the only place `reduce` starts processes.
//!
//! Each test gets a fresh temporary directory holding the candidate under the
//! input's file name. The script runs there, with the candidate's absolute
//! path as `$1`, stdin from /dev/null, `TMPDIR` inside the test directory and
//! its output discarded (or shown with `-v`). Exit 0 means interesting; any
//! other exit, a signal or a timeout means not. The script runs in its own
//! process group, and the whole group is killed when the test ends, times out
//! or is cancelled, so compilers it started do not outlive it. The directory is
//! removed afterwards, whatever happened.

use std::ffi::OsString;
use std::fs;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use wait_timeout::ChildExt;

use crate::reducer::{Candidate, Oracle, TestOutcome, Verdict};

/// How long a killed group gets between SIGTERM and SIGKILL.
const KILL_GRACE: Duration = Duration::from_millis(200);
/// How often a running test looks at its cancel flag.
const POLL: Duration = Duration::from_millis(20);

/// Runs a user's interestingness script on candidates.
#[derive(Debug, Clone)]
pub struct ScriptOracle {
    /// Absolute path of the script.
    script: PathBuf,
    /// The name the candidate gets in its test directory.
    file_name: OsString,
    timeout: Duration,
    /// Where test directories are made (default: the system temp dir).
    work_dir: Option<PathBuf>,
    /// Files copied beside every candidate.
    extra_files: Vec<PathBuf>,
    /// Show the script's output on stderr.
    verbose: bool,
}

/// What one run of the script did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
    Timeout,
    Cancelled,
}

impl Exit {
    pub fn interesting(self) -> bool {
        self == Exit::Code(0)
    }
}

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Exit::Code(c) => write!(f, "exit code {c}"),
            Exit::Signal(s) => write!(f, "killed by signal {s}"),
            Exit::Timeout => write!(f, "timed out"),
            Exit::Cancelled => write!(f, "cancelled"),
        }
    }
}

/// Checks that `path` names an executable file and returns it made absolute.
pub fn resolve_script(path: &Path) -> Result<PathBuf> {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .context("cannot read the current directory")?
            .join(path)
    };
    let meta = fs::metadata(&abs)
        .with_context(|| format!("oracle script {} does not exist", path.display()))?;
    if meta.is_dir() {
        bail!(
            "oracle script {} is a directory, not a script",
            path.display()
        );
    }
    use std::os::unix::fs::PermissionsExt;
    if meta.permissions().mode() & 0o111 == 0 {
        bail!(
            "oracle script {} is not executable (try: chmod +x {})",
            path.display(),
            path.display()
        );
    }
    Ok(abs)
}

impl ScriptOracle {
    /// An oracle running `script` (already resolved) on candidates named `file_name`.
    pub fn new(script: PathBuf, file_name: OsString, timeout: Duration) -> Self {
        ScriptOracle {
            script,
            file_name,
            timeout,
            work_dir: None,
            extra_files: Vec::new(),
            verbose: false,
        }
    }

    pub fn with_work_dir(mut self, dir: Option<PathBuf>) -> Self {
        self.work_dir = dir;
        self
    }

    pub fn with_extra_files(mut self, files: Vec<PathBuf>) -> Self {
        self.extra_files = files;
        self
    }

    pub fn with_verbose(mut self, verbose: bool) -> Self {
        self.verbose = verbose;
        self
    }

    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    pub fn script(&self) -> &Path {
        &self.script
    }

    pub fn file_name(&self) -> &std::ffi::OsStr {
        &self.file_name
    }

    /// Runs the script once on `bytes`. `Err` only when the test could not be
    /// set up or started (temp dir, write, spawn); a crash or timeout of the
    /// script is an `Exit`.
    pub fn run(&self, bytes: &[u8], cancel: &AtomicBool) -> Result<(Exit, Duration)> {
        let mut builder = tempfile::Builder::new();
        builder.prefix("reduce-test-");
        let dir = match &self.work_dir {
            Some(w) => builder.tempdir_in(w),
            None => builder.tempdir(),
        }
        .context("cannot create a temporary directory for the test")?;
        let candidate = dir.path().join(&self.file_name);
        fs::write(&candidate, bytes)
            .with_context(|| format!("cannot write the candidate {}", candidate.display()))?;
        for extra in &self.extra_files {
            let name = extra
                .file_name()
                .context("a --copy path has no file name")?;
            fs::copy(extra, dir.path().join(name))
                .with_context(|| format!("cannot copy {} beside the candidate", extra.display()))?;
        }
        let tmp = dir.path().join(".tmp");
        fs::create_dir(&tmp).context("cannot create the test's TMPDIR")?;
        let mut command = Command::new(&self.script);
        command
            .arg(&candidate)
            .current_dir(dir.path())
            .env("TMPDIR", &tmp)
            .stdin(Stdio::null())
            .process_group(0);
        if self.verbose {
            command.stdout(Stdio::piped()).stderr(Stdio::piped());
        } else {
            command.stdout(Stdio::null()).stderr(Stdio::null());
        }
        let started = Instant::now();
        let mut child = command
            .spawn()
            .with_context(|| format!("cannot run the oracle {}", self.script.display()))?;
        let output = self.verbose.then(|| drain_output(&mut child));
        let exit = self.wait(&mut child, started, cancel);
        let elapsed = started.elapsed();
        if let Some(handles) = output {
            let text = handles.join();
            if !text.is_empty() {
                let mut err = std::io::stderr().lock();
                let _ = writeln!(err, "--- oracle output ({exit}) ---");
                let _ = err.write_all(&text);
            }
        }
        drop(dir); // removes the directory and everything in it
        Ok((exit, elapsed))
    }

    fn wait(&self, child: &mut Child, started: Instant, cancel: &AtomicBool) -> Exit {
        let group = child.id() as i32;
        let exit = loop {
            if cancel.load(Ordering::SeqCst) {
                kill_group(child, group);
                break Exit::Cancelled;
            }
            let left = self.timeout.saturating_sub(started.elapsed());
            if left.is_zero() {
                kill_group(child, group);
                break Exit::Timeout;
            }
            match child.wait_timeout(left.min(POLL)) {
                Ok(Some(status)) => {
                    use std::os::unix::process::ExitStatusExt;
                    break match (status.code(), status.signal()) {
                        (Some(code), _) => Exit::Code(code),
                        (None, Some(sig)) => Exit::Signal(sig),
                        (None, None) => Exit::Signal(0),
                    };
                }
                Ok(None) => continue,
                Err(_) => {
                    kill_group(child, group);
                    break Exit::Signal(0);
                }
            }
        };
        // Whatever the script left running in its group goes too.
        signal_group(group, libc::SIGKILL);
        exit
    }
}

fn signal_group(group: i32, signal: i32) {
    // SAFETY: killpg has no memory-safety preconditions; a stale group id
    // only yields ESRCH, which is ignored.
    unsafe {
        libc::killpg(group, signal);
    }
}

/// SIGTERM the group, give it a moment, then SIGKILL it and reap the child.
fn kill_group(child: &mut Child, group: i32) {
    signal_group(group, libc::SIGTERM);
    let deadline = Instant::now() + KILL_GRACE;
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.wait_timeout(Duration::from_millis(10)) {
            break;
        }
    }
    signal_group(group, libc::SIGKILL);
    let _ = child.wait();
}

/// Collects a child's stdout and stderr (at most 64 KiB each) on threads.
struct Drain(Vec<std::thread::JoinHandle<Vec<u8>>>);

impl Drain {
    fn join(self) -> Vec<u8> {
        self.0
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    }
}

fn drain_output(child: &mut Child) -> Drain {
    fn spawn_reader(mut r: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            let mut buf = [0u8; 8192];
            while let Ok(n) = r.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if kept.len() < 64 * 1024 {
                    kept.extend_from_slice(&buf[..n]);
                }
            }
            kept
        })
    }
    let mut handles = Vec::new();
    if let Some(out) = child.stdout.take() {
        handles.push(spawn_reader(out));
    }
    if let Some(err) = child.stderr.take() {
        handles.push(spawn_reader(err));
    }
    Drain(handles)
}

impl Oracle for ScriptOracle {
    fn test(&self, candidate: &Candidate<'_>, cancel: &AtomicBool) -> TestOutcome {
        match self.run(candidate.bytes, cancel) {
            Ok((exit, _)) => TestOutcome {
                verdict: if exit.interesting() {
                    Verdict::Interesting
                } else {
                    Verdict::NotInteresting
                },
                timed_out: exit == Exit::Timeout,
                cancelled: exit == Exit::Cancelled,
            },
            Err(err) => {
                eprintln!("reduce: a test could not run: {err:#}");
                Verdict::NotInteresting.into()
            }
        }
    }
}

/// The default per-test timeout: 10× the original's run time, within [1 s, 300 s].
pub fn default_timeout(original_run: Duration) -> Duration {
    (original_run * 10).clamp(Duration::from_secs(1), Duration::from_secs(300))
}
