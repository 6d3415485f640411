//! What a crash looks like, for `--same-crash`: a signature read from a
//! test's output and exit, so that a candidate counts only when it shows
//! the original's bug, not another one a smaller input reaches.
//!
//! Read in this order, the first that the output holds (the earliest in
//! it, when several do) being the signature: a sanitizer's report
//! (AddressSanitizer, MemorySanitizer, LeakSanitizer, ... `ERROR:` lines:
//! its error type and the top frames of its first stack; UBSan's `runtime
//! error:` lines: the error and its source location), a Rust panic (its
//! message and location), a Go panic (its message and top frames), a
//! Python traceback (the exception type and the innermost frames), a
//! failed C assertion (its condition and function); else the signal that
//! killed the process. Frames are function names (or, when a sanitizer
//! could not symbolize, the module and offset; never addresses), file
//! names without their directories. Numbers in messages become `N`
//! (`index 5 out of bounds` and `index 3 out of bounds` are one bug), and
//! so does the candidate's path, which differs from test to test.

use std::fmt;
use std::sync::LazyLock;

use regex::Regex;

use super::Exit;

/// The default number of frames a signature keeps (`--signature-frames`).
pub(crate) const DEFAULT_DEPTH: usize = 3;

/// A crash's identity: what went wrong and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Signature {
    /// What: `AddressSanitizer: heap-buffer-overflow`, `Rust panic: ...`,
    /// `signal SIGSEGV`.
    pub(crate) kind: String,
    /// Where: the top frames, innermost first (none for a bare signal).
    pub(crate) frames: Vec<String>,
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.kind)?;
        if !self.frames.is_empty() {
            write!(f, " in {}", self.frames.join(" < "))?;
        }
        Ok(())
    }
}

/// Reads one kind of report from an output: where it starts, and its
/// signature.
type Reader = fn(&str, usize) -> Option<(usize, Signature)>;

/// The signature of a run that ended with `exit` and printed `output`
/// (its stderr, then its stdout), keeping `depth` frames; `None` when it
/// shows no crash.
pub(crate) fn signature_of(exit: Exit, output: &str, depth: usize) -> Option<Signature> {
    let depth = depth.max(1);
    let readers: [Reader; 6] = [
        sanitizer, undefined, rust_panic, go_panic, python, assertion,
    ];
    let found = readers
        .iter()
        .filter_map(|read| read(output, depth))
        .min_by_key(|(at, _)| *at);
    if let Some((_, signature)) = found {
        return Some(signature);
    }
    fatal_signal(exit).map(|signal| Signature {
        kind: format!("signal {}", signal_name(signal)),
        frames: Vec::new(),
    })
}

/// The signal that killed the command, as the process's status says or as
/// a shell reports it (`128 + N`); SIGKILL and SIGTERM are how tests are
/// stopped, not crashes.
pub(crate) fn fatal_signal(exit: Exit) -> Option<i32> {
    let signal = match exit {
        Exit::Signal(s) if s > 0 => s,
        Exit::Code(c) if (129..=128 + 64).contains(&c) => c - 128,
        _ => return None,
    };
    (signal != libc::SIGKILL && signal != libc::SIGTERM).then_some(signal)
}

/// The signal names `--expect-signal` takes, with their numbers.
const SIGNALS: [(&str, i32); 12] = [
    ("SIGABRT", libc::SIGABRT),
    ("SIGSEGV", libc::SIGSEGV),
    ("SIGBUS", libc::SIGBUS),
    ("SIGFPE", libc::SIGFPE),
    ("SIGILL", libc::SIGILL),
    ("SIGTRAP", libc::SIGTRAP),
    ("SIGSYS", libc::SIGSYS),
    ("SIGPIPE", libc::SIGPIPE),
    ("SIGKILL", libc::SIGKILL),
    ("SIGTERM", libc::SIGTERM),
    ("SIGALRM", libc::SIGALRM),
    ("SIGXCPU", libc::SIGXCPU),
];

/// A signal by name (`SIGSEGV`, `segv`) or number.
pub(crate) fn signal_number(name: &str) -> Option<i32> {
    if let Ok(n) = name.parse::<i32>() {
        return (1..=64).contains(&n).then_some(n);
    }
    let upper = name.to_ascii_uppercase();
    let full = if upper.starts_with("SIG") {
        upper
    } else {
        format!("SIG{upper}")
    };
    SIGNALS.iter().find(|(n, _)| *n == full).map(|&(_, s)| s)
}

/// The names `--expect-signal` knows, for its error message.
pub(crate) fn signal_names() -> Vec<&'static str> {
    SIGNALS.iter().map(|(n, _)| *n).collect()
}

/// A signal's name (`SIGSEGV`), or its number.
pub(crate) fn signal_name(signal: i32) -> String {
    SIGNALS
        .iter()
        .find(|&&(_, s)| s == signal)
        .map_or_else(|| format!("signal {signal}"), |(n, _)| n.to_string())
}

fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).expect("a valid built-in pattern")
}

/// Numbers (and hex addresses) as `N`, runs of blanks as one space, at
/// most 200 characters.
pub(crate) fn normalize(message: &str) -> String {
    static NUMBER: LazyLock<Regex> = LazyLock::new(|| regex(r"0[xX][0-9a-fA-F]+|\d+"));
    let text = NUMBER.replace_all(message.trim(), "N");
    let words: Vec<&str> = text.split_whitespace().collect();
    words.join(" ").chars().take(200).collect()
}

/// `dir/file.c` as `file.c`.
fn base_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// A sanitizer's `ERROR:` (or MemorySanitizer's `WARNING:`) report: its
/// error type and the top frames of the stack after it.
fn sanitizer(output: &str, depth: usize) -> Option<(usize, Signature)> {
    static REPORT: LazyLock<Regex> =
        LazyLock::new(|| regex(r"(?m)^==\d+==\s*(?:ERROR|WARNING): (\w+Sanitizer): (.*)$"));
    let found = REPORT.captures(output)?;
    let at = found.get(0)?.start();
    let description = &found[2];
    // The error type: `heap-buffer-overflow on address ...`, `SEGV on
    // unknown address ...`, `attempting double-free on ...`.
    let end = [" on ", " at ", " (", ": "]
        .iter()
        .filter_map(|cut| description.find(cut))
        .min()
        .unwrap_or(description.len());
    let kind = format!("{}: {}", &found[1], normalize(&description[..end]));
    let rest = &output[found.get(0)?.end()..];
    Some((
        at,
        Signature {
            kind,
            frames: stack_frames(rest, depth),
        },
    ))
}

/// The first `depth` frames of the first sanitizer stack in `text`
/// (`#0 0x... in f file.c:12:5`), leaving out the sanitizer's own.
fn stack_frames(text: &str, depth: usize) -> Vec<String> {
    static FRAME: LazyLock<Regex> = LazyLock::new(|| regex(r"^\s*#(\d+) 0x[0-9a-fA-F]+ (.*)$"));
    let mut frames = Vec::new();
    let mut started = false;
    for line in text.lines() {
        let Some(found) = FRAME.captures(line) else {
            if started {
                break;
            }
            continue;
        };
        started = true;
        if let Some(name) = frame_name(&found[2])
            && frames.len() < depth
        {
            frames.push(name);
        }
    }
    frames
}

/// A sanitizer frame's function (`in parse file.c:12:5`, `in f(int, char*)
/// x.cc:3`), or its module and offset when it was not symbolized
/// (`(/path/prog+0x1234)`); `None` for the sanitizer's own frames.
fn frame_name(rest: &str) -> Option<String> {
    static MODULE: LazyLock<Regex> = LazyLock::new(|| regex(r"\(([^()\s]+)\+(0x[0-9a-fA-F]+)\)"));
    const OWN: [&str; 8] = [
        "__interceptor_",
        "___interceptor_",
        "__asan_",
        "__msan_",
        "__lsan_",
        "__ubsan_",
        "__sanitizer_",
        "__tsan_",
    ];
    if rest.contains("libsanitizer/") || rest.contains("compiler-rt/") {
        return None;
    }
    let Some(symbol) = rest.strip_prefix("in ") else {
        // Unsymbolized: a sanitizer's own frames are those in its runtime.
        const RUNTIMES: [&str; 6] = [
            "libasan",
            "libubsan",
            "libmsan",
            "liblsan",
            "libtsan",
            "libclang_rt",
        ];
        let found = MODULE.captures(rest)?;
        let module = base_name(&found[1]);
        if RUNTIMES.iter().any(|r| module.starts_with(r)) {
            return None;
        }
        return Some(format!("{module}+{}", &found[2]));
    };
    // The name ends where its location begins: a path, or a module.
    let mut words: Vec<&str> = symbol.split(' ').collect();
    while words.len() > 1 {
        let last = words[words.len() - 1];
        let location = last.contains('/')
            || last.starts_with("(BuildId:")
            || last.ends_with(')') && last.contains("+0x")
            || last
                .split(':')
                .nth(1)
                .is_some_and(|l| l.starts_with(|c: char| c.is_ascii_digit()));
        if !location {
            break;
        }
        words.pop();
    }
    let name = words.join(" ");
    let name = match name.find('(') {
        Some(open) if open > 0 => &name[..open],
        _ => &name,
    };
    if OWN.iter().any(|own| name.starts_with(own)) {
        return None;
    }
    Some(name.trim().to_string())
}

/// UBSan's `file.c:12:5: runtime error: ...`: the error (up to its first
/// colon) and its location.
fn undefined(output: &str, _depth: usize) -> Option<(usize, Signature)> {
    static ERROR: LazyLock<Regex> =
        LazyLock::new(|| regex(r"(?m)^(\S+?):(\d+):(?:\d+:)? runtime error: (.*)$"));
    let found = ERROR.captures(output)?;
    let message = &found[3];
    let message = message.split(": ").next().unwrap_or(message);
    Some((
        found.get(0)?.start(),
        Signature {
            kind: format!("UndefinedBehaviorSanitizer: {}", normalize(message)),
            frames: vec![format!("{}:{}", base_name(&found[1]), &found[2])],
        },
    ))
}

/// A Rust panic: `thread 'main' panicked at src/main.rs:5:9:` then its
/// message (Rust 1.73 on), or `panicked at 'message', src/main.rs:5:9`.
fn rust_panic(output: &str, _depth: usize) -> Option<(usize, Signature)> {
    static NEW: LazyLock<Regex> =
        LazyLock::new(|| regex(r"(?m)^thread '[^']*' panicked at (\S+?:\d+:\d+):\n(.*)$"));
    static OLD: LazyLock<Regex> =
        LazyLock::new(|| regex(r"(?m)^thread '[^']*' panicked at '(.*)', (\S+?:\d+:\d+)$"));
    let (at, message, location) = if let Some(found) = NEW.captures(output) {
        (
            found.get(0)?.start(),
            found[2].to_string(),
            found[1].to_string(),
        )
    } else {
        let found = OLD.captures(output)?;
        (
            found.get(0)?.start(),
            found[1].to_string(),
            found[2].to_string(),
        )
    };
    Some((
        at,
        Signature {
            kind: format!("Rust panic: {}", normalize(&message)),
            frames: vec![location],
        },
    ))
}

/// A Go panic: `panic: message`, then the top frames of the panicking
/// goroutine (`main.parse(...)` lines), the runtime's own left out.
fn go_panic(output: &str, depth: usize) -> Option<(usize, Signature)> {
    static PANIC: LazyLock<Regex> =
        LazyLock::new(|| regex(r"(?m)^panic: (.*)$\n(?:.*\n)*?goroutine \d+ \[[^\]]*\]:$"));
    static FUNCTION: LazyLock<Regex> = LazyLock::new(|| regex(r"^([\w./*()\[\]-]+?)\(.*\)$"));
    let found = PANIC.captures(output)?;
    let message = found[1].trim_end_matches(" [recovered]");
    let rest = &output[found.get(0)?.end()..];
    let frames = rest
        .lines()
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .filter(|line| !line.starts_with('\t'))
        .filter_map(|line| FUNCTION.captures(line).map(|f| f[1].to_string()))
        .filter(|name| name != "panic" && !name.starts_with("runtime."))
        .take(depth)
        .collect();
    Some((
        found.get(0)?.start(),
        Signature {
            kind: format!("Go panic: {}", normalize(message)),
            frames,
        },
    ))
}

/// A Python traceback (the last, when exceptions were chained): the
/// exception's type and the innermost frames (`file.py:12 in f`).
fn python(output: &str, depth: usize) -> Option<(usize, Signature)> {
    static FRAME: LazyLock<Regex> =
        LazyLock::new(|| regex(r#"^  File "([^"]*)", line (\d+), in (.*)$"#));
    static EXCEPTION: LazyLock<Regex> = LazyLock::new(|| regex(r"^([A-Za-z_][\w.]*)(?::|$)"));
    let at = output.rfind("Traceback (most recent call last):")?;
    let mut frames = Vec::new();
    let mut kind = None;
    for line in output[at..].lines().skip(1) {
        if let Some(frame) = FRAME.captures(line) {
            frames.push(format!(
                "{}:{} in {}",
                base_name(&frame[1]),
                &frame[2],
                &frame[3]
            ));
        } else if !line.starts_with(' ') {
            kind = EXCEPTION.captures(line).map(|e| e[1].to_string());
            break;
        }
    }
    frames.reverse();
    frames.truncate(depth);
    Some((
        at,
        Signature {
            kind: format!("Python {}", kind?),
            frames,
        },
    ))
}

/// A failed C assertion: glibc's `prog: file.c:12: f: Assertion `x' failed.`
/// or musl's `Assertion failed: x (file.c: f: 12)`.
fn assertion(output: &str, _depth: usize) -> Option<(usize, Signature)> {
    static GLIBC: LazyLock<Regex> =
        LazyLock::new(|| regex(r"(?m)(\S+?):(\d+): (.*?): Assertion [`'](.*)' failed\.$"));
    static MUSL: LazyLock<Regex> =
        LazyLock::new(|| regex(r"(?m)Assertion failed: (.*) \((\S+?): (.*?): (\d+)\)$"));
    let (at, condition, function, file) = if let Some(found) = GLIBC.captures(output) {
        let file = format!("{}:{}", base_name(&found[1]), &found[2]);
        (
            found.get(0)?.start(),
            found[4].to_string(),
            found[3].to_string(),
            file,
        )
    } else {
        let found = MUSL.captures(output)?;
        let file = format!("{}:{}", base_name(&found[2]), &found[4]);
        (
            found.get(0)?.start(),
            found[1].to_string(),
            found[3].to_string(),
            file,
        )
    };
    Some((
        at,
        Signature {
            kind: format!("assertion `{}' failed", condition.trim()),
            frames: vec![format!("{function} ({file})")],
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ASAN: &str = "\
=================================================================
==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000015 at pc 0x55d0 bp 0x7ffc sp 0x7ff8
READ of size 1 at 0x602000000015 thread T0
    #0 0x7f1c2 in __interceptor_memcpy ../../../../src/libsanitizer/sanitizer_common/sanitizer_common_interceptors.inc:827
    #1 0x55d0c1 in read_record /tmp/two/target.c:21:5
    #2 0x55d0c2 in parse(char const*, unsigned long) /tmp/two/target.c:40
    #3 0x55d0c3 in main /tmp/two/target.c:60:9
    #4 0x7f1c3 in __libc_start_main ../csu/libc-start.c:308

0x602000000015 is located 0 bytes to the right of 5-byte region
allocated by thread T0 here:
    #0 0x7f1c4 in malloc
    #1 0x55d0c4 in main /tmp/two/target.c:55
";

    fn sig(exit: Exit, output: &str, depth: usize) -> String {
        signature_of(exit, output, depth).map_or("none".into(), |s| s.to_string())
    }

    #[test]
    fn a_sanitizer_report_gives_its_error_type_and_the_top_frames_of_its_first_stack() {
        assert_eq!(
            sig(Exit::Code(1), ASAN, 3),
            "AddressSanitizer: heap-buffer-overflow in read_record < parse < main"
        );
        assert_eq!(
            sig(Exit::Code(1), ASAN, 1),
            "AddressSanitizer: heap-buffer-overflow in read_record"
        );
        let unsymbolized = "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x1 T0)\n\
            \x20   #0 0x7f03bce48060  (/lib/x86_64-linux-gnu/libasan.so.8+0x48060)\n\
            \x20   #0 0x55d0c1  (/tmp/two/target+0x11c9) (BuildId: 3f2a)\n\
            \x20   #1 0x55d0c2  (/tmp/two/target+0x1234)\n";
        assert_eq!(
            sig(Exit::Code(1), unsymbolized, 3),
            "AddressSanitizer: SEGV in target+0x11c9 < target+0x1234"
        );
    }

    #[test]
    fn panics_tracebacks_and_assertions_give_their_message_and_place() {
        let rust = "thread 'main' panicked at src/main.rs:7:13:\nindex out of bounds: the len is 3 but the index is 5\nnote: run with `RUST_BACKTRACE=1`\n";
        assert_eq!(
            sig(Exit::Code(101), rust, 3),
            "Rust panic: index out of bounds: the len is N but the index is N in src/main.rs:7:13"
        );
        let python = "Traceback (most recent call last):\n  File \"/x/prog.py\", line 12, in <module>\n    main()\n  File \"/x/prog.py\", line 9, in parse\n    raise ValueError(b)\nValueError: bad tag 7\n";
        assert_eq!(
            sig(Exit::Code(1), python, 1),
            "Python ValueError in prog.py:9 in parse"
        );
        let go = "panic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:\nmain.parse({0xc000, 0x3, 0x8})\n\t/x/main.go:12 +0x1d\nmain.main()\n\t/x/main.go:20 +0x2a\nexit status 2\n";
        assert_eq!(
            sig(Exit::Code(2), go, 3),
            "Go panic: runtime error: index out of range [N] with length N in main.parse < main.main"
        );
        let assert = "prog: prog.c:14: check: Assertion `n < 4' failed.\n";
        assert_eq!(
            sig(Exit::Signal(libc::SIGABRT), assert, 3),
            "assertion `n < 4' failed in check (prog.c:14)"
        );
        let ubsan = "prog.c:9:11: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'\n";
        assert_eq!(
            sig(Exit::Code(0), ubsan, 3),
            "UndefinedBehaviorSanitizer: signed integer overflow in prog.c:9"
        );
    }

    #[test]
    fn without_a_report_the_fatal_signal_is_the_signature_and_a_clean_exit_has_none() {
        assert_eq!(sig(Exit::Signal(libc::SIGSEGV), "", 3), "signal SIGSEGV");
        assert_eq!(sig(Exit::Code(139), "", 3), "signal SIGSEGV");
        assert_eq!(sig(Exit::Code(1), "error: bad input\n", 3), "none");
        assert_eq!(sig(Exit::Timeout, "", 3), "none");
        assert_eq!(sig(Exit::Signal(libc::SIGKILL), "", 3), "none");
    }

    #[test]
    fn signals_are_named_or_numbered() {
        assert_eq!(signal_number("SIGSEGV"), Some(libc::SIGSEGV));
        assert_eq!(signal_number("abrt"), Some(libc::SIGABRT));
        assert_eq!(signal_number("11"), Some(11));
        assert_eq!(signal_number("SIGNOPE"), None);
        assert_eq!(signal_number("0"), None);
        assert_eq!(signal_name(libc::SIGFPE), "SIGFPE");
    }
}
