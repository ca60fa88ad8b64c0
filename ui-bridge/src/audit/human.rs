//! One readable line per record, for `audit tail|query` without `--json`.
//!
//! It decides how a record looks to a person: UTC time, event, decision,
//! decider, agent, risk, outcome and the command. It refuses to let what an
//! agent controls (command text, agent name, reasons) reach the terminal
//! raw: control, bidirectional, zero-width and other invisible characters
//! are shown as `\u{…}` escapes and backslashes are doubled, so the human
//! sees exactly what ran (DESIGN.md section 7; openclaw.md section 10,
//! class 24).

use std::fmt::Write as _;

use serde_json::Value;

/// Formats one stored record as a single line; fields that are absent are
/// left out.
pub fn format_human(value: &Value) -> String {
    let text = |key: &str| value.get(key).and_then(Value::as_str);
    let mut out = String::new();
    match value.get("ts").and_then(Value::as_i64) {
        Some(ms) => out.push_str(&iso8601_utc(ms)),
        None => out.push('-'),
    }
    if let Some(seq) = value.get("seq").and_then(Value::as_u64) {
        let _ = write!(out, " #{seq}");
    }
    let _ = write!(out, " {}", escape(text("event").unwrap_or("?")));
    if let Some(decision) = text("decision") {
        let _ = write!(out, " {}", escape(decision));
    }
    if let Some(by) = text("decidedBy") {
        let _ = write!(out, " by={}", escape(by));
    }
    if let Some(agent) = text("agentId") {
        let _ = write!(out, " agent={}", escape(agent));
    }
    if let Some(level) = value
        .get("risk")
        .and_then(|r| r.get("level"))
        .and_then(Value::as_str)
    {
        let _ = write!(out, " risk={}", escape(level));
    }
    if let Some(code) = value.get("exitCode").and_then(Value::as_i64) {
        let _ = write!(out, " exit={code}");
    }
    if value.get("timedOut").and_then(Value::as_bool) == Some(true) {
        out.push_str(" timed-out");
    }
    if let Some(ms) = value.get("durationMs").and_then(Value::as_u64) {
        let _ = write!(out, " {ms}ms");
    }
    if let Some(reason) = text("reason") {
        let _ = write!(out, " reason=\"{}\"", escape(reason));
    }
    if let Some(command) = command_of(value) {
        let _ = write!(out, " cmd: {command}");
    }
    out
}

/// The command as text: `commandText` if present, else the argv joined,
/// with arguments that hold spaces or quotes single-quoted; escaped.
fn command_of(value: &Value) -> Option<String> {
    if let Some(text) = value.get("commandText").and_then(Value::as_str) {
        return Some(escape(text));
    }
    let argv = value.get("argv")?.as_array()?;
    let words: Vec<String> = argv
        .iter()
        .map(|arg| {
            let arg = arg.as_str().unwrap_or("?");
            let needs_quotes = arg.is_empty()
                || arg
                    .chars()
                    .any(|c| c.is_whitespace() || c == '\'' || c == '"');
            if needs_quotes {
                format!("'{}'", escape(arg).replace('\'', r"'\''"))
            } else {
                escape(arg)
            }
        })
        .collect();
    Some(words.join(" "))
}

/// `2026-01-17T21:40:00.123Z` for milliseconds since the epoch.
fn iso8601_utc(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let in_day = ms.rem_euclid(86_400_000);
    let (year, month, day) = civil_from_days(days);
    let (h, rest) = (in_day / 3_600_000, in_day % 3_600_000);
    let (m, rest) = (rest / 60_000, rest % 60_000);
    let (s, milli) = (rest / 1000, rest % 1000);
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{milli:03}Z")
}

/// Howard Hinnant's `civil_from_days`: days since 1970-01-01 to a
/// proleptic Gregorian date.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Characters that are invisible, look like a space, or reorder text, with
/// why each is escaped. Sorted, non-overlapping, inclusive ranges.
const INVISIBLE: &[(u32, u32, &str)] = &[
    (0x00A0, 0x00A0, "no-break space looks like a space"),
    (0x00AD, 0x00AD, "soft hyphen is invisible"),
    (0x034F, 0x034F, "combining grapheme joiner is invisible"),
    (0x061C, 0x061C, "arabic letter mark reorders text"),
    (0x115F, 0x1160, "hangul fillers are blank"),
    (0x1680, 0x1680, "ogham space mark looks like a space"),
    (0x17B4, 0x17B5, "khmer inherent vowels are invisible"),
    (
        0x180B,
        0x180F,
        "mongolian selectors and separator are invisible",
    ),
    (0x2000, 0x200A, "typographic spaces look like a space"),
    (0x200B, 0x200D, "zero-width space and joiners are invisible"),
    (0x200E, 0x200F, "directional marks reorder text"),
    (0x2028, 0x2029, "line and paragraph separators break lines"),
    (0x202A, 0x202E, "bidi embeddings and overrides reorder text"),
    (0x202F, 0x202F, "narrow no-break space looks like a space"),
    (
        0x205F,
        0x205F,
        "medium mathematical space looks like a space",
    ),
    (
        0x2060,
        0x2064,
        "word joiner and invisible operators are invisible",
    ),
    (0x2066, 0x2069, "bidi isolates reorder text"),
    (0x206A, 0x206F, "deprecated format characters are invisible"),
    (0x3000, 0x3000, "ideographic space looks like a space"),
    (0x3164, 0x3164, "hangul filler is blank"),
    (0xFE00, 0xFE0F, "variation selectors are invisible"),
    (0xFEFF, 0xFEFF, "byte order mark is invisible"),
    (0xFFA0, 0xFFA0, "halfwidth hangul filler is blank"),
    (0xFFF9, 0xFFFB, "interlinear annotation controls hide text"),
    (0x1D173, 0x1D17A, "musical format characters are invisible"),
    (0xE0000, 0xE007F, "tag characters are invisible"),
    (
        0xE0100,
        0xE01EF,
        "variation selectors supplement is invisible",
    ),
];

/// Whether `c` must be escaped before a person sees it.
fn is_hidden(c: char) -> bool {
    let code = u32::from(c);
    c.is_control()
        || INVISIBLE
            .binary_search_by(|(lo, hi, _)| {
                if *hi < code {
                    std::cmp::Ordering::Less
                } else if *lo > code {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
}

/// Makes control and invisible characters visible; doubles backslashes so
/// an escape typed by the agent cannot pass for one of ours.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str(r"\\"),
            '\n' => out.push_str(r"\n"),
            '\r' => out.push_str(r"\r"),
            '\t' => out.push_str(r"\t"),
            c if is_hidden(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn invisible_table_is_sorted_disjoint_and_explained() {
        for pair in INVISIBLE.windows(2) {
            assert!(pair[0].1 < pair[1].0, "{:x?} then {:x?}", pair[0], pair[1]);
        }
        for (lo, hi, reason) in INVISIBLE {
            assert!(lo <= hi, "{lo:x}");
            assert!(!reason.is_empty(), "{lo:x}");
        }
    }

    #[test]
    fn escapes_each_spoofing_character_by_name() {
        let cases = [
            ("zero width space", "rm\u{200B}x", r"rm\u{200b}x"),
            ("right-to-left override", "a\u{202E}b", r"a\u{202e}b"),
            ("hangul filler", "ls\u{3164}", r"ls\u{3164}"),
            ("no-break space", "a\u{A0}b", r"a\u{a0}b"),
            ("escape sequence", "\u{1b}[2J", r"\u{1b}[2J"),
            ("newline", "a\nb", r"a\nb"),
            ("carriage return", "ok\rrm -rf /", r"ok\rrm -rf /"),
            ("delete", "a\u{7f}", r"a\u{7f}"),
            ("c1 control", "a\u{9b}", r"a\u{9b}"),
            ("tag character", "a\u{E0041}", r"a\u{e0041}"),
            (
                "literal escape typed by the agent",
                r"a\u{200b}",
                r"a\\u{200b}",
            ),
            ("plain text stays", "git status -s", "git status -s"),
            ("visible unicode stays", "café ✅", "café ✅"),
        ];
        for (name, input, want) in cases {
            assert_eq!(escape(input), want, "{name}");
        }
    }

    #[test]
    fn iso8601_matches_known_instants() {
        assert_eq!(iso8601_utc(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso8601_utc(1_737_150_000_000), "2025-01-17T21:40:00.000Z");
        assert_eq!(iso8601_utc(951_782_400_123), "2000-02-29T00:00:00.123Z");
        assert_eq!(iso8601_utc(-1), "1969-12-31T23:59:59.999Z");
    }

    #[test]
    fn formats_a_decision_and_an_outcome_on_one_line() {
        let decision = json!({
            "v": 1, "seq": 7, "ts": 1_737_150_000_000_i64, "prev": "00",
            "event": "decision", "agentId": "main", "decision": "allow-once",
            "decidedBy": "human:alice", "risk": {"level": "high", "reasons": []},
            "argv": ["rm", "-rf", "my dir", "it's"]
        });
        assert_eq!(
            format_human(&decision),
            "2025-01-17T21:40:00.000Z #7 decision allow-once by=human:alice agent=main \
             risk=high cmd: rm -rf 'my dir' 'it'\\''s'"
        );
        let finished = json!({
            "ts": 0, "event": "exec.finished", "exitCode": 2, "timedOut": true,
            "durationMs": 15, "commandText": "sleep 9\u{202E}"
        });
        assert_eq!(
            format_human(&finished),
            r"1970-01-01T00:00:00.000Z exec.finished exit=2 timed-out 15ms cmd: sleep 9\u{202e}"
        );
    }

    #[test]
    fn a_hostile_agent_name_cannot_break_the_line() {
        let value = json!({"ts": 0, "event": "decision", "agentId": "x\n1970 fake"});
        assert!(!format_human(&value).contains('\n'));
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Nothing an agent controls reaches the terminal as a control or
        /// invisible character.
        #[test]
        fn output_never_holds_a_hidden_character(
            agent in any::<String>(),
            command in any::<String>(),
            arg in any::<String>(),
        ) {
            let with_text = serde_json::json!({"ts": 0, "event": "decision", "agentId": agent, "commandText": command});
            let with_argv = serde_json::json!({"ts": 0, "event": "decision", "reason": agent, "argv": [arg, command]});
            for value in [with_text, with_argv] {
                let out = format_human(&value);
                prop_assert!(!out.chars().any(is_hidden), "{out:?}");
            }
        }
    }
}
