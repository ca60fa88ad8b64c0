//! The example approver hooks in `examples/`, run for real with the approval
//! JSON the bridge writes, and a stand-in `notify-send` (the desktop's, not
//! ours) that records its arguments and clicks an action.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};

use approvals_tests::workspace_root;
use serde_json::{Value, json};

/// An approval as the bridge hands it to a hook.
fn approval(allowed: &[&str]) -> Value {
    json!({
        "id": "01a2174f-5b5c-767f-90f0-0facaad7808c",
        "createdAtMs": 1, "expiresAtMs": 2,
        "display": {
            "argv": ["rm", "-rf", "<b>build</b>"], "commandText": "rm -rf '<b>build</b>'",
            "cwd": "/home/me/proj", "agentId": "main", "sessionKey": null, "segments": [],
            "riskLevel": "high", "riskReasons": [], "security": "allowlist", "ask": "on-miss",
            "allowedDecisions": allowed, "reason": "allowlist-miss"
        }
    })
}

/// Runs examples/notify-approver with a `notify-send` that prints `click`;
/// its exit code, stdout, and the arguments notify-send got.
fn notify(approval: &Value, click: &str) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let args_file = dir.path().join("args");
    let stub = dir.path().join("notify-send");
    std::fs::write(
        &stub,
        format!(
            "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '{}'\nprintf '%s\\n' '{click}'\n",
            args_file.display()
        ),
    )
    .expect("write stub");
    std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let path = format!(
        "{}:{}",
        dir.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new(workspace_root().join("examples/notify-approver"))
        .env("PATH", path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run notify-approver");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(format!("{approval}\n").as_bytes())
        .expect("feed");
    let out = child.wait_with_output().expect("wait");
    let args = std::fs::read_to_string(&args_file).unwrap_or_default();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        args,
    )
}

#[test]
fn notify_approver_prints_the_clicked_action() {
    let (code, stdout, args) = notify(
        &approval(&["allow-once", "allow-always", "deny"]),
        "allow-always",
    );
    assert_eq!(code, Some(0));
    assert_eq!(stdout, "allow-always\n");
    assert!(
        args.contains("--action=allow-always=Always allow"),
        "{args}"
    );
    assert!(args.contains("--wait"), "{args}");
    // Markup in the command is escaped, so a daemon cannot render it.
    assert!(args.contains("&lt;b&gt;build&lt;/b&gt;"), "{args}");
    assert!(!args.contains("<b>"), "{args}");
}

#[test]
fn notify_approver_offers_always_only_when_the_approval_does() {
    let (code, stdout, args) = notify(&approval(&["allow-once", "deny"]), "deny");
    assert_eq!((code, stdout.as_str()), (Some(0), "deny\n"));
    assert!(!args.contains("allow-always"), "{args}");
}

#[test]
fn notify_approver_closed_or_expired_answers_nothing_so_the_bridge_denies() {
    let (code, stdout, _) = notify(&approval(&["allow-once", "deny"]), "");
    assert_eq!(code, Some(1));
    assert_eq!(stdout, "");
}
