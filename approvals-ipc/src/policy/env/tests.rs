use super::*;
use proptest::prelude::*;

fn overrides(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn host(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

const ALL_TABLES: &[(&str, &[EnvRule])] = &[
    ("BLOCKED_KEYS", BLOCKED_KEYS),
    ("BLOCKED_PREFIXES", BLOCKED_PREFIXES),
    ("OVERRIDE_ONLY_KEYS", OVERRIDE_ONLY_KEYS),
    ("OVERRIDE_ONLY_PREFIXES", OVERRIDE_ONLY_PREFIXES),
    ("INERT_KEYS", INERT_KEYS),
];

#[test]
fn tables_are_sorted_unique_upper_case_and_every_row_has_a_reason() {
    for (name, table) in ALL_TABLES {
        for pair in table.windows(2) {
            assert!(
                pair[0].name < pair[1].name,
                "{name}: {} must sort before {}",
                pair[0].name,
                pair[1].name
            );
        }
        for row in *table {
            assert!(
                !row.reason.trim().is_empty(),
                "{name}: {} has no reason",
                row.name
            );
            assert_eq!(
                row.name,
                row.name.to_ascii_uppercase(),
                "{name}: {}",
                row.name
            );
            assert!(
                is_valid_key(row.name),
                "{name}: {} is not a valid name",
                row.name
            );
        }
    }
}

#[test]
fn no_key_is_both_blocked_and_override_only_or_inert() {
    for row in OVERRIDE_ONLY_KEYS.iter().chain(INERT_KEYS) {
        assert!(
            blocked_rule(row.name).is_none(),
            "{} is also blocked",
            row.name
        );
    }
    for row in INERT_KEYS {
        assert!(
            find_rule(row.name, OVERRIDE_ONLY_KEYS, OVERRIDE_ONLY_PREFIXES).is_none(),
            "{} is inert and override-only",
            row.name
        );
    }
}

#[test]
fn no_key_row_is_shadowed_by_a_prefix_row_of_its_own_table() {
    for (keys, prefixes) in [
        (BLOCKED_KEYS, BLOCKED_PREFIXES),
        (OVERRIDE_ONLY_KEYS, OVERRIDE_ONLY_PREFIXES),
    ] {
        for row in keys {
            assert!(
                !prefixes.iter().any(|p| row.name.starts_with(p.name)),
                "{} is already covered by a prefix",
                row.name
            );
        }
    }
}

#[test]
fn refuses_each_override_with_the_right_refusal() {
    let blocked = |key: &str, reason: &'static str| EnvRefusal::Blocked {
        key: key.to_owned(),
        reason,
    };
    let override_only = |key: &str, reason: &'static str| EnvRefusal::OverrideOnly {
        key: key.to_owned(),
        reason,
    };
    let cases: Vec<(&str, &str, EnvRefusal)> = vec![
        (
            "PATH",
            "/tmp",
            EnvRefusal::PathOverride { key: "PATH".into() },
        ),
        (
            "path",
            "/tmp",
            EnvRefusal::PathOverride { key: "path".into() },
        ),
        (
            "Path",
            "/tmp",
            EnvRefusal::PathOverride { key: "Path".into() },
        ),
        (
            "LD_PRELOAD",
            "/tmp/x.so",
            blocked("LD_PRELOAD", BLOCKED_PREFIXES[3].reason),
        ),
        (
            "ld_preload",
            "/tmp/x.so",
            blocked("ld_preload", BLOCKED_PREFIXES[3].reason),
        ),
        (
            "LD_AUDIT",
            "/tmp/x.so",
            blocked("LD_AUDIT", BLOCKED_PREFIXES[3].reason),
        ),
        (
            "DYLD_INSERT_LIBRARIES",
            "x",
            blocked("DYLD_INSERT_LIBRARIES", BLOCKED_PREFIXES[1].reason),
        ),
        (
            "BASH_FUNC_ls%%",
            "() { id; }",
            EnvRefusal::InvalidKey {
                key: "BASH_FUNC_ls%%".into(),
            },
        ),
        (
            "BASH_FUNC_ls",
            "() { id; }",
            blocked("BASH_FUNC_ls", BLOCKED_PREFIXES[0].reason),
        ),
        (
            "GIT_CONFIG_COUNT",
            "1",
            blocked("GIT_CONFIG_COUNT", BLOCKED_PREFIXES[2].reason),
        ),
        (
            "NODE_OPTIONS",
            "--require /tmp/x.js",
            blocked(
                "NODE_OPTIONS",
                "node takes options from here, including --require",
            ),
        ),
        (
            "BASH_ENV",
            "/tmp/x",
            blocked("BASH_ENV", "bash sources this file before running a script"),
        ),
        (
            "PS4",
            "$(id)",
            blocked(
                "PS4",
                "bash expands this, with command substitution, when tracing",
            ),
        ),
        (
            "_JAVA_OPTIONS",
            "-javaagent:x",
            blocked(
                "_JAVA_OPTIONS",
                "the jvm adds these options, agents included",
            ),
        ),
        (
            "HOME",
            "/tmp",
            override_only(
                "HOME",
                "programs read their configuration and hooks from here",
            ),
        ),
        (
            "https_proxy",
            "http://evil",
            override_only("https_proxy", "routes network traffic through another host"),
        ),
        (
            "PAGER",
            "sh",
            override_only("PAGER", "programs run this as the pager"),
        ),
        (
            "npm_config_registry",
            "http://evil",
            override_only("npm_config_registry", OVERRIDE_ONLY_PREFIXES[3].reason),
        ),
        (
            "NPM_CONFIG_SCRIPT_SHELL",
            "/tmp/sh",
            override_only("NPM_CONFIG_SCRIPT_SHELL", OVERRIDE_ONLY_PREFIXES[3].reason),
        ),
        (
            "PIP_INDEX_URL",
            "http://evil",
            override_only("PIP_INDEX_URL", OVERRIDE_ONLY_PREFIXES[4].reason),
        ),
        (
            "CARGO_REGISTRIES_X_INDEX",
            "x",
            override_only("CARGO_REGISTRIES_X_INDEX", OVERRIDE_ONLY_PREFIXES[1].reason),
        ),
        ("1ABC", "x", EnvRefusal::InvalidKey { key: "1ABC".into() }),
        ("", "x", EnvRefusal::InvalidKey { key: String::new() }),
        ("A=B", "x", EnvRefusal::InvalidKey { key: "A=B".into() }),
        ("A-B", "x", EnvRefusal::InvalidKey { key: "A-B".into() }),
        (
            "ÄRGER",
            "x",
            EnvRefusal::InvalidKey {
                key: "ÄRGER".into(),
            },
        ),
        ("FOO", "a\0b", EnvRefusal::NulInValue { key: "FOO".into() }),
    ];
    for (key, value, expected) in cases {
        assert_eq!(
            check_overrides(&overrides(&[(key, value)])),
            Err(expected),
            "override {key}={value:?}"
        );
    }
}

#[test]
fn accepts_ordinary_overrides() {
    let ok = overrides(&[
        ("FOO", "bar"),
        ("_X1", ""),
        ("RUST_LOG", "debug"),
        ("LANG", "C.UTF-8"),
        ("CARGO_TERM_COLOR", "never"),
        ("GIT_AUTHOR_NAME", "someone"),
    ]);
    assert_eq!(check_overrides(&ok), Ok(()));
}

#[test]
fn child_env_strips_blocked_host_keys_and_keeps_the_rest() {
    let env = child_env(
        host(&[
            ("PATH", "/usr/bin:/bin"),
            ("HOME", "/home/u"),
            ("LD_PRELOAD", "/tmp/x.so"),
            ("ld_library_path", "/tmp"),
            ("NODE_OPTIONS", "--require x"),
            ("BASH_FUNC_ls%%", "() { id; }"),
            ("GIT_CONFIG_PARAMETERS", "'core.pager=sh'"),
            ("bad=key", "x"),
            ("NUL", "a\0b"),
            ("LANG", "C"),
        ]),
        &BTreeMap::new(),
    );
    assert_eq!(
        env,
        Ok(host(&[
            ("HOME", "/home/u"),
            ("LANG", "C"),
            ("PATH", "/usr/bin:/bin")
        ]))
    );
}

#[test]
fn child_env_applies_checked_overrides_over_host_values() {
    let env = child_env(
        host(&[("FOO", "host"), ("PATH", "/bin")]),
        &overrides(&[("FOO", "request"), ("BAR", "new")]),
    );
    assert_eq!(
        env,
        Ok(host(&[
            ("BAR", "new"),
            ("FOO", "request"),
            ("PATH", "/bin")
        ]))
    );
}

#[test]
fn child_env_refuses_instead_of_dropping_a_bad_override() {
    let env = child_env(
        host(&[("PATH", "/bin")]),
        &overrides(&[("FOO", "ok"), ("LD_PRELOAD", "/tmp/x.so")]),
    );
    assert!(matches!(env, Err(EnvRefusal::Blocked { ref key, .. }) if key == "LD_PRELOAD"));
}

#[test]
fn inert_assignments_are_a_short_exact_allowlist() {
    for name in [
        "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TERM", "NO_COLOR", "COLUMNS", "LINES",
    ] {
        assert!(is_inert_assignment(name), "{name} should be inert");
    }
    for name in [
        "lang",
        "LC_",
        "LC_EVIL",
        "PAGER",
        "GIT_PAGER",
        "LD_PRELOAD",
        "MAKEFLAGS",
        "npm_config_x",
        "PATH",
        "HOME",
        "EDITOR",
        "",
    ] {
        assert!(!is_inert_assignment(name), "{name} should not be inert");
    }
}

#[test]
fn refusal_messages_name_the_key_and_are_lowercase_phrases() {
    let refusal = check_overrides(&overrides(&[("LD_PRELOAD", "x")])).unwrap_err();
    let text = refusal.to_string();
    assert!(
        text.starts_with("environment override rejected (LD_PRELOAD): "),
        "{text}"
    );
    assert!(!text.ends_with('.'), "{text}");
}

proptest! {
    #[test]
    fn child_env_never_contains_a_blocked_key(
        keys in proptest::collection::vec("[A-Za-z_][A-Za-z0-9_]{0,12}", 0..20),
    ) {
        let mut pairs: Vec<(String, String)> = keys.iter().map(|k| (k.clone(), "v".to_owned())).collect();
        pairs.push(("LD_PRELOAD".into(), "x".into()));
        pairs.push(("Node_Options".into(), "x".into()));
        let env = child_env(pairs, &BTreeMap::new()).unwrap();
        for (key, _) in &env {
            prop_assert!(blocked_rule(key).is_none(), "{} leaked", key);
        }
        prop_assert!(!env.iter().any(|(k, _)| k == "LD_PRELOAD" || k == "Node_Options"));
    }

    #[test]
    fn accepted_overrides_are_never_blocked_path_or_override_only(
        key in "[A-Za-z_][A-Za-z0-9_]{0,12}",
    ) {
        let result = check_overrides(&overrides(&[(key.as_str(), "v")]));
        let sensitive = key.eq_ignore_ascii_case("PATH")
            || blocked_rule(&key).is_some()
            || find_rule(&key, OVERRIDE_ONLY_KEYS, OVERRIDE_ONLY_PREFIXES).is_some();
        prop_assert_eq!(result.is_ok(), !sensitive);
    }
}
