//! `node-host`: explains, forwards or runs `system.run` requests under the
//! approvals policy. Thin: parse, run, map the outcome to an exit code.

// No `unsafe`: among other things, the process environment children
// inherit cannot change after start (`set_var` needs `unsafe`).
#![forbid(unsafe_code)]

use std::process::ExitCode;

fn main() -> ExitCode {
    node_host::cli::main()
}
