//! The pnpm and yarn specs, named by the attack or the false refusal they
//! stop. Both read config options before and after the command, exactly
//! (no abbreviations), and hand a script's words to the script.

use super::grammar;
use super::lookup;
use super::tests::{ids, reasons};

const NONE: [&str; 0] = [];

/// The command and operands `program` would see for `args`.
fn reading(program: &str, args: &[&str]) -> (Option<String>, Vec<String>) {
    let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
    let r = grammar::read(lookup(program).expect("spec"), &args);
    assert!(r.problem.is_none(), "{args:?}: {:?}", r.problem);
    (
        r.sub_word.map(str::to_owned),
        r.operands.iter().map(|s| (*s).to_owned()).collect(),
    )
}

#[test]
fn everyday_pnpm_and_yarn_commands_trip_nothing() {
    for argv in [
        &["pnpm", "test"][..],
        &["pnpm", "test", "--watch"],
        &["pnpm", "t", "--", "--coverage"],
        &["pnpm", "install"],
        &["pnpm", "i"],
        &["pnpm", "install", "--frozen-lockfile"],
        &["pnpm", "add", "-D", "typescript"],
        &["pnpm", "run", "build"],
        &["pnpm", "run", "build", "--prod", "--registry", "x"],
        &["pnpm", "-r", "run", "build"],
        &["pnpm", "--filter", "web", "run", "build"],
        &["pnpm", "-F", "./packages/a", "test"],
        &["pnpm", "-C", "packages/a", "install"],
        &["pnpm", "--dir=packages/a", "test"],
        &["pnpm", "remove", "left-pad"],
        &["pnpm", "why", "react"],
        &["pnpm", "outdated"],
        &["pnpm", "--version"],
        &["pnpm", "ls", "--depth", "0"],
        // `yarn NAME` runs a script only when package.json has it:
        // `package_scripts_tests.rs` tries those in a project.
        &["yarn"],
        &["yarn", "install", "--frozen-lockfile"],
        &["yarn", "add", "-D", "eslint"],
        &["yarn", "add", "react", "--exact"],
        &["yarn", "remove", "left-pad"],
        &["yarnpkg", "install"],
        &["yarn", "upgrade", "--latest"],
        &["yarn", "why", "react"],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
}

#[test]
fn a_script_s_words_are_the_script_s_not_the_package_manager_s() {
    assert_eq!(
        reading("pnpm", &["test", "--dir=/x"]),
        (Some("test".into()), vec!["--dir=/x".into()])
    );
    assert_eq!(
        reading("pnpm", &["run", "build", "--filter", "/x"]),
        (
            Some("run".into()),
            vec!["build".into(), "--filter".into(), "/x".into()]
        )
    );
    // yarn reads an unknown command as `yarn run` of it.
    assert_eq!(
        reading("yarn", &["build", "--registry", "x"]),
        (
            Some("build".into()),
            vec!["build".into(), "--registry".into(), "x".into()]
        )
    );
    // The options before a script name are the package manager's.
    assert_eq!(
        ids(&["pnpm", "run", "--dir=/elsewhere", "build"]),
        ["pnpm.other-tree"]
    );
}

#[test]
fn running_a_package_s_binary_or_a_command_is_asked() {
    for argv in [
        &["pnpm", "exec", "eslint"][..],
        &["pnpm", "dlx", "cowsay", "hi"],
        &["pnpm", "create", "vite"],
        &["pnpm", "with", "9", "install"],
        &["pnpm", "recursive", "exec", "sh"],
        &["pnpm", "-r", "exec", "sh", "-c", "id"],
    ] {
        assert_eq!(ids(argv), ["pnpm.runs-program"], "{argv:?}");
    }
    for argv in [
        &["yarn", "exec", "sh"][..],
        &["yarn", "create", "react-app", "x"],
        &["yarn", "node", "-e", "require('child_process')"],
        &["yarn", "workspace", "a", "add", "x", "--registry", "y"],
        &["yarn", "policies", "set-version", "berry"],
    ] {
        assert_eq!(ids(argv), ["yarn.runs-program"], "{argv:?}");
    }
}

#[test]
fn another_registry_is_asked_however_it_is_spelled() {
    for argv in [
        &["pnpm", "--registry", "http://evil", "install"][..],
        &["pnpm", "--registry=http://evil", "install"],
        &["pnpm", "install", "--registry", "http://evil"],
        &["pnpm", "add", "x", "--registry=http://evil"],
    ] {
        assert_eq!(ids(argv), ["pnpm.loads-code"], "{argv:?}");
    }
    for argv in [
        &["yarn", "--registry", "http://evil", "add", "y"][..],
        &["yarn", "--registry=http://evil", "add", "y"],
        &["yarn", "add", "y", "--registry", "http://evil"],
        &["yarn", "install", "--use-yarnrc", "/tmp/rc"],
    ] {
        assert_eq!(ids(argv), ["yarn.loads-code"], "{argv:?}");
    }
}

#[test]
fn config_that_runs_code_is_asked_however_it_is_spelled() {
    // pnpm 12 takes `--config.KEY=V` for any key; no row has it.
    for argv in [
        &["pnpm", "--config.script-shell=sh", "test"][..],
        &["pnpm", "install", "--config.node-options=--require=x"],
        &["pnpm", "--script-shell=sh", "test"],
    ] {
        assert_eq!(ids(argv), ["pnpm.unknown-option"], "{argv:?}");
    }
    assert_eq!(
        ids(&["pnpm", "--env-file", ".env", "test"]),
        ["pnpm.loads-code"]
    );
    assert_eq!(
        ids(&["pnpm", "config", "set", "script-shell", "sh"]),
        ["pnpm.sets-config"]
    );
    assert_eq!(
        ids(&["pnpm", "set", "script-shell", "/tmp/sh"]),
        ["pnpm.sets-config"]
    );
    assert_eq!(
        ids(&["pnpm", "add", "--allow-build=esbuild", "esbuild"]),
        ["pnpm.runs-program"]
    );
    assert_eq!(ids(&["pnpm", "approve-builds"]), ["pnpm.sets-config"]);
    assert_eq!(
        ids(&["yarn", "config", "set", "script-shell", "sh"]),
        ["yarn.sets-config"]
    );
    assert_eq!(
        ids(&["yarn", "--script-shell=sh", "test"]),
        ["yarn.unknown-option"]
    );
}

#[test]
fn another_tree_or_the_global_prefix_is_asked() {
    for argv in [
        &["pnpm", "-C", "/elsewhere", "test"][..],
        &["pnpm", "--dir", "../other", "install"],
        &["pnpm", "install", "--dir=/elsewhere"],
        &["pnpm", "--filter", "../other", "test"],
        &["pnpm", "-F/elsewhere", "test"],
    ] {
        assert_eq!(ids(argv), ["pnpm.other-tree"], "{argv:?}");
    }
    assert_eq!(ids(&["pnpm", "add", "-g", "x"]), ["pnpm.writes-file"]);
    assert_eq!(
        ids(&["yarn", "--cwd", "/elsewhere", "test"]),
        ["yarn.other-tree"]
    );
    assert_eq!(
        ids(&["yarn", "--cwd=../other", "build"]),
        ["yarn.other-tree"]
    );
    assert_eq!(ids(&["yarn", "global", "add", "x"]), ["yarn.writes-file"]);
    assert_eq!(
        ids(&["yarn", "install", "--modules-folder", "/tmp/nm"]),
        ["yarn.writes-file"]
    );
}

#[test]
fn an_abbreviation_unknown_option_or_unknown_pnpm_command_is_asked() {
    // pnpm 12 refuses `--regis`; pnpm 8-10 (nopt) took it as --registry.
    assert_eq!(
        ids(&["pnpm", "--regis=http://evil", "install"]),
        ["pnpm.unknown-option"]
    );
    assert_eq!(
        ids(&["yarn", "--regis", "x", "add", "y"]),
        ["yarn.unknown-option"]
    );
    // pnpm runs an unknown command as a script, else as a command from
    // PATH: with no package.json here, that is not known, so asked.
    assert_eq!(ids(&["pnpm", "eslint", "."]), ["pnpm.runs-program"]);
    // pnpm 12 takes a command's option before the command too; the spec
    // reads only the rc-options there and asks the rest (a false refusal,
    // never a missed option).
    assert_eq!(
        ids(&["pnpm", "--frozen-lockfile", "install"]),
        ["pnpm.unknown-option"]
    );
    let why = reasons(&["pnpm", "frobnicate"]);
    assert!(
        why[0].starts_with("pnpm frobnicate: package.json"),
        "{why:?}"
    );
}

#[test]
fn a_value_the_program_would_read_as_an_option_is_asked() {
    // clap refuses `--filter --registry=x`; the spec does not guess.
    assert_eq!(
        ids(&["pnpm", "--filter", "--registry=http://evil", "install"]),
        ["pnpm.unknown-option"]
    );
    // commander reads `-Sx` as `-S -x`, not `-S x`.
    assert_eq!(
        ids(&["yarn", "upgrade", "-Sg", "x"]),
        ["yarn.unknown-option"]
    );
    // `--prod [prod]` takes the next word unless it is an option.
    assert_eq!(
        ids(&["yarn", "--prod", "--registry", "http://evil"]),
        ["yarn.unknown-option"]
    );
}

#[test]
fn publishing_and_account_commands_are_asked() {
    assert_eq!(ids(&["pnpm", "publish"]), ["pnpm.uploads"]);
    assert_eq!(ids(&["pnpm", "login"]), ["pnpm.uploads"]);
    assert_eq!(ids(&["yarn", "publish"]), ["yarn.uploads"]);
    assert_eq!(ids(&["yarn", "login"]), ["yarn.uploads"]);
}
