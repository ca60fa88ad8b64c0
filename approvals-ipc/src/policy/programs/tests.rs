use super::*;

/// Every interpreter the three lists this table replaced knew: the
/// decision's `is_interpreter` prefixes and exact names, the risk rules'
/// `INTERPRETERS`, and the guards' interpreter families and their names.
const OLD_INTERPRETERS: &[&str] = &[
    // policy/decision.rs `is_interpreter`.
    "awk",
    "bun",
    "deno",
    "gawk",
    "irb",
    "jshell",
    "julia",
    "lua",
    "mawk",
    "nawk",
    "node",
    "perl",
    "php",
    "pwsh",
    "powershell",
    "pypy",
    "python",
    "r",
    "rscript",
    "ruby",
    "tclsh",
    "wish",
    "nodejs",
    "osascript",
    "java",
    "erl",
    "guile",
    "sbcl",
    "ghci",
    "scala",
    // policy/risk/rules.rs `INTERPRETERS` (its shells are below).
    "node",
    "perl",
    "php",
    "python",
    "ruby",
    // policy/guards/table.rs interpreter families and awk's names.
    "lua",
    "luajit",
    "node",
    "nodejs",
    "osascript",
    "perl",
    "php",
    "pypy",
    "python",
    "Rscript",
    "ruby",
    "original-awk",
];

/// Every shell the old lists knew: `wrappers::POSIX_SHELLS`, the rest of
/// `wrappers::is_shell`, and the shells of the risk rules' `INTERPRETERS`.
const OLD_POSIX_SHELLS: &[&str] = &["ash", "bash", "dash", "ksh", "mksh", "sh", "zsh"];
const OLD_OTHER_SHELLS: &[&str] = &["csh", "fish", "tcsh", "nu", "elvish", "xonsh"];

/// The transparent wrappers `wrappers::unwrap` unwraps.
const OLD_TRANSPARENT: &[&str] = &[
    "env", "nice", "nohup", "stdbuf", "timeout", "time", "command", "builtin", "exec",
];

/// `wrappers::SEMANTIC_WRAPPERS` and the multi-call binaries `is_wrapper` knew.
const OLD_SEMANTIC: &[&str] = &[
    "bwrap",
    "caffeinate",
    "cgexec",
    "chroot",
    "chrt",
    "dbus-launch",
    "doas",
    "fakeroot",
    "firejail",
    "flock",
    "gdb",
    "ionice",
    "ltrace",
    "newgrp",
    "nsenter",
    "numactl",
    "parallel",
    "pkexec",
    "proot",
    "runuser",
    "script",
    "setsid",
    "sg",
    "strace",
    "su",
    "sudo",
    "systemd-run",
    "taskset",
    "unbuffer",
    "unshare",
    "valgrind",
    "watch",
    "xargs",
    "xvfb-run",
    "busybox",
    "toybox",
];

#[test]
fn table_is_sorted_unique_and_explained() {
    for pair in PROGRAMS.windows(2) {
        if let [a, b] = pair {
            assert!(a.name < b.name, "not sorted or duplicate: {pair:?}");
        }
    }
    for row in PROGRAMS {
        assert!(!row.reason.trim().is_empty(), "{} has no reason", row.name);
        assert!(!row.kinds.is_empty(), "{} has no kind", row.name);
        let mut kinds = row.kinds.to_vec();
        kinds.dedup();
        assert_eq!(kinds.len(), row.kinds.len(), "{} repeats a kind", row.name);
    }
}

#[test]
fn table_names_are_normalized_and_found_by_the_name_rule() {
    for row in PROGRAMS {
        assert!(!row.name.is_empty());
        assert_eq!(row.name, row.name.to_ascii_lowercase(), "{}", row.name);
        assert_eq!(executable_name(row.name), row.name, "{}", row.name);
        assert_eq!(program(row.name), Some(row));
        assert_eq!(program_exact(row.name), Some(row));
        // A name ending in a digit (`run0`) must not shadow another row.
        if family(row.name) != row.name {
            assert_eq!(program_exact(&family(row.name)), None, "{}", row.name);
        }
    }
}

#[test]
fn family_is_the_one_name_rule() {
    for (name, expected) in [
        ("python3.12", "python"),
        ("python3", "python"),
        ("Python3", "python"),
        ("python.exe", "python"),
        ("PYTHON3.12.EXE", "python"),
        ("node20", "node"),
        ("pypy3", "pypy"),
        ("perl5.36", "perl"),
        ("ksh93", "ksh"),
        ("bash", "bash"),
        ("busybox", "busybox"),
        ("Rscript", "rscript"),
        ("/usr/bin/python3", "python"),
        ("rust-gdb", "rust-gdb"),
        ("x.exe.exe", "x.exe"),
        ("", ""),
        ("3.12", ""),
        ("é.exe", "é"),
    ] {
        assert_eq!(family(name), expected, "{name}");
    }
}

#[test]
fn family_lookups_classify_versioned_and_windows_names() {
    assert!(is_interpreter("python3.12"));
    assert!(is_interpreter("node20"));
    assert!(is_interpreter("pypy3"));
    assert!(is_interpreter("python.exe"));
    assert!(is_shell("bash"));
    assert!(is_shell("ksh93"));
    assert!(is_shell("bash.exe"));
    assert!(is_wrapper("busybox"));
    assert!(has("busybox", Kind::AppletRunner));
    assert!(has("cargo", Kind::MultiCall));
    assert!(has("run0", Kind::Privileged));
    assert!(has("RUN0.exe", Kind::Privileged));
    for plain in ["git", "ls", "cargo", "rustc", "rustup", "", "python-config"] {
        assert!(!runs_other_code(plain), "{plain}");
    }
    // Seeing through a word needs the exact name.
    assert_eq!(program_exact("bash5"), None);
    assert_eq!(program_exact("ENV"), None);
}

#[test]
fn every_interpreter_the_old_lists_knew_is_present() {
    for name in OLD_INTERPRETERS {
        assert!(is_interpreter(name), "{name} lost");
        assert!(runs_other_code(name), "{name}");
    }
}

#[test]
fn every_shell_and_wrapper_the_old_lists_knew_is_present() {
    for name in OLD_POSIX_SHELLS {
        assert!(
            program_exact(name).is_some_and(|p| p.is(Kind::PosixShell)),
            "{name}"
        );
    }
    for name in OLD_OTHER_SHELLS {
        assert!(
            program_exact(name).is_some_and(|p| p.is(Kind::OtherShell)),
            "{name}"
        );
    }
    for name in OLD_TRANSPARENT {
        let row = program_exact(name);
        assert!(
            row.is_some_and(|p| p.is(Kind::TransparentWrapper)),
            "{name}"
        );
    }
    for name in OLD_SEMANTIC {
        let row = program_exact(name);
        assert!(row.is_some_and(|p| p.is(Kind::SemanticWrapper)), "{name}");
    }
}

#[test]
fn every_shell_interpreter_and_wrapper_is_code_running_for_invariant_5() {
    for row in PROGRAMS {
        let special = row.is_shell() || row.is_wrapper() || row.is(Kind::Interpreter);
        assert_eq!(runs_other_code(row.name), special, "{}", row.name);
    }
}

#[test]
fn every_shell_runs_code_read_on_stdin() {
    for row in PROGRAMS.iter().filter(|p| p.is_shell()) {
        assert!(row.is(Kind::CodeOnStdin), "{}", row.name);
    }
    for row in PROGRAMS.iter().filter(|p| p.is(Kind::CodeOnStdin)) {
        assert!(row.is_shell() || row.is(Kind::Interpreter), "{}", row.name);
    }
}

#[test]
fn shell_kinds_and_wrapper_kinds_are_exclusive() {
    for row in PROGRAMS {
        assert!(
            !(row.is(Kind::PosixShell) && row.is(Kind::OtherShell)),
            "{}",
            row.name
        );
        assert!(
            !(row.is(Kind::TransparentWrapper) && row.is(Kind::SemanticWrapper)),
            "{}",
            row.name
        );
        if row.is(Kind::RustupProxy) {
            assert!(row.is(Kind::MultiCall), "{}", row.name);
        }
        if row.is(Kind::AppletRunner) {
            assert!(row.is(Kind::MultiCall) && row.is(Kind::SemanticWrapper));
        }
    }
}

#[test]
fn builtins_are_sorted_unique_and_explained() {
    for pair in BUILTINS.windows(2) {
        if let [a, b] = pair {
            assert!(a.name < b.name, "not sorted or duplicate: {pair:?}");
        }
    }
    assert!(
        BUILTINS
            .iter()
            .all(|b| !b.name.is_empty() && !b.reason.trim().is_empty())
    );
}

#[test]
fn builtins_keep_both_old_lists_meanings() {
    // The old `SHELL_ONLY_BUILTINS` of the analysis: refused by the plan.
    const OLD_SHELL_ONLY: &[&str] = &[
        ".",
        ":",
        "alias",
        "bg",
        "break",
        "continue",
        "declare",
        "disown",
        "enable",
        "eval",
        "exit",
        "export",
        "fc",
        "fg",
        "getopts",
        "hash",
        "history",
        "jobs",
        "let",
        "local",
        "logout",
        "mapfile",
        "popd",
        "pushd",
        "read",
        "readarray",
        "readonly",
        "return",
        "set",
        "shift",
        "shopt",
        "source",
        "suspend",
        "times",
        "trap",
        "type",
        "typeset",
        "ulimit",
        "umask",
        "unalias",
        "unset",
        "wait",
    ];
    // The old `REFUSED_BUILTINS` of the shell analysis.
    const OLD_REFUSED: &[&str] = &[
        ".",
        "alias",
        "declare",
        "enable",
        "eval",
        "export",
        "fc",
        "hash",
        "history",
        "let",
        "local",
        "mapfile",
        "popd",
        "pushd",
        "read",
        "readarray",
        "readonly",
        "set",
        "shopt",
        "source",
        "trap",
        "typeset",
        "ulimit",
        "umask",
        "unalias",
        "unset",
    ];
    let shell_only: Vec<_> = BUILTINS
        .iter()
        .filter(|b| b.is_shell_only())
        .map(|b| b.name)
        .collect();
    assert_eq!(shell_only, OLD_SHELL_ONLY);
    let refused: Vec<_> = BUILTINS
        .iter()
        .filter(|b| builtins::refused_in_script(b.name).is_some())
        .map(|b| b.name)
        .collect();
    assert_eq!(refused, OLD_REFUSED);
    for name in [
        "cd", "exec", "command", "builtin", "echo", "ls", "", "evals",
    ] {
        assert!(!builtins::is_shell_only(name), "{name}");
        assert_eq!(builtins::refused_in_script(name), None, "{name}");
    }
}

#[test]
fn dispatch_builtins_are_also_transparent_wrappers() {
    for row in BUILTINS.iter().filter(|b| b.name != "cd") {
        if row.handling == BuiltinHandling::Modelled {
            assert!(
                program_exact(row.name).is_some_and(|p| p.is(Kind::TransparentWrapper)),
                "{}",
                row.name
            );
        }
    }
}

/// What allow-always would persist for running `name` (an executable file
/// of that name in a temp dir) by path, under `allowAlwaysScope: executable`.
fn persisted_for(name: &str) -> Vec<String> {
    use std::os::unix::fs::PermissionsExt;

    use crate::approvals::ApprovalsFile;
    use crate::policy::{CompiledPolicy, HostContext};

    let json = serde_json::json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny",
                     "allowAlwaysScope": "executable"},
        "agents": {"main": {"allowlist": []}}
    });
    let text = serde_json::to_vec(&json).unwrap();
    let file = ApprovalsFile::parse(&text, std::path::Path::new("test.json"))
        .unwrap()
        .file;
    let host = HostContext {
        path: Some("/usr/bin:/bin".into()),
        home: Some("/home/test".into()),
        state_dirs: Vec::new(),
    };
    let compiled = CompiledPolicy::compile(file.resolve(Some("main")), &host);
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join(name);
    std::fs::write(&program, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    let argv = vec![program.to_string_lossy().into_owned(), "x".to_owned()];
    compiled
        .evaluate(&argv, dir.path(), &Default::default())
        .persist_patterns()
        .to_vec()
}

#[test]
fn a_plain_program_is_still_persisted_by_path() {
    let persisted = persisted_for("mytool");
    assert_eq!(persisted.len(), 1);
    assert!(persisted[0].ends_with("/mytool"), "{persisted:?}");
}

/// Old lists disagreed: the guards knew `luajit` and `original-awk` as
/// interpreters (lua and awk families), `decision::is_interpreter` did not,
/// so allow-always persisted their path and later ran any script. The
/// decision also ignored `.exe`, which the guards stripped.
#[test]
fn allow_always_never_persists_interpreters_only_the_guards_knew() {
    for name in ["luajit", "original-awk", "python.exe", "Python3.exe"] {
        let persisted = persisted_for(name);
        assert_eq!(persisted.len(), 1, "{name}: {persisted:?}");
        assert!(
            persisted[0].starts_with("=command:"),
            "{name}: {persisted:?}"
        );
    }
}
/// Old lists disagreed: the risk rules knew `bash5.2`-style versioned shells,
/// `wrappers::is_shell` matched only exact names, so `ksh93` (Debian's real
/// ksh) was persisted by path and then ran any script file.
#[test]
fn allow_always_never_persists_a_versioned_shell() {
    for name in ["ksh93", "bash5.2", "zsh.exe"] {
        let persisted = persisted_for(name);
        assert_eq!(persisted.len(), 1, "{name}: {persisted:?}");
        assert!(
            persisted[0].starts_with("=command:"),
            "{name}: {persisted:?}"
        );
    }
}

#[test]
fn value_options_belong_to_shells_and_wrappers_and_are_letters() {
    for row in PROGRAMS {
        if !row.value_shorts.is_empty() {
            assert_eq!(looked_through(row.name), Some(row), "{}", row.name);
        }
        let mut letters: Vec<char> = row.value_shorts.chars().collect();
        assert!(
            letters.iter().all(char::is_ascii_alphabetic),
            "{}",
            row.name
        );
        letters.sort_unstable();
        letters.dedup();
        assert_eq!(letters.len(), row.value_shorts.len(), "{}", row.name);
    }
}

/// The risk rules' old `WRAPPERS` list, with its value options: every one
/// is still read through with the same options.
#[test]
fn every_wrapper_the_risk_rules_knew_is_read_through_alike() {
    for (name, values) in [
        ("ash", "o"),
        ("bash", "o"),
        ("dash", "o"),
        ("doas", "uCL"),
        ("env", "uSC"),
        ("exec", "a"),
        ("ksh", "o"),
        ("nice", "n"),
        ("nohup", ""),
        ("pkexec", ""),
        ("sh", "o"),
        ("stdbuf", "ioe"),
        ("sudo", "ugCDhprtUT"),
        ("time", "fo"),
        ("timeout", "sk"),
        ("xargs", "adEeIiLlnPs"),
        ("zsh", "o"),
    ] {
        assert_eq!(
            looked_through(name).map(|p| p.value_shorts),
            Some(values),
            "{name}"
        );
    }
}

/// The risk rules' old privilege list: each is `Privileged` and a semantic
/// wrapper. `run0` was known to the risk rules only, so the analysis took
/// it for a plain program and allow-always persisted its path, after which
/// `run0 anything` ran as root without asking.
#[test]
fn every_privileged_program_the_risk_rules_knew_is_a_semantic_wrapper() {
    for name in ["sudo", "doas", "su", "pkexec", "run0"] {
        let row = program_exact(name);
        assert!(row.is_some_and(|p| p.is(Kind::Privileged)), "{name}");
        assert!(row.is_some_and(|p| p.is(Kind::SemanticWrapper)), "{name}");
    }
    let persisted = persisted_for("run0");
    assert_eq!(persisted.len(), 1, "{persisted:?}");
    assert!(persisted[0].starts_with("=command:"), "{persisted:?}");
}

#[test]
fn privileged_programs_are_semantic_wrappers() {
    for row in PROGRAMS.iter().filter(|p| p.is(Kind::Privileged)) {
        assert!(row.is(Kind::SemanticWrapper), "{}", row.name);
    }
}

#[test]
fn programs_that_run_another_program_are_semantic_wrappers() {
    // Found in a Debian /usr/bin with no spec and no row (issue 11): each
    // runs a program, a command or a browser it is given.
    for name in [
        "msgexec",
        "msgfilter",
        "run-parts",
        "heaptrack",
        "sotruss",
        "memusage",
        "systemd-inhibit",
        "systemd-socket-activate",
        "uclampset",
        "make-first-existing-target",
        "valgrind.bin",
        "vgdb",
        "scriptlive",
        "sftp",
        "ssh-argv0",
        "xdg-email",
        "sensible-browser",
        "x-www-browser",
        "chromium",
        "gcore",
        // Found by the red-team sweep of helper H19 (issue 11): a CPU
        // limiter, a socket relay whose `EXEC:`/`SYSTEM:` addresses run
        // programs, and a container runner.
        "cpulimit",
        "socat",
        "systemd-nspawn",
        "choom",
        "gdbtui",
        "gp-collect-app",
        "luit",
        "rdbg3.1",
    ] {
        assert!(has(name, Kind::SemanticWrapper), "{name}");
        assert!(runs_other_code(name), "{name}");
    }
}

#[test]
fn debian_names_of_a_versioned_copy_are_that_program() {
    for (name, base) in [
        ("gcc-12", Some("gcc")),
        ("clang-14", Some("clang")),
        ("ld.lld-14", Some("ld.lld")),
        ("x86_64-linux-gnu-gcc-12", Some("gcc")),
        ("arm-linux-gnueabihf-g++", Some("g++")),
        ("cpan5.36-x86_64-linux-gnu", Some("cpan")),
        ("perl5.36-x86_64-linux-gnu", Some("perl")),
        ("gem3.1", Some("gem")),
        ("irb3.1", Some("irb")),
        ("/usr/bin/pydoc3.11", Some("pydoc")),
        // Plain names, and digits that are part of the name.
        ("gcc", None),
        ("bzip2", None),
        ("c99", None),
        ("awk2", None),
        ("base64", None),
        ("pkg-config", None),
        ("python3", None),
        ("run0", None),
        ("-12", None),
        ("x86_64-linux-gnu", None),
    ] {
        assert_eq!(debian_base(name).as_deref(), base, "{name}");
    }
    // Rows of the programs table are found under those names too.
    assert!(has("x86_64-linux-gnu-gdb-12", Kind::SemanticWrapper));
    assert!(has("perl5.36-x86_64-linux-gnu", Kind::Interpreter));
}

#[test]
fn git_dashed_names_and_openers_are_semantic_wrappers() {
    // Found by the H27 sweep: `git-remote-ext x 'sh -c id'`,
    // `git-upload-pack ../other` and desktop openers were auto-allowed.
    for name in [
        "git-upload-pack",
        "git-remote-ext",
        "git-daemon",
        "git-submodule",
        "git-lfs",
        "/usr/lib/git-core/git-http-backend",
        "gnome-open",
        "kde-open",
        "open",
        "see",
        "run-mailcap",
        "nerdctl",
    ] {
        assert!(
            program(name).is_some_and(|p| p.is(Kind::SemanticWrapper)),
            "{name}"
        );
    }
    assert!(program("git").is_none_or(|p| !p.is(Kind::SemanticWrapper)));
    assert!(program("gitk").is_none_or(|p| !p.is(Kind::SemanticWrapper)));
}

/// The row a name had when nothing was kept, as an address to compare.
fn fresh(name: &str) -> Option<*const Program> {
    program_uncached(name).map(std::ptr::from_ref)
}

#[test]
fn the_kept_lookup_never_answers_for_another_name() {
    // Names one byte, one letter's case, a prefix or a suffix apart, and
    // one too long to keep: a kept answer given for the wrong name would
    // read a wrapper (`sudo`, `env`) as a plain program, or the reverse.
    let long = "x".repeat(Lookup::CAPACITY + 1);
    let names = [
        "sudo",
        "sudoedit",
        "sud",
        "Sudo",
        "env",
        "envsubst",
        "git",
        "gi",
        "/usr/bin/env",
        "python3.12",
        "python3.1",
        "",
        long.as_str(),
    ];
    for before in names {
        for name in names {
            let _ = program(before);
            assert_eq!(
                program(name).map(std::ptr::from_ref),
                fresh(name),
                "{name:?} asked after {before:?}"
            );
            assert_eq!(program(name).map(std::ptr::from_ref), fresh(name));
        }
    }
    assert!(program("sudo").is_some_and(Program::is_wrapper));
}

/// A benchmark runner runs its operands and its `--prepare`, `--setup`,
/// `--cleanup` and `--conclude` values through a shell (`hyperfine 'curl x
/// | sh'`): a wrapper that changes what runs, like `watch` (H30 sweep).
#[test]
fn benchmark_runners_running_shell_commands_are_semantic_wrappers() {
    for name in [
        "hyperfine",
        "watch",
        "strace",
        "ltrace",
        "valgrind",
        "perf",
        "taskset",
    ] {
        let row = program_exact(name);
        assert!(row.is_some_and(|p| p.is(Kind::SemanticWrapper)), "{name}");
    }
}
