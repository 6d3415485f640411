//! The input, read and sized up before any test: its bytes, its language,
//! where the result goes, and whether the run fits in memory.
//!
//! Everything here can refuse a run without starting a process, so it runs
//! first (`crate::app`); the limits keep a run from being killed for memory
//! half-way (docs/reliability.md).

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::exit::{self, failure};
use crate::fileset::FileSet;
use crate::fileset::output::TreeOutput;
use crate::languages::Lang;
use crate::languages::Language;
use crate::output::{Destination, default_output};
use crate::pipeline::{self, Strategy};
use crate::settings::Settings;
use crate::units::UnitKind;

/// The largest input accepted by default (`REDUCE_MAX_INPUT` changes it).
pub const DEFAULT_MAX_INPUT: u64 = 256 << 20;
/// The environment variable that sets the largest input, in bytes.
pub const MAX_INPUT_VAR: &str = "REDUCE_MAX_INPUT";

/// The input as the run sees it.
pub(crate) struct Input {
    pub(crate) source: Vec<u8>,
    /// The name candidates get in the oracle's directory.
    pub(crate) file_name: OsString,
    pub(crate) lang: Lang,
    pub(crate) destination: Destination,
    /// Several files reduced together: `source` is their archive.
    pub(crate) files: Option<FileSet>,
}

impl Input {
    /// Reads the input and checks what can be checked before a test: its
    /// size, the output, the files `--copy` and `--work-dir` name, the
    /// language and the memory the run will need.
    pub(crate) fn read(settings: &Settings) -> Result<Input> {
        if settings.reads_files() {
            return Input::read_files(settings);
        }
        let path = &settings.input;
        let from_stdin = settings.reads_stdin();
        let source = read_input(path, from_stdin, max_input_bytes()?)?;
        let destination = destination(settings)?;
        destination.check_writable()?;
        if source.is_empty() {
            bail!(
                "the input {} is empty: there is nothing to reduce",
                path.display()
            );
        }
        for f in &settings.copy {
            if !f.is_file() {
                bail!("--copy {}: no such file", f.display());
            }
        }
        if let Some(w) = &settings.work_dir
            && !w.is_dir()
        {
            bail!("--work-dir {}: no such directory", w.display());
        }
        let file_name = if from_stdin {
            OsString::from("input")
        } else {
            path.file_name()
                .context("the input path has no file name")?
                .to_os_string()
        };
        let lang = choose_language(settings, &source)?;
        check_memory(
            source.len() as u64,
            estimate_memory(&settings.strategy, lang, source.len() as u64),
            available_memory(),
        )?;
        Ok(Input {
            source,
            file_name,
            lang,
            destination,
            files: None,
        })
    }

    /// Reads several files or a directory as one archive (`crate::fileset`);
    /// what cannot be a set (a symlink, a special file, no file at all)
    /// is refused as bad usage.
    fn read_files(settings: &Settings) -> Result<Input> {
        let set = FileSet::read(&settings.inputs, &settings.exclude, settings.lang)
            .map_err(|e| failure(exit::USAGE, format!("{e:#}")))?;
        for member in &set.members {
            settings.check_for(member.lang)?;
        }
        let source = set.archive();
        let limit = max_input_bytes()?;
        if source.len() as u64 > limit {
            return Err(too_large("the files", Some(source.len() as u64), limit));
        }
        let destination = Destination::Tree(TreeOutput::new(
            &set,
            settings.output.as_deref(),
            settings.in_place,
        ));
        destination.check_writable()?;
        if let Some(w) = &settings.work_dir
            && !w.is_dir()
        {
            bail!("--work-dir {}: no such directory", w.display());
        }
        let file_name = set
            .members
            .first()
            .map(|m| m.path.clone())
            .unwrap_or_default()
            .into();
        Ok(Input {
            source,
            file_name,
            lang: Lang::Bytes,
            destination,
            files: Some(set),
        })
    }
}

/// The largest input accepted: [`MAX_INPUT_VAR`] if set, else [`DEFAULT_MAX_INPUT`];
/// never more than unit offsets (`u32`) can address.
fn max_input_bytes() -> Result<u64> {
    let limit = match std::env::var(MAX_INPUT_VAR) {
        Ok(v) => v.trim().parse::<u64>().map_err(|_| {
            failure(
                exit::USAGE,
                format!("{MAX_INPUT_VAR}={v}: not a number of bytes"),
            )
        })?,
        Err(_) => DEFAULT_MAX_INPUT,
    };
    Ok(limit.min(u64::from(u32::MAX) - 1))
}

/// The error for an input over the size limit (`len`: its size, if known).
fn too_large(what: &str, len: Option<u64>, limit: u64) -> anyhow::Error {
    let size = len.map_or(String::new(), |l| format!(" is {},", human_size(l)));
    anyhow::anyhow!(
        "{what}{size} more than the {} reduce accepts: cut it down first (e.g. keep \
         the part that matters), or raise the limit with {MAX_INPUT_VAR}=<bytes> if there is \
         memory for it (see docs/reliability.md)",
        human_size(limit)
    )
}

/// A size for messages: `950 bytes`, `12.5 MB`.
fn human_size(bytes: u64) -> String {
    if bytes < 1 << 20 {
        format!("{bytes} bytes")
    } else {
        format!("{:.1} MB", bytes as f64 / (1 << 20) as f64)
    }
}

fn read_input(path: &Path, from_stdin: bool, limit: u64) -> Result<Vec<u8>> {
    if from_stdin {
        let mut buf = Vec::new();
        std::io::stdin()
            .take(limit + 1)
            .read_to_end(&mut buf)
            .context("cannot read the input from standard input")?;
        if buf.len() as u64 > limit {
            // Only `limit + 1` bytes were read: the real size is unknown.
            return Err(too_large("the input from standard input is", None, limit));
        }
        return Ok(buf);
    }
    let meta = std::fs::metadata(path)
        .with_context(|| format!("cannot read the input {}", path.display()))?;
    if meta.is_dir() {
        bail!("the input {} is a directory; give a file", path.display());
    }
    if meta.len() > limit {
        return Err(too_large(
            &format!("the input {}", path.display()),
            Some(meta.len()),
            limit,
        ));
    }
    std::fs::read(path).with_context(|| format!("cannot read the input {}", path.display()))
}

/// A generous estimate of a run's peak memory, in bytes, from per-input-byte
/// costs measured on 50 MB inputs (docs/reliability.md): about 85 for a
/// parse tree, 62 for byte units, 13 for text tokens and 4 for lines.
fn estimate_memory(strategy: &Strategy, lang: Lang, len: u64) -> u64 {
    let per_byte = if pipeline::builds_tree(strategy, lang) {
        100
    } else {
        match (strategy.unit, lang) {
            (Some(UnitKind::Byte), _) | (None, Lang::Bytes) => 70,
            (Some(UnitKind::Line), _) => 8,
            _ => 20,
        }
    };
    len * per_byte
}

/// Available memory in bytes (`MemAvailable` in /proc/meminfo), if known.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Refuses a run that would need more memory than is available, rather than
/// let it be killed for running out.
fn check_memory(len: u64, needed: u64, available: Option<u64>) -> Result<()> {
    let Some(available) = available else {
        return Ok(());
    };
    if needed > available {
        bail!(
            "the input ({}) would need about {:.1} GB of memory, but {:.1} GB is available: \
             reduce it by lines first (--lang text --unit line needs about {:.1} GB), \
             or cut it down",
            human_size(len),
            needed as f64 / 1e9,
            available as f64 / 1e9,
            (len * 8) as f64 / 1e9,
        );
    }
    Ok(())
}

/// Where the result goes: `-o`, `--in-place`, or beside the input.
fn destination(settings: &Settings) -> Result<Destination> {
    let (input, from_stdin) = (&settings.input, settings.reads_stdin());
    Ok(match (&settings.output, settings.in_place) {
        (_, true) if from_stdin => bail!("--in-place needs an input file, not standard input"),
        (_, true) => Destination::InPlace(input.to_path_buf()),
        (Some(o), _) if o.as_os_str() == "-" => Destination::Stdout,
        (Some(o), _) => {
            if !from_stdin && same_file(o, input) {
                bail!(
                    "-o {} is the input itself; use --in-place to overwrite the input",
                    o.display()
                );
            }
            Destination::File(o.clone())
        }
        (None, _) if from_stdin => Destination::Stdout,
        (None, _) => Destination::File(default_output(input)),
    })
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// `p` made absolute, for messages and for the oracle's directory.
pub(crate) fn absolute(p: &Path) -> Result<PathBuf> {
    std::path::absolute(p).with_context(|| format!("cannot resolve {}", p.display()))
}

/// The input's language: `--lang`, else the extension or the `#!` line,
/// else text or bytes by content.
fn choose_language(settings: &Settings, source: &[u8]) -> Result<Lang> {
    let input = &settings.input;
    let lang = match settings.lang {
        Some(lang) => lang,
        None => match Language::detect(input, source) {
            Some(l) => Lang::Tree(l),
            None if crate::languages::looks_binary(source) => Lang::Bytes,
            None => Lang::Text,
        },
    };
    // Binary data (a NUL byte in the first 8 KB) is no grammar's; invalid
    // UTF-8 alone is allowed (Latin-1 comments, fuzzed JSON strings).
    let head = &source[..source.len().min(8192)];
    if let Lang::Tree(_) = lang
        && let Some(at) = head.iter().position(|&b| b == 0)
    {
        bail!(
            "the input {} looks binary (a NUL byte at offset {at}), not {}{}: use --lang bytes",
            input.display(),
            lang.name(),
            if settings.lang.is_some() {
                " as --lang says"
            } else {
                " as its extension says"
            },
        );
    }
    settings.check_for(lang)?;
    Ok(lang)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::registry;

    #[test]
    fn a_run_that_would_not_fit_in_memory_is_refused_with_a_way_out() {
        let err = check_memory(50 << 20, 5_000_000_000, Some(4_000_000_000))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("50.0 MB") && err.contains("5.0 GB") && err.contains("--unit line"),
            "{err}"
        );
        assert!(check_memory(50 << 20, 5_000_000_000, Some(6_000_000_000)).is_ok());
        assert!(check_memory(50 << 20, 5_000_000_000, None).is_ok());
    }

    #[test]
    fn memory_estimates_follow_the_units_that_will_be_built() {
        let strategy = |algo: &'static registry::Entry, unit: Option<UnitKind>| Strategy {
            algo,
            unit,
            ..Strategy::default()
        };
        let auto = strategy(&registry::AUTO, None);
        let c = Lang::Tree(Language::named("c"));
        assert_eq!(estimate_memory(&auto, c, 1), 100);
        // A grammar's tokens are parsed even for a named list algorithm.
        assert_eq!(
            estimate_memory(&strategy(&registry::DDMIN, None), c, 1),
            100
        );
        let ddmin_lines = strategy(&registry::DDMIN, Some(UnitKind::Line));
        assert_eq!(estimate_memory(&ddmin_lines, c, 1), 8);
        // Text is built into a tree of blocks (`tree::blocks`).
        assert_eq!(estimate_memory(&auto, Lang::Text, 1), 100);
        let ddmin = strategy(&registry::DDMIN, None);
        assert_eq!(estimate_memory(&ddmin, Lang::Text, 1), 20);
        let auto_lines = strategy(&registry::AUTO, Some(UnitKind::Line));
        assert_eq!(estimate_memory(&auto_lines, Lang::Text, 1), 8);
        assert_eq!(estimate_memory(&auto, Lang::Bytes, 1), 70);
        let auto_bytes = strategy(&registry::AUTO, Some(UnitKind::Byte));
        assert_eq!(estimate_memory(&auto_bytes, Lang::Text, 1), 70);
    }
}
