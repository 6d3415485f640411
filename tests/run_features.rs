//! Run-level features through the binary: `--history`, `--memory-limit`,
//! `--restart`, `--reduce-with`, `--propose-with`, `--llm-url` and the
//! re-test of the best (`--retest-every`).

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::tree::reduce_fixture;
use crate::util::{Sandbox, assert_exit, assert_invariants, stats};

/// Lines `1` to `n`.
fn numbers(n: u32) -> String {
    (1..=n).map(|i| format!("{i}\n")).collect()
}

/// A sandbox with `in.txt` holding lines 1..=n and `keep.sh` accepting
/// files that still hold the lines 2 and 7.
fn lines_sandbox(n: u32) -> Sandbox {
    let sb = Sandbox::new();
    sb.write("in.txt", &numbers(n), false);
    sb.write(
        "keep.sh",
        "#!/bin/sh\ngrep -qx 2 \"$1\" && grep -qx 7 \"$1\"\n",
        true,
    );
    sb
}

/// Runs `reduce` on `in.txt` with `keep.sh`, line units, `extra` flags,
/// stats in `s.json`; returns stderr and the stats.
fn run_lines(sb: &Sandbox, extra: &[&str]) -> (String, serde_json::Value) {
    run_lines_env(sb, extra, &[])
}

/// [`run_lines`] with extra environment variables.
fn run_lines_env(
    sb: &Sandbox,
    extra: &[&str],
    env: &[(&str, &str)],
) -> (String, serde_json::Value) {
    let mut args = vec![
        "--unit",
        "line",
        "--timeout",
        "30",
        "--oracle",
        "keep.sh",
        "in.txt",
        "-o",
        "out.txt",
        "--stats-json",
        "s.json",
    ];
    args.extend(extra);
    let out = sb.reduce_env(&args, env);
    assert_exit(&out, 0);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (err, stats(sb, "s.json"))
}

#[test]
fn history_holds_the_original_then_every_accepted_step_in_order() {
    let sb = lines_sandbox(12);
    let (_, s) = run_lines(&sb, &["--history", "steps"]);
    let mut names: Vec<String> = fs::read_dir(sb.path().join("steps"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names[0], "0000-original.txt");
    assert_eq!(sb.read("steps/0000-original.txt"), numbers(12).as_bytes());
    assert_eq!(names.len() as u64, 1 + s["successes"].as_u64().unwrap());
    let mut last = usize::MAX;
    for (i, name) in names.iter().enumerate() {
        assert!(name.starts_with(&format!("{i:04}-")), "{names:?}");
        assert!(name.ends_with(".txt"), "{name}");
        let size = sb.read(&format!("steps/{name}")).len();
        assert!(size < last, "step {name} did not shrink");
        last = size;
    }
    let final_step = sb.read(&format!("steps/{}", names.last().unwrap()));
    assert_eq!(final_step, sb.read("out.txt"));
    assert!(
        !names.iter().any(|n| n.starts_with('.')),
        "a temporary file was left: {names:?}"
    );
    assert_invariants(
        &sb,
        "keep.sh",
        "in.txt",
        numbers(12).as_bytes(),
        "out.txt",
        &["--unit", "line"],
    );
}

#[test]
fn an_unparsable_memory_limit_is_refused_with_one_line_and_exit_2() {
    let sb = lines_sandbox(3);
    for bad in ["lots", "12X", "0", "G"] {
        let out = sb.reduce(&["--memory-limit", bad, "--oracle", "keep.sh", "in.txt"]);
        assert_exit(&out, 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains("--memory-limit") && err.contains(bad), "{err}");
    }
}

#[test]
fn a_test_allocating_8_gb_under_a_512m_limit_is_not_interesting_and_named_in_the_summary() {
    let sb = lines_sandbox(12);
    // Any candidate without line 5 makes the oracle allocate 8 GB; under
    // the limit that fails at once (MemoryError).
    sb.write(
        "keep.sh",
        "#!/bin/sh\n\
         grep -qx 5 \"$1\" || python3 -c 'b = bytearray(8 << 30)' || exit 1\n\
         grep -qx 2 \"$1\" && grep -qx 7 \"$1\"\n",
        true,
    );
    let (err, s) = run_lines(&sb, &["--memory-limit", "512M", "-j", "1"]);
    assert_eq!(sb.read("out.txt"), b"2\n5\n7\n");
    let summary = err.lines().last().unwrap();
    assert!(
        summary.contains("ran out of memory under --memory-limit 512M"),
        "{err}"
    );
    assert_eq!(err.matches("a test ran out of memory").count(), 1, "{err}");
    assert!(s["memory_limit_hits"].as_u64().unwrap() > 0);
    assert_eq!(s["memory_limit_bytes"].as_u64(), Some(512 << 20));
}

#[test]
fn restart_never_ends_larger_and_reports_what_it_gained() {
    let args = ["--restart", "-j", "1"];
    let (_, with, _) = reduce_fixture("c-implicit", "lax.c", &args);
    let (_, without, _) = reduce_fixture("c-implicit", "lax.c", &["-j", "1"]);
    let restart = &with["restart"];
    assert!(restart["restarts"].as_u64().unwrap() >= 1, "{restart}");
    let size = |s: &serde_json::Value| (s["units_after"].as_u64(), s["bytes_after"].as_u64());
    assert!(size(&with) <= size(&without));
    assert_eq!(
        restart["units_gained"].as_u64().unwrap(),
        restart["units_at_fixpoint"].as_u64().unwrap() - with["units_after"].as_u64().unwrap()
    );
    assert_eq!(
        restart["units_at_fixpoint"].as_u64(),
        without["units_after"].as_u64(),
        "the first run is the run without --restart"
    );
    assert!(without["restart"].is_null());
}

#[test]
fn restart_is_named_in_the_summary_and_no_restart_turns_it_off() {
    let sb = lines_sandbox(12);
    let (err, s) = run_lines(&sb, &["--restart"]);
    assert!(err.contains("--restart ("), "{err}");
    assert!(!s["restart"].is_null());
    let (err, s) = run_lines(&sb, &["--restart", "--no-restart"]);
    assert!(!err.contains("--restart ("), "{err}");
    assert!(s["restart"].is_null());
}

/// [`lines_sandbox`] whose oracle, `has.sh`, accepts any file holding a
/// `2` and a `7` anywhere: the line passes stop at `2\n7\n`, where an
/// outside `27\n` is smaller still.
fn digits_sandbox(n: u32) -> Sandbox {
    let sb = lines_sandbox(n);
    sb.write(
        "keep.sh",
        "#!/bin/sh\ngrep -q 2 \"$1\" && grep -q 7 \"$1\"\n",
        true,
    );
    sb
}

/// Writes the outside reducer `name` (a shell script body run on the file `$1`).
fn engine(sb: &Sandbox, name: &str, body: &str) {
    sb.write(name, &format!("#!/bin/sh\n{body}\n"), true);
}

#[test]
fn an_outside_reducer_that_shrinks_the_file_is_kept() {
    let sb = digits_sandbox(12);
    engine(
        &sb,
        "good.sh",
        "grep -q 2 \"$1\" && printf '27\\n' > \"$1\"",
    );
    let (err, s) = run_lines(
        &sb,
        &[
            "--algo",
            "ddmin",
            "--reduce-with",
            "./good.sh",
            "--history",
            "h",
        ],
    );
    assert_eq!(sb.read("out.txt"), b"27\n", "{err}");
    let phases = s["phases"].as_array().unwrap();
    assert!(phases.iter().any(|p| p["name"] == "reduce-with"), "{s}");
    let names: Vec<String> = fs::read_dir(sb.path().join("h"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().any(|n| n.ends_with("-reduce-with.txt")),
        "{names:?}"
    );
}

#[test]
fn an_outside_reducer_that_crashes_hangs_or_grows_the_file_changes_nothing() {
    for (name, body, said) in [
        (
            "crash.sh",
            "kill -SEGV $$",
            "crash.sh: failed (exit code 139)",
        ),
        ("hang.sh", "sleep 600", "failed (timed out)"),
        (
            "grow.sh",
            "cat \"$1\" \"$1\" > \"$1.2\" && mv \"$1.2\" \"$1\"",
            "grow.sh: gave a result larger than its input",
        ),
        ("wrong.sh", "echo 1 > \"$1\"", ""),
    ] {
        let sb = lines_sandbox(12);
        engine(&sb, name, body);
        // The hang waits out the oracle's timeout once (a generous one for
        // a check that greps a dozen lines, as the tests run on loaded
        // machines).
        let out = sb.reduce(&[
            "--unit",
            "line",
            "--timeout",
            "8",
            "--oracle",
            "keep.sh",
            "in.txt",
            "-o",
            "out.txt",
            "--reduce-with",
            &format!("./{name}"),
        ]);
        assert_exit(&out, 0);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(sb.read("out.txt"), b"2\n7\n", "{name}: {err}");
        if !said.is_empty() {
            assert_eq!(err.matches(said).count(), 1, "{name}: said once: {err}");
        }
        sb.assert_no_temp_left();
    }
}

#[test]
fn proposals_are_judged_by_the_oracle_and_only_a_good_smaller_one_is_kept() {
    let sb = digits_sandbox(12);
    // A wrong candidate, garbage, a bigger one, and the good one.
    sb.write(
        "propose.sh",
        "#!/bin/sh\ncat > /dev/null\n\
         printf '1\\n---- reduce candidate ----\\n\\377\\n'\n\
         printf -- '---- reduce candidate ----\\n'\n\
         seq 1 40\n\
         printf -- '---- reduce candidate ----\\n72\\n'\n",
        true,
    );
    let (err, s) = run_lines(&sb, &["--algo", "ddmin", "--propose-with", "./propose.sh"]);
    assert_eq!(sb.read("out.txt"), b"72\n", "{err}");
    let proposal = s["phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "propose-with")
        .expect("a propose-with phase");
    assert!(proposal["successes"].as_u64().unwrap() == 1, "{s}");
    assert!(
        proposal["tests"].as_u64().unwrap() >= 2,
        "the wrong one was tested too: {s}"
    );
}

/// A chat-completions server on 127.0.0.1 answering every request with
/// `content`, in a thread; returns its base URL and a count of requests.
fn chat_server(content: &'static str) -> (String, Arc<AtomicUsize>) {
    chat_server_with(content, None, None)
}

/// [`chat_server`] over TLS with `tls`'s certificate (an https URL), and
/// checking for `key` as the bearer token when given.
fn chat_server_with(
    content: &'static str,
    tls: Option<Arc<rustls::ServerConfig>>,
    key: Option<&'static str>,
) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let scheme = if tls.is_some() { "https" } else { "http" };
    let url = format!("{scheme}://{}/v1", listener.local_addr().unwrap());
    let served = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&served);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { return };
            let answered = match &tls {
                None => answer(stream, content, key),
                Some(config) => {
                    let Ok(conn) = rustls::ServerConnection::new(Arc::clone(config)) else {
                        return;
                    };
                    answer(rustls::StreamOwned::new(conn, stream), content, key)
                }
            };
            if answered {
                count.fetch_add(1, Ordering::SeqCst);
            }
        }
    });
    (url, served)
}

/// Reads one chat request from `stream` and answers it with `content`;
/// whether it was a well-formed request (with `key`, if given).
fn answer(mut stream: impl Read + Write, content: &str, key: Option<&str>) -> bool {
    let mut reader = BufReader::new(&mut stream);
    let mut length = 0;
    let mut request_line = String::new();
    let mut authorized = key.is_none();
    if reader.read_line(&mut request_line).is_err() {
        return false; // a client that gave up on the handshake
    }
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        if line.trim().is_empty() {
            break;
        }
        let lower = line.to_ascii_lowercase();
        if let Some(v) = lower.strip_prefix("content-length:") {
            length = v.trim().parse().unwrap();
        }
        if let Some(key) = key {
            authorized |= line
                .trim()
                .eq_ignore_ascii_case(&format!("authorization: Bearer {key}"));
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    drop(reader);
    let request: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert!(request_line.starts_with("POST /v1/chat/completions "));
    assert_eq!(request["model"], "tiny");
    let (status, reply) = if authorized {
        let reply = serde_json::json!({
            "choices": [{"message": {"role": "assistant", "content": content}}]
        });
        ("200 OK", reply.to_string())
    } else {
        ("401 Unauthorized", "{}".to_string())
    };
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{reply}",
        reply.len()
    );
    let _ = stream.flush();
    authorized
}

/// A TLS server configuration with a fresh self-signed certificate for
/// 127.0.0.1, and that certificate as PEM (for the client to trust).
fn self_signed() -> (Arc<rustls::ServerConfig>, String) {
    let made = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_string()]).unwrap();
    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(made.signing_key.serialize_der().into());
    // The process's default provider: ring, the one the build enables.
    let config = rustls::ServerConfig::builder()
        .with_no_client_auth()
        .with_single_cert(vec![made.cert.der().clone()], key)
        .unwrap();
    (Arc::new(config), made.cert.pem())
}

#[test]
fn a_chat_model_over_https_with_a_key_from_the_environment_proposes_candidates() {
    let sb = digits_sandbox(12);
    let (tls, pem) = self_signed();
    sb.write("ca.pem", &pem, false);
    let (url, served) = chat_server_with("```\n27\n```\n", Some(tls), Some("s3cret"));
    let args = [
        "--algo",
        "ddmin",
        "--llm-url",
        &url,
        "--llm-model",
        "tiny",
        "--llm-key-env",
        "TEST_LLM_KEY",
    ];
    // Trusted through --llm-ca-cert, and through SSL_CERT_FILE.
    let with_ca = [&args[..], &["--llm-ca-cert", "ca.pem"]].concat();
    let key = ("TEST_LLM_KEY", "s3cret");
    for (args, env) in [
        (&with_ca, vec![key]),
        (&args.to_vec(), vec![key, ("SSL_CERT_FILE", "ca.pem")]),
    ] {
        let (err, _) = run_lines_env(&sb, args, &env);
        assert_eq!(sb.read("out.txt"), b"27\n", "{err}");
    }
    // Asked at each fixpoint, at least once a run.
    let answered = served.load(Ordering::SeqCst);
    assert!(answered >= 2, "{answered}");
    // Without the certificate the server is not trusted; the run goes on.
    let (err, _) = run_lines_env(&sb, &args, &[("TEST_LLM_KEY", "s3cret")]);
    assert_eq!(err.matches("--llm-url").count(), 1, "{err}");
    assert_eq!(served.load(Ordering::SeqCst), answered);
    // A key variable that is not set is refused before any test.
    let out = sb.reduce(&[
        "--oracle",
        "keep.sh",
        "in.txt",
        "--llm-url",
        &url,
        "--llm-model",
        "tiny",
        "--llm-key-env",
        "NO_SUCH_VARIABLE_FOR_REDUCE",
    ]);
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("NO_SUCH_VARIABLE_FOR_REDUCE"));
}

#[test]
fn a_chat_model_on_loopback_proposes_candidates_that_the_oracle_judges() {
    let sb = digits_sandbox(12);
    let (url, served) =
        chat_server("Sure:\n```\n2\n```\n```\nnot a number at all\n```\n```\n27\n```\n");
    let (err, s) = run_lines(
        &sb,
        &["--algo", "ddmin", "--llm-url", &url, "--llm-model", "tiny"],
    );
    assert!(served.load(Ordering::SeqCst) >= 1);
    assert_eq!(sb.read("out.txt"), b"27\n", "{err}");
    let llm = s["phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "llm")
        .expect("an llm phase");
    assert!(llm["tests"].as_u64().unwrap() >= 1, "{s}");
}

#[test]
fn an_unreachable_model_is_said_once_and_changes_nothing() {
    let sb = lines_sandbox(12);
    // A port nobody listens on: bound, then closed.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/v1");
    let (err, _) = run_lines(&sb, &["--llm-url", &url, "--llm-model", "tiny"]);
    assert_eq!(sb.read("out.txt"), b"2\n7\n");
    assert_eq!(err.matches("--llm-url").count(), 1, "{err}");
}

/// A `keep.sh` counting its calls in `$COUNTER`: honest for the first 12,
/// then exiting with `later` (a shell expression of the call number `n`),
/// whatever the candidate.
fn turns_flaky(sb: &Sandbox, later: &str) {
    sb.write(
        "keep.sh",
        &format!(
            "#!/bin/sh\n\
             n=$(cat \"$COUNTER\" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > \"$COUNTER\"\n\
             [ $n -gt 12 ] && exit {later}\n\
             grep -qx 2 \"$1\" && grep -qx 7 \"$1\"\n"
        ),
        true,
    );
}

/// Runs `reduce` with the oracle of [`turns_flaky`] on `in.txt`, with `extra` flags.
fn run_flaky(sb: &Sandbox, extra: &[&str]) -> std::process::Output {
    let counter = sb.path().join("calls");
    let mut args = vec![
        "--unit",
        "line",
        "--algo",
        "ddmin",
        "-j",
        "1",
        "--timeout",
        "30",
        "--oracle",
        "keep.sh",
        "in.txt",
        "-o",
        "out.txt",
    ];
    args.extend(extra);
    sb.reduce_env(&args, &[("COUNTER", counter.to_str().unwrap())])
}

/// Whether `path` holds the lines 2 and 7 (what the honest oracle wants).
fn honest_result(sb: &Sandbox, path: &str) -> bool {
    let text = String::from_utf8(sb.read(path)).unwrap();
    text.lines().any(|l| l == "2") && text.lines().any(|l| l == "7")
}

#[test]
fn a_best_that_fails_its_retest_stops_the_run_and_the_last_result_passing_twice_is_kept() {
    let sb = lines_sandbox(40);
    // Passes every odd call, fails every even one: the re-test right after
    // the first lucky pass fails.
    turns_flaky(&sb, "$((1 - n % 2))");
    let out = run_flaky(&sb, &["--retest-every", "1"]);
    assert_exit(&out, 1);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("failed when tested again"), "{err}");
    assert!(err.contains("it failed a re-test during the run"), "{err}");
    assert!(err.contains("last result that passed twice"), "{err}");
    assert!(honest_result(&sb, "out.txt"), "{err}");
    assert!(sb.read("out.txt").len() <= numbers(40).len());
    sb.assert_no_temp_left();
}

#[test]
fn a_result_that_fails_the_final_check_gives_way_to_the_last_one_passing_twice() {
    let sb = lines_sandbox(40);
    turns_flaky(&sb, "1");
    let out = run_flaky(&sb, &["--retest-every", "0"]);
    assert_exit(&out, 1);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("in the final check"), "{err}");
    // Without re-tests during the run, only the original passed twice.
    assert_eq!(sb.read("out.txt"), numbers(40).as_bytes(), "{err}");
}

#[test]
fn retests_of_an_honest_oracle_pass_and_are_counted() {
    let sb = lines_sandbox(40);
    let (_, s) = run_lines(&sb, &["--algo", "ddmin", "--retest-every", "1"]);
    assert_eq!(sb.read("out.txt"), b"2\n7\n");
    assert_eq!(s["retests"], s["successes"]);
}
