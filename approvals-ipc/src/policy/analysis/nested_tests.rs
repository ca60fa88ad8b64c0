//! A nested `sh -c` inside a script: read one level deep where the inner
//! commands can take its place, refused otherwise.

use std::path::Path;

use crate::policy::decision::tests::compiled;
use crate::policy::{CompiledPolicy, Evaluation, Verdict};

fn policy() -> CompiledPolicy {
    compiled(serde_json::json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss"},
        "agents": {"main": {"allowlist": [
            {"pattern": "/usr/**/git"}, {"pattern": "/usr/bin/ls"},
            {"pattern": "/usr/bin/cat"}, {"pattern": "/usr/bin/echo"}
        ]}}
    }))
}

fn script(text: &str) -> Evaluation {
    let argv = ["sh".to_owned(), "-c".to_owned(), text.to_owned()];
    policy().evaluate(&argv, Path::new("/tmp"), &Default::default())
}

fn argvs(e: &Evaluation) -> Vec<Vec<String>> {
    e.analysis
        .segments
        .iter()
        .map(|s| s.argv.to_vec())
        .collect()
}

fn refusal(e: &Evaluation) -> Option<&'static str> {
    e.analysis.reason.as_ref().map(|r| r.code())
}

#[test]
fn a_nested_shell_that_is_the_whole_script_is_read_as_its_chain() {
    let e = script("bash -c 'git status && ls -la'");
    assert!(e.analysis.ok, "{:?}", e.analysis.reason);
    assert_eq!(argvs(&e), [vec!["git", "status"], vec!["ls", "-la"]]);
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
}

#[test]
fn a_nested_shell_alone_in_its_chain_step_is_read_as_its_pipeline() {
    let e = script("git status && sh -c 'ls | cat'");
    assert!(e.analysis.ok, "{:?}", e.analysis.reason);
    assert_eq!(argvs(&e), [vec!["git", "status"], vec!["ls"], vec!["cat"]]);
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
}

#[test]
fn a_nested_shell_inside_a_pipeline_is_read_only_as_one_command() {
    let e = script("ls | sh -c 'cat -n'");
    assert_eq!(argvs(&e), [vec!["ls"], vec!["cat", "-n"]]);
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
    // A chain inside a pipeline cannot take the command's place.
    let e = script("ls | sh -c 'cat && cat'");
    assert_eq!(refusal(&e), Some("nested-shell"));
    assert_ne!(e.decision, Verdict::Allow);
}

#[test]
fn a_nested_chain_inside_a_longer_chain_is_refused_since_flattening_changes_it() {
    // `ls && sh -c 'false || echo x'` is not `ls && false || echo x`.
    let e = script("ls && sh -c 'false || echo x'");
    assert_eq!(refusal(&e), Some("nested-shell"));
    assert_ne!(e.decision, Verdict::Allow);
}

#[test]
fn only_one_level_is_read() {
    let e = script("sh -c \"sh -c 'ls'\"");
    assert_eq!(refusal(&e), Some("nested-shell"));
    assert_ne!(e.decision, Verdict::Allow);
}

#[test]
fn a_nested_shell_with_a_wrapper_prefix_or_redirection_is_refused() {
    for text in [
        "ls && nice sh -c 'ls'",
        "ls && FOO=1 sh -c 'ls'",
        "ls && sh -c 'ls' >/dev/null",
        "ls && sh -c 'ls' 2>&1",
        "FOO=1 sh -c 'ls'",
    ] {
        let e = script(text);
        assert!(!e.analysis.ok, "{text}");
        assert_ne!(e.decision, Verdict::Allow, "{text}");
    }
}

#[test]
fn what_the_inner_script_hides_is_refused_by_its_own_construct() {
    let e = script("ls && sh -c 'echo $(id)'");
    assert_eq!(refusal(&e), Some("command-substitution"));
    let e = script("sh -c 'ls > /tmp/x'");
    assert_eq!(refusal(&e), Some("redirection"));
}

#[test]
fn the_inner_commands_are_checked_like_any_other() {
    // rm is not allowlisted; the nested shell does not hide it.
    let e = script("sh -c 'ls && rm -rf /tmp/x'");
    assert!(e.analysis.ok);
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(argvs(&e)[1], ["rm", "-rf", "/tmp/x"]);
}

#[test]
fn only_one_level_is_read_inside_a_pipeline_either() {
    let e = script("ls | sh -c \"sh -c 'cat'\"");
    assert_eq!(refusal(&e), Some("nested-shell"));
    let e = script("ls | sh -c 'cat' | sh -c \"sh -c 'cat'\"");
    assert_eq!(refusal(&e), Some("nested-shell"));
}

#[test]
fn a_heredoc_may_replace_a_nested_shell_only_where_no_pipe_feeds_it() {
    // First in its pipeline: the heredoc is the command's stdin, as it was.
    let e = script("sh -c 'cat <<EOF\nhello\nEOF\n' | cat -n");
    assert!(e.analysis.ok, "{:?}", e.analysis.reason);
    assert_eq!(argvs(&e), [vec!["cat"], vec!["cat", "-n"]]);
    // After a pipe: the heredoc would take the pipe's place.
    let e = script("ls | sh -c 'cat <<EOF\nhello\nEOF\n'");
    assert_eq!(refusal(&e), Some("nested-shell"));
}
