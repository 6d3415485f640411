//! What a person meets first: `--help`, `--version`, `--list-algos`, shell
//! completions, the man page, and a quiet stderr when it is not a terminal.

use reduce::policy::Minimizer;
use reduce::policy::registry;

use crate::util::{Sandbox, assert_exit};

fn stdout_of(sb: &Sandbox, args: &[&str]) -> String {
    let out = sb.reduce(args);
    assert_exit(&out, 0);
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[test]
fn completions_for_each_shell_know_the_flags() {
    let sb = Sandbox::new();
    // fish names long options without their dashes: `-l oracle`.
    for (shell, oracle) in [
        ("bash", "--oracle"),
        ("zsh", "--oracle"),
        ("fish", "-l oracle"),
    ] {
        let script = stdout_of(&sb, &["completions", shell]);
        assert!(
            script.contains(oracle),
            "{shell} completions do not mention {oracle}:\n{script}"
        );
        assert!(script.contains("reduce"), "{shell}: no command name");
    }
}

#[test]
fn completions_need_a_known_shell() {
    let sb = Sandbox::new();
    assert_exit(&sb.reduce(&["completions"]), 2);
    assert_exit(&sb.reduce(&["completions", "cmd.exe"]), 2);
}

#[test]
fn the_man_page_is_roff_with_the_flags_examples_and_exit_codes() {
    let sb = Sandbox::new();
    let page = stdout_of(&sb, &["man"]);
    assert!(page.contains(".TH reduce 1"), "no title:\n{page}");
    // roff writes a command-line dash as `\-`.
    assert!(page.contains(r"\-\-oracle"), "no --oracle:\n{page}");
    assert!(page.contains(".SH EXAMPLES"));
    assert!(page.contains(r#".SH "EXIT STATUS""#));
    assert!(page.contains(r"\-\-unit byte"));
}

#[test]
fn subcommands_take_no_reduction_flags() {
    let sb = Sandbox::new();
    assert_exit(&sb.reduce(&["man", "--oracle", "check.sh"]), 2);
}

#[test]
fn an_input_named_like_a_subcommand_is_still_an_input() {
    let sb = Sandbox::new();
    sb.write("man", "keep\ndrop\n", false);
    sb.write("check.sh", "#!/bin/sh\ngrep -q keep \"$1\"\n", true);
    let out = sb.reduce(&["--oracle", "./check.sh", "man", "-o", "out", "-q"]);
    assert_exit(&out, 0);
    assert_eq!(sb.read("out"), b"keep\n");
}

#[test]
fn help_has_worked_examples_and_the_exit_codes() {
    let sb = Sandbox::new();
    let help = stdout_of(&sb, &["--help"]);
    for example in [
        "reduce --oracle ./check.sh crash.c", // a compiler crash in C
        "reduce --unit byte --max-time 20m --oracle", // a fuzzer's crash
        "reduce --same-crash --run './fuzz_target {}'", // the same, no script
        "reduce --oracle ./json.sh big.json", // a JSON parser bug
        "| reduce -q --oracle ./check.sh - -o - |", // a shell pipeline
        "internal compiler error",            // the oracles, too
        "reduce completions bash|zsh|fish",
    ] {
        assert!(help.contains(example), "--help lacks `{example}`:\n{help}");
    }
    // Every exit code of the README's table is explained in --help.
    let (_, listed) = help.split_once("Exit codes:\n").expect("an exit code list");
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let (_, table) = readme
        .split_once("## Exit codes")
        .expect("README has exit codes");
    let rows = table
        .lines()
        .skip_while(|l| !l.starts_with("| 0"))
        .take_while(|l| l.starts_with('|'));
    let mut codes = 0;
    for row in rows {
        let code = row.split('|').nth(1).unwrap().trim();
        assert!(
            listed.lines().any(|l| l.trim_start().starts_with(code)),
            "exit code {code} is in README but not in --help:\n{listed}"
        );
        codes += 1;
    }
    assert_eq!(codes, 7, "README's exit code table changed shape");
    assert!(help.contains("Usage: reduce [OPTIONS] --oracle <SCRIPT> <INPUT>"));
}

#[test]
fn list_algos_and_help_name_every_algorithm_of_the_registry_and_every_inner_minimizer() {
    let sb = Sandbox::new();
    let list = stdout_of(&sb, &["--list-algos"]);
    let algos: Vec<&str> = registry::algorithms().map(|e| e.name).collect();
    assert_eq!(
        algos,
        [
            "auto", "ddmin", "drdd", "probdd", "cdd", "wdd", "hdd", "perses", "tpdd"
        ]
    );
    let help = stdout_of(&sb, &["--help"]);
    for algo in &algos {
        assert!(
            help.contains(&format!("- {algo}:")),
            "--help does not list {algo}"
        );
        assert!(
            list.lines()
                .any(|l| l.trim_start().starts_with(&format!("{algo} "))),
            "--list-algos does not describe {algo}:\n{list}"
        );
    }
    let inner_line = list
        .lines()
        .find(|l| l.contains("--inner"))
        .expect("a line on --inner");
    for inner in Minimizer::ALL {
        let name = inner.name();
        assert!(
            inner_line.contains(name),
            "--list-algos does not name the inner minimizer {name}:\n{list}"
        );
    }
}

#[test]
fn version_names_the_package_version() {
    let sb = Sandbox::new();
    let version = stdout_of(&sb, &["--version"]);
    assert_eq!(
        version.trim(),
        format!("reduce {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn no_live_display_when_stderr_is_not_a_terminal_and_nothing_with_q() {
    let sb = Sandbox::new();
    sb.write("input.txt", "a b c d e f g h\n", false);
    sb.write("check.sh", "#!/bin/sh\ngrep -q e \"$1\"\n", true);
    let out = sb.reduce(&["--oracle", "./check.sh", "input.txt"]);
    assert_exit(&out, 0);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        !err.contains('\x1b') && !err.contains('\r'),
        "terminal control codes on a pipe: {err:?}"
    );
    assert!(err.lines().all(|l| l.starts_with("reduce: ")), "{err}");
    assert!(err.contains("result in input.reduced.txt"), "{err}");

    let out = sb.reduce(&["-q", "--oracle", "./check.sh", "input.txt", "-o", "q.txt"]);
    assert_exit(&out, 0);
    assert!(out.stderr.is_empty(), "-q printed {:?}", out.stderr);
    assert_eq!(String::from_utf8(sb.read("q.txt")).unwrap().trim(), "e");
}

#[test]
fn the_readmes_table_of_algorithms_is_the_registrys() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let table: Vec<&str> = readme
        .lines()
        .skip_while(|l| !l.starts_with("| `--algo` |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert_eq!(
        table,
        registry::readme_rows(),
        "README.md's table of algorithms differs from the registry (src/policy/registry.rs)"
    );
}
