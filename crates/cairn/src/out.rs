//! Standard output for commands whose reader may go away (`cairn search ... | head`):
//! writes report failure instead of panicking, and a closed pipe ends the command
//! quietly with success, as other command-line tools do.

/// Writes a line to standard output, returning from the function with the error when
/// it fails (a closed pipe included; see [`closed_pipe`]).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)?
    }};
}
pub(crate) use outln;

/// Whether an error comes from writing to a pipe whose reader has gone.
pub(crate) fn closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_pipe_is_found_under_context() {
        let io = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        let e = anyhow::Error::from(io).context("writing the export");
        assert!(closed_pipe(&e));
        assert!(!closed_pipe(&anyhow::anyhow!("no such caption")));
    }
}
