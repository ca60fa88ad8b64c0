//! Operands a program writes, and names an archive or a whole copied tree
//! chooses, named by the attack they stop (DESIGN.md section 6, Program
//! specs): `cp x ~/.bashrc`, `tar -cf ~/.profile src`, `git clone URL
//! ../elsewhere`, `unzip payload.zip` at a repository's top directory.

use super::tests::{ids, ids_in};

/// A working tree with a repository of its own, a `vendor` directory and
/// a nested clone in `nested`.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for sub in [".git", "vendor", "nested/.git", "src"] {
        std::fs::create_dir_all(dir.path().join(sub)).expect("mkdir");
    }
    dir
}

#[test]
fn everyday_file_commands_inside_the_tree_trip_nothing() {
    for argv in [
        &["cp", "a.txt", "b.txt"][..],
        &["cp", "-r", "src", "backup"],
        &["cp", "-a", "templates/.", "out"],
        &["mv", "old.rs", "new.rs"],
        &["mv", "-v", "a", "b", "dir/"],
        &["ln", "-s", "shared/x", "x"],
        &["ln", "-s", "../x", "sub/x"],
        &["cp", "-l", "a", "b"],
        &["link", "a", "b"],
        &["chmod", "+x", "run.sh"],
        &["chmod", "-R", "go-w", "build"],
        &["chown", "-R", "u:u", "out"],
        &["dd", "if=/dev/zero", "of=disk.img", "bs=1M", "count=1"],
        &["truncate", "-s", "0", "log.txt"],
        &["split", "-l", "100", "data.csv", "part_"],
        &["csplit", "data.txt", "/^--$/"],
        &["uniq", "-c", "sorted.txt", "counts.txt"],
        &["shuf", "-n", "5", "lines.txt"],
        &["install", "-m", "755", "target/tool", "bin/tool"],
        &["install", "-d", "out/share"],
        &["mktemp"],
        &["mktemp", "-d"],
        &["date"],
        &["date", "-u", "+%s"],
        &["date", "--iso-8601=seconds"],
        &["mkdir", "-p", "build/out"],
        &["touch", "src/new.rs"],
        &["rm", "-rf", "target", "node_modules"],
        &["rmdir", "-p", "a/b"],
        &["tee", "log.txt"],
        &["tee", "-a", "-"],
        &["scp", "host:file", "local/"],
        &["scp", "a", "b", "host:dir/"],
        &["rsync", "-a", "host:dir/", "mirror/"],
        &["rsync", "-av", "src/", "host:/srv/app/"],
        &["zip", "-r", "out.zip", "src"],
        &["tar", "-czf", "out.tgz", "src"],
        &["git", "clone", "https://example.com/x.git"],
        &["git", "clone", "https://example.com/x.git", "deps/x"],
        &["git", "init", "scratch"],
    ] {
        assert_eq!(ids(argv), Vec::<&str>::new(), "{argv:?}");
    }
}

#[test]
fn a_write_outside_the_tree_through_an_operand_is_asked() {
    for (argv, id) in [
        (&["cp", "payload", "/home/u/.bashrc"][..], "cp.writes-file"),
        (&["cp", "payload", "~/.bashrc"], "cp.writes-file"),
        (&["cp", "-t", "/etc/cron.d", "job"], "cp.writes-file"),
        (&["cp", "--target=../..", "job"], "cp.writes-file"),
        (&["mv", "x", "../../x"], "mv.writes-file"),
        (
            &["ln", "-sf", "/bin/sh", "/usr/local/bin/git"],
            "ln.writes-file",
        ),
        // A link to a file outside the tree is a path inside it through
        // which later writes reach that file: `ln ~/.bashrc x && cp evil
        // x`, `ln -s /etc e && cp a e/passwd`.
        (&["ln", "-s", "../shared/x", "x"], "ln.writes-file"),
        (&["ln", "/home/u/.bashrc", "x"], "ln.writes-file"),
        (&["ln", "-s", "/etc"], "ln.writes-file"),
        (&["ln", "-s", "../../etc", "sub/e"], "ln.writes-file"),
        // A hard link's relative source is read from here.
        (&["ln", "../../secret", "x"], "ln.writes-file"),
        // --relative: a symlink's source is given from here, not from the
        // link's directory (sub/../outside would be inside).
        (&["ln", "-sr", "../outside", "sub/x"], "ln.writes-file"),
        (&["ln", "-t", "sub", "/etc/passwd"], "ln.writes-file"),
        (&["cp", "-s", "/etc/passwd", "x"], "cp.writes-file"),
        (&["cp", "--link", "/home/u/.bashrc", "x"], "cp.writes-file"),
        (&["link", "/home/u/.bashrc", "x"], "link.writes-file"),
        // coreutils that change files or run programs (attrs.rs).
        (&["chmod", "777", "/home/u/.ssh"], "chmod.writes-file"),
        (
            &["chmod", "+x", ".git/hooks/pre-commit"],
            "chmod.writes-file",
        ),
        (&["chown", "u", "/etc/passwd"], "chown.writes-file"),
        (&["truncate", "-s0", "/etc/passwd"], "truncate.writes-file"),
        (&["shred", "-u", "/home/u/.bashrc"], "shred.writes-file"),
        (&["unlink", "/home/u/.bashrc"], "unlink.writes-file"),
        (&["dd", "if=x", "of=/home/u/.bashrc"], "dd.writes-file"),
        (&["dd", "of=/dev/sda"], "dd.writes-file"),
        (&["dd", "if=x", "ofx=y"], "dd.unknown-option"),
        (&["uniq", "a", "/home/u/.bashrc"], "uniq.writes-file"),
        (&["shuf", "-o", "/home/u/.bashrc", "a"], "shuf.writes-file"),
        (&["split", "a", "/tmp/x"], "split.writes-file"),
        (&["split", "--filter=sh", "a"], "split.runs-program"),
        (&["csplit", "-f", "/tmp/x", "a", "1"], "csplit.writes-file"),
        (&["install", "x", "/usr/local/bin/y"], "install.writes-file"),
        (
            &["install", "-s", "--strip-program=sh", "x", "y"],
            "install.runs-program",
        ),
        (
            &["install", "-d", "/home/u/.config/autostart"],
            "install.writes-file",
        ),
        (&["mkfifo", "/tmp/p"], "mkfifo.writes-file"),
        (&["mktemp", "-p", "/etc"], "mktemp.writes-file"),
        (&["ptx", "-G", "a", "/tmp/out"], "ptx.writes-file"),
        (&["date", "-s", "2020-01-01"], "date.sets-config"),
        (&["date", "010100002020"], "date.sets-config"),
        (&["tee", "-a", "/home/u/.profile"], "tee.writes-file"),
        (&["touch", "/tmp/x"], "touch.writes-file"),
        (&["mkdir", "-p", "../elsewhere"], "mkdir.writes-file"),
        (&["rm", "-rf", "/home/u/project-b"], "rm.writes-file"),
        (&["rmdir", "/tmp/x"], "rmdir.writes-file"),
        (
            &["scp", "host:payload", "/home/u/.bashrc"],
            "scp.writes-file",
        ),
        (&["rsync", "host:x", "../y"], "rsync.writes-file"),
        (&["zip", "/home/u/.bashrc", "f"], "zip.writes-file"),
        (
            &["git", "clone", "https://e.com/x", "/home/u/.config/x"],
            "git.writes-file",
        ),
        (&["git", "init", "../other"], "git.writes-file"),
        (&["git", "worktree", "add", "../wt"], "git.writes-file"),
    ] {
        assert_eq!(ids(argv), [id], "{argv:?}");
    }
}

#[test]
fn a_write_into_metadata_or_a_file_other_tools_run_is_asked() {
    for argv in [
        &["cp", "hook", ".git/hooks/pre-commit"][..],
        &["cp", "evil.mk", "Makefile"],
        &["mv", "x", ".envrc"],
        &["tee", ".git/config"],
        &["touch", "deploy.sh"],
        &["scp", "host:hook", ".git/hooks/post-checkout"],
        &["rm", ".git/index"],
    ] {
        let got = ids(argv);
        assert_eq!(got.len(), 1, "{argv:?}: {got:?}");
        assert!(got[0].ends_with(".writes-file"), "{argv:?}: {got:?}");
    }
}

#[test]
fn a_copy_into_a_directory_is_judged_by_the_name_it_lands_under() {
    let t = tree();
    // `cp x/Makefile vendor/` writes vendor/Makefile: a file make runs.
    assert_eq!(
        ids_in(t.path(), &["cp", "payload/Makefile", "vendor"]),
        ["cp.writes-file"]
    );
    assert_eq!(
        ids_in(t.path(), &["cp", "payload/hook", ".git/hooks/"]),
        ["cp.writes-file"]
    );
    assert_eq!(
        ids_in(t.path(), &["cp", "payload/notes.txt", "vendor"]),
        Vec::<&str>::new()
    );
    // rsync's trailing slash copies the contents, not the directory.
    assert_eq!(
        ids_in(t.path(), &["rsync", "-a", "host:payload/", "."]),
        ["rsync.writes-file"]
    );
    assert_eq!(
        ids_in(t.path(), &["rsync", "-a", "host:payload", "."]),
        Vec::<&str>::new()
    );
}

#[test]
fn a_whole_tree_copied_into_the_working_directory_itself_is_asked() {
    let t = tree();
    // The names inside payload/ are not shown: .git/config, .envrc or a
    // Makefile could land at the top of the tree.
    for argv in [
        &["cp", "-r", "payload/.", "."][..],
        &["cp", "-a", "payload/.", "./"],
        &["cp", "--recursive", "payload/.", "nested"],
        &["rsync", "-a", "payload/", "./"],
        &["rsync", "--recursive", "payload/", "vendor/../"],
        &["scp", "-r", "host:payload/.", "."],
        &["mv", "payload/.", "nested"],
    ] {
        let got = ids_in(t.path(), argv);
        assert_eq!(got.len(), 1, "{argv:?}: {got:?}");
        assert!(got[0].ends_with(".writes-file"), "{argv:?}: {got:?}");
    }
    // Into a plain subdirectory, or as a new directory: allowed.
    for argv in [
        &["cp", "-r", "payload/.", "vendor"][..],
        &["cp", "-r", "payload", "."],
        &["rsync", "-a", "payload/", "vendor/"],
        &["mv", "payload", "vendor"],
    ] {
        assert_eq!(ids_in(t.path(), argv), Vec::<&str>::new(), "{argv:?}");
    }
}

#[test]
fn extracting_an_archive_into_the_working_directory_itself_is_asked() {
    let t = tree();
    for argv in [
        &["tar", "xzf", "payload.tgz"][..],
        &["tar", "-x", "-f", "payload.tar"],
        &["tar", "--extract", "--file=payload.tar"],
        &["tar", "-xf", "payload.tar", "-C", "."],
        &["unzip", "payload.zip"],
        &["unzip", "-o", "payload.zip", "-d", "."],
        &["unzip", "-qo", "payload.zip", "-d", "nested"],
    ] {
        let got = ids_in(t.path(), argv);
        assert_eq!(got.len(), 1, "{argv:?}: {got:?}");
        assert!(got[0].ends_with(".writes-file"), "{argv:?}: {got:?}");
    }
    // Into a nested repository's top directory: its .git could be
    // replaced.
    assert_eq!(
        ids_in(t.path(), &["tar", "-xf", "payload.tar", "-C", "nested"]),
        ["tar.writes-file"]
    );
    // Into a subdirectory, listing, testing, or to stdout: allowed.
    for argv in [
        &["tar", "xzf", "a.tgz", "-C", "vendor"][..],
        &["tar", "-tzf", "a.tgz"],
        &["tar", "-xOf", "a.tar", "README"],
        &["unzip", "a.zip", "-d", "vendor"],
        &["unzip", "-l", "a.zip"],
        &["unzip", "-p", "a.zip", "README"],
    ] {
        assert_eq!(ids_in(t.path(), argv), Vec::<&str>::new(), "{argv:?}");
    }
}

#[test]
fn writing_an_archive_is_judged_by_where_it_goes() {
    for argv in [
        &["tar", "-cf", "/home/u/.bashrc", "src"][..],
        &["tar", "cf", "../../.profile", "src"],
        &["tar", "--create", "--file=.git/config", "src"],
        &["tar", "-rf", "/tmp/a.tar", "f"],
        &["tar", "-uf", "Makefile", "f"],
        &["tar", "--delete", "-f", "/srv/a.tar", "m"],
    ] {
        assert_eq!(ids(argv), ["tar.writes-file"], "{argv:?}");
    }
    // Reading an archive from anywhere is tar's job.
    assert_eq!(ids(&["tar", "-tf", "/srv/a.tar"]), Vec::<&str>::new());
    assert_eq!(ids(&["tar", "-cf", "-", "src"]), Vec::<&str>::new());
}

#[test]
fn moving_into_a_nested_repository_is_another_tree() {
    let t = tree();
    assert_eq!(
        ids_in(t.path(), &["git", "-C", "nested", "status"]),
        ["git.other-tree"]
    );
    assert_eq!(
        ids_in(t.path(), &["git", "-C", "src", "status"]),
        Vec::<&str>::new()
    );
    // make runs nested/sub's Makefile wherever it is: a nested repository
    // changes nothing for it, so nothing is looked up.
    assert_eq!(
        ids_in(t.path(), &["make", "-C", "nested/sub"]),
        Vec::<&str>::new()
    );
    // A cd into it, for the programs that read its config.
    use crate::policy::cwd_config::moved_out;
    let nested = t.path().join("nested");
    assert!(moved_out("git", t.path(), &nested).is_some());
    assert!(moved_out("make", t.path(), &nested).is_none());
    std::fs::create_dir_all(t.path().join("src/.cargo")).expect("mkdir");
    assert!(moved_out("cargo", t.path(), &t.path().join("src")).is_some());
    assert!(moved_out("git", t.path(), &t.path().join("src")).is_none());
}

#[test]
fn unknown_options_of_file_commands_are_asked() {
    for (argv, id) in [
        (&["cp", "--frobnicate", "a", "b"][..], "cp.unknown-option"),
        (&["mv", "--sparse=always", "a", "b"], "mv.unknown-option"),
        (&["rm", "--no-such", "a"], "rm.unknown-option"),
        (&["tee", "-x", "f"], "tee.unknown-option"),
    ] {
        assert_eq!(ids(argv), [id], "{argv:?}");
    }
    // `cp --parents` writes a whole source path inside the destination.
    assert_eq!(
        ids(&["cp", "--parents", "a/.git/config", "dst"]),
        ["cp.writes-file"]
    );
}

/// A symlink's relative source is resolved from the directory the link
/// lands in: into an existing directory `vendor`, `../x` is the tree's own
/// `x`, and `../../x` leaves it.
#[test]
fn a_symlink_into_an_existing_directory_resolves_from_there() {
    let dir = tree();
    assert_eq!(
        ids_in(dir.path(), &["ln", "-s", "../x", "vendor"]),
        Vec::<&str>::new()
    );
    assert_eq!(
        ids_in(dir.path(), &["ln", "-s", "../../x", "vendor"]),
        ["ln.writes-file"]
    );
}
