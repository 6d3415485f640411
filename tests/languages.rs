//! Every built-in language end to end, on its fixture with a real judge
//! (python3, node, rustc, javac, bash, and go and tsc, which `.ci/run`
//! installs; one TypeScript fixture is judged by a grep), and a grammar
//! loaded at run time with `--grammar`: one
//! built in the test with gcc from a grammar crate's C sources, and bad
//! libraries refused before any test runs.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::tree::reduce_fixture;
use crate::util::{Sandbox, assert_exit, assert_invariants, phase_names, stats, succeeds_quietly};

/// Reduces `input` of `fixture` with the default pipeline and, with
/// `tree_algos`, with hdd and perses too, each kept interesting, no
/// larger, a fixpoint (plain hdd visits each level once, so only no
/// larger on a second run): as `language`, to less than half of its
/// tokens (hdd: fewer). The tree policies never learn the language (the
/// tree is built from grammar facts), so they run on the fixtures whose
/// judges answer in a blink (Rust, Bash, TypeScript), the default
/// pipeline on every one.
fn reduces_as_a_tree(fixture: &str, input: &str, language: &str, tree_algos: bool) {
    // A fixed timeout: the default, 10x the original's run time, can cut
    // a compiler short on a loaded machine, which makes runs differ.
    let timeout = ["--timeout", "120"];
    let algos: &[&[&str]] = if tree_algos {
        &[&[], &["--algo", "hdd"], &["--algo", "perses"]]
    } else {
        &[&[]]
    };
    for algo in algos {
        let args = [&timeout[..], algo].concat();
        let (_, s, _) = reduce_fixture(fixture, input, &args);
        assert_eq!(s["language"], language, "{args:?}");
        let units = |f: &str| s[f].as_u64().unwrap();
        // Plain hdd visits each level once: it only has to shrink.
        let most = if algo.is_empty() || algo[1] != "hdd" {
            2
        } else {
            1
        };
        assert!(
            units("units_after") * most < units("units_before"),
            "{args:?}: {s}"
        );
    }
}

#[test]
#[cfg(feature = "python")]
fn a_python_exception_raised_in_an_except_clause_reduces_as_a_tree() {
    reduces_as_a_tree("python-except", "inventory.py", "python", false);
}

#[test]
#[cfg(feature = "javascript")]
fn a_javascript_type_error_reduces_as_a_tree() {
    reduces_as_a_tree("javascript-typeerror", "orders.js", "javascript", false);
}

#[test]
#[cfg(feature = "rust")]
fn a_rust_type_mismatch_reduces_as_a_tree() {
    reduces_as_a_tree("rust-mismatch", "shapes.rs", "rust", true);
}

#[test]
#[cfg(feature = "java")]
fn a_java_compile_error_reduces_as_a_tree() {
    reduces_as_a_tree("java-incompatible", "Ledger.java", "java", false);
}

#[test]
#[cfg(feature = "bash")]
fn a_bash_runtime_error_reduces_as_a_tree() {
    reduces_as_a_tree("bash-unbound", "deploy.sh", "bash", true);
}

#[test]
#[cfg(feature = "go")]
fn a_go_compile_error_reduces_as_a_tree() {
    reduces_as_a_tree("go-mismatch", "stock.go", "go", false);
}

#[test]
#[cfg(feature = "typescript")]
fn a_typescript_structure_reduces_as_a_tree() {
    reduces_as_a_tree("typescript-shape", "shapes.ts", "typescript", true);
}

#[test]
#[cfg(feature = "typescript")]
fn a_typescript_file_its_grammar_cannot_parse_reduces_as_text_blocks() {
    // tree-sitter-typescript leaves most of store.ts in parse errors;
    // tsc (which `.ci/run` installs) judges it.
    let (sb, s, _) = reduce_fixture("typescript-store", "store.ts", &["--timeout", "120"]);
    assert_eq!(s["language"], "typescript");
    assert_eq!(s["blocks_fallback"], true, "{s}");
    let units = |f: &str| s[f].as_u64().unwrap();
    assert!(units("units_after") * 4 < units("units_before"), "{s}");
    // Once the blocks' result parses, the grammar's rounds go on: the
    // string becomes an empty one (a text block is whole tokens, and a
    // string one token).
    let out = String::from_utf8(sb.read("out")).unwrap();
    assert!(
        out.contains(".setFrozen(\"\")") || out.contains(".setFrozen('')"),
        "{out}"
    );
    let names = phase_names(&s);
    assert!(names.contains(&"simplify"), "{names:?}");
}

#[test]
#[cfg(feature = "python")]
fn a_script_without_an_extension_is_read_in_the_language_of_its_shebang() {
    let sb = Sandbox::new();
    sb.fixture("python-except");
    let script = sb.read("inventory.py");
    std::fs::write(sb.path().join("inventory"), &script).unwrap();
    let args = [
        "--oracle",
        "check.sh",
        "inventory",
        "-o",
        "out",
        "--stats-json",
        "s.json",
        "-q",
        // The language is what is checked: a few tests show it.
        "--max-tests",
        "20",
    ];
    assert_exit(&sb.reduce(&args), 0);
    assert_eq!(stats(&sb, "s.json")["language"], "python");
    assert!(sb.oracle_accepts("check.sh", &sb.path().join("out"), "inventory"));
}

/// The sources of tree-sitter-json in cargo's registry (a dependency, so
/// present once the tests are built).
fn json_grammar_sources() -> PathBuf {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cargo"));
    let registry = home.join("registry/src");
    for index in std::fs::read_dir(&registry).unwrap() {
        for krate in std::fs::read_dir(index.unwrap().path()).unwrap() {
            let path = krate.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name.starts_with("tree-sitter-json-") && path.join("src/parser.c").exists() {
                return path.join("src");
            }
        }
    }
    panic!("no tree-sitter-json sources under {}", registry.display());
}

/// Compiles `parser.c` (as given, or edited by `edit`) of tree-sitter-json
/// into `lib` in the sandbox, with the grammar's `node-types.json` beside it.
fn build_json_grammar(sb: &Sandbox, lib: &str, edit: impl Fn(String) -> String) {
    let src = json_grammar_sources();
    let parser = edit(std::fs::read_to_string(src.join("parser.c")).unwrap());
    std::fs::write(sb.path().join("parser.c"), parser).unwrap();
    std::fs::copy(
        src.join("node-types.json"),
        sb.path().join("node-types.json"),
    )
    .unwrap();
    let built = succeeds_quietly(
        Command::new("gcc")
            .current_dir(sb.path())
            .args(["-shared", "-fPIC", "-O0", "parser.c", "-I"])
            .arg(&src)
            .args(["-o", lib]),
    );
    assert!(built, "gcc could not build {lib}");
}

const JSON_INPUT: &str =
    "{\"keep\": [1, 2, {\"deep\": \"boom\", \"x\": [3, 4]}], \"drop\": {\"a\": null}}\n";

/// An oracle that leaves a mark each time it runs: interesting iff the
/// candidate is an object whose value holds `"boom"` (json.tool parses it).
fn json_oracle(sb: &Sandbox) {
    sb.write(
        "check.sh",
        "#!/bin/sh\ntouch ran\npython3 -S -m json.tool \"$1\" >/dev/null 2>&1 && grep -q '\"boom\"' \"$1\"\n",
        true,
    );
}

#[test]
fn a_grammar_loaded_at_run_time_reduces_with_every_tree_algorithm() {
    let sb = Sandbox::new();
    build_json_grammar(&sb, "libtree-sitter-json.so", |s| s);
    json_oracle(&sb);
    sb.write("in.txt", JSON_INPUT, false);
    let grammar = [
        "--grammar",
        "./libtree-sitter-json.so",
        "--node-types",
        "node-types.json",
    ];
    let tree_algorithms = reduce::policy::registry::algorithms().filter(|e| e.needs_tree);
    for algo in tree_algorithms.map(|e| e.name) {
        let mut args = grammar.to_vec();
        args.extend(["--algo", algo]);
        let mut run = args.clone();
        run.extend([
            "--oracle",
            "check.sh",
            "in.txt",
            "-o",
            "out",
            "--stats-json",
            "s.json",
            "-q",
        ]);
        assert_exit(&sb.reduce(&run), 0);
        let s = stats(&sb, "s.json");
        assert_eq!(s["language"], "json", "{algo}");
        assert!(
            s["units_after"].as_u64() < s["units_before"].as_u64(),
            "{algo}: {s}"
        );
        assert_invariants(
            &sb,
            "check.sh",
            "in.txt",
            JSON_INPUT.as_bytes(),
            "out",
            &args,
        );
    }
    // The default pipeline, with derived separators only, gets to the
    // smallest JSON holding the string.
    let mut run = grammar.to_vec();
    run.extend(["--oracle", "check.sh", "in.txt", "-o", "out", "-q"]);
    assert_exit(&sb.reduce(&run), 0);
    assert_eq!(sb.read("out"), b"\"boom\"");
    assert_invariants(
        &sb,
        "check.sh",
        "in.txt",
        JSON_INPUT.as_bytes(),
        "out",
        &grammar,
    );
}

#[test]
fn a_bad_grammar_library_is_refused_with_one_line_before_any_test() {
    let sb = Sandbox::new();
    build_json_grammar(&sb, "libtree-sitter-json.so", |s| s);
    build_json_grammar(&sb, "libfuture.so", |s| {
        s.replace("#define LANGUAGE_VERSION 14", "#define LANGUAGE_VERSION 99")
    });
    json_oracle(&sb);
    sb.write("in.txt", JSON_INPUT, false);
    sb.write("text.so", "not a library\n", false);
    for (lib, lang, says) in [
        ("./text.so", None, "cannot load the grammar"),
        ("./missing.so", None, "cannot load the grammar"),
        (
            "./libtree-sitter-json.so",
            Some("yaml"),
            "no symbol tree_sitter_yaml",
        ),
        ("./libfuture.so", Some("json"), "ABI version 99"),
    ] {
        let mut args = vec!["--grammar", lib, "--node-types", "node-types.json"];
        if let Some(lang) = lang {
            args.extend(["--lang", lang]);
        }
        args.extend(["--oracle", "check.sh", "in.txt", "-o", "out"]);
        let out = sb.reduce(&args);
        assert_exit(&out, 2);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(says), "{lib}: {stderr}");
        assert!(
            !Path::new(&sb.path().join("ran")).exists(),
            "{lib}: the oracle ran"
        );
    }
    // Unreadable node types are refused likewise; an unknown --lang
    // without --grammar too.
    for args in [
        &[
            "--grammar",
            "./libtree-sitter-json.so",
            "--node-types",
            "nonesuch.json",
        ][..],
        &[
            "--grammar",
            "./libtree-sitter-json.so",
            "--node-types",
            "in.txt",
        ],
        &["--lang", "yaml"],
    ] {
        let mut args = args.to_vec();
        args.extend(["--oracle", "check.sh", "in.txt", "-o", "out"]);
        let out = sb.reduce(&args);
        assert_exit(&out, 2);
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
        assert!(!sb.path().join("ran").exists());
    }
    // A data file with a misspelled key, named with the key nearest it.
    sb.write(
        "data.json",
        r#"{"description": "JSON data with a typo", "seperators": {"array": [","]}}"#,
        false,
    );
    let out = sb.reduce(&[
        "--grammar",
        "./libtree-sitter-json.so",
        "--node-types",
        "node-types.json",
        "--grammar-data",
        "data.json",
        "--oracle",
        "check.sh",
        "in.txt",
        "-o",
        "out",
    ]);
    assert_exit(&out, 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let says = r#"data.json: unknown key "seperators"; did you mean "separators"?"#;
    assert!(stderr.contains(says), "{stderr}");
    assert!(!sb.path().join("ran").exists());
}
