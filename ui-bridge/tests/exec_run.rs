//! The executor runs plans with real processes: chains, pipes, sinks,
//! heredocs, working directories and the environment, no shell involved.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use approvals_ipc::policy::Runnable;
use approvals_ipc::policy::env::{EnvRefusal, child_env};
use approvals_ipc::policy::plan::{
    ChainOp, Plan, PlanStep, PlannedCommand, PlannedExec, Sink, Stdin,
};
use ui_bridge::exec::{ChildEnv, ExecLimits, ExecOutcome, run as execute, run_masked};

fn exec(program: &str, argv: &[&str], cwd: &Path) -> PlannedExec {
    PlannedExec {
        program: PathBuf::from(program),
        argv: argv.iter().map(|arg| (*arg).to_owned()).collect(),
        env: Vec::new(),
        cwd: cwd.into(),
        stdin: None,
        stdout: Sink::Stdout,
        stderr: Sink::Stderr,
    }
}

fn step(op: ChainOp, pipeline: Vec<PlannedExec>) -> PlanStep {
    PlanStep {
        op,
        pipeline: pipeline.into_iter().map(PlannedCommand::Exec).collect(),
    }
}

fn plan(steps: Vec<PlanStep>) -> Runnable {
    Runnable::unchecked(Plan::unchecked(steps))
}

fn env() -> Vec<(String, String)> {
    vec![("PATH".to_owned(), "/usr/bin:/bin".to_owned())]
}

fn tmp() -> PathBuf {
    std::env::temp_dir()
}

async fn run(plan: &Runnable) -> ExecOutcome {
    execute(plan, &env(), &ExecLimits::default()).await
}

fn ok(stdout: &str, stderr: &str) -> ExecOutcome {
    ExecOutcome {
        exit_code: Some(0),
        success: true,
        stdout: stdout.to_owned(),
        stderr: stderr.to_owned(),
        ..ExecOutcome::default()
    }
}

fn failed(code: i32, stdout: &str, stderr: &str) -> ExecOutcome {
    ExecOutcome {
        exit_code: Some(code),
        stdout: stdout.to_owned(),
        stderr: stderr.to_owned(),
        ..ExecOutcome::default()
    }
}

#[tokio::test]
async fn runs_one_program_with_its_literal_argv() {
    let d = tmp();
    let out = run(&plan(vec![step(
        ChainOp::Seq,
        vec![exec(
            "/bin/echo",
            &["echo", "$HOME", "*", "a;b", "`id`"],
            &d,
        )],
    )]))
    .await;
    assert_eq!(out, ok("$HOME * a;b `id`\n", ""));
}

#[tokio::test]
async fn keeps_argv0_as_written() {
    let d = tmp();
    let out = run(&plan(vec![step(
        ChainOp::Seq,
        vec![exec("/bin/sh", &["custom-name", "-c", "echo $0"], &d)],
    )]))
    .await;
    assert_eq!(out, ok("custom-name\n", ""));
}

#[tokio::test]
async fn chain_semantics_follow_the_shell() {
    let d = tmp();
    let echo = |word: &str| exec("/bin/echo", &["echo", word], &d);
    let fals = || exec("/bin/false", &["false"], &d);
    let tru = || exec("/bin/true", &["true"], &d);
    let cases: Vec<(&str, Runnable, ExecOutcome)> = vec![
        (
            "false && echo x || echo y",
            plan(vec![
                step(ChainOp::Seq, vec![fals()]),
                step(ChainOp::And, vec![echo("x")]),
                step(ChainOp::Or, vec![echo("y")]),
            ]),
            ok("y\n", ""),
        ),
        (
            "true || echo x && echo y",
            plan(vec![
                step(ChainOp::Seq, vec![tru()]),
                step(ChainOp::Or, vec![echo("x")]),
                step(ChainOp::And, vec![echo("y")]),
            ]),
            ok("y\n", ""),
        ),
        (
            "true && false",
            plan(vec![
                step(ChainOp::Seq, vec![tru()]),
                step(ChainOp::And, vec![fals()]),
            ]),
            failed(1, "", ""),
        ),
        (
            "false ; echo a",
            plan(vec![
                step(ChainOp::Seq, vec![fals()]),
                step(ChainOp::Seq, vec![echo("a")]),
            ]),
            ok("a\n", ""),
        ),
        (
            "echo a ; false || echo b ; echo c && false",
            plan(vec![
                step(ChainOp::Seq, vec![echo("a")]),
                step(ChainOp::Seq, vec![fals()]),
                step(ChainOp::Or, vec![echo("b")]),
                step(ChainOp::Seq, vec![echo("c")]),
                step(ChainOp::And, vec![fals()]),
            ]),
            failed(1, "a\nb\nc\n", ""),
        ),
        (
            "false || true (skipped status does not count)",
            plan(vec![
                step(ChainOp::Seq, vec![fals()]),
                step(ChainOp::Or, vec![tru()]),
            ]),
            ok("", ""),
        ),
        (
            "true || false",
            plan(vec![
                step(ChainOp::Seq, vec![tru()]),
                step(ChainOp::Or, vec![fals()]),
            ]),
            ok("", ""),
        ),
    ];
    for (name, plan, expected) in cases {
        assert_eq!(run(&plan).await, expected, "{name}");
    }
}

#[tokio::test]
async fn runs_a_three_stage_pipeline() {
    let d = tmp();
    let out = run(&plan(vec![step(
        ChainOp::Seq,
        vec![
            exec("/usr/bin/printf", &["printf", "b\\na\\nb\\n"], &d),
            exec("/usr/bin/tr", &["tr", "ab", "xy"], &d),
            exec("/usr/bin/wc", &["wc", "-l"], &d),
        ],
    )]))
    .await;
    assert_eq!(out.stdout.trim(), "3");
    assert_eq!(out.exit_code, Some(0));
}

#[tokio::test]
async fn a_pipelines_status_is_its_last_commands() {
    let d = tmp();
    let out = run(&plan(vec![step(
        ChainOp::Seq,
        vec![
            exec("/bin/false", &["false"], &d),
            exec("/bin/cat", &["cat"], &d),
        ],
    )]))
    .await;
    assert_eq!(out, ok("", ""));
    let out = run(&plan(vec![step(
        ChainOp::Seq,
        vec![
            exec("/bin/echo", &["echo", "x"], &d),
            exec("/bin/false", &["false"], &d),
        ],
    )]))
    .await;
    assert_eq!(out, failed(1, "", ""));
}

#[tokio::test]
async fn a_pipeline_ends_when_its_reader_exits_early() {
    let d = tmp();
    let out = run(&plan(vec![step(
        ChainOp::Seq,
        vec![
            exec("/usr/bin/yes", &["yes"], &d),
            exec("/usr/bin/head", &["head", "-n", "2"], &d),
        ],
    )]))
    .await;
    assert_eq!(out, ok("y\ny\n", ""));
}

#[tokio::test]
async fn stderr_to_stdout_feeds_the_next_pipe() {
    let d = tmp();
    let mut first = exec("/bin/sh", &["sh", "-c", "echo out; echo err >&2"], &d);
    first.stderr = Sink::Stdout;
    let out = run(&plan(vec![step(
        ChainOp::Seq,
        vec![first, exec("/usr/bin/wc", &["wc", "-l"], &d)],
    )]))
    .await;
    assert_eq!((out.stdout.trim(), out.stderr.as_str()), ("2", ""));
}

#[tokio::test]
async fn without_redirection_stderr_bypasses_the_pipe() {
    let d = tmp();
    let first = exec("/bin/sh", &["sh", "-c", "echo out; echo err >&2"], &d);
    let out = run(&plan(vec![step(
        ChainOp::Seq,
        vec![first, exec("/usr/bin/wc", &["wc", "-l"], &d)],
    )]))
    .await;
    assert_eq!((out.stdout.trim(), out.stderr.as_str()), ("1", "err\n"));
}

#[tokio::test]
async fn sinks_route_output_as_planned() {
    let d = tmp();
    let both = |stdout: Sink, stderr: Sink| {
        let mut e = exec("/bin/sh", &["sh", "-c", "echo out; echo err >&2"], &d);
        e.stdout = stdout;
        e.stderr = stderr;
        plan(vec![step(ChainOp::Seq, vec![e])])
    };
    let cases = [
        ("plain", Sink::Stdout, Sink::Stderr, "out\n", "err\n"),
        (">/dev/null", Sink::Null, Sink::Stderr, "", "err\n"),
        ("2>/dev/null", Sink::Stdout, Sink::Null, "out\n", ""),
        (">/dev/null 2>&1", Sink::Null, Sink::Null, "", ""),
        ("2>&1", Sink::Stdout, Sink::Stdout, "out\nerr\n", ""),
        ("2>&1 >/dev/null", Sink::Null, Sink::Stdout, "err\n", ""),
        (">&2", Sink::Stderr, Sink::Stderr, "", "out\nerr\n"),
    ];
    for (name, stdout, stderr, want_out, want_err) in cases {
        assert_eq!(
            run(&both(stdout, stderr)).await,
            ok(want_out, want_err),
            "{name}"
        );
    }
}

#[tokio::test]
async fn feeds_a_heredoc_body_on_stdin() {
    let d = tmp();
    let mut cat = exec("/bin/cat", &["cat"], &d);
    cat.stdin = Some(Stdin::Heredoc("line one\n$HOME `id`\n".to_owned()));
    let out = run(&plan(vec![step(ChainOp::Seq, vec![cat])])).await;
    assert_eq!(out, ok("line one\n$HOME `id`\n", ""));
}

#[tokio::test]
async fn feeds_a_heredoc_larger_than_a_pipe_buffer() {
    let d = tmp();
    let mut wc = exec("/usr/bin/wc", &["wc", "-c"], &d);
    wc.stdin = Some(Stdin::Heredoc("x".repeat(1_000_000)));
    let out = run(&plan(vec![step(ChainOp::Seq, vec![wc])])).await;
    assert_eq!(out.stdout.trim(), "1000000");
}

/// `tr a-z A-Z < FILE` as planned: the file's real path on stdin.
fn tr_upper(file: &Path, cwd: &Path) -> PlannedExec {
    let mut tr = exec("/usr/bin/tr", &["tr", "a-z", "A-Z"], cwd);
    tr.stdin = Some(Stdin::File(file.to_path_buf()));
    tr
}

#[tokio::test]
async fn feeds_a_planned_file_on_stdin() {
    let d = tempfile::tempdir().unwrap();
    let real = d.path().canonicalize().unwrap();
    // A name a shell would read as several words and a command.
    let file = real.join("a b;echo pwned");
    std::fs::write(&file, "hello\n").unwrap();
    let out = run(&plan(vec![step(
        ChainOp::Seq,
        vec![tr_upper(&file, &real)],
    )]))
    .await;
    assert_eq!(out, ok("HELLO\n", ""));
    let null = tr_upper(Path::new("/dev/null"), &real);
    assert_eq!(
        run(&plan(vec![step(ChainOp::Seq, vec![null])])).await,
        ok("", "")
    );
}

#[tokio::test]
async fn a_stdin_file_overrides_the_pipe_as_in_bash() {
    let d = tempfile::tempdir().unwrap();
    let real = d.path().canonicalize().unwrap();
    let file = real.join("in.txt");
    std::fs::write(&file, "from file\n").unwrap();
    let out = run(&plan(vec![step(
        ChainOp::Seq,
        vec![
            exec("/bin/echo", &["echo", "from pipe"], &real),
            tr_upper(&file, &real),
        ],
    )]))
    .await;
    assert_eq!(out.stdout, "FROM FILE\n");
}

#[tokio::test]
async fn a_stdin_file_that_is_gone_fails_the_command_like_bash() {
    let d = tempfile::tempdir().unwrap();
    let real = d.path().canonicalize().unwrap();
    let gone = real.join("gone.txt");
    let out = run(&plan(vec![
        step(ChainOp::Seq, vec![tr_upper(&gone, &real)]),
        step(
            ChainOp::Or,
            vec![exec("/bin/echo", &["echo", "fallback"], &real)],
        ),
        step(
            ChainOp::And,
            vec![exec("/bin/echo", &["echo", "and"], &real)],
        ),
    ]))
    .await;
    // The command did not run; `||` ran on its status 1, as in bash.
    assert_eq!(out.stdout, "fallback\nand\n");
    assert!(out.stderr.contains("gone.txt"), "{out:?}");
    let alone = run(&plan(vec![step(
        ChainOp::Seq,
        vec![tr_upper(&gone, &real)],
    )]))
    .await;
    assert_eq!(alone.exit_code, Some(1), "{alone:?}");
    assert!(!alone.success);
}

#[tokio::test]
async fn a_stdin_file_swapped_for_a_link_fifo_or_directory_is_not_read() {
    let d = tempfile::tempdir().unwrap();
    let real = d.path().canonicalize().unwrap();
    let secret = real.join("secret");
    std::fs::write(&secret, "secret\n").unwrap();
    // Checked as a plain file, then replaced by a link to another file.
    let checked = real.join("checked.txt");
    std::os::unix::fs::symlink(&secret, &checked).unwrap();
    // A link on a directory of the path (Linux: openat2 refuses it too).
    let dir_link = real.join("dirlink");
    std::os::unix::fs::symlink(&real, &dir_link).unwrap();
    let through_dir = dir_link.join("secret");
    let fifo = real.join("fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
    let mut cases = vec![checked, fifo, real.clone()];
    if cfg!(target_os = "linux") {
        cases.push(through_dir);
    }
    for file in cases {
        let out = tokio::time::timeout(
            std::time::Duration::from_secs(10),
            run(&plan(vec![step(
                ChainOp::Seq,
                vec![tr_upper(&file, &real)],
            )])),
        )
        .await
        .unwrap_or_else(|_| panic!("{}: the open blocked", file.display()));
        assert_eq!(out.exit_code, Some(1), "{}: {out:?}", file.display());
        assert!(
            !out.stdout.contains("SECRET"),
            "{}: {out:?}",
            file.display()
        );
    }
}

#[tokio::test]
async fn stdin_is_closed_when_nothing_feeds_it() {
    let d = tmp();
    let out = run(&plan(vec![step(
        ChainOp::Seq,
        vec![exec("/bin/cat", &["cat"], &d)],
    )]))
    .await;
    assert_eq!(out, ok("", ""));
}

#[tokio::test]
async fn each_command_runs_in_its_own_cwd() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let (a_real, b_real) = (
        a.path().canonicalize().unwrap(),
        b.path().canonicalize().unwrap(),
    );
    let out = run(&plan(vec![
        step(
            ChainOp::Seq,
            vec![exec("/bin/pwd", &["pwd", "-P"], &a_real)],
        ),
        step(
            ChainOp::Seq,
            vec![exec("/bin/pwd", &["pwd", "-P"], &b_real)],
        ),
    ]))
    .await;
    assert_eq!(
        out,
        ok(&format!("{}\n{}\n", a_real.display(), b_real.display()), "")
    );
}

#[tokio::test]
async fn a_missing_cwd_is_an_error_outcome() {
    let gone = tmp().join("exec-run-no-such-dir-7d1c");
    let out = run(&plan(vec![
        step(
            ChainOp::Seq,
            vec![exec("/bin/echo", &["echo", "before"], &tmp())],
        ),
        step(ChainOp::Seq, vec![exec("/bin/echo", &["echo", "x"], &gone)]),
        step(
            ChainOp::Seq,
            vec![exec("/bin/echo", &["echo", "after"], &tmp())],
        ),
    ]))
    .await;
    assert_eq!(
        out,
        ExecOutcome {
            stdout: "before\n".to_owned(),
            error: Some(format!(
                "working directory {} does not exist or is not a directory",
                gone.display()
            )),
            ..ExecOutcome::default()
        }
    );
}

#[tokio::test]
async fn a_program_that_cannot_be_spawned_is_an_error_outcome() {
    let out = run(&plan(vec![step(
        ChainOp::Seq,
        vec![exec("/nonexistent/prog", &["prog"], &tmp())],
    )]))
    .await;
    assert_eq!((out.exit_code, out.success), (None, false));
    let error = out.error.unwrap_or_default();
    assert!(
        error.starts_with("cannot run /nonexistent/prog: "),
        "{error}"
    );
}

#[tokio::test]
async fn cd_sets_status_like_sh() {
    let d = tmp();
    let gone = tmp().join("exec-run-no-such-dir-3b2a");
    let cd = |dir: &Path| PlanStep {
        op: ChainOp::Seq,
        pipeline: vec![PlannedCommand::Cd {
            dir: dir.to_path_buf(),
        }],
    };
    let mut then_echo = step(ChainOp::And, vec![exec("/bin/echo", &["echo", "in"], &d)]);
    let out = run(&plan(vec![cd(&d), then_echo.clone()])).await;
    assert_eq!(out, ok("in\n", ""));

    then_echo.op = ChainOp::And;
    let out = run(&plan(vec![cd(&gone), then_echo])).await;
    assert_eq!(
        out,
        failed(
            1,
            "",
            &format!("cd: {}: No such file or directory\n", gone.display())
        )
    );
}

#[tokio::test]
async fn the_child_env_is_exactly_the_given_env_plus_inert_prefixes() {
    let d = tmp();
    let host = vec![
        ("PATH".to_owned(), "/usr/bin:/bin".to_owned()),
        ("LD_PRELOAD".to_owned(), "/tmp/evil.so".to_owned()),
        ("NODE_OPTIONS".to_owned(), "--require /tmp/x.js".to_owned()),
        ("KEEP_ME".to_owned(), "1".to_owned()),
    ];
    let env = child_env(
        host,
        &BTreeMap::from([("ADDED".to_owned(), "2".to_owned())]),
    )
    .unwrap();
    let mut printenv = exec("/usr/bin/env", &["env"], &d);
    printenv.env = vec![("LC_ALL".to_owned(), "C".to_owned())];
    let out = execute(
        &plan(vec![step(ChainOp::Seq, vec![printenv])]),
        &env,
        &ExecLimits::default(),
    )
    .await;
    let mut lines: Vec<&str> = out.stdout.lines().collect();
    lines.sort_unstable();
    assert_eq!(
        lines,
        ["ADDED=2", "KEEP_ME=1", "LC_ALL=C", "PATH=/usr/bin:/bin"]
    );
}

#[test]
fn overrides_of_path_or_ld_preload_are_refused_before_anything_runs() {
    let host = vec![("PATH".to_owned(), "/usr/bin:/bin".to_owned())];
    for key in ["PATH", "LD_PRELOAD"] {
        let overrides = BTreeMap::from([(key.to_owned(), "/tmp/x".to_owned())]);
        let refusal = child_env(host.clone(), &overrides).unwrap_err();
        assert!(
            matches!(
                refusal,
                EnvRefusal::PathOverride { .. } | EnvRefusal::Blocked { .. }
            ),
            "{key}: {refusal:?}"
        );
    }
}

#[tokio::test]
async fn output_and_errors_are_masked_before_they_leave() {
    let d = tmp();
    let out = run_masked(
        &plan(vec![step(
            ChainOp::Seq,
            vec![exec(
                "/bin/sh",
                &[
                    "sh",
                    "-c",
                    "echo AKIAIOSFODNN7EXAMPLE; echo tok-SECRET-123 >&2",
                ],
                &d,
            )],
        )]),
        &ChildEnv::exactly(env()),
        &ExecLimits::default(),
        &["tok-SECRET-123"],
    )
    .await;
    assert_eq!(
        out,
        ok(
            "[REDACTED:aws-access-key-id]\n",
            "[REDACTED:known-secret]\n"
        )
    );
}

#[tokio::test]
async fn a_signal_death_is_reported_and_not_a_success() {
    let d = tmp();
    let out = run(&plan(vec![step(
        ChainOp::Seq,
        vec![exec("/bin/sh", &["sh", "-c", "kill -9 $$"], &d)],
    )]))
    .await;
    assert_eq!(
        out,
        ExecOutcome {
            error: Some("terminated by signal SIGKILL".to_owned()),
            ..ExecOutcome::default()
        }
    );
}

#[tokio::test]
async fn an_empty_plan_or_pipeline_is_an_error_not_a_success() {
    let d = tmp();
    for plan in [
        plan(vec![]),
        plan(vec![
            step(ChainOp::Seq, vec![exec("/bin/echo", &["echo", "x"], &d)]),
            step(ChainOp::Seq, vec![]),
        ]),
    ] {
        let out = run(&plan).await;
        assert_eq!(
            out,
            ExecOutcome {
                error: Some("the plan has an empty step; nothing was run".to_owned()),
                ..ExecOutcome::default()
            }
        );
    }
}

#[tokio::test]
async fn an_empty_argv_is_an_error_not_a_guess() {
    let out = run(&plan(vec![step(
        ChainOp::Seq,
        vec![exec("/bin/echo", &[], &tmp())],
    )]))
    .await;
    assert_eq!(
        out.error.as_deref(),
        Some("cannot run /bin/echo: the planned argv is empty")
    );
}

#[tokio::test]
async fn an_env_name_with_equals_is_refused() {
    let mut e = exec("/usr/bin/env", &["env"], &tmp());
    e.env = vec![("A=B".to_owned(), "c".to_owned())];
    let out = run(&plan(vec![step(ChainOp::Seq, vec![e])])).await;
    assert_eq!((out.exit_code, out.stdout.as_str()), (None, ""));
    assert!(
        out.error
            .unwrap_or_default()
            .starts_with("cannot pass environment variable \"A=B\"")
    );
}
