//! How `ui-bridge approvals` shows what the bridge returned: a table of
//! pending approvals and a one-line confirmation of an answer.
//!
//! It decides the layout only. It refuses to let text from a request reach
//! the terminal raw: the command, agent and id go through [`shown`], so
//! control, invisible and bidi characters show as escapes (DESIGN.md
//! principle 3: the human sees exactly what will run; openclaw.md section
//! 10 on confusable prompts). The bridge already escaped its display
//! fields, so backslashes pass as they are: its `\u{200B}` shows as
//! `\u{200B}`, not `\\u{200B}`.

use std::fmt::Write as _;

use approvals_ipc::policy::unicode::escape_for_display;
use serde_json::Value;

use crate::broker::PendingApproval;

/// `text` with every character `escape_for_display` escapes shown as its
/// escape, except the backslash: the bridge's fields are escaped already,
/// and escaping its escapes again would show `\\u{200B}`.
pub fn shown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut buf = [0u8; 4];
    for ch in text.chars() {
        if ch == '\\' {
            out.push(ch);
        } else {
            out.push_str(&escape_for_display(ch.encode_utf8(&mut buf)));
        }
    }
    out
}

/// The table for `approvals list`, oldest first, times relative to `now_ms`.
pub fn render_list(approvals: &[PendingApproval], now_ms: i64) -> String {
    if approvals.is_empty() {
        return "no pending approvals\n".to_owned();
    }
    let rows: Vec<[String; 6]> = approvals
        .iter()
        .map(|a| {
            [
                shown(a.shown_id()),
                duration(now_ms.saturating_sub(a.created_at_ms)),
                expires(a.expires_at_ms.saturating_sub(now_ms)),
                shown(&a.display.agent_id),
                shown(&a.display.risk_level),
                shown(&a.display.command_text),
            ]
        })
        .collect();
    let header = ["ID", "AGE", "EXPIRES IN", "AGENT", "RISK", "COMMAND"];
    let mut widths = header.map(|h| h.chars().count());
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for cells in std::iter::once(header.map(str::to_owned)).chain(rows) {
        let last = cells.len() - 1;
        for (i, cell) in cells.iter().enumerate() {
            if i == last {
                out.push_str(cell);
            } else {
                // Writing to a String cannot fail.
                let _ = write!(out, "{cell:<width$}  ", width = widths[i]);
            }
        }
        out.push('\n');
    }
    out
}

/// The confirmation for `approvals resolve|answer`: what was decided, for which command.
pub fn render_resolved(payload: &Value) -> String {
    let text = |v: &Value| shown(v.as_str().unwrap_or("?"));
    let approval = &payload["approval"];
    format!(
        "{} {} (agent {}): {}\n",
        text(&payload["decision"]),
        text(&approval["id"]),
        text(&approval["display"]["agentId"]),
        text(&approval["display"]["commandText"]),
    )
}

/// `expired` for a deadline in the past, else the time left.
fn expires(left_ms: i64) -> String {
    if left_ms <= 0 {
        "expired".to_owned()
    } else {
        duration(left_ms)
    }
}

/// A short human duration: `42s`, `3m07s`, `2h05m`.
fn duration(ms: i64) -> String {
    let secs = ms.max(0) / 1000;
    match secs {
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m{:02}s", secs / 60, secs % 60),
        _ => format!("{}h{:02}m", secs / 3600, (secs % 3600) / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broker::ApprovalDisplay;

    fn approval(id: &str, command: &str, created: i64, expires: i64) -> PendingApproval {
        PendingApproval {
            id: id.into(),
            short_id: String::new(),
            created_at_ms: created,
            expires_at_ms: expires,
            display: ApprovalDisplay {
                argv: vec![],
                command_text: command.into(),
                cwd: "/".into(),
                agent_id: "main".into(),
                session_key: None,
                segments: vec![],
                risk_level: "high".into(),
                risk_reasons: vec![],
                security: "allowlist".into(),
                ask: "on-miss".into(),
                allowed_decisions: vec![],
                reason: None,
            },
        }
    }

    #[test]
    fn durations_read_naturally() {
        let cases = [
            (-5, "0s"),
            (0, "0s"),
            (59_999, "59s"),
            (60_000, "1m00s"),
            (187_000, "3m07s"),
            (3_600_000, "1h00m"),
            (7_500_000, "2h05m"),
        ];
        for (ms, want) in cases {
            assert_eq!(duration(ms), want, "{ms}");
        }
        assert_eq!(expires(0), "expired");
        assert_eq!(expires(-1), "expired");
        assert_eq!(expires(1_500), "1s");
    }

    #[test]
    fn lists_aligned_rows_oldest_first_with_relative_times() {
        let now = 1_000_000;
        let table = render_list(
            &[
                approval("0190-a", "id", now - 12_000, now + 108_000),
                approval("0190-bbbb", "git push --force", now - 1_000, now - 1),
            ],
            now,
        );
        let want = "\
ID         AGE  EXPIRES IN  AGENT  RISK  COMMAND
0190-a     12s  1m48s       main   high  id
0190-bbbb  1s   expired     main   high  git push --force
";
        assert_eq!(table, want);
        assert_eq!(render_list(&[], now), "no pending approvals\n");
    }

    #[test]
    fn escapes_invisible_and_control_characters_in_commands() {
        let table = render_list(
            &[approval(
                "x",
                "rm -rf /\u{202E}gpj.txt\u{200B}\n\u{1b}[2J",
                0,
                1,
            )],
            0,
        );
        assert!(
            table.contains(r"rm -rf /\u{202E}gpj.txt\u{200B}\n\e[2J"),
            "{table}"
        );
        assert!(!table.contains('\u{202E}') && !table.contains('\u{1b}'));
        assert_eq!(table.lines().count(), 2, "one row per approval: {table}");
    }

    #[test]
    fn the_bridges_escapes_are_not_escaped_again() {
        let table = render_list(&[approval("x", r"echo zero\u{200B}width", 0, 1)], 0);
        assert!(table.contains(r"echo zero\u{200B}width"), "{table}");
        assert!(!table.contains(r"\\u"), "{table}");
    }

    #[test]
    fn confirms_the_decision_and_the_command() {
        let payload = serde_json::json!({
            "decision": "allow-once",
            "approver": "control:alice",
            "approval": approval("0190-a", "echo \u{200B}hi", 0, 1),
        });
        assert_eq!(
            render_resolved(&payload),
            "allow-once 0190-a (agent main): echo \\u{200B}hi\n"
        );
    }
}
