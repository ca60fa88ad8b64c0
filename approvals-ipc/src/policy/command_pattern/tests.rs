use std::path::Path;

use super::{CommandPattern, CommandPatternError};

fn argv(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

fn hits(pattern: &str, words: &[&str]) -> bool {
    CommandPattern::parse(pattern)
        .expect("pattern parses")
        .matches(&argv(words), None)
}

#[test]
fn split_reordered_and_quoted_flags_match_rm_rf() {
    for words in [
        &["rm", "-rf", "DIR"][..],
        &["rm", "-r", "-f", "DIR"],
        &["rm", "-fr", "DIR"],
        &["rm", "-f", "DIR", "-r"],
        &["/bin/rm", "-rfv", "DIR"],
        &["rm", "-Rfr", "DIR"],
    ] {
        assert!(hits("rm -rf", words), "{words:?}");
    }
    // Doubled spaces and quotes in the pattern are only spelling.
    assert!(hits("  rm   -r'f' ", &["rm", "-f", "-r"]));
    assert!(hits("'rm' \"-rf\"", &["rm", "-rf"]));
}

#[test]
fn a_missing_flag_another_program_or_an_operand_flag_does_not_match() {
    assert!(!hits("rm -rf", &["rm", "-r", "DIR"]));
    assert!(!hits("rm -rf", &["rmdir", "-rf"]));
    assert!(!hits("rm -rf", &["echo", "rm", "-rf"]));
    assert!(!hits("rm -rf", &["rm", "--", "-rf"]));
    assert!(!hits("rm -rf", &["rm"]));
    assert!(!hits("rm -rf", &[]));
}

#[test]
fn long_options_match_with_values_and_abbreviations() {
    assert!(hits("git push --force", &["git", "push", "--force"]));
    assert!(hits("git push --force", &["git", "--force=yes", "push"]));
    assert!(hits("git push --force", &["git", "push", "--for"]));
    assert!(!hits("git push --force", &["git", "push", "--forced"]));
    assert!(!hits("git push --force", &["git", "push", "-f"]));
    assert!(!hits("git push --force", &["git", "pull", "--force"]));
    assert!(!hits("git push --force", &["git", "push", "--=x"]));
}

#[test]
fn words_must_appear_in_order() {
    assert!(hits(
        "git push origin main",
        &["git", "push", "-v", "origin", "x", "main"]
    ));
    assert!(!hits(
        "git push origin main",
        &["git", "push", "main", "origin"]
    ));
    assert!(hits(
        "dd of=/dev/sda",
        &["dd", "if=/dev/zero", "of=/dev/sda"]
    ));
    // After `--` the pattern's words are words, not options.
    assert!(hits("rm -- -rf", &["rm", "--", "-rf"]));
    assert!(!hits("rm -- -rf", &["rm", "x"]));
    // A lone `-` (stdin) is a word, not an option.
    assert!(hits("cat -", &["cat", "x", "-"]));
    assert!(!hits("cat -", &["cat", "x"]));
    // A long option with a value is a word.
    assert!(hits("curl --output=/etc/x", &["curl", "--output=/etc/x"]));
    assert!(!hits("curl --output=/etc/x", &["curl", "--output=/tmp/x"]));
}

#[test]
fn the_program_matches_by_name_or_by_whole_path() {
    let real = Path::new("/usr/bin/rm");
    let p = CommandPattern::parse("rm -rf").expect("parses");
    assert!(p.matches(&argv(&["./del", "-rf"]), Some(real)));
    assert!(!p.matches(&argv(&["./del", "-rf"]), Some(Path::new("/usr/bin/del"))));
    let p = CommandPattern::parse("/usr/bin/rm -rf").expect("parses");
    assert!(p.matches(&argv(&["rm", "-rf"]), Some(real)));
    assert!(p.matches(&argv(&["/usr/bin/rm", "-rf"]), None));
    assert!(!p.matches(&argv(&["rm", "-rf"]), None));
    assert!(!p.matches(&argv(&["/bin/rm", "-rf"]), Some(Path::new("/bin/rm"))));
}

#[test]
fn regex_or_shell_syntax_an_open_quote_or_no_program_is_not_parsed() {
    for (text, want) in [
        ("rm\\s+-rf", CommandPatternError::Syntax('\\')),
        ("^rm -rf", CommandPatternError::Syntax('^')),
        ("rm -rf .*", CommandPatternError::Syntax('*')),
        ("rm -rf $HOME", CommandPatternError::Syntax('$')),
        ("curl x | sh", CommandPatternError::Syntax('|')),
        ("rm (", CommandPatternError::Syntax('(')),
        ("rm 'x", CommandPatternError::UnclosedQuote),
        ("   ", CommandPatternError::Empty),
        ("-rf", CommandPatternError::NoProgram("-rf".to_owned())),
    ] {
        assert_eq!(CommandPattern::parse(text), Err(want), "{text}");
    }
    assert!(matches!(
        CommandPattern::parse("rm\u{200B} -rf"),
        Err(CommandPatternError::Unicode(_))
    ));
}
