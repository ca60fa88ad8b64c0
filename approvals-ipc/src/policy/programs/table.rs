//! The programs table: one row per program the engine treats specially,
//! sorted by name, each with its kinds and the reason it is special.
//!
//! Semantic wrapper reasons are shown to the user when a wrapper is refused.
//! Adding a row only ever makes the engine stricter for that name: it is
//! asked about, refused or persisted as an exact command, never unwrapped
//! unless it is a transparent wrapper or a POSIX shell.

use super::Kind::{
    AppletRunner, CodeOnStdin, Interpreter, MultiCall, OtherShell, PosixShell, SemanticWrapper,
    TransparentWrapper,
};
use super::{Kind, Program};

const fn p(name: &'static str, kinds: &'static [Kind], reason: &'static str) -> Program {
    Program {
        name,
        kinds,
        reason,
    }
}

/// Every program the engine has special knowledge of, sorted by name.
pub const PROGRAMS: &[Program] = &[
    p(
        "ash",
        &[PosixShell, CodeOnStdin],
        "a POSIX shell: runs its `-c` script, a script file or stdin as shell code",
    ),
    p(
        "awk",
        &[Interpreter],
        "runs the awk program it is given, which can run commands and write files",
    ),
    p(
        "bash",
        &[PosixShell, CodeOnStdin],
        "a POSIX shell: runs its `-c` script, a script file or stdin as shell code",
    ),
    p(
        "builtin",
        &[TransparentWrapper],
        "a shell builtin that runs the builtin named by its operand",
    ),
    p(
        "bun",
        &[Interpreter],
        "runs JavaScript and TypeScript files, inline code and package binaries",
    ),
    p(
        "busybox",
        &[MultiCall, AppletRunner, SemanticWrapper],
        "a multi-call binary whose applets include interpreters",
    ),
    p(
        "bwrap",
        &[SemanticWrapper],
        "runs the command in a sandbox it configures",
    ),
    p(
        "caffeinate",
        &[SemanticWrapper],
        "runs the command under a power assertion",
    ),
    p(
        "cargo",
        &[MultiCall],
        "under rustup, the rustup binary by this name: `+toolchain` and RUSTUP_TOOLCHAIN pick which cargo runs",
    ),
    p(
        "cargo-clippy",
        &[MultiCall],
        "under rustup, the rustup binary by this name: the toolchain picks which clippy runs",
    ),
    p(
        "cargo-fmt",
        &[MultiCall],
        "under rustup, the rustup binary by this name: the toolchain picks which rustfmt runs",
    ),
    p(
        "cgexec",
        &[SemanticWrapper],
        "runs the command in another control group",
    ),
    p(
        "chroot",
        &[SemanticWrapper],
        "runs the command under another root directory",
    ),
    p("chrt", &[SemanticWrapper], "changes the scheduling policy"),
    p(
        "clippy-driver",
        &[MultiCall],
        "under rustup, the rustup binary by this name: the toolchain picks which clippy runs",
    ),
    p(
        "command",
        &[TransparentWrapper],
        "a shell builtin that runs its operand as a command, skipping functions",
    ),
    p(
        "coreutils",
        &[MultiCall],
        "a single-binary coreutils (uutils, or GNU built multi-call): installed as ls, cat … and acting by invoked name",
    ),
    p(
        "csh",
        &[OtherShell, CodeOnStdin],
        "a C shell: runs shell code in a language the analysis does not parse",
    ),
    p(
        "dash",
        &[PosixShell, CodeOnStdin],
        "a POSIX shell: runs its `-c` script, a script file or stdin as shell code",
    ),
    p(
        "dbus-launch",
        &[SemanticWrapper],
        "runs the command with a new session bus",
    ),
    p(
        "deno",
        &[Interpreter],
        "runs JavaScript and TypeScript files, inline code and remote modules",
    ),
    p(
        "doas",
        &[SemanticWrapper],
        "runs the command as another user",
    ),
    p(
        "elvish",
        &[OtherShell, CodeOnStdin],
        "a shell whose language the analysis does not parse",
    ),
    p(
        "env",
        &[TransparentWrapper],
        "runs its operand; with options or assignments it changes the environment (then semantic)",
    ),
    p(
        "erl",
        &[Interpreter, CodeOnStdin],
        "runs Erlang code from `-eval`, modules or its shell on stdin",
    ),
    p(
        "exec",
        &[TransparentWrapper],
        "a shell builtin that replaces the shell with its operand",
    ),
    p(
        "fakeroot",
        &[SemanticWrapper],
        "runs the command with faked root privileges",
    ),
    p(
        "firejail",
        &[SemanticWrapper],
        "runs the command in a sandbox it configures",
    ),
    p(
        "fish",
        &[OtherShell, CodeOnStdin],
        "a shell whose language the analysis does not parse",
    ),
    p(
        "flock",
        &[SemanticWrapper],
        "runs the command, or a shell command, under a lock",
    ),
    p(
        "gawk",
        &[Interpreter],
        "GNU awk: runs the awk program it is given, which can run commands and write files",
    ),
    p(
        "gdb",
        &[SemanticWrapper],
        "runs the command under a debugger that can change it",
    ),
    p(
        "ghci",
        &[Interpreter, CodeOnStdin],
        "the Haskell REPL: evaluates expressions from `-e` or stdin",
    ),
    p(
        "guile",
        &[Interpreter, CodeOnStdin],
        "runs Scheme code from `-c`, files or stdin",
    ),
    p(
        "ionice",
        &[SemanticWrapper],
        "changes the I/O scheduling class",
    ),
    p(
        "irb",
        &[Interpreter, CodeOnStdin],
        "the Ruby REPL: evaluates Ruby read from stdin or files",
    ),
    p(
        "java",
        &[Interpreter],
        "runs the class, jar or single `.java` source file it is given",
    ),
    p(
        "jshell",
        &[Interpreter, CodeOnStdin],
        "the Java REPL: evaluates Java read from stdin or files",
    ),
    p(
        "julia",
        &[Interpreter, CodeOnStdin],
        "runs Julia code from `-e`, files or stdin",
    ),
    p(
        "ksh",
        &[PosixShell, CodeOnStdin],
        "a POSIX shell: runs its `-c` script, a script file or stdin as shell code",
    ),
    p(
        "ltrace",
        &[SemanticWrapper],
        "runs the command under a tracer that can write files",
    ),
    p(
        "lua",
        &[Interpreter, CodeOnStdin],
        "runs Lua code from `-e`, files or stdin",
    ),
    p(
        "luajit",
        &[Interpreter, CodeOnStdin],
        "runs Lua code from `-e`, files or stdin",
    ),
    p(
        "mawk",
        &[Interpreter],
        "an awk: runs the awk program it is given, which can run commands and write files",
    ),
    p(
        "mksh",
        &[PosixShell, CodeOnStdin],
        "a POSIX shell: runs its `-c` script, a script file or stdin as shell code",
    ),
    p(
        "nawk",
        &[Interpreter],
        "an awk: runs the awk program it is given, which can run commands and write files",
    ),
    p(
        "newgrp",
        &[SemanticWrapper],
        "runs a shell with another group",
    ),
    p(
        "nice",
        &[TransparentWrapper],
        "runs its operand at another scheduling priority; what runs is unchanged",
    ),
    p(
        "node",
        &[Interpreter, CodeOnStdin],
        "runs JavaScript from `-e`, files or stdin",
    ),
    p(
        "nodejs",
        &[Interpreter, CodeOnStdin],
        "Debian's name for node: runs JavaScript from `-e`, files or stdin",
    ),
    p(
        "nohup",
        &[TransparentWrapper],
        "runs its operand immune to hangups; what runs is unchanged",
    ),
    p(
        "nsenter",
        &[SemanticWrapper],
        "runs the command in other namespaces",
    ),
    p(
        "nu",
        &[OtherShell, CodeOnStdin],
        "nushell: a shell whose language the analysis does not parse",
    ),
    p(
        "numactl",
        &[SemanticWrapper],
        "changes memory and CPU placement",
    ),
    p(
        "original-awk",
        &[Interpreter],
        "the one true awk: runs the awk program it is given, which can run commands",
    ),
    p(
        "osascript",
        &[Interpreter, CodeOnStdin],
        "runs AppleScript or JavaScript from `-e`, files or stdin",
    ),
    p(
        "parallel",
        &[SemanticWrapper],
        "builds and runs commands from its input",
    ),
    p(
        "perl",
        &[Interpreter, CodeOnStdin],
        "runs Perl code from `-e`, files or stdin",
    ),
    p(
        "php",
        &[Interpreter, CodeOnStdin],
        "runs PHP code from `-r`, files or stdin",
    ),
    p(
        "pkexec",
        &[SemanticWrapper],
        "runs the command as another user",
    ),
    p(
        "powershell",
        &[Interpreter, CodeOnStdin],
        "runs PowerShell commands and scripts",
    ),
    p(
        "proot",
        &[SemanticWrapper],
        "runs the command under a fake root",
    ),
    p(
        "pwsh",
        &[Interpreter, CodeOnStdin],
        "runs PowerShell commands and scripts",
    ),
    p(
        "pypy",
        &[Interpreter, CodeOnStdin],
        "a Python implementation: runs Python from `-c`, `-m`, files or stdin",
    ),
    p(
        "python",
        &[Interpreter, CodeOnStdin],
        "runs Python from `-c`, `-m`, files or stdin",
    ),
    p(
        "r",
        &[Interpreter, CodeOnStdin],
        "runs R code read from stdin or files",
    ),
    p(
        "rscript",
        &[Interpreter, CodeOnStdin],
        "runs R code from `-e`, files or stdin (`-`)",
    ),
    p(
        "ruby",
        &[Interpreter, CodeOnStdin],
        "runs Ruby code from `-e`, files or stdin",
    ),
    p(
        "runuser",
        &[SemanticWrapper],
        "runs the command as another user",
    ),
    p(
        "rust-analyzer",
        &[MultiCall],
        "under rustup, the rustup binary by this name: the toolchain picks which rust-analyzer runs",
    ),
    p(
        "rust-gdb",
        &[MultiCall],
        "under rustup, the rustup binary by this name: the toolchain picks which debugger script runs",
    ),
    p(
        "rust-gdbgui",
        &[MultiCall],
        "under rustup, the rustup binary by this name: the toolchain picks which debugger script runs",
    ),
    p(
        "rust-lldb",
        &[MultiCall],
        "under rustup, the rustup binary by this name: the toolchain picks which debugger script runs",
    ),
    p(
        "rustc",
        &[MultiCall],
        "under rustup, the rustup binary by this name: `+toolchain` and RUSTUP_TOOLCHAIN pick which rustc runs",
    ),
    p(
        "rustdoc",
        &[MultiCall],
        "under rustup, the rustup binary by this name: the toolchain picks which rustdoc runs",
    ),
    p(
        "rustfmt",
        &[MultiCall],
        "under rustup, the rustup binary by this name: the toolchain picks which rustfmt runs",
    ),
    p(
        "rustup",
        &[MultiCall],
        "the toolchain multiplexer: one binary installed as cargo, rustc and the other proxies, acting by invoked name",
    ),
    p(
        "sbcl",
        &[Interpreter, CodeOnStdin],
        "runs Common Lisp from `--eval`, files or stdin",
    ),
    p(
        "scala",
        &[Interpreter, CodeOnStdin],
        "runs Scala scripts, or its REPL on stdin",
    ),
    p(
        "script",
        &[SemanticWrapper],
        "runs a shell or command and writes a typescript file",
    ),
    p(
        "setsid",
        &[SemanticWrapper],
        "detaches the command from its session",
    ),
    p(
        "sg",
        &[SemanticWrapper],
        "runs a command with another group",
    ),
    p(
        "sh",
        &[PosixShell, CodeOnStdin],
        "a POSIX shell: runs its `-c` script, a script file or stdin as shell code",
    ),
    p(
        "stdbuf",
        &[TransparentWrapper],
        "runs its operand with other stdio buffering; what runs is unchanged",
    ),
    p(
        "strace",
        &[SemanticWrapper],
        "runs the command under a tracer that can write files",
    ),
    p("su", &[SemanticWrapper], "runs a shell as another user"),
    p(
        "sudo",
        &[SemanticWrapper],
        "runs the command as another user",
    ),
    p(
        "systemd-run",
        &[SemanticWrapper],
        "runs the command as a system unit",
    ),
    p("taskset", &[SemanticWrapper], "changes the CPU affinity"),
    p(
        "tclsh",
        &[Interpreter, CodeOnStdin],
        "runs Tcl code from files or stdin",
    ),
    p(
        "tcsh",
        &[OtherShell, CodeOnStdin],
        "a C shell: runs shell code in a language the analysis does not parse",
    ),
    p(
        "time",
        &[TransparentWrapper],
        "runs its operand and reports its times; what runs is unchanged",
    ),
    p(
        "timeout",
        &[TransparentWrapper],
        "runs its operand with a time limit; what runs is unchanged",
    ),
    p(
        "toybox",
        &[MultiCall, AppletRunner, SemanticWrapper],
        "a multi-call binary whose applets include interpreters",
    ),
    p(
        "unbuffer",
        &[SemanticWrapper],
        "runs the command under expect",
    ),
    p(
        "unshare",
        &[SemanticWrapper],
        "runs the command in new namespaces",
    ),
    p(
        "valgrind",
        &[SemanticWrapper],
        "runs the command under an instrumenting tool",
    ),
    p(
        "watch",
        &[SemanticWrapper],
        "runs the command repeatedly through a shell",
    ),
    p(
        "wish",
        &[Interpreter, CodeOnStdin],
        "runs Tcl/Tk code from files or stdin",
    ),
    p(
        "xargs",
        &[SemanticWrapper],
        "builds and runs commands from its input",
    ),
    p(
        "xonsh",
        &[OtherShell, CodeOnStdin],
        "a Python-based shell whose language the analysis does not parse",
    ),
    p(
        "xvfb-run",
        &[SemanticWrapper],
        "runs the command through a shell script",
    ),
    p(
        "zsh",
        &[PosixShell, CodeOnStdin],
        "a POSIX shell: runs its `-c` script, a script file or stdin as shell code",
    ),
];
