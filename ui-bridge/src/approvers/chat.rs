//! One parser for what chat integrations send back: `/approve` and `/deny`
//! text commands, button callback data, and reactions (DESIGN.md section 7;
//! openclaw.md section 9.4).
//!
//! It decides which approval (by id prefix) gets which decision. It refuses
//! a command addressed to another bot (`/approve@otherbot`), a sender who is
//! not a configured approver (and everyone when the configured list is
//! empty, or when the integration cannot say who sent it: openclaw.md
//! section 10, class 26), unknown decisions, and ids that are not a 4+
//! character prefix of a UUID. It does not look the id up: the broker does,
//! and answers `NOT_FOUND` for an unknown or already answered approval.
//!
//! Choices: `/approve` takes its slash optionally, as OpenClaw's current
//! matcher does; `/deny` needs its slash, because a chat message that
//! merely starts with the word "deny" is common. `/approve <id>` without a
//! decision is a usage error (as in OpenClaw), not an implicit allow-once.

use approvals_ipc::ipc::Decision;

/// The usage text OpenClaw replies with; integrations show it verbatim.
pub const APPROVE_USAGE: &str =
    "Usage: /approve <id> <decision> (see the pending approval message for available decisions)";

/// The usage text for `/deny`.
pub const DENY_USAGE: &str = "Usage: /deny <id>";

/// The usage text for malformed button callback data.
pub const CALLBACK_USAGE: &str = "Usage: approve:<id>:<once|always|deny>";

/// A parsed answer for the broker: which approval, and what to do with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChatAnswer {
    /// Answer the pending approval whose id starts with `id_prefix`.
    Decide {
        /// Lower-case prefix of the approval id, 4 to 36 characters.
        id_prefix: String,
        /// The decision.
        decision: Decision,
    },
}

/// Why a chat message is not an answer; integrations reply with the
/// message, except for [`ChatParseError::NotACommand`], which they ignore.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChatParseError {
    /// Ordinary chat text (or an unrelated reaction or callback).
    #[error("not an approval command")]
    NotACommand,
    /// `/approve@name` names a bot other than ours.
    #[error("this /approve command targets a different bot (@{0})")]
    OtherBot(String),
    /// Right command, wrong shape; the text is the usage line.
    #[error("{0}")]
    Usage(String),
    /// The decision word is not one we know.
    #[error("unknown decision `{0}`, expected allow-once, allow-always or deny")]
    UnknownDecision(String),
    /// The sender may not answer approvals.
    #[error("{0} is not an approver for exec approvals")]
    NotAnApprover(String),
    /// The id is not a 4+ character prefix of an approval id.
    #[error(
        "invalid approval id `{0}`: expected the first 4 or more characters of the id shown in the approval message"
    )]
    InvalidId(String),
}

/// What the integration knows about the message and the configuration.
#[derive(Debug, Clone, Copy, Default)]
pub struct ChatContext<'a> {
    /// Our bot's username (with or without `@`), to accept
    /// `/approve@ourbot`; `None` refuses every `@` suffix.
    pub bot_username: Option<&'a str>,
    /// Configured approver identities; `None` leaves the check to the
    /// integration, `Some(empty)` lets nobody answer.
    pub approvers: Option<&'a [String]>,
    /// The sender's identity as the integration reports it.
    pub sender: Option<&'a str>,
}

/// Decision words accepted in `/approve`, case-insensitively; sorted.
const DECISION_ALIASES: &[(&str, Decision, &str)] = &[
    (
        "allow",
        Decision::AllowOnce,
        "OpenClaw alias: plain allow means this run only",
    ),
    (
        "allow-always",
        Decision::AllowAlways,
        "the policy file's own word",
    ),
    (
        "allow-once",
        Decision::AllowOnce,
        "the policy file's own word",
    ),
    (
        "allowalways",
        Decision::AllowAlways,
        "OpenClaw alias without the dash",
    ),
    (
        "allowonce",
        Decision::AllowOnce,
        "OpenClaw alias without the dash",
    ),
    (
        "always",
        Decision::AllowAlways,
        "short form shown in approval messages",
    ),
    ("block", Decision::Deny, "OpenClaw alias"),
    ("deny", Decision::Deny, "the policy file's own word"),
    (
        "once",
        Decision::AllowOnce,
        "short form shown in approval messages",
    ),
    ("reject", Decision::Deny, "OpenClaw alias"),
];

/// Decision words in button callback data (`approve:<id>:<word>`); exact,
/// since we generate the data ourselves.
const CALLBACK_DECISIONS: &[(&str, Decision, &str)] = &[
    ("always", Decision::AllowAlways, "the always button"),
    ("deny", Decision::Deny, "the deny button"),
    ("once", Decision::AllowOnce, "the allow-once button"),
];

/// Reactions, after dropping one U+FE0F, one skin tone, and `:` around a
/// name; sorted by bytes.
const REACTIONS: &[(&str, Decision, &str)] = &[
    (
        "+1",
        Decision::AllowOnce,
        "Slack and GitHub name of thumbs up",
    ),
    ("thumbsup", Decision::AllowOnce, "common name of thumbs up"),
    (
        "white_check_mark",
        Decision::AllowAlways,
        "Slack name of the check mark",
    ),
    ("x", Decision::Deny, "Slack name of the cross mark"),
    (
        "\u{2705}",
        Decision::AllowAlways,
        "check mark button: allow always",
    ),
    ("\u{274C}", Decision::Deny, "cross mark: deny"),
    ("\u{1F44D}", Decision::AllowOnce, "thumbs up: allow once"),
];

/// Parses `/approve <id> <decision>`, `/approve <decision> <id>` and
/// `/deny <id>`.
pub fn parse_text(text: &str, ctx: &ChatContext) -> Result<ChatAnswer, ChatParseError> {
    let mut tokens = text.split_whitespace();
    let head = tokens.next().ok_or(ChatParseError::NotACommand)?;
    let (slashed, head) = match head.strip_prefix('/') {
        Some(rest) => (true, rest),
        None => (false, head),
    };
    let (name, bot) = match head.split_once('@') {
        Some((name, bot)) => (name, Some(bot)),
        None => (head, None),
    };
    let is_deny = if name.eq_ignore_ascii_case("approve") {
        false
    } else if slashed && name.eq_ignore_ascii_case("deny") {
        true
    } else {
        return Err(ChatParseError::NotACommand);
    };
    if let Some(bot) = bot {
        check_bot(bot, ctx)?;
    }
    check_sender(ctx)?;
    let args: Vec<&str> = tokens.collect();
    if is_deny {
        let [id] = args[..] else {
            return Err(ChatParseError::Usage(DENY_USAGE.to_owned()));
        };
        return decide(id, Decision::Deny);
    }
    let [first, second] = args[..] else {
        return Err(ChatParseError::Usage(APPROVE_USAGE.to_owned()));
    };
    if let Some(decision) = alias(first) {
        decide(second, decision)
    } else if let Some(decision) = alias(second) {
        decide(first, decision)
    } else {
        Err(ChatParseError::UnknownDecision(second.to_owned()))
    }
}

/// Parses button callback data `approve:<id>:<once|always|deny>`.
pub fn parse_callback(data: &str, ctx: &ChatContext) -> Result<ChatAnswer, ChatParseError> {
    let rest = data
        .strip_prefix("approve:")
        .ok_or(ChatParseError::NotACommand)?;
    check_sender(ctx)?;
    // Split at the last colon: the decision word never holds one.
    let (id, word) = rest
        .rsplit_once(':')
        .ok_or_else(|| ChatParseError::Usage(CALLBACK_USAGE.to_owned()))?;
    let decision = CALLBACK_DECISIONS
        .iter()
        .find(|(name, _, _)| *name == word)
        .map(|(_, decision, _)| *decision)
        .ok_or_else(|| ChatParseError::UnknownDecision(word.to_owned()))?;
    decide(id, decision)
}

/// Parses a reaction to the approval message of `approval_id`: 👍 allow
/// once, ✅ allow always, ❌ deny; any other reaction is not a command.
pub fn parse_reaction(
    emoji: &str,
    approval_id: &str,
    ctx: &ChatContext,
) -> Result<ChatAnswer, ChatParseError> {
    let decision = reaction(emoji).ok_or(ChatParseError::NotACommand)?;
    check_sender(ctx)?;
    decide(approval_id, decision)
}

/// The decision an `/approve` word stands for, case-insensitively; also
/// what `ui-bridge approvals resolve` accepts, so every answer path takes
/// the same words.
pub fn alias(word: &str) -> Option<Decision> {
    DECISION_ALIASES
        .iter()
        .find(|(name, _, _)| name.eq_ignore_ascii_case(word))
        .map(|(_, decision, _)| *decision)
}

/// The decision a reaction stands for.
fn reaction(emoji: &str) -> Option<Decision> {
    let key = match emoji.strip_prefix(':').and_then(|e| e.strip_suffix(':')) {
        Some(name) => name,
        None => emoji,
    };
    // Slack reports skin tones as `+1::skin-tone-3`.
    let key = key.split_once("::skin-tone-").map_or(key, |(name, _)| name);
    let key = key.strip_suffix('\u{FE0F}').unwrap_or(key);
    let key = key
        .strip_suffix(|c: char| ('\u{1F3FB}'..='\u{1F3FF}').contains(&c))
        .unwrap_or(key);
    REACTIONS
        .iter()
        .find(|(name, _, _)| *name == key)
        .map(|(_, decision, _)| *decision)
}

/// Accepts an `@bot` suffix only when it names our bot.
fn check_bot(bot: &str, ctx: &ChatContext) -> Result<(), ChatParseError> {
    let ours = ctx
        .bot_username
        .map(|name| name.strip_prefix('@').unwrap_or(name));
    match ours {
        Some(ours) if !ours.is_empty() && ours.eq_ignore_ascii_case(bot) => Ok(()),
        _ => Err(ChatParseError::OtherBot(bot.to_owned())),
    }
}

/// With a configured approver list, the sender must be on it, exactly; an
/// empty list, an unknown sender, or an empty sender name is refused.
fn check_sender(ctx: &ChatContext) -> Result<(), ChatParseError> {
    let Some(approvers) = ctx.approvers else {
        return Ok(());
    };
    match ctx.sender {
        Some(sender) if !sender.is_empty() && approvers.iter().any(|a| a == sender) => Ok(()),
        Some(sender) if !sender.is_empty() => Err(ChatParseError::NotAnApprover(sender.to_owned())),
        _ => Err(ChatParseError::NotAnApprover(
            "an unidentified sender".to_owned(),
        )),
    }
}

/// Builds the answer once the id is a valid UUID prefix.
fn decide(id: &str, decision: Decision) -> Result<ChatAnswer, ChatParseError> {
    Ok(ChatAnswer::Decide {
        id_prefix: id_prefix(id)?,
        decision,
    })
}

/// Positions of the dashes in a hyphenated UUID.
const UUID_DASHES: [usize; 4] = [8, 13, 18, 23];

/// A 4 to 36 character prefix of a hyphenated UUID (hex digits, dashes at
/// the UUID's dash positions), lower-cased.
fn id_prefix(id: &str) -> Result<String, ChatParseError> {
    let shaped = (4..=36).contains(&id.len())
        && id.bytes().enumerate().all(|(i, b)| {
            if UUID_DASHES.contains(&i) {
                b == b'-'
            } else {
                b.is_ascii_hexdigit()
            }
        });
    if shaped {
        Ok(id.to_ascii_lowercase())
    } else {
        Err(ChatParseError::InvalidId(id.to_owned()))
    }
}

#[cfg(test)]
mod tests;
