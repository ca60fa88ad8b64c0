use super::*;
use crate::policy::Verdict;
use crate::policy::decision::tests::compiled;
use crate::policy::specs::operands_clone_name as clone_name;

/// Every program in the usual bin directories allowlisted, as a
/// developer's broad policy (git may be /usr/local/bin/git).
fn broad() -> crate::policy::compiled::CompiledPolicy {
    compiled(serde_json::json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss"},
        "agents": {"main": {"allowlist": [
            {"pattern": "/usr/bin/*"},
            {"pattern": "/usr/local/bin/*"}
        ]}}
    }))
}

/// The decision for `script` run by `sh -c` in `dir`, and the ids of the
/// guards on each segment.
fn run(
    c: &crate::policy::compiled::CompiledPolicy,
    dir: &Path,
    script: &str,
) -> (Verdict, Vec<Vec<&'static str>>) {
    let argv = ["sh".to_owned(), "-c".to_owned(), script.to_owned()];
    let e = c.evaluate(&argv, dir, &Default::default());
    let ids = e
        .analysis
        .segments
        .iter()
        .map(|s| s.guards.iter().map(|g| g.id).collect())
        .collect();
    (e.decision, ids)
}

#[test]
fn a_write_through_a_tree_an_archive_filled_earlier_is_asked() {
    let c = broad();
    let tree = tempfile::tempdir().expect("tempdir");
    // The archive may hold `vendor/lib -> ~/.ssh`: cp then writes there.
    let (verdict, ids) = run(
        &c,
        tree.path(),
        "tar -xf a.tar -C vendor && cp x vendor/lib/y",
    );
    assert_eq!(verdict, Verdict::Ask);
    assert_eq!(ids, [vec![], vec![ID]]);
    // Each part alone, and a later part elsewhere, stay allowed.
    assert_eq!(
        run(&c, tree.path(), "tar -xf a.tar -C vendor").0,
        Verdict::Allow
    );
    assert_eq!(run(&c, tree.path(), "cp x vendor/lib/y").0, Verdict::Allow);
    let (verdict, ids) = run(&c, tree.path(), "tar -xf a.tar -C vendor && cp x other/y");
    assert_eq!(verdict, Verdict::Allow, "{ids:?}");
}

#[test]
fn reading_a_file_through_an_extracted_link_is_asked() {
    let c = broad();
    let tree = tempfile::tempdir().expect("tempdir");
    // `out/notes -> ~/.ssh/id_ed25519` prints a key to the agent.
    let (verdict, ids) = run(&c, tree.path(), "unzip -q a.zip -d out && cat out/notes");
    assert_eq!(verdict, Verdict::Ask);
    assert_eq!(ids[1], [ID]);
    // An option's value names a path too.
    let (verdict, _) = run(&c, tree.path(), "tar -xf a.tar -C out; grep --file=out/p x");
    assert_eq!(verdict, Verdict::Ask);
}

#[test]
fn running_a_cwd_configured_program_in_a_fresh_clone_is_asked() {
    let c = broad();
    let tree = tempfile::tempdir().expect("tempdir");
    // The clone's Makefile and .git/config are what make and git run.
    let (verdict, ids) = run(
        &c,
        tree.path(),
        "git clone https://example.com/tools.git && cd tools && make",
    );
    assert_eq!(verdict, Verdict::Ask);
    assert_eq!(ids.last().expect("make"), &[ID]);
    let (verdict, _) = run(
        &c,
        tree.path(),
        "git clone https://example.com/tools.git t2 && git -C t2 log",
    );
    assert_eq!(verdict, Verdict::Ask);
    // The clone alone, and followed by a command that names nothing
    // inside it, stay allowed.
    let (verdict, ids) = run(&c, tree.path(), "git clone https://example.com/tools.git");
    assert_eq!(verdict, Verdict::Allow, "{ids:?}");
    let (verdict, ids) = run(
        &c,
        tree.path(),
        "git clone https://example.com/tools.git && ls",
    );
    assert_eq!(verdict, Verdict::Allow, "{ids:?}");
}

#[test]
fn a_tree_copied_whole_keeps_its_links_so_writes_into_it_are_asked() {
    let c = broad();
    let tree = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(tree.path().join("dst")).expect("mkdir");
    // Into an existing directory: the copy lands in dst/src.
    let (verdict, ids) = run(&c, tree.path(), "cp -r src dst && cp x dst/src/conf");
    assert_eq!(verdict, Verdict::Ask);
    assert_eq!(ids[1], [ID]);
    // Into dst/src, not dst itself: a sibling stays allowed.
    let (verdict, ids) = run(&c, tree.path(), "cp -r src dst && cp x dst/other");
    assert_eq!(verdict, Verdict::Allow, "{ids:?}");
    // A plain copy of one file fills nothing.
    let (verdict, ids) = run(&c, tree.path(), "cp a b && cp x b");
    assert_eq!(verdict, Verdict::Allow, "{ids:?}");
}

#[test]
fn an_entry_with_argument_guards_off_is_trusted_as_its_owner_said() {
    let c = compiled(serde_json::json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss"},
        "agents": {"main": {"allowlist": [
            {"pattern": "/usr/bin/tar"},
            {"pattern": "/usr/bin/cp", "argGuards": false}
        ]}}
    }));
    let tree = tempfile::tempdir().expect("tempdir");
    let (verdict, ids) = run(&c, tree.path(), "tar -xf a.tar -C v && cp x v/y");
    assert_eq!(verdict, Verdict::Allow, "{ids:?}");
}

#[test]
fn a_clone_is_named_as_git_names_it() {
    assert_eq!(clone_name("https://example.com/a/tools.git"), Some("tools"));
    assert_eq!(clone_name("git@example.com:a/tools"), Some("tools"));
    assert_eq!(clone_name("host:tools/.git/"), Some("tools"));
    assert_eq!(clone_name("/srv/tools.bundle"), Some("tools"));
    assert_eq!(clone_name("owner/repo"), Some("repo"));
    assert_eq!(clone_name(".."), None);
    assert_eq!(clone_name("/"), None);
}

#[test]
fn gh_repo_clone_into_a_directory_outside_the_tree_is_asked() {
    let cwd = Path::new("/work/project");
    let args = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
    let hits = specs::check(
        "gh",
        &args(&["repo", "clone", "o/r", "/tmp/elsewhere"]),
        cwd,
    )
    .expect("gh has a spec");
    assert!(
        hits.iter().any(|h| h.reason.contains("/tmp/elsewhere")),
        "{hits:?}"
    );
    let hits = specs::check("gh", &args(&["repo", "clone", "o/r"]), cwd).expect("spec");
    assert!(hits.is_empty(), "{hits:?}");
    assert_eq!(
        specs::filled_trees("gh", &args(&["repo", "clone", "o/r"]), cwd),
        [PathBuf::from("/work/project/r")]
    );
}

#[test]
fn filling_the_directory_a_part_runs_in_is_asked_there_not_again_later() {
    let c = broad();
    let tree = tempfile::tempdir().expect("tempdir");
    // tar into the working directory itself is asked on its own segment.
    let (verdict, ids) = run(&c, tree.path(), "tar -xf a.tar && cat notes");
    assert_eq!(verdict, Verdict::Ask);
    assert_ne!(ids[0], Vec::<&str>::new());
    assert_eq!(ids[1], Vec::<&str>::new(), "{ids:?}");
}

#[test]
fn every_tree_filled_earlier_counts_not_only_the_first() {
    let c = broad();
    let tree = tempfile::tempdir().expect("tempdir");
    let (verdict, ids) = run(
        &c,
        tree.path(),
        "tar -xf a.tar -C a && tar -xf b.tar -C b && cat b/notes",
    );
    assert_eq!(verdict, Verdict::Ask);
    assert_eq!(ids[2], [ID], "{ids:?}");
    // The same tree filled twice is one tree.
    let (verdict, ids) = run(
        &c,
        tree.path(),
        "tar -xf a.tar -C a && tar -xf b.tar -C a && cat a/notes",
    );
    assert_eq!(verdict, Verdict::Ask);
    assert_eq!(ids[2], [ID], "{ids:?}");
}

#[test]
fn an_empty_value_names_no_path_and_adds_no_second_reason() {
    let c = broad();
    let tree = tempfile::tempdir().expect("tempdir");
    // Run inside the tree: a reason for where it runs and one per word
    // (`x` and `notes` are paths in it too), none for `--color=`.
    let (verdict, ids) = run(
        &c,
        tree.path(),
        "tar -xf a.tar -C out && cd out && grep --color= x notes",
    );
    assert_eq!(verdict, Verdict::Ask);
    assert_eq!(ids.last().expect("grep"), &[ID, ID, ID], "{ids:?}");
}
