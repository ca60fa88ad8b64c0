//! What satisfies one segment: the allowlist, a safe bin in a trusted
//! directory called by its own name, a skill called by bare name; and the
//! guards, read by the real name and by the name it was called.

use std::os::unix::fs::symlink;

use serde_json::json;

use super::tests::{compiled, real};
use super::*;

fn run_in(c: &CompiledPolicy, dir: &Path, argv: &[&str]) -> Evaluation {
    let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
    c.evaluate(&argv, dir, &Default::default())
}

fn allowlist(entries: &[&str]) -> CompiledPolicy {
    let entries: Vec<_> = entries.iter().map(|p| json!({"pattern": p})).collect();
    compiled(json!({"version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss"},
        "agents": {"main": {"allowlist": entries}}}))
}

#[test]
fn a_safe_bin_is_satisfied_only_by_its_own_name_in_a_trusted_directory() {
    let c = allowlist(&[]);
    let dir = tempfile::tempdir().unwrap();
    let e = run_in(&c, dir.path(), &["head", "-n", "1"]);
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
    assert_eq!(
        e.analysis.segments[0].satisfied_by,
        Some(SatisfiedBy::SafeBin)
    );
    assert_eq!(e.analysis.segments[0].miss, None);

    // `./wc` is really `head`: judged by what runs, it is not `wc`, and
    // it is not called `head` either.
    symlink(real("head"), dir.path().join("wc")).unwrap();
    let e = run_in(&c, dir.path(), &["./wc", "-n", "1"]);
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(e.analysis.segments[0].satisfied_by, None);

    // A copy of `head` outside the trusted directories.
    std::fs::copy(real("head"), dir.path().join("head")).unwrap();
    let e = run_in(&c, dir.path(), &["./head", "-n", "1"]);
    assert_eq!(e.decision, Verdict::Ask);
    let miss = e.analysis.segments[0].miss.as_ref().map(Miss::code);
    assert_eq!(miss, Some("safe-bin-untrusted-dir"));

    // A trusted safe bin used beyond its profile.
    let e = run_in(&c, dir.path(), &["head", "-n", "1", "/etc/passwd"]);
    let miss = e.analysis.segments[0].miss.as_ref().map(Miss::code);
    assert_eq!(miss, Some("safe-bin-usage"));
}

#[test]
fn a_skill_is_trusted_only_by_bare_name_and_only_with_auto_allow_skills() {
    let skills = |auto: bool| {
        compiled(json!({"version": 1,
            "defaults": {"security": "allowlist", "ask": "on-miss", "autoAllowSkills": auto}}))
        .with_skill_bins([PathBuf::from(real("uname"))])
    };
    let dir = tempfile::tempdir().unwrap();
    let e = run_in(&skills(true), dir.path(), &["uname", "-a"]);
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
    assert_eq!(
        e.analysis.segments[0].satisfied_by,
        Some(SatisfiedBy::Skill)
    );
    let e = run_in(&skills(false), dir.path(), &["uname", "-a"]);
    assert_eq!(e.decision, Verdict::Ask);
    let uname = real("uname");
    let e = run_in(&skills(true), dir.path(), &[uname.as_str(), "-a"]);
    assert_eq!(e.decision, Verdict::Ask, "a path is not the skill's name");
}

#[test]
fn a_guarded_segment_reports_its_guards_and_no_miss() {
    let c = allowlist(&[&real("git")]);
    let e = run_in(
        &c,
        Path::new("/tmp"),
        &["git", "-c", "core.pager=sh", "log"],
    );
    let segment = &e.analysis.segments[0];
    assert_eq!(segment.satisfied_by, Some(SatisfiedBy::Allowlist));
    // The git spec's `git.sets-config` and the older `git.config-override`.
    assert_eq!(segment.guards.len(), 2, "{segment:?}");
    assert_eq!(segment.miss, None, "a guard is not an allowlist miss");
    assert_eq!(e.reason.as_ref().map(Reason::code), Some("argument-guard"));
}

#[test]
fn guards_also_read_the_name_a_program_was_called() {
    // An allowlisted `ls` called as `find` (a multi-call binary works this
    // way): `ls` has no guards, but the name it was called has.
    let c = allowlist(&[&real("ls")]);
    let dir = tempfile::tempdir().unwrap();
    symlink(real("ls"), dir.path().join("find")).unwrap();
    let e = run_in(&c, dir.path(), &["./find", ".", "-exec", "rm", "{}", ";"]);
    assert_eq!(e.decision, Verdict::Ask, "{:?}", e.reason);
    assert_eq!(e.reason.as_ref().map(Reason::code), Some("argument-guard"));
    // `-L` is an option of both ls and find.
    let e = run_in(&c, dir.path(), &["./find", "-L"]);
    assert_eq!(e.decision, Verdict::Allow, "no guard fires: {:?}", e.reason);
}

#[test]
fn an_unsatisfied_segment_reports_its_miss_and_a_satisfied_one_none() {
    let c = allowlist(&[&real("ls")]);
    let e = run_in(&c, Path::new("/tmp"), &["sh", "-c", "ls && id"]);
    let misses: Vec<Option<&str>> = e
        .analysis
        .segments
        .iter()
        .map(|s| s.miss.as_ref().map(Miss::code))
        .collect();
    assert_eq!(misses, [None, Some("not-allowlisted")]);
}

#[test]
fn a_guarded_program_under_an_unguarded_name_keeps_its_guards() {
    let c = allowlist(&[&real("find")]);
    let dir = tempfile::tempdir().unwrap();
    symlink(real("find"), dir.path().join("lister")).unwrap();
    let e = run_in(&c, dir.path(), &["./lister", ".", "-delete"]);
    assert_eq!(e.decision, Verdict::Ask, "{:?}", e.reason);
    assert_eq!(e.reason.as_ref().map(Reason::code), Some("argument-guard"));
}
