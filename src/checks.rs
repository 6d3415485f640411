//! Whether the oracle can be trusted, asked before the first test and after
//! the last.
//!
//! Before: the original must be interesting every time it is tried (the
//! baseline runs, which also time the oracle for the default timeout), and
//! an empty file must not be (else the result would be empty). When the
//! original is not interesting, the oracle is run by hand beside the input
//! to say why, with a recipe to reproduce the check. After: the result must
//! still be interesting. A refusal exits with code 3 (4 when the oracle
//! cannot run at all); see docs/reliability.md.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::configuration::Configuration;
use crate::engine::patience::test_patiently;
use crate::exit::{self, failure};
use crate::fileset::{FileSet, encode};
use crate::input::{Input, absolute};
use crate::interfaces::{Candidate, Verdict, Watch};
use crate::languages::Lang;
use crate::oracle::{
    BuiltIn, Exit, Ran, ScriptOracle, Signature, cannot_ever_start, default_timeout,
    default_work_dir,
};
use crate::output::write_atomically;
use crate::settings::{Judge, Settings};

/// How long the baseline runs of the original may take without `--timeout`.
const BASELINE_TIMEOUT: Duration = Duration::from_secs(300);

/// The oracle to reduce with, once the original was found interesting
/// every time and the empty file not; `Ok(None)` if a signal came first.
pub(crate) fn trusted_oracle(
    settings: &Settings,
    script: &Path,
    input: &Input,
    interrupted: &AtomicBool,
) -> Result<Option<ScriptOracle>> {
    let cancel = Watch::Interrupt(interrupted);
    let probe = probe(settings, script, input)?;
    // Quiet, the signature is shown by --print-oracle only.
    let shown = !settings.quiet || settings.print_oracle;
    let Some((probe, first)) = with_crash_signature(probe, input, shown, cancel)? else {
        return Ok(None);
    };
    if settings.print_oracle {
        return Ok(Some(probe));
    }
    let probes = match settings.allow_empty {
        true => Vec::new(),
        false => empty_probes(input),
    };
    let runs_left = (settings.check_flaky as usize).saturating_sub(usize::from(first.is_some()));
    if !probes.is_empty() && settings.jobs >= runs_left + probes.len() {
        return baseline_beside_probes(settings, probe, input, first, &probes, cancel);
    }
    let Some(slowest) = baseline(settings, &probe, input, first, cancel)? else {
        return Ok(None);
    };
    let oracle = probe.with_timeout(timeout_after(settings, slowest));
    let results = run_probes(&oracle, &probes, cancel, patience(settings));
    Ok(refuses_empty(&probes, results)?.then_some(oracle))
}

/// Runs `oracle` on every one of the empty-file `probes` at once.
fn run_probes(
    oracle: &ScriptOracle,
    probes: &[(Vec<u8>, &str)],
    cancel: Watch<'_>,
    patience: Duration,
) -> Vec<Result<Ran>> {
    let inputs: Vec<&[u8]> = probes.iter().map(|(bytes, _)| &bytes[..]).collect();
    run_at_once(oracle, &inputs, cancel, patience)
}

/// The timeout of the reduction's tests: `--timeout`, else derived from
/// the slowest baseline run.
fn timeout_after(settings: &Settings, slowest: Duration) -> Duration {
    match settings.timeout {
        Some(timeout) => timeout,
        None => default_timeout(slowest, settings.launcher.is_some()),
    }
}

/// [`baseline`] with the empty-file `probes` running beside it, when there
/// are workers for both: one oracle run less before the first test (a
/// whole round trip through a cluster's scheduler with `--launcher`). A
/// probe still running once the baseline has set the timeout and that
/// long has passed is stopped and counts as a timeout, as it would have
/// after the baseline.
fn baseline_beside_probes(
    settings: &Settings,
    probe: ScriptOracle,
    input: &Input,
    first: Option<Ran>,
    probes: &[(Vec<u8>, &str)],
    cancel: Watch<'_>,
) -> Result<Option<ScriptOracle>> {
    let give_up = AtomicBool::new(false);
    let started = Instant::now();
    let (slowest, results) = std::thread::scope(|scope| {
        let probing =
            scope.spawn(|| run_probes(&probe, probes, Watch::Flag(&give_up), patience(settings)));
        let slowest = baseline(settings, &probe, input, first, cancel);
        let limit = match &slowest {
            Ok(Some(slowest)) => timeout_after(settings, *slowest),
            _ => Duration::ZERO,
        };
        while !probing.is_finished() {
            if cancel.is_cancelled() || started.elapsed() >= limit {
                give_up.store(true, Ordering::SeqCst);
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        (
            slowest,
            probing.join().expect("the probes' thread panicked"),
        )
    });
    let Some(slowest) = slowest? else {
        return Ok(None);
    };
    if cancel.is_cancelled() {
        return Ok(None);
    }
    // Stopped at the timeout, not by a signal.
    let results = results.into_iter().map(|result| {
        result.map(|ran| match ran.exit {
            Exit::Cancelled => Ran {
                exit: Exit::Timeout,
                interesting: false,
                ..ran
            },
            _ => ran,
        })
    });
    let oracle = probe.with_timeout(timeout_after(settings, slowest));
    Ok(refuses_empty(probes, results.collect())?.then_some(oracle))
}

/// With `--same-crash`, the oracle that keeps the original's crash: its
/// signature read from one run on the original (exit 3 when it shows
/// none), that run being the first of the baseline; `Ok(None)` if a signal
/// came first. The signature is read symbolized too (a run of its own)
/// only when it is `shown`.
fn with_crash_signature(
    probe: ScriptOracle,
    input: &Input,
    shown: bool,
    cancel: Watch<'_>,
) -> Result<Option<(ScriptOracle, Option<Ran>)>> {
    let Some((builtin, depth)) = probe
        .builtin()
        .and_then(|b| b.same_crash().map(|depth| (b.clone(), depth)))
    else {
        return Ok(Some((probe, None)));
    };
    let (first, signature) = probe
        .crash_signature(&input.source, depth, cancel)
        .map_err(unusable)?;
    let exit = first.exit;
    if exit == Exit::Cancelled {
        return Ok(None);
    }
    let Some(signature) = signature else {
        return Err(failure(
            exit::NOT_INTERESTING,
            format!(
                "--same-crash: the original shows no crash to keep: `{}` gave {exit} with no \
                 sanitizer report, panic, traceback, failed assertion or fatal signal; \
                 say what to keep with --expect-*",
                builtin.command()
            ),
        ));
    };
    let shown = match shown {
        true => shown_signature(&probe, &input.source, &signature, cancel)?,
        false => None,
    };
    let mut builtin = builtin.with_signature(signature);
    if let Some(shown) = shown {
        builtin = builtin.with_shown(shown);
    }
    let probe = probe.with_builtin(Some(builtin));
    Ok(Some((probe, Some(first))))
}

/// [`shown_signature`] for `--each`: `input`'s run symbolized, when
/// `signature` (read from it unsymbolized) needs it.
pub(crate) fn shown_signature_of(
    settings: &Settings,
    script: &Path,
    input: &Input,
    signature: &Signature,
    interrupted: &AtomicBool,
) -> Result<Option<Signature>> {
    let probe = probe(settings, script, input)?;
    shown_signature(
        &probe,
        &input.source,
        signature,
        Watch::Interrupt(interrupted),
    )
}

/// When `signature` holds unsymbolized frames (module and offset, as the
/// tests run), the signature of a symbolized run on `bytes`, to show; `None`
/// when it holds none, or the symbolized run shows another crash.
fn shown_signature(
    probe: &ScriptOracle,
    bytes: &[u8],
    signature: &Signature,
    cancel: Watch<'_>,
) -> Result<Option<Signature>> {
    let Some(depth) = probe.builtin().and_then(BuiltIn::same_crash) else {
        return Ok(None);
    };
    if !signature.frames.iter().any(|f| f.contains("+0x")) {
        return Ok(None);
    }
    let (_, shown) = probe
        .symbolized()
        .crash_signature(bytes, depth, cancel)
        .map_err(unusable)?;
    Ok(shown.filter(|s| s.kind == signature.kind))
}

/// With `--same-crash`, the crash signature of one run of the command on
/// `input` (`None`: it shows no crash), for `--each`'s triage; `Ok(None)`
/// too if a signal came first.
pub(crate) fn crash_signature_of(
    settings: &Settings,
    script: &Path,
    input: &Input,
    interrupted: &AtomicBool,
) -> Result<Option<Signature>> {
    let probe = probe(settings, script, input)?;
    let Some(depth) = probe.builtin().and_then(BuiltIn::same_crash) else {
        return Ok(None);
    };
    let (_, signature) = probe
        .crash_signature(&input.source, depth, Watch::Interrupt(interrupted))
        .map_err(unusable)?;
    Ok(signature)
}

/// The oracle as the baseline runs it: the user's timeout, or a generous one.
fn probe(settings: &Settings, script: &Path, input: &Input) -> Result<ScriptOracle> {
    let copies: Vec<PathBuf> = settings
        .copy
        .iter()
        .map(|p| absolute(p))
        .collect::<Result<_>>()?;
    let work_dir = match &settings.work_dir {
        Some(dir) => Some(absolute(dir)?),
        // A launcher's tests may run elsewhere: they need a shared
        // filesystem, which only the user can name.
        None if settings.launcher.is_none() => default_work_dir(),
        None => None,
    };
    let timeout = settings.timeout.unwrap_or(BASELINE_TIMEOUT);
    let builtin = match &settings.oracle {
        Judge::Script(_) => None,
        Judge::Run(spec) => {
            let cwd = std::env::current_dir().context("cannot read the current directory")?;
            let secs = settings.timeout.map(|t| t.as_secs_f64());
            Some(BuiltIn::new(spec.clone(), cwd, secs))
        }
    };
    ScriptOracle::new(script.to_path_buf(), input.file_name.clone(), timeout)
        .with_work_dir(work_dir)
        .with_extra_files(copies)
        .with_launcher(settings.launcher.clone())
        .with_verbose(settings.verbose)
        .with_memory_limit(settings.memory_limit)
        .with_tree(input.files.as_ref().map(FileSet::layout))
        .with_builtin(builtin)
        .with_forkserver(settings.forkserver)
        .with_sightings(settings.sightings.clone())
        .with_shared_dir()
}

/// How long a test that cannot start is tried again (`--fault-patience`).
fn patience(settings: &Settings) -> Duration {
    settings
        .fault_patience
        .unwrap_or(crate::engine::DEFAULT_FAULT_PATIENCE)
}

fn unusable(e: anyhow::Error) -> anyhow::Error {
    failure(exit::ORACLE_UNUSABLE, format!("{e:#}"))
}

/// Runs the oracle `--check-flaky` times on the original, up to `-j` at
/// once (at -j 2 the two default runs cost the wall time of one), `first`
/// being one of them when a run before gave it; returns the slowest
/// interesting run's time, `None` if a signal came first, and an error when
/// a verdict was not interesting.
fn baseline(
    settings: &Settings,
    probe: &ScriptOracle,
    input: &Input,
    first: Option<Ran>,
    cancel: Watch<'_>,
) -> Result<Option<Duration>> {
    let mut verdicts: Vec<Ran> = first.into_iter().collect();
    let mut slowest = first.map_or(Duration::ZERO, |r| r.took);
    let runs = settings.check_flaky as usize;
    'baseline: while verdicts.len() < runs {
        let batch = (runs - verdicts.len()).min(settings.jobs);
        let inputs = vec![&input.source[..]; batch];
        for result in run_at_once(probe, &inputs, cancel, patience(settings)) {
            let ran = result.map_err(unusable)?;
            if ran.exit == Exit::Cancelled {
                return Ok(None);
            }
            if ran.interesting {
                slowest = slowest.max(ran.took);
            }
            verdicts.push(ran);
            if ran.exit == Exit::Timeout {
                break 'baseline; // another run would only wait as long again
            }
        }
    }
    let passes = verdicts.iter().filter(|r| r.interesting).count();
    if passes > 0 && passes < verdicts.len() {
        return Err(failure(exit::NOT_INTERESTING, flaky_message(&verdicts)));
    }
    if passes == 0 {
        return not_interesting(settings, probe, input, verdicts[0].exit, cancel);
    }
    Ok(Some(slowest))
}

/// The error for an original that is not interesting (`Ok(None)` if a
/// signal came while the oracle ran by hand).
fn not_interesting(
    settings: &Settings,
    probe: &ScriptOracle,
    input: &Input,
    verdict: Exit,
    cancel: Watch<'_>,
) -> Result<Option<Duration>> {
    if let Some(builtin) = probe.builtin() {
        return Err(failure(
            exit::NOT_INTERESTING,
            format!(
                "the original input is not interesting: `{}` gave {verdict} on it, \
                 where {} was expected (--print-oracle writes the check as a script to try by hand)",
                builtin.command(),
                builtin.expected()
            ),
        ));
    }
    if input.files.is_some() {
        return Err(failure(
            exit::NOT_INTERESTING,
            format!(
                "the original files are not interesting: the oracle {} gave {verdict} on them.\n\
                 The oracle runs in a fresh temporary directory holding a copy of the files at their \
                 relative paths (its working directory), with $1 the copy of the directory \
                 (or of the first listed file); run it by hand on such a copy to see why",
                probe.script().display()
            ),
        ));
    }
    let path = &settings.input;
    let from_stdin = settings.reads_stdin();
    // Does it pass beside the input, where the user tried it?
    let by_hand = if from_stdin || verdict == Exit::Timeout {
        None
    } else {
        run_by_hand(probe, path, &input.source, cancel)?
    };
    if by_hand.as_ref().is_some_and(|b| b.exit == Exit::Cancelled) {
        return Ok(None);
    }
    let recipe = not_interesting_message(
        probe.script(),
        path,
        &input.file_name,
        verdict,
        from_stdin,
        settings.launcher.as_deref(),
    );
    Err(failure(
        exit::NOT_INTERESTING,
        explain_not_interesting(recipe, by_hand.as_ref(), path),
    ))
}

/// The near-empty texts the oracle must refuse (an oracle that accepts
/// (almost) nothing would reduce to nothing), each with how to name it;
/// the input itself left out.
fn empty_probes(input: &Input) -> Vec<(Vec<u8>, &'static str)> {
    let probes: Vec<(Vec<u8>, &str)> = match &input.files {
        // A lone newline is text's near-empty file, not binary input's.
        None if input.lang == Lang::Bytes => vec![(b"".to_vec(), "an empty file")],
        None => vec![
            (b"".to_vec(), "an empty file"),
            (b"\n".to_vec(), "a file holding only a newline"),
        ],
        // For a set: no file at all, and every file empty.
        Some(set) => vec![
            (encode([]), "no files"),
            (
                encode(set.members.iter().map(|m| (m.path.as_str(), &b""[..]))),
                "every file empty",
            ),
        ],
    };
    probes
        .into_iter()
        .filter(|(bytes, _)| *bytes != input.source)
        .collect()
}

/// Whether the oracle refused every one of `probes` (`results`: its runs
/// on them, in order, all at once: a hanging oracle costs one timeout, not
/// two); `Ok(false)` if a signal came first, an error if it accepted one.
fn refuses_empty(probes: &[(Vec<u8>, &str)], results: Vec<Result<Ran>>) -> Result<bool> {
    for ((_, what), result) in probes.iter().zip(results) {
        let ran = result.map_err(unusable)?;
        if ran.exit == Exit::Cancelled {
            return Ok(false);
        }
        if ran.interesting {
            return Err(failure(
                exit::NOT_INTERESTING,
                format!(
                    "the oracle is too permissive: it accepts {what}, so the result would be (nearly) empty. \
                     Make it check for the bug itself (e.g. grep for the error message), \
                     or pass --allow-empty if an empty result is what you want"
                ),
            ));
        }
    }
    Ok(true)
}

/// The final check: the result must still be interesting; if not, why
/// not (the run then keeps the last result that passed twice and fails,
/// see `app.rs`). A test that cannot run is tried
/// again for up to `patience`, as in the reduction; then the run stops as
/// a faulted one.
pub(crate) fn still_interesting(
    oracle: &ScriptOracle,
    bytes: &[u8],
    patience: Duration,
) -> Result<Option<&'static str>> {
    let never = AtomicBool::new(false);
    let config = Configuration::full(0);
    let candidate = Candidate {
        config: &config,
        bytes,
    };
    let outcome = test_patiently(oracle, &candidate, Watch::Flag(&never), patience, None).map_err(
        |fault| {
            failure(
                exit::FAULT,
                format!(
                    "the final check of the result could not run: {}",
                    fault.cause
                ),
            )
        },
    )?;
    Ok(match (outcome.verdict, outcome.timed_out) {
        (Verdict::Interesting, _) => None,
        (_, true) => Some("it timed out in the final check"),
        _ => Some("the oracle rejects it in the final check"),
    })
}

/// Runs `oracle` on every one of `inputs` at once, a thread each; the
/// results in the order of `inputs`. A test that could not be set up or
/// started for a cause that may pass (a test directory gone, `/dev/null`
/// missing a moment, the process table full) is tried again, as the
/// reduction does, for up to `patience`; one whose script or interpreter
/// is missing is not.
fn run_at_once(
    oracle: &ScriptOracle,
    inputs: &[&[u8]],
    cancel: Watch<'_>,
    patience: Duration,
) -> Vec<Result<Ran>> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = inputs
            .iter()
            .map(|&bytes| scope.spawn(move || run_patiently(oracle, bytes, cancel, patience)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("an oracle thread panicked"))
            .collect()
    })
}

/// One run of `oracle` on `bytes`, tried again after a growing pause
/// while it cannot start for a cause that may pass.
fn run_patiently(
    oracle: &ScriptOracle,
    bytes: &[u8],
    cancel: Watch<'_>,
    patience: Duration,
) -> Result<Ran> {
    let started = std::time::Instant::now();
    let mut pause = Duration::from_millis(100);
    loop {
        match oracle.run(bytes, cancel) {
            Err(e) if !cannot_ever_start(&e) && started.elapsed() < patience => {
                let until = std::time::Instant::now() + pause;
                while std::time::Instant::now() < until {
                    if cancel.is_cancelled() {
                        return Ok(Ran {
                            exit: Exit::Cancelled,
                            took: Duration::ZERO,
                            interesting: false,
                        });
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
                pause = (pause * 2).min(Duration::from_secs(5));
            }
            other => return other,
        }
    }
}

/// What running the oracle by hand on the input found.
struct ByHand {
    exit: Exit,
    /// The script changed the input, which was then restored.
    restored: bool,
}

/// Runs the oracle on the input itself, in its own directory, as the user
/// would by hand (`None` if it could not run). The input is restored should
/// the script change it.
fn run_by_hand(
    probe: &ScriptOracle,
    input: &Path,
    source: &[u8],
    cancel: Watch<'_>,
) -> Result<Option<ByHand>> {
    let input = absolute(input)?;
    let Some(dir) = input.parent() else {
        return Ok(None);
    };
    let Ok((exit, _)) = probe.run_by_hand(&input, dir, cancel) else {
        return Ok(None);
    };
    let restored = std::fs::read(&input).ok().as_deref() != Some(source);
    if restored {
        write_atomically(&input, source).with_context(|| {
            format!(
                "the oracle changed the input {} when run on it, and it could not be restored",
                input.display()
            )
        })?;
    }
    Ok(Some(ByHand { exit, restored }))
}

/// Why the original is not interesting: the recipe to check it by hand, or,
/// when the oracle passes beside the input, what it depends on there.
fn explain_not_interesting(recipe: String, by_hand: Option<&ByHand>, input: &Path) -> String {
    let input = absolute(input).unwrap_or_else(|_| input.to_path_buf());
    let dir = input.parent().unwrap_or(Path::new("/"));
    let mut message = match by_hand {
        Some(b) if b.exit.interesting() => format!(
            "the oracle passes on {} in {} but not in a fresh temporary directory: it probably \
             uses relative paths or files beside the input; use absolute paths in the script, \
             or --copy FILE to put the files it needs beside each candidate",
            input.display(),
            dir.display()
        ),
        _ => recipe,
    };
    if by_hand.is_some_and(|b| b.restored) {
        let sep = if message.ends_with('\n') { "" } else { " " };
        message.push_str(&format!(
            "{sep}(Run by hand on {}, the oracle changed it; its original content was restored.)",
            input.display()
        ));
    }
    message
}

fn flaky_message(verdicts: &[Ran]) -> String {
    let passes = verdicts.iter().filter(|r| r.interesting).count();
    let list: Vec<String> = verdicts.iter().map(|r| r.exit.to_string()).collect();
    format!(
        "the oracle is flaky: it passed {passes} of {} runs on the original input ({}). \
         Reducing with it would go astray; make it deterministic (fixed seeds, no timing, \
         a longer timeout inside the script), or run with --recheck and --check-flaky 1 \
         to reduce anyway",
        verdicts.len(),
        list.join(", ")
    )
}

fn not_interesting_message(
    script: &Path,
    input: &Path,
    file_name: &OsStr,
    exit: Exit,
    from_stdin: bool,
    launcher: Option<&str>,
) -> String {
    let name = file_name.to_string_lossy();
    let (launch, launcher_note) = match launcher {
        Some(l) => (
            format!("{l} "),
            format!(
                "Every test runs through the launcher `{l}`{}.\n",
                if exit == Exit::Code(127) {
                    " (exit code 127: the launcher, or a command the script runs, was not found)"
                } else {
                    ""
                }
            ),
        ),
        None => (String::new(), String::new()),
    };
    let source = if from_stdin {
        "the input from standard input".to_string()
    } else {
        input.display().to_string()
    };
    let copy_from = if from_stdin {
        "<your input>".to_string()
    } else {
        shell_quote(
            &absolute(input)
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
        )
    };
    format!(
        "the original input is not interesting: the oracle {} gave {exit} on {source}.\n\
         The oracle runs in a fresh temporary directory holding only the candidate (named {name}),\n\
         so relative paths and files beside the input are not there (use absolute paths, or --copy FILE).\n\
         {launcher_note}\
         Try the following to reproduce the check by hand:\n\n  \
         dir=$(mktemp -d) && cp {copy_from} \"$dir\"/{name_q} && cd \"$dir\" && {launch}{script_q} \"$dir\"/{name_q}; echo \"exit code: $?\"\n",
        script.display(),
        name_q = shell_quote(&name),
        script_q = shell_quote(&script.display().to_string()),
    )
}

/// `s` quoted for a POSIX shell, as the recipe prints it (unchanged when
/// it needs no quotes).
fn shell_quote(s: &str) -> String {
    shlex::try_quote(s).map_or_else(|_| s.to_string(), |q| q.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_quoting_leaves_plain_paths_alone() {
        assert_eq!(shell_quote("/tmp/a.c"), "/tmp/a.c");
        for text in ["it's here", "a \"b\" $c `d`", "tab\there"] {
            let quoted = shell_quote(text);
            assert_eq!(shlex::split(&quoted).unwrap(), [text], "{quoted}");
        }
    }
}
