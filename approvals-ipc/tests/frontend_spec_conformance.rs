//! The front-end specs (`specs/families/{prove,rake,perldoc,erb}.rs`)
//! against the installed programs:
//!
//! - Every option each program's help lists (`prove --help`, `rake --help`,
//!   `perldoc -h`, `erb --help`) is a spelling its spec knows, with the
//!   arity the help shows; every spelling of the spec is in the help or on
//!   a short list of unlisted ones the program takes.
//! - perldoc: every letter its parser has a method for is in the spec,
//!   taking a value exactly when the parser's method does; erb: every
//!   letter erb accepts is in the spec, and no other.
//! - Probes of each grammar where it matters: prove reads `--rc` after `--`
//!   and `::`, abbreviates, bundles, takes a value starting with `-`;
//!   rake abbreviates long options as the spec does, permutes, and takes
//!   `NAME=value` operands (on any line of a word) into the environment;
//!   perldoc stops at its first operand and evaluates `-L`'s value; erb
//!   sets template variables from `NAME=value`.
//!
//! A missing program is reported with a SKIP line and its checks return.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use approvals_ipc::policy::specs::grammar::{Problem, read};
use approvals_ipc::policy::specs::{self, Arity, Opt, Spec};

mod spec_support;
use spec_support::{spec, text};

/// Variables that would feed options or code to the programs probed.
const FED: &[&str] = &[
    "HARNESS_OPTIONS",
    "HARNESS_PERL_SWITCHES",
    "PERL5OPT",
    "PERLDOC",
    "RAKEOPT",
    "RUBYOPT",
];

/// Runs `program args` in `dir` with no stdin, for at most twenty seconds.
fn run_in(dir: &Path, program: &str, args: &[&str]) -> Option<Output> {
    let mut command = Command::new("timeout");
    command
        .arg("20")
        .arg(program)
        .args(args)
        .stdin(Stdio::null())
        .current_dir(dir)
        .env("HOME", dir)
        .env("LC_ALL", "C");
    for name in FED {
        command.env_remove(name);
    }
    command.output().ok()
}

/// Whether `program version_args` runs; a SKIP line when not.
fn installed(program: &str, version_args: &[&str]) -> bool {
    let ok =
        run_in(&std::env::temp_dir(), program, version_args).is_some_and(|o| o.status.success());
    if !ok {
        eprintln!("SKIP frontend_spec_conformance: {program} is not installed or cannot run");
    }
    ok
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

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("frontend-conf-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Compares (spelling, arity shown) pairs with the spec; returns the count.
fn compare(spec: &'static Spec, listed: &[(String, Arity)]) -> usize {
    let mut bad = Vec::new();
    for (name, shown) in listed {
        match row(spec, name) {
            None => bad.push(format!("{name}: not in the spec")),
            Some(o) if o.arity != *shown => {
                bad.push(format!("{name}: help shows {shown:?}, spec {:?}", o.arity));
            }
            Some(_) => {}
        }
    }
    assert!(bad.is_empty(), "{}: {bad:#?}", spec.family);
    assert!(
        !listed.is_empty(),
        "{}: no options read from the help",
        spec.family
    );
    listed.len()
}

/// Every spelling of the spec is one of `listed` or in `unlisted`.
fn all_listed(spec: &'static Spec, listed: &[(String, Arity)], unlisted: &[&str]) {
    for o in rows(spec) {
        for n in o.names {
            assert!(
                listed.iter().any(|(l, _)| l == n) || unlisted.contains(n),
                "{}: {n} is not in the help",
                spec.family
            );
        }
    }
}

#[test]
fn prove_spec_matches_prove() {
    if !installed("prove", &["--version"]) {
        return;
    }
    let spec = spec("prove");
    let dir = scratch("prove");
    let help = text(&run_in(&dir, "prove", &["--help"]).expect("help"));
    // Two sections: boolean options, then options that take arguments.
    let mut listed = Vec::new();
    let mut arity = Arity::Flag;
    for line in help.lines() {
        if line.contains("Options that take arguments") {
            arity = Arity::Required;
        }
        for word in line.split_whitespace() {
            // `-v,  --verbose`, `-D   --dry`, `--state=opts`, `-a,  --archive out.tgz`.
            if !word.starts_with('-') || word == "-" {
                break;
            }
            let name = word.trim_end_matches(',');
            let name = name.split('=').next().unwrap_or(name);
            listed.push((name.to_owned(), arity));
        }
    }
    let compared = compare(spec, &listed);
    // Getopt::Long's spellings of `color!`, `colour!` and `count!` the help
    // does not show, and `--tapversion`, which it leaves out.
    all_listed(
        spec,
        &listed,
        &[
            "--colour",
            "--no-color",
            "--nocolour",
            "--no-colour",
            "--no-count",
            "--tapversion",
        ],
    );

    std::fs::create_dir_all(dir.join("t")).expect("t");
    std::fs::write(dir.join("t/a.t"), "print qq(1..1\\nok 1\\n);\n").expect("test");
    std::fs::write(dir.join("dry.rc"), "-D\n").expect("rc");
    // `--rc` is read wherever it stands, after `--` and `::` too: the dry
    // run it asks for lists the test instead of running it.
    for argv in [
        &["--rc", "dry.rc", "t/a.t"][..],
        &["--", "--rc", "dry.rc", "t/a.t"],
        &["t/a.t", "::", "--rc=dry.rc"],
    ] {
        let out = text(&run_in(&dir, "prove", argv).expect("runs"));
        assert!(!out.contains("ok"), "prove {argv:?} ran the test: {out}");
        assert!(out.contains("t/a.t"), "prove {argv:?}: {out}");
        let words = args(argv);
        let reading = read(spec, &words);
        assert!(
            reading.uses.iter().any(|u| u.opt.names.contains(&"--rc")),
            "{argv:?}: {:?}",
            reading.uses
        );
    }
    let out = text(&run_in(&dir, "prove", &["t/a.t"]).expect("runs"));
    assert!(out.contains("ok"), "{out}");
    // An abbreviation, a bundle, an option after an operand, a value in
    // the next word: each a dry run.
    for argv in [
        &["--dr", "t/a.t"][..],
        &["-vD", "t/a.t"],
        &["t/a.t", "-D"],
        &["-D", "-j", "4", "t/a.t"],
    ] {
        let out = text(&run_in(&dir, "prove", argv).expect("runs"));
        assert!(
            !out.contains("ok") && out.contains("t/a.t"),
            "prove {argv:?}: {out}"
        );
        let words = args(argv);
        let reading = read(spec, &words);
        assert_eq!(reading.problem, None, "{argv:?}");
        assert!(reading.uses.iter().any(|u| u.opt.names.contains(&"--dry")));
        assert_eq!(reading.operands, ["t/a.t"], "{argv:?}");
    }
    // An ambiguous prefix is passed through as a test name; the spec asks.
    let out = text(&run_in(&dir, "prove", &["-D", "--ve", "t/a.t"]).expect("runs"));
    assert!(out.contains("--ve"), "{out}");
    let words = args(&["-D", "--ve", "t/a.t"]);
    assert!(matches!(
        read(spec, &words).problem,
        Some(Problem::Ambiguous(..))
    ));
    // `--exec` takes the next word even when it starts with `-`.
    let out = text(&run_in(&dir, "prove", &["--exec", "--dry", "t/a.t"]).expect("runs"));
    assert!(out.contains("exec of --dry"), "{out}");
    let words = args(&["--exec", "--dry", "t/a.t"]);
    assert_eq!(read(spec, &words).uses[0].value, Some("--dry"));
    // `+NAME` is an option too, and an integer option takes only digits:
    // `-j4e CMD` and `--jobs -e CMD` run the tests through CMD. The spec
    // reads the first as `--exec` and asks about the others.
    let exec = "echo 1..0 # SKIP through-exec";
    for argv in [
        &["+exec", exec, "t/a.t"][..],
        &["+e", exec, "t/a.t"],
        &["-j4e", exec, "t/a.t"],
        &["--jobs", "-e", exec, "t/a.t"],
    ] {
        let out = text(&run_in(&dir, "prove", argv).expect("runs"));
        assert!(out.contains("through-exec"), "prove {argv:?}: {out}");
        let hits = specs::check("prove", &args(argv), &dir).expect("a spec");
        assert!(!hits.is_empty(), "{argv:?}");
        let words = args(argv);
        let reading = read(spec, &words);
        assert!(
            reading.problem.is_some()
                || reading.uses.iter().any(|u| u.opt.names.contains(&"--exec")),
            "{argv:?}: {reading:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("prove: {compared} help options compared");
}

/// One rake help line's option column (`-C, --directory [DIRECTORY]`) as
/// spellings with the arity its value shows.
fn rake_column(column: &str) -> Vec<(String, Arity)> {
    let column = column.trim().trim_end_matches(',');
    let shown = match column.rsplit_once(", ").map_or(column, |(_, last)| last) {
        last if last.contains("=[") || last.contains(" [") => Arity::Optional,
        last if last.contains(' ') || last.contains('=') => Arity::Required,
        _ => Arity::Flag,
    };
    column
        .split(", ")
        .map(|item| {
            let end = item.find([' ', '=']).unwrap_or(item.len());
            (item[..end].to_owned(), shown)
        })
        .collect()
}

#[test]
fn rake_spec_matches_rake() {
    if !installed("rake", &["--version"]) {
        return;
    }
    let spec = spec("rake");
    let dir = scratch("rake");
    let help = text(&run_in(&dir, "rake", &["--help"]).expect("help"));
    let mut listed: Vec<(String, Arity)> = Vec::new();
    for line in help.lines().filter(|l| l.trim_start().starts_with('-')) {
        // The option column is 37 wide; a line holding only a long name
        // continues the line before it (`--rakelib`).
        let column = line.get(..37).unwrap_or(line);
        let mut found = rake_column(column);
        if found.len() == 1
            && line.trim() == found[0].0
            && let Some((_, arity)) = listed.last()
        {
            found[0].1 = *arity;
        }
        listed.extend(found);
    }
    let compared = compare(spec, &listed);
    all_listed(spec, &listed, &[]);

    let p = |argv: &[&str]| text(&run_in(&dir, "rake", argv).expect("runs"));
    // Every long spelling with its last letter dropped that the spec
    // resolves to one row, rake resolves too (a value given where the row
    // takes one; options that run code, change directory or exit are
    // left out).
    let mut abbreviations = 0;
    let skip = [
        "--execute",
        "--execute-print",
        "--execute-continue",
        "--require",
        "--directory",
        "--version",
        "--help",
        "--rakefile",
    ];
    for o in rows(spec) {
        for n in o
            .names
            .iter()
            .filter(|n| n.starts_with("--") && !skip.contains(n))
        {
            let short = &n[..n.len() - 1];
            if row(spec, short).is_some() {
                continue;
            }
            let mut argv = vec![short];
            if o.arity == Arity::Required {
                argv.push("x");
            }
            argv.extend(["-p", "40+2"]);
            let words = args(&argv);
            let reading = read(spec, &words);
            if reading.problem.is_some() {
                continue;
            }
            assert!(reading.uses[0].opt.same_row(o), "{argv:?}");
            let out = p(&argv);
            assert!(out.trim_end().ends_with("42"), "rake {argv:?}: {out}");
            abbreviations += 1;
        }
    }
    // A short option's `=` is part of its value, as the spec reads it.
    assert_eq!(p(&["-I=/tmp", "-p", "$:[-1]"]).trim(), "=/tmp");
    let words = args(&["-I=/tmp"]);
    assert_eq!(read(spec, &words).uses[0].value, Some("=/tmp"));
    // Options after an operand are read.
    assert_eq!(p(&["x", "-p", "5"]).trim(), "5");
    // Where OptionParser reads more than the spec, the spec asks:
    // `--exec` is `--execute`, `-l` is `--libdir`, `--DRY_RUN` is
    // `--dry-run`, and `-C DIR` takes the next word.
    assert_eq!(p(&["--exec", "p 3"]).trim(), "3");
    assert_eq!(p(&["-l/tmp", "-p", "$:[-1]"]).trim(), "/tmp");
    assert_eq!(p(&["--DRY_RUN", "-p", "4"]).trim(), "4");
    assert_eq!(p(&["-C", "/", "-p", "Dir.pwd"]).trim(), "/");
    for argv in [&["--exec", "p 3"][..], &["-l/tmp"], &["--DRY_RUN"]] {
        let words = args(argv);
        assert!(read(spec, &words).problem.is_some(), "{argv:?}");
    }
    let hits = specs::check("rake", &args(&["-C", "/", "-p", "1"]), &dir).expect("a spec");
    assert!(hits.iter().any(|h| h.id == "rake.other-tree"), "{hits:?}");
    // `NAME=value` operands, on any line of the word, go into the
    // environment of the Rakefile and what it runs.
    std::fs::write(
        dir.join("Rakefile"),
        "task(:default) { puts ENV['H17_VAR'] }\n",
    )
    .expect("Rakefile");
    for operand in ["H17_VAR=set", "a\nH17_VAR=set"] {
        let out = p(&[operand]);
        assert!(out.starts_with("set"), "rake {operand:?}: {out}");
        let hits = specs::check("rake", &args(&[operand]), &dir).expect("a spec");
        assert!(
            hits.iter().any(|h| h.id == "rake.loads-code"),
            "{operand:?}: {hits:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("rake: {compared} help options compared, {abbreviations} abbreviations probed");
}

#[test]
fn perldoc_spec_matches_perldoc() {
    if !installed("perldoc", &["-V"]) {
        return;
    }
    let spec = spec("perldoc");
    let dir = scratch("perldoc");
    let help = text(&run_in(&dir, "perldoc", &["-h"]).expect("help"));
    // `    -h   Display…` is a switch; `    -d output_filename…` (one space)
    // and the synopsis's `perldoc [options] -f BuiltinFunction` take a
    // value.
    let mut listed: Vec<(String, Arity)> = Vec::new();
    for line in help.lines() {
        if let Some(rest) = line.strip_prefix("perldoc [options] -") {
            listed.push((format!("-{}", &rest[..1]), Arity::Required));
            continue;
        }
        let Some(rest) = line.strip_prefix("    -") else {
            continue;
        };
        let Some(letter) = rest.get(..1) else {
            continue;
        };
        let value = rest.get(1..2) == Some(" ") && rest.get(2..3).is_some_and(|c| c != " ");
        let name = format!("-{letter}");
        if listed.iter().any(|(l, _)| *l == name) {
            continue;
        }
        // `-a` (search the API) and `-n` (the groff replacement) take a
        // value the help does not show.
        let arity = if value || matches!(letter, "a" | "n") {
            Arity::Required
        } else {
            Arity::Flag
        };
        listed.push((name, arity));
    }
    let compared = compare(spec, &listed);
    all_listed(spec, &listed, &[]);

    // The parser's own methods: `opt_X_with` takes a value, `opt_X` none.
    let script = r#"for (("a".."z"), ("A".."Z"), ("0".."9")) {
        print "$_=", (Pod::Perldoc->can("opt_${_}_with") ? "v" : Pod::Perldoc->can("opt_$_") ? "f" : "-"), "\n" }"#;
    let methods = text(&run_in(&dir, "perl", &["-MPod::Perldoc", "-e", script]).expect("perl"));
    let mut letters = 0;
    for line in methods.lines() {
        let (letter, kind) = line.split_once('=').expect("letter=kind");
        let name = format!("-{letter}");
        let arity = row(spec, &name).map(|o| o.arity);
        let want = match kind {
            "v" => Some(Arity::Required),
            "f" => Some(Arity::Flag),
            _ => None,
        };
        assert_eq!(arity, want, "perldoc {name}");
        letters += 1;
    }
    assert_eq!(letters, 62, "{methods}");

    // A bundle; switches end at the first operand.
    let out = text(&run_in(&dir, "perldoc", &["-lT", "strict"]).expect("runs"));
    assert!(out.trim_end().ends_with("strict.pm"), "{out}");
    let words = args(&["-lT", "strict", "-M", "x"]);
    let reading = read(spec, &words);
    assert_eq!(reading.uses.len(), 2);
    assert_eq!(reading.operands, ["strict", "-M", "x"]);
    let out = text(&run_in(&dir, "perldoc", &["-l", "strict", "-T"]).expect("runs"));
    assert!(out.contains("No documentation found for \"-T\""), "{out}");
    // `-L` is pasted into perl code perldoc evaluates (upper-cased; octal
    // escapes survive): it runs a command.
    let marker = dir.join("l-ran");
    let octal: String = format!("touch {}", marker.display())
        .bytes()
        .map(|b| format!("\\{b:03o}"))
        .collect();
    let lang = format!("X;BEGIN{{`{octal}`}}");
    let _ = run_in(&dir, "perldoc", &["-U", "-T", "-L", &lang, "perlfunc"]);
    assert!(marker.exists(), "perldoc -L did not run its value");
    let hits = specs::check("perldoc", &args(&["-L", &lang, "perlfunc"]), &dir).expect("spec");
    assert!(
        hits.iter().any(|h| h.id == "perldoc.loads-code"),
        "{hits:?}"
    );
    // `-d FILE` writes the page there.
    let _ = run_in(&dir, "perldoc", &["-U", "-T", "-d", "page.txt", "strict"]);
    assert!(dir.join("page.txt").exists(), "perldoc -d wrote nothing");
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("perldoc: {compared} help options compared, {letters} letters checked");
}

#[test]
fn erb_spec_matches_erb() {
    if !installed("erb", &["--version"]) {
        return;
    }
    let spec = spec("erb");
    let dir = scratch("erb");
    let help = text(&run_in(&dir, "erb", &["--help"]).expect("help"));
    let mut listed: Vec<(String, Arity)> = Vec::new();
    for line in help.lines() {
        let Some(rest) = line.strip_prefix("  -") else {
            continue;
        };
        let Some(letter) = rest.get(..1) else {
            continue;
        };
        let value = rest.get(1..2) == Some(" ") && rest.get(2..3).is_some_and(|c| c != " ");
        let arity = if value { Arity::Required } else { Arity::Flag };
        listed.push((format!("-{letter}"), arity));
    }
    let compared = compare(spec, &listed);
    // Taken by erb 2.2.3, not in its help: the deprecated `-S`, and the
    // long spellings `ERB::Main` matches exactly.
    all_listed(
        spec,
        &listed,
        &["-S", "--debug", "--encoding", "--version", "--help"],
    );
    // Every letter erb takes, and no other, is in the spec.
    let mut letters = 0;
    for c in ('a'..='z').chain('A'..='Z').chain('0'..='9') {
        let flag = format!("-{c}");
        let out = text(&run_in(&dir, "erb", &[&flag]).expect("runs"));
        let refused = out.contains("unknown switch");
        assert_eq!(row(spec, &flag).is_some(), !refused, "erb {flag}: {out}");
        letters += 1;
    }
    // The long spellings are exact: one letter short is unknown to both.
    for long in ["--debu", "--encodin", "--versio"] {
        let out = text(&run_in(&dir, "erb", &[long]).expect("runs"));
        assert!(out.contains("unknown switch"), "erb {long}: {out}");
        let words = args(&[long]);
        assert!(matches!(
            read(spec, &words).problem,
            Some(Problem::UnknownOption(_))
        ));
    }
    // `--encoding` takes the next word; `NAME=value` sets a template
    // variable; a value stuck to `-r` is required, then read again as
    // switches.
    std::fs::write(dir.join("x.erb"), "<%= name %>\n").expect("template");
    let out =
        text(&run_in(&dir, "erb", &["--encoding", "UTF-8", "name=hi", "x.erb"]).expect("runs"));
    assert_eq!(out.trim(), "hi");
    let words = args(&["--encoding", "UTF-8", "name=hi", "x.erb"]);
    let reading = read(spec, &words);
    assert_eq!(reading.uses[0].value, Some("UTF-8"));
    assert_eq!(reading.operands, ["name=hi", "x.erb"]);
    let out = text(&run_in(&dir, "erb", &["-rjson", "x.erb"]).expect("runs"));
    assert!(out.contains("unknown switch \"-j\""), "{out}");
    let hits = specs::check("erb", &args(&["-rjson", "x.erb"]), &dir).expect("spec");
    assert!(hits.iter().any(|h| h.id == "erb.loads-code"), "{hits:?}");
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("erb: {compared} help options compared, {letters} letters probed");
}
