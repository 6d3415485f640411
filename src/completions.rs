//! `reduce completions SHELL` and `reduce man`: a shell completion script and
//! a man page, both generated from the clap definition in `reduce::cli`, so
//! they always list the flags the binary really takes.

use std::io::Write;
use std::process::ExitCode;

use clap::CommandFactory;
use reduce::cli::{AFTER_HELP, Cli, Command};
use reduce::exit;

/// Prints what `command` asks for on standard output; returns the exit code.
pub fn run(command: &Command) -> ExitCode {
    let text = match command {
        Command::Completions { shell } => completion_script(*shell),
        Command::Man => man_page(),
    };
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(&text).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // `reduce man | head`: the reader has seen enough.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("reduce: error: cannot write to standard output: {e}");
            ExitCode::from(exit::ERROR as u8)
        }
    }
}

/// The completion script for `shell`.
pub fn completion_script(shell: clap_complete::Shell) -> Vec<u8> {
    let mut text = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "reduce", &mut text);
    text
}

/// The man page, in roff: clap_mangen's sections, with `--help`'s examples
/// and exit codes as sections of their own, their lines kept as they are.
pub fn man_page() -> Vec<u8> {
    let command = Cli::command().after_help(None::<&str>);
    let mut page = Vec::new();
    clap_mangen::Man::new(command)
        .render(&mut page)
        .expect("writing to a Vec cannot fail");
    let mut page = String::from_utf8(page).expect("clap_mangen writes UTF-8");
    let (examples, exit_codes) = AFTER_HELP
        .split_once("\nExit codes:\n")
        .expect("--help lists the exit codes");
    let extra = format!(
        "{}{}",
        verbatim_section("EXAMPLES", examples),
        verbatim_section("\"EXIT STATUS\"", exit_codes)
    );
    let at = page.find("\n.SH VERSION").map_or(page.len(), |i| i + 1);
    page.insert_str(at, &extra);
    page.into_bytes()
}

/// A man page section whose lines are shown as written (no filling).
fn verbatim_section(title: &str, text: &str) -> String {
    let mut roff = format!(".SH {title}\n.nf\n");
    for line in text.lines() {
        if line.starts_with(['.', '\'']) {
            roff.push_str("\\&");
        }
        for c in line.chars() {
            match c {
                '\\' => roff.push_str("\\e"),
                // Plain ASCII, so that commands can be copied from the page.
                '-' => roff.push_str("\\-"),
                '\'' => roff.push_str("\\*(Aq"),
                '`' => roff.push_str("\\(ga"),
                '^' => roff.push_str("\\(ha"),
                '~' => roff.push_str("\\(ti"),
                c => roff.push(c),
            }
        }
        roff.push('\n');
    }
    roff.push_str(".fi\n");
    roff
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbatim_text_is_escaped_for_roff() {
        assert_eq!(
            verbatim_section("X", ".a 'b' -c\\d"),
            ".SH X\n.nf\n\\&.a \\*(Aqb\\*(Aq \\-c\\ed\n.fi\n"
        );
    }
}
