//! The `reduce` command: parses flags, prints completions or the man page when
//! asked (`completions.rs`), installs signal handlers, hands over to the library.

mod completions;

use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use reduce::app::{self, Failure, Signals};
use reduce::cli::Cli;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(command) = &cli.command {
        return completions::run(command);
    }
    let signals = Signals::default();
    if let Err(e) = install_signal_handlers(&signals) {
        eprintln!("reduce: error: cannot install signal handlers: {e}");
        return ExitCode::from(app::exit::ERROR as u8);
    }
    match app::run(cli, &signals) {
        Ok(code) => ExitCode::from(code as u8),
        Err(err) => {
            let code = err
                .downcast_ref::<Failure>()
                .map_or(app::exit::ERROR, |f| f.code);
            eprintln!("reduce: error: {err:#}");
            ExitCode::from(code as u8)
        }
    }
}

/// SIGINT, SIGTERM and SIGHUP ask the run to stop cleanly; a second one of
/// them while stopping stops the running tests' process groups and exits at
/// once with the conventional code.
fn install_signal_handlers(signals: &Signals) -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::flag;
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
    }
    Ok(())
}
