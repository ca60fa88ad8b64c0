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

use super::fit::{clip, wrap};
use crate::broker::{PendingApproval, decision_word};

/// Where a field's text starts (`command:  `), and where its continuation
/// rows are indented to.
const LABEL: usize = 10;

/// The screen size assumed when the terminal does not say.
pub(super) const FALLBACK_SIZE: Size = Size { cols: 80, rows: 24 };

/// A terminal's size in character cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Size {
    /// Columns.
    pub cols: usize,
    /// Rows.
    pub rows: usize,
}

/// How the prompt is drawn right now.
#[derive(Clone, Copy, Debug)]
pub(super) struct View<'a> {
    /// Unix milliseconds, for the countdown.
    pub now_ms: i64,
    /// Whether keys answer yet (they wait a moment after a new approval shows).
    pub armed: bool,
    /// What the last key press did not do, if anything.
    pub note: Option<&'a str>,
    /// The terminal's size.
    pub size: Size,
    /// Whether the person asked to see every segment in full (`e`).
    pub expanded: bool,
    /// How many rows of the details are scrolled past (`j`/`k`).
    pub scroll: usize,
}

/// One drawn screen: at most `size.rows` rows of at most `size.cols`
/// columns (unless the screen is too small even for the id, the command's
/// first row and the keys).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Frame {
    /// The rows, top first.
    pub rows: Vec<String>,
    /// The largest useful scroll offset (0 when everything fits).
    pub max_scroll: usize,
}

impl Frame {
    /// The rows joined by newlines, as a person reads them.
    #[cfg(test)]
    pub(super) fn text(&self) -> String {
        self.rows.join("\n")
    }
}

/// The whole screen for `pending` (oldest first); empty when nothing waits.
///
/// The id and countdown (top), the command (next) and the keys (bottom)
/// are always drawn; the details between them are what gives way on a
/// short screen: segments fold to one row each (`e` unfolds them), and
/// what still does not fit scrolls (`j`/`k`) behind a row that says so. A
/// command too long for the screen keeps its first rows in place and
/// continues at the top of the scrolled part.
pub(super) fn render(pending: &[PendingApproval], view: View<'_>) -> Frame {
    let Some((shown, queued)) = pending.split_first() else {
        return Frame::default();
    };
    let cols = view.size.cols.max(1);
    let d = &shown.display;
    let header = wrap(
        &format!(
            "== approval requested ({}) == expires in {}",
            visible(shown.shown_id()),
            countdown(shown.expires_at_ms, view.now_ms)
        ),
        cols,
        0,
    );
    let command = wrap(
        &format!("command:  {}", visible(&d.command_text)),
        cols,
        LABEL,
    );
    let mut bottom = vec![String::new()];
    bottom.extend(wrap(&keys_line(shown, view.armed), cols, 0));
    if let Some(note) = view.note {
        bottom.extend(wrap(&format!("note: {}", visible(note)), cols, LABEL));
    }
    let avail = view
        .size
        .rows
        .saturating_sub(header.len() + bottom.len())
        .max(1);
    let mut body = details(shown, queued, cols, false);
    let fold = !view.expanded && !d.segments.is_empty() && command.len() + body.len() > avail;
    if fold {
        body = details(shown, queued, cols, true);
    }
    // The command's rows that stay in place; the rest scroll with the details.
    let fixed = if command.len() + body.len() <= avail {
        command.len()
    } else {
        command.len().min(avail.saturating_sub(2)).max(1)
    };
    let mut rest: Vec<String> = command[fixed..].to_vec();
    rest.extend(body);
    let room = avail.saturating_sub(fixed);
    let mut rows = header;
    rows.extend_from_slice(&command[..fixed]);
    let mut max_scroll = 0;
    if rest.len() <= room {
        rows.extend(rest);
    } else if room > 0 {
        let lines = room - 1;
        max_scroll = rest.len() - lines;
        let from = view.scroll.min(max_scroll);
        rows.extend_from_slice(&rest[from..from + lines]);
        let below = rest.len() - from - lines;
        let segments = match (fold, view.expanded && !d.segments.is_empty()) {
            (true, _) => "; e: full segments",
            (false, true) => "; e: fold segments",
            (false, false) => "",
        };
        let more = if queued.is_empty() {
            String::new()
        } else {
            format!(", {} more waiting", queued.len())
        };
        rows.push(clip(
            &format!("-- {from} above, {below} below (j/k scroll{segments}){more} --"),
            cols,
        ));
    }
    rows.extend(bottom);
    Frame { rows, max_scroll }
}

/// The keys on offer, or why there are none yet.
fn keys_line(shown: &PendingApproval, armed: bool) -> String {
    if !armed {
        return "(read it first: keys answer in a moment)".to_owned();
    }
    let always = if offers_always(shown) {
        "[a] allow always   "
    } else {
        "(allow always not offered)   "
    };
    format!("[o] allow once   {always}[d] deny   (ctrl-c: deny and quit)")
}

/// The rows between the command and the keys: argv, cwd, agent, each
/// segment (one row each when `folded`), risk, policy, why, the queue.
fn details(
    shown: &PendingApproval,
    queued: &[PendingApproval],
    cols: usize,
    folded: bool,
) -> Vec<String> {
    let d = &shown.display;
    let mut rows = Vec::new();
    let mut field = |text: String| rows.extend(wrap(&text, cols, LABEL));
    field(format!("argv:     {}", argv_line(&d.argv)));
    field(format!("cwd:      {}", visible(&d.cwd)));
    field(format!(
        "agent:    {}    session: {}",
        visible(&d.agent_id),
        d.session_key.as_deref().map_or("-".to_owned(), visible)
    ));
    let path = |p: Option<&str>| p.map_or("(not found)".to_owned(), visible);
    if folded {
        rows.push(clip(
            &format!(
                "segments: {}, one row each (press e to show them in full)",
                d.segments.len()
            ),
            cols,
        ));
    }
    for (index, segment) in d.segments.iter().enumerate() {
        if folded {
            let guards = match segment.guards.len() {
                0 => String::new(),
                n => format!(" +{n} guard(s)"),
            };
            rows.push(clip(
                &format!(
                    "segment {}: {}{} -> {}{guards}",
                    index + 1,
                    argv_line(&segment.argv),
                    stdin_note(segment.stdin_file.as_deref()),
                    path(segment.real_path.as_deref())
                ),
                cols,
            ));
            continue;
        }
        rows.extend(wrap(
            &format!(
                "segment {}: {}{}",
                index + 1,
                argv_line(&segment.argv),
                stdin_note(segment.stdin_file.as_deref())
            ),
            cols,
            LABEL,
        ));
        rows.extend(wrap(
            &format!("  resolved: {}", path(segment.resolved_path.as_deref())),
            cols,
            12,
        ));
        rows.extend(wrap(
            &format!("  real:     {}", path(segment.real_path.as_deref())),
            cols,
            12,
        ));
        if !segment.guards.is_empty() {
            let guards: Vec<String> = segment.guards.iter().map(|g| visible(g)).collect();
            rows.extend(wrap(
                &format!("  guards:   {}", guards.join("; ")),
                cols,
                12,
            ));
        }
    }
    let mut field = |text: String| rows.extend(wrap(&text, cols, LABEL));
    field(format!("risk:     {}", visible(&d.risk_level)));
    for reason in &d.risk_reasons {
        field(format!("  - {}", visible(reason)));
    }
    field(format!(
        "policy:   security={} ask={}",
        visible(&d.security),
        visible(&d.ask)
    ));
    field(format!(
        "why:      {}",
        d.reason.as_deref().map_or("-".to_owned(), visible)
    ));
    if !queued.is_empty() {
        rows.push(String::new());
        rows.push(format!("{} more waiting:", queued.len()));
        for approval in queued {
            rows.push(clip(
                &format!(
                    "  {}  {}",
                    visible(approval.shown_id()),
                    visible(&approval.display.command_text)
                ),
                cols,
            ));
        }
    }
    rows
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
/// ` < [FILE]` for a segment that reads a file on stdin, else nothing.
fn stdin_note(file: Option<&str>) -> String {
    file.map(|f| format!(" < [{}]", visible(f)))
        .unwrap_or_default()
}

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
