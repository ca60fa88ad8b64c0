//! Programs configured by the directory they run in, and the guard that asks
//! when a `cd` in the command moves one of them into another tree.
//!
//! Allowlisting git trusts git in *this* project: `cd ../other && git log`
//! reads `../other/.git/config` (a pager, an fsmonitor, hooks) and `cd
//! /tmp/x && make` runs another Makefile. The request's own directory is
//! what the person sees; a directory the command moves to, resolved
//! through symbolic links, that is not inside it makes these programs ask.
//! Upholds DESIGN.md section 6 (Working-directory changes).

use std::path::Path;

use crate::policy::guards::GuardHit;
use crate::policy::guards::parse::{enters_other_repository, outside};
use crate::policy::programs;

/// Programs that read configuration, hooks or build files from their
/// working directory, each with what it reads there. Sorted by name.
pub const CWD_CONFIGURED: &[(&str, &str)] = &[
    (
        "bazel",
        "runs the BUILD and WORKSPACE rules, which run any command",
    ),
    ("bun", "reads bunfig.toml and runs package.json scripts"),
    ("bundle", "reads the Gemfile and .bundle/config"),
    (
        "cargo",
        "reads .cargo/config.toml and builds and runs build scripts",
    ),
    ("cmake", "runs CMakeLists.txt, which can run any command"),
    ("composer", "reads composer.json and runs its scripts"),
    ("ctest", "runs the tests CTestTestfile.cmake names"),
    ("deno", "reads deno.json and its tasks"),
    ("direnv", "loads .envrc"),
    ("eslint", "loads eslint.config.js, which is JavaScript"),
    (
        "flake8",
        "reads .flake8, setup.cfg or tox.ini, which can load local plugins",
    ),
    (
        "git",
        "reads .git/config (pagers, hooks, fsmonitor) and runs its hooks",
    ),
    ("gmake", "runs the Makefile"),
    ("go", "reads go.mod, go.work and the toolchain they name"),
    ("gradle", "runs build.gradle"),
    (
        "gradlew",
        "runs the project's Gradle wrapper and build.gradle",
    ),
    ("jest", "loads jest.config.js and its setup files"),
    ("just", "runs the justfile"),
    ("make", "runs the Makefile"),
    ("mvn", "runs pom.xml and its plugins"),
    ("mvnw", "runs the project's Maven wrapper and pom.xml"),
    (
        "mypy",
        "reads mypy.ini or pyproject.toml, which can load plugins",
    ),
    ("nox", "runs noxfile.py"),
    ("npm", "reads .npmrc and runs package.json scripts"),
    ("npx", "reads .npmrc and runs package binaries"),
    ("pnpm", "reads .npmrc and runs package.json scripts"),
    ("poetry", "reads pyproject.toml and runs its build backend"),
    ("pre-commit", "runs the hooks .pre-commit-config.yaml names"),
    ("prettier", "loads prettier.config.js and its plugins"),
    ("py.test", "loads conftest.py and its plugins"),
    (
        "pylint",
        "reads pylintrc, which can load plugins and run an init hook",
    ),
    ("pytest", "loads conftest.py and its plugins"),
    ("pytest-3", "loads conftest.py and its plugins"),
    ("rake", "runs the Rakefile"),
    ("rspec", "reads .rspec and loads spec/spec_helper.rb"),
    ("tox", "reads tox.ini and runs its commands"),
    ("uv", "reads pyproject.toml and uv.toml"),
    ("vite", "loads vite.config.js"),
    ("vitest", "loads vitest.config.ts and its setup files"),
    ("webpack", "loads webpack.config.js"),
    ("yarn", "reads .yarnrc and runs package.json scripts"),
];

/// What `name` reads from its working directory, if it is one of
/// [`CWD_CONFIGURED`] (by family: `python3`-style suffixes do not apply to
/// these names, the exact executable name does).
pub fn reads_cwd(name: &str) -> Option<&'static str> {
    let name = programs::executable_name(name);
    CWD_CONFIGURED
        .binary_search_by(|(n, _)| (*n).cmp(name))
        .ok()
        .and_then(|i| CWD_CONFIGURED.get(i))
        .map(|(_, what)| *what)
}

/// What makes a directory another repository to `name`: the directory
/// holding the config and hooks it reads from there and from above (git's
/// `.git`, cargo's `.cargo`). Programs that only run a build file of the
/// directory (make, npm) have none: a nested one is still in the tree.
pub fn repository_markers(name: &str) -> &'static [&'static str] {
    match programs::executable_name(name) {
        "git" => &[".git"],
        "cargo" => &[".cargo"],
        _ => &[],
    }
}

/// The hit when `program` runs in `dir`, moved there by a `cd` of the
/// command, and `dir` is not inside the request's `base` directory.
pub fn moved_out(program: &str, base: &Path, dir: &Path) -> Option<GuardHit> {
    if dir == base {
        return None;
    }
    let what = reads_cwd(program)?;
    let dir_text = dir.to_str()?;
    let name = programs::executable_name(program);
    if outside(base, dir_text) {
        return Some(GuardHit {
            id: "cd.other-tree",
            reason: format!(
                "{name} runs in {dir_text}, outside the working directory {}, and {what} there",
                base.display()
            ),
        });
    }
    enters_other_repository(base, dir_text, repository_markers(name)).then(|| GuardHit {
        id: "cd.other-tree",
        reason: format!(
            "{name} runs in {dir_text}, another repository inside the working directory {}, and {what} there",
            base.display()
        ),
    })
}

/// The hit when `program`, run with `args` in `dir` (moved there by a
/// `cd` of the command, outside the request's `base` directory), writes
/// or works in paths its arguments name: they are relative to `dir`, so
/// the spec's "outside the working directory" checks, made from `dir`,
/// would pass `cd ~/.local/bin && sort -o git x`. Programs configured by
/// their directory are asked by [`moved_out`] already.
pub fn writes_moved_out(
    program: &str,
    args: &[String],
    base: &Path,
    dir: &Path,
) -> Option<GuardHit> {
    if dir == base || reads_cwd(program).is_some() {
        return None;
    }
    let dir_text = dir.to_str()?;
    if !outside(base, dir_text) || !crate::policy::specs::writes(program, args) {
        return None;
    }
    Some(GuardHit {
        id: "cd.other-tree",
        reason: format!(
            "{} writes to paths relative to {dir_text}, outside the working directory {}",
            programs::executable_name(program),
            base.display()
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_explained() {
        for pair in CWD_CONFIGURED.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{pair:?}");
        }
        assert!(CWD_CONFIGURED.iter().all(|(_, why)| !why.is_empty()));
        let git = CWD_CONFIGURED.iter().find(|(n, _)| *n == "git");
        assert_eq!(reads_cwd("/usr/bin/git"), git.map(|(_, what)| *what));
        assert!(reads_cwd("eslint").is_some_and(|w| w.contains("JavaScript")));
        assert_eq!(reads_cwd("ls"), None);
    }

    #[test]
    fn git_moved_into_another_tree_is_asked_and_into_a_subdirectory_is_not() {
        let base = Path::new("/work/project");
        let hit = moved_out("git", base, Path::new("/work/other")).expect("asked");
        assert_eq!(hit.id, "cd.other-tree");
        assert!(hit.reason.contains("/work/other"), "{}", hit.reason);
        assert!(moved_out("git", base, Path::new("/work/project/sub")).is_none());
        assert!(moved_out("git", base, base).is_none());
        assert!(moved_out("ls", base, Path::new("/etc")).is_none());
    }

    #[test]
    fn linters_and_test_runners_that_load_config_code_ask_in_another_tree() {
        // `cd /tmp/x && eslint .` loads /tmp/x/eslint.config.js, which is
        // JavaScript; the same for jest, vitest, prettier, pre-commit's
        // hooks, CMakeLists.txt, pylint's init hook and the wrappers
        // projects ship.
        let base = Path::new("/work/project");
        for program in [
            "eslint",
            "jest",
            "vitest",
            "prettier",
            "pre-commit",
            "cmake",
            "ctest",
            "pylint",
            "mypy",
            "nox",
            "rspec",
            "./gradlew",
            "py.test",
        ] {
            let hit = moved_out(program, base, Path::new("/tmp/x")).expect(program);
            assert_eq!(hit.id, "cd.other-tree", "{program}");
            assert!(moved_out(program, base, Path::new("/work/project/web")).is_none());
        }
    }

    #[test]
    fn sed_editing_in_place_after_a_cd_out_of_the_tree_is_asked() {
        // The sed.in-place guard judges each file from the directory sed
        // runs in; a `cd /tmp` first makes `x` look like a file in the tree.
        let base = Path::new("/work/project");
        let args = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        let hit = writes_moved_out(
            "sed",
            &args(&["-i", "s/a/b/", "x"]),
            base,
            Path::new("/tmp"),
        )
        .expect("asked");
        assert_eq!(hit.id, "cd.other-tree");
        assert!(
            writes_moved_out("sed", &args(&["s/a/b/", "x"]), base, Path::new("/tmp")).is_none()
        );
        assert!(
            writes_moved_out(
                "sed",
                &args(&["-i", "s/a/b/", "x"]),
                base,
                Path::new("/work/project/src")
            )
            .is_none()
        );
    }

    #[test]
    fn cd_elsewhere_then_git_is_asked_through_the_policy() {
        use crate::policy::Verdict;
        use crate::policy::decision::tests::compiled;
        // Whichever git the test PATH finds first.
        let c = compiled(serde_json::json!({
            "version": 1,
            "defaults": {"security": "allowlist", "ask": "on-miss"},
            "agents": {"main": {"allowlist": [{"pattern": "/usr/**/git"}]}}
        }));
        let tree = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(tree.path().join("sub")).expect("mkdir");
        let run = |script: &str| {
            let argv = ["sh".to_owned(), "-c".to_owned(), script.to_owned()];
            c.evaluate(&argv, tree.path(), &Default::default())
        };
        let e = run("cd /etc && git log");
        assert_eq!(e.decision, Verdict::Ask);
        let ids: Vec<&str> = e.analysis.segments[0].guards.iter().map(|g| g.id).collect();
        assert_eq!(ids, ["cd.other-tree"], "{:?}", e.reason);
        let e = run("cd sub && git status");
        assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
    }

    #[test]
    fn a_link_inside_the_tree_that_leaves_it_is_outside() {
        let tree = tempfile::tempdir().expect("tempdir");
        let other = tempfile::tempdir().expect("tempdir");
        let link = tree.path().join("vendor");
        std::os::unix::fs::symlink(other.path(), &link).expect("symlink");
        let hit = moved_out("make", tree.path(), &link);
        assert!(hit.is_some(), "a cd through a link out of the tree");
        let inner = tree.path().join("src");
        std::fs::create_dir(&inner).expect("mkdir");
        assert!(moved_out("make", tree.path(), &inner).is_none());
    }

    #[test]
    fn a_write_after_a_cd_out_of_the_tree_is_asked() {
        let base = Path::new("/work/project");
        let argv = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
        let bin = Path::new("/home/u/.local/bin");
        // `cd ~/.local/bin && sort -o git x`: a PATH entry written.
        let hit = writes_moved_out("sort", &argv(&["-o", "git", "x"]), base, bin).expect("asked");
        assert_eq!(hit.id, "cd.other-tree");
        assert!(writes_moved_out("cp", &argv(&["x", "y"]), base, Path::new("/tmp")).is_some());
        assert!(
            writes_moved_out("tar", &argv(&["xzf", "a.tgz"]), base, Path::new("/tmp")).is_some()
        );
        // Reads there, and writes in a subdirectory of the tree, are not.
        assert!(writes_moved_out("sort", &argv(&["x"]), base, bin).is_none());
        assert!(writes_moved_out("cat", &argv(&["x"]), base, bin).is_none());
        assert!(
            writes_moved_out("sort", &argv(&["-o", "y", "x"]), base, &base.join("src")).is_none()
        );
        assert!(writes_moved_out("sort", &argv(&["-o", "y", "x"]), base, base).is_none());
    }
}
