//! Differential tests against the real `/bin/bash`: what our analysis says a
//! script runs (argv, stdin, where stdout and stderr go, which chain items
//! run) must be what bash does. Commands are replaced by shell functions that
//! record their argv and stdin on fd 3 and write one marker line to stdout and
//! one to stderr, so redirections and pipes are observed too.

mod shell_support;

use std::path::Path;
use std::process::{Command, Stdio};

use approvals_ipc::policy::plan::{ChainOp, Sink};
use approvals_ipc::policy::shell::{Input, ShellScript, analyze};
use proptest::prelude::*;
use shell_support::{HOME, SHADOWED, accepted, double_quote, single_quote};

const BASH: &str = "/bin/bash";

/// What one run shows: recorded commands, captured stdout and stderr lines.
/// All three are sorted: pipeline members run concurrently.
#[derive(Debug, PartialEq, Eq)]
struct Observed {
    records: Vec<Vec<String>>,
    stdout: Vec<String>,
    stderr: Vec<String>,
}

/// The bash prelude: one recording function per shadowed name.
fn prelude() -> String {
    let mut p = String::from(
        "exec 3>\"$__OUT\"\n\
         __rec() { local __n=$1; shift; local __in; __in=$(command cat; printf x); \
         printf '%s\\0' \"$__n\" \"$@\" \"<stdin>${__in%x}\" $'\\001' >&3; \
         printf 'O:%s\\n' \"$__n\"; printf 'E:%s\\n' \"$__n\" >&2; }\n",
    );
    for name in SHADOWED {
        p.push_str(&format!("{name}() {{ __rec {name} \"$@\"; }}\n"));
    }
    p
}

/// Runs `script` in bash after the prelude.
fn run_bash(script: &str, dir: &Path) -> Observed {
    let out_path = dir.join("fd3");
    let output = Command::new(BASH)
        .arg("-c")
        .arg(format!("{}{script}", prelude()))
        .env("HOME", HOME)
        .env("__OUT", &out_path)
        .stdin(Stdio::null())
        .output()
        .expect("run bash");
    let fd3 = std::fs::read(&out_path).unwrap_or_default();
    let fd3 = String::from_utf8(fd3).expect("utf-8 records");
    let mut records: Vec<Vec<String>> = fd3
        .split("\u{1}\0")
        .filter(|r| !r.is_empty())
        .map(|r| {
            r.split('\0')
                .filter(|_| true)
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .map(|mut r| {
            // `printf '%s\0'` ends each field with NUL; drop the empty tail.
            if r.last().is_some_and(String::is_empty) {
                r.pop();
            }
            r
        })
        .collect();
    records.sort();
    Observed {
        records,
        stdout: sorted_lines(&output.stdout),
        stderr: sorted_lines(&output.stderr),
    }
}

fn sorted_lines(bytes: &[u8]) -> Vec<String> {
    let mut lines: Vec<String> = String::from_utf8_lossy(bytes)
        .lines()
        .map(str::to_owned)
        .collect();
    lines.sort();
    lines
}

/// What our analysis predicts bash shows, when every command succeeds.
fn predict(script: &ShellScript) -> Observed {
    let mut records = Vec::new();
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    for item in &script.items {
        // Every recording function exits 0: `||` items never run.
        if item.op == ChainOp::Or {
            continue;
        }
        let mut pipe = String::new();
        let last = item.pipeline.len() - 1;
        for (k, command) in item.pipeline.iter().enumerate() {
            let stdin = match (&command.stdin, k) {
                (Some(Input::Heredoc(body)), _) => body.clone(),
                // Read where bash runs: this test's working directory.
                (Some(Input::File(name)), _) => std::fs::read_to_string(name).expect("stdin file"),
                (None, 0) => String::new(),
                (None, _) => pipe.clone(),
            };
            let mut record = command.argv.clone();
            record.push(format!("<stdin>{stdin}"));
            records.push(record);
            let name = &command.argv[0];
            let mut next_pipe = String::new();
            for (line, sink) in [
                (format!("O:{name}"), command.stdout),
                (format!("E:{name}"), command.stderr),
            ] {
                match sink {
                    Sink::Stdout if k < last => next_pipe.push_str(&format!("{line}\n")),
                    Sink::Stdout => stdout.push(line),
                    Sink::Stderr => stderr.push(line),
                    Sink::Null => {}
                }
            }
            pipe = next_pipe;
        }
    }
    records.sort();
    stdout.sort();
    stderr.sort();
    Observed {
        records,
        stdout,
        stderr,
    }
}

#[test]
fn bash_runs_what_the_analysis_says_for_every_accepted_script() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut failures = Vec::new();
    for (script, _) in accepted() {
        let analysis = analyze(script, Some(HOME)).expect("accepted script");
        let names_shadowed = analysis
            .items
            .iter()
            .flat_map(|i| &i.pipeline)
            .all(|c| SHADOWED.contains(&c.argv[0].as_str()));
        assert!(
            names_shadowed,
            "{script:?} uses a command the prelude does not shadow"
        );
        let want = predict(&analysis);
        let got = run_bash(script, dir.path());
        if got != want {
            failures.push(format!(
                "{script:?}:\n  analysis {want:?}\n  bash     {got:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn redirection_orders_match_bash() {
    let dir = tempfile::tempdir().expect("tempdir");
    let redirections = [
        "",
        "2>&1",
        ">/dev/null",
        "2>/dev/null",
        "&>/dev/null",
        ">/dev/null 2>&1",
        "2>&1 >/dev/null",
        "2>/dev/null 2>&1",
        "2>&1 2>/dev/null",
        "1>/dev/null 2>&1 >/dev/null",
        "2>&1 &>/dev/null",
        "2>/dev/null >/dev/null 2>&1",
    ];
    for r in redirections {
        for script in [
            format!("echo x {r}"),
            format!("echo x {r} | cat"),
            format!("echo x {r} |& cat"),
        ] {
            let analysis = analyze(&script, Some(HOME)).expect("understood");
            assert_eq!(
                run_bash(&script, dir.path()),
                predict(&analysis),
                "{script:?}"
            );
        }
    }
}

fn arg_char() -> impl Strategy<Value = char> {
    prop_oneof![
        8 => proptest::char::range(' ', '~'),
        1 => Just('\n'),
        1 => Just('\t'),
        1 => prop::sample::select(vec!['é', '日', '🙂', 'ѕ']),
    ]
}

fn arg() -> impl Strategy<Value = String> {
    prop::collection::vec(arg_char(), 0..12).prop_map(|v| v.into_iter().collect())
}

/// Quotes every word with `quote`, after a fixed command word.
fn script_of(args: &[String], quote: fn(&str) -> String) -> String {
    let mut s = String::from("echo");
    for a in args {
        s.push(' ');
        s.push_str(&quote(a));
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random words, quoted, through both our analysis and bash.
    #[test]
    fn bash_and_analysis_agree_on_quoted_random_words(
        args in prop::collection::vec(arg(), 0..5),
        double in any::<bool>(),
    ) {
        let script = script_of(&args, if double { double_quote } else { single_quote });
        prop_assume!(!shell_support::has_function_substitution_shape(&script));
        let analysis = analyze(&script, Some(HOME));
        prop_assert!(analysis.is_ok(), "{script:?}: {analysis:?}");
        let dir = tempfile::tempdir().expect("tempdir");
        let got = run_bash(&script, dir.path());
        let mut want = vec!["echo".to_owned()];
        want.extend(args.iter().cloned());
        want.push("<stdin>".to_owned());
        prop_assert_eq!(&got.records, &vec![want]);
        if let Ok(analysis) = analysis {
            prop_assert_eq!(got, predict(&analysis));
        }
    }
}
