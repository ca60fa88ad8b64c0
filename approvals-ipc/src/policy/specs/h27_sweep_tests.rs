//! Holes found by the H27 red-team sweep in programs that have specs, each
//! test named by the attack it stops, with the everyday commands the fixes
//! must leave alone.

use super::lookup;
use super::tests::ids;

/// Asserts `argv` trips `id`.
fn asks(argv: &[&str], id: &str) {
    assert!(ids(argv).contains(&id), "{argv:?}: {:?}", ids(argv));
}

/// Asserts `argv` trips nothing.
fn allowed(argv: &[&str]) {
    assert_eq!(ids(argv), Vec::<&str>::new(), "{argv:?}");
}

#[test]
fn npm_run_env_printing_the_environment_is_asked() {
    // No package.json in the test directory: whether an `env` script
    // exists is not known, so npm's built-in one may run.
    for argv in [
        &["npm", "run", "env"][..],
        &["npm", "run-script", "env"],
        &["npm", "rum", "env"],
        &["npm", "urn", "env"],
        &["npm", "run", "env", "--if-present"],
    ] {
        asks(argv, crate::policy::secrets::ENVIRONMENT_ID);
    }
    assert!(
        !ids(&["npm", "run", "build"]).contains(&crate::policy::secrets::ENVIRONMENT_ID),
        "npm run build"
    );
}

#[test]
fn npm_run_env_is_the_projects_own_script_when_package_json_has_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("package.json"),
        r#"{"scripts": {"env": "node scripts/env.js"}}"#,
    )
    .expect("write");
    let with_script = super::tests::ids_in(dir.path(), &["npm", "run", "env"]);
    assert!(
        !with_script.contains(&crate::policy::secrets::ENVIRONMENT_ID),
        "{with_script:?}"
    );
    std::fs::write(
        dir.path().join("package.json"),
        r#"{"scripts": {"build": "tsc"}}"#,
    )
    .expect("write");
    let without = super::tests::ids_in(dir.path(), &["npm", "run", "env"]);
    assert!(
        without.contains(&crate::policy::secrets::ENVIRONMENT_ID),
        "{without:?}"
    );
}

#[test]
fn go_test_binary_flags_after_args_writing_files_are_asked() {
    for argv in [
        &["go", "test", "-args", "-test.coverprofile=../x"][..],
        &["go", "test", ".", "-args", "-test.cpuprofile=../x"],
        &["go", "test", "./...", "-args", "--test.outputdir=/tmp"],
        &["go", "test", "-args", "-test.testlogfile", "/tmp/x"],
        &["go", "test", "-args", "-test.gocoverdir=/tmp"],
        &["go", "test", "-args", "-test.unknownflag"],
    ] {
        asks(argv, "go.writes-file");
    }
    allowed(&["go", "test", "./...", "-args", "-test.run=TestX", "-test.v"]);
    allowed(&[
        "go",
        "test",
        "-args",
        "-test.count=1",
        "-test.timeout",
        "5s",
    ]);
    // A word that is no `-test.` flag is the test's own argument.
    allowed(&["go", "test", "-args", "-update", "testdata"]);
    // Not `go test`: `go run` hands its arguments to the program.
    allowed(&["go", "vet", "./..."]);
}

#[test]
fn go_fmt_and_go_fix_rewriting_another_tree_are_asked() {
    asks(&["go", "fmt", "../x"], "go.other-tree");
    asks(&["go", "fix", "/tmp/x"], "go.other-tree");
    allowed(&["go", "fmt", "./..."]);
    allowed(&["go", "fix", "./pkg"]);
}

#[test]
fn uv_init_creating_a_project_outside_the_tree_is_asked() {
    asks(&["uv", "init", "../x"], "uv.other-tree");
    allowed(&["uv", "init"]);
    allowed(&["uv", "init", "sub"]);
}

#[test]
fn gnu_and_clone_names_read_by_their_programs_spec() {
    assert_eq!(lookup("gsort").map(|s| s.family), Some("sort"));
    assert_eq!(lookup("gojq").map(|s| s.family), Some("jq"));
    assert_eq!(lookup("jaq").map(|s| s.family), Some("jq"));
    assert_eq!(lookup("remake").map(|s| s.family), Some("make"));
    assert!(
        ids(&["gsort", "-o", "../x", "x"])
            .iter()
            .any(|id| id.ends_with(".writes-file")),
        "gsort -o ../x"
    );
    assert!(
        !ids(&["remake", "--eval=$(shell id)"]).is_empty(),
        "remake --eval"
    );
}
