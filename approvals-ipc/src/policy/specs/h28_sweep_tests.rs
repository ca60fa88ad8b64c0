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
