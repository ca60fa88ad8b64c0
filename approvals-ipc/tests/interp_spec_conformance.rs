//! The interpreter specs (`specs/families/{python,perl,ruby,node}.rs`)
//! against the installed interpreters:
//!
//! - Every option each program's help lists (`python3 --help`, `perl -h`,
//!   `ruby --help` and `ruby -h`, `node --help`) is a spelling its spec
//!   knows, with the arity the help shows; every spelling of the spec is in
//!   the help or on a short list of unlisted ones the program takes (and
//!   node's V8 sizes are in `node --v8-options`).
//! - Every single letter `-a`…`-Z` (bar a few that take a value or would
//!   hang) is known to the spec exactly when the program accepts it.
//! - Every long spelling with its last letter dropped is refused by the
//!   program and unknown to the spec (no abbreviation anywhere).
//! - Probes of the grammar: words after the script are the script's,
//!   python's `-W` takes the next word and `-Bc` is inline code, node's
//!   `_` is `-`, node refuses bundles and a value starting with `-`, perl's
//!   `-M` takes no next word, ruby's `-C` finds the script in its
//!   directory.
//!
//! A missing interpreter is reported with a SKIP line and its checks return.

use std::process::{Command, Output, Stdio};

use approvals_ipc::policy::specs::grammar::{Problem, read};
use approvals_ipc::policy::specs::{Arity, Opt, Spec};

mod spec_support;
use spec_support::{spec, text};

/// Runs `program args` with no stdin, for at most ten seconds.
fn run(program: &str, args: &[&str]) -> Option<Output> {
    Command::new("timeout")
        .arg("10")
        .arg(program)
        .args(args)
        .stdin(Stdio::null())
        .current_dir(std::env::temp_dir())
        .output()
        .ok()
}

fn installed(program: &str) -> bool {
    let ok = run(program, &["--version"]).is_some_and(|o| o.status.success());
    if !ok {
        eprintln!("SKIP interp_spec_conformance: {program} is not installed or cannot run");
    }
    ok
}

/// Whether the program refused its options (each one's own wording).
fn refused(o: &Output) -> bool {
    let err = String::from_utf8_lossy(&o.stderr).to_lowercase();
    [
        "unknown option",
        "unrecognized switch",
        "invalid option",
        "invalid mjit option",
        "invalid yjit option",
        "bad option",
        "invalid negation",
        "reserved for jython",
    ]
    .iter()
    .any(|m| err.contains(m))
}

fn rows(spec: &'static Spec) -> Vec<&'static Opt> {
    spec.opts.iter().flat_map(|t| t.iter()).collect()
}

fn row(spec: &'static Spec, name: &str) -> Option<&'static Opt> {
    rows(spec).into_iter().find(|o| o.names.contains(&name))
}

fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

/// How the help shows an option's value.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Shown {
    None,
    /// `-c cmd`, `--opt=...`: required.
    Value,
    /// `-x[dir]`, `--inspect[=port]`, `--print [...]`.
    Optional,
    /// `-Idirectory`: stuck to the letter, required or optional by probe.
    Stuck,
}

fn arity_matches(shown: Shown, arity: Arity) -> bool {
    match shown {
        Shown::None => arity == Arity::Flag,
        Shown::Value => arity == Arity::Required,
        Shown::Optional => arity == Arity::Optional,
        Shown::Stuck => matches!(arity, Arity::Required | Arity::Optional),
    }
}

/// Compares the (spelling, shown) pairs with the spec; returns the count.
fn compare(spec: &'static Spec, listed: &[(String, Shown)], exceptions: &[(&str, Arity)]) -> usize {
    let mut bad = Vec::new();
    for (name, shown) in listed {
        match row(spec, name) {
            None => bad.push(format!("{name}: not in the spec")),
            Some(o) => {
                let excused = exceptions.iter().any(|(n, a)| n == name && *a == o.arity);
                if !excused && !arity_matches(*shown, o.arity) {
                    bad.push(format!("{name}: help shows {shown:?}, spec {:?}", o.arity));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}: {bad:#?}", spec.family);
    listed.len()
}

/// Every spelling of the spec appears in `help` or in `unlisted`.
fn all_listed(spec: &'static Spec, help: &str, unlisted: &[&str]) {
    let words: Vec<&str> = help
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | '=' | '['))
        .collect();
    for o in rows(spec) {
        for n in o.names {
            let seen = if n.starts_with("--") {
                words.contains(n)
            } else {
                words.iter().any(|w| w.starts_with(n))
            };
            assert!(
                seen || unlisted.contains(n),
                "{}: {n} is not in the help",
                spec.family
            );
        }
    }
}

/// The spellings of a help line starting `  -`: words starting with `-`
/// (a trailing comma separating aliases), a following `[…]` or `'…'`
/// word kept with its spelling (`--print [...]`, `-e 'command'`), up to
/// the first other word (the description).
fn option_words(line: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut alias = true;
    for word in line.split(' ').filter(|w| !w.is_empty()) {
        let trimmed = word.trim_end_matches(',');
        if word.starts_with('-') && alias {
            out.push(trimmed.to_owned());
        } else if (word.starts_with('[') || word.starts_with('\'')) && !out.is_empty() {
            if let Some(last) = out.last_mut() {
                last.push(' ');
                last.push_str(trimmed);
            }
        } else {
            break;
        }
        alias = word.ends_with(',');
    }
    out
}

/// One spelling as the help writes it (`-Idirectory`, `--dump={…}`,
/// `-x[dir]`, `-e 'command'`), for a program whose shorts are one letter.
fn spelling(word: &str) -> (String, Shown) {
    if let Some(long) = word.strip_prefix("--") {
        let end = long.find(['=', '[', ' ', '{']).unwrap_or(long.len());
        let rest = &long[end..];
        let shown = if rest.starts_with("[=") || rest.starts_with(" [") {
            Shown::Optional
        } else if rest.starts_with('=') || rest.starts_with(' ') {
            Shown::Value
        } else {
            Shown::None
        };
        return (format!("--{}", &long[..end]), shown);
    }
    let mut chars = word.chars().skip(1);
    let letter = chars.next().unwrap_or('-');
    let rest: String = chars.collect();
    let shown = if rest.is_empty() {
        Shown::None
    } else if rest.starts_with('[') {
        Shown::Optional
    } else if rest.starts_with(' ') {
        Shown::Value
    } else {
        Shown::Stuck
    };
    (format!("-{letter}"), shown)
}

/// Each single letter the program accepts is a spelling of the spec, and
/// each it refuses is not. `tail` makes the run end at once.
fn letters(program: &str, spec: &'static Spec, skip: &str, tail: &[&str]) -> usize {
    let mut checked = 0;
    for c in ('a'..='z').chain('A'..='Z').chain('0'..='9') {
        if skip.contains(c) {
            continue;
        }
        let flag = format!("-{c}");
        let known = row(spec, &flag).is_some_and(|o| o.arity != Arity::Required);
        if row(spec, &flag).is_some_and(|o| o.arity == Arity::Required) {
            continue;
        }
        let mut argv = vec![flag.as_str()];
        argv.extend(tail);
        let Some(out) = run(program, &argv) else {
            continue;
        };
        assert_eq!(
            known,
            !refused(&out),
            "{program} {flag}: spec knows it: {known}; {}",
            text(&out)
        );
        checked += 1;
    }
    checked
}

/// Every long spelling with its last letter dropped (when that is no
/// spelling of its own) is refused by the program and unknown to the spec.
fn no_abbreviations(program: &str, spec: &'static Spec, tail: &[&str]) -> usize {
    let mut probed = 0;
    for o in rows(spec) {
        for n in o
            .names
            .iter()
            .filter(|n| n.starts_with("--") && n.len() > 4)
        {
            let short = &n[..n.len() - 1];
            if row(spec, short).is_some() || short.ends_with('-') {
                continue;
            }
            let mut argv = vec![short];
            argv.extend(tail);
            let out = run(program, &argv).expect("runs");
            assert!(refused(&out), "{program} {short} accepted: {}", text(&out));
            let words = args(&argv);
            let reading = read(spec, &words);
            assert!(
                matches!(reading.problem, Some(Problem::UnknownOption(_))),
                "{short}: {:?}",
                reading.problem
            );
            probed += 1;
        }
    }
    probed
}

#[test]
fn python_spec_matches_python3() {
    if !installed("python3") {
        return;
    }
    let spec = spec("python");
    let help = text(&run("python3", &["--help"]).expect("help"));
    let mut listed = Vec::new();
    for line in help.lines() {
        let Some(first) = line.split_whitespace().next() else {
            continue;
        };
        if !first.starts_with('-') || first == "-" || first.len() > 2 && !first.starts_with("--") {
            // `-OO`, `-bb`: a letter twice.
            continue;
        }
        let value = line
            .split_whitespace()
            .nth(1)
            .is_some_and(|w| w != ":" && !w.starts_with(':'));
        let shown = if value { Shown::Value } else { Shown::None };
        listed.push((first.trim_end_matches(':').to_owned(), shown));
    }
    let compared = compare(spec, &listed, &[]);
    // Taken by CPython 3.11 as no-ops, not in its help.
    all_listed(spec, &help, &["-R", "-t"]);
    let shorts = letters("python3", spec, "h", &["-c", "pass"]);
    let abbreviations = no_abbreviations("python3", spec, &["-c", "pass"]);

    // `-W` and `-X` take the next word; `-Bc` is inline code; words after
    // the script or `-c CODE` are its argv.
    let show = "import sys; print(sys.warnoptions, sys.argv[1:])";
    let out = run("python3", &["-W", "d", "-c", show, "-B", "x"]).expect("runs");
    assert_eq!(text(&out).trim(), "['d'] ['-B', 'x']");
    let words = args(&["-W", "d", "-c", show, "-B", "x"]);
    let reading = read(spec, &words);
    assert_eq!(reading.uses[0].value, Some("d"));
    assert_eq!(reading.operands, ["-B", "x"]);
    let out = run("python3", &["-Bc", "print(7)"]).expect("runs");
    assert_eq!(text(&out).trim(), "7");
    let words = args(&["-Bc", "print(7)"]);
    assert_eq!(read(spec, &words).uses[1].value, Some("print(7)"));
    let out = run("python3", &["--check-hash-based-pycs=always", "-c", "pass"]).expect("runs");
    assert!(refused(&out));
    eprintln!(
        "python3: {compared} help options compared, {shorts} letters probed, {abbreviations} abbreviations probed"
    );
}

#[test]
fn perl_spec_matches_perl() {
    if !installed("perl") {
        return;
    }
    let spec = spec("perl");
    let help = text(&run("perl", &["-h"]).expect("help"));
    let mut listed = Vec::new();
    for line in help.lines().filter(|l| l.starts_with("  -")) {
        // The option column is 22 wide: `-e commandline`, `-Idirectory`.
        let part = line.get(2..24).unwrap_or(&line[2..]).trim_end();
        if let Some(rest) = part.strip_prefix("-[mM]") {
            listed.push((
                "-m".to_owned(),
                if rest.is_empty() {
                    Shown::None
                } else {
                    Shown::Stuck
                },
            ));
            listed.push(("-M".to_owned(), Shown::Stuck));
            continue;
        }
        listed.push(spelling(part));
    }
    let compared = compare(spec, &listed, &[]);
    // `--help` and `--version` are perl's two long spellings (perl.c);
    // `-h` prints this help; `-m` and `-M` are listed as `-[mM]`; `-g`
    // (slurp, as `-0777`) is in perlrun only.
    all_listed(
        spec,
        &help,
        &["-g", "-h", "-m", "-M", "--help", "--version"],
    );
    // `-d` runs the debugger, `-u` dumps core: not probed bare.
    let shorts = letters("perl", spec, "du", &["-e", "1"]);
    let abbreviations = no_abbreviations("perl", spec, &["-e", "1"]);

    // `-M` takes no next word; `-l0e` is `-l0 -e`; the program's words.
    let out = run("perl", &["-M", "strict", "-e", "1"]).expect("runs");
    assert!(text(&out).contains("Missing argument to -M"));
    let words = args(&["-M", "strict", "-e", "1"]);
    assert!(read(spec, &words).problem.is_some());
    let out = run("perl", &["-l0e", "print 5"]).expect("runs");
    assert!(text(&out).starts_with('5'));
    let words = args(&["-l0e", "print 5"]);
    let reading = read(spec, &words);
    assert_eq!(reading.uses.len(), 2);
    assert_eq!(reading.uses[1].value, Some("print 5"));
    let out = run("perl", &["-e", "print qq(@ARGV)", "--", "-e", "x"]).expect("runs");
    assert_eq!(text(&out), "-e x");
    eprintln!(
        "perl: {compared} help options compared, {shorts} letters probed, {abbreviations} abbreviations probed"
    );
}

#[test]
fn ruby_spec_matches_ruby() {
    if !installed("ruby") {
        return;
    }
    let spec = spec("ruby");
    let help = text(&run("ruby", &["--help"]).expect("help"));
    let short_help = text(&run("ruby", &["-h"]).expect("help"));
    let mut listed = Vec::new();
    for line in help
        .lines()
        .chain(short_help.lines())
        .filter(|l| l.starts_with("  -"))
    {
        for word in option_words(line) {
            listed.push(spelling(&word));
        }
    }
    // `--mjit-*`/`--yjit-*` values only with `=` (probed below), and two
    // the help lists without their `=num`.
    let exceptions: Vec<(&str, Arity)> = rows(spec)
        .into_iter()
        .flat_map(|o| o.names.iter())
        .filter(|n| n.starts_with("--mjit-") || n.starts_with("--yjit-"))
        .map(|n| (*n, Arity::Optional))
        .collect();
    let compared = compare(spec, &listed, &exceptions);
    // Taken by ruby 3.1, not in its help: `-K`, `-U`, `-y`/`--yydebug`,
    // and `-X` (an old spelling of `-C`).
    all_listed(spec, &help, &["-K", "-U", "-X", "-y", "--yydebug"]);
    let shorts = letters("ruby", spec, "", &["-e", "1"]);
    let abbreviations = no_abbreviations("ruby", spec, &["-e", "1"]);

    // `-C DIR` finds the script in DIR; `--backtrace-limit` takes the next
    // word, `--yjit-call-threshold` only `=`.
    let dir = std::env::temp_dir().join(format!("interp-conf-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).expect("dir");
    std::fs::write(dir.join("sub/a.rb"), "puts :sub").expect("write");
    let out = run(
        "ruby",
        &["-C", dir.join("sub").to_str().unwrap_or("."), "a.rb"],
    )
    .expect("runs");
    assert_eq!(text(&out).trim(), "sub");
    let _ = std::fs::remove_dir_all(&dir);
    let out = run("ruby", &["--backtrace-limit", "3", "-e", "puts 1"]).expect("runs");
    assert_eq!(text(&out).trim(), "1");
    let out = run("ruby", &["--yjit-call-threshold", "1", "-e", "1"]).expect("runs");
    assert!(!out.status.success(), "{}", text(&out));
    let out = run("ruby", &["-e", "puts ARGV.join(' ')", "--", "-r", "x"]).expect("runs");
    assert_eq!(text(&out).trim(), "-r x");
    eprintln!(
        "ruby: {compared} help options compared, {shorts} letters probed, {abbreviations} abbreviations probed"
    );
}

#[test]
fn node_spec_matches_node() {
    if !installed("node") {
        return;
    }
    let spec = spec("node");
    let help = text(&run("node", &["--help"]).expect("help"));
    let options = help
        .split("Options:")
        .nth(1)
        .and_then(|s| s.split("Environment variables:").next())
        .expect("an options section");
    let mut listed = Vec::new();
    for line in options.lines().filter(|l| l.starts_with("  -")) {
        let words = option_words(line);
        // `--debug-port, --inspect-port=[host:]port`: the value is shown on
        // the last spelling and is every spelling's.
        let shown = words.last().map_or(Shown::None, |w| spelling(w).1);
        for word in words {
            let (name, _) = spelling(&word);
            if name == "--" || name == "-" {
                continue;
            }
            listed.push((name, shown));
        }
    }
    let compared = compare(spec, &listed, &[]);
    let v8 = text(&run("node", &["--v8-options"]).expect("v8 help"));
    for name in [
        "--max-old-space-size",
        "--max-semi-space-size",
        "--stack-size",
    ] {
        assert!(
            v8.contains(&format!("  {name} ")),
            "{name} is not a V8 option"
        );
    }
    all_listed(
        spec,
        &help,
        &[
            "--max-old-space-size",
            "--max-semi-space-size",
            "--stack-size",
        ],
    );
    // `-e 0` ends the run; `-i` waits for a prompt, `-C`/`-r`/`-e` take a
    // value (probed below).
    let shorts = letters("node", spec, "i", &["-e", "0"]);
    let abbreviations = no_abbreviations("node", spec, &["-e", "0"]);

    // `_` is `-`; no bundles, no stuck values; a value never starts with
    // `-`; the words after the script are its argv.
    let show = "console.log(JSON.stringify(process.argv.slice(1)))";
    for (argv, refuses) in [
        (&["--trace_warnings", "-e", "0"][..], false),
        (&["--requi", "x", "-e", "0"], true),
        (&["-r=./x.js", "-e", "0"], true),
        (&["-rx", "-e", "0"], true),
        (&["-ep", "0"], true),
        (&["--no-require", "-e", "0"], true),
        (&["--no-no-warnings", "-e", "0"], true),
        (&["--warnings", "-e", "0"], false),
    ] {
        let out = run("node", argv).expect("runs");
        assert_eq!(refused(&out), refuses, "node {argv:?}: {}", text(&out));
        let words = args(argv);
        let reading = read(spec, &words);
        assert_eq!(
            reading.problem.is_some(),
            refuses,
            "{argv:?}: {:?}",
            reading.problem
        );
    }
    let words = args(&["--trace_warnings"]);
    let reading = read(spec, &words);
    assert!(reading.uses[0].opt.names.contains(&"--trace-warnings"));
    let out = run("node", &["--title", "--require", "-e", "0"]).expect("runs");
    assert!(
        text(&out).contains("requires an argument"),
        "{}",
        text(&out)
    );
    let out = run("node", &["-e", show, "a", "--require", "./x.js"]).expect("runs");
    assert_eq!(text(&out).trim(), r#"["a","--require","./x.js"]"#);
    let words = args(&["-e", show, "a", "--require", "./x.js"]);
    let reading = read(spec, &words);
    assert_eq!(reading.uses.len(), 1);
    assert_eq!(reading.operands, ["a", "--require", "./x.js"]);
    eprintln!(
        "node: {compared} help options compared, {shorts} letters probed, {abbreviations} abbreviations probed"
    );
}
