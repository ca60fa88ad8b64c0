//! Masking secrets the caller knows (the socket token, configured API keys)
//! before a record reaches the log (DESIGN.md invariant 9).
//!
//! It decides nothing about what is secret: pattern-based masking of
//! output belongs to the executor. It refuses to leave any byte of a known
//! secret visible: every occurrence, overlapping ones included, is covered,
//! and overlapping or adjacent matches merge into one marker. Empty secrets
//! are ignored (they would match everywhere).

use super::record::AuditRecord;

/// What replaces a known secret.
pub const REDACTED_KNOWN_SECRET: &str = "[REDACTED:known-secret]";

/// `argv` with every occurrence of a known secret replaced.
pub fn redact_argv(argv: &[String], known_secrets: &[&str]) -> Vec<String> {
    argv.iter()
        .map(|arg| redact_text(arg, known_secrets))
        .collect()
}

/// `text` with every occurrence of a known secret replaced.
pub fn redact_text(text: &str, known_secrets: &[&str]) -> String {
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for secret in known_secrets.iter().filter(|s| !s.is_empty()) {
        let mut from = 0;
        while let Some(found) = text[from..].find(secret) {
            let start = from + found;
            spans.push((start, start + secret.len()));
            // Step one character, not the whole secret, to catch overlaps.
            from = start + text[start..].chars().next().map_or(1, char::len_utf8);
        }
    }
    if spans.is_empty() {
        return text.to_owned();
    }
    spans.sort_unstable();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut iter = spans.into_iter().peekable();
    while let Some((start, mut end)) = iter.next() {
        while let Some(&(next_start, next_end)) = iter.peek() {
            if next_start > end {
                break;
            }
            end = end.max(next_end);
            iter.next();
        }
        out.push_str(&text[copied..start]);
        out.push_str(REDACTED_KNOWN_SECRET);
        copied = end;
    }
    out.push_str(&text[copied..]);
    out
}

/// Masks known secrets in every free-text field of a record that could
/// carry one: argv, command text, cwd, resolved paths, reason and approver.
pub fn mask(record: &mut AuditRecord, known_secrets: &[&str]) {
    let fix = |field: &mut Option<String>| {
        if let Some(text) = field.as_mut() {
            *text = redact_text(text, known_secrets);
        }
    };
    fix(&mut record.command_text);
    fix(&mut record.cwd);
    fix(&mut record.reason);
    fix(&mut record.approver);
    for list in [&mut record.argv, &mut record.resolved_paths]
        .into_iter()
        .flatten()
    {
        *list = redact_argv(list, known_secrets);
    }
    if let Some(risk) = record.risk.as_mut() {
        risk.reasons = redact_argv(&risk.reasons, known_secrets);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::record::AuditEvent;

    const R: &str = REDACTED_KNOWN_SECRET;

    #[test]
    fn redact_text_table() {
        let cases: &[(&str, &[&str], String)] = &[
            (
                "curl -H 'x: tok123'",
                &["tok123"],
                format!("curl -H 'x: {R}'"),
            ),
            ("tok123tok123", &["tok123"], R.to_owned()),
            ("a tok b tok", &["tok"], format!("a {R} b {R}")),
            // A shorter secret inside a longer one must not leak the rest.
            ("xabcdefx", &["abc", "abcdef"], format!("x{R}x")),
            // Overlapping occurrences of one secret are all covered.
            ("aaa", &["aa"], R.to_owned()),
            ("no secret here", &["zzz"], "no secret here".to_owned()),
            (
                "empty secret ignored",
                &[""],
                "empty secret ignored".to_owned(),
            ),
            ("ünï-tök", &["tök"], format!("ünï-{R}")),
        ];
        for (text, secrets, want) in cases {
            assert_eq!(&redact_text(text, secrets), want, "{text}");
        }
    }

    #[test]
    fn redact_argv_keeps_arity() {
        let argv = vec![
            "git".to_owned(),
            "push".to_owned(),
            "https://u:pw@h/r".to_owned(),
        ];
        assert_eq!(
            redact_argv(&argv, &["pw"]),
            vec![
                "git".to_owned(),
                "push".to_owned(),
                format!("https://u:{R}@h/r")
            ]
        );
    }

    #[test]
    fn mask_covers_every_text_field() {
        let s = "SECRET";
        let mut record = AuditRecord {
            argv: Some(vec![s.into()]),
            command_text: Some(s.into()),
            cwd: Some(s.into()),
            resolved_paths: Some(vec![s.into()]),
            reason: Some(s.into()),
            approver: Some(s.into()),
            risk: Some(crate::audit::AuditRisk {
                level: crate::audit::RiskLevel::Low,
                reasons: vec![s.into()],
            }),
            ..AuditRecord::new(AuditEvent::Decision)
        };
        mask(&mut record, &[s]);
        let text = serde_json::to_string(&record).unwrap();
        assert!(!text.contains(s), "{text}");
        assert_eq!(text.matches(R).count(), 7, "{text}");
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// No occurrence of a known secret survives. The alphabet shares no
        /// character with the marker, so any hit would be a real leak.
        #[test]
        fn no_known_secret_survives(
            text in "[xyz019 ]{0,40}",
            secrets in proptest::collection::vec("[xyz019]{1,4}", 0..4),
        ) {
            let refs: Vec<&str> = secrets.iter().map(String::as_str).collect();
            let out = redact_text(&text, &refs);
            for secret in &secrets {
                prop_assert!(!out.contains(secret.as_str()), "{out:?} still holds {secret:?}");
            }
            if secrets.iter().all(|s| !text.contains(s.as_str())) {
                prop_assert_eq!(out, text);
            }
        }
    }
}
