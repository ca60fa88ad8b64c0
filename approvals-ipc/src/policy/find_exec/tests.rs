//! Which of find's command lines are read as commands of their own, and
//! what each becomes for the check.

use super::*;

fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

fn argvs(words: &[&str]) -> Option<Vec<Vec<String>>> {
    commands(&args(words)).map(|c| c.into_iter().map(|c| c.argv).collect())
}

#[test]
fn each_exec_command_is_read_once_per_start_point_with_the_placeholder_for_braces() {
    let got = commands(&args(&[
        "src", "tests/", "-name", "*.rs", "-exec", "grep", "-l", "x", "{}", "+",
    ]))
    .unwrap();
    let want = [
        (vec!["grep", "-l", "x", "src/.git/{}"], 5),
        (vec!["grep", "-l", "x", "tests/.git/{}"], 5),
    ];
    assert_eq!(got.len(), want.len());
    for (got, (argv, word)) in got.iter().zip(want) {
        assert_eq!(got.argv, argv);
        assert_eq!(got.program_word, word);
    }
    // No start point is `.`; `/` keeps one slash; two command lines.
    assert_eq!(
        argvs(&["-exec", "wc", "{}", ";"]).unwrap(),
        [["wc", "./.git/{}"]]
    );
    assert_eq!(
        argvs(&["/", "-exec", "head", "{}", ";", "-exec", "cat", "{}", "+"]).unwrap(),
        [vec!["head", "/.git/{}"], vec!["cat", "/.git/{}"]]
    );
    // Words other than `{}` pass as they are, `;` and `+` included.
    assert_eq!(
        argvs(&[".", "-exec", "grep", "+", "{}", ";"]).unwrap(),
        [["grep", "+", "./.git/{}"]]
    );
}

#[test]
fn command_lines_that_cannot_be_vouched_for_are_left_to_finds_spec() {
    for words in [
        // Not find's -exec: a directory of each match, the terminal.
        &[".", "-execdir", "grep", "x", "{}", ";"][..],
        &[".", "-ok", "rm", "{}", ";"],
        &[".", "-okdir", "rm", "{}", ";"],
        // One readable line does not carry another.
        &[
            ".", "-exec", "grep", "x", "{}", ";", "-execdir", "rm", "{}", ";",
        ],
        // Programs that run other code: shells, interpreters, wrappers.
        &[".", "-exec", "sh", "-c", "id", ";"],
        &[".", "-exec", "/bin/bash", "{}", ";"],
        &[".", "-exec", "python3", "{}", ";"],
        &[".", "-exec", "env", "grep", "x", "{}", ";"],
        &[".", "-exec", "xargs", "rm", ";"],
        &[".", "-exec", "timeout", "1", "rm", "{}", ";"],
        // `{}` inside a word, or in the program word.
        &[".", "-exec", "grep", "x", "{}/a", ";"],
        &[".", "-exec", "cp", "{}", "{}.bak", ";"],
        &[".", "-exec", "{}", ";"],
        &[".", "-exec", "./{}", ";"],
        // `{}` as an option's value: where or what the program runs.
        &[".", "-exec", "git", "-C", "{}", "status", ";"],
        &[".", "-exec", "make", "-f", "{}", ";"],
        &[".", "-exec", "grep", "-f", "{}", "x", ";"],
        // find's own argv not understood, or no command at all.
        &[".", "-exec", "grep", "x", "{}"],
        &[".", "-frobnicate", "-exec", "grep", "x", "{}", ";"],
        &[".", "-name", "x"],
        &["."],
    ] {
        assert_eq!(argvs(words), None, "{words:?}");
    }
}

#[test]
fn an_argv_the_commands_spec_cannot_read_is_still_its_own_segment() {
    // So the reason names the option (`unknown option --pre`), rather than
    // find's blanket `runs a command line`.
    assert_eq!(
        argvs(&[".", "-exec", "grep", "--pre=sh", "x", "{}", ";"]).unwrap(),
        [["grep", "--pre=sh", "x", "./.git/{}"]]
    );
}

#[test]
fn too_many_commands_are_left_to_finds_spec() {
    let mut words = vec!["a", "b", "c", "d"];
    words.extend(["-exec", "wc", "{}", ";", "-exec", "cat", "{}", ";"]);
    assert_eq!(argvs(&words).map(|a| a.len()), Some(MAX_COMMANDS));
    words.insert(0, "e");
    assert_eq!(argvs(&words), None);
}
