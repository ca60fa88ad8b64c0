//! Shell quoting of an argv into one line of text: the command text shown
//! to people, hashed into exact-command markers, and matched by denylists.
//!
//! The quoting is injective (two different argvs never give the same text),
//! so a marker bound to the text is bound to the exact argv, trailing spaces
//! included (openclaw.md section 10, class 12).

/// Joins `argv` with spaces, single-quoting every word that is not plainly
/// safe.
pub fn join(argv: &[String]) -> String {
    // Room for the words and their separators: most words need no quotes,
    // so the text is built in one allocation.
    let mut out = String::with_capacity(argv.iter().map(|w| w.len() + 1).sum());
    for (i, word) in argv.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        quote_into(word, &mut out);
    }
    out
}

fn quote_into(word: &str, out: &mut String) {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_@%+=:,./-".contains(&b));
    if plain {
        out.push_str(word);
        return;
    }
    out.push('\'');
    for c in word.chars() {
        if c == '\'' {
            out.push_str("'\\''");
        } else {
            out.push(c);
        }
    }
    out.push('\'');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|a| a.to_string()).collect()
    }

    #[test]
    fn plain_words_stay_plain() {
        assert_eq!(
            join(&v(&["git", "log", "--oneline", "-5"])),
            "git log --oneline -5"
        );
    }

    #[test]
    fn special_words_are_single_quoted() {
        assert_eq!(
            join(&v(&["bash", "-c", "git status"])),
            "bash -c 'git status'"
        );
        assert_eq!(join(&v(&["echo", "it's", ""])), "echo 'it'\\''s' ''");
    }

    #[test]
    fn trailing_space_changes_the_text_regression_cve_2026_32065() {
        assert_ne!(join(&v(&["/usr/bin/ls "])), join(&v(&["/usr/bin/ls"])));
    }

    #[test]
    fn word_boundaries_change_the_text() {
        assert_ne!(join(&v(&["a b"])), join(&v(&["a", "b"])));
    }
}
