//! Several files reduced as one test case: reading a directory or a list of
//! files, and the archive that carries them through the reduce loop as one
//! text.
//!
//! The loop, the cache and the policies see one byte string. For a set of
//! files it is an archive: each file is a begin marker naming its path, its
//! content, and an end marker naming the path again. A candidate whose
//! markers no longer pair up (a begin marker deleted but not its file's
//! content, or the content of one file run into another's) is refused by
//! [`ArchiveCheck`] before the oracle sees it; a file whose two markers are
//! gone is a deleted file, one whose content is gone an emptied file. Only
//! the oracle (which writes the archive out as a directory) and the output
//! (which writes the result's files) decode it.

pub mod output;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::interfaces::SyntaxFilter;
use crate::languages::{Lang, Language};
use crate::units::Units;

/// What starts a begin marker (NUL, SOH): no accepted file holds it.
const BEGIN: &[u8] = b"\0\x01reduce-file-begin ";
/// What starts an end marker (NUL, STX).
const END: &[u8] = b"\0\x02reduce-file-end ";
/// What ends both markers' path.
const CLOSE: &[u8] = b"\0\n";

/// One file of a set.
#[derive(Clone, Debug)]
pub struct Member {
    /// Its path relative to the set's base directory (`/`-separated).
    pub path: String,
    pub content: Vec<u8>,
    /// The language it is reduced in.
    pub lang: Lang,
}

/// How the oracle is handed a set: `$1` is the test directory itself
/// (directory input) or the first listed file's path in it (list input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FirstArg {
    Directory,
    File(String),
}

/// How a test directory holds a set: its files under `root` (the input
/// directory's name, or the listed files' common directory's), the files
/// `--exclude` kept copied in, and what `$1` is.
#[derive(Clone, Debug)]
pub struct TreeLayout {
    pub root: std::ffi::OsString,
    pub first_arg: FirstArg,
    pub kept: Vec<(String, PathBuf)>,
}

/// The files of a run, read and checked.
#[derive(Clone, Debug)]
pub struct FileSet {
    /// The directory the relative paths start from.
    pub base: PathBuf,
    /// The files reduced, in path order (list order for a list).
    pub members: Vec<Member>,
    /// Files `--exclude` leaves untouched: copied into every test directory.
    pub kept: Vec<(String, PathBuf)>,
    pub first_arg: FirstArg,
    /// Whether the input was a directory (else a list of files).
    pub is_directory: bool,
}

impl FileSet {
    /// Reads `inputs` (one directory, or several files): every regular
    /// file, those matching an `exclude` glob kept aside; symlinks, special
    /// files, files holding the archive's markers and empty sets refused.
    pub fn read(inputs: &[PathBuf], exclude: &[String], lang: Option<Lang>) -> Result<FileSet> {
        let is_directory = inputs.len() == 1 && inputs[0].is_dir();
        let exclude = Excludes::new(exclude)?;
        let (base, paths) = if is_directory {
            let base = inputs[0].clone();
            (base.clone(), walk(&base)?)
        } else {
            list_paths(inputs)?
        };
        let mut set = FileSet {
            base: base.clone(),
            members: Vec::new(),
            kept: Vec::new(),
            first_arg: FirstArg::Directory,
            is_directory,
        };
        for rel in paths {
            let full = base.join(&rel);
            if exclude.matches(&rel) {
                set.kept.push((rel, full));
                continue;
            }
            let content =
                std::fs::read(&full).with_context(|| format!("cannot read {}", full.display()))?;
            if find(&content, BEGIN).is_some() || find(&content, END).is_some() {
                bail!(
                    "{} holds the bytes reduce marks file boundaries with; it cannot be reduced",
                    full.display()
                );
            }
            let lang = lang.unwrap_or_else(|| language_of(&full, &content));
            set.members.push(Member {
                path: rel,
                content,
                lang,
            });
        }
        if set.members.is_empty() {
            bail!(
                "{} holds no file to reduce{}",
                inputs[0].display(),
                if set.kept.is_empty() {
                    ""
                } else {
                    " (--exclude leaves every file out)"
                }
            );
        }
        if !is_directory {
            let first = first_listed(inputs, &base)?;
            set.first_arg = FirstArg::File(first);
        }
        Ok(set)
    }

    /// How test directories hold the set.
    pub fn layout(&self) -> TreeLayout {
        let root = std::path::absolute(&self.base)
            .ok()
            .and_then(|b| b.file_name().map(|n| n.to_os_string()))
            .unwrap_or_else(|| "files".into());
        TreeLayout {
            root,
            first_arg: self.first_arg.clone(),
            kept: self.kept.clone(),
        }
    }

    /// The set as one archive.
    pub fn archive(&self) -> Vec<u8> {
        encode(
            self.members
                .iter()
                .map(|m| (m.path.as_str(), &m.content[..])),
        )
    }

    /// What a run on the set depends on beyond its archive (for the
    /// journal's run hash): each file's language, the test directory's
    /// layout, and the files `--exclude` keeps with their contents.
    pub fn identity(&self) -> Vec<u8> {
        let layout = self.layout();
        let langs: Vec<&str> = self.members.iter().map(|m| m.lang.name()).collect();
        let mut out = format!("{langs:?} {:?} {:?}", layout.root, layout.first_arg).into_bytes();
        for (rel, path) in &self.kept {
            let content = std::fs::read(path).unwrap_or_default();
            out.extend(format!("\n{rel} {}\n", content.len()).as_bytes());
            out.extend(content);
        }
        out
    }

    /// The language a member's path gives it (as read at the start).
    pub fn lang_of(&self, path: &str) -> Lang {
        self.members
            .iter()
            .find(|m| m.path == path)
            .map_or(Lang::Bytes, |m| m.lang)
    }
}

/// The sizes of each file of the original `set`, before and after (`None`:
/// the reduction deleted it).
pub fn per_file(set: &FileSet, result: &[u8]) -> Vec<(String, u64, Option<u64>)> {
    let after = decode(result).unwrap_or_default();
    set.members
        .iter()
        .map(|m| {
            let now = after
                .iter()
                .find(|(p, _)| *p == m.path)
                .map(|(_, c)| c.len() as u64);
            (m.path.clone(), m.content.len() as u64, now)
        })
        .collect()
}

/// A file's language from its extension or `#!` line, else text or bytes.
fn language_of(path: &Path, content: &[u8]) -> Lang {
    match Language::detect(path, content) {
        Some(l) if !content[..content.len().min(8192)].contains(&0) => Lang::Tree(l),
        _ if crate::languages::looks_binary(content) => Lang::Bytes,
        _ => Lang::Text,
    }
}

/// Every regular file under `base`, relative to it, in path order; a
/// symlink or a special file is an error.
fn walk(base: &Path) -> Result<Vec<String>> {
    let mut found = Vec::new();
    for entry in walkdir::WalkDir::new(base).follow_links(false).min_depth(1) {
        let entry = entry.map_err(|e| {
            let at = e.path().unwrap_or(base).display().to_string();
            anyhow::Error::new(e).context(format!("cannot read directory {at}"))
        })?;
        let kind = entry.file_type();
        if kind.is_file() {
            found.push(relative(base, entry.path())?);
        } else if !kind.is_dir() {
            bail!("{}", refusal(entry.path(), kind.is_symlink()));
        }
    }
    found.sort();
    Ok(found)
}

/// Why `path` cannot be part of a set.
fn refusal(path: &Path, symlink: bool) -> String {
    let what = if symlink {
        "a symbolic link"
    } else {
        "not a regular file"
    };
    format!(
        "{} is {what}: reduce takes regular files only (copy it, or --exclude it to keep it untouched)",
        path.display()
    )
}

/// The listed files' common directory and their paths relative to it.
fn list_paths(inputs: &[PathBuf]) -> Result<(PathBuf, Vec<String>)> {
    let mut absolute = Vec::new();
    for p in inputs {
        let meta = std::fs::symlink_metadata(p)
            .with_context(|| format!("cannot read the input {}", p.display()))?;
        if meta.is_dir() {
            bail!(
                "{} is a directory: give one directory, or files only",
                p.display()
            );
        }
        if !meta.is_file() {
            bail!("{}", refusal(p, meta.file_type().is_symlink()));
        }
        absolute
            .push(std::path::absolute(p).with_context(|| format!("cannot read {}", p.display()))?);
    }
    let mut base = absolute[0].parent().unwrap_or(Path::new("/")).to_path_buf();
    while !absolute.iter().all(|p| p.starts_with(&base)) {
        base = base.parent().unwrap_or(Path::new("/")).to_path_buf();
    }
    let mut rels = Vec::new();
    for p in &absolute {
        let rel = relative(&base, p)?;
        if rels.contains(&rel) {
            bail!("{} is listed twice", p.display());
        }
        rels.push(rel);
    }
    Ok((base, rels))
}

/// The first listed file's path relative to `base`.
fn first_listed(inputs: &[PathBuf], base: &Path) -> Result<String> {
    relative(base, &std::path::absolute(&inputs[0])?)
}

fn relative(base: &Path, path: &Path) -> Result<String> {
    let rel = path
        .strip_prefix(base)
        .with_context(|| format!("{} is not under {}", path.display(), base.display()))?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Ok(parts.join("/"))
}

/// The `--exclude` globs, compiled once: `*` and `?` within a path
/// component, `**` across components, `[...]` classes; a glob without `/`
/// is matched against the file name too (`--exclude '*.o'`).
pub(crate) struct Excludes {
    paths: globset::GlobSet,
    names: globset::GlobSet,
}

impl Excludes {
    /// Compiles `globs`; a glob that is not one is an error naming it.
    pub(crate) fn new(globs: &[String]) -> Result<Self> {
        let mut paths = globset::GlobSetBuilder::new();
        let mut names = globset::GlobSetBuilder::new();
        for glob in globs {
            let compiled = globset::GlobBuilder::new(glob)
                .literal_separator(true)
                .build()
                .with_context(|| format!("--exclude {glob}: not a glob"))?;
            if !glob.contains('/') {
                names.add(compiled.clone());
            }
            paths.add(compiled);
        }
        let built = |set: globset::GlobSetBuilder| set.build().context("--exclude: bad globs");
        Ok(Excludes {
            paths: built(paths)?,
            names: built(names)?,
        })
    }

    /// Whether the relative path `path` (`/`-separated) is excluded.
    pub(crate) fn matches(&self, path: &str) -> bool {
        let name = path.rsplit('/').next().unwrap_or(path);
        self.paths.is_match(path) || self.names.is_match(name)
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The archive of `files` (path, content), in order.
pub fn encode<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> Vec<u8> {
    let mut out = Vec::new();
    for (path, content) in files {
        out.extend_from_slice(&begin_marker(path));
        out.extend_from_slice(content);
        out.extend_from_slice(&end_marker(path));
    }
    out
}

fn begin_marker(path: &str) -> Vec<u8> {
    [BEGIN, path.as_bytes(), CLOSE].concat()
}

fn end_marker(path: &str) -> Vec<u8> {
    [END, path.as_bytes(), CLOSE].concat()
}

/// The files of an archive (path, content), or `None` if its markers do
/// not pair up.
pub fn decode(bytes: &[u8]) -> Option<Vec<(&str, &[u8])>> {
    let mut files = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let after = rest.strip_prefix(BEGIN)?;
        let close = find(after, CLOSE)?;
        let path = std::str::from_utf8(&after[..close]).ok()?;
        let body = &after[close + CLOSE.len()..];
        let end = end_marker(path);
        let at = find(body, END)?;
        if !body[at..].starts_with(&end) || find(&body[..at], BEGIN).is_some() {
            return None;
        }
        files.push((path, &body[..at]));
        rest = &body[at + end.len()..];
    }
    Some(files)
}

/// The byte range of `path`'s content in `archive`, if it holds the file.
pub fn content_range(archive: &[u8], path: &str) -> Option<std::ops::Range<usize>> {
    let begin = begin_marker(path);
    let start = find(archive, &begin)? + begin.len();
    let len = find(&archive[start..], &end_marker(path))?;
    Some(start..start + len)
}

/// How finely the pool stage cuts the archive's files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grain {
    /// Each file's content is one unit: deleting whole files, emptying them.
    Files,
    /// Each top-level item (a grammar's root children, text's top-level
    /// blocks) is a unit: the files' items as one pool.
    Items,
}

/// The archive cut into units: the markers, and each file's content as
/// one unit or its top-level items. Unit boundaries fall on every marker,
/// so a policy deletes items of several files in one candidate.
pub fn pool_units(archive: Vec<u8>, set: &FileSet, grain: Grain) -> Result<Units> {
    let mut starts = Vec::new();
    let files = decode(&archive).context("the archive of the files does not decode")?;
    let mut offset = 0usize;
    for (path, content) in files {
        let begin = begin_marker(path).len();
        starts.push(offset as u32);
        let content_start = offset + begin;
        if !content.is_empty() {
            starts.push(content_start as u32);
            if grain == Grain::Items {
                for item in item_starts(set.lang_of(path), content)? {
                    if item > 0 {
                        starts.push((content_start + item) as u32);
                    }
                }
            }
        }
        let end_start = content_start + content.len();
        starts.push(end_start as u32);
        offset = end_start + end_marker(path).len();
    }
    starts.dedup();
    Ok(Units::from_starts(archive, starts, false))
}

/// Where the top-level items of `content` start (byte offsets, increasing).
fn item_starts(lang: Lang, content: &[u8]) -> Result<Vec<usize>> {
    let (tree, units) = match lang {
        Lang::Tree(l) => crate::tree::parse::parse(l, content.to_vec())?,
        Lang::Text => crate::tree::blocks::build(content.to_vec()),
        Lang::Bytes => return Ok(Vec::new()),
    };
    let mut starts: Vec<usize> = tree
        .children(tree.root())
        .filter_map(|c| {
            let tokens = tree.tokens(c);
            (!tokens.is_empty()).then(|| units.span(tokens.start).start)
        })
        .collect();
    starts.dedup();
    Ok(starts)
}

/// Refuses archives whose markers do not pair up, so that the oracle only
/// sees whole files (deleted, emptied or cut down), never one run into
/// another.
pub struct ArchiveCheck;

impl SyntaxFilter for ArchiveCheck {
    fn accepts(&self, bytes: &[u8]) -> bool {
        decode(bytes).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_archive_decodes_to_its_files() {
        let a = encode([("a.c", &b"int a;\n"[..]), ("d/b.h", b"")]);
        let files = decode(&a).unwrap();
        assert_eq!(files, vec![("a.c", &b"int a;\n"[..]), ("d/b.h", &b""[..])]);
        assert_eq!(&a[content_range(&a, "a.c").unwrap()], b"int a;\n");
        assert_eq!(decode(b"").unwrap(), vec![]);
    }

    #[test]
    fn an_archive_with_a_marker_missing_does_not_decode() {
        let a = encode([("a.c", &b"x"[..]), ("b.c", b"y")]);
        let begin_b = find(&a, &begin_marker("b.c")).unwrap();
        let end_a = find(&a, &end_marker("a.c")).unwrap();
        // The end of a and the beginning of b gone: b's content runs into a.
        let merged = [&a[..end_a], &a[begin_b + begin_marker("b.c").len()..]].concat();
        assert!(decode(&merged).is_none());
        // Only b's beginning gone.
        let headless = [&a[..begin_b], &a[begin_b + begin_marker("b.c").len()..]].concat();
        assert!(decode(&headless).is_none());
        // b's content before any marker.
        assert!(decode(b"y").is_none());
    }

    #[test]
    fn globs_match_names_and_paths() {
        let glob_matches =
            |glob: &str, path: &str| Excludes::new(&[glob.to_string()]).unwrap().matches(path);
        assert!(glob_matches("*.o", "obj/x.o"));
        assert!(glob_matches("obj/*", "obj/x.o"));
        assert!(!glob_matches("obj/*", "obj/sub/x.o"));
        assert!(glob_matches("obj/**", "obj/sub/x.o"));
        assert!(glob_matches("**/x.?", "a/b/x.o"));
        assert!(!glob_matches("*.c", "a.h"));
        assert!(glob_matches("[ab].c", "d/b.c"));
        assert!(Excludes::new(&["[".to_string()]).is_err());
    }
}
