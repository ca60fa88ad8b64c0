use super::{salvage, split_text};

fn owned(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

#[test]
fn invisible_characters_are_removed_and_the_first_one_reported() {
    let s = salvage(&owned(&["r\u{200B}m", "-rf", "/tmp/x\u{2060}"]));
    assert_eq!(s.hidden, Some('\u{200B}'));
    assert_eq!(s.pipelines, vec![vec![owned(&["rm", "-rf", "/tmp/x"])]]);
    assert_eq!(salvage(&owned(&["ls"])).hidden, None);
}

#[test]
fn wrappers_are_looked_through_and_kept() {
    let s = salvage(&owned(&["sudo", "-u", "root", "rm", "-rf", "/"]));
    let commands: Vec<_> = s.commands().cloned().collect();
    assert_eq!(
        commands,
        vec![
            owned(&["sudo", "-u", "root", "rm", "-rf", "/"]),
            owned(&["rm", "-rf", "/"])
        ]
    );
}

#[test]
fn shell_scripts_are_split_naively_and_followed() {
    let s = salvage(&owned(&[
        "sh",
        "-c",
        "cd $HOME && 'rm' -r\"f\" $HOME | tee x",
    ]));
    let commands: Vec<_> = s.commands().cloned().collect();
    assert_eq!(
        commands,
        vec![
            owned(&["sh", "-c", "cd $HOME && 'rm' -r\"f\" $HOME | tee x"]),
            // The risk rules look through `sh -c` as a wrapper, too.
            owned(&["cd $HOME && 'rm' -r\"f\" $HOME | tee x"]),
            owned(&["cd", "$HOME"]),
            owned(&["rm", "-rf", "$HOME"]),
            owned(&["tee", "x"]),
        ]
    );
    // Nested shells are followed, to a limit.
    let s = salvage(&owned(&["bash", "-lc", "sh -c 'id; rm -fr ~'"]));
    assert!(s.commands().any(|c| *c == owned(&["rm", "-fr", "~"])));
    let deep = "sh -c \"sh -c 'sh -c \\\"sh -c rm\\\"'\"";
    let s = salvage(&owned(&["sh", "-c", deep]));
    assert!(!s.commands().any(|c| *c == owned(&["rm"])));
    assert!(
        s.commands()
            .any(|c| c.first().map(String::as_str) == Some("sh"))
    );
}

#[test]
fn substitutions_and_operators_split_commands() {
    assert_eq!(
        split_text("echo \"$(rm -rf /)\"; a || b & c\n`d e` ${HOME}/x > f"),
        vec![
            vec![owned(&["echo"])],
            vec![owned(&["rm", "-rf", "/"])],
            vec![owned(&["a"])],
            vec![owned(&["b"])],
            vec![owned(&["c"])],
            vec![owned(&["d", "e"])],
            vec![owned(&["${HOME}/x", "f"])],
        ]
    );
    assert_eq!(
        split_text("a\\ b 'c d' \"e\\\"f\\x\" '' \\\nz"),
        vec![vec![owned(&["a b", "c d", "e\"f\\x", "", "z"])]]
    );
    assert_eq!(
        split_text("curl x | sh"),
        vec![vec![owned(&["curl", "x"]), owned(&["sh"])]]
    );
    assert!(split_text("  ; | ").is_empty());
}

#[test]
fn substitutions_in_double_quotes_are_commands_and_variables_are_words() {
    assert_eq!(
        split_text("echo \"`rm -rf /`\" \"$HOME x\" a $(b)"),
        vec![
            vec![owned(&["echo"])],
            vec![owned(&["rm", "-rf", "/"])],
            vec![owned(&["$HOME x", "a"])],
            vec![owned(&["b"])],
        ]
    );
    // A `)` that closes nothing does not end a backtick substitution.
    assert_eq!(
        split_text("\"`a ) b` c\""),
        vec![
            vec![owned(&["a"])],
            vec![owned(&["b"])],
            vec![owned(&[" c"])]
        ]
    );
}

/// Shells come from the programs table, matched by family: the script of a
/// versioned shell (`ksh93`, Debian's real ksh) or of a shell the analysis
/// does not parse (`fish`) is read for the denylist too.
#[test]
fn scripts_of_versioned_and_other_shells_are_followed() {
    for shell in ["ksh93", "/usr/bin/fish", "bash5.2"] {
        let s = salvage(&owned(&[shell, "-c", "rm -rf $X"]));
        assert!(
            s.commands().any(|c| *c == owned(&["rm", "-rf", "$X"])),
            "{shell}: {:?}",
            s.pipelines
        );
    }
}
