//! Specs of the interpreters' front ends (prove, rake, perldoc, erb), named
//! by the attack or the false refusal they stop: each runs the project's
//! own tests, Rakefile or templates as its job, and each has options that
//! run or load code of the caller's choosing.

use super::grammar::{Problem, read};
use super::tests::{ids, reasons};
use super::{families, lookup};

const NONE: [&str; 0] = [];

#[test]
fn everyday_front_end_use_trips_nothing() {
    for argv in [
        &["prove"][..],
        &["prove", "-v", "t/"],
        &["prove", "-lr", "t"],
        &["prove", "-j4", "t"],
        &["prove", "-j", "4", "--timer", "t/basic.t"],
        &["prove", "-lv", "--state=failed,save", "t"],
        &["prove", "--norc", "-Ilib", "t/"],
        &["prove", "--nocolor", "--merge", "-b", "t/"],
        &["prove", "--verb", "t/"],
        &["prove", "t/a.t", "::", "--exec", "x", "-M", "y"],
        &["prove", "--statefile=.prove-ci", "t/"],
        &["prove", "+v", "+lib", "--jobs=8", "t/"],
        &["rake"],
        &["rake", "test"],
        &["rake", "-T"],
        &["rake", "-AT"],
        &["rake", "--tasks", "db", "-j8"],
        &["rake", "-fRakefile.ci", "build"],
        &["rake", "--rakefile=tasks/main.rake", "build"],
        &["rake", "-Ilib", "-Rrakelib", "test"],
        &["rake", "--dry-run", "--trace=stdout", "spec"],
        &["rake", "test", "LANG=C", "TZ=UTC"],
        &["rake", "db:migrate[a=b]"],
        &["rake3.1", "-V"],
        &["perldoc", "perlfunc"],
        &["perldoc", "-f", "open"],
        &["perldoc", "-q", "sort.*hash"],
        &["perldoc", "-tT", "-v", "$_"],
        &["perldoc", "-l", "Pod::Perldoc"],
        &["perldoc", "-m", "strict"],
        &["perldoc", "-F", "lib/Foo.pm"],
        &["perldoc", "-d", "out.txt", "Foo"],
        &["perldoc", "Foo", "-M", "x"],
        &["erb", "x.erb"],
        &["erb", "-T", "-", "-P", "x.erb"],
        &["erb", "-x", "-n", "name=world", "x.erb"],
        &["erb", "--encoding=UTF-8", "-U", "x.erb"],
        &["erb3.1", "--version"],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
}

#[test]
fn prove_options_that_run_or_load_code_are_asked() {
    for (argv, id, why) in [
        (
            &["prove", "-e", "sh -c id", "t/"][..],
            "prove.runs-program",
            "runs every test through a command line",
        ),
        (
            &["prove", "--exec=sh -c id", "t/"],
            "prove.runs-program",
            "command line",
        ),
        (
            &["prove", "--ex", "sh -c id", "t/"],
            "prove.unknown-option",
            "ambiguous option --ex",
        ),
        (
            &["prove", "-le", "sh -c id", "t/"],
            "prove.runs-program",
            "command line",
        ),
        (
            &["prove", "t/", "--exec", "./x"],
            "prove.runs-program",
            "command line",
        ),
        (
            &["prove", "-M", "Foo", "t/"],
            "prove.loads-code",
            "loads a module",
        ),
        (
            &["prove", "-MFoo", "t/"],
            "prove.loads-code",
            "loads a module",
        ),
        (
            &["prove", "-P", "Plugin", "t/"],
            "prove.loads-code",
            "plugin",
        ),
        (
            &["prove", "--harness", "X", "t/"],
            "prove.loads-code",
            "class",
        ),
        (&["prove", "--harn=X", "t/"], "prove.loads-code", "class"),
        (
            &["prove", "--source", "X", "t/"],
            "prove.loads-code",
            "source handler",
        ),
        (
            &["prove", "--formatter", "X", "t/"],
            "prove.loads-code",
            "class",
        ),
        (
            &["prove", "--rc", "/tmp/x", "t/"],
            "prove.loads-code",
            "options from a file",
        ),
        (
            &["prove", "--rc=/tmp/x", "t/"],
            "prove.loads-code",
            "options from a file",
        ),
        (
            &["prove", "--", "--rc", "/tmp/x", "t/"],
            "prove.loads-code",
            "options from a file",
        ),
        (
            &["prove", "t/", "::", "--rc=/tmp/x"],
            "prove.loads-code",
            "options from a file",
        ),
        (
            &["prove", "-I", "/tmp/x", "t/"],
            "prove.other-tree",
            "outside",
        ),
        (&["prove", "-I/tmp/x", "t/"], "prove.other-tree", "outside"),
        (
            &["prove", "-a", "/tmp/tap.tgz", "t/"],
            "prove.writes-file",
            "archive",
        ),
        (
            &["prove", "--statefile", "/tmp/s", "t/"],
            "prove.writes-file",
            "state",
        ),
        (
            &["prove", "+exec", "sh -c id", "t/"],
            "prove.runs-program",
            "command line",
        ),
        (
            &["prove", "+e", "sh -c id", "t/"],
            "prove.runs-program",
            "command line",
        ),
        (
            &["prove", "t/", "+exe", "sh -c id"],
            "prove.runs-program",
            "command line",
        ),
        (
            &["prove", "+M", "Foo", "t/"],
            "prove.loads-code",
            "loads a module",
        ),
        (
            &["prove", "+ex", "x", "t/"],
            "prove.unknown-option",
            "ambiguous option +ex",
        ),
        (
            &["prove", "+exec=sh", "t/"],
            "prove.unknown-option",
            "unknown option +exec=sh",
        ),
        // Getopt::Long reads the digits of an integer option and then the
        // rest of the bundle; a value that is no number leaves the next
        // word to be read as an option.
        (
            &["prove", "-j4e", "sh -c id", "t/"],
            "prove.unknown-option",
            "has no value",
        ),
        (
            &["prove", "--jobs", "-e", "sh -c id", "t/"],
            "prove.unknown-option",
            "has no value",
        ),
        (
            &["prove", "-j", "-e", "sh -c id", "t/"],
            "prove.unknown-option",
            "has no value",
        ),
        (
            &["prove", "--bogus", "t/"],
            "prove.unknown-option",
            "unknown option --bogus",
        ),
        (
            &["prove", "--I", "/tmp/x"],
            "prove.unknown-option",
            "unknown option --I",
        ),
    ] {
        assert_eq!(ids(argv), [id], "{argv:?}");
        let shown = reasons(argv).join("; ");
        assert!(shown.contains(why), "{argv:?}: {shown}");
    }
}

#[test]
fn prove_takes_its_rc_options_out_of_every_word_first() {
    let spec = families::by_name("prove").expect("prove");
    let words: Vec<String> = [
        "-v", "--rc", "r", "-I", "lib", "--", "-x", "::", "--norc", "-e",
    ]
    .iter()
    .map(|w| (*w).to_owned())
    .collect();
    let reading = read(spec, &words);
    assert_eq!(reading.problem, None);
    let used: Vec<(&str, Option<&str>)> = reading.uses.iter().map(|u| (u.token, u.value)).collect();
    assert_eq!(
        used,
        [
            ("--rc", Some("r")),
            ("--norc", None),
            ("-v", None),
            ("-I", Some("lib"))
        ]
    );
    assert_eq!(reading.operands, ["-x", "-e"]);
    // A value-taking option before a word taken out does not take the word
    // after it, as prove would: asked rather than guessed.
    let words: Vec<String> = ["-I", "--norc", "lib"]
        .iter()
        .map(|w| (*w).to_owned())
        .collect();
    assert_eq!(
        read(spec, &words).problem,
        Some(Problem::MissingValue("-I"))
    );
    let words = vec!["t/".to_owned(), "--rc".to_owned()];
    assert_eq!(
        read(spec, &words).problem,
        Some(Problem::MissingValue("--rc"))
    );
    // `--norc=x` is not prove's `--norc`: Getopt::Long refuses the value.
    assert_eq!(ids(&["prove", "--norc=x"]), ["prove.unknown-option"]);
}

#[test]
fn rake_options_that_run_or_load_code_are_asked() {
    for (argv, id, why) in [
        (
            &["rake", "-e", "system(\"id\")"][..],
            "rake.loads-code",
            "ruby code given on the command line",
        ),
        (&["rake", "-p", "`id`"], "rake.loads-code", "ruby code"),
        (
            &["rake", "-E", "`id`", "test"],
            "rake.loads-code",
            "ruby code",
        ),
        (
            &["rake", "--execute-p", "`id`"],
            "rake.loads-code",
            "ruby code",
        ),
        (&["rake", "test", "-e", "1"], "rake.loads-code", "ruby code"),
        (
            &["rake", "--exec", "`id`"],
            "rake.unknown-option",
            "ambiguous option --exec",
        ),
        (
            &["rake", "-f", "/tmp/x.rake"],
            "rake.other-tree",
            "Rakefile",
        ),
        (&["rake", "-f/tmp/x.rake"], "rake.other-tree", "outside"),
        (
            &["rake", "--rakefile=/tmp/x.rake"],
            "rake.other-tree",
            "outside",
        ),
        (
            &["rake", "-C", "/tmp"],
            "rake.other-tree",
            "another directory",
        ),
        (
            &["rake", "-r", "/tmp/x"],
            "rake.loads-code",
            "requires a library",
        ),
        (
            &["rake", "--req=/tmp/x"],
            "rake.loads-code",
            "requires a library",
        ),
        (&["rake", "-I", "/tmp"], "rake.other-tree", "outside"),
        (&["rake", "-R", "/tmp"], "rake.other-tree", ".rake file"),
        (
            &["rake", "--rakelib", "/tmp"],
            "rake.other-tree",
            ".rake file",
        ),
        (&["rake", "-g"], "rake.loads-code", "~/.rake"),
        (&["rake", "-gT"], "rake.loads-code", "~/.rake"),
        (&["rake", "--sys"], "rake.loads-code", "~/.rake"),
        (
            &["rake", "-l", "/tmp"],
            "rake.unknown-option",
            "unknown option -l",
        ),
        (
            &["rake", "--DRY"],
            "rake.unknown-option",
            "unknown option --DRY",
        ),
        (
            &["rake", "RUBYOPT=-r/tmp/x", "test"],
            "rake.loads-code",
            "RUBYOPT is not known to be inert",
        ),
        (
            &["rake", "test", "TESTOPTS=;id"],
            "rake.loads-code",
            "environment",
        ),
        (&["rake", "x\nRUBYOPT=-rx"], "rake.loads-code", "RUBYOPT"),
        (
            &["rake", "LANG=/tmp/x"],
            "rake.loads-code",
            "its value is not",
        ),
    ] {
        assert_eq!(ids(argv), [id], "{argv:?}");
        let shown = reasons(argv).join("; ");
        assert!(shown.contains(why), "{argv:?}: {shown}");
    }
}

#[test]
fn perldoc_options_that_load_code_or_write_are_asked() {
    for (argv, id, why) in [
        (
            &["perldoc", "-MPod::Perldoc::ToMan", "foo"][..],
            "perldoc.loads-code",
            "formatter classes",
        ),
        (
            &["perldoc", "-M", "Pod::Perldoc::ToMan", "foo"],
            "perldoc.loads-code",
            "formatter",
        ),
        (
            &["perldoc", "-o", "man", "foo"],
            "perldoc.loads-code",
            "formatter class",
        ),
        (
            &["perldoc", "-tom", "foo"],
            "perldoc.loads-code",
            "formatter class",
        ),
        (
            &["perldoc", "-d", "/tmp/x", "foo"],
            "perldoc.writes-file",
            "outside",
        ),
        (
            &["perldoc", "-d.bashrc", "foo"],
            "perldoc.writes-file",
            "formatted page",
        ),
        (
            &["perldoc", "-w", "__nroffer:sh", "foo"],
            "perldoc.sets-config",
            "formatter option",
        ),
        (
            &["perldoc", "-n", "sh -c id", "foo"],
            "perldoc.runs-program",
            "instead of groff",
        ),
        (
            &["perldoc", "-L", "X;BEGIN{`id`}", "foo"],
            "perldoc.loads-code",
            "perl code it evaluates",
        ),
        (
            &["perldoc", "--M=Foo::Bar", "foo"],
            "perldoc.unknown-option",
            "unknown option",
        ),
        (
            &["perldoc", "-Z", "foo"],
            "perldoc.unknown-option",
            "unknown option -Z",
        ),
    ] {
        assert_eq!(ids(argv), [id], "{argv:?}");
        let shown = reasons(argv).join("; ");
        assert!(shown.contains(why), "{argv:?}: {shown}");
    }
}

#[test]
fn erb_options_that_load_code_are_asked() {
    for (argv, id, why) in [
        (
            &["erb", "-r", "/tmp/x", "x.erb"][..],
            "erb.loads-code",
            "requires a library",
        ),
        (
            &["erb", "-r/tmp/x", "x.erb"],
            "erb.loads-code",
            "requires a library",
        ),
        (
            &["erb", "-xr", "json", "x.erb"],
            "erb.loads-code",
            "requires a library",
        ),
        (
            &["erb", "x.erb", "-r", "/tmp/x"],
            "erb.loads-code",
            "requires a library",
        ),
        (
            &["erb", "--enc", "UTF-8", "x.erb"],
            "erb.unknown-option",
            "unknown option --enc",
        ),
        (
            &["erb", "--debug=1", "x.erb"],
            "erb.unknown-option",
            "takes no value",
        ),
        (
            &["erb", "-y", "x.erb"],
            "erb.unknown-option",
            "unknown option -y",
        ),
    ] {
        assert_eq!(ids(argv), [id], "{argv:?}");
        let shown = reasons(argv).join("; ");
        assert!(shown.contains(why), "{argv:?}: {shown}");
    }
}

#[test]
fn versioned_front_end_names_find_their_specs() {
    for (name, family) in [
        ("rake3.1", "rake"),
        ("erb3.1", "erb"),
        ("/usr/bin/prove", "prove"),
        ("/usr/bin/perldoc", "perldoc"),
    ] {
        assert_eq!(lookup(name).map(|s| s.family), Some(family), "{name}");
    }
}
