//! Reducing a set of files (a directory, or several files) as one test
//! case, with the loop, the policies and the output of a single file.
//!
//! The set travels as one archive (`crate::fileset`). The default pipeline
//! first runs a pool stage over the whole archive: Dr. DD over units that
//! are each file's markers and content (so whole files are deleted or
//! emptied first), then over the markers and every file's top-level items
//! as one pool (so an item of one file goes with the item of another that
//! needs it, not file after file). Then each file left is reduced with the
//! pipeline (or the `--algo`) of its own language, as a single file would
//! be, through [`InMember`]: an oracle and an output that put the file's
//! candidate back into the archive. The policies never learn that there
//! are files; the loop does no file I/O. Rounds repeat while the pool
//! stage still finds something after the files' reductions. Between the
//! pool stages and the files', a file that one other file includes is
//! inlined into it where the oracle allows (`includes.rs`), as C-Reduce
//! does, so that the file stages work on the merged text.

mod includes;
mod journaled;

use anyhow::Result;

use crate::engine::cache::VerdictCache;
use crate::engine::{Carried, StopReason};
use crate::fileset::{ArchiveCheck, FileSet, Grain, content_range, decode, pool_units};
use crate::interfaces::{Candidate, Fault, Oracle, TestOutcome, Watch};
use crate::journal::Resumed;
use crate::output::Save;
use crate::pipeline::{Plan, Strategy};
use crate::policy::registry::Role;
use crate::progress::Progress;
use crate::stages::{Reduced, Stages};
use crate::units::UnitKind;
use journaled::Journaled;

/// The pool stage's plan over `archive` at `grain`.
pub(crate) fn pool_plan(
    strategy: &Strategy,
    set: &FileSet,
    archive: &[u8],
    grain: Grain,
) -> Result<Plan> {
    let units = pool_units(archive.to_vec(), set, grain)?;
    let unit = match grain {
        Grain::Files => UnitKind::File,
        Grain::Items => UnitKind::Item,
    };
    Ok(Plan::over_units(
        strategy,
        units,
        unit,
        Box::new(ArchiveCheck),
    ))
}

/// Reduces the set whose archive is `source`; the result is an archive.
/// `resumed` is what the journal kept of an earlier run of the same
/// command: its verdicts answer the tests of the archives it knows
/// (`journaled.rs`).
pub(crate) fn run_set(
    stages: &Stages<'_>,
    set: &FileSet,
    source: &[u8],
    progress: &mut Progress,
    resumed: Option<Resumed>,
) -> Result<Reduced> {
    let journaled = Journaled::new(stages.oracle, stages.destination, stages.journal, resumed);
    // The journal is kept by whole archive, around the stages, not by
    // the loop (whose keys are one stage's texts).
    let stages = &Stages {
        settings: stages.settings,
        lang: stages.lang,
        oracle: &journaled,
        destination: &journaled,
        limits: stages.limits.clone(),
        journal: None,
        messages: stages.messages,
        steps: stages.steps,
        passes: stages.passes,
        formatter: stages.formatter,
    };
    let mut reduced = reduce_set(stages, set, source, progress)?;
    reduced.output_ahead = journaled.replaying();
    Ok(reduced)
}

/// The rounds of a set's stages over `source`, as [`run_set`] describes.
fn reduce_set(
    stages: &Stages<'_>,
    set: &FileSet,
    source: &[u8],
    progress: &mut Progress,
) -> Result<Reduced> {
    let auto = stages.settings.strategy.algo.role == Role::Pipeline;
    let mut run = SetRun {
        archive: source.to_vec(),
        carried: None,
        pool_cache: VerdictCache::default(),
        reason: StopReason::Finished,
    };
    let mut first_round = true;
    loop {
        let round_start = run.archive.clone();
        if auto {
            for grain in [Grain::Files, Grain::Items] {
                if !run.pool(stages, set, grain, progress)? {
                    return Ok(run.reduced(set));
                }
            }
            if !run.inline(stages, set, progress)? {
                return Ok(run.reduced(set));
            }
            if !first_round && run.archive == round_start {
                return Ok(run.reduced(set));
            }
        }
        let paths: Vec<String> = decode(&run.archive)
            .unwrap_or_default()
            .into_iter()
            .map(|(p, _)| p.to_string())
            .collect();
        for path in paths {
            if !run.member(stages, set, &path, progress)? {
                return Ok(run.reduced(set));
            }
        }
        if !auto || run.archive == round_start {
            return Ok(run.reduced(set));
        }
        first_round = false;
    }
}

/// A set's reduction so far.
struct SetRun {
    archive: Vec<u8>,
    /// The counters and stats of the stages so far (never a file stage's
    /// cache: its candidates are one file's bytes, which mean something
    /// else in another file's stage).
    carried: Option<Carried>,
    /// The pool stages' verdicts, kept from one to the next: their
    /// candidates are whole archives, whose bytes mean one thing.
    pool_cache: VerdictCache,
    reason: StopReason,
}

impl SetRun {
    /// Runs the pool stage at `grain`; false when the run must stop.
    fn pool(
        &mut self,
        stages: &Stages<'_>,
        set: &FileSet,
        grain: Grain,
        progress: &mut Progress,
    ) -> Result<bool> {
        let plan = pool_plan(&stages.settings.strategy, set, &self.archive, grain)?;
        let label = match grain {
            Grain::Files => "files",
            Grain::Items => "items of all files",
        };
        self.stage(stages, &plan, None, label, progress)
    }

    /// Reduces the file `path` in its own language; false when the run must stop.
    fn member(
        &mut self,
        stages: &Stages<'_>,
        set: &FileSet,
        path: &str,
        progress: &mut Progress,
    ) -> Result<bool> {
        let Some(range) = content_range(&self.archive, path) else {
            return Ok(true);
        };
        if range.is_empty() {
            return Ok(true);
        }
        let lang = set.lang_of(path);
        let content = self.archive[range.clone()].to_vec();
        let member = InMember {
            prefix: self.archive[..range.start].to_vec(),
            suffix: self.archive[range.end..].to_vec(),
            oracle: stages.oracle,
            destination: stages.destination,
        };
        let plan = Plan::new(&stages.settings.strategy, lang, content)?;
        let sub = Stages {
            settings: stages.settings,
            lang,
            oracle: &member,
            destination: &member,
            limits: stages.limits.clone(),
            journal: None,
            messages: stages.messages,
            // The run-level flags that work on one file's text are
            // refused for sets (`app::refuse_single_file_flags`).
            steps: None,
            passes: stages.passes,
            formatter: stages.formatter,
        };
        self.stage(&sub, &plan, Some(&member), path, progress)
    }

    /// Runs one stage on the archive (or, through `member`, on one file of
    /// it), its phases named after `label`; false when the run must stop.
    fn stage(
        &mut self,
        stages: &Stages<'_>,
        plan: &Plan,
        member: Option<&InMember<'_>>,
        label: &str,
        progress: &mut Progress,
    ) -> Result<bool> {
        let carried = self.take_carried(member.is_none());
        let phases_before = carried.as_ref().map_or(0, |c| c.phases.len());
        let text = match member {
            Some(m) => &self.archive[m.prefix.len()..self.archive.len() - m.suffix.len()],
            None => &self.archive[..],
        };
        let mut reduced = stages.run_stages(plan, text, progress, None, carried)?;
        for phase in &mut reduced.carried.phases[phases_before..] {
            phase.name = format!("{} [{label}]", phase.name);
        }
        self.archive = match member {
            Some(m) => m.embed(&reduced.bytes),
            None => reduced.bytes,
        };
        self.reason = reduced.reason;
        self.put_carried(reduced.carried, member.is_none());
        Ok(self.reason == StopReason::Finished)
    }

    /// Inlines the set's included files into their includers
    /// (`includes.rs`), one file at a time while one passes; false when
    /// the run must stop.
    fn inline(
        &mut self,
        stages: &Stages<'_>,
        set: &FileSet,
        progress: &mut Progress,
    ) -> Result<bool> {
        loop {
            let candidates = includes::candidates(&self.archive, set)?;
            if candidates.is_empty() {
                return Ok(true);
            }
            let plan = pool_plan(&stages.settings.strategy, set, &self.archive, Grain::Files)?;
            let carried = self.take_carried(true);
            let judged = stages.first_interesting(
                &plan,
                "inline [includes]",
                candidates,
                progress,
                carried,
            )?;
            self.put_carried(judged.carried, true);
            self.reason = judged.reason;
            if self.reason != StopReason::Finished {
                return Ok(false);
            }
            match judged.found {
                Some(archive) => self.archive = archive,
                None => return Ok(true),
            }
        }
    }

    /// The state of the stages so far, for the next: with the pool
    /// stages' cache for a `pool` stage, else an empty one.
    fn take_carried(&mut self, pool: bool) -> Option<Carried> {
        let mut carried = self.carried.take().map(Carried::with_fresh_cache);
        if pool && let Some(c) = &mut carried {
            c.swap_cache(std::mem::take(&mut self.pool_cache));
        }
        carried
    }

    /// Keeps a stage's state, and a `pool` stage's cache for the next.
    fn put_carried(&mut self, mut carried: Carried, pool: bool) {
        if pool && let Some(cache) = carried.swap_cache(VerdictCache::default()) {
            self.pool_cache = cache;
        }
        self.carried = Some(carried);
    }

    /// The result, its units counted as the first stage's were (the
    /// markers and top-level items of the files left).
    fn reduced(self, set: &FileSet) -> Reduced {
        let units = pool_units(self.archive.clone(), set, Grain::Items).map_or(0, |u| u.len());
        Reduced {
            units,
            bytes: self.archive,
            reason: self.reason,
            carried: self.carried.expect("a set's run has at least one stage"),
            // The stages' re-tests confirm one file's text at a time; the
            // set as a whole passed twice only as the original.
            confirmed: None,
            retests: 0,
            restart: None,
            output_ahead: false,
        }
    }
}

/// One file of the archive, the rest fixed: the oracle and the output of
/// its stage see the whole archive with the file's candidate in place.
struct InMember<'a> {
    /// The archive up to the file's content, and from its end.
    prefix: Vec<u8>,
    suffix: Vec<u8>,
    oracle: &'a dyn Oracle,
    destination: &'a dyn Save,
}

impl InMember<'_> {
    fn embed(&self, content: &[u8]) -> Vec<u8> {
        [&self.prefix[..], content, &self.suffix[..]].concat()
    }
}

impl Oracle for InMember<'_> {
    fn test(&self, candidate: &Candidate<'_>, cancel: Watch<'_>) -> Result<TestOutcome, Fault> {
        let bytes = self.embed(candidate.bytes);
        let whole = Candidate {
            config: candidate.config,
            bytes: &bytes,
        };
        self.oracle.test(&whole, cancel)
    }
}

impl Save for InMember<'_> {
    fn save(&self, bytes: &[u8]) -> Result<()> {
        self.destination.save(&self.embed(bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configuration::Configuration;
    use crate::fileset::encode;

    #[test]
    fn a_member_candidate_is_put_back_between_the_other_files() {
        let archive = encode([("a.c", &b"int a;"[..]), ("b.c", b"int b;")]);
        let range = content_range(&archive, "a.c").unwrap();
        let oracle = |c: &Candidate<'_>| {
            if decode(c.bytes) == Some(vec![("a.c", &b"a"[..]), ("b.c", &b"int b;"[..])]) {
                crate::interfaces::Verdict::Interesting
            } else {
                crate::interfaces::Verdict::NotInteresting
            }
        };
        let member = InMember {
            prefix: archive[..range.start].to_vec(),
            suffix: archive[range.end..].to_vec(),
            oracle: &oracle,
            destination: &crate::output::Destination::Stdout,
        };
        let config = Configuration::full(0);
        let never = std::sync::atomic::AtomicBool::new(false);
        let outcome = member
            .test(
                &Candidate {
                    config: &config,
                    bytes: b"a",
                },
                Watch::Flag(&never),
            )
            .unwrap();
        assert!(outcome.verdict == crate::interfaces::Verdict::Interesting);
    }
}
