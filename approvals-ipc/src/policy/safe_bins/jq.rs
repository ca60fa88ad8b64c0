//! The jq gate: decides whether a jq filter only transforms its input.
//!
//! jq can read the environment (`env`, `$ENV`), other inputs and file names
//! (`input`, `inputs`, `input_filename`), load modules from disk (`import`,
//! `include`, `modulemeta`) and write to stderr (`debug`, `stderr`). The gate
//! refuses any identifier from a denylist wherever it appears, even inside a
//! string or as an object key (`.env` is refused): a tokenizer that tried to
//! tell code from strings could be fooled, a word scan cannot (openclaw.md
//! class 19). It also refuses `$__…` variables and backticks. Glob characters
//! are allowed in the filter (`.[]`, `{a}`): our executor runs argv without a
//! shell, so nothing expands them. Upholds DESIGN.md invariant 3.

/// Identifiers a filter may not mention, sorted, each with why.
pub(crate) const DENIED_IDENTS: &[(&str, &str)] = &[
    ("ENV", "reads the environment (`$ENV`)"),
    ("debug", "writes to stderr"),
    ("env", "reads the environment"),
    ("get_jq_origin", "reveals the jq binary's location"),
    ("get_prog_origin", "reveals the filter file's location"),
    ("get_search_list", "reveals module search paths"),
    ("import", "loads a module from disk"),
    ("include", "loads a module from disk"),
    ("input", "reads inputs beyond the current one"),
    ("input_filename", "reveals the input file name"),
    ("input_line_number", "reveals input position"),
    ("inputs", "reads inputs beyond the current one"),
    ("modulemeta", "reads module metadata from disk"),
    ("stderr", "writes to stderr"),
];

/// Why `filter` is not a pure transformation, or `None` when it is.
pub(crate) fn refusal(filter: &str) -> Option<String> {
    if filter.contains('`') {
        return Some("jq filter contains a backtick".to_owned());
    }
    for word in filter.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if word.starts_with("__") {
            return Some(format!("jq filter mentions `{word}`, a jq internal"));
        }
        if let Some((ident, why)) = DENIED_IDENTS.iter().find(|(ident, _)| *ident == word) {
            return Some(format!("jq filter mentions `{ident}`, which {why}"));
        }
    }
    None
}
