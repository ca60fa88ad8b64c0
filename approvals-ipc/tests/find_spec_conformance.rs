//! The find spec (`specs/families/find.rs`, `Grammar::Find`) against the
//! installed GNU find (DESIGN.md section 6, Program specs).
//!
//! 1. **Predicate list.** Every predicate `find --help` lists is a row of
//!    the spec, and every row of the spec is a word find knows (not
//!    "unknown predicate").
//! 2. **Arity.** Each predicate alone at the end of the expression, after
//!    `-false -a` so no action runs, in an empty directory with stdin from
//!    `/dev/null`: a row that takes words must make find say its argument
//!    is missing, a flag must not. `-fprintf` (two words) is also given one
//!    word; `-exec` and friends are also given a command without its `;`.
//! 3. **Leading options.** `-D` takes the next word, `-O` an attached
//!    level, and they do not bundle; words that are not predicates are
//!    refused by find as they are by the spec.
//!
//! A missing find prints a `SKIP` line and the test returns.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use approvals_ipc::policy::specs::grammar::{FIND_COMMANDS, read};
use approvals_ipc::policy::specs::{Arity, lookup};

fn installed(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

fn run(find: &Path, args: &[&str], dir: &Path) -> String {
    let out = Command::new("timeout")
        .arg("10")
        .arg(find)
        .args(args)
        .current_dir(dir)
        .env("LC_ALL", "C")
        .stdin(Stdio::null())
        .output()
        .expect("run timeout(1)");
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    text
}

/// find's messages for a predicate whose argument is missing.
fn missing(text: &str, name: &str) -> bool {
    text.contains(&format!("missing argument to `{name}'"))
        || text.contains("test needs an argument")
        || text.contains(&format!("invalid argument `{name}' to `{name}'"))
}

fn unknown(text: &str) -> bool {
    text.contains("unknown predicate") || text.contains("invalid predicate")
}

/// Leading options and operators, which are not predicates of the
/// expression and are probed on their own.
const NOT_PREDICATES: &[&str] = &["-H", "-L", "-P", "-D", "-O", "!", "(", ")", ","];

#[test]
fn the_find_spec_matches_the_installed_find() {
    let Some(find) = installed("find") else {
        eprintln!("SKIP find_spec_conformance: find is not installed");
        return;
    };
    let version = run(&find, &["--version"], Path::new("/"));
    if !version.contains("GNU findutils") {
        eprintln!("SKIP find_spec_conformance: find is not GNU find: {version}");
        return;
    }
    let spec = lookup("find").expect("a find spec");
    let dir = tempfile::tempdir().expect("temporary directory");
    let dir = dir.path();
    let mut failures = Vec::new();
    let rows: Vec<_> = spec.opts.iter().flat_map(|t| t.iter()).collect();
    let names: Vec<&str> = rows.iter().flat_map(|r| r.names.iter().copied()).collect();

    // 1. The help's predicates are all rows.
    let help = run(&find, &["--help"], dir);
    let mut listed = 0;
    let body = help
        .split_once("Operators")
        .and_then(|(_, b)| b.split_once("Other common options"))
        .map(|(b, _)| b)
        .unwrap_or("");
    for word in body.split(|c: char| c.is_whitespace()) {
        let is_predicate = word.len() > 1
            && word.starts_with('-')
            && word[1..]
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'_' || b.is_ascii_digit() || b == b'-')
            && word[1..].starts_with(|c: char| c.is_ascii_lowercase());
        if !is_predicate {
            continue;
        }
        listed += 1;
        if !names.contains(&word) {
            failures.push(format!("{word}: in `find --help`, not in the spec"));
        }
    }
    assert!(
        listed > 60,
        "read only {listed} predicates from the help:\n{help}"
    );

    // 2. Each row's arity, probed.
    let mut probed = 0;
    for row in &rows {
        for name in row.names.iter().copied() {
            if NOT_PREDICATES.contains(&name) {
                continue;
            }
            probed += 1;
            let text = run(&find, &[".", "-maxdepth", "0", "-false", "-a", name], dir);
            if name.starts_with("-newer") && text.contains("birth time") {
                // This system cannot test birth times; find knows the word.
                continue;
            }
            if unknown(&text) {
                failures.push(format!("{name}: find calls it unknown: {text}"));
                continue;
            }
            let takes = row.arity != Arity::Flag || FIND_COMMANDS.contains(&name);
            if takes != missing(&text, name) {
                failures.push(format!(
                    "{name}: the spec says {} words, find alone says {text:?}",
                    if takes { "it takes" } else { "it takes no" }
                ));
            }
            if row.arity == Arity::Pair {
                let text = run(
                    &find,
                    &[".", "-maxdepth", "0", "-false", "-a", name, "x"],
                    dir,
                );
                // find takes `x` as the file, then misses the format.
                let takes_x = text.contains(&format!("invalid argument `x' to `{name}'"));
                if !missing(&text, name) && !takes_x {
                    failures.push(format!(
                        "{name} x: find does not ask for a second word: {text:?}"
                    ));
                }
            }
            if FIND_COMMANDS.contains(&name) {
                let text = run(
                    &find,
                    &[".", "-maxdepth", "0", "-false", "-a", name, "true", "{}"],
                    dir,
                );
                if !missing(&text, name) {
                    failures.push(format!(
                        "{name} true {{}}: find runs a command without `;`: {text:?}"
                    ));
                }
            }
        }
    }

    // 3. Leading options, operators and words that are not predicates:
    // find and the spec refuse the same ones.
    let words = |w: &[&str]| w.iter().map(|s| (*s).to_owned()).collect::<Vec<String>>();
    for (argv, refused) in [
        (&["-D"][..], true),
        (&["-Dexec", "."], true),
        (&["-HL", "."], true),
        (&["-O"], true),
        (
            &["-O3", "-D", "exec", "-H", "-L", "-P", ".", "-maxdepth", "0"],
            false,
        ),
        (&["--", ".", "-maxdepth", "0"], false),
        (&[".", "-maxdepth", "0", "-foo"], true),
        (&[".", "-maxdepth", "0", "-newerta", "x"], true),
        (&[".", "-maxdepth", "0", "-L"], true),
        (&[".", "-maxdepth", "0", "--"], true),
        (
            &[".", "-maxdepth", "0", "!", "-false", ",", "(", "-true", ")"],
            false,
        ),
        (&[".", "-maxdepth", "0", "-exec", "true", "+", ";"], false),
        (&[".", "-maxdepth", "0", "-exec", "echo", "{}", "+"], false),
    ] {
        let text = run(&find, argv, dir);
        let find_refused = text.contains("find: ") && !text.contains("find: `.'");
        let spec_refused = read(spec, &words(argv)).problem.is_some();
        if find_refused != refused || spec_refused != refused {
            failures.push(format!(
                "find {}: expected refused={refused}, find {find_refused} ({text:?}), spec {spec_refused}",
                argv.join(" ")
            ));
        }
    }

    assert!(
        failures.is_empty(),
        "the find spec disagrees with find:\n{}",
        failures.join("\n")
    );
    eprintln!(
        "find spec conformance: {listed} predicates read from the help, {probed} spellings probed ({})",
        version.lines().next().unwrap_or("")
    );
}
