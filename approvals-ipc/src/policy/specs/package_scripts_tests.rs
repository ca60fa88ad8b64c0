//! yarn's and pnpm's fallback from a script to a program, named by the
//! attack or the false refusal they stop; each test runs in a project
//! directory with a real package.json.

use super::check;
use super::tests::ids_in;

const NONE: [&str; 0] = [];

/// A project directory whose package.json has the scripts `build`,
/// `test` and `lint`, with a `packages/a` whose package.json has `dev`.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let scripts = r#"{"name":"p","scripts":{"build":"tsc","test":"vitest","lint":"eslint ."}}"#;
    std::fs::write(dir.path().join("package.json"), scripts).expect("write");
    std::fs::create_dir_all(dir.path().join("packages/a")).expect("mkdir");
    std::fs::write(
        dir.path().join("packages/a/package.json"),
        r#"{"scripts":{"dev":"vite"}}"#,
    )
    .expect("write");
    dir
}

#[test]
fn a_package_json_script_run_by_its_name_stays_allowed() {
    let dir = project();
    for argv in [
        &["yarn", "build"][..],
        &["yarn", "test", "--watch"],
        &["yarn", "run", "lint", "--fix"],
        &["yarn", "--silent", "build"],
        &["yarn", "-s", "test"],
        &["yarn", "build", "--cwd", "/elsewhere"],
        &["yarn", "--cwd", "packages/a", "dev"],
        &["yarn", "run"],
        &["pnpm", "build"],
        &["pnpm", "lint", "--fix"],
        &["pnpm", "-C", "packages/a", "dev"],
        &["pnpm", "run", "build"],
        &["pnpm", "run", "not-a-script"],
        &["npm", "run", "build"],
    ] {
        assert_eq!(ids_in(dir.path(), argv), NONE, "{argv:?}");
    }
}

#[test]
fn a_name_that_is_no_script_runs_another_program_and_is_asked() {
    let dir = project();
    for (argv, id) in [
        // yarn runs node_modules/.bin/NAME: a dependency's program.
        (&["yarn", "eslint", "--fix"][..], "yarn.runs-program"),
        (&["yarn", "run", "tsc"], "yarn.runs-program"),
        (
            &["yarn", "--cwd", "packages/a", "build"],
            "yarn.runs-program",
        ),
        // pnpm runs NAME from PATH: any program.
        (&["pnpm", "id"], "pnpm.runs-program"),
        (&["pnpm", "bash", "-c", "id"], "pnpm.runs-program"),
        (&["pnpm", "-C", "packages/a", "build"], "pnpm.runs-program"),
    ] {
        assert_eq!(ids_in(dir.path(), argv), [id], "{argv:?}");
    }
    let (program, args) = ("pnpm", vec!["id".to_owned()]);
    let why = &check(program, &args, dir.path()).expect("spec")[0].reason;
    assert!(
        why.starts_with(
            "pnpm id: id is not a script in package.json, so pnpm runs it as a command from PATH"
        ),
        "{why}"
    );
}

#[test]
fn a_missing_unreadable_or_broken_package_json_is_asked() {
    let empty = tempfile::tempdir().expect("tempdir");
    assert_eq!(
        ids_in(empty.path(), &["yarn", "build"]),
        ["yarn.runs-program"]
    );
    let broken = tempfile::tempdir().expect("tempdir");
    std::fs::write(broken.path().join("package.json"), "{ not json").expect("write");
    assert_eq!(
        ids_in(broken.path(), &["yarn", "build"]),
        ["yarn.runs-program"]
    );
    assert_eq!(
        ids_in(broken.path(), &["pnpm", "build"]),
        ["pnpm.runs-program"]
    );
    let odd = tempfile::tempdir().expect("tempdir");
    std::fs::write(odd.path().join("package.json"), r#"{"scripts":["build"]}"#).expect("write");
    assert_eq!(
        ids_in(odd.path(), &["yarn", "build"]),
        ["yarn.runs-program"]
    );
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("package.json")).expect("mkdir");
    assert_eq!(
        ids_in(dir.path(), &["yarn", "build"]),
        ["yarn.runs-program"]
    );
}
