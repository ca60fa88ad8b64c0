//! False refusals found by helper H28's everyday-command sweep (issue 11
//! class 9), each test named by what it proves, beside the attacks the
//! fixes must keep asked.

use super::tests::ids;

const NONE: [&str; 0] = [];

#[test]
fn go_ldflags_that_strip_or_stamp_a_version_are_inert_and_every_other_link_flag_is_asked() {
    for argv in [
        &["go", "build", "-ldflags", "-s -w", "./..."][..],
        &["go", "build", "-ldflags=-s -w -X main.version=1.2.3", "."],
        &[
            "go",
            "build",
            "-ldflags",
            "-X=main.commit=abc123",
            "-o",
            "bin/app",
            ".",
        ],
        &["go", "run", "-ldflags=-w", "."],
        &["go", "test", "-ldflags", "-X main.debug=true", "./..."],
        &["go", "build", "-ldflags", "-buildid=", "."],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
    for argv in [
        &["go", "build", "-ldflags=-extld=sh", "."][..],
        &["go", "build", "-ldflags", "-s -extld /tmp/evil", "."],
        &[
            "go",
            "build",
            "-ldflags",
            "-linkmode external -extldflags -B/tmp",
            ".",
        ],
        &["go", "build", "-ldflags", "-o /tmp/x", "."],
        &["go", "build", "-ldflags", "-tmpdir /tmp/x", "."],
        // A first word that is no flag is a package pattern to go.
        &["go", "build", "-ldflags", "all=-extld=sh", "."],
        &["go", "build", "-ldflags", "all=-s", "."],
        // go splits quoted words its own way: asked.
        &["go", "build", "-ldflags", "-X 'main.v=a b'", "."],
        // `-X` with no value takes the next link flag as its value.
        &["go", "build", "-ldflags", "-s -X", "."],
        &["go", "build", "-gccgoflags", "-s", "."],
    ] {
        assert_eq!(ids(argv), ["go.sets-config"], "{argv:?}");
    }
}

#[test]
fn docker_context_listing_is_read_only_and_switching_or_writing_a_context_is_asked() {
    for argv in [
        &["docker", "context", "ls"][..],
        &["docker", "context", "list", "-q"],
        &["docker", "context", "ls", "--format", "json"],
        &["docker", "context", "show"],
        &["docker", "context", "inspect", "default", "-f", "{{.Name}}"],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
    for argv in [
        &["docker", "context", "use", "prod"][..],
        &[
            "docker",
            "context",
            "create",
            "x",
            "--docker",
            "host=ssh://h",
        ],
        &["docker", "context", "update", "default"],
        &["docker", "context", "import", "x", "/tmp/x.tar"],
        &["docker", "context", "export", "default", "/tmp/x.tar"],
        &["docker", "context", "rm", "x"],
    ] {
        assert_eq!(ids(argv), ["docker.unknown-subcommand"], "{argv:?}");
    }
    assert_eq!(
        ids(&["docker", "context", "ls", "--frob"]),
        ["docker.unknown-option"]
    );
}

#[test]
fn uv_sync_takes_its_hidden_dev_flag_and_still_asks_what_it_does_not_know() {
    for argv in [
        &["uv", "sync", "--dev"][..],
        &["uv", "sync", "--dev", "--all-extras", "--frozen"],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
    assert_eq!(
        ids(&["uv", "sync", "--dev", "--frob"]),
        ["uv.unknown-option"]
    );
    assert_eq!(
        ids(&["uv", "sync", "--dev", "--python", "/tmp/evil/python"]),
        ["uv.runs-program"]
    );
}

/// Helper H28's sweep: `docker exec app ls -la` was asked, `-la` read as
/// docker's option. docker's `run`, `create`, `exec`, `commit`, `tag` and
/// `top` end their options at the image or container (cobra's
/// `SetInterspersed(false)`, checked against the installed docker by
/// `tests/spec_net_conformance.rs`): what follows is the container
/// command's. Every option before it is still judged.
#[test]
fn docker_options_end_at_the_image_or_container_and_every_option_before_it_is_judged() {
    for argv in [
        &["docker", "exec", "app", "ls", "-la"][..],
        &["docker", "exec", "-it", "db", "psql", "-U", "postgres"],
        &["docker", "exec", "app", "sh", "-c", "ls -la"],
        &["docker", "run", "--rm", "node:20", "node", "--version"],
        &["docker", "run", "--rm", "alpine", "ls", "--privileged"],
        &["docker", "run", "--rm", "alpine", "sh", "-v", "/:/host"],
        &["docker", "create", "alpine", "--network", "host"],
        &["docker", "top", "app", "-ef"],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
    for (argv, id) in [
        (
            &["docker", "run", "--privileged", "alpine", "ls"][..],
            "docker.runs-program",
        ),
        (
            &["docker", "run", "-v", "/:/host", "alpine", "ls"],
            "docker.other-tree",
        ),
        (
            &["docker", "exec", "--frob", "app", "ls"],
            "docker.unknown-option",
        ),
        (
            &["docker", "create", "--network", "host", "alpine"],
            "docker.runs-program",
        ),
    ] {
        assert!(ids(argv).contains(&id), "{argv:?}: {:?}", ids(argv));
    }
    // The commands that read options anywhere still do.
    assert_eq!(
        ids(&["docker", "logs", "app", "--frob"]),
        ["docker.unknown-option"]
    );
}

/// Helper H28's sweep: `cargo install --list` (lists what is installed)
/// and `rustup doc --path` (prints where the docs are) were asked as the
/// install and the browser they skip. Without the option they are still
/// asked, and every other option they are given is still judged.
#[test]
fn an_option_that_only_prints_drops_its_subcommands_effect_and_nothing_else() {
    for argv in [
        &["cargo", "install", "--list"][..],
        &["cargo", "install", "--list", "-q"],
        &["rustup", "doc", "--path"],
        &["rustup", "doc", "--path", "--std"],
        &["rustup", "doc", "--path", "core::fmt"],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
    assert_eq!(ids(&["cargo", "install", "ripgrep"]), ["cargo.loads-code"]);
    assert_eq!(ids(&["rustup", "doc"]), ["rustup.runs-program"]);
    assert_eq!(ids(&["rustup", "doc", "--std"]), ["rustup.runs-program"]);
    // Another option's effect is judged as before.
    assert!(
        ids(&["cargo", "install", "--list", "--root", "/tmp/x"]).contains(&"cargo.writes-file")
    );
    assert!(
        ids(&["cargo", "install", "--list", "--git", "https://x/y", "z"])
            .contains(&"cargo.loads-code")
    );
    assert!(ids(&["cargo", "install", "--list", "--config", "x=1"]).contains(&"cargo.sets-config"));
}
