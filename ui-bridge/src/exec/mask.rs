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

static COMPILED: LazyLock<Option<Compiled>> = LazyLock::new(|| {
    let mut rules = Vec::with_capacity(RULES.len());
    for rule in RULES {
        match Regex::new(rule.pattern) {
            Ok(regex) => rules.push((rule.name, regex)),
            Err(error) => {
                tracing::error!(rule = rule.name, purpose = rule.reason, %error, "secret masking rule does not compile");
                return None;
            }
        }
    }
    match RegexSet::new(RULES.iter().map(|rule| rule.pattern)) {
        Ok(set) => Some(Compiled { set, rules }),
        Err(error) => {
            tracing::error!(%error, "secret masking rules do not compile as a set");
            None
        }
    }
});

/// Replaces every known secret and every rule match in `text`; borrows
/// `text` when nothing matched.
///
/// `known_secrets` are literal values (the socket token, HMAC keys); empty
/// ones are ignored. Should the built-in rules fail to compile (a bug caught
/// by the tests), the whole text is withheld rather than passed unmasked.
pub fn mask_secrets<'a>(text: &'a str, known_secrets: &[&str]) -> Cow<'a, str> {
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

    let Some(compiled) = COMPILED.as_ref() else {
        return Cow::Borrowed("[REDACTED:output withheld, masking unavailable]");
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
