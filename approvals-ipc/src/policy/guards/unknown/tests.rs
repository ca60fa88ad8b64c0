use super::*;

fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

fn home() -> std::path::PathBuf {
    std::env::home_dir().expect("a home directory")
}

#[test]
fn an_unknown_program_writing_a_start_up_file_or_a_key_file_is_asked() {
    let tree = tempfile::tempdir().expect("tempdir");
    let h = home();
    let bashrc = h.join(".bashrc").display().to_string();
    let keys = h.join(".ssh/authorized_keys").display().to_string();
    let autostart = h.join(".config/autostart/x.desktop").display().to_string();
    let bin = h.join("bin/ls").display().to_string();
    for (program, words) in [
        ("gcc", vec!["-o", bashrc.as_str(), "x.c"]),
        ("zstd", vec!["x", "-o", keys.as_str()]),
        ("qemu-img", vec!["create", autostart.as_str(), "1M"]),
        ("objcopy", vec!["x", bin.as_str()]),
        ("objcopy", vec!["x", ".git/hooks/pre-commit"]),
        ("strip", vec!["x", "-o../../.bashrc"]),
    ] {
        let words = args(&words);
        let hit = check(program, &words, tree.path());
        let hit = hit.unwrap_or_else(|| panic!("{program} {words:?} not asked"));
        assert_eq!(hit.id, ID);
        assert!(hit.reason.contains("has no spec"), "{}", hit.reason);
    }
    // An attached short value and an `=value` name the path too.
    let attached = format!("-o{bashrc}");
    assert!(check("gcc", &args(&[&attached, "x.c"]), tree.path()).is_some());
    let long = format!("--output={keys}");
    assert!(check("foo", &args(&[&long]), tree.path()).is_some());
}

#[test]
fn an_unknown_program_filling_the_home_directory_itself_is_asked() {
    // `gpgtar -C ~ -d a.gpg`, `dpkg-deb -x a.deb ~`: the archive chooses
    // the names, `.bashrc` among them.
    let tree = tempfile::tempdir().expect("tempdir");
    let h = home().display().to_string();
    let attached = format!("-o{h}");
    for (program, words) in [
        (
            "gpgtar",
            vec!["--extract", "--directory", h.as_str(), "a.gpg"],
        ),
        ("dpkg-deb", vec!["-x", "a.deb", h.as_str()]),
        ("7zr", vec!["x", "a.7z", attached.as_str()]),
    ] {
        let hit = check(program, &args(&words), tree.path())
            .unwrap_or_else(|| panic!("{program} {words:?} not asked"));
        assert!(
            hit.reason.contains("home directory itself"),
            "{}",
            hit.reason
        );
    }
}

#[test]
fn everyday_paths_given_to_an_unknown_program_stay_allowed() {
    let tree = tempfile::tempdir().expect("tempdir");
    for words in [
        vec!["-o", "build/app", "src/main.c", "-Iinclude"],
        vec!["Makefile", "package.json"],
        vec!["-c", "x.c", "-o", "x.o"],
        vec!["--prefix=build/out"],
    ] {
        let words = args(&words);
        assert_eq!(check("gcc", &words, tree.path()), None, "{words:?}");
    }
    // A plain directory of the home, outside the tree, is not asked.
    let download = home().join("Downloads/x.c").display().to_string();
    assert_eq!(
        check("gcc", &args(&["-o", "a", &download]), tree.path()),
        None
    );
    // ~/bin is named as the directory whose programs run by name.
    let bin = home().join("bin/ls").display().to_string();
    let hit = check("objcopy", &args(&["x", &bin]), tree.path()).expect("asked");
    assert!(
        hit.reason.contains("bin, whose programs run by name"),
        "{}",
        hit.reason
    );
    // A system directory a non-root user cannot write is not asked.
    if !nix::unistd::geteuid().is_root() {
        assert_eq!(
            check("gcc", &args(&["-I/usr/include/x", "a.c"]), tree.path()),
            None
        );
    }
}

#[test]
fn a_system_directory_is_asked_only_where_this_user_can_write() {
    let tree = tempfile::tempdir().expect("tempdir");
    let hit = check("zstd", &args(&["-o", "/etc/cron.d/x", "y"]), tree.path());
    assert_eq!(hit.is_some(), writable(Path::new("/etc/cron.d/x")));
}

#[test]
fn through_the_policy_a_known_program_is_not_judged_by_this_rule() {
    use crate::policy::Verdict;
    use crate::policy::decision::tests::compiled;
    let c = compiled(serde_json::json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss"},
        "agents": {"main": {"allowlist": [{"pattern": "/usr/bin/*"}]}}
    }));
    let tree = tempfile::tempdir().expect("tempdir");
    let bashrc = home().join(".bashrc").display().to_string();
    let run = |argv: &[&str]| c.evaluate(&args(argv), tree.path(), &Default::default());
    // gzip and od have no spec: a plain use stays allowed, a path into a
    // start-up file is asked. (base64 has had one since helper H28's
    // sweep: its operands are reads.)
    let e = run(&["/usr/bin/gzip", "-c", "x"]);
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
    let e = run(&["/usr/bin/od", &bashrc]);
    if Path::new("/usr/bin/od").exists() {
        assert_eq!(e.decision, Verdict::Ask, "{:?}", e.reason);
        let ids: Vec<&str> = e.analysis.segments[0].guards.iter().map(|g| g.id).collect();
        assert_eq!(ids, [ID]);
    }
}

#[test]
fn writable_is_judged_at_the_nearest_existing_ancestor() {
    let tree = tempfile::tempdir().expect("tempdir");
    assert!(writable(&tree.path().join("not/yet/there")));
    if !nix::unistd::geteuid().is_root() {
        use std::os::unix::fs::PermissionsExt;
        let locked = tree.path().join("locked");
        std::fs::create_dir(&locked).expect("mkdir");
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o500)).expect("chmod");
        assert!(!writable(&locked.join("x")));
    }
}

#[test]
fn an_unknown_program_writing_through_a_link_in_the_tree_is_asked() {
    // Found by the H25 sweep: `sdiff -o home/.bashrc a b` with `home` a
    // link to the home directory an earlier request made.
    let tree = tempfile::tempdir().expect("tempdir");
    std::os::unix::fs::symlink(home(), tree.path().join("home")).expect("link");
    for (program, words) in [
        ("sdiff", vec!["-o", "home/.bashrc", "a", "b"]),
        ("gpg", vec!["--output=home/.profile", "-d", "x.gpg"]),
        ("zstd", vec!["x", "-o", "home/.zshrc"]),
    ] {
        let words = args(&words);
        assert!(
            check(program, &words, tree.path()).is_some(),
            "{program} {words:?} not asked"
        );
    }
    assert!(check("sdiff", &args(&["-o", "merged", "a", "b"]), tree.path()).is_none());
}

#[test]
fn an_output_option_naming_a_file_other_tools_run_is_asked() {
    // Found by the H25 sweep: `openssl enc -d -in x -out Makefile`.
    let tree = tempfile::tempdir().expect("tempdir");
    for (program, words) in [
        ("openssl", vec!["enc", "-d", "-in", "x", "-out", "Makefile"]),
        ("gpg", vec!["--output", "package.json", "-d", "x.gpg"]),
        ("gpg", vec!["-o", ".github/workflows/ci.yml", "-d", "x"]),
        ("sdiff", vec!["-oMakefile", "a", "b"]),
        ("eslint", vec!["--output-file=build.sh", "src"]),
        ("gcc", vec!["-o", "sub/.husky/pre-commit", "x.c"]),
    ] {
        let words = args(&words);
        assert!(
            check(program, &words, tree.path()).is_some(),
            "{program} {words:?} not asked"
        );
    }
    for (program, words) in [
        (
            "openssl",
            vec!["enc", "-d", "-in", "x", "-out", "plain.txt"],
        ),
        ("gcc", vec!["-o", "app", "x.c"]),
        ("file", vec!["Makefile"]),
        ("shellcheck", vec!["-o", "all", "build.sh"]),
    ] {
        let words = args(&words);
        assert!(
            check(program, &words, tree.path()).is_none(),
            "{program} {words:?} asked"
        );
    }
}

#[test]
fn an_output_option_naming_a_file_outside_the_tree_is_asked() {
    // Found by the H30 sweep: `openssl genrsa -out /tmp/x`, `-out ../x`.
    let tree = tempfile::tempdir().expect("tempdir");
    for (program, words) in [
        ("openssl", vec!["genrsa", "-out", "/tmp/x", "2048"]),
        ("openssl", vec!["req", "-new", "-out", "../x"]),
        ("openssl", vec!["x509", "-out=/tmp/c.pem"]),
        ("gcc", vec!["-o", "/tmp/app", "main.c"]),
        ("gcc", vec!["-o/tmp/app", "main.c"]),
        ("gpg", vec!["--output", "~/x", "-d", "x.gpg"]),
    ] {
        let words = args(&words);
        let hit = check(program, &words, tree.path())
            .unwrap_or_else(|| panic!("{program} {words:?} not asked"));
        assert!(
            hit.reason.contains("outside the working directory"),
            "{}",
            hit.reason
        );
    }
    // Standard output, standard error and the null device are no file.
    for value in ["-", "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/fd/1"] {
        let words = args(&["dgst", "-out", value, "f.bin"]);
        assert_eq!(check("openssl", &words, tree.path()), None, "{value}");
    }
}
