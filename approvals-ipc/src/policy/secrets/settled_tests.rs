use std::os::unix::fs::PermissionsExt;

use super::*;

const USER: u32 = 4242;

#[test]
fn only_names_that_only_root_can_change_settle() {
    use Children::*;
    let settled =
        |link, dir, owner, mode, above| match state_of(link, dir, owner, mode, above, USER) {
            State::Settled(children) => Some(children),
            State::Unsettled => None,
        };
    // `/usr` in `/`, `/tmp` in `/`, a root file in `/tmp`.
    assert_eq!(settled(false, true, 0, 0o755, Any), Some(Any));
    assert_eq!(settled(false, true, 0, 0o1777, Any), Some(RootOwned));
    assert_eq!(settled(false, false, 0, 0o644, RootOwned), Some(NoneOf));
    // A group- or world-writable directory that is not sticky settles, but
    // none of its names do.
    assert_eq!(settled(false, true, 0, 0o775, Any), Some(NoneOf));
    assert_eq!(settled(false, true, 0, 0o777, Any), Some(NoneOf));
    // The user's own directory in `/home` settles; its names do not.
    assert_eq!(settled(false, true, USER, 0o755, Any), Some(NoneOf));
    // A link, the user's name in `/tmp`, anything in the user's directory.
    assert_eq!(settled(true, false, 0, 0o777, Any), None);
    assert_eq!(settled(false, true, USER, 0o755, RootOwned), None);
    assert_eq!(settled(false, false, 0, 0o644, NoneOf), None);
    // Commands run as root can change anything.
    assert!(matches!(
        state_of(false, true, 0, 0o755, Any, 0),
        State::Unsettled
    ));
}

#[test]
fn for_root_nothing_settles_and_paths_not_normalized_are_left_to_the_usual_look() {
    assert!(!Settled::for_user(None).holds_no_link(Path::new("/")));
    let user = Settled::for_user(Some(USER));
    for path in ["/tmp/", "//tmp", "/tmp/./x", "/tmp/../tmp", "tmp"] {
        assert!(!user.holds_no_link(Path::new(path)), "{path}");
    }
}

/// The tests below make root-owned files to stand for what only root can
/// change, and judge them for another user.
fn as_root() -> bool {
    let root = nix::unistd::geteuid().is_root();
    if !root {
        eprintln!("SKIP: making root-owned directories needs root");
    }
    root
}

#[test]
fn a_root_owned_tree_settles_and_a_link_or_a_users_directory_in_it_does_not() {
    if !as_root() {
        return;
    }
    // A name not starting with a dot: hidden names are never settled.
    let top = tempfile::Builder::new()
        .prefix("settled-")
        .tempdir()
        .expect("tempdir");
    let top_path = std::fs::canonicalize(top.path()).expect("canonical");
    std::fs::set_permissions(&top_path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::fs::create_dir(top_path.join("dir")).expect("mkdir");
    std::fs::write(top_path.join("dir/file"), "x").expect("write");
    std::os::unix::fs::symlink("/etc/hostname", top_path.join("dir/link")).expect("symlink");
    std::fs::create_dir(top_path.join("users")).expect("mkdir");
    std::fs::write(top_path.join("users/file"), "x").expect("write");
    nix::unistd::chown(
        &top_path.join("users"),
        Some(nix::unistd::Uid::from_raw(USER)),
        None,
    )
    .expect("chown");
    let settled = Settled::for_user(Some(USER));
    // The temporary directory's parents must be root's alone for its
    // names to settle (`/tmp` is sticky and root-owned).
    assert!(settled.holds_no_link(&top_path.join("dir/file")));
    assert!(settled.holds_no_link(&top_path.join("dir")));
    assert!(!settled.holds_no_link(&top_path.join("dir/link")));
    assert!(settled.holds_no_link(&top_path.join("users")));
    assert!(!settled.holds_no_link(&top_path.join("users/file")));
    assert!(!settled.holds_no_link(&top_path.join("dir/missing")));
    // Once settled, a path is not looked at again within the TTL (only root
    // can change it); after it, the change is seen.
    std::fs::remove_file(top_path.join("dir/file")).expect("rm");
    std::os::unix::fs::symlink("/etc/hostname", top_path.join("dir/file")).expect("symlink");
    assert!(settled.holds_no_link(&top_path.join("dir/file")));
    std::thread::sleep(TTL + Duration::from_millis(50));
    assert!(!settled.holds_no_link(&top_path.join("dir/file")));
}
