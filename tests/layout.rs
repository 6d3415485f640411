//! The layout rules of docs/design.md, checked on the source text: no two
//! source files import each other, only the oracle module starts
//! processes, only the display prints during a run, policies neither print
//! nor start processes, the loop sees the oracle and the syntax filter only
//! through traits, nothing below the command line imports clap, and no code
//! outside the language registry names a language.
//!
//! The checks read `use crate::...` lines and look for a few marks in each
//! file's code outside its `#[cfg(test)]` module (tests may do as they
//! please).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `src/` that is built outside tests, by its path
/// relative to `src/` (a file declared as `#[cfg(test)] mod name;` is a
/// test).
fn sources() -> BTreeMap<String, String> {
    let mut all = all_sources();
    let test_only: Vec<String> = all
        .iter()
        .flat_map(|(f, text)| {
            let dir = f.trim_end_matches("mod.rs").trim_end_matches("lib.rs");
            let dir = if dir.ends_with(".rs") {
                format!("{}/", dir.trim_end_matches(".rs"))
            } else {
                dir.to_string()
            };
            let lines: Vec<&str> = text.lines().collect();
            lines
                .windows(2)
                .filter(|w| w[0].trim() == "#[cfg(test)]")
                .filter_map(|w| {
                    let decl = w[1]
                        .trim()
                        .trim_start_matches("pub(crate) ")
                        .trim_start_matches("pub ");
                    decl.strip_prefix("mod ")?
                        .strip_suffix(';')
                        .map(str::to_string)
                })
                .map(|name| format!("{dir}{name}.rs"))
                .collect::<Vec<_>>()
        })
        .collect();
    for f in test_only {
        all.remove(&f);
    }
    all
}

/// Every `.rs` file under `src/`, by its path relative to `src/`.
fn all_sources() -> BTreeMap<String, String> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, String>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let name = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(name, fs::read_to_string(&path).unwrap());
            }
        }
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    walk(&root, &root, &mut out);
    out
}

/// The code of a file without its test module (everything from the first
/// `#[cfg(test)]` line followed by `mod`), and without comment lines.
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let next = lines.peek().map_or("", |l| l.trim_start());
        if line.trim() == "#[cfg(test)]"
            && (next.starts_with("mod ") || next.starts_with("pub(crate) mod tests"))
        {
            break;
        }
        if !line.trim_start().starts_with("//") {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The module path of a source file: `tree/parse.rs` is `tree::parse`,
/// `oracle/mod.rs` is `oracle`.
fn module_of(file: &str) -> String {
    let stem = file.trim_end_matches(".rs").trim_end_matches("/mod");
    stem.replace('/', "::")
}

/// The files `text` imports with `use crate::a::b::...` (also inside
/// braces: `use crate::{a, b::c}`), resolved to the longest module path
/// that is a file.
fn imports(text: &str, files: &BTreeMap<String, String>) -> BTreeSet<String> {
    let modules: BTreeMap<String, &String> = files.keys().map(|f| (module_of(f), f)).collect();
    let resolve = |path: &str| -> Option<String> {
        let parts: Vec<&str> = path.split("::").map(str::trim).collect();
        (1..=parts.len())
            .rev()
            .find_map(|n| modules.get(&parts[..n].join("::")).map(|f| f.to_string()))
    };
    let mut out = BTreeSet::new();
    let code = code(text);
    for statement in code.split(';') {
        let Some(at) = statement.find("use crate::") else {
            continue;
        };
        let body = &statement[at + "use crate::".len()..];
        for path in expand(body) {
            if let Some(file) = resolve(&path) {
                out.insert(file);
            }
        }
    }
    out
}

/// `a::{b, c::{d, e}}` as `a::b`, `a::c::d`, `a::c::e`.
fn expand(body: &str) -> Vec<String> {
    let body = body.trim();
    let Some(open) = body.find('{') else {
        return vec![body.to_string()];
    };
    let prefix = &body[..open];
    let inner = &body[open + 1..body.rfind('}').unwrap_or(body.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(|p| expand(&format!("{prefix}{}", p.trim())))
        .collect()
}

#[test]
fn no_source_files_import_each_other_even_through_others() {
    let files = sources();
    let graph: BTreeMap<&String, BTreeSet<String>> = files
        .iter()
        .map(|(f, text)| {
            let mut deps = imports(text, &files);
            deps.remove(f);
            (f, deps)
        })
        .collect();
    // Depth-first search for a cycle.
    fn visit<'a>(
        f: &'a str,
        graph: &'a BTreeMap<&String, BTreeSet<String>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| *p == f) {
            return Some(
                path[at..]
                    .iter()
                    .map(|s| s.to_string())
                    .chain([f.to_string()])
                    .collect(),
            );
        }
        if !done.insert(f) {
            return None;
        }
        path.push(f);
        for dep in graph.get(&f.to_string()).into_iter().flatten() {
            if let Some(cycle) = visit(dep, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for f in graph.keys() {
        if let Some(cycle) = visit(f, &graph, &mut Vec::new(), &mut done) {
            panic!("source files import each other: {}", cycle.join(" -> "));
        }
    }
}

/// The files (outside their tests) whose code contains one of `marks`.
fn files_containing(marks: &[&str]) -> Vec<String> {
    sources()
        .into_iter()
        .filter(|(_, text)| {
            let code = code(text);
            marks.iter().any(|m| code.contains(m))
        })
        .map(|(f, _)| f)
        .collect()
}

#[test]
fn only_the_oracle_module_starts_processes() {
    let starters =
        files_containing(&["Command::new", ".spawn()", "libc::fork", "process::Command"]);
    let outside: Vec<_> = starters
        .iter()
        .filter(|f| !f.starts_with("oracle/"))
        .collect();
    assert!(
        outside.is_empty(),
        "processes started outside oracle/: {outside:?}"
    );
}

#[test]
fn only_the_display_prints_during_a_run() {
    let printers = files_containing(&[
        "eprintln!",
        "eprint!",
        "println!",
        "print!",
        "io::stderr()",
        "indicatif",
    ]);
    // main.rs prints `--list-algos` instead of a run and the error that
    // ended one, completions.rs a script instead of a run.
    let allowed = ["progress.rs", "main.rs", "completions.rs"];
    let outside: Vec<_> = printers
        .iter()
        .filter(|f| !allowed.contains(&f.as_str()))
        .collect();
    assert!(
        outside.is_empty(),
        "printing outside progress.rs: {outside:?}"
    );
}

#[test]
fn policies_neither_print_nor_start_processes_nor_see_the_oracle() {
    let files = sources();
    for (f, text) in files.iter().filter(|(f, _)| f.starts_with("policy/")) {
        let code = code(text);
        for mark in [
            "println!",
            "eprintln!",
            "print!",
            "std::process",
            "Command::new",
        ] {
            assert!(!code.contains(mark), "{f} uses {mark}");
        }
        let deps = imports(text, &files);
        for forbidden in [
            "oracle/mod.rs",
            "progress.rs",
            "engine/mod.rs",
            "app.rs",
            "cli.rs",
            "pipeline.rs",
        ] {
            assert!(!deps.contains(forbidden), "{f} imports {forbidden}");
        }
    }
}

#[test]
fn the_engine_and_its_schedulers_see_the_oracle_and_the_syntax_filter_only_through_traits() {
    let files = sources();
    let engine: Vec<&String> = files
        .keys()
        .filter(|f| f.starts_with("engine/") || f.starts_with("schedulers/"))
        .collect();
    assert!(engine.len() > 5, "the engine's files: {engine:?}");
    for file in engine {
        let deps = imports(&files[file], &files);
        for concrete in ["oracle/mod.rs", "syntax.rs", "progress.rs", "languages.rs"] {
            assert!(!deps.contains(concrete), "{file} imports {concrete}");
        }
    }
}

#[test]
fn schedulers_neither_run_tests_nor_read_the_cache_nor_look_at_the_time() {
    let files = sources();
    for (f, text) in files.iter().filter(|(f, _)| f.starts_with("schedulers/")) {
        let code = code(text);
        for mark in ["Instant", "thread::", "Oracle", "SyntaxFilter"] {
            assert!(!code.contains(mark), "{f} uses {mark}");
        }
        let deps = imports(text, &files);
        assert!(
            !deps.iter().any(|d| d.starts_with("engine/")),
            "{f} imports the engine: {deps:?}"
        );
    }
}

#[test]
fn nothing_below_the_command_line_imports_clap_or_the_command_line() {
    let files = sources();
    let allowed = ["cli.rs", "cli/build.rs", "main.rs", "completions.rs"];
    for (f, text) in files.iter().filter(|(f, _)| !allowed.contains(&f.as_str())) {
        let code = code(text);
        assert!(!code.contains("clap"), "{f} uses clap");
        let deps = imports(text, &files);
        assert!(!deps.contains("cli.rs"), "{f} imports the command line");
    }
}

#[test]
fn no_code_outside_the_language_registry_names_a_language() {
    let marks = ["Language::named(", "Language::from_name(\""];
    let naming: Vec<_> = files_containing(&marks)
        .into_iter()
        .filter(|f| f != "languages.rs")
        .collect();
    assert!(naming.is_empty(), "languages named in code: {naming:?}");
    let files = sources();
    for f in ["tree/mod.rs", "tree/compact.rs"] {
        let deps = imports(&files[f], &files);
        assert!(
            !deps.contains("languages.rs"),
            "{f} imports the language registry"
        );
    }
}

#[test]
fn every_source_file_says_why_it_exists() {
    for (f, text) in sources() {
        assert!(text.starts_with("//!"), "{f} has no module doc comment");
    }
}

#[test]
fn design_md_lists_every_source_file() {
    let design =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/design.md")).unwrap();
    for f in sources().keys() {
        assert!(
            design.contains(&format!("`src/{f}`")),
            "docs/design.md does not list src/{f}"
        );
    }
}
