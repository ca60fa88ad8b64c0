use super::*;

use ChatParseError::*;
use Decision::{AllowAlways, AllowOnce, Deny};

const ID: &str = "0190ab12-3c4d-7e8f-9a0b-1c2d3e4f5a6b";

fn ok(id: &str, decision: Decision) -> Result<ChatAnswer, ChatParseError> {
    Ok(ChatAnswer::Decide {
        id_prefix: id.to_owned(),
        decision,
    })
}

fn open() -> ChatContext<'static> {
    ChatContext {
        bot_username: Some("@ExecBot"),
        approvers: None,
        sender: None,
    }
}

fn usage() -> Result<ChatAnswer, ChatParseError> {
    Err(Usage(APPROVE_USAGE.to_owned()))
}

#[test]
fn tables_are_sorted_unique_and_explained() {
    for table in [DECISION_ALIASES, CALLBACK_DECISIONS, REACTIONS] {
        for pair in table.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{} then {}", pair[0].0, pair[1].0);
        }
        assert!(table.iter().all(|(_, _, reason)| !reason.is_empty()));
    }
    for (alias, _, _) in DECISION_ALIASES {
        assert_eq!(
            alias.to_ascii_lowercase(),
            *alias,
            "aliases are stored lower-case"
        );
    }
}

#[test]
fn no_decision_word_can_pass_for_an_id() {
    // Order detection relies on this: a token is a decision or an id, never both.
    for (alias, _, _) in DECISION_ALIASES {
        assert!(id_prefix(alias).is_err(), "{alias}");
    }
}

#[test]
fn every_alias_in_either_order_and_any_case() {
    let aliases: &[(&str, Decision)] = &[
        ("allow", AllowOnce),
        ("once", AllowOnce),
        ("allow-once", AllowOnce),
        ("allowonce", AllowOnce),
        ("always", AllowAlways),
        ("allow-always", AllowAlways),
        ("allowalways", AllowAlways),
        ("deny", Deny),
        ("reject", Deny),
        ("block", Deny),
    ];
    for (word, decision) in aliases {
        for word in [word.to_string(), word.to_uppercase(), capitalise(word)] {
            for text in [
                format!("/approve abcd {word}"),
                format!("/approve {word} abcd"),
            ] {
                assert_eq!(parse_text(&text, &open()), ok("abcd", *decision), "{text}");
            }
        }
    }
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

#[test]
fn parse_text_table() {
    let cases: &[(&str, Result<ChatAnswer, ChatParseError>)] = &[
        // Command word: slash optional for approve, case-insensitive.
        ("/approve abcd once", ok("abcd", AllowOnce)),
        ("approve abcd once", ok("abcd", AllowOnce)),
        ("/APPROVE ABCD once", ok("abcd", AllowOnce)),
        ("  /approve \t abcd   always  ", ok("abcd", AllowAlways)),
        ("/approve\nabcd\ndeny", ok("abcd", Deny)),
        // /deny needs its slash; without it, it is chat.
        ("/deny abcd", ok("abcd", Deny)),
        ("/DENY ABCD", ok("abcd", Deny)),
        ("deny abcd", Err(NotACommand)),
        ("Deny everything they ask", Err(NotACommand)),
        ("/deny", Err(Usage(DENY_USAGE.to_owned()))),
        ("/deny abcd now", Err(Usage(DENY_USAGE.to_owned()))),
        // Not commands.
        ("", Err(NotACommand)),
        ("   ", Err(NotACommand)),
        ("hello", Err(NotACommand)),
        ("/approved abcd once", Err(NotACommand)),
        ("/approveabcd once", Err(NotACommand)),
        ("please /approve abcd once", Err(NotACommand)),
        ("//approve abcd once", Err(NotACommand)),
        ("/appr\u{200B}ove abcd once", Err(NotACommand)),
        // Shape: exactly two arguments.
        ("/approve", usage()),
        ("/approve abcd", usage()),
        ("/approve abcd once now", usage()),
        // Unknown decision: reported as the second token.
        ("/approve abcd maybe", Err(UnknownDecision("maybe".into()))),
        ("/approve abcd ef01", Err(UnknownDecision("ef01".into()))),
        ("/approve yes abcd", Err(UnknownDecision("abcd".into()))),
        (
            "/approve abcd allow_once",
            Err(UnknownDecision("allow_once".into())),
        ),
        // Decision first wins when both could be decisions.
        ("/approve deny once", Err(InvalidId("once".into()))),
        // Full ids and prefixes, lower-cased.
        (&*format!("/approve {ID} once"), ok(ID, AllowOnce)),
        ("/approve 0190AB12-3C once", ok("0190ab12-3c", AllowOnce)),
        ("/approve 0190ab12- once", ok("0190ab12-", AllowOnce)),
    ];
    for (text, want) in cases {
        assert_eq!(&parse_text(text, &open()), want, "{text:?}");
    }
}

#[test]
fn refuses_bad_ids() {
    let bad = [
        "abc",                                   // too short
        "abcg",                                  // not hex
        "ab-cd",                                 // dash where a UUID has none
        "----",                                  // no hex at all
        "0190ab123",                             // no dash at position 8
        "plugin:abcd",                           // plugin approvals are not ours
        "0190ab12-3c4d-7e8f-9a0b-1c2d3e4f5a6b0", // longer than a UUID
        "ａｂｃｄ",                              // fullwidth letters
        "abcd\u{200B}",                          // zero-width space
        "٠١٢٣",                                  // arabic-indic digits
    ];
    for id in bad {
        let text = format!("/approve {id} once");
        assert_eq!(
            parse_text(&text, &open()),
            Err(InvalidId(id.into())),
            "{id:?}"
        );
        assert_eq!(
            parse_callback(&format!("approve:{id}:once"), &open()),
            Err(InvalidId(id.into())),
            "{id:?}"
        );
        assert_eq!(
            parse_reaction("👍", id, &open()),
            Err(InvalidId(id.into())),
            "{id:?}"
        );
    }
}

#[test]
fn bot_suffix_must_name_our_bot() {
    let cases: &[(&str, Option<&str>, Result<ChatAnswer, ChatParseError>)] = &[
        (
            "/approve@ExecBot abcd once",
            Some("ExecBot"),
            ok("abcd", AllowOnce),
        ),
        (
            "/approve@execbot abcd once",
            Some("@ExecBot"),
            ok("abcd", AllowOnce),
        ),
        (
            "/APPROVE@EXECBOT abcd once",
            Some("execbot"),
            ok("abcd", AllowOnce),
        ),
        ("/deny@execbot abcd", Some("ExecBot"), ok("abcd", Deny)),
        (
            "/approve@OtherBot abcd once",
            Some("ExecBot"),
            Err(OtherBot("OtherBot".into())),
        ),
        (
            "/approve@ abcd once",
            Some("ExecBot"),
            Err(OtherBot(String::new())),
        ),
        (
            "/approve@ExecBotX abcd once",
            Some("ExecBot"),
            Err(OtherBot("ExecBotX".into())),
        ),
        // Without knowing our own name, no suffix can be ours.
        (
            "/approve@ExecBot abcd once",
            None,
            Err(OtherBot("ExecBot".into())),
        ),
        ("/approve@x abcd once", Some(""), Err(OtherBot("x".into()))),
        // Other-bot is reported before the arguments are looked at.
        (
            "/approve@OtherBot",
            Some("ExecBot"),
            Err(OtherBot("OtherBot".into())),
        ),
    ];
    for (text, bot, want) in cases {
        let ctx = ChatContext {
            bot_username: *bot,
            ..open()
        };
        assert_eq!(&parse_text(text, &ctx), want, "{text} with {bot:?}");
    }
}

#[test]
fn approver_identity_rule() {
    let alice = vec!["alice".to_owned(), "telegram:42".to_owned()];
    let empty: Vec<String> = Vec::new();
    let with_blank = vec![String::new()];
    type Case<'a> = (
        Option<&'a [String]>,
        Option<&'a str>,
        Result<ChatAnswer, ChatParseError>,
    );
    let cases: &[Case] = &[
        // No list configured: the integration vouches for the sender.
        (None, None, ok("abcd", AllowOnce)),
        (None, Some("mallory"), ok("abcd", AllowOnce)),
        // A list: exact match only.
        (Some(&alice), Some("alice"), ok("abcd", AllowOnce)),
        (Some(&alice), Some("telegram:42"), ok("abcd", AllowOnce)),
        (
            Some(&alice),
            Some("Alice"),
            Err(NotAnApprover("Alice".into())),
        ),
        (
            Some(&alice),
            Some("alice "),
            Err(NotAnApprover("alice ".into())),
        ),
        (
            Some(&alice),
            Some("telegram:420"),
            Err(NotAnApprover("telegram:420".into())),
        ),
        (
            Some(&alice),
            Some("mallory"),
            Err(NotAnApprover("mallory".into())),
        ),
        // A list but no identity: cannot be checked, so refused.
        (
            Some(&alice),
            None,
            Err(NotAnApprover("an unidentified sender".into())),
        ),
        // An empty list lets nobody in (openclaw.md section 10, class 26).
        (
            Some(&empty),
            Some("alice"),
            Err(NotAnApprover("alice".into())),
        ),
        (
            Some(&empty),
            None,
            Err(NotAnApprover("an unidentified sender".into())),
        ),
        // An empty identity never matches, even a blank configured entry.
        (
            Some(&with_blank),
            Some(""),
            Err(NotAnApprover("an unidentified sender".into())),
        ),
    ];
    for (approvers, sender, want) in cases {
        let ctx = ChatContext {
            approvers: *approvers,
            sender: *sender,
            ..open()
        };
        assert_eq!(
            &parse_text("/approve abcd once", &ctx),
            want,
            "{approvers:?} {sender:?}"
        );
        assert_eq!(
            &parse_callback("approve:abcd:once", &ctx),
            want,
            "{approvers:?} {sender:?}"
        );
        assert_eq!(
            &parse_reaction("👍", "abcd", &ctx),
            want,
            "{approvers:?} {sender:?}"
        );
    }
}

#[test]
fn chat_text_from_a_non_approver_is_still_ignored_when_not_a_command() {
    let empty: Vec<String> = Vec::new();
    let ctx = ChatContext {
        approvers: Some(&empty),
        sender: Some("bob"),
        ..open()
    };
    assert_eq!(parse_text("good morning", &ctx), Err(NotACommand));
    assert_eq!(parse_reaction("🎉", "abcd", &ctx), Err(NotACommand));
    assert_eq!(parse_callback("menu:home", &ctx), Err(NotACommand));
}

#[test]
fn parse_callback_table() {
    let cases: &[(&str, Result<ChatAnswer, ChatParseError>)] = &[
        ("approve:abcd:once", ok("abcd", AllowOnce)),
        ("approve:abcd:always", ok("abcd", AllowAlways)),
        ("approve:abcd:deny", ok("abcd", Deny)),
        (&*format!("approve:{ID}:always"), ok(ID, AllowAlways)),
        ("approve:ABCD:once", ok("abcd", AllowOnce)),
        ("approve:abcd:ONCE", Err(UnknownDecision("ONCE".into()))),
        ("approve:abcd:allow", Err(UnknownDecision("allow".into()))),
        ("approve:abcd:once:x", Err(UnknownDecision("x".into()))),
        ("approve:abcd:x:once", Err(InvalidId("abcd:x".into()))),
        ("approve:abcd:", Err(UnknownDecision(String::new()))),
        ("approve:abcd", Err(Usage(CALLBACK_USAGE.into()))),
        ("approve:", Err(Usage(CALLBACK_USAGE.into()))),
        ("approve:abc:once", Err(InvalidId("abc".into()))),
        ("Approve:abcd:once", Err(NotACommand)),
        ("deny:abcd", Err(NotACommand)),
        ("", Err(NotACommand)),
    ];
    for (data, want) in cases {
        assert_eq!(&parse_callback(data, &open()), want, "{data:?}");
    }
}

#[test]
fn parse_reaction_table() {
    let cases: &[(&str, Option<Decision>)] = &[
        ("\u{1F44D}", Some(AllowOnce)),
        ("\u{1F44D}\u{FE0F}", Some(AllowOnce)),
        ("\u{1F44D}\u{1F3FD}", Some(AllowOnce)),
        ("\u{2705}", Some(AllowAlways)),
        ("\u{2705}\u{FE0F}", Some(AllowAlways)),
        ("\u{274C}", Some(Deny)),
        ("\u{274C}\u{FE0F}", Some(Deny)),
        (":+1:", Some(AllowOnce)),
        (":thumbsup:", Some(AllowOnce)),
        ("+1", Some(AllowOnce)),
        ("+1::skin-tone-3", Some(AllowOnce)),
        (":+1::skin-tone-6:", Some(AllowOnce)),
        (":white_check_mark:", Some(AllowAlways)),
        ("white_check_mark", Some(AllowAlways)),
        (":x:", Some(Deny)),
        ("x", Some(Deny)),
        // Not decisions.
        ("\u{1F44E}", None),          // thumbs down
        ("\u{2714}\u{FE0F}", None),   // heavy check mark
        ("\u{1F44D}\u{1F44D}", None), // two thumbs
        ("\u{1F44D}\u{FE0F}\u{FE0F}", None),
        (":X:", None),
        (":thumbsdown:", None),
        (":-1:", None),
        ("", None),
        ("::", None),
    ];
    for (emoji, decision) in cases {
        let want = match decision {
            Some(decision) => ok("abcd", *decision),
            None => Err(NotACommand),
        };
        assert_eq!(parse_reaction(emoji, "ABCD", &open()), want, "{emoji:?}");
    }
}

#[test]
fn errors_read_as_lowercase_phrases_or_usage() {
    let errors = [
        NotACommand,
        OtherBot("b".into()),
        UnknownDecision("x".into()),
        NotAnApprover("bob".into()),
        InvalidId("x".into()),
    ];
    for err in errors {
        let text = err.to_string();
        assert!(!text.ends_with('.'), "{text}");
        assert!(!text.starts_with(|c: char| c.is_uppercase()), "{text}");
    }
    assert_eq!(Usage(APPROVE_USAGE.into()).to_string(), APPROVE_USAGE);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever a chat sends, the parser does not panic, and an answer
        /// always carries a lower-case UUID prefix of 4 to 36 characters.
        #[test]
        fn any_text_yields_a_well_formed_answer_or_an_error(
            text in "(/?(approve|APPROVE|deny)(@[a-zA-Z]{0,5})? )?[0-9a-fA-F\\-a-z:@ \u{FE0F}\u{200B}]{0,40}",
        ) {
            let answers = [
                parse_text(&text, &open()),
                parse_callback(&text, &open()),
                parse_reaction(&text, &text, &open()),
            ];
            for answer in answers {
                if let Ok(ChatAnswer::Decide { id_prefix, .. }) = answer {
                    prop_assert!((4..=36).contains(&id_prefix.len()));
                    prop_assert!(id_prefix.bytes().all(|b| b == b'-' || b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
                }
            }
        }
    }
}
