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
fn semantic_wrapper_table_is_sorted_unique_and_explained() {
    let names: Vec<_> = SEMANTIC_WRAPPERS.iter().map(|(n, _)| *n).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(names, sorted);
    assert!(SEMANTIC_WRAPPERS.iter().all(|(_, r)| !r.is_empty()));
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
