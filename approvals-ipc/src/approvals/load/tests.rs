use std::path::Path;

use serde_json::{Value, json};

use super::*;
use crate::approvals::{ApprovalsError, SocketConfig, Token};

const ORIGIN: &str = "/x/exec-approvals.json";

fn parse(text: &str) -> Result<Loaded, ApprovalsError> {
    ApprovalsFile::parse(text.as_bytes(), Path::new(ORIGIN))
}

fn pretty(file: &ApprovalsFile) -> String {
    let mut text = serde_json::to_string_pretty(file).unwrap();
    text.push('\n');
    text
}

/// The example from the OpenClaw docs (seed 002), as OpenClaw writes it.
const OPENCLAW_DOCS_EXAMPLE: &str = r#"{
  "version": 1,
  "socket": {
    "path": "~/.clawdbot/exec-approvals.sock",
    "token": "base64url-token"
  },
  "defaults": {
    "security": "deny",
    "ask": "on-miss",
    "askFallback": "deny",
    "autoAllowSkills": false
  },
  "agents": {
    "main": {
      "security": "allowlist",
      "ask": "on-miss",
      "askFallback": "deny",
      "autoAllowSkills": true,
      "allowlist": [
        {
          "id": "B0C8C0B3-2C2D-4F8A-9A3C-5A4B3C2D1E0F",
          "pattern": "~/Projects/**/bin/rg",
          "lastUsedAt": 1737150000000,
          "lastUsedCommand": "rg -n TODO",
          "lastResolvedPath": "/Users/user/Projects/.../bin/rg"
        }
      ]
    }
  }
}
"#;

/// DESIGN.md's example, with a wildcard agent and current OpenClaw fields.
const OPENCLAW_CURRENT_EXAMPLE: &str = r#"{
  "version": 1,
  "socket": {
    "path": "~/.openclaw/exec-approvals.sock",
    "token": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
  },
  "defaults": {
    "security": "allowlist",
    "ask": "on-miss",
    "askFallback": "deny"
  },
  "agents": {
    "*": {
      "allowlist": [
        {
          "id": "5f0c2a4e-1111-4e5e-9a9a-000000000001",
          "pattern": "/usr/bin/jq"
        }
      ]
    },
    "main": {
      "security": "allowlist",
      "ask": "on-miss",
      "askFallback": "deny",
      "allowlist": [
        {
          "id": "5f0c2a4e-1111-4e5e-9a9a-000000000002",
          "pattern": "/usr/bin/git",
          "lastUsedAt": 1737150000000,
          "lastUsedCommand": "git status",
          "lastResolvedPath": "/usr/bin/git"
        },
        {
          "id": "5f0c2a4e-1111-4e5e-9a9a-000000000003",
          "pattern": "=command:7d10fced96b38c84",
          "source": "allow-always",
          "argPattern": "^ok$"
        }
      ]
    }
  }
}
"#;

/// Unknown fields at every level, placed after the known ones (where our
/// serializer puts them), so the round trip is byte for byte.
const UNKNOWN_FIELDS_EVERYWHERE: &str = r#"{
  "version": 1,
  "socket": {
    "path": "/run/x.sock",
    "token": "t",
    "futureSocketField": [
      1,
      2
    ]
  },
  "defaults": {
    "security": "allowlist",
    "denylist": [
      {
        "pattern": "/usr/bin/rm",
        "reason": "no deleting",
        "futureDenyField": true
      }
    ],
    "futureDefaultsField": {
      "nested": "kept"
    }
  },
  "agents": {
    "main": {
      "ask": "always",
      "futureAgentField": "kept",
      "allowlist": [
        {
          "id": "e1",
          "pattern": "/usr/bin/git",
          "futureEntryField": {
            "a": 1
          }
        }
      ]
    }
  },
  "futureTopField": null
}
"#;

#[test]
fn openclaw_files_round_trip_byte_for_byte() {
    for text in [
        OPENCLAW_DOCS_EXAMPLE,
        OPENCLAW_CURRENT_EXAMPLE,
        UNKNOWN_FIELDS_EVERYWHERE,
    ] {
        let loaded = parse(text).unwrap();
        assert_eq!(loaded.warnings, vec![]);
        assert_eq!(pretty(&loaded.file), text);
    }
}

#[test]
fn unknown_fields_anywhere_survive_as_values() {
    let text = r#"{"zz": 1, "version": 1, "agents": {"main": {"x": [1], "allowlist":
        [{"y": {"z": 2}, "pattern": "/bin/ls", "id": "i"}], "security": "full"}},
        "socket": {"q": "r", "token": " t "}}"#;
    let loaded = parse(text).unwrap();
    let saved: Value = serde_json::from_str(&pretty(&loaded.file)).unwrap();
    assert_eq!(saved["zz"], json!(1));
    assert_eq!(saved["agents"]["main"]["x"], json!([1]));
    assert_eq!(saved["agents"]["main"]["security"], json!("full"));
    assert_eq!(
        saved["agents"]["main"]["allowlist"][0]["y"],
        json!({"z": 2})
    );
    assert_eq!(saved["socket"]["q"], json!("r"));
    assert_eq!(saved["socket"]["token"], json!("t"));
}

#[test]
fn bare_strings_become_entries_and_unusable_items_are_dropped_with_warnings() {
    let loaded = parse(
        r#"{"version": 1, "agents": {"main": {"allowlist": [
            " /usr/bin/git ", "", "   ", 7, null, {"id": "a"}, {"pattern": ""},
            {"pattern": 3}, {"pattern": "/bin/ls", "commandText": "ls -la"}
        ]}}}"#,
    )
    .unwrap();
    let entries = &loaded.file.agents["main"].allowlist;
    let patterns: Vec<&str> = entries.iter().map(|e| e.pattern.as_str()).collect();
    assert_eq!(patterns, ["/usr/bin/git", "/bin/ls"]);
    assert!(entries.iter().all(|e| uuid::Uuid::parse_str(&e.id).is_ok()));
    assert!(!entries[1].extra.contains_key("commandText"));
    let dropped: Vec<&str> = loaded.warnings.iter().map(|w| w.field.as_str()).collect();
    assert_eq!(
        dropped,
        [
            "agents.main.allowlist[1]",
            "agents.main.allowlist[2]",
            "agents.main.allowlist[3]",
            "agents.main.allowlist[4]",
            "agents.main.allowlist[5]",
            "agents.main.allowlist[6]",
            "agents.main.allowlist[7]",
        ]
    );
    assert!(
        loaded
            .warnings
            .iter()
            .all(|w| matches!(w.kind, WarningKind::AllowlistEntryDropped { .. }))
    );
}

#[test]
fn existing_ids_are_kept_and_missing_ones_are_unique() {
    let loaded = parse(
        r#"{"version": 1, "agents": {"main": {"allowlist": [
            {"id": "keep-me", "pattern": "/a"}, {"pattern": "/b"}, {"id": "", "pattern": "/c"}
        ]}}}"#,
    )
    .unwrap();
    let ids: Vec<&str> = loaded.file.agents["main"]
        .allowlist
        .iter()
        .map(|e| e.id.as_str())
        .collect();
    assert_eq!(ids[0], "keep-me");
    assert_ne!(ids[1], ids[2]);
    assert!(!ids[1].is_empty() && !ids[2].is_empty());
}

#[test]
fn invalid_enum_values_are_dropped_with_a_warning_naming_the_field() {
    let cases: &[(&str, &str)] = &[
        (r#"{"defaults": {"security": "yolo"}}"#, "defaults.security"),
        (r#"{"defaults": {"ask": "sometimes"}}"#, "defaults.ask"),
        (
            r#"{"defaults": {"askFallback": 1}}"#,
            "defaults.askFallback",
        ),
        (
            r#"{"defaults": {"allowAlwaysScope": "everything"}}"#,
            "defaults.allowAlwaysScope",
        ),
        (
            r#"{"agents": {"main": {"security": "FULL"}}}"#,
            "agents.main.security",
        ),
        (r#"{"agents": {"*": {"ask": true}}}"#, "agents.*.ask"),
        (
            r#"{"agents": {"ops": {"askFallback": ["deny"]}}}"#,
            "agents.ops.askFallback",
        ),
    ];
    for (body, field) in cases {
        let mut value: Value = serde_json::from_str(body).unwrap();
        value["version"] = json!(1);
        let loaded = parse(&value.to_string()).unwrap_or_else(|e| panic!("{body}: {e}"));
        assert_eq!(loaded.warnings.len(), 1, "{body}");
        assert_eq!(loaded.warnings[0].field, *field, "{body}");
        assert!(
            matches!(loaded.warnings[0].kind, WarningKind::InvalidValue { .. }),
            "{body}"
        );
        let policy = loaded.file.resolve(Some("ops"));
        assert_eq!(
            (policy.security, policy.ask, policy.ask_fallback),
            (Security::Deny, Ask::OnMiss, Security::Deny),
            "{body}: a dropped value must fall back to the built-in"
        );
    }
}

#[test]
fn invalid_enum_value_warning_reads_well() {
    let loaded = parse(r#"{"version": 1, "defaults": {"security": "yolo"}}"#).unwrap();
    assert_eq!(
        loaded.warnings[0].to_string(),
        r#"defaults.security: invalid value "yolo" (expected one of deny, allowlist, full); ignored"#
    );
}

#[test]
fn null_enum_values_count_as_unset_without_warning() {
    let loaded = parse(r#"{"version": 1, "defaults": {"security": null}}"#).unwrap();
    assert_eq!(loaded.warnings, vec![]);
    assert_eq!(loaded.file.defaults.unwrap().security, None);
}

#[test]
fn legacy_default_agent_merges_into_main_with_main_winning() {
    let loaded = parse(
        r#"{"version": 1, "agents": {
            "default": {"security": "full", "ask": "off", "autoAllowSkills": true,
                        "legacyExtra": 1, "allowlist": ["/usr/bin/GIT ", "/bin/ls", "/bin/new"]},
            "main": {"security": "allowlist", "allowlist": ["/usr/bin/git", "/bin/ls"]}
        }}"#,
    )
    .unwrap();
    assert!(!loaded.file.agents.contains_key("default"));
    let main = &loaded.file.agents["main"];
    assert_eq!(main.policy.security, Some(Security::Allowlist));
    assert_eq!(main.policy.ask, Some(Ask::Off));
    assert_eq!(main.policy.auto_allow_skills, Some(true));
    assert_eq!(main.policy.extra.get("legacyExtra"), Some(&json!(1)));
    let patterns: Vec<&str> = main.allowlist.iter().map(|e| e.pattern.as_str()).collect();
    assert_eq!(patterns, ["/usr/bin/git", "/bin/ls", "/bin/new"]);
    assert_eq!(
        loaded.warnings,
        vec![LoadWarning {
            field: "agents.default".into(),
            kind: WarningKind::LegacyDefaultAgentMerged
        }]
    );
}

#[test]
fn legacy_default_agent_alone_becomes_main() {
    let loaded = parse(
        r#"{"version": 1, "agents": {"default": {"security": "allowlist", "allowlist": ["/bin/ls"]}}}"#,
    )
    .unwrap();
    let main = &loaded.file.agents["main"];
    assert_eq!(main.policy.security, Some(Security::Allowlist));
    assert_eq!(main.allowlist[0].pattern, "/bin/ls");
    assert_eq!(loaded.file.agents.len(), 1);
}

#[test]
fn legacy_merge_keeps_entries_that_differ_in_arg_pattern() {
    let loaded = parse(
        r#"{"version": 1, "agents": {
            "default": {"allowlist": [{"pattern": "/bin/x", "argPattern": "^a$"}]},
            "main": {"allowlist": [{"pattern": "/bin/x"}]}}}"#,
    )
    .unwrap();
    assert_eq!(loaded.file.agents["main"].allowlist.len(), 2);
}

#[test]
fn socket_fields_are_trimmed_and_blank_ones_unset() {
    let loaded =
        parse(r#"{"version": 1, "socket": {"path": "  /run/x.sock ", "token": "   "}}"#).unwrap();
    assert_eq!(
        loaded.file.socket,
        Some(SocketConfig {
            path: Some("/run/x.sock".into()),
            token: None,
            require_challenge: None,
            extra: Default::default(),
        })
    );
    let loaded = parse(r#"{"version": 1, "socket": {"path": "", "token": " tok "}}"#).unwrap();
    let socket = loaded.file.socket.unwrap();
    assert_eq!(socket.path, None);
    assert_eq!(socket.token.as_ref().map(Token::expose_secret), Some("tok"));
}

#[test]
fn denylist_entries_without_any_pattern_are_dropped_with_a_warning() {
    let loaded = parse(
        r#"{"version": 1, "defaults": {"denylist": [
            {"reason": "no pattern"}, "rm", {"pattern": "  ", "commandPattern": ""},
            {"commandPattern": "rm\\s+-rf", "pattern": " "}
        ]}}"#,
    )
    .unwrap();
    let denylist = loaded.file.defaults.unwrap().denylist.unwrap();
    assert_eq!(denylist.len(), 1);
    assert_eq!(denylist[0].command_pattern.as_deref(), Some("rm\\s+-rf"));
    assert_eq!(denylist[0].pattern, None, "a blank glob is unset");
    let fields: Vec<&str> = loaded.warnings.iter().map(|w| w.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "defaults.denylist[0]",
            "defaults.denylist[1]",
            "defaults.denylist[2]",
            // An old regex is kept, with a warning: it now refuses everything.
            "defaults.denylist[3].commandPattern"
        ]
    );
}

#[test]
fn a_denylist_command_pattern_that_cannot_be_parsed_is_kept_with_a_warning() {
    let loaded = parse(
        r#"{"version": 1, "defaults": {"denylist": [{"pattern": "/ok"}, {"commandPattern": "rm ("}, {"commandPattern": "rm -rf"}]}}"#,
    )
    .unwrap();
    assert_eq!(loaded.file.defaults.unwrap().denylist.unwrap().len(), 3);
    let warnings: Vec<String> = loaded.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("defaults.denylist[1].commandPattern: cannot be parsed (")
            && warnings[0].ends_with("every command is refused until it is fixed"),
        "{warnings:?}"
    );
}

#[test]
fn a_denylist_glob_that_does_not_compile_refuses_the_file() {
    let cases: &[(&str, &str)] = &[(
        r#"{"version": 1, "agents": {"main": {"denylist": [{}, {"pattern": "/usr/bin/[x"}]}}}"#,
        "agents.main.denylist[1].pattern",
    )];
    for (text, expected_field) in cases {
        match parse(text) {
            Err(ApprovalsError::InvalidDenylistEntry { field, path, .. }) => {
                assert_eq!(field, *expected_field);
                assert_eq!(path, Path::new(ORIGIN));
            }
            other => panic!("{text}: expected InvalidDenylistEntry, got {other:?}"),
        }
    }
}

#[test]
fn invalid_json_is_an_error_with_line_and_column() {
    let text = "{\n  \"version\": 1,\n  \"agents\": {,\n}\n";
    match parse(text) {
        Err(err @ ApprovalsError::Syntax { line, column, .. }) => {
            assert_eq!((line, column), (3, 14));
            let message = err.to_string();
            assert!(
                message.starts_with("cannot parse /x/exec-approvals.json at line 3, column 14: "),
                "{message}"
            );
            assert!(message.contains("\nhint: "), "{message}");
        }
        other => panic!("expected a syntax error, got {other:?}"),
    }
}

#[test]
fn wrong_shapes_are_errors_naming_the_field_line_and_column() {
    let cases: &[(&str, &str, usize)] = &[
        ("{\n\"version\": 1,\n\"agents\": []\n}", "agents", 3),
        (
            "{\"version\": 1,\n\"defaults\": \"allowlist\"}",
            "defaults",
            2,
        ),
        (
            "{\"version\": 1,\n\"defaults\": {\"autoAllowSkills\": \"yes\"}}",
            "defaults.autoAllowSkills",
            2,
        ),
        (
            "{\"version\": 1, \"agents\": {\"main\":\n{\"allowlist\": {}}}}",
            "agents.main.allowlist",
            2,
        ),
        (
            "{\"version\": 1, \"agents\": {\"main\": {\"allowlist\":\n[{\"pattern\": \"/a\", \"lastUsedAt\": \"x\"}]}}}",
            "agents.main.allowlist",
            2,
        ),
        (
            "{\"version\": 1, \"socket\": {\"token\": 5}}",
            "socket.token",
            1,
        ),
        ("[1]", ".", 1),
    ];
    for (text, expected_field, expected_line) in cases {
        match parse(text) {
            Err(ApprovalsError::Shape {
                field, line, path, ..
            }) => {
                assert_eq!(field, *expected_field, "{text}");
                assert_eq!(line, *expected_line, "{text}");
                assert_eq!(path, Path::new(ORIGIN));
            }
            other => panic!("{text}: expected a shape error, got {other:?}"),
        }
    }
}

#[test]
fn a_version_other_than_1_is_refused() {
    for (text, found) in [
        (r#"{"version": 2}"#, "2"),
        (r#"{"version": "1"}"#, "\"1\""),
        (r#"{"version": 1.5}"#, "1.5"),
        (r#"{"agents": {}}"#, "missing"),
    ] {
        match parse(text) {
            Err(ApprovalsError::UnsupportedVersion { found: got, .. }) => {
                assert_eq!(got, found, "{text}")
            }
            other => panic!("{text}: expected UnsupportedVersion, got {other:?}"),
        }
    }
}

#[test]
fn from_value_applies_the_same_normalization() {
    let value = json!({"version": 1, "defaults": {"ask": "never"},
                       "agents": {"main": {"allowlist": ["/bin/ls", ""]}}});
    let loaded = ApprovalsFile::from_value(&value, Path::new(ORIGIN)).unwrap();
    assert_eq!(loaded.warnings.len(), 2);
    assert_eq!(loaded.file.agents["main"].allowlist[0].pattern, "/bin/ls");
    let err = ApprovalsFile::from_value(&json!({"version": 1, "agents": 3}), Path::new(ORIGIN))
        .unwrap_err();
    assert!(matches!(err, ApprovalsError::Shape { ref field, .. } if field == "agents"));
}

#[test]
fn redacted_drops_only_the_token() {
    let loaded = parse(OPENCLAW_DOCS_EXAMPLE).unwrap();
    let redacted = loaded.file.redacted();
    let socket = redacted.socket.as_ref().unwrap();
    assert!(socket.token.is_none());
    assert_eq!(
        socket.path.as_deref(),
        Some("~/.clawdbot/exec-approvals.sock")
    );
    assert!(!pretty(&redacted).contains("base64url-token"));
    assert_eq!(redacted.agents, loaded.file.agents);
}

#[test]
fn debug_output_of_a_file_never_shows_the_token() {
    let loaded = parse(OPENCLAW_DOCS_EXAMPLE).unwrap();
    let debug = format!("{:?}", loaded.file);
    assert!(!debug.contains("base64url-token"), "{debug}");
    assert!(debug.contains("<redacted>"));
}

mod properties {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Whatever the enum fields hold, the file loads (or fails for a
        /// reason other than the enum), and save/load is a fixed point.
        #[test]
        fn load_save_load_is_a_fixed_point(
            security in prop::sample::select(vec!["deny", "allowlist", "full", "yolo", ""]),
            ask in prop::sample::select(vec!["off", "on-miss", "always", "ON-MISS"]),
            patterns in prop::collection::vec("[ -~]{0,12}", 0..6),
        ) {
            let value = json!({"version": 1, "defaults": {"security": security, "ask": ask},
                               "agents": {"main": {"allowlist": patterns}}});
            let first = parse(&value.to_string()).unwrap();
            let saved = pretty(&first.file);
            let second = parse(&saved).unwrap();
            prop_assert_eq!(&second.warnings, &vec![]);
            prop_assert_eq!(pretty(&second.file), saved);
        }
    }
}

#[test]
fn socket_configs_compare_their_tokens_in_constant_time_and_in_full() {
    let with = |token: Option<&str>| SocketConfig {
        path: Some("/run/x.sock".into()),
        token: token.map(Token::new),
        require_challenge: None,
        extra: Default::default(),
    };
    assert_eq!(with(Some("tok")), with(Some("tok")));
    assert_eq!(with(None), with(None));
    for (a, b) in [
        (Some("tok"), Some("tol")),
        (Some("tok"), Some("to")),
        (Some("tok"), None),
        (None, Some("tok")),
    ] {
        assert_ne!(with(a), with(b), "{a:?} {b:?}");
    }
    let mut other_path = with(Some("tok"));
    other_path.path = None;
    assert_ne!(other_path, with(Some("tok")));
}
