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

/// The reason of the row named `name` in `table`.
fn reason_of(table: &[EnvRule], name: &str) -> &'static str {
    table
        .iter()
        .find(|row| row.name == name)
        .map(|row| row.reason)
        .unwrap()
}

const ALL_TABLES: &[(&str, &[EnvRule])] = &[
    ("BLOCKED_KEYS", BLOCKED_KEYS),
    ("BLOCKED_PREFIXES", BLOCKED_PREFIXES),
    ("OVERRIDE_ONLY_KEYS", OVERRIDE_ONLY_KEYS),
    ("OVERRIDE_ONLY_PREFIXES", OVERRIDE_ONLY_PREFIXES),
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
fn the_inert_table_is_sorted_unique_valid_and_every_row_has_a_reason_and_a_syntax() {
    for pair in INERT.windows(2) {
        assert!(
            pair[0].name < pair[1].name,
            "INERT: {} must sort before {}",
            pair[0].name,
            pair[1].name
        );
    }
    for row in INERT {
        assert!(
            !row.reason.trim().is_empty(),
            "INERT: {} has no reason",
            row.name
        );
        assert!(
            !row.syntax.describe.trim().is_empty(),
            "INERT: {} has no syntax in words",
            row.name
        );
        assert!(
            is_valid_key(row.name),
            "INERT: {} is not a valid name",
            row.name
        );
        // No inert value is ever a path: `/` only where a zone name needs
        // it, and never leading.
        assert!(
            !row.syntax.accepts("/tmp/evil") && !row.syntax.accepts("../../tmp/evil"),
            "INERT: {} accepts a path",
            row.name
        );
        assert!(
            !row.syntax.accepts("$(id)")
                && !row.syntax.accepts("a b")
                && !row.syntax.accepts("x;id"),
            "INERT: {} accepts shell text",
            row.name
        );
        assert!(
            !row.syntax.accepts(&"a".repeat(MAX_INERT_VALUE + 1)),
            "INERT: {} accepts an unbounded value",
            row.name
        );
    }
}

#[test]
fn no_key_is_both_blocked_and_override_only_or_inert() {
    for row in OVERRIDE_ONLY_KEYS {
        assert!(
            blocked_rule(row.name).is_none(),
            "{} is also blocked",
            row.name
        );
    }
    for row in INERT {
        assert!(
            blocked_rule(row.name).is_none(),
            "{} is inert and blocked",
            row.name
        );
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
            blocked("LD_PRELOAD", reason_of(BLOCKED_PREFIXES, "LD_")),
        ),
        (
            "ld_preload",
            "/tmp/x.so",
            blocked("ld_preload", reason_of(BLOCKED_PREFIXES, "LD_")),
        ),
        (
            "LD_AUDIT",
            "/tmp/x.so",
            blocked("LD_AUDIT", reason_of(BLOCKED_PREFIXES, "LD_")),
        ),
        (
            "DYLD_INSERT_LIBRARIES",
            "x",
            blocked(
                "DYLD_INSERT_LIBRARIES",
                reason_of(BLOCKED_PREFIXES, "DYLD_"),
            ),
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
            blocked("BASH_FUNC_ls", reason_of(BLOCKED_PREFIXES, "BASH_FUNC_")),
        ),
        (
            "GIT_CONFIG_COUNT",
            "1",
            blocked(
                "GIT_CONFIG_COUNT",
                reason_of(BLOCKED_PREFIXES, "GIT_CONFIG_"),
            ),
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
            override_only(
                "npm_config_registry",
                reason_of(OVERRIDE_ONLY_PREFIXES, "NPM_CONFIG_"),
            ),
        ),
        (
            "NPM_CONFIG_SCRIPT_SHELL",
            "/tmp/sh",
            override_only(
                "NPM_CONFIG_SCRIPT_SHELL",
                reason_of(OVERRIDE_ONLY_PREFIXES, "NPM_CONFIG_"),
            ),
        ),
        (
            "PIP_INDEX_URL",
            "http://evil",
            override_only("PIP_INDEX_URL", reason_of(OVERRIDE_ONLY_PREFIXES, "PIP_")),
        ),
        (
            "CARGO_REGISTRIES_X_INDEX",
            "x",
            override_only(
                "CARGO_REGISTRIES_X_INDEX",
                reason_of(OVERRIDE_ONLY_PREFIXES, "CARGO_REGISTRIES_"),
            ),
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
    for (name, value) in [
        ("LANG", "C"),
        ("LANG", "POSIX"),
        ("LANG", "C.UTF-8"),
        ("LANG", "en_US.UTF-8"),
        ("LC_ALL", "en_US@euro"),
        ("LC_ALL", "sr_RS.UTF-8@latin"),
        ("LC_ALL", ""),
        ("LANGUAGE", "de_DE:en"),
        ("LC_CTYPE", "C"),
        ("TZ", "UTC"),
        ("TZ", "Europe/Berlin"),
        ("TZ", ":America/Argentina/Buenos_Aires"),
        ("TZ", "EST5EDT,M3.2.0,M11.1.0"),
        ("TZ", "<+0330>-3:30"),
        ("TERM", "xterm-256color"),
        ("TERM", "dumb"),
        ("COLORTERM", "truecolor"),
        ("NO_COLOR", "1"),
        ("FORCE_COLOR", "3"),
        ("CLICOLOR", "0"),
        ("CLICOLOR_FORCE", "1"),
        ("COLUMNS", "120"),
        ("LINES", "40"),
        ("RUST_BACKTRACE", "1"),
        ("RUST_BACKTRACE", "full"),
        ("RUST_LIB_BACKTRACE", "0"),
        ("RUST_LOG", "debug"),
        ("RUST_LOG", "my_crate=debug,hyper::client=warn"),
        ("NODE_ENV", "test"),
        ("NODE_ENV", "production"),
        ("CI", "true"),
        ("DEBUG", "express:*,-express:router"),
        ("PYTHONUNBUFFERED", "1"),
        ("PYTHONDONTWRITEBYTECODE", "1"),
        ("CARGO_TERM_COLOR", "never"),
        ("CARGO_INCREMENTAL", "0"),
        ("CARGO_TERM_VERBOSE", "true"),
        ("GIT_TERMINAL_PROMPT", "0"),
        ("HUSKY", "0"),
        ("NODE_NO_WARNINGS", "1"),
        ("RUST_MIN_STACK", "8388608"),
        ("RUST_TEST_THREADS", "1"),
    ] {
        assert_eq!(
            check_inert(name, value),
            Ok(()),
            "{name}={value} should be inert"
        );
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
        "FOO",
        "",
    ] {
        assert!(
            check_inert(name, "C").is_err(),
            "{name} should not be inert"
        );
    }
}

#[test]
fn lc_all_path_prefix_is_not_inert() {
    // glibc reads a locale name with `/` as a path to locale files it loads.
    for (name, value) in [
        ("LC_ALL", "/tmp/evil"),
        ("LANG", "../../tmp/evil"),
        ("LC_MESSAGES", "C/../../x"),
        ("LANGUAGE", "en:../../tmp/evil"),
        ("LANGUAGE", "/tmp/evil"),
        ("TZ", "/tmp/evil"),
        ("TZ", ":/etc/passwd"),
        ("TZ", "Europe/../../../tmp/evil"),
        ("TERM", "../../tmp/evil"),
        ("COLUMNS", "80x"),
        ("COLUMNS", ""),
        ("LINES", "1234567"),
        ("RUST_BACKTRACE", "yes please"),
        ("RUST_LOG", "info/secret"),
        ("NODE_ENV", "$(id)"),
        ("DEBUG", "a b"),
        ("CARGO_TERM_COLOR", "sometimes"),
        ("NODE_ENV", "a..b"),
        ("TERM", ".."),
        ("RUST_MIN_STACK", "1e9"),
        ("RUST_MIN_STACK", "1234567890123"),
        ("RUST_TEST_THREADS", "-1"),
        ("CARGO_INCREMENTAL", "/tmp/x"),
        ("HUSKY", "./hook"),
        ("GIT_TERMINAL_PROMPT", "$(id)"),
        ("NODE_NO_WARNINGS", "--require=x"),
    ] {
        assert!(
            matches!(check_inert(name, value), Err(NotInert::Value { .. })),
            "{name}={value} must not be inert"
        );
    }
}

#[test]
fn not_inert_says_why_with_the_table_reason() {
    assert_eq!(
        check_inert("TAR_OPTIONS", "--to-command=sh"),
        Err(NotInert::Listed {
            reason: find_rule("TAR_OPTIONS", BLOCKED_KEYS, &[]).unwrap().reason
        })
    );
    assert!(matches!(
        check_inert("CARGO_HOME", "/tmp/x"),
        Err(NotInert::Listed { .. })
    ));
    assert!(matches!(
        check_inert("path", "/tmp"),
        Err(NotInert::Listed { .. })
    ));
    assert_eq!(check_inert("GIT_AUTHOR_NAME", "x"), Err(NotInert::Unlisted));
    let overrides = overrides(&[("LANG", "C"), ("NODE_ENV", "test"), ("ZZZ", "1")]);
    assert_eq!(
        not_inert(&overrides),
        vec![("ZZZ", "1", NotInert::Unlisted)]
    );
}

#[test]
fn loaders_and_init_hooks_are_stripped_from_the_inherited_environment() {
    for key in [
        "OPENSSL_ENGINES",
        "EXINIT",
        "VIMINIT",
        "LUA_INIT",
        "LUA_INIT_5_4",
        "GOFLAGS",
        "BASH_XTRACEFD",
        "GIT_INDEX_FILE",
        "GIT_OBJECT_DIRECTORY",
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_COMMON_DIR",
        "TAR_OPTIONS",
        "MAKEFILES",
        "MAKEFLAGS",
        "GNUMAKEFLAGS",
        "MFLAGS",
        "RUSTC_WRAPPER",
        "LESSOPEN",
        "LESSCLOSE",
        "DOTNET_STARTUP_HOOKS",
        "JAVA_TOOL_OPTIONS",
        "_JAVA_OPTIONS",
        "JDK_JAVA_OPTIONS",
        "PERL5OPT",
        "RUBYOPT",
    ] {
        assert!(blocked_rule(key).is_some(), "{key} must be blocked");
        let env = child_env(host(&[(key, "x"), ("PATH", "/bin")]), &BTreeMap::new()).unwrap();
        assert_eq!(env, host(&[("PATH", "/bin")]), "{key} leaked");
    }
}

#[test]
fn homes_search_paths_and_config_pointers_are_kept_when_inherited_but_refused_as_overrides() {
    for key in [
        "CARGO_HOME",
        "RUSTUP_HOME",
        "RUSTUP_TOOLCHAIN",
        "RUSTFLAGS",
        "GOPATH",
        "GOENV",
        "OPENSSL_CONF",
        "MYVIMRC",
        "LUA_PATH",
        "LUA_CPATH_5_4",
        "CLASSPATH",
        "PHPRC",
        "PHP_INI_SCAN_DIR",
        "SSH_AUTH_SOCK",
        "GIT_TRACE",
        "UV_INDEX_URL",
    ] {
        let env = child_env(host(&[(key, "/x")]), &BTreeMap::new()).unwrap();
        assert_eq!(env, host(&[(key, "/x")]), "{key} must be inherited");
        assert!(
            matches!(
                check_overrides(&overrides(&[(key, "/x")])),
                Err(EnvRefusal::OverrideOnly { .. })
            ),
            "{key} must be refused as an override"
        );
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
    fn an_inert_value_is_never_a_path_or_shell_text(
        row in 0..INERT.len(),
        value in "[ -~]{0,40}",
    ) {
        let row = &INERT[row];
        if check_inert(row.name, &value).is_ok() {
            let body = value.strip_prefix(':').unwrap_or(&value);
            prop_assert!(!body.starts_with('/'), "{}={}", row.name, value);
            prop_assert!(!value.contains(".."), "{}={}", row.name, value);
            prop_assert!(
                !value.chars().any(|c| " \t$`'\"\\;&|()!{}[]~?".contains(c)),
                "{}={}",
                row.name,
                value
            );
        }
    }

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

/// The program specs list the variables their programs read that load
/// code, options or config; every one is refused as a request's override,
/// and a loader is stripped from what children inherit unless this
/// module's own tables keep the user's setup.
#[test]
fn every_variable_a_program_spec_reads_is_refused_as_an_override_and_loaders_are_stripped() {
    use crate::policy::specs::{self, EnvKind};
    let mut checked = 0;
    for spec in specs::all() {
        for var in spec.env {
            let name = var.name.replace('*', "X");
            let mut overrides = BTreeMap::new();
            overrides.insert(name.clone(), "v".to_owned());
            assert!(
                check_overrides(&overrides).is_err(),
                "{}: {name} accepted as an override",
                spec.family
            );
            assert!(check_inert(&name, "v").is_err(), "{name} is inert");
            let inherited = child_env([(name.clone(), "v".to_owned())], &BTreeMap::new())
                .expect("no overrides");
            let kept_by_env_tables = find_rule(&name, OVERRIDE_ONLY_KEYS, OVERRIDE_ONLY_PREFIXES)
                .is_some()
                && find_rule(&name, BLOCKED_KEYS, BLOCKED_PREFIXES).is_none();
            match var.kind {
                EnvKind::Blocked if !kept_by_env_tables => {
                    assert!(inherited.is_empty(), "{}: {name} inherited", spec.family);
                }
                _ => {}
            }
            checked += 1;
        }
    }
    assert!(checked > 50, "{checked}");
    // Variables only a spec knows are stripped through it.
    for name in ["TAPE", "ZIPOPT", "UNZIPOPT", "GREP_OPTIONS"] {
        assert!(
            find_rule(name, BLOCKED_KEYS, BLOCKED_PREFIXES).is_none(),
            "{name}"
        );
        let inherited =
            child_env([(name.to_owned(), "v".to_owned())], &BTreeMap::new()).expect("no overrides");
        assert!(inherited.is_empty(), "{name} inherited");
    }
}

/// `key` is stripped from what children inherit (given `value` by the
/// host) and refused as an override, as blocked.
fn assert_blocked(key: &str, value: &str) {
    assert!(blocked_rule(key).is_some(), "{key} must be blocked");
    let env = child_env(host(&[(key, value), ("PATH", "/bin")]), &BTreeMap::new()).unwrap();
    assert_eq!(env, host(&[("PATH", "/bin")]), "{key} leaked");
    assert!(
        matches!(
            check_overrides(&overrides(&[(key, value)])),
            Err(EnvRefusal::Blocked { .. })
        ),
        "{key}"
    );
}

/// `key` is kept when inherited but refused as an override.
fn assert_override_only(key: &str) {
    assert!(blocked_rule(key).is_none(), "{key} is kept when inherited");
    assert!(
        matches!(
            check_overrides(&overrides(&[(key, "/tmp/x")])),
            Err(EnvRefusal::OverrideOnly { .. })
        ),
        "{key}"
    );
}

/// Found by the H21 sweep: variables of programs in the specs that run a
/// program, load a library or read code, which children inherited and a
/// request could set; and locations a request may not move.
#[test]
fn hooks_the_sweep_found_are_stripped_and_refused() {
    for key in [
        "SSH_SK_HELPER",
        "SSH_SK_PROVIDER",
        "NODE_REPL_EXTERNAL_MODULE",
        "PYTHONBREAKPOINT",
        "PYTHONINSPECT",
    ] {
        assert_blocked(key, "x");
        assert!(check_inert(key, "1").is_err(), "{key}");
    }
    for key in [
        "NODE_REDIRECT_WARNINGS",
        "NODE_REPL_HISTORY",
        "PYTHONPYCACHEPREFIX",
    ] {
        assert_override_only(key);
    }
}

/// Found by the H26 sweep: terraform's option injector (`TF_CLI_ARGS=
/// -chdir=/elsewhere`) is stripped and refused like `GOFLAGS`; the config
/// pointers and pagers of terraform, deno and systemd's tools are kept
/// when inherited and refused as overrides, like `PAGER`.
#[test]
fn terraform_option_injectors_and_config_pointers_pagers_of_terraform_deno_and_systemd_are_refused()
{
    for key in ["TF_CLI_ARGS", "TF_CLI_ARGS_plan", "tf_cli_args_apply"] {
        assert_blocked(key, "-chdir=/x");
    }
    for key in [
        "DENO_CERT",
        "DENO_DIR",
        "SYSTEMD_LESS",
        "SYSTEMD_PAGER",
        "TERRAFORM_CONFIG",
        "TF_CLI_CONFIG_FILE",
        "TF_PLUGIN_CACHE_DIR",
    ] {
        assert_override_only(key);
        assert!(check_inert(key, "x").is_err(), "{key}");
    }
}

#[test]
fn everyday_build_and_commit_variables_are_inert_only_with_their_syntax() {
    // False refusals of the H20 sweep: cross-compiling, prompts,
    // incremental builds and BuildKit. Commit metadata (GIT_AUTHOR_NAME)
    // needs spaces, which no inert value holds: `git commit --author` is
    // the argv spelling.
    for (name, value) in [
        ("GOOS", "linux"),
        ("GOARCH", "arm64"),
        ("GIT_TERMINAL_PROMPT", "0"),
        ("CARGO_INCREMENTAL", "0"),
        ("DOCKER_BUILDKIT", "1"),
        ("COMPOSE_PROJECT_NAME", "web"),
    ] {
        assert_eq!(check_inert(name, value), Ok(()), "{name}={value}");
    }
    for (name, value) in [
        ("GOOS", "../x"),
        ("GOOS", "Linux"),
        ("GOARCH", "arm64/x"),
        ("GIT_TERMINAL_PROMPT", "$(id)"),
        ("DOCKER_BUILDKIT", "/tmp/x"),
    ] {
        assert!(check_inert(name, value).is_err(), "{name}={value}");
    }
    // Their neighbours that do run or load something stay asked.
    for name in [
        "GIT_PAGER",
        "GIT_SSH_COMMAND",
        "GOFLAGS",
        "CGO_ENABLED",
        "DOCKER_HOST",
    ] {
        assert!(check_inert(name, "0").is_err(), "{name}");
    }
}

/// Helper H28's sweep: `PORT=3000 npm start` was asked. A port is a number
/// of at most five digits; a host, a path or shell text is not one.
#[test]
fn a_port_number_is_inert_and_nothing_else_in_port_is() {
    for value in ["3000", "8080", "0", "65535"] {
        assert_eq!(check_inert("PORT", value), Ok(()), "PORT={value}");
    }
    for value in [
        "",
        "localhost:3000",
        "/tmp/sock",
        "3000;id",
        "$(id)",
        "123456",
        "0x50",
    ] {
        assert!(check_inert("PORT", value).is_err(), "PORT={value}");
    }
    // Other spellings are other variables, on no list.
    assert!(check_inert("port", "3000").is_err());
    assert!(check_inert("PORTS", "3000").is_err());
}
