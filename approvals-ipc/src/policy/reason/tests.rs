use std::collections::HashSet;

use super::*;
use crate::policy::env::NotInert;
use crate::policy::shell::ShellRefusal;

fn refusals() -> Vec<Refusal> {
    vec![
        Refusal::EmptyCommand,
        Refusal::Unicode(UnicodeRefusal {
            ch: '\u{200B}',
            offset: 3,
            reason: "zero-width space",
        }),
        Refusal::Wrapper(WrapperRefusal::Semantic {
            name: "sudo".into(),
            reason: "runs the command as another user",
        }),
        Refusal::Wrapper(WrapperRefusal::Option {
            name: "env".into(),
            option: "-S".into(),
        }),
        Refusal::Wrapper(WrapperRefusal::Shell {
            name: "sh".into(),
            detail: "a script file".into(),
        }),
        Refusal::Wrapper(WrapperRefusal::TooDeep),
        Refusal::Assignment {
            name: "LD_PRELOAD".into(),
            value: "x".into(),
            why: NotInert::Unlisted,
        },
        Refusal::EnvOverride {
            name: "TAR_OPTIONS".into(),
            value: "--to-command=sh".into(),
            why: NotInert::Unlisted,
            others: Vec::new(),
        },
        Refusal::NestedShell { shell: "sh".into() },
        Refusal::ShellBuiltin {
            word: "eval".into(),
        },
        Refusal::Disguised {
            word: "./x".into(),
            real_name: "bash".into(),
        },
        Refusal::CdChain,
        Refusal::CdInPipeline,
        Refusal::CdWithoutHome,
        Refusal::CdOption { arg: "-P".into() },
        Refusal::CdOperands,
        Refusal::InputFile {
            path: "fifo".into(),
            why: "not a regular file",
        },
    ]
}

#[test]
fn every_refusal_of_our_own_has_its_own_code() {
    let codes: Vec<&str> = refusals().iter().map(Refusal::code).collect();
    let unique: HashSet<&str> = codes.iter().copied().collect();
    assert_eq!(unique.len(), codes.len(), "{codes:?}");
    for code in codes {
        assert!(
            !code.is_empty() && code.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "{code}: codes are kebab-case"
        );
    }
}

#[test]
fn a_shell_refusal_keeps_its_own_code_and_text() {
    let shell = ShellRefusal::Subshell;
    let refusal = Refusal::from(shell.clone());
    assert_eq!(refusal.code(), "subshell");
    assert_eq!(refusal.to_string(), shell.to_string());
}

#[test]
fn reasons_have_distinct_stable_codes() {
    let hit = DenyHit {
        entry: 0,
        why: "no rm".into(),
        salvaged: false,
    };
    let reasons = [
        (Reason::SecurityDeny, "security-deny"),
        (Reason::AskAlways, "ask-always"),
        (Reason::Denylist(hit), "denylist"),
        (
            Reason::DenylistUnparsable {
                pattern: "(".into(),
            },
            "denylist-unparsable",
        ),
        (Reason::NotUnderstood(Refusal::CdChain), "not-understood"),
        (Reason::ArgumentGuard(Vec::new()), "argument-guard"),
        (Reason::AllowlistMiss(Vec::new()), "allowlist-miss"),
        (
            Reason::Uncertain(Refusal::CdChain),
            "uncertain-with-denylist",
        ),
    ];
    for (reason, code) in &reasons {
        assert_eq!(reason.code(), *code);
    }
    let denylist: Vec<&str> = reasons
        .iter()
        .filter(|(r, _)| r.is_denylist())
        .map(|(_, c)| *c)
        .collect();
    assert_eq!(denylist, ["denylist", "denylist-unparsable"]);
}

#[test]
fn a_reason_serializes_as_code_detail_and_message() {
    let reason = Reason::NotUnderstood(Refusal::ShellBuiltin {
        word: "eval".into(),
    });
    assert_eq!(
        serde_json::to_value(&reason).unwrap(),
        serde_json::json!({
            "code": "not-understood",
            "detail": "builtin",
            "message": "not understood: the shell builtin `eval` is not auto-allowed",
        })
    );
    assert_eq!(
        serde_json::to_value(Reason::SecurityDeny).unwrap(),
        serde_json::json!({"code": "security-deny", "message": "security=deny"})
    );
}

#[test]
fn the_texts_people_read_name_what_decided() {
    let salvaged = DenyHit {
        entry: 2,
        why: "no rm".into(),
        salvaged: true,
    };
    assert_eq!(
        Reason::Denylist(salvaged).to_string(),
        "denylist: no rm (read from a command that was not understood)"
    );
    let misses = Reason::AllowlistMiss(vec![
        Miss::NotFound {
            word: "nope".into(),
        },
        Miss::NotAllowlisted {
            real: "/usr/bin/id".into(),
            via: None,
        },
    ]);
    assert_eq!(
        misses.to_string(),
        "allowlist-miss: nope was not found; /usr/bin/id is not in the allowlist"
    );
    // Through a link, the message names the link a person allowlisted
    // (`/usr/bin/*`) and says what to add.
    let linked = Miss::NotAllowlisted {
        real: "/usr/lib/node_modules/npm/bin/npm-cli.js".into(),
        via: Some("/usr/bin/npm".into()),
    };
    assert_eq!(
        linked.to_string(),
        "/usr/lib/node_modules/npm/bin/npm-cli.js is not in the allowlist (/usr/bin/npm leads to it through a symbolic link; allowlist entries match the real path, so add an entry for the real path)"
    );
    assert_eq!(misses.detail_code(), Some("not-found"));
    let guards = Reason::ArgumentGuard(vec![
        GuardHit {
            id: "git.config-override",
            reason: "git -c: sets config".into(),
        },
        GuardHit {
            id: "git.exec-path",
            reason: "git --exec-path: runs programs".into(),
        },
        // A spec and an older guard on the same option: said once.
        GuardHit {
            id: "git.sets-config",
            reason: "git -c: sets config".into(),
        },
    ]);
    assert_eq!(
        guards.to_string(),
        "argument guard: git -c: sets config; git --exec-path: runs programs"
    );
    assert_eq!(guards.detail_code(), Some("git.config-override"));
}

#[test]
fn a_safe_bin_miss_carries_the_profile_rule_that_refused() {
    let miss = Miss::SafeBinUsage {
        name: "sort".into(),
        refusal: SafeBinRefusal::UnknownFlag {
            flag: "--compress-program".into(),
        },
    };
    assert_eq!(miss.code(), "safe-bin-usage");
    assert_eq!(miss.detail_code(), Some("unknown-flag"));
    assert_eq!(
        serde_json::to_value(&miss).unwrap()["detail"],
        "unknown-flag"
    );
}

#[test]
fn docs_policy_md_lists_every_code() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/policy.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let hit = DenyHit {
        entry: 0,
        why: String::new(),
        salvaged: false,
    };
    let mut codes: Vec<&str> = refusals().iter().map(Refusal::code).collect();
    codes.extend(
        [
            Reason::SecurityDeny,
            Reason::AskAlways,
            Reason::Denylist(hit),
            Reason::DenylistUnparsable {
                pattern: String::new(),
            },
            Reason::NotUnderstood(Refusal::CdChain),
            Reason::ArgumentGuard(Vec::new()),
            Reason::AllowlistMiss(Vec::new()),
            Reason::Uncertain(Refusal::CdChain),
        ]
        .iter()
        .map(Reason::code),
    );
    codes.extend(
        [
            Miss::NotFound {
                word: String::new(),
            },
            Miss::NotAllowlisted {
                real: String::new(),
                via: None,
            },
            Miss::MultiCallName {
                invoked: String::new(),
                real: String::new(),
            },
            Miss::SafeBinUntrusted {
                name: String::new(),
                real: String::new(),
            },
        ]
        .iter()
        .map(Miss::code),
    );
    codes.push("safe-bin-usage");
    for code in codes {
        assert!(
            doc.contains(&format!("`{code}`")),
            "docs/policy.md does not list {code}"
        );
    }
}
