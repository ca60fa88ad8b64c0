//! Tests of the find and xargs specs, named by the attack they stop or the
//! everyday use they keep allowed.

use super::tests::{ids, reasons};
use super::wrapped_command;

#[test]
fn everyday_find_trips_nothing() {
    for argv in [
        &["find", ".", "-name", "*.rs"][..],
        &["find", "src", "-type", "f", "-newer", "x", "-print0"],
        &["find", ".", "-maxdepth", "2", "-not", "-path", "./.git/*"],
        &["find", ".", "-name", "x", "-fprint", "out.txt"],
        &["find", "-L", "-O3", "-D", "exec", ".", "-xtype", "l"],
        &[
            "find", ".", "(", "-name", "a", "-o", "-name", "b", ")", "-prune",
        ],
        &[
            "find",
            ".",
            "!",
            "-newermt",
            "2024-01-01",
            "-printf",
            "%p\n",
        ],
        &["find", "-files0-from", "list", "-size", "+1M"],
        &["find", ".", "-fprintf", "out.txt", "%p\n"],
        &["gfind", "a", "b", "-mmin", "-5", "-ls"],
        &["find"],
    ] {
        assert_eq!(ids(argv), Vec::<&str>::new(), "{argv:?}");
    }
}

#[test]
fn find_delete_is_asked() {
    assert_eq!(
        ids(&["find", ".", "-name", "*.o", "-delete"]),
        ["find.writes-file"]
    );
}

#[test]
fn find_writing_a_file_outside_the_tree_or_where_it_is_run_is_asked() {
    for argv in [
        &["find", ".", "-fprint", "/home/u/.bashrc"][..],
        &["find", ".", "-fprint", "~/.bashrc"],
        &["find", ".", "-fls", ".git/hooks/pre-commit"],
        &["find", ".", "-fprint0", "../x"],
        &["find", ".", "-fprintf", "Makefile", "%p"],
        &["find", ".", "-name", "x", "-o", "-fprint", "build.rs"],
    ] {
        assert_eq!(ids(argv), ["find.writes-file"], "{argv:?}");
    }
}

#[test]
fn find_runs_a_command_line_only_asked_by_the_spec() {
    // Every command predicate asks, whatever the command.
    for argv in [
        &["find", ".", "-exec", "sh", "-c", "id", ";"][..],
        &["find", ".", "-exec", "grep", "x", "{}", "+"],
        &["find", ".", "-execdir", "rm", "{}", ";"],
        &["find", ".", "-ok", "rm", "{}", ";"],
        &["find", ".", "-okdir", "rm", "{}", ";"],
    ] {
        assert_eq!(ids(argv), ["find.runs-program"], "{argv:?}");
    }
    // Two clauses, two hits; the words of a command are not predicates.
    assert_eq!(
        ids(&[
            "find", ".", "-exec", "a", "-delete", ";", "-exec", "b", "{}", "+"
        ]),
        ["find.runs-program", "find.runs-program"]
    );
    // `+` ends the command only right after `{}`.
    assert_eq!(
        ids(&["find", ".", "-exec", "echo", "+", "-delete"]),
        ["find.unknown-option"]
    );
}

#[test]
fn find_unknown_predicates_and_missing_arguments_are_asked_and_named() {
    assert_eq!(
        reasons(&["find", ".", "-foo"]),
        ["unknown option -foo for find: options the spec does not know are asked"]
    );
    for argv in [
        &["find", ".", "-name"][..],
        &["find", ".", "-exec", "rm", "{}"],
        &["find", ".", "-exec", ";"],
        &["find", "-D"],
        &["find", ".", "-fprintf", "out"],
        // Leading options do not bundle, and -D takes the next word.
        &["find", "-HL", "."],
        &["find", "-Dexec", "."],
        // A leading option after the start points is not one.
        &["find", ".", "-L"],
        // Not a newerXY pair.
        &["find", ".", "-newerXY", "x"],
        &["find", ".", "-newerta", "x"],
    ] {
        assert_eq!(ids(argv), ["find.unknown-option"], "{argv:?}");
    }
}

#[test]
fn a_start_point_named_like_a_predicate_is_a_predicate() {
    // find reads `-exec` as the predicate, never as a start point.
    assert_eq!(ids(&["find", "-exec", "x", ";"]), ["find.runs-program"]);
    assert_eq!(ids(&["find", "--", "-delete"]), ["find.writes-file"]);
}

#[test]
fn find_values_that_look_like_predicates_are_values() {
    // `-name -delete` matches files named `-delete`; nothing is deleted.
    assert_eq!(ids(&["find", ".", "-name", "-delete"]), Vec::<&str>::new());
    assert_eq!(
        ids(&["find", ".", "-printf", "-exec", "-fprint", "out"]),
        Vec::<&str>::new()
    );
}

#[test]
fn xargs_reads_its_options_and_names_the_command_it_would_run() {
    let words = |w: &[&str]| w.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    assert_eq!(
        wrapped_command("xargs", &words(&["-0", "-n1", "grep", "-n", "TODO"])).as_deref(),
        Some("xargs (running grep -n TODO with words from its input)")
    );
    // Options stop at the command: `-I` belongs to xargs, `-r` to rm.
    assert_eq!(
        wrapped_command("xargs", &words(&["-I", "{}", "rm", "-r", "{}"])).as_deref(),
        Some("xargs (running rm -r '{}' with words from its input)")
    );
    assert_eq!(
        wrapped_command("xargs", &words(&["-r"])).as_deref(),
        Some("xargs (running echo with words from its input)")
    );
    assert_eq!(
        wrapped_command("xargs", &words(&["--frob", "sh"])).as_deref(),
        Some("xargs (unknown option --frob, so the command it runs is not known)")
    );
    assert_eq!(wrapped_command("ls", &words(&["x"])), None);
    assert_eq!(
        ids(&["xargs", "--process-slot-var=LD_PRELOAD", "ls"]),
        ["xargs.loads-code"]
    );
    assert_eq!(
        ids(&["xargs", "--max-l", "--eof=x", "-i", "ls", "--frob"]),
        Vec::<&str>::new()
    );
}
