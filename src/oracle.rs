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
//!
//! With a launcher (`--launcher 'srun --quiet -N1 -n1 --'`) the test runs as
//! `LAUNCHER <script> <candidate>` through `/bin/sh`, in the same directory;
//! the launcher's exit status is the verdict. Stopping a launched test sends
//! SIGTERM to its group and waits up to [`LAUNCHER_KILL_GRACE`] for the
//! launcher to cancel the remote work and exit before SIGKILL.

use std::ffi::OsString;
use std::fs;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex, OnceLock, mpsc};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::interfaces::{Candidate, Oracle, TestOutcome, Verdict, Watch};

/// How long a killed group gets between SIGTERM and SIGKILL.
const KILL_GRACE: Duration = Duration::from_millis(200);
/// The same for a launcher, which must reach a scheduler to cancel its job
/// (`srun` takes about a second).
pub const LAUNCHER_KILL_GRACE: Duration = Duration::from_secs(10);
/// How often a running test looks at a plain cancel flag (one without a
/// [`CancelSignal`]'s wake-up): every tenth of its running time so far,
/// within these bounds. A cancelled test holds a core
/// until it is killed, which matters most for short tests; each look costs
/// two system calls, which matters for long ones.
const POLL_MIN: Duration = Duration::from_millis(2);
const POLL_MAX: Duration = Duration::from_millis(20);
/// How long a test waits, after killing its group, for the group to be gone.
const REAP_WAIT: Duration = Duration::from_millis(500);
/// How long `-v` waits for a finished test's output pipes to close (a
/// process that left the group may hold them open).
const OUTPUT_GRACE: Duration = Duration::from_millis(200);
/// How much of each of a test's stdout and stderr `-v` keeps.
const OUTPUT_CAP: usize = 64 * 1024;

/// The environment variable naming the run, set for every process started here.
pub const RUN_MARKER_VAR: &str = "REDUCE_RUN_ID";

/// This run's value of [`RUN_MARKER_VAR`]: unique per `reduce` process.
pub fn run_marker() -> &'static str {
    static MARKER: OnceLock<String> = OnceLock::new();
    MARKER.get_or_init(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        format!("{}-{nanos:x}", std::process::id())
    })
}

/// SIGKILLs every process that carries this run's marker in its environment
/// (found through `/proc`; elsewhere this does nothing) and returns how many
/// it signalled. Test processes still in their group are killed with it; this
/// catches the ones that escaped it (`setsid`, double forks, daemons). A
/// process that also cleared its environment is not found.
pub fn kill_strays() -> usize {
    let needle = format!("{RUN_MARKER_VAR}={}", run_marker());
    let me = std::process::id();
    let mut killed = 0;
    let mut victims = Vec::new();
    // A stray may fork while we look: a few rounds catch its children.
    for _ in 0..3 {
        let Ok(entries) = fs::read_dir("/proc") else {
            return killed;
        };
        let mut found = 0;
        for entry in entries.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<u32>().ok())
            else {
                continue;
            };
            if pid == me {
                continue;
            }
            let Ok(environ) = fs::read(entry.path().join("environ")) else {
                continue;
            };
            if environ.split(|&b| b == 0).any(|v| v == needle.as_bytes()) {
                // SAFETY: kill has no memory-safety preconditions.
                unsafe {
                    libc::kill(pid as i32, libc::SIGKILL);
                }
                victims.push(pid);
                found += 1;
            }
        }
        killed += found;
        if found == 0 {
            break;
        }
        // Let the victims die before looking again (and before returning).
        let deadline = Instant::now() + REAP_WAIT;
        while !victims.iter().all(|&p| is_dead(p)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        victims.clear();
    }
    killed
}

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
    /// A shell command prefix the script runs under (cluster schedulers).
    launcher: Option<String>,
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
    let abs = std::path::absolute(path)
        .with_context(|| format!("cannot resolve the oracle path {}", path.display()))?;
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
        become_subreaper();
        ScriptOracle {
            script,
            file_name,
            timeout,
            work_dir: None,
            extra_files: Vec::new(),
            verbose: false,
            launcher: None,
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

    /// Runs every test as `LAUNCHER <script> <candidate>` (through `/bin/sh`).
    pub fn with_launcher(mut self, launcher: Option<String>) -> Self {
        self.launcher = launcher;
        self
    }

    pub fn launcher(&self) -> Option<&str> {
        self.launcher.as_deref()
    }

    /// The command that tests `candidate`: the script itself, or the
    /// launcher given the script and the candidate as its last arguments.
    fn command(&self, candidate: &Path) -> Command {
        match &self.launcher {
            None => {
                let mut command = Command::new(&self.script);
                command.arg(candidate);
                command
            }
            Some(launcher) => {
                let mut command = Command::new("/bin/sh");
                command
                    .arg("-c")
                    .arg(format!("{launcher} \"$@\""))
                    .arg("reduce-launcher")
                    .arg(&self.script)
                    .arg(candidate);
                command
            }
        }
    }

    fn kill_grace(&self) -> Duration {
        if self.launcher.is_some() {
            LAUNCHER_KILL_GRACE
        } else {
            KILL_GRACE
        }
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
    pub fn run(&self, bytes: &[u8], cancel: Watch<'_>) -> Result<(Exit, Duration)> {
        let mut builder = tempfile::Builder::new();
        builder.prefix("reduce-test-");
        let dir = match &self.work_dir {
            Some(w) => builder.tempdir_in(w),
            None => builder.tempdir(),
        }
        .context("cannot create a temporary directory for the test")?;
        let result = self.run_in_dir(dir.path(), bytes, cancel);
        // Removes the directory and everything in it, whatever the script
        // did to it; `dir`'s own removal then finds nothing.
        remove_dir_robustly(dir.path());
        drop(dir);
        result
    }

    fn run_in_dir(&self, dir: &Path, bytes: &[u8], cancel: Watch<'_>) -> Result<(Exit, Duration)> {
        let candidate = dir.join(&self.file_name);
        fs::write(&candidate, bytes)
            .with_context(|| format!("cannot write the candidate {}", candidate.display()))?;
        for extra in &self.extra_files {
            let name = extra
                .file_name()
                .context("a --copy path has no file name")?;
            fs::copy(extra, dir.join(name))
                .with_context(|| format!("cannot copy {} beside the candidate", extra.display()))?;
        }
        let tmp = dir.join(".tmp");
        fs::create_dir(&tmp).context("cannot create the test's TMPDIR")?;
        let mut command = self.command(&candidate);
        command.current_dir(dir).env("TMPDIR", &tmp);
        self.spawn_and_wait(command, cancel)
    }

    /// Runs the script the way the user would by hand: on `file` itself, in
    /// `cwd`, with the user's own `TMPDIR` (still in its own process group,
    /// with the timeout). Used to tell an oracle that only works beside the
    /// input from one that does not work at all.
    pub fn run_by_hand(
        &self,
        file: &Path,
        cwd: &Path,
        cancel: Watch<'_>,
    ) -> Result<(Exit, Duration)> {
        let mut command = self.command(file);
        command.current_dir(cwd);
        self.spawn_and_wait(command, cancel)
    }

    fn spawn_and_wait(&self, mut command: Command, cancel: Watch<'_>) -> Result<(Exit, Duration)> {
        command
            .env(RUN_MARKER_VAR, run_marker())
            .stdin(Stdio::null())
            .process_group(0);
        if self.verbose {
            command.stdout(Stdio::piped()).stderr(Stdio::piped());
        } else {
            command.stdout(Stdio::null()).stderr(Stdio::null());
        }
        let started = Instant::now();
        let mut child = command.spawn().map_err(|e| spawn_error(&self.script, e))?;
        let running = RunningGroup::enter(child.id() as i32, self.launcher.is_some());
        let output = self.verbose.then(|| drain_output(&mut child));
        let exit = self.wait(&mut child, started, cancel);
        drop(running);
        let elapsed = started.elapsed();
        if let Some(drain) = output {
            let text = drain.finish(OUTPUT_GRACE);
            if !text.is_empty() {
                let mut err = std::io::stderr().lock();
                let _ = writeln!(err, "--- oracle output ({exit}) ---");
                let _ = err.write_all(&text);
            }
        }
        Ok((exit, elapsed))
    }

    fn wait(&self, child: &mut Child, started: Instant, cancel: Watch<'_>) -> Exit {
        let group = child.id() as i32;
        let waiter = ExitWaiter::new(child);
        let exit = loop {
            if cancel.is_cancelled() {
                kill_group(child, &waiter, group, self.kill_grace());
                break Exit::Cancelled;
            }
            let left = self.timeout.saturating_sub(started.elapsed());
            if left.is_zero() {
                kill_group(child, &waiter, group, self.kill_grace());
                break Exit::Timeout;
            }
            // With a wake-up fd, sleep until the exit, the cancel or the
            // timeout; with a plain flag, look at it now and then.
            let (limit, wake) = match cancel.wake_fd() {
                Some(fd) if waiter.pidfd.is_some() => (left, Some(fd)),
                _ => (
                    left.min((started.elapsed() / 10).clamp(POLL_MIN, POLL_MAX)),
                    None,
                ),
            };
            match waiter.wait_or_wake(child, limit, wake) {
                Ok(Some(status)) => {
                    break match (status.code(), status.signal()) {
                        (Some(code), _) => Exit::Code(code),
                        (None, Some(sig)) => Exit::Signal(sig),
                        (None, None) => Exit::Signal(0),
                    };
                }
                Ok(None) => continue,
                Err(_) => {
                    kill_group(child, &waiter, group, self.kill_grace());
                    break Exit::Signal(0);
                }
            }
        };
        // Whatever the script left running in its group goes too.
        signal_group(group, libc::SIGKILL);
        wait_until_group_gone(group);
        exit
    }
}

/// The process groups of the tests running now, for [`stop_running_tests`]:
/// a fixed table of atomics, because a signal handler reads it. A positive
/// entry is a local test's group, a negative one a launched test's.
static RUNNING_GROUPS: [AtomicI32; 1024] = [const { AtomicI32::new(0) }; 1024];

/// A test's entry in [`RUNNING_GROUPS`], cleared when dropped. With more
/// tests at once than the table holds, the extra ones are not entered.
struct RunningGroup(Option<usize>);

impl RunningGroup {
    fn enter(group: i32, launched: bool) -> Self {
        let value = if launched { -group } else { group };
        let slot = RUNNING_GROUPS.iter().position(|s| {
            s.compare_exchange(0, value, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        });
        RunningGroup(slot)
    }
}

impl Drop for RunningGroup {
    fn drop(&mut self) {
        if let Some(slot) = self.0 {
            RUNNING_GROUPS[slot].store(0, Ordering::SeqCst);
        }
    }
}

/// Stops every running test at once: SIGKILL to local tests' groups,
/// SIGTERM to launched ones (a launcher such as srun then cancels its job
/// on its own). For a second Ctrl-C, which exits without waiting; safe to
/// call from a signal handler (atomic loads and `killpg` only).
pub fn stop_running_tests() {
    for slot in &RUNNING_GROUPS {
        let value = slot.load(Ordering::SeqCst);
        if value != 0 {
            let signal = if value > 0 {
                libc::SIGKILL
            } else {
                libc::SIGTERM
            };
            signal_group(value.abs(), signal);
        }
    }
}

/// Makes this process the reaper of its orphaned descendants (Linux), so
/// that the members of a killed test group whose parent died become our
/// children and [`group_gone`] can reap them at once instead of waiting
/// for init. Idempotent; does nothing where unsupported.
fn become_subreaper() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        // SAFETY: PR_SET_CHILD_SUBREAPER takes an integer flag and no pointers.
        #[cfg(target_os = "linux")]
        unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        }
    });
}

/// Whether `group` has no process left, after reaping the members that
/// are our children (orphans handed to us as their subreaper). Zombies
/// whose parent is alive still count until that parent reaps them.
fn group_gone(group: i32) -> bool {
    // SAFETY: waitpid on a process group with WNOHANG and no status pointer.
    while unsafe { libc::waitpid(-group, std::ptr::null_mut(), libc::WNOHANG) } > 0 {}
    // SAFETY: killpg with signal 0 only checks whether the group exists.
    unsafe { libc::killpg(group, 0) != 0 }
}

fn signal_group(group: i32, signal: i32) {
    // SAFETY: killpg has no memory-safety preconditions; a stale group id
    // only yields ESRCH, which is ignored.
    unsafe {
        libc::killpg(group, signal);
    }
}

/// Waits (at most [`REAP_WAIT`]) until no process of `group` is alive, so
/// that a test is over when `run` returns: killed processes die only once
/// the scheduler runs them. Zombies do not count (orphans wait for init,
/// which may reap them only much later).
fn wait_until_group_gone(group: i32) {
    wait_for_group(group, REAP_WAIT);
}

/// Waits at most `limit` until no process of `group` is alive (zombies do
/// not count).
fn wait_for_group(group: i32, limit: Duration) {
    let started = Instant::now();
    // Killed members usually vanish within milliseconds. The /proc scan
    // (which tells zombies waiting to be reaped from live members) runs
    // only if the group is still there after 20 ms, then every 100 ms:
    // with hundreds of tests cancelled at once, scanning /proc per test
    // would cost the reducer more than everything else it does.
    let mut next_scan = started + Duration::from_millis(20);
    let mut pause = Duration::from_millis(1);
    while !group_gone(group) && started.elapsed() < limit {
        if Instant::now() >= next_scan {
            if !group_has_live_member(group) {
                break;
            }
            next_scan = Instant::now() + Duration::from_millis(100);
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(10));
    }
}

/// The state, parent and process group of `pid`, from `/proc/<pid>/stat`.
fn proc_stat(pid: &str) -> Option<(char, i32, i32)> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the parenthesized command name: state ppid pgrp ...
    let (_, rest) = stat.rsplit_once(')')?;
    let mut fields = rest.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    let pgrp = fields.next()?.parse().ok()?;
    Some((state, ppid, pgrp))
}

/// Whether a process of `group` is alive (not a zombie); false where there
/// is no `/proc`.
fn group_has_live_member(group: i32) -> bool {
    let Ok(entries) = fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|entry| {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            return false;
        };
        proc_stat(pid).is_some_and(|(state, _, pgrp)| pgrp == group && !matches!(state, 'Z' | 'X'))
    })
}

/// Whether process `pid` has exited (it is gone, or a zombie).
fn is_dead(pid: u32) -> bool {
    proc_stat(&pid.to_string()).is_none_or(|(state, _, _)| matches!(state, 'Z' | 'X'))
}

/// Waits for a child to exit with a time limit. On Linux it polls a pidfd,
/// one system call per wake-up; elsewhere (or on kernels without
/// `pidfd_open`) it uses the `wait-timeout` crate's SIGCHLD self-pipe.
struct ExitWaiter {
    pidfd: Option<OwnedFd>,
}

impl ExitWaiter {
    fn new(child: &Child) -> Self {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: pidfd_open takes a pid and flags; it returns a new fd or -1.
            let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, child.id() as libc::pid_t, 0) };
            if fd >= 0 {
                // SAFETY: `fd` was just returned by pidfd_open and is owned here only.
                let pidfd = unsafe { OwnedFd::from_raw_fd(fd as i32) };
                return ExitWaiter { pidfd: Some(pidfd) };
            }
        }
        let _ = child;
        ExitWaiter { pidfd: None }
    }

    /// The child's exit status if it exits within `limit`.
    fn wait(&self, child: &mut Child, limit: Duration) -> std::io::Result<Option<ExitStatus>> {
        self.wait_or_wake(child, limit, None)
    }

    /// [`Self::wait`], also returning (with `None`) as soon as `wake`
    /// becomes readable.
    fn wait_or_wake(
        &self,
        child: &mut Child,
        limit: Duration,
        wake: Option<i32>,
    ) -> std::io::Result<Option<ExitStatus>> {
        let Some(pidfd) = &self.pidfd else {
            return wait_timeout::ChildExt::wait_timeout(child, limit);
        };
        let mut fds = [pidfd.as_raw_fd(), wake.unwrap_or(-1)].map(|fd| libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        });
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = child.try_wait()? {
                return Ok(Some(status));
            }
            if fds[1].revents != 0 {
                return Ok(None); // woken: the caller looks at why
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(None);
            }
            // Rounded up: a poll that ends early only costs another round.
            let ms = left.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
            // SAFETY: two valid pollfds (a negative fd is ignored by poll);
            // an interrupted poll just loops.
            unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) };
        }
    }
}

/// SIGTERM the group, give it up to `grace` to exit (the child and every
/// other member: a launcher may still be cancelling its job after the shell
/// that started it died), then SIGKILL it and reap the child.
fn kill_group(child: &mut Child, waiter: &ExitWaiter, group: i32, grace: Duration) {
    signal_group(group, libc::SIGTERM);
    let deadline = Instant::now() + grace;
    let left = || deadline.saturating_duration_since(Instant::now());
    // The child first (it is ours to reap), then the rest of its group.
    if matches!(waiter.wait(child, left()), Ok(Some(_))) {
        wait_for_group(group, left());
    }
    signal_group(group, libc::SIGKILL);
    let _ = child.wait();
}

/// Why the oracle could not be started, with what to do about it.
fn spawn_error(script: &Path, err: std::io::Error) -> anyhow::Error {
    let shebang = fs::read(script).ok().and_then(|bytes| {
        let line = bytes.split(|&b| b == b'\n').next()?;
        let line = String::from_utf8_lossy(line.strip_prefix(b"#!")?);
        Some(line.trim().to_string())
    });
    let hint = match (err.raw_os_error(), &shebang) {
        (Some(libc::ENOENT), Some(line)) => {
            format!(": its interpreter `{line}` (the #! line) was not found; fix the #! line")
        }
        (Some(libc::ENOEXEC), _) => {
            ": it is neither a program nor a script starting with #! (add e.g. #!/bin/sh)".into()
        }
        (Some(libc::EACCES), _) => {
            ": permission denied (its interpreter or a directory on the path is not executable)"
                .into()
        }
        _ => String::new(),
    };
    anyhow::anyhow!(err).context(format!("cannot run the oracle {}{hint}", script.display()))
}

/// Removes a test directory even if the script made parts of it read-only.
/// A failure is reported, not fatal: the reduction goes on.
fn remove_dir_robustly(dir: &Path) {
    for attempt in 0..3 {
        match fs::remove_dir_all(dir) {
            Ok(()) => return,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
            Err(e) if attempt == 2 => {
                eprintln!(
                    "reduce: cannot remove the test directory {}: {e}",
                    dir.display()
                );
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

/// Collects a child's stdout and stderr (at most [`OUTPUT_CAP`] bytes of
/// each; the rest is read and dropped) on threads.
struct Drain {
    kept: Vec<Arc<Mutex<Vec<u8>>>>,
    done: mpsc::Receiver<()>,
}

impl Drain {
    /// What was collected, once both pipes closed or `grace` passed: a
    /// process that escaped the group may keep a pipe open for long; its
    /// reader thread is then left to finish on its own.
    fn finish(self, grace: Duration) -> Vec<u8> {
        let deadline = Instant::now() + grace;
        for _ in 0..self.kept.len() {
            let left = deadline.saturating_duration_since(Instant::now());
            if self.done.recv_timeout(left).is_err() {
                break;
            }
        }
        self.kept
            .iter()
            .flat_map(|k| std::mem::take(&mut *k.lock().unwrap_or_else(|e| e.into_inner())))
            .collect()
    }
}

fn drain_output(child: &mut Child) -> Drain {
    let (tx, done) = mpsc::channel();
    let mut kept = Vec::new();
    let mut spawn_reader = |mut r: Box<dyn Read + Send>| {
        let buf_out = Arc::new(Mutex::new(Vec::new()));
        kept.push(Arc::clone(&buf_out));
        let tx = tx.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = r.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut k = buf_out.lock().unwrap_or_else(|e| e.into_inner());
                let room = OUTPUT_CAP.saturating_sub(k.len());
                k.extend_from_slice(&buf[..n.min(room)]);
            }
            let _ = tx.send(());
        });
    };
    if let Some(out) = child.stdout.take() {
        spawn_reader(Box::new(out));
    }
    if let Some(err) = child.stderr.take() {
        spawn_reader(Box::new(err));
    }
    Drain { kept, done }
}

impl Oracle for ScriptOracle {
    fn test(&self, candidate: &Candidate<'_>, cancel: Watch<'_>) -> TestOutcome {
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

/// Where test directories go without `--work-dir`: `/dev/shm` when it is a
/// writable tmpfs that allows executables and has [`SHM_MIN_FREE`] free,
/// unless the user set `TMPDIR` (then theirs, as the `tempfile` crate reads
/// it); `None` means `TMPDIR` or `/tmp`. Creating, writing and removing a
/// directory per test skips ext4's inode allocation on tmpfs (about 5% of
/// the reducer's CPU, docs/benchmarks.md), and the oracle's own temporary files, which
/// go to the test's TMPDIR, never reach a disk.
pub fn default_work_dir() -> Option<PathBuf> {
    if std::env::var_os("TMPDIR").is_some_and(|t| !t.is_empty()) {
        return None;
    }
    let shm = Path::new("/dev/shm");
    shm_is_suitable(shm).then(|| shm.to_path_buf())
}

/// The free space a RAM-backed work directory must have: small `/dev/shm`s
/// (a container's 64 MB) are left alone.
pub const SHM_MIN_FREE: u64 = 1 << 30;

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

/// The default per-test timeout: 10× the original's run time, within [1 s,
/// 300 s]; at least 60 s through a launcher, whose queueing time varies
/// with the cluster's load far more than the oracle's own time does.
pub fn default_timeout(original_run: Duration, launched: bool) -> Duration {
    let floor = Duration::from_secs(if launched { 60 } else { 1 });
    (original_run * 10).clamp(floor, Duration::from_secs(300).max(floor))
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
    fn run_markers_are_stable_within_a_run() {
        assert_eq!(run_marker(), run_marker());
        assert!(run_marker().starts_with(&format!("{}-", std::process::id())));
    }
}
