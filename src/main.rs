//! The `reduce` command: parses flags into settings, prints completions or
//! the man page (`completions.rs`) or the algorithms when asked, installs
//! signal handlers, hands over to the library.

mod completions;

use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use reduce::app::{self, Signals};
use reduce::cli::Cli;
use reduce::exit;
use reduce::policy::registry;

fn main() -> ExitCode {
    reduce::allocator::tune();
    let cli = Cli::parse();
    if let Some(command) = &cli.command {
        return completions::run(command);
    }
    if cli.list_algos {
        print!("{}", registry::list_algos());
        return ExitCode::from(exit::OK as u8);
    }
    let settings = match cli.settings() {
        Ok(settings) => settings,
        Err(err) => return failed(&err),
    };
    let signals = Signals::default();
    if let Err(e) = install_signal_handlers(&signals) {
        eprintln!("reduce: error: cannot install signal handlers: {e}");
        return ExitCode::from(exit::ERROR as u8);
    }
    match app::run(&settings, &signals) {
        Ok(code) => ExitCode::from(code as u8),
        Err(err) => failed(&err),
    }
}

/// Prints `err` and returns its exit code.
fn failed(err: &anyhow::Error) -> ExitCode {
    eprintln!("reduce: error: {err:#}");
    ExitCode::from(exit::code_of(err) as u8)
}

/// SIGINT, SIGTERM and SIGHUP ask the run to stop cleanly; a second one of
/// them while stopping stops the running tests' process groups and exits at
/// once with the conventional code.
fn install_signal_handlers(signals: &Signals) -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::flag;
    reduce::interfaces::make_interrupt_wake();
    for sig in [SIGINT, SIGTERM, SIGHUP] {
        // Runs before the conditional shutdown below (handlers run in the
        // order they were registered).
        let stopping = Arc::clone(&signals.interrupted);
        // SAFETY: the action only loads atomics and calls killpg, both
        // async-signal-safe.
        unsafe {
            signal_hook::low_level::register(sig, move || {
                if stopping.load(std::sync::atomic::Ordering::SeqCst) {
                    reduce::oracle::stop_running_tests();
                }
            })?;
        }
        flag::register_conditional_shutdown(sig, 128 + sig, Arc::clone(&signals.interrupted))?;
        flag::register(sig, Arc::clone(&signals.interrupted))?;
        flag::register_usize(sig, Arc::clone(&signals.last_signal), sig as usize)?;
        // After the flag is set: a test woken by it finds the flag set.
        // SAFETY: the action only loads an atomic and writes to an eventfd,
        // both async-signal-safe.
        unsafe {
            signal_hook::low_level::register(sig, reduce::interfaces::wake_interrupted)?;
        }
    }
    Ok(())
}
