//! The interestingness test as a process: the only module that starts processes.
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
//!
//! A test that cannot be set up or started (and, with a launcher, one whose
//! launcher exits 125, its own failure) is a [`Fault`], not a verdict;
//! `fault.rs` names its cause.
//!
//! The processes' groups and strays are `process.rs`'s business, where
//! test directories go `workdir.rs`'s.

mod builtin;
mod command;
mod fault;
mod forkserver;
mod formatter;
mod memory;
mod outside;
mod process;
mod sightings;
mod signature;
mod start;
mod workdir;

use std::ffi::OsString;
use std::fs;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::atomic_write::make_parent;
use crate::fileset::{FirstArg, TreeLayout, decode};
use crate::interfaces::{Candidate, Fault, Messages, Oracle, TestOutcome, Verdict, Watch};
use crate::progress::Printer;
pub(crate) use builtin::{BuiltIn, Expectations, RunSpec};
pub(crate) use command::program_problem;
use fault::{LAUNCHER_FAILED, Step, fault_of, launcher_fault};
use forkserver::Forkservers;
pub(crate) use formatter::Formatting;
pub(crate) use memory::{MemoryLimit, size_name};
pub(crate) use outside::{Outside, split_proposals};
pub(crate) use process::kill_strays;
pub use process::stop_running_tests;
use process::{
    ExitWaiter, OUTPUT_GRACE, RUN_MARKER_VAR, RunningGroup, TEST_MARKER_VAR, become_subreaper,
    drain_output, kill_group, kill_test_strays, run_marker, signal_group, test_left_children,
    test_marker, wait_until_group_gone,
};
pub(crate) use sightings::Sightings;
pub(crate) use signature::{DEFAULT_DEPTH, Signature, signal_names, signal_number};
use start::{SpawnFailed, spawn_error};
pub(crate) use start::{cannot_ever_start, dev_null_problem};
pub(crate) use workdir::{CACHE_DIR_VAR, default_work_dir, remove_leftover_dirs};
use workdir::{SharedDir, TMPDIR_NOTICE_BYTES, bytes_under, remove_dir_robustly, temp_dir};

/// The name of a test's `TMPDIR` inside its directory.
const TEST_TMP: &str = ".tmp";

/// How long a killed group gets between SIGTERM and SIGKILL.
const KILL_GRACE: Duration = Duration::from_millis(200);
/// The same for a launcher, which must reach a scheduler to cancel its job
/// (`srun` takes about a second).
const LAUNCHER_KILL_GRACE: Duration = Duration::from_secs(10);
/// How often a running test looks at a plain cancel flag (one without a
/// [`crate::interfaces::CancelSignal`]'s wake-up): every tenth of its running time so far,
/// within these bounds. A cancelled test holds a core
/// until it is killed, which matters most for short tests; each look costs
/// two system calls, which matters for long ones.
const POLL_MIN: Duration = Duration::from_millis(2);
const POLL_MAX: Duration = Duration::from_millis(20);

/// Runs a user's interestingness script on candidates.
#[derive(Clone)]
pub(crate) struct ScriptOracle {
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
    /// Where what the user must hear goes (the display; stderr by default).
    messages: Arc<dyn Messages>,
    /// `--memory-limit`, and the tests it stopped.
    memory: Option<MemoryLimit>,
    /// Candidates are archives of several files, written out as a tree.
    tree: Option<TreeLayout>,
    /// `--run`: the command and its expectations, which judge instead of
    /// the script's exit status.
    builtin: Option<Arc<BuiltIn>>,
    /// The run's cache directory, shared by every test ([`CACHE_DIR_VAR`]).
    shared: Option<Arc<SharedDir>>,
    /// `--each`: the runs counted, and the crashes no group has.
    sightings: Option<Arc<Sightings>>,
    /// `--same-crash`: the sanitizers do not symbolize their reports
    /// (see `command.rs`).
    unsymbolized: bool,
    /// `--same-crash` keeps a crash that is no leak: AddressSanitizer
    /// looks for none (see `command.rs`).
    leaks_unchecked: bool,
    /// `--run`'s program speaks AFL++'s forkserver protocol: its tests are
    /// forked by servers of this pool (see `forkserver.rs`).
    forkservers: Option<Arc<Forkservers>>,
    /// `--run`'s program, found once, when its command is started
    /// without the shell (see `command.rs`).
    direct: Option<PathBuf>,
}

/// One test as the checks see it: how it ended, how long it took, and
/// whether that is interesting (the script exited 0, or the built-in
/// oracle's expectations held).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ran {
    pub(crate) exit: Exit,
    pub(crate) took: Duration,
    pub(crate) interesting: bool,
}

/// A finished test process: how it ended, what it printed (when that was
/// collected), and the path it was given as the candidate.
struct Finished {
    /// Whether a process ran at all (an archive that does not decode is
    /// not interesting without one).
    ran: bool,
    exit: Exit,
    took: Duration,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    arg: PathBuf,
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
pub(crate) fn resolve_script(path: &Path) -> Result<PathBuf> {
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
            messages: Arc::new(Printer::stderr()),
            memory: None,
            tree: None,
            builtin: None,
            shared: None,
            sightings: None,
            unsymbolized: false,
            leaks_unchecked: false,
            forkservers: None,
            direct: None,
        }
    }

    /// Judges runs by `--run`'s expectations instead of the script's exit
    /// status; the command replaces the script.
    pub(crate) fn with_builtin(mut self, builtin: Option<BuiltIn>) -> Self {
        let environment = (self.unsymbolized, self.leaks_unchecked);
        self.unsymbolized = builtin.as_ref().is_some_and(|b| b.same_crash().is_some());
        self.leaks_unchecked = builtin
            .as_ref()
            .and_then(BuiltIn::signature)
            .is_some_and(|s| !s.kind.contains("Leak"));
        self.builtin = builtin.map(Arc::new);
        self.direct = self.direct_program();
        // The servers keep the environment they were started with.
        if environment != (self.unsymbolized, self.leaks_unchecked) {
            self.forkservers = self.forkservers.map(|f| Arc::new(f.fresh()));
        }
        self
    }

    /// This oracle with the sanitizers symbolizing their reports, as
    /// they do by default: for the signature shown to the user.
    pub(crate) fn symbolized(&self) -> Self {
        Self {
            unsymbolized: false,
            // A server keeps the environment it was started with.
            forkservers: None,
            ..self.clone()
        }
    }

    /// Counts every run in `sightings`, and notes there the crashes that
    /// are not the one kept (`--each`).
    pub(crate) fn with_sightings(mut self, sightings: Option<Arc<Sightings>>) -> Self {
        self.sightings = sightings;
        self
    }

    /// The built-in oracle, with `--run`.
    pub(crate) fn builtin(&self) -> Option<&BuiltIn> {
        self.builtin.as_deref()
    }

    /// Makes the run's shared cache directory (in the work directory), which
    /// every test and outside command is given as [`CACHE_DIR_VAR`] and
    /// which is removed when the last copy of this oracle is dropped.
    pub(crate) fn with_shared_dir(mut self) -> Result<Self> {
        let shared = SharedDir::make(self.work_dir.as_deref()).with_context(|| {
            let at = self.work_dir.clone().unwrap_or_else(std::env::temp_dir);
            format!(
                "cannot create the run's cache directory in {}",
                at.display()
            )
        })?;
        self.shared = Some(Arc::new(shared));
        Ok(self)
    }

    /// The run's shared cache directory, if it has one.
    pub(crate) fn shared_dir(&self) -> Option<&Path> {
        self.shared.as_deref().map(|s| s.path.as_path())
    }

    /// Runs every test (and outside command) under `limit`.
    pub(crate) fn with_memory_limit(mut self, limit: Option<u64>) -> Self {
        self.memory = limit.map(MemoryLimit::new);
        self
    }

    /// The memory limit, if any, with the count of tests it stopped.
    pub(crate) fn memory_limit(&self) -> Option<&MemoryLimit> {
        self.memory.as_ref()
    }

    /// Takes candidates as archives of several files (`crate::fileset`),
    /// each test directory holding them at their relative paths.
    pub(crate) fn with_tree(mut self, tree: Option<TreeLayout>) -> Self {
        self.tree = tree;
        self
    }

    /// How long a test may run.
    pub(crate) fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The script's absolute path.
    pub(crate) fn script(&self) -> &Path {
        &self.script
    }

    /// Says what the user must hear through `messages` (the run's display).
    pub(crate) fn with_messages(mut self, messages: Arc<dyn Messages>) -> Self {
        self.messages = messages;
        self
    }

    pub(crate) fn with_work_dir(mut self, dir: Option<PathBuf>) -> Self {
        self.work_dir = dir;
        self
    }

    pub(crate) fn with_extra_files(mut self, files: Vec<PathBuf>) -> Self {
        self.extra_files = files;
        self
    }

    /// Runs every test as `LAUNCHER <script> <candidate>` (through `/bin/sh`).
    pub(crate) fn with_launcher(mut self, launcher: Option<String>) -> Self {
        self.launcher = launcher;
        self.direct = self.direct_program();
        self
    }

    fn kill_grace(&self) -> Duration {
        if self.launcher.is_some() {
            LAUNCHER_KILL_GRACE
        } else {
            KILL_GRACE
        }
    }

    pub(crate) fn with_verbose(mut self, verbose: bool) -> Self {
        self.verbose = verbose;
        self
    }

    pub(crate) fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Runs the script once on `bytes`. `Err` only when the test could not be
    /// set up or started (temp dir, write, spawn); a crash or timeout of the
    /// script is an `Exit`, judged interesting or not.
    pub(crate) fn run(&self, bytes: &[u8], cancel: Watch<'_>) -> Result<Ran> {
        let finished = self.run_once(bytes, cancel)?;
        let interesting = match &self.builtin {
            None => finished.exit.interesting(),
            Some(_) if !finished.ran => false,
            Some(b) => {
                let interesting = b.judge(
                    finished.exit,
                    &finished.stdout,
                    &finished.stderr,
                    &finished.arg,
                );
                if !interesting {
                    self.note_other_crash(b, &finished, bytes);
                }
                interesting
            }
        };
        Ok(Ran {
            exit: finished.exit,
            took: finished.took,
            interesting,
        })
    }

    /// With `--same-crash`: runs the command once on `bytes` and reads the
    /// crash signature of its output and exit (`None`: it shows none), with
    /// the run (interesting when it shows one: it shows its own crash).
    pub(crate) fn crash_signature(
        &self,
        bytes: &[u8],
        depth: usize,
        cancel: Watch<'_>,
    ) -> Result<(Ran, Option<Signature>)> {
        let f = self.run_once(bytes, cancel)?;
        let signature = BuiltIn::signature_of(f.exit, &f.stdout, &f.stderr, &f.arg, depth);
        let ran = Ran {
            exit: f.exit,
            took: f.took,
            interesting: signature.is_some(),
        };
        Ok((ran, signature))
    }

    /// With `--each` and `--same-crash`: notes the crash of a candidate
    /// that did not show the one kept, if it shows another.
    fn note_other_crash(&self, builtin: &BuiltIn, finished: &Finished, bytes: &[u8]) {
        let (Some(sightings), Some(depth)) = (&self.sightings, builtin.same_crash()) else {
            return;
        };
        let (exit, out, err) = (finished.exit, &finished.stdout, &finished.stderr);
        if exit != Exit::Cancelled
            && let Some(signature) = BuiltIn::signature_of(exit, out, err, &finished.arg, depth)
        {
            sightings.saw(signature, bytes);
        }
    }

    fn run_once(&self, bytes: &[u8], cancel: Watch<'_>) -> Result<Finished> {
        if let Some(sightings) = &self.sightings {
            sightings.ran();
        }
        if let Some(finished) = self.run_forked(bytes, cancel) {
            return Ok(finished);
        }
        let dir = temp_dir(self.work_dir.as_deref(), "reduce-test-")
            .context("cannot create a temporary directory for the test")?;
        let result = self.run_in_dir(dir.path(), bytes, cancel);
        self.notice_tmp_left(&dir.path().join(TEST_TMP));
        // Removes the directory and everything in it, whatever the script
        // did to it; `dir`'s own removal then finds nothing.
        remove_dir_robustly(dir.path());
        drop(dir);
        result
    }

    fn run_in_dir(&self, dir: &Path, bytes: &[u8], cancel: Watch<'_>) -> Result<Finished> {
        if let Some(tree) = &self.tree {
            return self.run_on_tree(tree, dir, bytes, cancel);
        }
        let candidate = dir.join(&self.file_name);
        fs::write(&candidate, bytes)
            .with_context(|| format!("cannot write the candidate {}", candidate.display()))?;
        let tmp = self.copy_extras_and_make_tmp(dir, dir)?;
        let mut command = self.command(&candidate, dir);
        command.env("TMPDIR", &tmp);
        self.spawn_and_wait(command, candidate, cancel)
    }

    /// Copies the `--copy` files into `into` and makes the test's TMPDIR
    /// in `dir`; returns the TMPDIR.
    fn copy_extras_and_make_tmp(&self, into: &Path, dir: &Path) -> Result<PathBuf> {
        for extra in &self.extra_files {
            let name = extra
                .file_name()
                .context("a --copy path has no file name")?;
            fs::copy(extra, into.join(name))
                .with_context(|| format!("cannot copy {} beside the candidate", extra.display()))?;
        }
        let tmp = dir.join(TEST_TMP);
        fs::create_dir(&tmp).context("cannot create the test's TMPDIR")?;
        Ok(tmp)
    }

    /// Says once, when a test left more than [`TMPDIR_NOTICE_BYTES`] in
    /// its `TMPDIR` (`tmp`), that it is thrown away after every test and
    /// how to keep a cache across tests.
    fn notice_tmp_left(&self, tmp: &Path) {
        let Some(shared) = &self.shared else {
            return;
        };
        if shared.said_tmp.load(Ordering::Relaxed) {
            return;
        }
        let left = bytes_under(tmp, TMPDIR_NOTICE_BYTES);
        if left > TMPDIR_NOTICE_BYTES && !shared.said_tmp.swap(true, Ordering::Relaxed) {
            self.messages.say(&format!(
                "reduce: the oracle leaves more than {} MB in its TMPDIR, a fresh directory \
                 for every test that is removed after it: a cache kept there starts cold \
                 at every test; keep it in ${CACHE_DIR_VAR} instead, one directory for the \
                 whole run (e.g. GOCACHE=\"${CACHE_DIR_VAR}/go\"; see docs/oracles.md)\n",
                TMPDIR_NOTICE_BYTES >> 20
            ));
        }
    }

    /// Runs the script on the files of the archive `bytes`, written under
    /// `dir/<root>` (its working directory); an archive that does not
    /// decode is not interesting, without a run.
    fn run_on_tree(
        &self,
        tree: &TreeLayout,
        dir: &Path,
        bytes: &[u8],
        cancel: Watch<'_>,
    ) -> Result<Finished> {
        let Some(files) = decode(bytes) else {
            return Ok(Finished {
                ran: false,
                exit: Exit::Code(1),
                took: Duration::ZERO,
                stdout: Vec::new(),
                stderr: Vec::new(),
                arg: PathBuf::new(),
            });
        };
        let root = dir.join(&tree.root);
        fs::create_dir(&root).context("cannot create the test's file tree")?;
        for (rel, content) in files {
            let path = root.join(rel);
            make_parent(&path)?;
            fs::write(&path, content)
                .with_context(|| format!("cannot write the candidate {}", path.display()))?;
        }
        for (rel, from) in &tree.kept {
            let path = root.join(rel);
            make_parent(&path)?;
            fs::copy(from, &path).with_context(|| format!("cannot copy {}", from.display()))?;
        }
        let tmp = self.copy_extras_and_make_tmp(&root, dir)?;
        let arg = match &tree.first_arg {
            FirstArg::Directory => root.clone(),
            FirstArg::File(rel) => root.join(rel),
        };
        let mut command = self.command(&arg, &root);
        command.env("TMPDIR", &tmp);
        self.spawn_and_wait(command, arg, cancel)
    }

    /// Runs the script the way the user would by hand: on `file` itself, in
    /// `cwd`, with the user's own `TMPDIR` (still in its own process group,
    /// with the timeout). Used to tell an oracle that only works beside the
    /// input from one that does not work at all.
    pub(crate) fn run_by_hand(
        &self,
        file: &Path,
        cwd: &Path,
        cancel: Watch<'_>,
    ) -> Result<(Exit, Duration)> {
        let command = self.command(file, cwd);
        let f = self.spawn_and_wait(command, file.to_path_buf(), cancel)?;
        Ok((f.exit, f.took))
    }

    /// Runs `command` on the candidate `arg` (its stdin with a built-in
    /// oracle whose command has no `{}`, else /dev/null) and waits for it.
    fn spawn_and_wait(
        &self,
        mut command: Command,
        arg: PathBuf,
        cancel: Watch<'_>,
    ) -> Result<Finished> {
        let stdin = match &self.builtin {
            Some(b) if b.reads_stdin() => Stdio::from(
                fs::File::open(&arg)
                    .with_context(|| format!("cannot read the candidate {}", arg.display()))?,
            ),
            _ => Stdio::null(),
        };
        let test = test_marker();
        command
            .env(RUN_MARKER_VAR, run_marker())
            .env(TEST_MARKER_VAR, &test)
            .stdin(stdin)
            .process_group(0);
        if let Some(shared) = self.shared_dir() {
            command.env(CACHE_DIR_VAR, shared);
        }
        if self.verbose || self.builtin.is_some() {
            command.stdout(Stdio::piped()).stderr(Stdio::piped());
        } else if self.memory.is_some() {
            // Read to tell a test that ran out of memory from others.
            command.stdout(Stdio::null()).stderr(Stdio::piped());
        } else {
            command.stdout(Stdio::null()).stderr(Stdio::null());
        }
        if let Some(memory) = &self.memory {
            memory.apply(&mut command);
        }
        let started = Instant::now();
        let mut child = command
            .spawn()
            .map_err(|e| spawn_error(&self.script, command.get_current_dir(), e))?;
        let running = RunningGroup::enter(child.id() as i32, self.launcher.is_some());
        let collects = self.verbose || self.memory.is_some() || self.builtin.is_some();
        let output = collects.then(|| drain_output(&mut child, self.builtin.is_some()));
        let exit = self.wait(&mut child, started, cancel);
        let left = test_left_children(&test);
        if exit == Exit::Timeout || !left.is_empty() {
            // What the test started outside its group goes too, before
            // the next test starts (it may be a fork bomb).
            kill_test_strays(&test, &left);
        }
        drop(running);
        let took = started.elapsed();
        let (stdout, stderr) = output.map_or_else(Default::default, |d| d.finish(OUTPUT_GRACE));
        if let Some(memory) = &self.memory
            && exit != Exit::Cancelled
            && (self.builtin.is_some() || !exit.interesting())
        {
            memory.judge_failure(&stderr, &*self.messages);
        }
        self.say_output(exit, &stdout, &stderr);
        Ok(Finished {
            ran: true,
            exit,
            took,
            stdout,
            stderr,
            arg,
        })
    }

    /// With `-v`: what a test printed, under a line saying how it ended.
    fn say_output(&self, exit: Exit, stdout: &[u8], stderr: &[u8]) {
        if self.verbose && !(stdout.is_empty() && stderr.is_empty()) {
            let mut said = format!("--- oracle output ({exit}) ---\n");
            said.push_str(&String::from_utf8_lossy(stdout));
            said.push_str(&String::from_utf8_lossy(stderr));
            if !said.ends_with('\n') {
                said.push('\n');
            }
            self.messages.say(&said);
        }
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

impl Oracle for ScriptOracle {
    fn test(&self, candidate: &Candidate<'_>, cancel: Watch<'_>) -> Result<TestOutcome, Fault> {
        match self.run(candidate.bytes, cancel) {
            Ok(ran) if ran.exit == Exit::Code(LAUNCHER_FAILED) && self.launcher.is_some() => {
                Err(launcher_fault(self.launcher.as_deref().unwrap_or_default()))
            }
            Ok(ran) => Ok(TestOutcome {
                verdict: if ran.interesting {
                    Verdict::Interesting
                } else {
                    Verdict::NotInteresting
                },
                timed_out: ran.exit == Exit::Timeout,
                cancelled: ran.exit == Exit::Cancelled,
                replayed: false,
            }),
            Err(err) => {
                let step = if err.downcast_ref::<SpawnFailed>().is_some() {
                    Step::Spawn
                } else {
                    Step::Prepare
                };
                let work_dir = self.work_dir.clone().unwrap_or_else(std::env::temp_dir);
                Err(fault_of(&err, step, &work_dir))
            }
        }
    }
}

/// The default per-test timeout: 10× the original's run time, within [1 s,
/// 300 s]; at least 60 s through a launcher, whose queueing time varies
/// with the cluster's load far more than the oracle's own time does.
pub(crate) fn default_timeout(original_run: Duration, launched: bool) -> Duration {
    let floor = Duration::from_secs(if launched { 60 } else { 1 });
    (original_run * 10).clamp(floor, Duration::from_secs(300).max(floor))
}
