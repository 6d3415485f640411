//! `--format native`: the language's own formatter (from `formatters` in
//! grammars/*.json) ends the run when it is installed and the oracle
//! accepts its output; a formatter that is missing is skipped without a
//! word, and the built-in layout ends the run instead; a `--format-with`
//! command that fails is said once.

use std::path::Path;

use crate::util::{Sandbox, assert_exit, assert_invariants, quiet};

/// The first formatter `grammars/<lang>.json` lists that is installed
/// (a program on `PATH`), with its arguments; the tests need one.
fn installed_formatter(lang: &str) -> Vec<String> {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("grammars/{lang}.json"));
    let data: serde_json::Value = serde_json::from_slice(&std::fs::read(data).unwrap()).unwrap();
    let on_path = |program: &str| {
        std::env::split_paths(&std::env::var_os("PATH").unwrap())
            .any(|dir| dir.join(program).is_file())
    };
    data["formatters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|formatter| -> Vec<String> {
            let program = formatter["program"].as_str().unwrap().to_string();
            let arguments = formatter["arguments"].as_array().unwrap().iter();
            std::iter::once(program)
                .chain(arguments.map(|a| a.as_str().unwrap().to_string()))
                .collect()
        })
        .find(|argv| on_path(&argv[0]))
        .unwrap_or_else(|| panic!("no formatter for {lang} installed (scripts/test-tools.sh)"))
}

/// `text` through `formatter` (stdin to stdout).
fn formatted(formatter: &[String], text: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut child = quiet(&formatter[0])
        .args(&formatter[1..])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(text).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{formatter:?} failed");
    out.stdout
}

/// Reduces `input` (in the sandbox, with `check.sh`) with `--format
/// native`, checks the invariants, and returns the result and what
/// `--format readable` makes of it (a run on the result, which is quick).
fn native_and_readable(sb: &Sandbox, input: &str) -> (Vec<u8>, Vec<u8>) {
    let original = sb.read(input);
    let args = ["--format", "native"];
    let mut run = args.to_vec();
    run.extend(["--oracle", "check.sh", input, "-o", "out", "-q"]);
    assert_exit(&sb.reduce(&run), 0);
    let result = sb.read("out");
    assert_invariants(sb, "check.sh", input, &original, "out", &args);
    std::fs::create_dir(sb.path().join("again")).unwrap();
    let again = format!("again/{input}");
    std::fs::write(sb.path().join(&again), &result).unwrap();
    let run = ["--oracle", "check.sh", &again, "-o", "readable", "-q"];
    assert_exit(&sb.reduce(&run), 0);
    (result, sb.read("readable"))
}

/// With `lang`'s formatter installed, the result of `input` (in `sb`, with
/// `check.sh`) under `--format native` is the formatter's output, and not
/// what the built-in layout makes of it.
fn is_the_formatters_output(sb: &Sandbox, input: &str, lang: &str) {
    let formatter = installed_formatter(lang);
    let (result, readable) = native_and_readable(sb, input);
    let text = String::from_utf8_lossy(&result);
    assert_eq!(formatted(&formatter, &result), result, "{lang}: {text}");
    assert_ne!(
        result, readable,
        "{lang}: the formatter changed nothing: {text}"
    );
}

#[test]
fn with_clang_format_installed_a_c_result_is_its_output() {
    let sb = Sandbox::new();
    sb.fixture("c-crash");
    is_the_formatters_output(&sb, "crash.c", "c");
}

#[test]
fn with_rustfmt_installed_a_rust_result_is_its_output() {
    let sb = Sandbox::new();
    sb.write(
        "shapes.rs",
        "struct Circle { r: f64 }\ntrait Shape { fn area(&self) -> f64; }\n\
         impl Shape for Circle { fn area(&self) -> f64 { 3.14 * self.r * self.r } }\n\
         fn unused() -> i32 { let x = 1; x + 2 }\n",
        false,
    );
    // Interesting while rustfmt can parse it and it still has and reads a radius.
    sb.write(
        "check.sh",
        "#!/bin/sh\nrustfmt --edition 2021 < \"$1\" >/dev/null 2>&1 && grep -q 'self.r' \"$1\" \
         && grep -q 'r: f64' \"$1\"\n",
        true,
    );
    is_the_formatters_output(&sb, "shapes.rs", "rust");
}

#[test]
fn with_black_or_ruff_installed_a_python_result_is_its_output() {
    let sb = Sandbox::new();
    sb.write(
        "area.py",
        "import os\ndef area(r):\n  x = 1\n  return 3.14*r*r\ndef unused(a,b):\n  return a+b\nprint(area(2))\n",
        false,
    );
    sb.write(
        "check.sh",
        "#!/bin/sh\npython3 -S -c 'import ast,sys; ast.parse(open(sys.argv[1]).read())' \"$1\" \
         && grep -q 'def area' \"$1\" && grep -q 'def unused' \"$1\"\n",
        true,
    );
    is_the_formatters_output(&sb, "area.py", "python");
}

#[test]
fn a_formatter_that_is_not_installed_is_skipped_and_a_failing_one_said_once() {
    let sb = Sandbox::new();
    sb.write(
        "config.json",
        "{\"a\": [1, 2], \"keep\": {\"x\": true}}\n",
        false,
    );
    sb.write(
        "check.sh",
        "#!/bin/sh\nexec /bin/grep -q '\"keep\"' \"$1\"\n",
        true,
    );
    // No formatter on an empty PATH: the built-in layout, silently.
    let native = [
        "--format",
        "native",
        "--oracle",
        "check.sh",
        "config.json",
        "-o",
        "native",
    ];
    let out = sb.reduce_env(&native, &[("PATH", "")]);
    assert_exit(&out, 0);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr)
            .matches("format")
            .count(),
        0
    );
    let readable = [
        "--oracle",
        "check.sh",
        "config.json",
        "-o",
        "readable",
        "-q",
    ];
    assert_exit(&sb.reduce(&readable), 0);
    assert_eq!(sb.read("native"), sb.read("readable"));
    // A --format-with command that fails is said once; the layout stands.
    let with = [
        "--format-with",
        "exit 3",
        "--oracle",
        "check.sh",
        "config.json",
        "-o",
        "with",
    ];
    let out = sb.reduce(&with);
    assert_exit(&out, 0);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.matches("--format-with exit 3: it failed (exit code 3)")
            .count(),
        1,
        "{err}"
    );
    assert_eq!(sb.read("with"), sb.read("readable"));
    sb.assert_no_temp_left();
}
