//! The journal of a run, so that a run killed by SIGKILL, the out-of-memory
//! killer, a reboot or a time limit resumes where it stopped.
//!
//! It lives beside the output as `OUTPUT.reduce-journal`: a header naming
//! the run (a hash of the input, the oracle script's path and content, the
//! files `--copy` puts beside it and every option that changes the result;
//! not `-j`, `-q`, `-v`, the limits or where tests run), then one line per
//! verdict the loop caches (`v HASH I` or `v HASH N`, the candidate's xxh3
//! hash) and one per improvement saved (`c SIZE HASH`), each appended and
//! handed to the kernel as it comes, so a kill loses at most the tests in
//! flight.
//!
//! Running the same command again fills the verdict cache from the journal;
//! the reducer, deterministic whatever `-j`, then replays the run from the
//! original without an oracle test up to where it stopped, and goes on: the
//! result is the uninterrupted run's. A journal whose header differs is
//! refused (`--fresh` replaces it). A run that ends (finished or stopped by
//! a limit) removes its journal; one stopped by a signal or a fault keeps it.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result};
use xxhash_rust::xxh3::Xxh3;

use crate::engine::cache::key_of;
use crate::exit::{self, failure};
use crate::interfaces::{Messages, VerdictLog};
use crate::languages::Lang;
use crate::settings::{Judge, Settings};

/// The first word of the header, and the format's version.
const MAGIC: &str = "reduce-journal 1";

/// The journal's path for a result written to `output`.
pub(crate) fn journal_path(output: &Path) -> PathBuf {
    let mut name = output.file_name().unwrap_or_default().to_os_string();
    name.push(".reduce-journal");
    output.with_file_name(name)
}

/// The hash that names a run: what its verdicts and result depend on
/// (`beside`: what else the oracle sees, for a set its test directory's
/// layout and the files `--exclude` keeps).
pub(crate) fn run_hash(
    settings: &Settings,
    source: &[u8],
    beside: &[u8],
    lang: Lang,
    script: &Path,
) -> String {
    let mut h = Xxh3::new();
    let mut part = |bytes: &[u8]| {
        h.update(&(bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    part(source);
    part(beside);
    part(script.as_os_str().as_encoded_bytes());
    part(&fs::read(script).unwrap_or_default());
    if let Judge::Run(spec) = &settings.oracle {
        part(format!("{spec:?}").as_bytes());
        let cwd = std::env::current_dir().unwrap_or_default();
        part(cwd.as_os_str().as_encoded_bytes());
    }
    for copy in &settings.copy {
        part(copy.as_os_str().as_encoded_bytes());
        part(&fs::read(copy).unwrap_or_default());
    }
    let strategy = &settings.strategy;
    let options = format!(
        "{lang:?} {} {:?} {:?} {} {:?} timeout={:?} recheck={} no_syntax_filter={} memory_limit={:?}",
        strategy.algo.name,
        strategy.inner,
        strategy.unit,
        strategy.rename,
        strategy.tuning,
        settings.timeout,
        settings.recheck,
        settings.no_syntax_filter,
        settings.memory_limit,
    );
    part(options.as_bytes());
    // The wave width changes the result; without waves the hash is what
    // it was before waves existed.
    if settings.wave > 1 {
        part(format!("wave={}", settings.wave).as_bytes());
    }
    format!("{:032x}", h.digest128())
}

/// What a journal kept of an earlier run of the same command.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Resumed {
    /// Verdicts by candidate hash (`true` = interesting).
    pub(crate) verdicts: Vec<(u128, bool)>,
    /// The last improvement saved: its size and hash.
    pub(crate) best: Option<(u64, u128)>,
}

/// The last improvement an earlier run saved (its size and hash), while
/// the resumed run replays the way to it: the output already holds it, so
/// nothing larger is saved again, and it is not saved twice.
#[derive(Debug, Default)]
pub(crate) struct Replaying(Option<(u64, u128)>);

impl Replaying {
    pub(crate) fn new(best: Option<(u64, u128)>) -> Self {
        Replaying(best)
    }

    /// Whether the replay has not yet reached the earlier run's result
    /// (or a smaller one): the output holds a better result than the
    /// run's own.
    pub(crate) fn is_on(&self) -> bool {
        self.0.is_some()
    }

    /// Whether an improvement to `bytes` is to be saved; the replay ends
    /// when it reaches the earlier run's result or a smaller one.
    pub(crate) fn worth_saving(&mut self, bytes: &[u8]) -> bool {
        let Some((size, key)) = self.0 else {
            return true;
        };
        let reached = key_of(bytes) == key;
        let smaller = (bytes.len() as u64) < size;
        if reached || smaller {
            self.0 = None;
        }
        smaller && !reached
    }
}

/// Reads the journal at `path`, if there is one, for the run named `hash`.
/// `Err` (exit 2) when it belongs to another run.
pub(crate) fn load(path: &Path, hash: &str) -> Result<Option<Resumed>> {
    let text = match fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(e).with_context(|| format!("cannot read the journal {}", path.display()));
        }
    };
    let mut lines = text.split_inclusive('\n');
    if lines.next().map(str::trim_end) != Some(&header(hash)) {
        return Err(failure(
            exit::USAGE,
            format!(
                "{} is the journal of another run (a different input, oracle or options); \
                 run with --fresh to start over (it replaces the journal), or remove it",
                path.display()
            ),
        ));
    }
    let mut resumed = Resumed::default();
    // A line without its newline was cut short by a kill: it is left out.
    for line in lines.filter(|l| l.ends_with('\n')) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[..] {
            ["v", key, verdict @ ("I" | "N")] => {
                if let Ok(key) = u128::from_str_radix(key, 16) {
                    resumed.verdicts.push((key, verdict == "I"));
                }
            }
            ["c", size, key] => {
                if let (Ok(size), Ok(key)) = (size.parse(), u128::from_str_radix(key, 16)) {
                    resumed.best = Some((size, key));
                }
            }
            _ => {}
        }
    }
    Ok(Some(resumed))
}

fn header(hash: &str) -> String {
    format!("{MAGIC} {hash}")
}

/// The journal being written.
pub(crate) struct Journal {
    path: PathBuf,
    /// `None` once a write failed (said once; the run goes on without it).
    file: Mutex<Option<File>>,
    messages: Arc<dyn Messages>,
}

impl Journal {
    /// Starts writing the journal at `path` for the run named `hash`:
    /// goes on after what an earlier run wrote when `resume`, else starts
    /// it afresh.
    pub(crate) fn start(
        path: &Path,
        hash: &str,
        resume: bool,
        messages: Arc<dyn Messages>,
    ) -> Result<Journal> {
        let context = || format!("cannot write the journal {}", path.display());
        let file = if resume {
            let file = OpenOptions::new()
                .append(true)
                .open(path)
                .with_context(context)?;
            // Cut a line a kill left unfinished, so the next one starts clean.
            let bytes = fs::read(path).with_context(context)?;
            let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            file.set_len(whole as u64).with_context(context)?;
            file
        } else {
            let mut file = File::create(path).with_context(context)?;
            writeln!(file, "{}", header(hash)).with_context(context)?;
            file
        };
        Ok(Journal {
            path: path.to_path_buf(),
            file: Mutex::new(Some(file)),
            messages,
        })
    }

    /// Where it is.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `line` (one whole line, ending in a newline).
    fn append(&self, line: &str) {
        let mut file = self.file.lock().expect("journal lock poisoned");
        if let Some(f) = file.as_mut()
            && let Err(e) = f.write_all(line.as_bytes())
        {
            *file = None;
            self.messages.say(&format!(
                "reduce: cannot write the journal {} ({e}); going on without it (a rerun will start over)\n",
                self.path.display()
            ));
        }
    }

    /// Records an improvement that was saved.
    pub(crate) fn committed(&self, bytes: &[u8]) {
        self.append(&format!("c {} {:032x}\n", bytes.len(), key_of(bytes)));
    }

    /// Removes the journal: the run it journals has ended.
    pub(crate) fn remove(self) -> Result<()> {
        drop(self.file);
        match fs::remove_file(&self.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(e).with_context(|| format!("cannot remove the journal {}", self.path.display()))
            }
            _ => Ok(()),
        }
    }
}

impl VerdictLog for Journal {
    fn verdict(&self, key: u128, interesting: bool) {
        let verdict = if interesting { 'I' } else { 'N' };
        self.append(&format!("v {key:032x} {verdict}\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Printer;

    #[test]
    fn a_journal_gives_back_its_verdicts_and_last_improvement_without_a_line_cut_short() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.c.reduce-journal");
        let printer: Arc<dyn Messages> = Arc::new(Printer::stderr());
        let journal = Journal::start(&path, "abc", false, Arc::clone(&printer)).unwrap();
        journal.verdict(7, true);
        journal.verdict(u128::MAX, false);
        journal.committed(b"int x;");
        drop(journal);
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"v 00ff").unwrap();
        let resumed = load(&path, "abc").unwrap().unwrap();
        assert_eq!(resumed.verdicts, vec![(7, true), (u128::MAX, false)]);
        assert_eq!(resumed.best, Some((6, key_of(b"int x;"))));
        // Going on cuts the unfinished line first.
        let journal = Journal::start(&path, "abc", true, printer).unwrap();
        journal.verdict(9, false);
        let again = load(&path, "abc").unwrap().unwrap();
        assert_eq!(again.verdicts.last(), Some(&(9, false)));
        assert_eq!(again.verdicts.len(), 3);
    }

    #[test]
    fn a_replay_saves_nothing_until_it_passes_the_earlier_result_and_says_while_it_is_short() {
        let best = b"int x;";
        let mut replay = Replaying::new(Some((best.len() as u64, key_of(best))));
        // Larger results on the way: the output holds a better one.
        assert!(replay.is_on());
        assert!(!replay.worth_saving(b"int x; int y;"));
        assert!(
            replay.is_on(),
            "a run stopped now must leave the output as it is"
        );
        // The earlier result itself is not written twice; the replay is over.
        assert!(!replay.worth_saving(best));
        assert!(!replay.is_on());
        assert!(replay.worth_saving(b"x;"));
        // A smaller result than the earlier run's also ends it, and is saved.
        let mut replay = Replaying::new(Some((best.len() as u64, key_of(best))));
        assert!(replay.worth_saving(b"x;"));
        assert!(!replay.is_on());
        assert!(!Replaying::new(None).is_on());
    }

    #[test]
    fn a_journal_of_another_run_is_refused_naming_fresh() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j");
        let printer: Arc<dyn Messages> = Arc::new(Printer::stderr());
        drop(Journal::start(&path, "abc", false, printer).unwrap());
        let err = load(&path, "def").unwrap_err();
        assert!(format!("{err:#}").contains("--fresh"));
        assert_eq!(exit::code_of(&err), exit::USAGE);
        assert_eq!(load(&dir.path().join("none"), "abc").unwrap(), None);
    }
}
