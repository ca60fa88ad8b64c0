//! The npm spec (`specs/families/npm.rs`) against the installed npm, run
//! offline (`npm_config_offline=true`) in a private home and directory.
//!
//! - Every key `npm config ls -l --json` prints is a long option of the
//!   spec with the arity of its type: a boolean value is a flag, a string,
//!   number or list takes a value; a key whose default is `null` takes the
//!   arity listed in [`NULL_FLAGS`] (its type is boolean-or-null) or else a
//!   value. `npm-version` is printed but is no key nopt knows (`npm
//!   --npm-version exec` runs `exec`), so the spec leaves it unknown.
//! - Every long option of the spec is such a key, one of the two keys npm
//!   hides (`_auth`, `password`), or one of npm's shorthands.
//! - Every subcommand name and alias of the spec is a command npm accepts:
//!   `npm <name> --help` exits 0.
//!
//! A missing npm is reported with a SKIP line and the test returns. npm
//! ships with Node, so a machine with Node has it.

use std::path::Path;
use std::process::{Command, Output};

use approvals_ipc::policy::specs::grammar::read;
use approvals_ipc::policy::specs::{self, Arity, Spec};

/// Keys whose default is `null` and whose type is boolean-or-null: flags.
const NULL_FLAGS: &[&str] = &[
    "expect-results",
    "optional",
    "production",
    "workspaces",
    "yes",
];

/// Printed by `npm config ls -l` but not a key nopt reads.
const NOT_KEYS: &[&str] = &["npm-version"];

/// Keys npm defines but does not print.
const HIDDEN: &[&str] = &["_auth", "password"];

/// npm's shorthands spelled as long options (`@npmcli/config`'s
/// `shorthands`).
const SHORTHANDS: &[&str] = &[
    "dd",
    "ddd",
    "desc",
    "enjoy-by",
    "help",
    "iwr",
    "local",
    "no",
    "porcelain",
    "quiet",
    "readonly",
    "reg",
    "silent",
    "verbose",
    "ws",
];

fn npm(home: &Path, args: &[&str]) -> Option<Output> {
    let mut cmd = Command::new("npm");
    for (key, _) in std::env::vars() {
        if key.to_ascii_lowercase().starts_with("npm_config_") {
            cmd.env_remove(key);
        }
    }
    cmd.args(args)
        .current_dir(home)
        .env("HOME", home)
        .env("npm_config_offline", "true")
        .env("npm_config_update_notifier", "false")
        .env("npm_config_cache", home.join("cache"))
        .output()
        .ok()
}

fn spec() -> &'static Spec {
    specs::all()
        .iter()
        .copied()
        .find(|s| s.family == "npm")
        .expect("an npm spec")
}

/// The spec's row spelled `--long`, with its arity.
fn arity(spec: &Spec, long: &str) -> Option<Arity> {
    let spelled = format!("--{long}");
    spec.opts
        .iter()
        .flat_map(|t| t.iter())
        .find(|o| o.names.contains(&spelled.as_str()))
        .map(|o| o.arity)
}

#[test]
fn the_npm_spec_matches_the_installed_npm() {
    let home = tempfile::tempdir().expect("tempdir");
    let Some(version) = npm(home.path(), &["--version"]).filter(|o| o.status.success()) else {
        eprintln!("SKIP npm_spec_conformance: npm is not installed");
        return;
    };
    let version = String::from_utf8_lossy(&version.stdout).trim().to_owned();
    let spec = spec();
    eprintln!("npm {version}; spec checked with {}", spec.checked_with);

    let listed = npm(home.path(), &["config", "ls", "-l", "--json"]).expect("npm config ls");
    assert!(listed.status.success(), "npm config ls -l --json failed");
    let keys: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(&listed.stdout).expect("npm config ls -l --json is an object");
    let mut problems = Vec::new();
    for (key, default) in &keys {
        if NOT_KEYS.contains(&key.as_str()) {
            if arity(spec, key).is_some() {
                problems.push(format!("--{key}: not a key nopt knows, so unknown to npm"));
            }
            continue;
        }
        let want = match default {
            serde_json::Value::Bool(_) => Arity::Flag,
            serde_json::Value::Null if NULL_FLAGS.contains(&key.as_str()) => Arity::Flag,
            _ => Arity::Required,
        };
        match arity(spec, key) {
            None => problems.push(format!("--{key} (default {default}): not in the spec")),
            Some(got) if got != want => {
                problems.push(format!(
                    "--{key} (default {default}): {got:?}, npm {want:?}"
                ));
            }
            Some(_) => {}
        }
    }
    for row in spec.opts.iter().flat_map(|t| t.iter()) {
        for name in row.names {
            let Some(long) = name.strip_prefix("--") else {
                continue;
            };
            let known = keys.contains_key(long) && !NOT_KEYS.contains(&long)
                || HIDDEN.contains(&long)
                || SHORTHANDS.contains(&long);
            if !known {
                problems.push(format!("{name}: no npm key or shorthand"));
            }
        }
    }

    for sub in spec.subs {
        for name in sub.names {
            let out = npm(home.path(), &[name, "--help"]).expect("npm runs");
            if !out.status.success() {
                problems.push(format!(
                    "npm {name} --help: {} ({})",
                    out.status,
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `(options, key, what npm reads)`: npm 11.19.1 read each so (`npm
/// <options> config get <key>`), and the spec reads the same key and value
/// (for a flag, `true` when on).
const READINGS: &[(&[&str], &str, &str)] = &[
    (&["--script-sh=/tmp/evil"], "script-shell", "/tmp/evil"),
    (&["--scri", "/tmp/evil"], "script-shell", "/tmp/evil"),
    (
        &["-registry", "http://a.invalid/"],
        "registry",
        "http://a.invalid/",
    ),
    (
        &["--reg", "http://b.invalid/"],
        "registry",
        "http://b.invalid/",
    ),
    (&["--loglevel", "warn"], "loglevel", "warn"),
    (&["--ignore-scripts", "false"], "ignore-scripts", "false"),
    (&["--ignore-scripts=true"], "ignore-scripts", "true"),
    (&["--no-ignore-scripts"], "ignore-scripts", "false"),
    (&["--gl"], "global", "true"),
    (&["--gl"], "long", "true"),
    (&["-gD"], "save-dev", "true"),
];

#[test]
fn npm_reads_options_as_the_spec_does() {
    let home = tempfile::tempdir().expect("tempdir");
    if npm(home.path(), &["--version"]).is_none_or(|o| !o.status.success()) {
        eprintln!("SKIP npm_spec_conformance: npm is not installed");
        return;
    }
    let spec = spec();
    let mut problems = Vec::new();
    for (options, key, want) in READINGS {
        let mut args: Vec<&str> = options.to_vec();
        args.extend(["config", "get", key]);
        let out = npm(home.path(), &args).expect("npm runs");
        let got = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        if got != *want {
            problems.push(format!("npm {args:?}: {got}, not {want}"));
        }
        let owned: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
        let reading = read(spec, &owned);
        let spelled = format!("--{key}");
        let used = reading
            .uses
            .iter()
            .rev()
            .find(|u| u.opt.names.contains(&spelled.as_str()));
        let read_as = used.map(|u| match u.value {
            Some(v) => v.to_owned(),
            None => (!u.negated).to_string(),
        });
        if reading.problem.is_some()
            || reading.path.first().map(|(_, word)| *word) != Some("config")
            || reading.sub_word != Some("get")
            || read_as.as_deref() != Some(*want)
        {
            problems.push(format!(
                "spec {args:?}: {read_as:?}, command {:?}, {:?}",
                reading.sub_word, reading.problem
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `npm config`'s actions: the spec's `config` subcommands are the ones
/// `npm config --help` lists (plus the aliases npm's `config.js` takes),
/// and the two it allows, `get` and `list`, print no token: npm refuses
/// `config get` of a protected key and hides one from `config list`
/// (with and without `--json`), read here from a private `~/.npmrc`.
#[test]
fn npm_config_get_and_list_are_the_only_allowed_actions_and_print_no_token() {
    let home = tempfile::tempdir().expect("tempdir");
    if npm(home.path(), &["--version"]).is_none_or(|o| !o.status.success()) {
        eprintln!("SKIP npm_spec_conformance config: npm is not installed");
        return;
    }
    let spec = spec();
    let config = spec
        .subs
        .iter()
        .find(|s| s.names.contains(&"config"))
        .expect("npm config");
    let help = npm(home.path(), &["config", "--help"]).expect("npm runs");
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    let listed: std::collections::BTreeSet<&str> = help
        .lines()
        .filter_map(|l| l.strip_prefix("npm config "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let ours: std::collections::BTreeSet<&str> = config.subs.iter().map(|s| s.names[0]).collect();
    let mut problems = Vec::new();
    if listed != ours {
        problems.push(format!(
            "npm config --help lists {listed:?}, the spec has {ours:?}"
        ));
    }
    for action in &listed {
        let args = vec!["config".to_owned(), (*action).to_owned(), "x".to_owned()];
        let hits = specs::check("npm", &args, home.path()).expect("npm has a spec");
        let allowed = hits.is_empty();
        if allowed != matches!(*action, "get" | "list") {
            problems.push(format!("npm config {action}: allowed is {allowed}"));
        }
    }
    let token = "npm_conformance_SECRET_0123456789";
    std::fs::write(
        home.path().join(".npmrc"),
        format!("//registry.npmjs.org/:_authToken={token}\n"),
    )
    .expect("write .npmrc");
    for args in [
        &["config", "get", "//registry.npmjs.org/:_authToken"][..],
        &["config", "list"],
        &["config", "list", "--json"],
        &["config", "get"],
    ] {
        let out = npm(home.path(), args).expect("npm runs");
        let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.push_str(&String::from_utf8_lossy(&out.stderr));
        if text.contains(token) {
            problems.push(format!("npm {args:?} printed the token"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
