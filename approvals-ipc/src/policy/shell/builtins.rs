//! Command words the analysis refuses by name: shell builtins that change
//! how later text is read or run (listed, with every other builtin the
//! engine knows, in [`programs::builtins`]), and reserved words.
//!
//! Decides only on argv[0] after quote removal (quoting does not stop bash
//! from running a builtin). Refuses `eval`, `source`, `.`, aliases, traps,
//! options, variable and environment changes, and every reserved word, since
//! our executor runs programs, not a shell, and must not pretend to model
//! them. Dispatch builtins (`exec`, `command`, `builtin`) and `cd` are left to
//! the plan, which unwraps or models them. Upholds DESIGN.md invariant 3.

use crate::policy::programs;

/// Reserved words refused as a command word, sorted, with why: the parser
/// may take them as plain words where bash would not (or the reverse).
pub const RESERVED_WORDS: &[(&str, &str)] = &[
    ("!", "negates a pipeline"),
    ("[[", "opens a conditional expression"),
    ("]]", "closes a conditional expression"),
    ("case", "opens control flow"),
    ("coproc", "starts a coprocess"),
    ("do", "part of a loop"),
    ("done", "part of a loop"),
    ("elif", "part of an if"),
    ("else", "part of an if"),
    ("esac", "part of a case"),
    ("fi", "part of an if"),
    ("for", "opens a loop"),
    ("function", "defines a function"),
    ("if", "opens control flow"),
    ("in", "part of for, case or select"),
    ("select", "opens a menu loop"),
    ("then", "part of an if"),
    ("time", "times a pipeline"),
    ("until", "opens a loop"),
    ("while", "opens a loop"),
    ("{", "opens a brace group"),
    ("}", "closes a brace group"),
];

/// What a refused builtin would do, if `word` names one.
pub fn refused_builtin(word: &str) -> Option<&'static str> {
    programs::builtins::refused_in_script(word)
}

/// Why `word` is reserved, if it is.
pub fn reserved_word(word: &str) -> Option<&'static str> {
    lookup(RESERVED_WORDS, word)
}

/// Binary search in a sorted `(name, reason)` table.
fn lookup(table: &[(&str, &'static str)], word: &str) -> Option<&'static str> {
    table
        .binary_search_by(|(name, _)| (*name).cmp(word))
        .ok()
        .and_then(|i| table.get(i))
        .map(|(_, reason)| *reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_unique_and_explained() {
        for table in [RESERVED_WORDS] {
            for pair in table.windows(2) {
                if let [a, b] = pair {
                    assert!(a.0 < b.0, "not sorted or duplicate: {pair:?}");
                }
            }
            assert!(
                table
                    .iter()
                    .all(|(name, why)| !name.is_empty() && !why.is_empty())
            );
        }
    }

    #[test]
    fn every_builtin_the_design_names_is_refused() {
        for name in [
            "eval", "source", ".", "alias", "unalias", "hash", "trap", "set", "shopt", "enable",
            "export", "readonly", "declare", "typeset", "local", "unset", "let", "read", "mapfile",
            "fc", "history", "ulimit", "umask",
        ] {
            assert!(refused_builtin(name).is_some(), "{name}");
        }
    }

    #[test]
    fn ordinary_programs_and_plan_handled_builtins_are_not_refused_here() {
        for name in [
            "ls", "git", "cd", "exec", "command", "builtin", "echo", "evals", "",
        ] {
            assert_eq!(refused_builtin(name), None, "{name}");
            assert_eq!(reserved_word(name), None, "{name}");
        }
    }
}
