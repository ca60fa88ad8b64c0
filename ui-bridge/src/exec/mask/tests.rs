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
