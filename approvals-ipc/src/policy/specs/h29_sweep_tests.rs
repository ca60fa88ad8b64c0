//! Holes found by the H29 sweep in programs that have specs, each test
//! named by the attack it stops, with the everyday commands the fixes must
//! leave alone.

use super::tests::ids;
use crate::policy::secrets::ENVIRONMENT_ID;

/// Asserts `argv` trips `id`.
fn asks(argv: &[&str], id: &str) {
    assert!(ids(argv).contains(&id), "{argv:?}: {:?}", ids(argv));
}

/// Asserts `argv` trips nothing.
fn allowed(argv: &[&str]) {
    assert_eq!(ids(argv), Vec::<&str>::new(), "{argv:?}");
}

#[test]
fn make_print_data_base_printing_the_environment_is_asked() {
    for argv in [
        &["make", "-p"][..],
        &["make", "--print-data-base"],
        &["make", "--print-data"],
        &["make", "-pn"],
        &["make", "-qp"],
        &["make", "-np", "all"],
        &["make", "-p", "-n", "all"],
    ] {
        asks(argv, ENVIRONMENT_ID);
    }
    allowed(&["make", "-n"]);
    allowed(&["make", "-q", "build"]);
    allowed(&["make", "-j4", "test"]);
}

#[test]
fn docker_copying_a_host_variable_into_a_container_is_asked() {
    for argv in [
        &["docker", "run", "-e", "GITHUB_TOKEN", "alpine", "env"][..],
        &["docker", "run", "--env", "GITHUB_TOKEN", "alpine"],
        &["docker", "run", "--env=AWS_SECRET_ACCESS_KEY", "alpine"],
        &["docker", "run", "-eGITHUB_TOKEN", "alpine"],
        &["docker", "create", "-e", "GITHUB_TOKEN", "alpine"],
        &["docker", "exec", "-e", "GITHUB_TOKEN", "c", "env"],
        &["docker", "exec", "--env", "NPM_TOKEN", "c", "env"],
        &["docker", "build", "--build-arg", "GITHUB_TOKEN", "."],
        &["docker", "build", "--build-arg=NPM_TOKEN", "-t", "x", "."],
    ] {
        asks(argv, ENVIRONMENT_ID);
    }
    for argv in [
        &["docker", "run", "--env-file", "../.env", "alpine"][..],
        &["docker", "run", "--env-file=/tmp/x.env", "alpine"],
        &["docker", "exec", "--env-file", "/etc/x.env", "c", "env"],
    ] {
        asks(argv, "docker.loads-code");
    }
    for argv in [
        &["docker", "run", "--rm", "-e", "RUST_LOG=debug", "img"][..],
        &[
            "docker",
            "run",
            "--rm",
            "-e",
            "NODE_ENV=production",
            "-e",
            "PORT=8080",
            "img",
        ],
        &["docker", "run", "--rm", "-e", "TERM", "img"],
        &["docker", "run", "--rm", "--env-file", ".env", "img"],
        &["docker", "exec", "-e", "TERM=xterm", "c", "ls"],
        &[
            "docker",
            "build",
            "--build-arg",
            "VERSION=1.2",
            "-t",
            "x",
            ".",
        ],
    ] {
        allowed(argv);
    }
}

#[test]
fn cargo_custom_target_spec_outside_the_tree_naming_a_linker_is_asked() {
    for argv in [
        &["cargo", "build", "--target", "../x.json"][..],
        &["cargo", "build", "--target=/tmp/x.json"],
        &["cargo", "check", "--target", "/tmp/x.json"],
        &["cargo", "test", "--target", "../x.json"],
        &["cargo", "run", "--target", "../x.json"],
        &["cargo", "doc", "--target", "~/x.json"],
        // A URL is no file of the tree, whatever it spells.
        &["cargo", "build", "--target", "https://example.com/x.json"],
    ] {
        asks(argv, "cargo.loads-code");
    }
    for argv in [
        &["cargo", "build", "--target", "x86_64-unknown-linux-musl"][..],
        &["cargo", "build", "--target=wasm32-unknown-unknown"],
        &[
            "cargo",
            "build",
            "--release",
            "--target",
            "aarch64-unknown-linux-gnu",
        ],
        &[
            "cargo",
            "build",
            "--target",
            "targets/thumbv7em-custom.json",
        ],
    ] {
        allowed(argv);
    }
}

#[test]
fn rsync_merge_files_and_lists_outside_the_tree_are_asked() {
    for argv in [
        &["rsync", "--filter=merge ../rules", "src/", "build/"][..],
        &["rsync", "--filter=. /tmp/rules", "src/", "build/"],
        &["rsync", "--filter=merge,- ~/.netrc", "src/", "build/"],
        &["rsync", "--filter=.- /tmp/x", "src/", "build/"],
        &["rsync", "--filter=: /etc/x", "src/", "build/"],
        &["rsync", "--filter=dir-merge /tmp/x", "src/", "build/"],
        &["rsync", "--filter=merge_../x", "src/", "build/"],
        &["rsync", "-f", "merge /tmp/x", "src/", "build/"],
        &["rsync", "--filter=merge", "src/", "build/"],
        &["rsync", "--files-from=../list", ".", "build/"],
        &["rsync", "--include-from", "/tmp/x", "src/", "build/"],
        &[
            "rsync",
            "--exclude-from=/etc/rsync-excludes",
            "src/",
            "build/",
        ],
    ] {
        asks(argv, "rsync.loads-code");
    }
    for argv in [
        &["rsync", "-a", "--filter=- *.o", "src/", "build/"][..],
        &["rsync", "-a", "--filter=+ /keep", "src/", "build/"],
        &["rsync", "-a", "--filter=: .rsync-filter", "src/", "build/"],
        &["rsync", "-a", "--filter=merge rules.txt", "src/", "build/"],
        &["rsync", "-aF", "src/", "build/"],
        &[
            "rsync",
            "-a",
            "--exclude-from=.rsyncignore",
            "src/",
            "build/",
        ],
        &["rsync", "-a", "--files-from=list.txt", ".", "build/"],
        &["rsync", "-a", "--exclude", "*.o", "src/", "build/"],
    ] {
        allowed(argv);
    }
}
