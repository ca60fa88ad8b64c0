use approvals_ipc::ipc::Decision;

use super::fit::width;
use super::keys::{CTRL_C, KEYS, Key, key_of};
use super::render::{Size, View, countdown, render, visible};
use crate::broker::{ApprovalDisplay, DisplaySegment, PendingApproval};

fn approval(id: &str, command: &str, decisions: &[Decision]) -> PendingApproval {
    PendingApproval {
        id: id.to_owned(),
        short_id: String::new(),
        created_at_ms: 1_000,
        expires_at_ms: 121_000,
        display: ApprovalDisplay {
            argv: vec!["git".to_owned(), "status".to_owned()],
            command_text: command.to_owned(),
            cwd: "/home/u/proj".to_owned(),
            agent_id: "main".to_owned(),
            session_key: Some("s-1".to_owned()),
            segments: vec![DisplaySegment {
                argv: vec!["git".to_owned(), "status".to_owned()],
                resolved_path: Some("/usr/local/bin/git".to_owned()),
                real_path: Some("/usr/bin/git".to_owned()),
                guards: vec!["git -c runs configured programs".to_owned()],
                stdin_file: None,
            }],
            risk_level: "medium".to_owned(),
            risk_reasons: vec!["rewrites history".to_owned()],
            security: "allowlist".to_owned(),
            ask: "on-miss".to_owned(),
            allowed_decisions: decisions.to_vec(),
            reason: Some("allowlist-miss: /usr/bin/git".to_owned()),
        },
    }
}

const ALL: &[Decision] = &[Decision::AllowOnce, Decision::AllowAlways, Decision::Deny];

/// A roomy terminal, where nothing folds.
const ROOMY: Size = Size {
    cols: 200,
    rows: 50,
};

fn view(armed: bool) -> View<'static> {
    View {
        now_ms: 1_000,
        armed,
        note: None,
        size: ROOMY,
        expanded: false,
        scroll: 0,
    }
}

#[test]
fn keys_table_is_sorted_unique_and_explained() {
    for pair in KEYS.windows(2) {
        assert!(pair[0].0 < pair[1].0, "{:?}", pair[1].0);
    }
    for (_, _, why) in KEYS {
        assert!(!why.is_empty());
    }
}

#[test]
fn only_single_lowercase_keys_answer_and_ctrl_c_always_interrupts() {
    let cases: &[(&[u8], Option<Key>)] = &[
        (b"o", Some(Key::Answer(Decision::AllowOnce))),
        (b"a", Some(Key::Answer(Decision::AllowAlways))),
        (b"d", Some(Key::Answer(Decision::Deny))),
        (&[CTRL_C], Some(Key::Interrupt)),
        (b"o\x03", Some(Key::Interrupt)),
        (b"O", None),
        (b"A", None),
        (b"y", None),
        (b"\r", None),
        (b"oo", None),
        (b"\x1bOA", None),
        (b"\x1b[1;5d", None),
        (b"", None),
    ];
    for (chunk, want) in cases {
        assert_eq!(key_of(chunk).ok(), *want, "{chunk:?}");
    }
}

#[test]
fn prompt_shows_every_field_of_the_front_approval() {
    let screen = render(&[approval("0193-a", "git status", ALL)], view(true)).text();
    for needle in [
        "0193-a",
        "expires in 2:00",
        "command:  git status",
        "[git] [status]",
        "/home/u/proj",
        "agent:    main",
        "session: s-1",
        "resolved: /usr/local/bin/git",
        "real:     /usr/bin/git",
        "guards:   git -c runs configured programs",
        "risk:     medium",
        "rewrites history",
        "security=allowlist ask=on-miss",
        "why:      allowlist-miss: /usr/bin/git",
        "[o] allow once",
        "[a] allow always",
        "[d] deny",
    ] {
        assert!(screen.contains(needle), "{needle:?} missing from\n{screen}");
    }
    assert!(!screen.contains("more waiting"));
}

#[test]
fn allow_always_is_not_offered_when_the_approval_does_not_accept_it() {
    let only_once = &[Decision::AllowOnce, Decision::Deny];
    let screen = render(&[approval("0193-a", "x", only_once)], view(true)).text();
    assert!(!screen.contains("[a]"), "{screen}");
    assert!(screen.contains("allow always not offered"), "{screen}");
}

#[test]
fn keys_are_not_shown_until_the_prompt_is_armed() {
    let screen = render(&[approval("0193-a", "x", ALL)], view(false)).text();
    assert!(!screen.contains("[o]"), "{screen}");
    assert!(screen.contains("keys answer in a moment"), "{screen}");
}

#[test]
fn queued_approvals_are_listed_one_line_each() {
    let screen = render(
        &[
            approval("0193-a", "git status", ALL),
            approval("0193-b", "bash -c id", ALL),
            approval("0193-c", "ls\nrm -rf /", ALL),
        ],
        view(true),
    )
    .text();
    assert!(screen.contains("2 more waiting:"), "{screen}");
    assert!(screen.contains("  0193-b  bash -c id\n"), "{screen}");
    assert!(
        screen.contains("  0193-c  ls\\u{000A}rm -rf /\n"),
        "{screen}"
    );
}

#[test]
fn nothing_pending_draws_nothing() {
    assert!(render(&[], view(true)).rows.is_empty());
}

#[test]
fn no_control_character_reaches_the_terminal() {
    let hostile = "echo \u{1b}[2J\u{7}\u{9b}31m\r\u{7f}";
    let mut shown = approval("0193-a", hostile, ALL);
    shown.display.cwd = hostile.to_owned();
    shown.display.agent_id = hostile.to_owned();
    shown.display.segments[0].guards = vec![hostile.to_owned()];
    shown.display.reason = Some(hostile.to_owned());
    let screen = render(&[shown, approval("0193-b", hostile, ALL)], view(true)).text();
    assert!(
        screen.chars().all(|c| c == '\n' || !c.is_control()),
        "{screen:?}"
    );
    assert!(screen.contains("\\u{001B}[2J"), "{screen}");
}

#[test]
fn visible_keeps_already_escaped_text_unchanged() {
    for text in ["a\\u{200B}b", "plain", "\\n", "é ü 漢"] {
        assert_eq!(visible(text), text);
    }
}

#[test]
fn countdown_rounds_up_and_stops_at_zero() {
    let cases = [
        (120_000, 0, "2:00"),
        (1, 0, "0:01"),
        (61_000, 0, "1:01"),
        (0, 0, "0:00"),
        (0, 5_000, "0:00"),
    ];
    for (expires, now, want) in cases {
        assert_eq!(countdown(expires, now), want, "{expires} {now}");
    }
}

#[test]
fn only_keys_read_after_the_armed_prompt_was_drawn_answer() {
    use std::time::Duration;
    use tokio::time::Instant;

    let since = Instant::now();
    // Nothing answers before the prompt is armed.
    assert!(!super::counts(since, None));
    // A key already read (typed or injected ahead) when the armed prompt
    // was drawn does not count, even if it is handled afterwards.
    assert!(!super::counts(
        since - Duration::from_millis(1),
        Some(since)
    ));
    assert!(super::counts(since, Some(since)));
    assert!(super::counts(since + Duration::from_millis(5), Some(since)));
}

#[test]
fn every_frame_resets_what_another_writer_could_have_changed() {
    let clear = super::tty::CLEAR;
    for reset in ["\x1b[0m", "\x1b(B", "\x1b[r", "\x1b[2J"] {
        assert!(clear.contains(reset), "{reset:?} missing from {clear:?}");
    }
    assert!(clear.ends_with("\x1b[H\x1b[2J"));
}

/// A command of many segments, long enough to fold on a short screen.
fn many_segments(id: &str) -> PendingApproval {
    let mut shown = approval(id, "", ALL);
    let words: Vec<String> = (0..8).map(|n| format!("step-number-{n}")).collect();
    shown.display.command_text = format!("bash -c 'echo {}'", words.join(" && echo "));
    shown.display.segments = words
        .iter()
        .map(|word| DisplaySegment {
            argv: vec!["echo".to_owned(), word.clone()],
            resolved_path: Some("/usr/bin/echo".to_owned()),
            real_path: Some("/usr/bin/echo".to_owned()),
            guards: vec!["a guard that takes a whole row of its own".to_owned()],
            stdin_file: None,
        })
        .collect();
    shown
}

fn small(expanded: bool, scroll: usize) -> View<'static> {
    View {
        size: Size { cols: 60, rows: 15 },
        expanded,
        scroll,
        ..view(true)
    }
}

#[test]
fn a_60x15_screen_keeps_id_countdown_command_and_keys() {
    let pending = [many_segments("0193-a"), approval("0193-b", "queued", ALL)];
    for (expanded, scroll) in [(false, 0), (true, 0), (true, 5), (true, 999), (false, 999)] {
        let frame = render(&pending, small(expanded, scroll));
        let screen = frame.text();
        assert!(
            frame.rows.len() <= 15,
            "{} rows:\n{screen}",
            frame.rows.len()
        );
        for row in &frame.rows {
            assert!(width(row) <= 60, "{row:?} is too wide");
        }
        assert!(frame.rows[0].contains("0193-a"), "{screen}");
        assert!(screen.contains("expires in 2:00"), "{screen}");
        assert!(
            screen.contains("command:  bash -c 'echo step-number-0"),
            "{screen}"
        );
        // The whole command is on the screen, each word whole.
        for n in 0..8 {
            assert!(
                screen.contains(&format!("step-number-{n}")),
                "{n}: {screen}"
            );
        }
        assert!(screen.contains("[o] allow once"), "{screen}");
        assert!(screen.contains("[d] deny"), "{screen}");
        assert!(
            frame.max_scroll > 0,
            "details must overflow here:\n{screen}"
        );
        assert!(screen.contains("j/k scroll"), "{screen}");
    }
}

#[test]
fn segments_fold_on_a_short_screen_and_e_unfolds_them() {
    let pending = [many_segments("0193-a")];
    let folded = render(&pending, small(false, 0)).text();
    assert!(folded.contains("press e to show them in full"), "{folded}");
    assert!(!folded.contains("  resolved:"), "{folded}");
    let unfolded = render(&pending, small(true, 0)).text();
    assert!(!unfolded.contains("press e"), "{unfolded}");
    assert!(unfolded.contains("  resolved: /usr/bin/echo"), "{unfolded}");
    // Roomy screens never fold.
    let roomy = render(&pending, view(true)).text();
    assert!(roomy.contains("  resolved: /usr/bin/echo"), "{roomy}");
    assert!(!roomy.contains("j/k scroll"), "{roomy}");
}

#[test]
fn a_segment_fed_a_file_shows_the_file_folded_or_not() {
    let mut shown = approval("0193-a", "tr a-z A-Z < in.txt", ALL);
    shown.display.segments[0].stdin_file = Some("/home/u/proj/in.txt".to_owned());
    let roomy = render(std::slice::from_ref(&shown), view(true)).text();
    assert!(roomy.contains("command:  tr a-z A-Z < in.txt"), "{roomy}");
    assert!(
        roomy.contains("[status] < [/home/u/proj/in.txt]"),
        "{roomy}"
    );
    let mut pending = many_segments("0193-b");
    pending.display.segments[0].stdin_file = Some("/home/u/proj/in.txt".to_owned());
    let folded = render(&[pending], small(false, 0)).text();
    assert!(
        folded.contains("[step-number-0] < [/home/u/proj/in.txt]"),
        "{folded}"
    );
}

#[test]
fn scrolling_reaches_every_detail_row() {
    let pending = [many_segments("0193-a")];
    let top = render(&pending, small(true, 0));
    let mut seen = top.text();
    for scroll in 1..=top.max_scroll {
        seen.push_str(&render(&pending, small(true, scroll)).text());
    }
    for n in 1..=8 {
        assert!(seen.contains(&format!("segment {n}: [echo]")), "{n}");
    }
    assert!(seen.contains("why:      allowlist-miss"), "{seen}");
}

#[test]
fn a_command_longer_than_the_screen_keeps_its_start_and_scrolls_the_rest() {
    let mut shown = approval("0193-a", "", ALL);
    shown.display.command_text = (0..120)
        .map(|n| format!("w{n}"))
        .collect::<Vec<_>>()
        .join(" ");
    let pending = [shown];
    let frame = render(&pending, small(false, 0));
    let screen = frame.text();
    assert!(frame.rows.len() <= 15, "{screen}");
    assert!(screen.contains("command:  w0 w1"), "{screen}");
    assert!(screen.contains("[o] allow once"), "{screen}");
    let mut seen = screen;
    for scroll in 1..=frame.max_scroll {
        seen.push_str(&render(&pending, small(false, scroll)).text());
    }
    assert!(
        seen.contains(" w119"),
        "the end of the command is never shown"
    );
}
