//! What `--each` tells when a group is done and at the end: the groups of
//! the corpus (`report.json`: for each its signature, reproducer, member
//! files, sizes and executions) and the same as SARIF 2.1 results for
//! code-scanning tools (`report.sarif`); the reproducers' names (a short,
//! stable slug of the signature); and the report of an earlier run of the
//! same command, whose finished groups are not reduced again.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::languages::Lang;
use crate::oracle::Signature;
use crate::output::write_atomically;

/// A crash met while reducing that no group had, with the smallest
/// candidate that showed it and the extension of the case it came from.
pub(crate) struct Found {
    pub(crate) signature: Signature,
    pub(crate) bytes: Vec<u8>,
    pub(crate) extension: Option<OsString>,
    /// How that case was read (its language, text or bytes).
    pub(crate) lang: Option<Lang>,
}

/// One group of the corpus: the files that show one crash (or, without
/// `--same-crash`, one file), and what its reduction gave.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Group {
    /// The crash signature as shown, from a symbolized run (`None`
    /// without `--same-crash`).
    pub(crate) signature: Option<String>,
    /// The signature as the tests compare it: read from runs that do not
    /// symbolize, so frames may be modules and offsets.
    pub(crate) key: Option<String>,
    /// The reduced file, relative to the output directory.
    pub(crate) reproducer: String,
    /// The corpus's files in the group, relative to its directory
    /// (none for a crash found while reducing).
    pub(crate) inputs: Vec<String>,
    pub(crate) bytes_before: u64,
    /// `None` when the reduction wrote no result.
    pub(crate) bytes_after: Option<u64>,
    /// Runs of the test command for this group (its checks included).
    pub(crate) executions: u64,
    /// Not a file's crash: a candidate of another group showed it.
    pub(crate) found_while_reducing: bool,
    /// [`REDUCED`], or why not ([`OUT_OF_TIME`], [`NOT_STARTED`], a
    /// failure).
    pub(crate) outcome: String,
    /// The file reduced: the group's smallest.
    #[serde(skip)]
    pub(crate) source: PathBuf,
    /// How to read it (`None`: as any input is read).
    #[serde(skip)]
    pub(crate) lang: Option<Lang>,
    /// The compared signature itself (none for a group read back).
    #[serde(skip)]
    pub(crate) compared: Option<Signature>,
}

impl Group {
    /// The group of the files `members` that show `signature`, reduced
    /// from the smallest.
    pub(crate) fn of_crash(signature: &Signature, mut members: Vec<PathBuf>, root: &Path) -> Self {
        members.sort_by_key(|m| {
            (
                std::fs::metadata(m).map_or(u64::MAX, |m| m.len()),
                m.clone(),
            )
        });
        let source = members[0].clone();
        let mut group = Group {
            inputs: members.iter().map(|m| relative(m, root)).collect(),
            key: Some(signature.to_string()),
            compared: Some(signature.clone()),
            ..Group::from_source(source)
        };
        group.show(signature);
        group
    }

    /// Shows the group's crash as `shown` (its signature from a
    /// symbolized run), which names its reproducer.
    pub(crate) fn show(&mut self, shown: &Signature) {
        let shown = shown.to_string();
        self.reproducer = with_extension(slug(&shown), &self.source);
        self.signature = Some(shown);
    }

    /// The group of one file, without `--same-crash`: its result goes
    /// where the file is in the corpus.
    pub(crate) fn of_file(file: &Path, root: &Path) -> Self {
        let name = relative(file, root);
        Group {
            reproducer: name.clone(),
            inputs: vec![name],
            ..Group::from_source(file.to_path_buf())
        }
    }

    /// The group of a crash found while reducing, its candidate written
    /// into `dir` to be reduced from.
    pub(crate) fn found(found: &Found, dir: &Path) -> Result<Self> {
        let key = found.signature.to_string();
        let mut name = PathBuf::from(slug(&key));
        if let Some(extension) = &found.extension {
            name.set_extension(extension);
        }
        let source = dir.join(&name);
        std::fs::write(&source, &found.bytes)
            .with_context(|| format!("cannot write {}", source.display()))?;
        let mut group = Group {
            key: Some(key),
            compared: Some(found.signature.clone()),
            found_while_reducing: true,
            lang: found.lang,
            ..Group::from_source(source)
        };
        group.show(&found.signature);
        Ok(group)
    }

    fn from_source(source: PathBuf) -> Self {
        Group {
            signature: None,
            key: None,
            compared: None,
            reproducer: String::new(),
            inputs: Vec::new(),
            bytes_before: std::fs::metadata(&source).map_or(0, |m| m.len()),
            bytes_after: None,
            executions: 0,
            found_while_reducing: false,
            outcome: String::new(),
            source,
            lang: None,
        }
    }

    /// Whether the group ended with neither a result nor `--max-time`.
    pub(crate) fn failed(&self) -> bool {
        ![REDUCED, OUT_OF_TIME, NOT_STARTED].contains(&self.outcome.as_str())
    }

    /// The line said when the group is done.
    pub(crate) fn summary(&self) -> String {
        let what = self.signature.as_deref().unwrap_or(&self.reproducer);
        let after = self
            .bytes_after
            .map_or("no result".to_string(), |b| format!("{b} bytes"));
        let found = if self.found_while_reducing {
            " (found while reducing)"
        } else {
            ""
        };
        format!(
            "{what}{found}: {} → {after}, {} executions, {}: {}",
            self.bytes_before, self.executions, self.outcome, self.reproducer
        )
    }

    /// Whether `earlier` is this group, finished by an earlier run.
    fn same_as(&self, earlier: &Group) -> bool {
        earlier.key == self.key
            && earlier.inputs == self.inputs
            && earlier.reproducer == self.reproducer
            && earlier.outcome == REDUCED
    }
}

/// The outcome of a group reduced to its end.
pub(crate) const REDUCED: &str = "reduced";
/// A group `--max-time` stopped: its reproducer is the best so far, and
/// the same command goes on from its journal.
pub(crate) const OUT_OF_TIME: &str = "stopped at --max-time";
/// A group `--max-time` left no time for: its reproducer is its smallest
/// file as it is.
pub(crate) const NOT_STARTED: &str = "not started (--max-time)";

/// The corpus's report.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct Report {
    /// Runs of the test command while grouping the files.
    pub(crate) triage_executions: u64,
    pub(crate) groups: Vec<Group>,
    /// The files that showed no crash: not reproducible, not reduced.
    #[serde(default)]
    pub(crate) not_reproducible: Vec<String>,
    /// The groups an earlier run finished (not written).
    #[serde(skip)]
    earlier: Vec<Group>,
}

/// The report as written: its total first.
#[derive(Serialize)]
struct Written<'a> {
    executions: u64,
    #[serde(flatten)]
    report: &'a Report,
}

impl Report {
    /// A new report, remembering the groups an earlier run's report in
    /// `dir` lists unless `fresh`.
    pub(crate) fn load(dir: &Path, fresh: bool) -> Self {
        let earlier = match fresh {
            true => None,
            false => std::fs::read(dir.join("report.json")).ok(),
        };
        let earlier = earlier
            .and_then(|bytes| serde_json::from_slice::<Report>(&bytes).ok())
            .map_or_else(Vec::new, |r| r.groups);
        Report {
            earlier,
            ..Report::default()
        }
    }

    /// Starts the report with the triage's executions and files.
    pub(crate) fn start(&mut self, triage_executions: u64, not_reproducible: Vec<String>) {
        self.triage_executions = triage_executions;
        self.not_reproducible = not_reproducible;
    }

    /// Whether an earlier run finished `group` (its reproducer is still
    /// in `dir`); if so, its entry is this report's.
    pub(crate) fn done(&mut self, group: &Group, dir: &Path) -> bool {
        let Some(at) = self.earlier.iter().position(|e| group.same_as(e)) else {
            return false;
        };
        if !dir.join(&group.reproducer).is_file() {
            return false;
        }
        let earlier = self.earlier.remove(at);
        self.add(Group {
            source: group.source.clone(),
            ..earlier
        });
        true
    }

    /// Takes the groups found while reducing that an earlier run
    /// finished (their reproducers still in `dir`): no group's reduction
    /// meets them again when the earlier run finished its group.
    pub(crate) fn keep_earlier_found(&mut self, dir: &Path) {
        let (found, rest): (Vec<Group>, Vec<Group>) = std::mem::take(&mut self.earlier)
            .into_iter()
            .partition(|g| {
                g.found_while_reducing && g.outcome == REDUCED && dir.join(&g.reproducer).is_file()
            });
        self.earlier = rest;
        for group in found {
            self.add(group);
        }
    }

    /// Adds a group, the groups kept in a stable order: the files'
    /// crashes by signature (or the files by name), then those found
    /// while reducing.
    pub(crate) fn add(&mut self, group: Group) {
        self.groups.push(group);
        self.groups.sort_by(|a, b| {
            let key = |g: &Group| {
                (
                    g.found_while_reducing,
                    g.signature.clone(),
                    g.reproducer.clone(),
                )
            };
            key(a).cmp(&key(b))
        });
    }

    /// Every run of the test command: the triage's and every group's.
    pub(crate) fn total_executions(&self) -> u64 {
        self.triage_executions + self.groups.iter().map(|g| g.executions).sum::<u64>()
    }

    /// Writes `report.json` and `report.sarif` into `dir`.
    pub(crate) fn write(&self, dir: &Path) -> Result<()> {
        let written = Written {
            executions: self.total_executions(),
            report: self,
        };
        let json = serde_json::to_vec_pretty(&written).context("cannot encode the report")?;
        write_atomically(&dir.join("report.json"), &json)?;
        let sarif = serde_json::to_vec_pretty(&self.sarif()).context("cannot encode SARIF")?;
        write_atomically(&dir.join("report.sarif"), &sarif)
    }

    /// The groups as SARIF 2.1 results, one rule per signature.
    fn sarif(&self) -> serde_json::Value {
        let crashes = self.groups.iter().filter(|g| g.signature.is_some());
        let rules: Vec<_> = crashes
            .clone()
            .map(|g| {
                serde_json::json!({
                    "id": slug(g.signature.as_deref().unwrap_or_default()),
                    "shortDescription": { "text": g.signature },
                })
            })
            .collect();
        let results: Vec<_> = crashes
            .map(|g| {
                let text = format!(
                    "{} ({} files; reduced from {} to {} bytes)",
                    g.signature.as_deref().unwrap_or_default(),
                    g.inputs.len().max(1),
                    g.bytes_before,
                    g.bytes_after.unwrap_or(g.bytes_before)
                );
                serde_json::json!({
                    "ruleId": slug(g.signature.as_deref().unwrap_or_default()),
                    "level": "error",
                    "message": { "text": text },
                    "locations": [{
                        "physicalLocation": { "artifactLocation": { "uri": g.reproducer } }
                    }],
                })
            })
            .collect();
        serde_json::json!({
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [{
                "tool": { "driver": {
                    "name": "reduce",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": rules,
                }},
                "results": results,
            }],
        })
    }
}

/// A short, stable file name for `signature`: its first words, lower
/// case, joined by `-`, and 8 hex digits of its hash.
pub(crate) fn slug(signature: &str) -> String {
    let lower: String = signature
        .chars()
        .map(|c| match c.is_ascii_alphanumeric() {
            true => c.to_ascii_lowercase(),
            false => ' ',
        })
        .collect();
    let mut words = String::new();
    for word in lower.split_whitespace().filter(|w| *w != "in") {
        if words.len() + word.len() > 48 {
            break;
        }
        words.push_str(word);
        words.push('-');
    }
    let hash = xxhash_rust::xxh3::xxh3_64(signature.as_bytes());
    format!("{words}{:08x}", hash as u32)
}

/// `name` with the extension of `source`, if it has one.
fn with_extension(name: String, source: &Path) -> String {
    match source.extension() {
        Some(extension) => format!("{name}.{}", extension.to_string_lossy()),
        None => name,
    }
}

/// `file`'s path relative to `root` (as given when `root` is empty).
pub(crate) fn relative(file: &Path, root: &Path) -> String {
    file.strip_prefix(root)
        .unwrap_or(file)
        .to_string_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slug_is_the_signatures_first_words_and_a_stable_hash() {
        let sig = "AddressSanitizer: heap-buffer-overflow in copy_name < parse < main";
        let s = slug(sig);
        assert!(
            s.starts_with("addresssanitizer-heap-buffer-overflow-copy-name-"),
            "{s}"
        );
        assert_eq!(s, slug(sig), "stable");
        assert_ne!(s, slug("AddressSanitizer: SEGV in lookup < parse < main"));
        assert!(slug(&"x".repeat(500)).len() < 60);
    }

    #[test]
    fn a_group_finished_by_an_earlier_run_is_taken_from_its_report() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("a.bin");
        std::fs::write(&source, b"abc").unwrap();
        let mut group = Group::of_file(&source, dir.path());
        group.reproducer = "out.bin".to_string();
        group.outcome = "reduced".to_string();
        group.executions = 7;
        let mut report = Report::default();
        report.groups.push(group.clone());
        report.write(dir.path()).unwrap();
        let mut again = Report::load(dir.path(), false);
        assert!(!again.done(&group, dir.path()), "no reproducer yet");
        std::fs::write(dir.path().join("out.bin"), b"a").unwrap();
        assert!(again.done(&group, dir.path()));
        assert_eq!(again.groups[0].executions, 7);
        assert!(!Report::load(dir.path(), true).done(&group, dir.path()));
    }
}
