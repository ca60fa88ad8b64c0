//! Scripts the shell analysis understands, with their exact result.

mod shell_support;

use approvals_ipc::policy::plan::ChainOp;
use approvals_ipc::policy::shell::analyze;
use shell_support::{HOME, accepted};

#[test]
fn accepts_each_script_with_its_exact_analysis() {
    let mut failures = Vec::new();
    for (script, want) in accepted() {
        match analyze(script, Some(HOME)) {
            Ok(got) if got == want => {}
            other => failures.push(format!("{script:?}:\n  want {want:?}\n  got  {other:?}")),
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn accepted_scripts_keep_the_shape_invariants() {
    for (script, _) in accepted() {
        let Ok(got) = analyze(script, Some(HOME)) else {
            panic!("{script:?} refused");
        };
        assert_eq!(
            got.items.first().map(|i| i.op),
            Some(ChainOp::Seq),
            "{script:?}"
        );
        for item in &got.items {
            assert!(!item.pipeline.is_empty(), "{script:?}");
            for command in &item.pipeline {
                let word = command.argv.first().map(String::as_str).unwrap_or_default();
                assert!(!word.is_empty() && word.is_ascii(), "{script:?}");
            }
        }
    }
}

#[test]
fn analysis_is_deterministic() {
    for (script, _) in accepted() {
        assert_eq!(analyze(script, Some(HOME)), analyze(script, Some(HOME)));
    }
}
