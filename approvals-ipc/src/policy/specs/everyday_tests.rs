//! False refusals found by the everyday-command sweep (helper H23), each
//! test named by what it proves, beside the attacks the fixes must keep
//! asked.

use super::tests::{ids, reasons};

const NONE: [&str; 0] = [];

#[test]
fn git_plumbing_diffs_are_read_only_and_their_output_file_is_a_write() {
    for argv in [
        &[
            "git",
            "diff-tree",
            "--no-commit-id",
            "--name-only",
            "-r",
            "HEAD",
        ][..],
        &["git", "diff-tree", "-r", "--stat", "--root", "HEAD"],
        &[
            "git",
            "diff-tree",
            "-p",
            "--pretty=oneline",
            "HEAD~1",
            "HEAD",
        ],
        &["git", "diff-index", "--quiet", "HEAD", "--"],
        &["git", "diff-index", "--cached", "--name-status", "HEAD"],
        &["git", "diff-files", "--name-only"],
        &["git", "diff-files", "-q", "--ours", "src"],
        &["git", "diff-tree", "--ext-diff", "HEAD"],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
    for argv in [
        &["git", "diff-tree", "--output=/tmp/x", "HEAD"][..],
        &["git", "diff-index", "--output", "../x", "HEAD"],
        &["git", "diff-files", "--output=.git/hooks/pre-commit"],
    ] {
        assert_eq!(ids(argv), ["git.writes-file"], "{argv:?}");
    }
    // `--outp` is `--output` or an `--output-indicator-*`: asked.
    assert_eq!(
        ids(&["git", "diff-tree", "--outp=/tmp/x", "HEAD"]),
        ["git.unknown-option"]
    );
    assert_eq!(
        ids(&["git", "diff-files", "--frob", "a"]),
        ["git.unknown-option"]
    );
}

#[test]
fn git_merge_tree_writes_objects_only_and_its_unknown_options_are_asked() {
    for argv in [
        &["git", "merge-tree", "main", "HEAD"][..],
        &[
            "git",
            "merge-tree",
            "--write-tree",
            "--name-only",
            "main",
            "HEAD",
        ],
        &["git", "merge-tree", "-X", "ours", "--messages", "a", "b"],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
    assert_eq!(
        ids(&["git", "merge-tree", "--output=/tmp/x", "a", "b"]),
        ["git.unknown-option"]
    );
}

#[test]
fn git_update_index_refreshes_but_every_index_edit_is_asked() {
    for argv in [
        &["git", "update-index", "--refresh"][..],
        &["git", "update-index", "-q", "--refresh"],
        &[
            "git",
            "update-index",
            "--really-refresh",
            "--ignore-submodules",
        ],
        &["git", "update-index", "--refr"],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
    for argv in [
        &["git", "update-index", "--assume-unchanged", "src/lib.rs"][..],
        &["git", "update-index", "--skip-worktree", "src/lib.rs"],
        &["git", "update-index", "--chmod=+x", "build.sh"],
        &["git", "update-index", "--cacheinfo", "100755,abc,x"],
        &["git", "update-index", "--add", "src/new.rs"],
        &["git", "update-index", "--index-info"],
        &["git", "update-index", "--stdin"],
        &["git", "update-index", "-g"],
        &["git", "update-index", "--fsmonitor"],
    ] {
        assert_eq!(ids(argv), ["git.sets-config"], "{argv:?}");
    }
    // git reads `--assume` as `--assume-unchanged`; the spec also sees
    // the negation `--no-assume-unchanged` in it, and asks as ambiguous.
    assert_eq!(
        ids(&["git", "update-index", "--assume", "src/lib.rs"]),
        ["git.unknown-option"]
    );
    // `--u` is `--unmerged`, `--unresolve` or `--untracked-cache`.
    assert_eq!(ids(&["git", "update-index", "--u"]), ["git.unknown-option"]);
    let why = reasons(&["git", "update-index", "--skip-worktree", "x"]);
    assert!(why[0].contains("hide changes from git status"), "{why:?}");
}

#[test]
fn git_sparse_checkout_list_is_allowed_and_its_other_subcommands_are_asked() {
    assert_eq!(ids(&["git", "sparse-checkout", "list"]), NONE);
    for sub in ["set", "add", "init", "reapply", "disable", "check-rules"] {
        assert_eq!(
            ids(&["git", "sparse-checkout", sub, "src"]),
            ["git.unknown-subcommand"],
            "{sub}"
        );
    }
}

#[test]
fn git_verify_commit_and_tag_are_read_only() {
    for argv in [
        &["git", "verify-commit", "HEAD"][..],
        &["git", "verify-commit", "-v", "--raw", "HEAD"],
        &["git", "verify-tag", "--format=%(refname)", "v1.0"],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
    // gpg.program set by the request is judged by `-c`'s key list.
    assert_eq!(
        ids(&["git", "-c", "gpg.program=/tmp/x", "verify-commit", "HEAD"]),
        ["git.sets-config"]
    );
}

#[test]
fn npm_config_get_and_list_read_and_every_change_is_asked() {
    for argv in [
        &["npm", "config", "get", "registry"][..],
        &["npm", "config", "get"],
        &["npm", "config", "list"],
        &["npm", "config", "ls", "--json"],
        &["npm", "c", "get", "prefix"],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
    for argv in [
        &["npm", "config", "set", "script-shell=/tmp/x"][..],
        &["npm", "config", "delete", "registry"],
        &["npm", "config", "rm", "registry"],
        &["npm", "config", "fix"],
    ] {
        assert_eq!(ids(argv), ["npm.sets-config"], "{argv:?}");
    }
    assert_eq!(ids(&["npm", "config", "edit"]), ["npm.runs-program"]);
    assert_eq!(ids(&["npm", "config", "frob"]), ["npm.unknown-subcommand"]);
    // A config key given as an option is still judged by its own row.
    assert_eq!(
        ids(&["npm", "config", "get", "--script-shell=/tmp/x"]),
        ["npm.runs-program"]
    );
}

#[test]
fn file_reads_what_it_is_given_and_its_loading_and_writing_options_are_asked() {
    for argv in [
        &["file", ".git/HEAD"][..],
        &["file", "-b", "--mime-type", "src/main.rs"],
        &["file", "-L", "target/debug/app"],
        &["file", "-i", "-k", "a", "b"],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
    assert_eq!(ids(&["file", "-z", "a.gz"]), ["file.runs-program"]);
    assert_eq!(
        ids(&["file", "--uncompress", "a.gz"]),
        ["file.runs-program"]
    );
    // `--uncomp` is `--uncompress` or `--uncompress-noreport`: asked.
    assert_eq!(ids(&["file", "--uncomp", "a.gz"]), ["file.unknown-option"]);
    assert_eq!(ids(&["file", "-bz", "a.gz"]), ["file.runs-program"]);
    assert_eq!(
        ids(&["file", "-m", "/tmp/m:/home/u/.ssh/id_ed25519", "x"]),
        ["file.loads-code"]
    );
    assert_eq!(ids(&["file", "-f", "names.txt"]), ["file.loads-code"]);
    assert_eq!(ids(&["file", "--files-from=-"]), ["file.loads-code"]);
    assert_eq!(
        ids(&["file", "-Cm", "magic"]),
        ["file.writes-file", "file.loads-code"]
    );
    assert_eq!(ids(&["file", "--frob", "x"]), ["file.unknown-option"]);
}

#[test]
fn tree_lists_names_anywhere_and_its_writing_options_are_asked() {
    for argv in [
        &["tree", "-L", "2"][..],
        &["tree", ".git", "-L", "1"],
        &["tree", "/home/u", "-L", "1"],
        &[
            "tree",
            "-I",
            "target|node_modules",
            "-L",
            "3",
            "--dirsfirst",
        ],
        &["tree", "-aJ", "src"],
        &["tree", "-o", "tree.txt", "src"],
        &["tree", "-o", "/dev/null"],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
    for argv in [
        &["tree", "-o", "/tmp/x"][..],
        &["tree", "-o", "Makefile"],
        &["tree", "-o", ".git/hooks/pre-commit"],
        // tree reads `-oL x 2` as `-o x -L 2`: the first word is written.
        &["tree", "-oL", ".bashrc", "2"],
        &["tree", "-Lo", "2", "/tmp/x"],
        &["tree", "-R", "-H", ".", "-L", "1"],
    ] {
        assert_eq!(ids(argv), ["tree.writes-file"], "{argv:?}");
    }
    assert_eq!(
        ids(&["tree", "--fromfile", "list.txt"]),
        ["tree.loads-code"]
    );
    // Long options are exact, and a value is never the rest of its word.
    assert_eq!(ids(&["tree", "--fromf", "x"]), ["tree.unknown-option"]);
    assert_eq!(ids(&["tree", "-L2"]), ["tree.unknown-option"]);
    assert_eq!(ids(&["tree", "-o"]), ["tree.unknown-option"]);
}

#[test]
fn docker_network_and_volume_listing_is_read_only_and_changes_are_asked() {
    for argv in [
        &["docker", "network", "ls"][..],
        &["docker", "network", "list", "--format", "{{.Name}}"],
        &["docker", "network", "inspect", "bridge"],
        &["docker", "volume", "ls", "-q"],
        &[
            "docker",
            "volume",
            "inspect",
            "-f",
            "{{.Mountpoint}}",
            "data",
        ],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
    for argv in [
        &["docker", "network", "create", "x"][..],
        &["docker", "network", "connect", "x", "app"],
        &["docker", "volume", "rm", "data"],
        &["docker", "volume", "prune", "-f"],
        &["docker", "volume", "create", "--opt", "device=/", "x"],
    ] {
        assert_eq!(ids(argv), ["docker.unknown-subcommand"], "{argv:?}");
    }
    assert_eq!(
        ids(&["docker", "network", "ls", "--frob"]),
        ["docker.unknown-option"]
    );
}

#[test]
fn docker_container_image_and_system_listing_is_read_only_and_changes_are_asked() {
    for argv in [
        &["docker", "container", "ls", "-a"][..],
        &["docker", "container", "ps", "-q"],
        &[
            "docker",
            "container",
            "inspect",
            "-f",
            "{{.State.Status}}",
            "app",
        ],
        &["docker", "image", "ls"],
        &[
            "docker",
            "image",
            "inspect",
            "--platform",
            "linux/amd64",
            "alpine",
        ],
        &["docker", "image", "history", "-H", "alpine"],
        &["docker", "system", "df", "-v"],
        &["docker", "system", "info"],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
    for argv in [
        &["docker", "container", "run", "-v", "/:/host", "alpine"][..],
        &["docker", "container", "exec", "app", "sh"],
        // `docker container rm` and `docker image rm` are `docker rm` and
        // `docker rmi`, allowed since helper H30's sweep.
        &["docker", "image", "push", "x/y"],
        &["docker", "system", "prune", "-af"],
    ] {
        assert_eq!(ids(argv), ["docker.unknown-subcommand"], "{argv:?}");
    }
}

#[test]
fn rustup_default_alone_prints_and_naming_a_toolchain_is_asked() {
    assert_eq!(ids(&["rustup", "default"]), NONE);
    for argv in [
        &["rustup", "default", "stable"][..],
        &["rustup", "default", "--", "nightly"],
        &[
            "rustup",
            "default",
            "--force-non-host",
            "x86_64-pc-windows-gnu",
        ],
    ] {
        assert_eq!(ids(argv), ["rustup.sets-config"], "{argv:?}");
    }
}

#[test]
fn npm_global_flag_on_a_listing_command_reads_and_on_an_install_writes() {
    for argv in [
        &["npm", "ls", "-g", "--depth=0"][..],
        &["npm", "-g", "ls"],
        &["npm", "list", "--global"],
        &["npm", "root", "-g"],
        &["npm", "prefix", "-g"],
        &["npm", "outdated", "-g"],
        &["npm", "config", "get", "prefix", "-g"],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
    for argv in [
        &["npm", "install", "-g", "typescript"][..],
        &["npm", "-g", "install", "typescript"],
        &["npm", "update", "-g"],
        &["npm", "uninstall", "--global", "x"],
    ] {
        assert_eq!(ids(argv), ["npm.writes-file"], "{argv:?}");
    }
    // Only -g is read as looking: another prefix is still another prefix.
    assert!(
        !ids(&["npm", "ls", "-g", "--prefix", "/tmp/x"]).is_empty(),
        "{:?}",
        ids(&["npm", "ls", "-g", "--prefix", "/tmp/x"])
    );
}

#[test]
fn printing_the_whole_environment_or_a_possible_secret_in_it_is_asked() {
    for argv in [
        &["env"][..],
        &["env", "--"],
        &["printenv"],
        &["printenv", "-0"],
        &["printenv", "GITHUB_TOKEN"],
        &["printenv", "HOME", "AWS_SECRET_ACCESS_KEY"],
    ] {
        assert_eq!(ids(argv), ["secrets.environment"], "{argv:?}");
    }
    assert!(reasons(&["printenv", "HOME", "NPM_TOKEN"])[0].contains("NPM_TOKEN"));
    // Names that describe the session, and inert variables, are printed.
    for argv in [
        &["printenv", "HOME"][..],
        &["printenv", "PATH", "USER", "SHELL", "PWD"],
        &["printenv", "--null", "LANG", "RUST_LOG"],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
}
