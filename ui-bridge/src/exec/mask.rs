//! Secret masking for command output and error text, before it leaves the
//! process or reaches the audit log.
//!
//! It decides what looks like a credential: a curated table of rules (in the
//! spirit of gitleaks' rule set) for cloud and SaaS keys, tokens, private
//! keys, authorization headers, password assignments and URLs with a
//! password, plus literal secrets the caller knows (the socket token). Each
//! match becomes `[REDACTED:<rule>]`; text that matches no rule is returned
//! unchanged and unallocated. It never un-masks or reports what it removed.
//! Upholds DESIGN.md section 8 and invariant 9 (the token never leaves the
//! approvals file, not even through a `cat` of that file).

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::{Captures, Regex, RegexSet};

/// One masking rule: a name shown in the replacement, a pattern, and why it
/// is there.
///
/// Invariant: each pattern has a `secret` group (replaced) and may have a
/// `keep` group before it and a `tail` group after it (both kept).
#[derive(Debug, Clone, Copy)]
struct MaskRule {
    name: &'static str,
    pattern: &'static str,
    reason: &'static str,
}

/// The rules, most specific first: a later, broader rule sees the earlier
/// rule's `[REDACTED:…]` marker and leaves it alone.
const RULES: &[MaskRule] = &[
    MaskRule {
        name: "private-key",
        // An unterminated block (cut by the output cap) is masked to the end.
        pattern: r"(?P<secret>-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?s:.)*?(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z))",
        reason: "PEM and PGP private key blocks",
    },
    MaskRule {
        name: "jwt",
        pattern: r"(?P<secret>\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)",
        reason: "JSON web tokens, signed or not",
    },
    MaskRule {
        name: "authorization",
        pattern: r#"(?i)(?P<keep>\b(?:proxy-)?authorization\s*[:=]\s*(?:(?:bearer|basic|token|digest)\s+)?)(?P<secret>[^\s"',;]+)"#,
        reason: "HTTP Authorization headers carry bearer tokens and basic credentials",
    },
    MaskRule {
        name: "url-credentials",
        pattern: r"(?P<keep>\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@]+:)(?P<secret>[^\s@/]+)(?P<tail>@)",
        reason: "passwords in URLs such as https://user:password@host",
    },
    MaskRule {
        name: "anthropic-key",
        pattern: r"(?P<secret>\bsk-ant-[A-Za-z0-9_-]{20,})",
        reason: "Anthropic API keys",
    },
    MaskRule {
        name: "openai-key",
        pattern: r"(?P<secret>\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{32,}))",
        reason: "OpenAI API keys, project and legacy",
    },
    MaskRule {
        name: "stripe-key",
        pattern: r"(?P<secret>\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,})",
        reason: "Stripe secret and restricted keys",
    },
    MaskRule {
        name: "github-token",
        pattern: r"(?P<secret>\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}))",
        reason: "GitHub personal, OAuth, app and refresh tokens",
    },
    MaskRule {
        name: "slack-token",
        pattern: r"(?P<secret>\bxox[abprs]-[A-Za-z0-9-]{10,})",
        reason: "Slack bot, user and app tokens",
    },
    MaskRule {
        name: "google-api-key",
        pattern: r"(?P<secret>\bAIza[0-9A-Za-z_-]{35})",
        reason: "Google API keys",
    },
    MaskRule {
        name: "aws-access-key-id",
        pattern: r"(?P<secret>\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b)",
        reason: "AWS access key ids",
    },
    MaskRule {
        name: "aws-secret-key",
        pattern: r#"(?i)(?P<keep>aws_?secret_?access_?key["']?\s*[:=]\s*["']?)(?P<secret>[A-Za-z0-9/+=]{30,})"#,
        reason: "AWS secret access keys in config files and env dumps",
    },
    MaskRule {
        name: "secret-assignment",
        pattern: r#"(?i)(?P<keep>(?:password|passwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|secret[_-]?key)["']?\s*[:=]\s*["']?)(?P<secret>[^\s"'&,;]+)"#,
        reason: "password=, passwd:, secret=, token= style assignments",
    },
];

/// The marker every replacement starts with; a match already masked is
/// left alone.
const MARKER: &str = "[REDACTED:";

/// The broadest rule, whose keywords also occur in file paths.
const ASSIGNMENT_RULE: &str = "secret-assignment";

/// The rules compiled once: a set to find which rules can match, and each
/// rule's regex to replace.
struct Compiled {
    set: RegexSet,
    rules: Vec<(&'static str, Regex)>,
}

impl Compiled {
    /// Compiles each rule with the pattern given for it; `None` (logged) if any fails.
    fn new(patterns: Vec<(&'static MaskRule, String)>) -> Option<Compiled> {
        let mut rules = Vec::with_capacity(patterns.len());
        for (rule, pattern) in &patterns {
            match Regex::new(pattern) {
                Ok(regex) => rules.push((rule.name, regex)),
                Err(error) => {
                    tracing::error!(rule = rule.name, purpose = rule.reason, %error, "secret masking rule does not compile");
                    return None;
                }
            }
        }
        match RegexSet::new(patterns.iter().map(|(_, pattern)| pattern)) {
            Ok(set) => Some(Compiled { set, rules }),
            Err(error) => {
                tracing::error!(%error, "secret masking rules do not compile as a set");
                None
            }
        }
    }
}

/// The rules for output and error text, as written.
static COMPILED: LazyLock<Option<Compiled>> = LazyLock::new(|| {
    Compiled::new(
        RULES
            .iter()
            .map(|rule| (rule, rule.pattern.to_owned()))
            .collect(),
    )
});

/// Characters that end a shell word or start another construct: in a
/// command, a secret's value never runs past one of them, so masking cannot
/// swallow `|reboot` after `password=x`.
const SHELL_STOPS: &str = r"|&;<>()$`\";

/// The rules for argv words and command text: every secret stops at a shell
/// word boundary, and private keys are masked line by line
/// ([`mask_key_lines`]) instead of from the header to the end.
static COMMAND_COMPILED: LazyLock<Option<Compiled>> = LazyLock::new(|| {
    Compiled::new(
        RULES
            .iter()
            .filter(|rule| rule.name != PRIVATE_KEY_RULE)
            .map(|rule| {
                let stop = format!(r"[^\s{SHELL_STOPS}");
                (rule, rule.pattern.replace(r"[^\s", &stop))
            })
            .collect(),
    )
});

/// The rule whose block runs to the end of the text when unterminated.
const PRIVATE_KEY_RULE: &str = "private-key";

/// A private key's armour line; what follows it (in a command) is checked line by line.
static KEY_HEADER: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----")
        .inspect_err(|error| tracing::error!(%error, "private key header pattern does not compile"))
        .ok()
});

/// Replaces every known secret and every rule match in `text`; borrows
/// `text` when nothing matched.
///
/// `known_secrets` are literal values (the socket token, HMAC keys); empty
/// ones are ignored. Should the built-in rules fail to compile (a bug caught
/// by the tests), the whole text is withheld rather than passed unmasked.
///
/// This is for output: a private key block cut by the output cap is masked
/// to the end of the text. For a command, use [`mask_command`].
pub fn mask_secrets<'a>(text: &'a str, known_secrets: &[&str]) -> Cow<'a, str> {
    mask_with(text, known_secrets, COMPILED.as_ref())
}

/// Masks secrets in an argv word or a command's text without hiding any
/// other word: only the secret's own bytes become `[REDACTED:…]`.
///
/// The audit log must show what ran. Values stop at shell word boundaries,
/// and after a private key header only the key's base64 lines of 40 or more
/// characters are masked (a shorter line, the header and the footer stay), so
/// a header planted in a script cannot blank the commands after it.
pub fn mask_command<'a>(text: &'a str, known_secrets: &[&str]) -> Cow<'a, str> {
    let masked = mask_with(text, known_secrets, COMMAND_COMPILED.as_ref());
    let Some(header) = KEY_HEADER.as_ref() else {
        return Cow::Borrowed(WITHHELD);
    };
    if !header.is_match(&masked) {
        return masked;
    }
    Cow::Owned(mask_key_lines(&masked, header))
}

/// What replaces a text when the rules are unavailable.
const WITHHELD: &str = "[REDACTED:output withheld, masking unavailable]";

/// Shortest base64 run after a key header that counts as key material in a command.
const KEY_LINE_MIN: usize = 40;

/// After each key header, up to the footer or the first shell operator,
/// masks every run of 40 or more base64 characters that does not start
/// with `/` (a path). Everything else is kept.
fn mask_key_lines(text: &str, header: &Regex) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(found) = header.find(rest) {
        out.push_str(&rest[..found.end()]);
        let after = &rest[found.end()..];
        let region_end = after
            .find("-----END")
            .into_iter()
            .chain(after.find(|c: char| SHELL_STOPS.contains(c) && c != '\\'))
            .min()
            .unwrap_or(after.len());
        out.push_str(&mask_base64_runs(&after[..region_end]));
        rest = &after[region_end..];
    }
    out.push_str(rest);
    out
}

/// Replaces the long base64 runs of a key region with markers.
fn mask_base64_runs(region: &str) -> String {
    let is_b64 = |c: char| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=');
    let mut out = String::with_capacity(region.len());
    let mut run_start: Option<usize> = None;
    let flush = |out: &mut String, run: &str| {
        // A `\n` escape joins its `n` to the run; keep it visible.
        let (lead, body) = match run.strip_prefix('n') {
            Some(body) if out.ends_with('\\') => ("n", body),
            _ => ("", run),
        };
        out.push_str(lead);
        if body.len() >= KEY_LINE_MIN && !body.starts_with('/') {
            out.push_str(MARKER);
            out.push_str(PRIVATE_KEY_RULE);
            out.push(']');
        } else {
            out.push_str(body);
        }
    };
    for (at, c) in region.char_indices() {
        match (is_b64(c), run_start) {
            (true, None) => run_start = Some(at),
            (false, Some(start)) => {
                flush(&mut out, &region[start..at]);
                run_start = None;
                out.push(c);
            }
            (false, None) => out.push(c),
            (true, Some(_)) => {}
        }
    }
    if let Some(start) = run_start {
        flush(&mut out, &region[start..]);
    }
    out
}

fn mask_with<'a>(
    text: &'a str,
    known_secrets: &[&str],
    compiled: Option<&Compiled>,
) -> Cow<'a, str> {
    if text.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut masked = Cow::Borrowed(text);
    let mut literals: Vec<&str> = known_secrets
        .iter()
        .copied()
        .filter(|s| !s.is_empty())
        .collect();
    literals.sort_by_key(|s| std::cmp::Reverse(s.len()));
    for literal in literals {
        if masked.contains(literal) {
            masked = Cow::Owned(masked.replace(literal, "[REDACTED:known-secret]"));
        }
    }

    let Some(compiled) = compiled else {
        return Cow::Borrowed(WITHHELD);
    };
    // Most text holds no secret: one pass without allocating says so.
    if !compiled.set.is_match(&masked) {
        return masked;
    }
    let candidates = compiled.set.matches(&masked);
    for index in candidates.iter() {
        let Some((name, regex)) = compiled.rules.get(index) else {
            continue;
        };
        let haystack: &str = &masked;
        let replaced = match regex.replace_all(haystack, |caps: &Captures<'_>| {
            replacement(name, haystack, caps)
        }) {
            // Matches left as they were still come back owned.
            Cow::Owned(text) if text != haystack => Some(text),
            Cow::Owned(_) | Cow::Borrowed(_) => None,
        };
        if let Some(text) = replaced {
            masked = Cow::Owned(text);
        }
    }
    masked
}

/// `keep` + marker + `tail`. The whole match stays as it was when the
/// secret is already a marker, or when an assignment's name is the end of a
/// file path (`/etc/passwd: Permission denied` is not an assignment).
fn replacement(name: &str, haystack: &str, caps: &Captures<'_>) -> String {
    let group = |name: &str| caps.name(name).map_or("", |m| m.as_str());
    let whole = caps.get(0).map_or("", |m| m.as_str());
    let start = caps.get(0).map_or(0, |m| m.start());
    let in_path = name == ASSIGNMENT_RULE
        && haystack
            .get(..start)
            .is_some_and(|before| before.ends_with('/'));
    if group("secret").starts_with(MARKER) || in_path {
        return whole.to_owned();
    }
    format!("{}{MARKER}{name}]{}", group("keep"), group("tail"))
}

#[cfg(test)]
mod tests;
