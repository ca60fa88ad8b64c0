//! Gaps found by helper H30's sweep in full specs: go's compiler and
//! assembler flags, and docker's `container` and `image` spellings of a
//! top-level command, each test named by the attack it stops or by what
//! stays allowed.

use super::tests::ids;

const NONE: [&str; 0] = [];

#[test]
fn go_gcflags_and_asmflags_writing_profiles_or_files_are_asked() {
    for argv in [
        &["go", "build", "-gcflags", "-cpuprofile=/tmp/x", "."][..],
        &["go", "build", "-gcflags=-memprofile=/tmp/m", "."],
        &["go", "build", "-gcflags", "all=-trace /tmp/t", "."],
        &[
            "go",
            "build",
            "-gcflags",
            "all=-N -l -blockprofile /tmp/b",
            ".",
        ],
        &["go", "test", "-gcflags", "-o /tmp/x", "./..."],
        &["go", "run", "-gcflags", "-importcfg /tmp/cfg", "."],
        &["go", "build", "-gcflags", "-d=ssa/check/on", "."],
        &[
            "go",
            "build",
            "-gcflags",
            "-N -l -json=0,file:///tmp/j",
            ".",
        ],
        &["go", "build", "-asmflags", "-o /tmp/x", "."],
        &["go", "build", "-asmflags", "all=-I /tmp/inc", "."],
        // A pattern with no flags after it, and a quoted list: asked.
        &["go", "build", "-gcflags", "all=", "."],
        &["go", "build", "-gcflags", "-m '-N'", "."],
        // A first word that is no flag and no pattern is asked.
        &["go", "build", "-gcflags", "main.x=1", "."],
    ] {
        assert_eq!(ids(argv), ["go.sets-config"], "{argv:?}");
    }
}

#[test]
fn go_gcflags_and_asmflags_for_debugging_a_build_stay_allowed() {
    for argv in [
        &["go", "build", "-gcflags", "-N -l", "."][..],
        &["go", "build", "-gcflags", "all=-N -l", "."],
        &["go", "build", "-gcflags=-m", "."],
        &["go", "build", "-gcflags=-m=2", "."],
        &["go", "test", "-gcflags", "-m -m", "./..."],
        &["go", "build", "-gcflags", "./...=-S", "."],
        &["go", "build", "-asmflags", "all=-S", "."],
        &["go", "build", "-asmflags", "-D GOOS_linux", "."],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
    // `-ldflags` keeps asking a leading pattern, as H28's corpus line says.
    assert_eq!(
        ids(&["go", "build", "-ldflags", "all=-s", "."]),
        ["go.sets-config"]
    );
}

#[test]
fn docker_container_spellings_of_top_level_commands_are_judged_the_same() {
    for (long, short) in [
        (
            &["docker", "container", "rm", "-f", "app"][..],
            &["docker", "rm", "-f", "app"][..],
        ),
        (
            &["docker", "container", "remove", "app"],
            &["docker", "rm", "app"],
        ),
        (
            &["docker", "container", "stop", "app"],
            &["docker", "stop", "app"],
        ),
        (
            &["docker", "container", "kill", "-s", "HUP", "app"],
            &["docker", "kill", "-s", "HUP", "app"],
        ),
        (
            &["docker", "container", "restart", "app"],
            &["docker", "restart", "app"],
        ),
        (
            &["docker", "container", "start", "app"],
            &["docker", "start", "app"],
        ),
        (
            &["docker", "container", "logs", "-f", "app"],
            &["docker", "logs", "-f", "app"],
        ),
        (
            &["docker", "container", "top", "app", "-ef"],
            &["docker", "top", "app", "-ef"],
        ),
        (
            &["docker", "image", "rm", "alpine"],
            &["docker", "rmi", "alpine"],
        ),
    ] {
        assert_eq!(ids(long), NONE, "{long:?}");
        assert_eq!(ids(short), NONE, "{short:?}");
    }
    // An unknown option is unknown under either spelling.
    assert_ne!(ids(&["docker", "container", "rm", "--frob", "app"]), NONE);
    assert_ne!(ids(&["docker", "rm", "--frob", "app"]), NONE);
    // The container commands that run code or copy stay unknown, so asked.
    for argv in [
        &["docker", "container", "run", "alpine"][..],
        &["docker", "container", "exec", "app", "sh"],
        &["docker", "container", "cp", "app:/x", "/tmp/x"],
        &["docker", "container", "prune", "-f"],
    ] {
        assert_ne!(ids(argv), NONE, "{argv:?}");
    }
}
