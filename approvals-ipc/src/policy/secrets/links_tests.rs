use super::*;

/// A directory holding a file, a directory, a link to each, a dangling
/// link and a FIFO.
fn tree() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    std::fs::create_dir(root.join("sub")).expect("mkdir");
    std::fs::write(root.join("sub/file"), "x").expect("write");
    std::os::unix::fs::symlink(root.join("sub/file"), root.join("to-file")).expect("symlink");
    std::os::unix::fs::symlink(root.join("sub"), root.join("to-sub")).expect("symlink");
    std::os::unix::fs::symlink(root.join("nowhere"), root.join("dangling")).expect("symlink");
    nix::unistd::mkfifo(&root.join("fifo"), nix::sys::stat::Mode::S_IRWXU).expect("mkfifo");
    (dir, root)
}

#[test]
fn a_path_with_no_link_is_told_apart_from_one_with_a_link_anywhere_on_it() {
    let (_dir, root) = tree();
    for clean in ["sub", "sub/file", "sub/missing", "missing/deeper", "fifo"] {
        assert_eq!(no_link_on(&root.join(clean)), Some(true), "{clean}");
    }
    for linked in [
        "to-file",
        "to-sub",
        "to-sub/file",
        "to-sub/missing",
        "dangling",
    ] {
        assert_eq!(no_link_on(&root.join(linked)), Some(false), "{linked}");
    }
}

#[test]
fn a_link_is_resolved_to_where_it_leads_and_a_plain_path_is_not() {
    let (_dir, root) = tree();
    let file = root.join("sub/file");
    assert_eq!(linked(&root.join("to-file"), true), Some(file.clone()));
    assert_eq!(linked(&root.join("to-sub/file"), false), Some(file.clone()));
    // A file about to be written through a dangling link.
    assert_eq!(
        linked(&root.join("dangling"), true),
        Some(root.join("nowhere"))
    );
    assert_eq!(linked(&file, false), None);
    assert_eq!(linked(&root.join("sub"), true), None);
    assert_eq!(linked(&root.join("fifo"), true), None);
    assert_eq!(real_dir(&root.join("to-sub")), root.join("sub"));
    assert_eq!(real_dir(&root.join("sub")), root.join("sub"));
    // A directory a command makes before it moves there.
    assert_eq!(real_dir(&root.join("to-sub/new")), root.join("sub/new"));
    assert_eq!(real_dir(&root.join("new/deeper")), root.join("new/deeper"));
}

#[test]
fn a_link_to_home_is_followed_into_directories_that_do_not_exist_yet() {
    // `cat home/.aws/credentials` with `home` → the home directory and no
    // `.aws` there yet (found by the H27 sweep: the link was not followed).
    let (_dir, root) = tree();
    assert_eq!(
        resolve(&root.join("to-sub/missing/deeper")),
        Some(root.join("sub/missing/deeper"))
    );
    assert_eq!(
        resolve(&root.join("to-sub/a/b/../c")),
        Some(root.join("sub/a/c"))
    );
    assert_eq!(
        resolve(&root.join("missing/deeper/file")),
        Some(root.join("missing/deeper/file"))
    );
    // The existing cases are unchanged.
    assert_eq!(
        resolve(&root.join("to-sub/file")),
        Some(root.join("sub/file"))
    );
    assert_eq!(
        resolve(&root.join("to-sub/new")),
        Some(root.join("sub/new"))
    );
}
