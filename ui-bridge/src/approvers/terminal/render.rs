//! The text of the terminal prompt.
//!
//! It decides what a person sees: the oldest pending approval in full —
//! command, cwd, agent, session, each segment's resolved and real path and
//! guards, risk, security and ask, why it asks, the answers on offer, a
//! countdown — then one line per other approval waiting. It refuses to pass
//! a control character to the terminal: the bridge already escaped every
//! field with `escape_for_display`, and anything control-like left (say, in
//! a display that did not come from the bridge) is shown as `\u{…}` here
//! too, so no approval can move the cursor or hide text (DESIGN.md
//! principle 3: the human sees exactly what will run).

use std::fmt::Write;

use approvals_ipc::ipc::Decision;

use crate::broker::{PendingApproval, decision_word};

/// Longest command shown on a queued approval's line.
const QUEUE_LINE_CHARS: usize = 150;

/// How the prompt is drawn right now.
#[derive(Clone, Copy, Debug)]
pub(super) struct View<'a> {
    /// Unix milliseconds, for the countdown.
    pub now_ms: i64,
    /// Whether keys answer yet (they wait a moment after a new approval shows).
    pub armed: bool,
    /// What the last key press did not do, if anything.
    pub note: Option<&'a str>,
}

/// The whole screen for `pending` (oldest first); empty when nothing waits.
pub(super) fn render(pending: &[PendingApproval], view: View<'_>) -> String {
    let Some((shown, queued)) = pending.split_first() else {
        return String::new();
    };
    let d = &shown.display;
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        out,
        "== approval requested ({}) == expires in {}",
        visible(shown.shown_id()),
        countdown(shown.expires_at_ms, view.now_ms)
    );
    let _ = writeln!(out, "command:  {}", visible(&d.command_text));
    let _ = writeln!(out, "argv:     {}", argv_line(&d.argv));
    let _ = writeln!(out, "cwd:      {}", visible(&d.cwd));
    let _ = writeln!(
        out,
        "agent:    {}    session: {}",
        visible(&d.agent_id),
        d.session_key.as_deref().map_or("-".to_owned(), visible)
    );
    for (index, segment) in d.segments.iter().enumerate() {
        let _ = writeln!(out, "segment {}: {}", index + 1, argv_line(&segment.argv));
        let _ = writeln!(
            out,
            "  resolved: {}",
            segment
                .resolved_path
                .as_deref()
                .map_or("(not found)".to_owned(), visible)
        );
        let _ = writeln!(
            out,
            "  real:     {}",
            segment
                .real_path
                .as_deref()
                .map_or("(not found)".to_owned(), visible)
        );
        if !segment.guards.is_empty() {
            let guards: Vec<String> = segment.guards.iter().map(|g| visible(g)).collect();
            let _ = writeln!(out, "  guards:   {}", guards.join("; "));
        }
    }
    let _ = writeln!(out, "risk:     {}", visible(&d.risk_level));
    for reason in &d.risk_reasons {
        let _ = writeln!(out, "  - {}", visible(reason));
    }
    let _ = writeln!(
        out,
        "policy:   security={} ask={}",
        visible(&d.security),
        visible(&d.ask)
    );
    let _ = writeln!(
        out,
        "why:      {}",
        d.reason.as_deref().map_or("-".to_owned(), visible)
    );
    let _ = writeln!(out);
    if view.armed {
        let always = if offers_always(shown) {
            "[a] allow always   "
        } else {
            "(allow always not offered)   "
        };
        let _ = writeln!(
            out,
            "[o] allow once   {always}[d] deny   (ctrl-c: deny and quit)"
        );
    } else {
        let _ = writeln!(out, "(read it first: keys answer in a moment)");
    }
    if let Some(note) = view.note {
        let _ = writeln!(out, "note: {}", visible(note));
    }
    if !queued.is_empty() {
        let _ = writeln!(out);
        let _ = writeln!(out, "{} more waiting:", queued.len());
        for approval in queued {
            let command: String = visible(&approval.display.command_text)
                .chars()
                .take(QUEUE_LINE_CHARS)
                .collect();
            let _ = writeln!(out, "  {}  {}", visible(approval.shown_id()), command);
        }
    }
    out
}

/// Whether the approval accepts `allow-always`.
pub(super) fn offers_always(approval: &PendingApproval) -> bool {
    approval
        .display
        .allowed_decisions
        .contains(&Decision::AllowAlways)
}

/// One line for the normal screen once an approval is answered.
pub(super) fn answered_line(approval: &PendingApproval, decision: Decision) -> String {
    format!(
        "terminal: {} {}",
        decision_word(decision),
        visible(&approval.display.command_text)
    )
}

/// The argv, each word in brackets so spaces and empty words show.
fn argv_line(argv: &[String]) -> String {
    argv.iter()
        .map(|word| format!("[{}]", visible(word)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `M:SS` until `expires_at_ms`; `0:00` once passed.
pub(super) fn countdown(expires_at_ms: i64, now_ms: i64) -> String {
    let left_ms = expires_at_ms.saturating_sub(now_ms).max(0);
    // Rounded up, so `0:00` means it has expired.
    let secs = left_ms.saturating_add(999) / 1000;
    format!("{}:{:02}", secs / 60, secs % 60)
}

/// `text` with every control character (C0, DEL, C1) as `\u{…}`.
pub(super) fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if ch.is_control() {
            let _ = write!(out, "\\u{{{:04X}}}", u32::from(ch));
        } else {
            out.push(ch);
        }
    }
    out
}
