//! The git spec (`specs/families/git.rs`) against the installed git.
//!
//! For every subcommand of the spec whose options come from parse-options,
//! `git <sub> [<subsub>] --git-completion-helper-all` (git's own shell
//! completion list, run in a private repository and home) must list exactly
//! the spec's long options, with the same arity (`=`: the option takes a
//! value, required or optional). The revision and diff options, which those
//! lists leave out for `log`, `show` and friends, are the rows the spec shares
//! with `rev-list` and `diff`; they and the few documented exceptions below
//! are exempt from the "git does not list it" check only.
//!
//! Abbreviation: for each long option, the shortest prefix the spec's parser
//! resolves to it alone is given to git, which must resolve it to the same
//! option. The probe makes git name what it resolved without running the
//! command: a flag gets a value (`--pre=x`: "option `L' takes no value"), an
//! option with a required value gets none as the last word ("option `L'
//! requires a value"); an option with an optional value is followed by an
//! unknown option, and git must complain about that one, not the prefix.
//! Where git does not abbreviate at all (commands that keep unknown options
//! for the revision parser: "invalid option", "unknown option"), git refuses
//! what we read as an inert option: reported, not a failure.
//!
//! A missing git is reported with a SKIP line and the test returns.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};

use approvals_ipc::policy::specs::grammar::read;
use approvals_ipc::policy::specs::{self, Arity, Opt, Spec, Sub};

/// Subcommands without a parse-options completion list, and why.
const NO_COMPLETION: &[(&str, &str)] = &[
    (
        "bisect",
        "a dispatcher: its subcommands parse their own words",
    ),
    ("credential", "reads its input from stdin, takes no options"),
    (
        "rev-parse",
        "its own exact parser; unknown options are echoed",
    ),
    ("submodule", "a shell script with its own exact parser"),
    ("var", "its own parser: `-l` only"),
];

/// Long options the spec has and git's completion lists do not, and why.
const EXTRA: &[(&str, &str, &str)] = &[
    ("*", "help", "parse-options' own usage option"),
    ("*", "help-all", "parse-options' own usage option"),
    (
        "archive",
        "format",
        "archive.c's second stage, shown by `git archive -h`",
    ),
    ("archive", "prefix", "archive.c's second stage"),
    ("archive", "add-file", "archive.c's second stage"),
    ("archive", "add-virtual-file", "archive.c's second stage"),
    ("archive", "worktree-attributes", "archive.c's second stage"),
    ("archive", "verbose", "archive.c's second stage"),
    ("archive", "mtime", "archive.c's second stage"),
    ("archive", "list", "archive.c's second stage"),
    (
        "diff-tree",
        "root",
        "a revision option diff-tree's usage shows (`git diff-tree -h`)",
    ),
    (
        "diff-tree",
        "no-commit-id",
        "a revision option diff-tree's usage shows",
    ),
    (
        "diff-tree",
        "always",
        "a revision option of `man git-diff-tree`",
    ),
    ("config", "get", "legacy action (`git config --get`)"),
    ("config", "get-all", "legacy action"),
    ("config", "get-regexp", "legacy action"),
    ("config", "get-urlmatch", "legacy action"),
    ("config", "replace-all", "legacy action"),
    ("config", "add", "legacy action"),
    ("config", "unset", "legacy action"),
    ("config", "unset-all", "legacy action"),
    ("config", "rename-section", "legacy action"),
    ("config", "remove-section", "legacy action"),
    ("config", "list", "legacy action"),
    ("config", "edit", "legacy action"),
    ("config", "get-color", "legacy action"),
    ("config", "get-colorbool", "legacy action"),
];

/// Options whose value git's completion list does not show (a low-level
/// callback prints no `=`), checked by hand.
const ARITY: &[(&str, &str, &str)] = &[
    (
        "update-index",
        "cacheinfo",
        "a low-level callback: `--cacheinfo <mode>,<object>,<path>` or those three words; asked either way",
    ),
    (
        "merge",
        "file",
        "`git merge --file` alone: \"option `file' requires a value\"",
    ),
];

struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Option<Env> {
        let dir = tempfile::tempdir().expect("tempdir");
        let env = Env { dir };
        let out = env.git(&["init", "-q", "repo"], env.dir.path())?;
        assert!(out.0 == 0, "git init failed: {}", out.1);
        // A commit, so that `show` and `log` parse their options before
        // they stop for want of HEAD.
        let args = [
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            "x",
        ];
        let out = env.git(&args, &env.repo())?;
        assert!(out.0 == 0, "git commit failed: {}", out.1);
        Some(env)
    }

    fn repo(&self) -> std::path::PathBuf {
        self.dir.path().join("repo")
    }

    /// Exit code and stdout + stderr of git `args` in `cwd`; `None` when git
    /// cannot be run.
    fn git(&self, args: &[&str], cwd: &Path) -> Option<(i32, String)> {
        let out = Command::new("git")
            .args(args)
            .current_dir(cwd)
            .env("LC_ALL", "C")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("HOME", self.dir.path())
            .env("XDG_CONFIG_HOME", self.dir.path())
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_EDITOR", "false")
            .env("GIT_PAGER", "cat")
            .env("PAGER", "cat")
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .stdin(Stdio::null())
            .output()
            .ok()?;
        let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.push_str(&String::from_utf8_lossy(&out.stderr));
        Some((out.status.code().unwrap_or(-1), text))
    }

    /// The long options (name => takes a value) and sub-subcommands of one
    /// completion list, or `None` when the command has none.
    fn completion(&self, words: &[&str]) -> Option<(BTreeMap<String, bool>, Vec<String>)> {
        let mut args = words.to_vec();
        args.push("--git-completion-helper-all");
        let (code, text) = self.git(&args, &self.repo())?;
        if code != 0 || text.contains("usage:") || text.contains("--git-completion-helper") {
            return None;
        }
        // parse-options' show_gitcomp(): the options (an option named
        // `no-X` also as `--X`), then `--` and the negations. When no option
        // is named `no-…`, the first negation comes before the `--` as a
        // hint that negations exist: it is not an option of its own.
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut own = match words.iter().position(|w| *w == "--") {
            Some(at) => &words[..at],
            None => &words[..],
        };
        if let Some((last, rest)) = own.split_last()
            && last.starts_with("--no-")
            && !rest.iter().any(|w| w.starts_with("--no-"))
        {
            own = rest;
        }
        let (mut longs, mut subs) = (BTreeMap::new(), Vec::new());
        for w in own {
            match w.strip_prefix("--") {
                Some(body) => {
                    let name = body.trim_end_matches('=').to_owned();
                    longs.insert(name, body.ends_with('='));
                }
                None => subs.push((*w).to_owned()),
            }
        }
        Some((longs, subs))
    }
}

/// Every long spelling of `sub`'s tables with its row, first row winning.
fn spec_longs(sub: &'static Sub) -> BTreeMap<&'static str, &'static Opt> {
    let mut out = BTreeMap::new();
    for row in sub.opts.iter().flat_map(|t| t.iter()) {
        for n in row.names {
            if let Some(l) = n.strip_prefix("--") {
                out.entry(l).or_insert(row);
            }
        }
    }
    out
}

fn sub_named(spec: &'static Spec, name: &str) -> &'static Sub {
    spec.subs
        .iter()
        .find(|s| s.names.contains(&name))
        .expect("a subcommand of the spec")
}

/// The shortest prefix of `long` the spec's parser reads as `row`, with its
/// argv word as the probe gives it (`--p=x` for a flag or an optional value,
/// `--p` for a required one).
fn shortest_prefix(
    spec: &'static Spec,
    sub: &str,
    long: &str,
    row: &'static Opt,
) -> Option<String> {
    for end in 1..=long.len() {
        let prefix = &long[..end];
        let word = match row.arity {
            Arity::Required => format!("--{prefix}=x"),
            _ => format!("--{prefix}"),
        };
        let args = vec![sub.to_owned(), word];
        let reading = read(spec, &args);
        if reading.problem.is_none()
            && reading
                .uses
                .first()
                .is_some_and(|u| u.opt.same_row(row) && !u.negated)
        {
            return Some(prefix.to_owned());
        }
    }
    None
}

/// What git made of a probed prefix.
enum Probe {
    /// It resolved it to the spec's option (named, or it went on parsing).
    Same,
    /// It does not abbreviate here and refused the word.
    Refused,
    /// It accepted the word but did not say as what.
    Unclear,
    /// It found it ambiguous only with negations (`--n`: `--no-…`).
    NegationAmbiguity,
    /// It resolved it to something else, or found it ambiguous.
    Other(String),
}

/// Reads git's answer to a probe of `--prefix` that the spec reads as
/// `row` (`long`).
fn judge_probe(text: &str, prefix: &str, long: &str, row: &Opt) -> Probe {
    // "error: option `NAME' takes no value" / "requires a value".
    for what in ["' takes no value", "' requires a value"] {
        if let Some(at) = text.find(what) {
            let head = &text[..at];
            let named = head.rsplit('`').next().unwrap_or("");
            // `--verify` is the negation of git's `no-verify`: `no-no-verify`.
            let plain = named.strip_prefix("no-no-").unwrap_or(named);
            let ours = row.names.iter().filter_map(|n| n.strip_prefix("--"));
            return if ours.clone().any(|l| l == plain || l == named) {
                Probe::Same
            } else {
                Probe::Other(format!("it is --{named}"))
            };
        }
    }
    if let Some(line) = text.lines().find(|l| l.contains("ambiguous option")) {
        // git also counts `--n`, `--no` as prefixes of every negation
        // (`--no-set-upstream`); the spec's parser does not, and reads a
        // unique positive option where git refuses: reported, not failed.
        let candidates = line.split("could be ").nth(1).unwrap_or("");
        let only_negations = candidates
            .split(" or ")
            .all(|c| c.trim_end_matches(')').starts_with("--no-"));
        return if only_negations {
            Probe::NegationAmbiguity
        } else {
            Probe::Other(line.to_owned())
        };
    }
    // An optional value or a flag followed by an unknown option: git went
    // on parsing past the probed word.
    if text.contains("`zzz-no-such-option'") || text.contains(long) {
        return Probe::Same;
    }
    let refused = ["unknown option", "invalid option", "unrecognized argument"]
        .iter()
        .any(|m| {
            text.lines().any(|l| {
                l.contains(m)
                    && (l.contains(&format!("--{prefix}")) || l.contains(&format!("`{prefix}")))
            })
        });
    if refused || text.starts_with("usage: git rev-list") {
        return Probe::Refused;
    }
    Probe::Unclear
}

#[test]
fn git_spec_matches_the_installed_git() {
    let Some(env) = Env::new() else {
        eprintln!("SKIP git_spec_conformance: git is not installed or cannot run");
        return;
    };
    let version = env
        .git(&["--version"], env.dir.path())
        .map(|(_, v)| v.trim().to_owned())
        .unwrap_or_default();
    let spec = specs::lookup("git").expect("a git spec");
    // Rows shared with `rev-list` and `diff`: the revision and diff options.
    let mut shared = std::collections::BTreeSet::new();
    for name in ["rev-list", "diff"] {
        shared.extend(spec_longs(sub_named(spec, name)).into_keys());
    }
    let log_longs: std::collections::BTreeSet<&str> =
        spec_longs(sub_named(spec, "log")).into_keys().collect();
    let mut failures = Vec::new();
    let (mut checked_subs, mut checked_longs, mut probed) = (0, 0, 0);
    let (mut not_abbreviated, mut unclear) = (Vec::new(), Vec::new());
    let mut negation_ambiguity = Vec::new();
    for sub in spec.subs {
        let name = sub.names[0];
        if let Some((_, why)) = NO_COMPLETION.iter().find(|(n, _)| *n == name) {
            eprintln!("git {name}: no completion list ({why}); not compared");
            continue;
        }
        // `git annotate` is `git blame -c`, but its completion list is the
        // diff parser's: blame's own list is the reference.
        let listed = if name == "annotate" { "blame" } else { name };
        let Some((mut longs, subsubs)) = env.completion(&[listed]) else {
            failures.push(format!(
                "git {name}: no completion list; add it to NO_COMPLETION with a reason"
            ));
            continue;
        };
        // Which words to probe each option under: the sub-subcommand that
        // lists it (`git stash push --keep-index`), else the subcommand.
        let mut under: BTreeMap<String, Vec<&str>> =
            longs.keys().map(|l| (l.clone(), vec![name])).collect();
        for ss in &subsubs {
            // A group the spec keeps to some subcommands (`sparse-checkout
            // list`): the others are asked as unknown (checked below).
            if !sub.subs.is_empty() && !sub.subs.iter().any(|s| s.names.contains(&ss.as_str())) {
                continue;
            }
            let Some((more, _)) = env.completion(&[name, ss]) else {
                continue;
            };
            for (l, takes) in more {
                under
                    .entry(l.clone())
                    .or_insert_with(|| vec![name, ss.as_str()]);
                let seen = longs.entry(l).or_insert(takes);
                *seen |= takes;
            }
        }
        checked_subs += 1;
        let ours = spec_longs(sub);
        for (long, takes) in &longs {
            checked_longs += 1;
            match ours.get(long.as_str()) {
                None => failures.push(format!("git {name}: --{long} is missing from the spec")),
                Some(row) if *takes && row.arity == Arity::Flag => failures.push(format!(
                    "git {name}: --{long} takes a value in git, is a flag in the spec"
                )),
                Some(row)
                    if !*takes
                        && row.arity == Arity::Required
                        && !ARITY.iter().any(|(s, l, _)| *s == name && l == long) =>
                {
                    failures.push(format!(
                        "git {name}: --{long} takes no value in git, a required one in the spec"
                    ))
                }
                Some(_) => {}
            }
        }
        for long in ours.keys() {
            // `git reflog show` is `git log -g` and takes log's own options.
            let log_too = name == "reflog" && log_longs.contains(long);
            let excused = shared.contains(long)
                || log_too
                || EXTRA
                    .iter()
                    .any(|(s, l, _)| (*s == "*" || *s == name) && l == long);
            if !longs.contains_key(*long) && !excused {
                failures.push(format!(
                    "git {name}: the spec has --{long}, which git does not list"
                ));
            }
        }
        // Abbreviation.
        for (long, words) in &under {
            let Some(row) = ours.get(long.as_str()) else {
                continue;
            };
            let Some(prefix) = shortest_prefix(spec, name, long, row) else {
                continue;
            };
            if prefix == *long {
                continue;
            }
            let mut args = words.clone();
            let word = match row.arity {
                Arity::Flag => format!("--{prefix}=x"),
                Arity::Required => format!("--{prefix}"),
                Arity::Optional => format!("--{prefix}=x"),
                // git has no two-word options.
                Arity::Pair => {
                    failures.push(format!(
                        "git {}: --{long} cannot take two words",
                        sub.names[0]
                    ));
                    continue;
                }
            };
            args.push(&word);
            if row.arity != Arity::Required {
                args.push("--zzz-no-such-option");
            }
            let Some((_, text)) = env.git(&args, &env.repo()) else {
                continue;
            };
            probed += 1;
            match judge_probe(&text, &prefix, long, row) {
                Probe::Same => {}
                Probe::NegationAmbiguity => {
                    negation_ambiguity.push(format!("git {} {word}", words.join(" ")));
                }
                Probe::Refused => {
                    not_abbreviated.push(format!("git {} {word}", words.join(" ")));
                }
                Probe::Unclear => unclear.push(format!(
                    "git {} {word} (--{long}): {}",
                    words.join(" "),
                    text.lines().next().unwrap_or("")
                )),
                Probe::Other(said) => failures.push(format!(
                    "git {}: the spec reads `{word}` as --{long}, git says: {said}",
                    words.join(" ")
                )),
            }
        }
    }
    eprintln!(
        "git spec conformance ({version}; spec checked with {}): {checked_subs} subcommands, \
         {checked_longs} long options compared, {probed} abbreviations probed",
        spec.checked_with
    );
    if !not_abbreviated.is_empty() {
        eprintln!(
            "{} prefixes git refuses (it does not abbreviate there; the spec is more lenient, \
             and git exits with an error):\n  {}",
            not_abbreviated.len(),
            not_abbreviated.join("\n  ")
        );
    }
    if !negation_ambiguity.is_empty() {
        eprintln!(
            "{} prefixes git finds ambiguous with `--no-` negations that the spec reads as \
             one option (git refuses them):\n  {}",
            negation_ambiguity.len(),
            negation_ambiguity.join("\n  ")
        );
    }
    if !unclear.is_empty() {
        eprintln!(
            "{} prefixes git accepted without naming the option (a value check or a \
             precondition answered first; not confirmed either way):\n  {}",
            unclear.len(),
            unclear.join("\n  ")
        );
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A value git accepts for each global option that takes one.
const GLOBAL_VALUES: &[(&str, &str)] = &[
    ("-C", "."),
    ("-c", "color.ui=never"),
    ("--config-env", "color.ui=HOME"),
    ("--exec-path", ""),
    ("--git-dir", ".git"),
    ("--work-tree", "."),
    ("--namespace", "x"),
    ("--attr-source", "HEAD"),
    ("--shallow-file", "shallow-probe"),
    ("--list-cmds", "main"),
];

#[test]
fn git_takes_every_global_option_of_the_spec_and_no_abbreviation_of_one() {
    let Some(env) = Env::new() else {
        eprintln!("SKIP git_spec_conformance globals: git is not installed or cannot run");
        return;
    };
    let spec = specs::lookup("git").expect("a git spec");
    let mut failures = Vec::new();
    let mut checked = 0;
    for row in spec.opts.iter().flat_map(|t| t.iter()) {
        for name in row.names {
            let mut args: Vec<String> = vec![(*name).to_owned()];
            match (row.arity, GLOBAL_VALUES.iter().find(|(n, _)| n == name)) {
                (Arity::Flag, _) => {}
                (_, Some((_, ""))) => {}
                (Arity::Optional, Some((_, v))) => args[0] = format!("{name}={v}"),
                (Arity::Required, Some((_, v))) => args.push((*v).to_owned()),
                (Arity::Pair, Some(_)) => {
                    failures.push(format!("{name}: git has no two-word options"));
                    continue;
                }
                (_, None) => {
                    failures.push(format!("{name}: no probe value in GLOBAL_VALUES"));
                    continue;
                }
            }
            args.push("version".to_owned());
            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
            let Some((code, text)) = env.git(&argv, &env.repo()) else {
                continue;
            };
            checked += 1;
            if code != 0 || text.contains("unknown option") {
                failures.push(format!("git {}: {code} {}", argv.join(" "), text.trim()));
            }
            // git.c matches globals exactly: one letter short is refused.
            if let Some(long) = name.strip_prefix("--")
                && long.len() > 1
            {
                let short = format!("--{}", &long[..long.len() - 1]);
                if spec
                    .opts
                    .iter()
                    .flat_map(|t| t.iter())
                    .any(|o| o.names.contains(&short.as_str()))
                {
                    continue;
                }
                let Some((_, text)) = env.git(&[&short, "version"], &env.repo()) else {
                    continue;
                };
                checked += 1;
                if !text.contains(&format!("unknown option: {short}")) {
                    failures.push(format!("git {short} version: git took it: {}", text.trim()));
                }
            }
        }
    }
    eprintln!("git global options: {checked} probes");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Short letters `git <words> -h` lists, with their arity; a letter whose
/// arity the line does not settle is left out.
fn usage_shorts(env: &Env, words: &[&str]) -> BTreeMap<char, Arity> {
    let mut args = words.to_vec();
    args.push("-h");
    let Some((_, text)) = env.git(&args, &env.repo()) else {
        return BTreeMap::new();
    };
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let Some(head) = line.strip_prefix("    -") else {
            continue;
        };
        let mut chars = head.chars();
        let Some(letter) = chars.next().filter(char::is_ascii_alphanumeric) else {
            continue;
        };
        let rest = chars.as_str();
        // What follows the last spelling: `, --[no-]long <v>`, `[<v>]`, ` <v>`.
        let after = match rest.strip_prefix(", --") {
            Some(long) => long
                .trim_start_matches("[no-]")
                .trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '-'),
            None if rest.is_empty() || rest.starts_with(' ') || rest.starts_with('[') => rest,
            None => continue,
        };
        let arity = if after.starts_with("[=") || after.starts_with("[<") || after.starts_with('[')
        {
            Arity::Optional
        } else if after.starts_with(" <") || after.starts_with("=<") || after.starts_with('<') {
            Arity::Required
        } else if after.is_empty() || after.starts_with("  ") {
            Arity::Flag
        } else {
            continue;
        };
        out.insert(letter, arity);
    }
    out
}

#[test]
fn git_short_options_match_the_installed_git() {
    let Some(env) = Env::new() else {
        eprintln!("SKIP git_spec_conformance shorts: git is not installed or cannot run");
        return;
    };
    let spec = specs::lookup("git").expect("a git spec");
    let mut failures = Vec::new();
    let mut checked = 0;
    for sub in spec.subs {
        let name = sub.names[0];
        if NO_COMPLETION.iter().any(|(n, _)| *n == name) {
            continue;
        }
        let Some((_, subsubs)) = env.completion(&[name]) else {
            continue;
        };
        let mut letters = usage_shorts(&env, &[name]);
        let mut conflicting = std::collections::BTreeSet::new();
        for ss in &subsubs {
            if !sub.subs.is_empty() && !sub.subs.iter().any(|s| s.names.contains(&ss.as_str())) {
                continue;
            }
            for (c, a) in usage_shorts(&env, &[name, ss]) {
                if *letters.entry(c).or_insert(a) != a {
                    conflicting.insert(c);
                }
            }
        }
        for (c, arity) in letters {
            if conflicting.contains(&c) {
                continue;
            }
            checked += 1;
            let spelled = format!("-{c}");
            let row = sub
                .opts
                .iter()
                .flat_map(|t| t.iter())
                .find(|o| o.names.contains(&spelled.as_str()));
            match row {
                None => failures.push(format!("git {name}: {spelled} is missing from the spec")),
                Some(row) if row.arity != arity => failures.push(format!(
                    "git {name}: {spelled} is {arity:?} in git, {:?} in the spec",
                    row.arity
                )),
                Some(_) => {}
            }
        }
    }
    eprintln!("git short options: {checked} compared");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The other spellings of `git help`: the installed git opens its web
/// browser (a probe command that prints `OPENED`) exactly for the words the
/// spec reads as `git help -w`.
#[test]
fn git_opens_a_browser_exactly_where_the_spec_reads_help_web() {
    let Some(env) = Env::new() else {
        eprintln!("SKIP git_spec_conformance help: git is not installed or cannot run");
        return;
    };
    let probe = [
        "-c",
        "help.htmlPath=https://example.invalid",
        "-c",
        "web.browser=probe",
        "-c",
        "browser.probe.cmd=echo OPENED",
    ];
    let mut failures = Vec::new();
    for line in [
        "log --help -w",
        "status --help --web",
        "--help log -w",
        "-h log --web",
        "help -w log",
        "log --help",
        "log -p --help -w",
        "log -h -w",
        "log -w -1",
    ] {
        let words: Vec<&str> = line.split_whitespace().collect();
        let args: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
        let spec_opens = specs::check("git", &args, &env.repo())
            .expect("git has a spec")
            .iter()
            .any(|hit| hit.id == "git.runs-program");
        let argv: Vec<&str> = probe.iter().copied().chain(words).collect();
        let Some((_, text)) = env.git(&argv, &env.repo()) else {
            continue;
        };
        let git_opens = text.contains("OPENED");
        if spec_opens != git_opens {
            failures.push(format!(
                "git {line}: git opens a browser: {git_opens}, the spec says {spec_opens}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `git sparse-checkout`: the spec knows only `list`, which prints the
/// patterns; every other subcommand git lists rewrites which files the
/// working tree holds and must be asked as unknown, and the spec has no
/// subcommand git does not list. `list` takes no option of its own: its
/// completion list, in a sparse worktree, must be empty.
#[test]
fn git_sparse_checkout_allows_list_alone() {
    let Some(env) = Env::new() else {
        eprintln!("SKIP git_spec_conformance sparse-checkout: git is not installed or cannot run");
        return;
    };
    let spec = specs::lookup("git").expect("a git spec");
    let group = sub_named(spec, "sparse-checkout");
    let (_, listed) = env
        .completion(&["sparse-checkout"])
        .expect("a completion list");
    let mut failures = Vec::new();
    for ours in group.subs {
        if !listed.iter().any(|l| l == ours.names[0]) {
            failures.push(format!(
                "git sparse-checkout {} is not listed by git",
                ours.names[0]
            ));
        }
    }
    for word in &listed {
        let args = vec!["sparse-checkout".to_owned(), word.clone()];
        let hits = specs::check("git", &args, &env.repo()).expect("git has a spec");
        let asked = hits.iter().any(|h| h.id == "git.unknown-subcommand");
        if asked != (word != "list") {
            failures.push(format!(
                "git sparse-checkout {word}: asked as unknown is {asked}"
            ));
        }
    }
    let init = env.git(&["sparse-checkout", "set", "--no-cone", "/*"], &env.repo());
    assert!(
        init.is_some_and(|(code, _)| code == 0),
        "git sparse-checkout set"
    );
    match env.completion(&["sparse-checkout", "list"]) {
        Some((longs, _)) if longs.is_empty() => {}
        other => failures.push(format!("git sparse-checkout list takes options: {other:?}")),
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `git update-index`: the options the spec allows are the refresh forms
/// and what only changes the output; every other option git lists is
/// asked (it changes what the index records).
#[test]
fn git_update_index_allows_only_its_refresh_forms() {
    let Some(env) = Env::new() else {
        eprintln!("SKIP git_spec_conformance update-index: git is not installed or cannot run");
        return;
    };
    const ALLOWED: &[&str] = &[
        "ignore-missing",
        "ignore-submodules",
        "really-refresh",
        "refresh",
        "show-index-version",
        "unmerged",
        "verbose",
    ];
    let (longs, _) = env
        .completion(&["update-index"])
        .expect("a completion list");
    let mut failures = Vec::new();
    for (long, takes) in &longs {
        let mut args = vec!["update-index".to_owned(), format!("--{long}")];
        if *takes {
            args.push("x".to_owned());
        }
        let hits = specs::check("git", &args, &env.repo()).expect("git has a spec");
        if hits.is_empty() != ALLOWED.contains(&long.as_str()) {
            failures.push(format!(
                "git update-index --{long}: allowed is {}",
                hits.is_empty()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
