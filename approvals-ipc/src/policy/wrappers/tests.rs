use super::*;

fn argv(s: &[&str]) -> Vec<String> {
    s.iter().map(|a| a.to_string()).collect()
}

fn target(s: &[&str]) -> Result<usize, WrapperRefusal> {
    let v = argv(s);
    match unwrap(&v)? {
        Unwrapped::Target { start, .. } => Ok(start),
        Unwrapped::Shell { .. } => panic!("unexpected shell"),
    }
}

#[test]
fn every_transparent_wrapper_in_the_programs_table_is_unwrapped() {
    use crate::policy::programs::{Kind, PROGRAMS};
    for row in PROGRAMS.iter().filter(|p| p.is(Kind::TransparentWrapper)) {
        // `timeout` takes a duration operand before its target.
        let case: &[&str] = match row.name {
            "timeout" => &[row.name, "5", "ls"],
            _ => &[row.name, "ls"],
        };
        let v = argv(case);
        match unwrap(&v) {
            Ok(Unwrapped::Target { start, wrappers }) => {
                assert_eq!((start, wrappers), (case.len() - 1, vec![row.name]));
            }
            other => panic!("{case:?}: {other:?}"),
        }
    }
}

#[test]
fn semantic_wrappers_are_refused_with_the_table_reason() {
    use crate::policy::programs::{Kind, PROGRAMS};
    for row in PROGRAMS.iter().filter(|p| p.is(Kind::SemanticWrapper)) {
        // `tmux ls` is a listing form, no wrapper: `tmux id` wraps.
        let word = if only_lists(row.name, &argv(&["ls"])) {
            "id"
        } else {
            "ls"
        };
        let v = argv(&[row.name, word]);
        let refusal = unwrap(&v);
        // xargs is named with the command it would run.
        let name = match row.name {
            "xargs" => "xargs (running ls with words from its input)".to_owned(),
            other => other.to_owned(),
        };
        let expected = WrapperRefusal::Semantic {
            name,
            reason: row.reason,
        };
        assert_eq!(refusal, Err(expected), "{}", row.name);
    }
}

/// A semantic wrapper under a spelling a case-insensitive file system or
/// Windows runs (`SUDO`, `sudo.exe`) is refused by name, like `sudo`; a
/// shell or transparent wrapper under such a spelling is not seen through.
#[test]
fn unusual_spellings_are_refused_or_left_opaque_never_unwrapped() {
    for case in [
        &["SUDO", "ls"][..],
        &["sudo.exe", "ls"],
        &["BusyBox", "sh", "-c", "ls"],
    ] {
        assert!(
            matches!(unwrap(&argv(case)), Err(WrapperRefusal::Semantic { .. })),
            "{case:?}"
        );
    }
    for case in [
        &["ENV", "ls"][..],
        &["bash5", "-c", "ls"],
        &["nice.exe", "ls"],
    ] {
        assert_eq!(target(case), Ok(0), "{case:?}");
    }
}

#[test]
fn transparent_wrappers_unwrap_to_their_target() {
    assert_eq!(target(&["ls", "-la"]), Ok(0));
    assert_eq!(target(&["env", "ls"]), Ok(1));
    assert_eq!(target(&["env", "--", "ls"]), Ok(2));
    assert_eq!(target(&["nice", "-n", "10", "ls"]), Ok(3));
    assert_eq!(target(&["nice", "-5", "ls"]), Ok(2));
    assert_eq!(target(&["nohup", "ls"]), Ok(1));
    assert_eq!(target(&["stdbuf", "-oL", "ls"]), Ok(2));
    assert_eq!(target(&["timeout", "-k", "5", "10s", "ls"]), Ok(4));
    assert_eq!(target(&["timeout", "10", "ls"]), Ok(2));
    assert_eq!(target(&["time", "-p", "ls"]), Ok(2));
    assert_eq!(target(&["command", "ls"]), Ok(1));
    assert_eq!(target(&["exec", "ls"]), Ok(1));
    assert_eq!(target(&["/usr/bin/env", "nice", "nohup", "ls"]), Ok(3));
}

#[test]
fn a_wrapper_alone_is_the_program() {
    assert_eq!(target(&["env"]), Ok(0));
    assert_eq!(target(&["nice"]), Ok(0));
}

#[test]
fn semantic_wrappers_are_refused_regression_ghsa_796m_2973_wc5q() {
    for case in [
        &["env", "-S", "sh -c 'echo pwned'", "tr"][..],
        &["env", "-i", "ls"],
        &["env", "FOO=1", "ls"],
        &["sudo", "ls"],
        &["nice", "sudo", "ls"],
        &["setsid", "ls"],
        &["xargs", "rm"],
        &["exec", "-a", "name", "ls"],
        &["command", "-p", "ls"],
        &["time", "-o", "/tmp/x", "ls"],
        &["busybox", "awk", "BEGIN{system(\"id\")}"],
        &["toybox", "ls"],
        &["run0", "ls"],
    ] {
        assert!(unwrap(&argv(case)).is_err(), "{case:?} must be refused");
    }
}

#[test]
fn too_many_wrappers_are_refused() {
    let v = argv(&["nice", "nice", "nice", "nice", "nice", "ls"]);
    assert_eq!(unwrap(&v), Err(WrapperRefusal::TooDeep));
}

#[test]
fn shell_wrappers_yield_their_script() {
    for (case, script) in [
        (&["sh", "-c", "ls"][..], "ls"),
        (&["bash", "-lc", "git status"], "git status"),
        (&["/bin/zsh", "-e", "-c", "ls"], "ls"),
        (&["env", "bash", "-c", "ls"], "ls"),
        (&["busybox", "sh", "-c", "ls"], "ls"),
        (&["bash", "-o", "pipefail", "-c", "a | b"], "a | b"),
    ] {
        let v = argv(case);
        match unwrap(&v) {
            Ok(Unwrapped::Shell { script: s, .. }) => assert_eq!(s, script),
            other => panic!("{case:?}: {other:?}"),
        }
    }
}

#[test]
fn shell_forms_we_do_not_understand_are_refused_regression_positional_carriers() {
    for case in [
        &["sh", "-c", "$0 \"$@\"", "xargs", "sh", "-c", "id"][..],
        &["bash", "--rcfile", "/tmp/rc", "-c", "ls"],
        &["bash", "-i", "-c", "ls"],
        &["sh", "script.sh"],
        &["sh"],
        &["sh", "-c"],
        &["bash", "-o", "posix", "-c", "ls"],
    ] {
        assert!(
            matches!(unwrap(&argv(case)), Err(WrapperRefusal::Shell { .. })),
            "{case:?}"
        );
    }
}

#[test]
fn rustup_run_is_a_semantic_wrapper_and_other_subcommands_are_not() {
    let words = |w: &[&str]| -> Vec<String> { w.iter().map(|s| (*s).to_owned()).collect() };
    for argv in [
        &["rustup", "run", "stable", "bash"][..],
        &["/home/u/.cargo/bin/rustup", "+nightly", "run", "x", "sh"],
        &["rustup", "--verbose", "run", "stable", "id"],
        &["rustup", "r", "stable", "id"],
    ] {
        assert!(refused_as_rustup_run(&words(argv)), "{argv:?}");
    }
    for argv in [
        &["rustup", "show"][..],
        &["rustup", "+nightly", "which", "rustc"],
        &["rustup", "", "run"],
        &["rustup"],
        &["cargo", "run"],
    ] {
        assert!(unwrap(&words(argv)).is_ok(), "{argv:?}");
    }
}

/// Whether `argv` is refused as `rustup run`, the semantic wrapper.
fn refused_as_rustup_run(argv: &[String]) -> bool {
    matches!(
        unwrap(argv),
        Err(WrapperRefusal::Semantic { reason, .. }) if reason == RUSTUP_RUN
    )
}

/// Class 7: rustup's clap takes its flag-only global options and the
/// `+toolchain` in any order before the command, so neither hides `run`.
#[test]
fn rustup_global_options_before_the_toolchain_do_not_hide_run() {
    let words = |w: &[&str]| -> Vec<String> { w.iter().map(|s| (*s).to_owned()).collect() };
    for argv in [
        &["rustup", "-v", "+stable", "run", "stable", "bash"][..],
        &["rustup", "--verbose", "run", "stable", "sh"],
        &["rustup", "-q", "+nightly", "run", "nightly", "sh"],
        &["rustup", "+stable", "-v", "-q", "run", "stable", "sh"],
        &[
            "/root/.cargo/bin/rustup",
            "--quiet",
            "+stable",
            "--verbose",
            "ru",
            "x",
            "sh",
        ],
    ] {
        assert!(refused_as_rustup_run(&words(argv)), "{argv:?}");
    }
    // cargo's own `run` (the proxy takes `+toolchain` first only) is the
    // cargo spec's to judge, and rustup's other commands are no wrapper.
    for argv in [
        &["cargo", "+nightly", "-v", "run"][..],
        &["/root/.cargo/bin/cargo", "-v", "+nightly", "run"],
        &["rustup", "-v", "+stable", "show"],
        &["rustup", "-q", "+stable", "which", "rustc"],
    ] {
        assert!(unwrap(&words(argv)).is_ok(), "{argv:?}");
    }
}

#[test]
fn command_v_is_refused_with_a_hint_naming_which() {
    for option in ["-v", "-V"] {
        let refusal = target(&["command", option, "git"]).unwrap_err();
        assert!(
            matches!(refusal, WrapperRefusal::Option { .. }),
            "{refusal:?}"
        );
        let text = refusal.to_string();
        assert!(text.contains("`which NAME`"), "{text}");
    }
    // Other options carry no hint that would not fit them.
    let text = target(&["command", "-p", "git"]).unwrap_err().to_string();
    assert!(!text.contains("hint"), "{text}");
}

/// Helper H28's sweep: `crontab -l`, `tmux ls` and `screen -ls` wrap no
/// command and only print, so the program itself is the target; any other
/// argv of theirs (installing a crontab, another user's, a new session, a
/// socket elsewhere) is the wrapper again, refused with its reason.
#[test]
fn listing_forms_of_semantic_wrappers_are_their_own_target_and_nothing_else_is() {
    for case in [
        &["crontab", "-l"][..],
        &["tmux", "ls"],
        &["tmux", "list-sessions"],
        &["screen", "-ls"],
        &["screen", "-list"],
    ] {
        assert_eq!(target(case), Ok(0), "{case:?}");
    }
    assert_eq!(target(&["timeout", "5", "crontab", "-l"]), Ok(2));
    for case in [
        &["crontab", "x.cron"][..],
        &["crontab", "-"],
        &["crontab", "-e"],
        &["crontab", "-r"],
        &["crontab", "-l", "-u", "root"],
        &["crontab", "-u", "root", "-l"],
        &["crontab", "-l", "x"],
        &["crontab"],
        &["tmux"],
        &["tmux", "new", "-d", "sh"],
        &["tmux", "-L", "x", "ls"],
        &["tmux", "ls", "-F", "x"],
        &["tmux", "send-keys", "-t", "0", "id", "Enter"],
        &["screen", "-dmS", "x", "sh"],
        &["screen", "-ls", "x"],
        &["/usr/bin/crontab", "-l", "-l"],
    ] {
        assert!(
            matches!(target(case), Err(WrapperRefusal::Semantic { .. })),
            "{case:?}: {:?}",
            target(case)
        );
    }
    // A path to the program is the program (the name is what the table
    // holds); a confusable name is not.
    assert_eq!(target(&["/usr/bin/crontab", "-l"]), Ok(0));
}
