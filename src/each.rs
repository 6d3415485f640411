//! `--each`: a corpus of test cases in one command, as a fuzzer's crash
//! directory is. Every file is a case of its own with the same oracle;
//! with `--same-crash` the files are grouped by crash signature first
//! (one run per file, `-j` at a time) and one reproducer per group is
//! reduced, from its smallest file. Each case is one ordinary run
//! (`reduce_one`, the single-file run with its journal, checks and final
//! check), several at once within `-j`; a crash that a case's candidates
//! showed and no group has becomes a group of its own, reduced from the
//! smallest candidate that showed it. `report.json` and `report.sarif` in
//! the output directory say what became of every file; the report is
//! written after every group, and a group whose reproducer it lists is not
//! reduced again when the same command runs again (unless `--fresh`).
//! `--max-time` bounds the whole command: a group it stops keeps its best
//! so far and goes on from its journal when the command runs again.

mod report;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::checks::{crash_signature_of, shown_signature_of};
use crate::exit::{self, failure};
use crate::input::Input;
use crate::interfaces::Messages;
use crate::oracle::{Sightings, Signature};
use crate::progress::Printer;
use crate::settings::Settings;
use report::{Found, Group, NOT_STARTED, OUT_OF_TIME, REDUCED, Report};

/// Found groups are looked for again after reducing the ones found before,
/// at most this many times (each time needs a crash no group had).
const MAX_FOUND_ROUNDS: usize = 4;

/// Reduces every case of the corpus `settings` names with `reduce_one`
/// (the single-file run; returns its exit code); returns the exit code.
pub(crate) fn run(
    settings: &Settings,
    script: &Path,
    interrupted: &AtomicBool,
    reduce_one: &(dyn Fn(&Settings) -> Result<i32> + Sync),
) -> Result<i32> {
    let deadline = settings.max_time.map(|d| Instant::now() + d);
    let (files, root) = cases(settings)?;
    let out_dir = output_dir(settings.output.as_deref(), &root);
    let say = |line: &str| {
        if !settings.quiet {
            Printer::stderr().say(&format!("reduce: {line}\n"));
        }
    };
    let mut report = Report::load(&out_dir, settings.fresh);
    let groups = if settings.same_crash() {
        let triage = Arc::new(Sightings::default());
        let (groups, not_reproducible) =
            triage_all(settings, script, &files, &root, &triage, interrupted)?;
        report.start(triage.executions(), not_reproducible);
        say(&format!(
            "{} files, {} crash signatures, {} not reproducible (no crash)",
            files.len(),
            groups.len(),
            report.not_reproducible.len()
        ));
        groups
    } else {
        report.start(0, Vec::new());
        files.iter().map(|f| Group::of_file(f, &root)).collect()
    };
    if groups.is_empty() {
        return Err(failure(
            exit::NOT_INTERESTING,
            "--each --same-crash: no file of the corpus shows a crash",
        ));
    }
    // Made once there is something to write: bad input leaves nothing.
    std::fs::create_dir_all(&out_dir)
        .with_context(|| format!("cannot create the output directory {}", out_dir.display()))?;
    let runner = Runner {
        progress: (AtomicUsize::new(0), AtomicUsize::new(0)),
        settings,
        script,
        out_dir: &out_dir,
        interrupted,
        reduce_one,
        report: Mutex::new(report),
        say: &say,
        deadline,
    };
    runner.reduce_all(groups)?;
    runner.finish()
}

/// The corpus's files, sorted, and the directory their names are relative
/// to: every file under the one directory given (symlinks not followed),
/// or the files listed.
fn cases(settings: &Settings) -> Result<(Vec<PathBuf>, PathBuf)> {
    if let [dir] = &settings.inputs[..]
        && dir.is_dir()
    {
        let mut files = Vec::new();
        for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
            let entry = entry.with_context(|| format!("cannot read {}", dir.display()))?;
            if entry.file_type().is_file() {
                files.push(entry.into_path());
            }
        }
        if files.is_empty() {
            bail!("--each: {} holds no file", dir.display());
        }
        return Ok((files, dir.clone()));
    }
    for file in &settings.inputs {
        if !file.is_file() {
            bail!("--each: {} is not a file", file.display());
        }
    }
    Ok((settings.inputs.clone(), PathBuf::new()))
}

/// `-o` (`given`), else `DIR.reduced` beside the directory `root`, else
/// `reduced` (listed files).
fn output_dir(given: Option<&Path>, root: &Path) -> PathBuf {
    if let Some(dir) = given {
        return dir.to_path_buf();
    }
    match root.file_name() {
        Some(name) => {
            let mut name = name.to_os_string();
            name.push(".reduced");
            root.with_file_name(name)
        }
        None => PathBuf::from("reduced"),
    }
}

/// The settings of one case: `input` reduced into `output`, quietly, at
/// `jobs`, its tests counted (and other crashes noted) in `sightings`.
fn case_settings(
    settings: &Settings,
    input: &Path,
    output: &Path,
    jobs: usize,
    sightings: Arc<Sightings>,
) -> Settings {
    let mut case = settings.clone();
    case.each = false;
    case.input = input.to_path_buf();
    case.inputs = vec![input.to_path_buf()];
    case.output = Some(output.to_path_buf());
    case.quiet = true;
    case.verbose = false;
    case.jobs = jobs;
    case.sightings = Some(sightings);
    case
}

/// Every file's crash signature, `-j` files at a time: the groups (files
/// in each sorted by size, smallest first) and the files without a crash.
fn triage_all(
    settings: &Settings,
    script: &Path,
    files: &[PathBuf],
    root: &Path,
    sightings: &Arc<Sightings>,
    interrupted: &AtomicBool,
) -> Result<(Vec<Group>, Vec<String>)> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Result<Option<Signature>>)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..settings.jobs.min(files.len()) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= files.len() || interrupted.load(Ordering::SeqCst) {
                        break;
                    }
                    // Nothing is written: the output directory may not
                    // be there yet.
                    let out = Path::new("-");
                    let mut case = case_settings(settings, &files[i], out, 1, sightings.clone());
                    // One run: a forkserver's start would only add its fork.
                    case.forkserver = false;
                    let signature = Input::read(&case)
                        .and_then(|input| crash_signature_of(&case, script, &input, interrupted));
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((i, signature));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _)| *i);
    let mut by_signature: BTreeMap<String, (Signature, Vec<PathBuf>)> = BTreeMap::new();
    let mut not_reproducible = Vec::new();
    for (i, signature) in results {
        let name = report::relative(&files[i], root);
        match signature.with_context(|| format!("--each: {name}"))? {
            Some(sig) => by_signature
                .entry(sig.to_string())
                .or_insert_with(|| (sig, Vec::new()))
                .1
                .push(files[i].clone()),
            None => not_reproducible.push(name),
        }
    }
    if interrupted.load(Ordering::SeqCst) {
        bail!("interrupted while grouping the files by crash");
    }
    let groups = by_signature
        .into_values()
        .map(|(sig, members)| Group::of_crash(&sig, members, root))
        .collect();
    Ok((groups, not_reproducible))
}

/// What the groups' runs share.
struct Runner<'a> {
    /// Groups finished, and groups known so far (found ones add to it).
    progress: (AtomicUsize, AtomicUsize),
    settings: &'a Settings,
    script: &'a Path,
    out_dir: &'a Path,
    interrupted: &'a AtomicBool,
    reduce_one: &'a (dyn Fn(&Settings) -> Result<i32> + Sync),
    report: Mutex<Report>,
    say: &'a (dyn Fn(&str) + Sync),
    /// `--max-time`'s end, for the whole command.
    deadline: Option<Instant>,
}

impl Runner<'_> {
    /// Reduces `groups`, then the groups of the crashes they met that no
    /// group had, until no new one comes (or [`MAX_FOUND_ROUNDS`]).
    fn reduce_all(&self, mut groups: Vec<Group>) -> Result<()> {
        let found_dir = tempfile::Builder::new()
            .prefix(".found-")
            .tempdir_in(self.out_dir)
            .context("cannot create a directory for the crashes found while reducing")?;
        self.lock().keep_earlier_found(self.out_dir);
        for _ in 0..=MAX_FOUND_ROUNDS {
            let known = self.known(&groups);
            let found = self.reduce_groups(groups, &known)?;
            let known = self.known(&[]);
            groups = found
                .into_iter()
                .filter(|f| !known.contains(&f.signature.to_string()))
                .map(|f| Group::found(&f, found_dir.path()))
                .collect::<Result<_>>()?;
            if groups.is_empty() || self.interrupted.load(Ordering::SeqCst) {
                break;
            }
        }
        Ok(())
    }

    /// The signatures of the report's groups and of `more`.
    fn known(&self, more: &[Group]) -> BTreeSet<String> {
        let report = self.lock();
        let listed = report.groups.iter().filter_map(|g| g.key.clone());
        listed
            .chain(more.iter().filter_map(|g| g.key.clone()))
            .collect()
    }

    /// Reduces `groups`, several at once within `-j`; returns the crashes
    /// their tests showed that are not `known`, each with its smallest
    /// candidate.
    fn reduce_groups(&self, groups: Vec<Group>, known: &BTreeSet<String>) -> Result<Vec<Found>> {
        self.progress.1.fetch_add(groups.len(), Ordering::SeqCst);
        let at_once = self.settings.jobs.min(groups.len()).max(1);
        let jobs = (self.settings.jobs / at_once).max(1);
        let queue = Mutex::new(groups.into_iter());
        let found: Mutex<BTreeMap<String, Found>> = Mutex::new(BTreeMap::new());
        let failed: Mutex<Option<anyhow::Error>> = Mutex::new(None);
        std::thread::scope(|scope| {
            for _ in 0..at_once {
                scope.spawn(|| {
                    while let Some(group) = next(&queue) {
                        if self.interrupted.load(Ordering::SeqCst) {
                            break;
                        }
                        match self.reduce_group(group, jobs, known) {
                            Ok(seen) => merge_found(&found, seen),
                            Err(e) => *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e),
                        }
                    }
                });
            }
        });
        if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        let found = found.into_inner().unwrap_or_else(|e| e.into_inner());
        Ok(found.into_values().collect())
    }

    /// Reduces one group (unless the report already holds its reproducer);
    /// returns the crashes its tests met that are not `known`.
    fn reduce_group(
        &self,
        mut group: Group,
        jobs: usize,
        known: &BTreeSet<String>,
    ) -> Result<Vec<Found>> {
        let sightings = Arc::new(Sightings::new(known.clone()));
        self.show(&mut group, &sightings)?;
        if self.lock().done(&group, self.out_dir) {
            return Ok(Vec::new());
        }
        let reproducer = self.out_dir.join(&group.reproducer);
        if let Some(parent) = reproducer.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        let left = self
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        if left == Some(Duration::ZERO) {
            std::fs::copy(&group.source, &reproducer)
                .with_context(|| format!("cannot write {}", reproducer.display()))?;
            group.bytes_after = Some(group.bytes_before);
            group.outcome = NOT_STARTED.to_string();
            return self.record(group).map(|()| Vec::new());
        }
        let mut case = case_settings(
            self.settings,
            &group.source,
            &reproducer,
            jobs,
            Arc::clone(&sightings),
        );
        case.lang = group.lang.or(case.lang);
        // A crash found while reducing is read as the case it came from was.
        let lang = Input::read(&case).ok().map(|input| input.lang);
        case.max_time = left;
        let code = (self.reduce_one)(&case);
        let out_of_time = self.deadline.is_some_and(|d| Instant::now() >= d);
        group.executions = sightings.executions();
        group.bytes_after = std::fs::metadata(&reproducer).ok().map(|m| m.len());
        group.outcome = match &code {
            Ok(0) if out_of_time => OUT_OF_TIME.to_string(),
            Ok(0) => REDUCED.to_string(),
            Ok(code) => format!("stopped (exit {code})"),
            Err(e) => format!("failed: {e:#}"),
        };
        let extension = group.source.extension().map(|e| e.to_owned());
        self.record(group)?;
        let found = sightings
            .found()
            .into_iter()
            .map(|(signature, bytes)| Found {
                signature,
                bytes,
                extension: extension.clone(),
                lang,
            });
        Ok(found.collect())
    }

    /// Names a crash group by its signature from a symbolized run on its
    /// file, when the tests' own runs did not symbolize its frames.
    fn show(&self, group: &mut Group, sightings: &Arc<Sightings>) -> Result<()> {
        let Some(compared) = group.compared.clone() else {
            return Ok(());
        };
        let out = self.out_dir.join(".triage");
        let case = case_settings(self.settings, &group.source, &out, 1, Arc::clone(sightings));
        let input = Input::read(&case)?;
        let shown = shown_signature_of(&case, self.script, &input, &compared, self.interrupted)?;
        group.show(shown.as_ref().unwrap_or(&compared));
        Ok(())
    }

    /// Says that `group` is done and writes the report with it.
    fn record(&self, group: Group) -> Result<()> {
        let done = self.progress.0.fetch_add(1, Ordering::SeqCst) + 1;
        let total = self.progress.1.load(Ordering::SeqCst);
        (self.say)(&format!("[{done}/{total}] {}", group.summary()));
        let mut report = self.lock();
        report.add(group);
        report.write(self.out_dir)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Report> {
        self.report.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Says how the corpus ended; the exit code: 0 when every group was
    /// reduced, the interruption's when a signal came, else 1.
    fn finish(self) -> Result<i32> {
        let report = self.report.into_inner().unwrap_or_else(|e| e.into_inner());
        report.write(self.out_dir)?;
        let failed = report.groups.iter().filter(|g| g.failed()).count();
        (self.say)(&format!(
            "{} groups, {} executions; report in {}",
            report.groups.len(),
            report.total_executions(),
            self.out_dir.join("report.json").display()
        ));
        let unfinished = report.groups.iter().filter(|g| g.outcome != REDUCED);
        let unfinished = unfinished.count() - failed;
        if unfinished > 0 {
            (self.say)(&format!(
                "{unfinished} groups stopped or not started at --max-time, their smallest so \
                 far written; the same command goes on with them"
            ));
        }
        if self.interrupted.load(Ordering::SeqCst) {
            return Ok(exit::SIGINT);
        }
        if failed > 0 {
            return Err(failure(
                exit::ERROR,
                format!("{failed} groups were not reduced; see report.json"),
            ));
        }
        Ok(exit::OK)
    }
}

/// The next group of the queue.
fn next(queue: &Mutex<std::vec::IntoIter<Group>>) -> Option<Group> {
    queue.lock().unwrap_or_else(|e| e.into_inner()).next()
}

/// Adds the crashes `seen` to `found`, keeping each one's smallest candidate.
fn merge_found(found: &Mutex<BTreeMap<String, Found>>, seen: Vec<Found>) {
    let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
    for f in seen {
        let key = f.signature.to_string();
        if found
            .get(&key)
            .is_none_or(|g| f.bytes.len() < g.bytes.len())
        {
            found.insert(key, f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_output_directory_is_the_directorys_name_with_reduced() {
        let root = Path::new("fuzz/crashes");
        assert_eq!(
            output_dir(None, root),
            PathBuf::from("fuzz/crashes.reduced")
        );
        assert_eq!(output_dir(None, Path::new("")), PathBuf::from("reduced"));
        let given = Path::new("out");
        assert_eq!(output_dir(Some(given), root), given);
    }
}
