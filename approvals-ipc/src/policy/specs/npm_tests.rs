//! The npm spec, named by the attack or the false refusal it stops. npm
//! reads argv with nopt: config keys anywhere, by unique prefix, and the
//! command is the first word that is not an option or its value.

use super::grammar;
use super::lookup;
use super::tests::{ids, reasons};

const NONE: [&str; 0] = [];

/// The command npm would run for `args`, as the spec reads them.
fn command(args: &[&str]) -> Option<String> {
    let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
    let reading = grammar::read(lookup("npm").expect("npm spec"), &args);
    assert!(reading.problem.is_none(), "{args:?}: {:?}", reading.problem);
    reading.sub_word.map(str::to_owned)
}

#[test]
fn everyday_npm_commands_trip_nothing() {
    for argv in [
        &["npm", "test"][..],
        &["npm", "t"],
        &["npm", "run", "build", "--", "--watch"],
        &["npm", "run-script", "lint"],
        &["npm", "install"],
        &["npm", "i", "-D", "typescript"],
        &[
            "npm",
            "install",
            "--save-dev",
            "eslint@8",
            "--no-audit",
            "--no-fund",
        ],
        &["npm", "ci", "--ignore-scripts"],
        &["npm", "ci", "--ignore-scripts", "false"],
        &["npm", "--loglevel", "silent", "run", "test"],
        &["npm", "--loglevel=silent", "run", "test"],
        &["npm", "-w", "packages/a", "run", "test"],
        &["npm", "run", "test", "--workspace=packages/a"],
        &["npm", "-ws", "test"],
        &["npm", "outdated", "--json"],
        &["npm", "ls", "--depth=0"],
        &["npm", "ls", "--depth", "0", "--all"],
        &["npm", "view", "react", "version"],
        &["npm", "-v"],
        &["npm", "--version"],
        &["npm", "audit", "--audit-level=high"],
        &["npm", "uninstall", "left-pad"],
        &["npm", "update", "--save"],
        &["npm", "start"],
        &["npm", "pack", "--dry-run"],
        &["npm", "-s", "run", "build"],
        &["npm", "install", "-D", "x", "--no-global"],
        &["npm", "--prefix", "packages/a", "run", "build"],
        &["npm", "explain", "react"],
        &["npm", "why", "react"],
        &["npm", "--ignore-scr", "ci"],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
}

#[test]
fn a_script_shell_of_the_caller_s_choosing_is_asked_in_any_spelling() {
    for argv in [
        &["npm", "--script-shell=/tmp/evil", "run", "test"][..],
        &["npm", "--script-shell", "/tmp/evil", "run", "test"],
        &["npm", "run", "test", "--script-shell=/tmp/evil"],
        // nopt expands a unique prefix: npm 11.19.1 warns "Expanding
        // --script-sh to --script-shell" and uses it.
        &["npm", "--script-sh=/tmp/evil", "run", "test"],
        &["npm", "--scri", "/tmp/evil", "test"],
        // The leading dashes do not matter to nopt.
        &["npm", "-script-shell=/tmp/evil", "test"],
    ] {
        assert_eq!(ids(argv), ["npm.runs-program"], "{argv:?}");
    }
}

#[test]
fn node_options_another_config_or_registry_is_asked() {
    assert_eq!(
        ids(&["npm", "--node-options=--require /tmp/x.js", "test"]),
        ["npm.loads-code"]
    );
    // A value that starts with a dash: npm takes it or reads it as an
    // option, by the key's type; the spec asks either way.
    assert_eq!(
        ids(&["npm", "--node-options", "--require /tmp/x.js", "test"]),
        ["npm.unknown-option"]
    );
    assert_eq!(
        ids(&["npm", "--userconfig", "/tmp/rc", "install"]),
        ["npm.loads-code"]
    );
    assert_eq!(
        ids(&["npm", "--globalconfig=/tmp/rc", "ci"]),
        ["npm.loads-code"]
    );
    assert_eq!(
        ids(&["npm", "--registry", "http://evil", "install", "x"]),
        ["npm.loads-code"]
    );
    assert_eq!(
        ids(&["npm", "install", "x", "--reg=http://evil"]),
        ["npm.loads-code"]
    );
    assert_eq!(
        ids(&["npm", "-registry", "http://evil", "install", "x"]),
        ["npm.loads-code"]
    );
    // A scoped registry is no key npm defines: asked as unknown.
    assert_eq!(
        ids(&["npm", "--@evil:registry=http://evil", "install", "@evil/x"]),
        ["npm.unknown-option"]
    );
}

#[test]
fn commands_that_run_a_package_s_binary_or_a_shell_are_asked() {
    assert_eq!(ids(&["npm", "exec", "cowsay"]), ["npm.runs-program"]);
    assert_eq!(ids(&["npm", "x", "--", "sh"]), ["npm.runs-program"]);
    assert_eq!(
        ids(&["npm", "explore", "x", "--", "sh"]),
        ["npm.runs-program"]
    );
    assert_eq!(ids(&["npm", "init", "vite"]), ["npm.runs-program"]);
    assert_eq!(ids(&["npm", "create", "vite@latest"]), ["npm.runs-program"]);
    assert_eq!(ids(&["npm", "edit", "react"]), ["npm.runs-program"]);
    assert_eq!(ids(&["npm", "repo", "react"]), ["npm.runs-program"]);
    assert_eq!(ids(&["npm", "publish"]), ["npm.uploads"]);
    assert_eq!(
        ids(&["npm", "config", "set", "script-shell", "/tmp/x"]),
        ["npm.sets-config"]
    );
    assert_eq!(
        ids(&["npm", "pkg", "set", "scripts.test=sh"]),
        ["npm.sets-config"]
    );
    assert_eq!(ids(&["npm", "link"]), ["npm.other-tree"]);
}

#[test]
fn another_prefix_or_the_global_prefix_is_asked() {
    assert_eq!(
        ids(&["npm", "--prefix", "/elsewhere", "run", "build"]),
        ["npm.other-tree"]
    );
    assert_eq!(ids(&["npm", "-C", "../other", "test"]), ["npm.other-tree"]);
    assert_eq!(
        ids(&["npm", "install", "-g", "typescript"]),
        ["npm.writes-file"]
    );
    assert_eq!(ids(&["npm", "i", "-gD", "x"]), ["npm.writes-file"]);
}

#[test]
fn a_global_option_s_value_is_not_the_command() {
    // npm 11.19.1 reads `npm --loglevel exec --help` as loglevel=exec and
    // no command.
    assert_eq!(
        command(&["--loglevel", "exec", "install"]).as_deref(),
        Some("install")
    );
    assert_eq!(ids(&["npm", "--loglevel", "exec", "install"]), NONE);
    // A boolean takes a following true/false, not the command.
    assert_eq!(
        command(&["--ignore-scripts", "false", "ci"]).as_deref(),
        Some("ci")
    );
    // Options after the command are npm's too.
    assert_eq!(
        command(&["run", "test", "--loglevel", "silent"]).as_deref(),
        Some("run")
    );
}

#[test]
fn what_nopt_reads_differently_is_asked() {
    // `--save=exec` is save=true and the command `exec`.
    assert_eq!(ids(&["npm", "--save=exec", "test"]), ["npm.unknown-option"]);
    // A value that looks like an option: npm takes it or not by type.
    assert_eq!(
        ids(&["npm", "--loglevel", "-C", "/x", "test"]),
        ["npm.unknown-option"]
    );
    // `--no-no-key` sets the key to true.
    assert_eq!(
        ids(&["npm", "--no-no-registry", "install"]),
        ["npm.unknown-option"]
    );
    // An ambiguous prefix becomes an unknown config key to npm.
    let why = reasons(&["npm", "--log=silent", "test"]);
    assert!(why[0].contains("ambiguous option --log"), "{why:?}");
    // npm-version is in `config ls` but no key nopt knows: `--npm-version
    // exec` runs exec.
    assert_eq!(
        ids(&["npm", "--npm-version", "exec", "x"]),
        ["npm.unknown-option"]
    );
}

#[test]
fn an_unknown_or_abbreviated_command_is_asked() {
    assert_eq!(ids(&["npm", "frobnicate"]), ["npm.unknown-subcommand"]);
    // npm runs `exe` as `exec`.
    assert_eq!(ids(&["npm", "exe", "cowsay"]), ["npm.unknown-subcommand"]);
}
