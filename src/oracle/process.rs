//! The processes of tests: each test's process group, found and killed
//! whole when the test ends, times out or is cancelled; the table of
//! running groups a second Ctrl-C stops; strays that left their group,
//! found by the run's marker in their environment; waiting for a child
//! with a time limit; collecting a child's output for `-v`.

use std::fs;
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex, OnceLock, mpsc};
use std::time::{Duration, Instant};

/// How long a test waits, after killing its group, for the group to be gone.
const REAP_WAIT: Duration = Duration::from_millis(500);

/// How long `-v` waits for a finished test's output pipes to close (a
/// process that left the group may hold them open).
pub(super) const OUTPUT_GRACE: Duration = Duration::from_millis(200);

/// How much of the start of each of a test's stdout and stderr is kept
/// (for `-v`, `--memory-limit` and the built-in oracle, which keeps as
/// much of the end too).
pub(super) const OUTPUT_CAP: usize = 64 * 1024;

/// The environment variable naming the run, set for every process started here.
pub(crate) const RUN_MARKER_VAR: &str = "REDUCE_RUN_ID";

/// The environment variable naming one test of the run (the run's marker
/// and a number), set for the test's process.
pub(crate) const TEST_MARKER_VAR: &str = "REDUCE_TEST_ID";

/// A new value of [`TEST_MARKER_VAR`], unique in this run.
pub(super) fn test_marker() -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    format!("{}-{}", run_marker(), NEXT.fetch_add(1, Ordering::Relaxed))
}

/// This run's value of [`RUN_MARKER_VAR`]: unique per `reduce` process.
pub(crate) fn run_marker() -> &'static str {
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
/// catches the ones that escaped it (`setsid`, double forks, daemons, the
/// job-control groups of a reduced script's fork bomb). A process that also
/// cleared its environment is not found.
pub(crate) fn kill_strays() -> usize {
    let needle = format!("{RUN_MARKER_VAR}={}", run_marker());
    sweep(|proc_dir| carries(proc_dir, &needle))
}

/// SIGKILLs the processes of one test (`test`, its [`TEST_MARKER_VAR`])
/// that left its group, and `known` (its [`test_left_children`], whose
/// marker a look in the middle of an `exec` would miss): a test that
/// timed out, or left children of its own behind, may have started a
/// fork bomb, which must not live on beside the next tests.
pub(super) fn kill_test_strays(test: &str, known: &[u32]) {
    let needle = format!("{TEST_MARKER_VAR}={test}");
    sweep(|proc_dir| {
        carries(proc_dir, &needle)
            || proc_dir
                .file_name()
                .and_then(|name| name.to_str()?.parse::<u32>().ok())
                .is_some_and(|pid| known.contains(&pid))
    });
}

/// The children of ours that belong to one test (`test`, its
/// [`TEST_MARKER_VAR`]): processes that outlived their parent and were
/// handed to us as the subreaper ([`become_subreaper`]), as a daemon is,
/// or the processes of a fork bomb whose top the test's own `timeout`
/// killed. Reads our threads' lists of children and the environment of
/// each child, not all of `/proc`; none where the kernel keeps no such
/// lists.
pub(super) fn test_left_children(test: &str) -> Vec<u32> {
    let needle = format!("{TEST_MARKER_VAR}={test}");
    let Ok(tasks) = fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for task in tasks.flatten() {
        let Ok(pids) = fs::read_to_string(task.path().join("children")) else {
            continue;
        };
        found.extend(
            pids.split_ascii_whitespace()
                .filter_map(|pid| pid.parse::<u32>().ok())
                .filter(|pid| carries_settled(&Path::new("/proc").join(pid.to_string()), &needle)),
        );
    }
    found
}

/// [`carries`], looking again a few times at an empty environment: a
/// process in the middle of an `exec` shows none for a moment (the new
/// image's is not laid out yet).
fn carries_settled(proc_dir: &Path, needle: &str) -> bool {
    for _ in 0..3 {
        match fs::read(proc_dir.join("environ")) {
            Ok(env) if env.is_empty() => std::thread::sleep(Duration::from_millis(1)),
            Ok(env) => return holds(&env, needle),
            Err(_) => return false,
        }
    }
    false
}

/// SIGKILLs the processes of this run (its marker in their environment)
/// whose working directory or an open file lies under `dir`, and waits
/// (at most [`REAP_WAIT`]) until they are gone: a process that left its
/// test's group and still writes into the test's directory, which could
/// not be removed for it ("Directory not empty").
pub(super) fn kill_marked_in(dir: &Path) {
    let dir = fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let needle = format!("{RUN_MARKER_VAR}={}", run_marker());
    freeze_and_kill(|proc_dir| {
        let inside = |link: PathBuf| fs::read_link(link).is_ok_and(|to| to.starts_with(&dir));
        carries(proc_dir, &needle)
            && (inside(proc_dir.join("cwd"))
                || fs::read_dir(proc_dir.join("fd"))
                    .into_iter()
                    .flatten()
                    .flatten()
                    .any(|fd| inside(fd.path())))
    });
}

/// Whether the process of `proc_dir` (`/proc/<pid>`) has `needle`
/// (`NAME=value`) in its environment.
fn carries(proc_dir: &Path, needle: &str) -> bool {
    fs::read(proc_dir.join("environ")).is_ok_and(|env| holds(&env, needle))
}

/// Whether `env` (a `/proc/<pid>/environ`) holds the variable `needle`.
fn holds(env: &[u8], needle: &str) -> bool {
    env.split(|&b| b == 0).any(|v| v == needle.as_bytes())
}

/// How many times [`sweep`] freezes and kills at most.
const SWEEPS: usize = 8;

/// [`freeze_and_kill`] again while it kills something (at most
/// [`SWEEPS`] times); returns how many were killed in all. One freeze
/// gives up after [`FREEZE_LIMIT`], and on a loaded machine a bomb's
/// processes can outrun it: those it had not stopped would live on.
/// Each kill removes every process it stopped, so the next freeze starts
/// from the few that escaped.
fn sweep(chosen: impl Fn(&Path) -> bool) -> usize {
    let mut killed = 0;
    for _ in 0..SWEEPS {
        let now = freeze_and_kill(&chosen);
        killed += now;
        if now == 0 {
            break;
        }
    }
    killed
}

/// How long [`freeze_and_kill`] goes on finding new processes to stop.
const FREEZE_LIMIT: Duration = Duration::from_secs(5);

/// SIGSTOPs every live process that `chosen` picks (given `/proc/<pid>`),
/// looking again until a look finds no new one, then SIGKILLs them all,
/// waits (at most [`REAP_WAIT`]) until they are dead and reaps those that
/// are ours (orphans handed to us as their subreaper). Killing as they are
/// found loses to a fork bomb: a process forks again between the look and
/// the kill, and its children live on in groups of their own. A stopped
/// process forks no more, so the looks end. Returns how many it killed.
fn freeze_and_kill(chosen: impl Fn(&Path) -> bool) -> usize {
    let me = std::process::id();
    let started = Instant::now();
    let mut frozen: Vec<u32> = Vec::new();
    loop {
        let Ok(entries) = fs::read_dir("/proc") else {
            break;
        };
        let mut found: Vec<u32> = entries
            .flatten()
            .filter_map(|entry| {
                let pid = entry.file_name().to_str()?.parse::<u32>().ok()?;
                (pid != me && !is_dead(pid) && chosen(&entry.path())).then_some(pid)
            })
            .collect();
        found.retain(|pid| frozen.binary_search(pid).is_err());
        if found.is_empty() || started.elapsed() > FREEZE_LIMIT {
            break;
        }
        for &pid in &found {
            // SAFETY: kill has no memory-safety preconditions.
            unsafe { libc::kill(pid as i32, libc::SIGSTOP) };
        }
        // A signal is taken on the way back to user space: wait until the
        // new ones have stopped (or died), so that the next look sees every
        // child they forked before.
        let deadline = Instant::now() + REAP_WAIT;
        while !found.iter().all(|&p| is_stopped_or_dead(p)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        frozen.extend(found);
        frozen.sort_unstable();
    }
    let family: Vec<i32> = frozen.iter().map(|&p| p as i32).collect();
    kill_family(&family);
    family.len()
}

/// The process groups of the tests running now, for [`stop_running_tests`]:
/// a fixed table of atomics, because a signal handler reads it. A positive
/// entry is a local test's group, a negative one a launched test's.
static RUNNING_GROUPS: [AtomicI32; 1024] = [const { AtomicI32::new(0) }; 1024];

/// A test's entry in [`RUNNING_GROUPS`], cleared when dropped. With more
/// tests at once than the table holds, the extra ones are not entered.
pub(super) struct RunningGroup(Option<usize>);

impl RunningGroup {
    pub(super) fn enter(group: i32, launched: bool) -> Self {
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
pub(super) fn become_subreaper() {
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

pub(super) fn signal_group(group: i32, signal: i32) {
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
pub(super) fn wait_until_group_gone(group: i32) {
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

/// The live descendants of `leader` (its children, theirs, ...), found
/// through `/proc` (none where there is none). `timeout` puts the command
/// it runs in a process group of its own, which a kill of the test's
/// group misses: a cancelled test's compiler would run on, and its
/// `timeout`, orphaned to us, end a zombie. Taken before the kill, while
/// every descendant still links to the leader.
pub(super) fn descendants(leader: i32) -> Vec<i32> {
    let parents: Vec<(i32, i32)> = pids_since(leader)
        .filter_map(|pid| {
            let (state, ppid, _) = proc_stat(&pid.to_string())?;
            (!matches!(state, 'Z' | 'X')).then_some((pid, ppid))
        })
        .collect();
    let mut family = vec![leader];
    let mut at = 0;
    while at < family.len() {
        let parent = family[at];
        family.extend(
            parents
                .iter()
                .filter(|(_, p)| *p == parent)
                .map(|(c, _)| *c),
        );
        at += 1;
    }
    family.remove(0);
    family
}

/// The pids in `/proc` that may belong to processes started after process
/// `first` was: those above it while the kernel has not wrapped its pid
/// counter since (`/proc/sys/kernel/ns_last_pid` is at or above `first`),
/// every pid otherwise. A test's descendants and the members of its group
/// are among them, so a cancelled test's `/proc` scan reads the stat of a
/// few new processes instead of every process of the machine. (A test that
/// starts a whole cycle of pids, tens of thousands of processes, while it
/// runs could hide a descendant that left its group below `first`; a
/// timed-out test's strays are found by their marker anyway.)
fn pids_since(first: i32) -> impl Iterator<Item = i32> {
    let last = fs::read_to_string("/proc/sys/kernel/ns_last_pid")
        .ok()
        .and_then(|s| s.trim().parse::<i32>().ok());
    let floor = if last.is_some_and(|last| last >= first) {
        first
    } else {
        0
    };
    fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter(move |&pid| pid >= floor)
}

/// SIGKILLs `family` (a killed test's [`descendants`], or strays) and
/// the process groups they are in, and reaps those that became ours to
/// reap (orphans handed to us as their subreaper). A group goes whole at
/// once, so a member's child forked after the look dies with it: the
/// processes of a fork bomb under the script's `timeout` share its group,
/// and the one forking at the moment of a kill by pid escapes. Neither our
/// own group nor a running test's is signalled (a member that died may
/// have left its pid to a new test).
pub(super) fn kill_family(family: &[i32]) {
    // SAFETY: getpgrp has no preconditions.
    let own = unsafe { libc::getpgrp() };
    let running = |group: i32| {
        RUNNING_GROUPS
            .iter()
            .any(|slot| slot.load(Ordering::SeqCst).abs() == group)
    };
    let mut groups: Vec<i32> = family
        .iter()
        .filter_map(|&pid| proc_stat(&pid.to_string()).map(|(_, _, group)| group))
        .filter(|&group| group > 1 && group != own && !running(group))
        .collect();
    groups.sort_unstable();
    groups.dedup();
    for group in groups {
        signal_group(group, libc::SIGKILL);
    }
    for &pid in family {
        // SAFETY: kill has no memory-safety preconditions.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    let deadline = Instant::now() + REAP_WAIT;
    while !family.iter().all(|&p| is_dead(p as u32)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    for &pid in family {
        // SAFETY: waitpid on one pid with WNOHANG and no status pointer;
        // one that is not our child only yields ECHILD.
        unsafe { libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG) };
    }
}

/// Whether a process of `group` is alive (not a zombie); false where there
/// is no `/proc`.
fn group_has_live_member(group: i32) -> bool {
    pids_since(group).any(|pid| {
        proc_stat(&pid.to_string())
            .is_some_and(|(state, _, pgrp)| pgrp == group && !matches!(state, 'Z' | 'X'))
    })
}

/// Whether process `pid` has exited (it is gone, or a zombie).
fn is_dead(pid: u32) -> bool {
    proc_stat(&pid.to_string()).is_none_or(|(state, _, _)| matches!(state, 'Z' | 'X'))
}

/// Whether process `pid` is stopped by a signal, or has exited.
fn is_stopped_or_dead(pid: u32) -> bool {
    proc_stat(&pid.to_string()).is_none_or(|(state, _, _)| matches!(state, 'T' | 'Z' | 'X'))
}

/// Waits for a child to exit with a time limit. On Linux it polls a pidfd,
/// one system call per wake-up; elsewhere (or on kernels without
/// `pidfd_open`) it uses the `wait-timeout` crate's SIGCHLD self-pipe.
pub(super) struct ExitWaiter {
    pub(super) pidfd: Option<OwnedFd>,
}

impl ExitWaiter {
    pub(super) fn new(child: &Child) -> Self {
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
    pub(super) fn wait(
        &self,
        child: &mut Child,
        limit: Duration,
    ) -> std::io::Result<Option<ExitStatus>> {
        self.wait_or_wake(child, limit, None)
    }

    /// [`Self::wait`], also returning (with `None`) as soon as `wake`
    /// becomes readable.
    pub(super) fn wait_or_wake(
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
pub(super) fn kill_group(child: &mut Child, waiter: &ExitWaiter, group: i32, grace: Duration) {
    let family = descendants(group);
    signal_group(group, libc::SIGTERM);
    let deadline = Instant::now() + grace;
    let left = || deadline.saturating_duration_since(Instant::now());
    // The child first (it is ours to reap), then the rest of its group.
    if matches!(waiter.wait(child, left()), Ok(Some(_))) {
        wait_for_group(group, left());
    }
    signal_group(group, libc::SIGKILL);
    let _ = child.wait();
    kill_family(&family);
}

/// Collects a child's stdout and stderr (at most [`OUTPUT_CAP`] bytes of
/// each, its first and its last; the rest is read and dropped) on threads.
pub(super) struct Drain {
    out: Option<Arc<Mutex<Kept>>>,
    err: Option<Arc<Mutex<Kept>>>,
    done: mpsc::Receiver<()>,
    readers: usize,
}

/// What a reader keeps of one stream: its first [`OUTPUT_CAP`] bytes, and,
/// when asked, its last (a Python traceback ends a long output).
#[derive(Default)]
struct Kept {
    head: Vec<u8>,
    /// Whether the last bytes are kept too.
    keeps_tail: bool,
    tail: Vec<u8>,
    /// Bytes dropped between the head and the tail.
    dropped: bool,
}

impl Kept {
    fn push(&mut self, bytes: &[u8]) {
        let room = OUTPUT_CAP.saturating_sub(self.head.len());
        let (head, rest) = bytes.split_at(bytes.len().min(room));
        self.head.extend_from_slice(head);
        if !self.keeps_tail {
            return;
        }
        self.tail.extend_from_slice(rest);
        if self.tail.len() > 2 * OUTPUT_CAP {
            let cut = self.tail.len() - OUTPUT_CAP;
            self.tail.drain(..cut);
            self.dropped = true;
        }
    }

    fn take(&mut self) -> Vec<u8> {
        if self.tail.len() > OUTPUT_CAP {
            let cut = self.tail.len() - OUTPUT_CAP;
            self.tail.drain(..cut);
            self.dropped = true;
        }
        let mut all = std::mem::take(&mut self.head);
        if self.dropped {
            all.extend_from_slice(b"\n[...]\n");
        }
        all.append(&mut self.tail);
        all
    }
}

impl Drain {
    /// What was collected, stdout and stderr, once both pipes closed or
    /// `grace` passed: a process that escaped the group may keep a pipe
    /// open for long; its reader thread is then left to finish on its own.
    pub(super) fn finish(self, grace: Duration) -> (Vec<u8>, Vec<u8>) {
        let deadline = Instant::now() + grace;
        for _ in 0..self.readers {
            let left = deadline.saturating_duration_since(Instant::now());
            if self.done.recv_timeout(left).is_err() {
                break;
            }
        }
        let take = |kept: &Option<Arc<Mutex<Kept>>>| {
            kept.as_ref().map_or_else(Vec::new, |k| {
                k.lock().unwrap_or_else(|e| e.into_inner()).take()
            })
        };
        (take(&self.out), take(&self.err))
    }
}

/// Starts collecting `child`'s piped stdout and stderr: the first
/// [`OUTPUT_CAP`] bytes of each, and with `keep_tail` the last too.
pub(super) fn drain_output(child: &mut Child, keep_tail: bool) -> Drain {
    let (tx, done) = mpsc::channel();
    let mut readers = 0;
    let mut spawn_reader = |mut r: Box<dyn Read + Send>| {
        let kept = Arc::new(Mutex::new(Kept {
            keeps_tail: keep_tail,
            ..Kept::default()
        }));
        let into = Arc::clone(&kept);
        let tx = tx.clone();
        readers += 1;
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = r.read(&mut buf) {
                if n == 0 {
                    break;
                }
                into.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(&buf[..n]);
            }
            let _ = tx.send(());
        });
        kept
    };
    let out = child.stdout.take().map(|out| spawn_reader(Box::new(out)));
    let err = child.stderr.take().map(|err| spawn_reader(Box::new(err)));
    Drain {
        out,
        err,
        done,
        readers,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_markers_are_stable_within_a_run() {
        assert_eq!(run_marker(), run_marker());
        assert!(run_marker().starts_with(&format!("{}-", std::process::id())));
    }

    #[test]
    fn descendants_include_those_that_left_the_group_and_no_one_else() {
        use std::os::unix::process::CommandExt;
        // `timeout` moves itself and its command to a group of their own.
        let mut child = std::process::Command::new("sh")
            .args(["-c", "timeout 60 sleep 30 & wait"])
            .process_group(0)
            .spawn()
            .unwrap();
        let leader = child.id() as i32;
        let waiter = ExitWaiter::new(&child);
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut family = descendants(leader);
        while family.len() < 2 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
            family = descendants(leader);
        }
        let stats: Vec<_> = family
            .iter()
            .map(|pid| proc_stat(&pid.to_string()).unwrap())
            .collect();
        kill_group(&mut child, &waiter, leader, Duration::from_millis(100));
        kill_family(&family);
        assert_eq!(family.len(), 2, "timeout and sleep: {family:?}");
        // timeout is the shell's child, sleep timeout's; both in a group
        // other than the test's.
        assert_eq!(stats[0].1, leader);
        assert_eq!(stats[1].1, family[0]);
        assert!(stats.iter().all(|&(_, _, group)| group != leader));
        assert!(family.iter().all(|&pid| is_dead(pid as u32)));
    }
}
