//! `node-host`: explains, forwards or runs `system.run` requests under the
//! approvals policy. Thin: parse, run, map the outcome to an exit code.

use std::process::ExitCode;

fn main() -> ExitCode {
    node_host::cli::main()
}
