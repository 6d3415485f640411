//! AFL++'s forkserver: a target built by `afl-clang-fast` (or another of
//! AFL++'s compilers) starts once, stops before `main`, and forks a fresh
//! copy of itself for every test it is told to run. A test then costs a
//! `fork` instead of an `exec`, the dynamic loader and the sanitizer's
//! start-up: the bulk of a small target's test.
//!
//! The protocol (documented in AFL++'s `docs/` and stable since AFL 2):
//! the target finds two pipes on file descriptors 198 (commands in) and 199
//! (answers out), says hello with four bytes, then for every four bytes it
//! reads it forks, answers the child's pid, and, when the child has ended,
//! its wait status. Newer runtimes open with a versioned handshake
//! instead of the plain hello; both are spoken here (the plain one tested
//! with AFL++ 4.04c). The input
//! is a file whose path is fixed when the server starts, so each server
//! has its own directory and file, and a pool keeps one server per test
//! running at once.
//!
//! A server that does not answer as the protocol says (the program is no
//! AFL++ target after all, wants shared-memory input, or died) is dropped,
//! and the pool is marked broken: the caller then starts its tests afresh.

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use super::Exit;
use super::process::OUTPUT_CAP;
use super::workdir::temp_dir;
use crate::interfaces::Watch;

/// The descriptor the target reads commands from; answers go to the next.
const CONTROL_FD: i32 = 198;
const STATUS_FD: i32 = CONTROL_FD + 1;
/// The hello of runtimes with the versioned handshake ("AFL" and version 1).
const NEW_HELLO: u32 = 0x4146_4c01;
/// The option bits of a hello.
const OPT_ENABLED: u32 = 0x8000_0001;
const OPT_MAPSIZE: u32 = 0x4000_0000;
const OPT_SHARED_INPUT: u32 = 0x0100_0000;
const OPT_DICTIONARY: u32 = 0x1000_0000;
/// How long a server may take to say hello, or to fork a child.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);
/// How often a test without a wake-up descriptor looks at its cancel flag.
const POLL: Duration = Duration::from_millis(20);
/// The string AFL++'s runtime carries (the variable naming its coverage
/// map), which tells a target built with it from other programs.
const RUNTIME_MARK: &[u8] = b"__AFL_SHM_ID";

/// Whether the program at `path` carries AFL++'s runtime: read once per
/// run and program (a large target is read in pieces, never whole).
pub(super) fn speaks_forkserver(path: &Path) -> bool {
    static SEEN: Mutex<Vec<(PathBuf, bool)>> = Mutex::new(Vec::new());
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, speaks)) = seen.iter().find(|(p, _)| p == path) {
        return *speaks;
    }
    let speaks = File::open(path).is_ok_and(|file| holds(file, RUNTIME_MARK));
    seen.push((path.to_path_buf(), speaks));
    speaks
}

/// Whether what `reader` reads holds `needle`, read a piece at a time.
fn holds(mut reader: impl Read, needle: &[u8]) -> bool {
    let mut buffer = vec![0; 1 << 16];
    let mut kept = 0;
    loop {
        let n = match reader.read(&mut buffer[kept..]) {
            Ok(0) | Err(_) => return false,
            Ok(n) => n,
        };
        let filled = kept + n;
        if buffer[..filled].windows(needle.len()).any(|w| w == needle) {
            return true;
        }
        // The last bytes may start the needle: they stay for the next read.
        kept = filled.min(needle.len() - 1);
        buffer.copy_within(filled - kept..filled, 0);
    }
}

/// One test run by a server: how it ended, how long it took, what it
/// printed, and the path it was given as the candidate.
pub(super) struct ServerRun {
    pub(super) exit: Exit,
    pub(super) took: Duration,
    pub(super) stdout: Vec<u8>,
    pub(super) stderr: Vec<u8>,
    pub(super) input: PathBuf,
}

/// The servers of one oracle: idle ones wait here between tests.
pub(super) struct Forkservers {
    idle: Mutex<Vec<Server>>,
    /// Why the servers were given up, once they were (taken when said).
    broken: Mutex<Option<Option<String>>>,
    work_dir: Option<PathBuf>,
    file_name: OsString,
}

impl Forkservers {
    /// A pool whose servers live in directories under `work_dir` (the
    /// system's temporary directory by default), their input named
    /// `file_name`.
    pub(super) fn new(work_dir: Option<PathBuf>, file_name: OsString) -> Self {
        Forkservers {
            idle: Mutex::new(Vec::new()),
            broken: Mutex::new(None),
            work_dir,
            file_name,
        }
    }

    /// A pool like this one, without its servers.
    pub(super) fn fresh(&self) -> Self {
        Forkservers::new(self.work_dir.clone(), self.file_name.clone())
    }

    /// Runs one test on `bytes` through an idle server, or a new one made
    /// from `command(input, dir)`; `None` when the servers were given up
    /// (the caller starts the test afresh).
    pub(super) fn run(
        &self,
        bytes: &[u8],
        timeout: Duration,
        cancel: Watch<'_>,
        command: &dyn Fn(&Path, &Path) -> Command,
    ) -> Option<ServerRun> {
        if self.lock_broken().is_some() {
            return None;
        }
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let server = match idle {
            Some(server) => Ok(server),
            None => Server::start(self.work_dir.as_deref(), &self.file_name, command),
        };
        let result = server.and_then(|mut s| s.run(bytes, timeout, cancel).map(|r| (s, r)));
        match result {
            Ok((server, run)) => {
                self.idle
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(server);
                Some(run)
            }
            Err(e) => {
                self.lock_broken().get_or_insert(Some(format!("{e:#}")));
                None
            }
        }
    }

    /// Why the servers were given up, the first time it is asked after
    /// they were.
    pub(super) fn take_reason(&self) -> Option<String> {
        self.lock_broken().as_mut().and_then(Option::take)
    }

    fn lock_broken(&self) -> std::sync::MutexGuard<'_, Option<Option<String>>> {
        self.broken.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A running server: its process, its two pipes, and its directory with
/// the input and the output files its children write.
struct Server {
    process: Child,
    control: File,
    status: File,
    input: PathBuf,
    stdout: File,
    stderr: File,
    /// Removed when the server is dropped (after its process is gone).
    _dir: tempfile::TempDir,
}

impl Server {
    /// Starts `command(input, dir)` with the protocol's pipes and reads its
    /// hello.
    fn start(
        work_dir: Option<&Path>,
        file_name: &OsString,
        command: &dyn Fn(&Path, &Path) -> Command,
    ) -> Result<Server> {
        let dir = temp_dir(work_dir, "reduce-forkserver-")
            .context("cannot create the forkserver's directory")?;
        let input = dir.path().join(file_name);
        fs::write(&input, b"").context("cannot write the forkserver's input")?;
        let output = |name: &str| {
            OpenOptions::new()
                .create(true)
                .append(true)
                .read(true)
                .open(dir.path().join(name))
                .context("cannot create the forkserver's output files")
        };
        let (stdout, stderr) = (output("stdout")?, output("stderr")?);
        let (control_in, control) = pipe()?;
        let (status, status_out) = pipe()?;
        let mut command = command(&input, dir.path());
        command
            .stdin(Stdio::null())
            .stdout(stdout.try_clone()?)
            .stderr(stderr.try_clone()?)
            .process_group(0);
        let fds = (control_in.as_raw_fd(), status_out.as_raw_fd());
        // SAFETY: dup2 and fcntl are async-signal-safe; the closure only
        // moves descriptors into the protocol's places.
        unsafe {
            command.pre_exec(move || {
                for (from, to) in [(fds.0, CONTROL_FD), (fds.1, STATUS_FD)] {
                    if from == to {
                        libc::fcntl(to, libc::F_SETFD, 0);
                    } else if libc::dup2(from, to) < 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
        let process = command.spawn().context("cannot start the forkserver")?;
        drop((control_in, status_out));
        let mut server = Server {
            process,
            control: File::from(control),
            status: File::from(status),
            input,
            stdout,
            stderr,
            _dir: dir,
        };
        server.handshake()?;
        Ok(server)
    }

    /// Reads the hello and answers it as its protocol version asks.
    fn handshake(&mut self) -> Result<()> {
        let hello = self.read_u32(ANSWER_TIMEOUT, None)?;
        if hello == NEW_HELLO {
            self.write_u32(NEW_HELLO ^ 0xffff_ffff)?;
            let options = self.read_u32(ANSWER_TIMEOUT, None)?;
            if options & OPT_SHARED_INPUT != 0 {
                bail!("the target reads its input from shared memory");
            }
            if options & OPT_MAPSIZE != 0 {
                self.read_u32(ANSWER_TIMEOUT, None)?;
            }
            if options & OPT_DICTIONARY != 0 {
                let len = self.read_u32(ANSWER_TIMEOUT, None)?;
                let mut dictionary = vec![0; len as usize];
                self.read_exact_or_wake(&mut dictionary, ANSWER_TIMEOUT, None)?;
            }
            if self.read_u32(ANSWER_TIMEOUT, None)? != NEW_HELLO {
                bail!("the forkserver's handshake did not end as the protocol says");
            }
        } else if hello & OPT_ENABLED == OPT_ENABLED {
            if hello & OPT_SHARED_INPUT != 0 {
                bail!("the target reads its input from shared memory");
            }
            if hello & OPT_DICTIONARY != 0 {
                // No option wanted: the server sends no dictionary.
                self.write_u32(0)?;
            }
        }
        Ok(())
    }

    /// One test: `bytes` written to the input, a child forked and waited
    /// for (killed at `timeout` or when `cancel` fires).
    fn run(&mut self, bytes: &[u8], timeout: Duration, cancel: Watch<'_>) -> Result<ServerRun> {
        fs::write(&self.input, bytes).context("cannot write the candidate")?;
        self.stdout.set_len(0)?;
        self.stderr.set_len(0)?;
        self.write_u32(0)?;
        let started = Instant::now();
        let pid = self.read_u32(ANSWER_TIMEOUT, None)? as i32;
        if pid <= 0 {
            bail!("the forkserver could not fork");
        }
        let exit = loop {
            // Without a wake-up descriptor, the cancel flag is looked at
            // now and then.
            let wake = cancel.wake_fd();
            let left = timeout.saturating_sub(started.elapsed());
            let slice = if wake.is_some() { left } else { left.min(POLL) };
            match self.read_u32(slice, wake) {
                Ok(status) => break exit_of(status),
                Err(e) if !e.is::<Late>() => return Err(e),
                Err(_) if !cancel.is_cancelled() && started.elapsed() < timeout => {}
                Err(_) => {
                    // SAFETY: kill has no memory-safety preconditions; the
                    // pid is the server's child, not yet reaped (its status
                    // is still to come).
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                    self.read_u32(ANSWER_TIMEOUT, None)?;
                    break if cancel.is_cancelled() {
                        Exit::Cancelled
                    } else {
                        Exit::Timeout
                    };
                }
            }
        };
        Ok(ServerRun {
            exit,
            took: started.elapsed(),
            stdout: read_capped(&mut self.stdout)?,
            stderr: read_capped(&mut self.stderr)?,
            input: self.input.clone(),
        })
    }

    fn write_u32(&mut self, value: u32) -> Result<()> {
        self.control
            .write_all(&value.to_ne_bytes())
            .context("the forkserver stopped reading its commands")
    }

    /// Four bytes from the server, waiting at most `limit` (or until
    /// `wake` is readable): a [`Late`] error then.
    fn read_u32(&mut self, limit: Duration, wake: Option<i32>) -> Result<u32> {
        let mut bytes = [0; 4];
        self.read_exact_or_wake(&mut bytes, limit, wake)?;
        Ok(u32::from_ne_bytes(bytes))
    }

    fn read_exact_or_wake(
        &mut self,
        into: &mut [u8],
        limit: Duration,
        wake: Option<i32>,
    ) -> Result<()> {
        let deadline = Instant::now() + limit;
        let mut got = 0;
        while got < into.len() {
            if !readable(self.status.as_raw_fd(), deadline, wake) {
                return Err(Late.into());
            }
            match self.status.read(&mut into[got..]) {
                Ok(0) => bail!("the forkserver exited"),
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e).context("cannot read the forkserver's answer"),
            }
        }
        Ok(())
    }
}

impl Drop for Server {
    /// Ends the server (its children were all waited for) and reaps it.
    fn drop(&mut self) {
        // SAFETY: kill has no memory-safety preconditions; the process is
        // our child, not yet reaped.
        unsafe { libc::kill(self.process.id() as i32, libc::SIGKILL) };
        let _ = self.process.wait();
    }
}

/// No answer in time (or a wake-up came first).
#[derive(Debug)]
struct Late;

impl std::fmt::Display for Late {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the forkserver did not answer in time")
    }
}

impl std::error::Error for Late {}

/// Whether `fd` became readable before `deadline` (and before `wake` did).
fn readable(fd: i32, deadline: Instant, wake: Option<i32>) -> bool {
    let mut fds = [fd, wake.unwrap_or(-1)].map(|fd| libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    });
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let ms = left.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
        // SAFETY: two valid pollfds (a negative fd is ignored by poll).
        let n = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) };
        if fds[0].revents != 0 {
            return true;
        }
        if fds[1].revents != 0 || (n >= 0 && left.is_zero()) {
            return false;
        }
    }
}

/// A pipe's read and write ends, closed on exec.
fn pipe() -> Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error()).context("cannot make the forkserver's pipes");
    }
    // SAFETY: pipe2 succeeded: both descriptors are open and ours alone.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// How a child ended, from the wait status the server relays.
fn exit_of(status: u32) -> Exit {
    let status = status as i32;
    if libc::WIFEXITED(status) {
        Exit::Code(libc::WEXITSTATUS(status))
    } else if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Signal(0)
    }
}

/// What a child wrote to `file`: all of it, or its first and last
/// [`OUTPUT_CAP`] bytes.
fn read_capped(file: &mut File) -> Result<Vec<u8>> {
    let len = file.seek(SeekFrom::End(0))?;
    let mut out = Vec::new();
    file.seek(SeekFrom::Start(0))?;
    if len <= 2 * OUTPUT_CAP as u64 {
        file.read_to_end(&mut out)?;
        return Ok(out);
    }
    out.resize(OUTPUT_CAP, 0);
    file.read_exact(&mut out)?;
    file.seek(SeekFrom::End(-(OUTPUT_CAP as i64)))?;
    file.read_to_end(&mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_status_reads_as_an_exit_code_or_a_signal() {
        assert_eq!(exit_of(0), Exit::Code(0));
        assert_eq!(exit_of(3 << 8), Exit::Code(3));
        assert_eq!(exit_of(libc::SIGSEGV as u32), Exit::Signal(libc::SIGSEGV));
    }

    #[test]
    fn a_mark_is_found_across_the_pieces_a_program_is_read_in() {
        let mut bytes = vec![0u8; 3 << 16];
        let at = (1 << 16) - 5;
        bytes[at..at + RUNTIME_MARK.len()].copy_from_slice(RUNTIME_MARK);
        assert!(holds(&bytes[..], RUNTIME_MARK));
        assert!(!holds(&bytes[..at + 4], RUNTIME_MARK));
        assert!(!holds(&[0u8; 10][..], RUNTIME_MARK));
    }

    #[test]
    fn a_program_without_afl_runtime_is_not_taken_for_a_forkserver() {
        assert!(!speaks_forkserver(Path::new("/bin/sh")));
        assert!(!speaks_forkserver(Path::new("/no/such/program")));
    }

    #[test]
    fn long_output_keeps_its_first_and_last_bytes() {
        let mut file = tempfile::tempfile().unwrap();
        let text: Vec<u8> = (0..3 * OUTPUT_CAP).map(|i| (i % 251) as u8).collect();
        file.write_all(&text).unwrap();
        let kept = read_capped(&mut file).unwrap();
        assert_eq!(kept.len(), 2 * OUTPUT_CAP);
        assert_eq!(kept[..OUTPUT_CAP], text[..OUTPUT_CAP]);
        assert_eq!(kept[OUTPUT_CAP..], text[2 * OUTPUT_CAP..]);
    }
}
