//! Capping what one record may say, so a client cannot fill the disk with
//! a few huge requests (DESIGN.md invariant 2 applied to the log).
//!
//! It decides how much of each free-text field reaches the log: at most
//! [`FIELD_CAP`] bytes of one value, and at most [`LIST_CAP`] bytes of one
//! list (argv, resolved paths, risk reasons). A value over its cap keeps
//! its first bytes (cut at a character boundary) and ends with a marker
//! naming its full length and the SHA-256 of the full value, so what was
//! asked can still be matched against a copy kept elsewhere. A list over
//! its cap keeps its first elements and ends with one marker element for
//! the rest, with the SHA-256 of the whole list as JSON. It never drops a
//! field and never changes a value under its cap.

use sha2::{Digest, Sha256};

use super::record::AuditRecord;

/// Most bytes of one logged value.
pub const FIELD_CAP: usize = 4 * 1024;

/// Most bytes of one logged list, its elements added up.
pub const LIST_CAP: usize = 4 * FIELD_CAP;

/// Caps every free-text field of `record` in place.
pub fn cap_record(record: &mut AuditRecord) {
    for text in [
        &mut record.request_id,
        &mut record.run_id,
        &mut record.agent_id,
        &mut record.session_key,
        &mut record.command_text,
        &mut record.cwd,
        &mut record.approver,
        &mut record.reason,
        &mut record.host,
    ]
    .into_iter()
    .flatten()
    {
        cap_text(text);
    }
    for list in [&mut record.argv, &mut record.resolved_paths]
        .into_iter()
        .flatten()
    {
        cap_list(list);
    }
    if let Some(risk) = record.risk.as_mut() {
        cap_list(&mut risk.reasons);
    }
}

/// Cuts `text` to [`FIELD_CAP`] bytes with a marker when it is longer.
fn cap_text(text: &mut String) {
    if text.len() <= FIELD_CAP {
        return;
    }
    let marker = format!(
        "…[cut: {} bytes, sha256 {}]",
        text.len(),
        hex::encode(Sha256::digest(text.as_bytes()))
    );
    let keep = floor_char_boundary(text, FIELD_CAP.saturating_sub(marker.len()));
    text.truncate(keep);
    text.push_str(&marker);
}

/// Caps each element, then the list as a whole, with one marker element
/// for what was left out.
fn cap_list(list: &mut Vec<String>) {
    let total: usize = list.iter().map(String::len).sum();
    if total <= LIST_CAP && list.iter().all(|item| item.len() <= FIELD_CAP) {
        return;
    }
    // The hash covers the list as it was, elements as JSON strings, so
    // element boundaries count.
    let whole = serde_json::to_vec(&*list).unwrap_or_default();
    let hash = hex::encode(Sha256::digest(&whole));
    let count = list.len();
    for item in list.iter_mut() {
        cap_text(item);
    }
    let mut used = 0;
    let mut kept = 0;
    for item in list.iter() {
        if used + item.len() > LIST_CAP - FIELD_CAP {
            break;
        }
        used += item.len();
        kept += 1;
    }
    if kept < count {
        list.truncate(kept);
        list.push(format!(
            "…[cut: {} more of {count} elements, {total} bytes in all, sha256 {hash} of the list as JSON]",
            count - kept
        ));
    }
}

/// The largest index `<= at` that starts a character of `text`.
fn floor_char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::AuditEvent;

    fn sha(bytes: &[u8]) -> String {
        hex::encode(Sha256::digest(bytes))
    }

    #[test]
    fn a_short_value_is_untouched() {
        let mut text = "x".repeat(FIELD_CAP);
        cap_text(&mut text);
        assert_eq!(text, "x".repeat(FIELD_CAP));
    }

    #[test]
    fn a_long_value_keeps_its_start_its_length_and_its_hash() {
        let full = format!("{}é{}", "a".repeat(FIELD_CAP - 40), "b".repeat(100_000));
        let mut text = full.clone();
        cap_text(&mut text);
        assert!(text.len() <= FIELD_CAP, "{}", text.len());
        assert!(text.starts_with(&"a".repeat(1000)));
        assert!(text.contains(&format!("{} bytes", full.len())), "{text}");
        assert!(text.contains(&sha(full.as_bytes())), "{text}");
    }

    #[test]
    fn a_long_argv_is_cut_with_one_marker_and_a_hash_of_the_list() {
        let argv: Vec<String> = (0..10_000).map(|i| format!("arg{i}")).collect();
        let mut record = AuditRecord {
            argv: Some(argv.clone()),
            ..AuditRecord::new(AuditEvent::Decision)
        };
        cap_record(&mut record);
        let capped = record.argv.unwrap();
        let bytes: usize = capped.iter().map(String::len).sum();
        assert!(bytes <= LIST_CAP, "{bytes}");
        assert_eq!(capped[..10], argv[..10]);
        let marker = capped.last().unwrap();
        assert!(marker.contains("of 10000 elements"), "{marker}");
        assert!(
            marker.contains(&sha(&serde_json::to_vec(&argv).unwrap())),
            "{marker}"
        );
    }

    #[test]
    fn every_text_field_is_capped() {
        let big = "z".repeat(FIELD_CAP * 3);
        let mut record = AuditRecord {
            request_id: Some(big.clone()),
            run_id: Some(big.clone()),
            agent_id: Some(big.clone()),
            session_key: Some(big.clone()),
            command_text: Some(big.clone()),
            cwd: Some(big.clone()),
            approver: Some(big.clone()),
            reason: Some(big.clone()),
            host: Some(big.clone()),
            argv: Some(vec![big.clone()]),
            resolved_paths: Some(vec![big.clone()]),
            risk: Some(crate::audit::AuditRisk {
                level: crate::audit::RiskLevel::Low,
                reasons: vec![big.clone()],
            }),
            ..AuditRecord::new(AuditEvent::Decision)
        };
        cap_record(&mut record);
        let line = serde_json::to_string(&record).unwrap();
        assert!(line.len() < 13 * FIELD_CAP, "{}", line.len());
        assert_eq!(line.matches(&sha(big.as_bytes())).count(), 12, "{line}");
    }
}
