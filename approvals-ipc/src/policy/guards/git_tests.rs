//! False refusals of everyday git (issue 11, class 9) and the dangerous
//! neighbours that must still be guarded: `git config` reads and `git -c`
//! with inert keys pass; config writes and `-c` of any key that is not on
//! the inert list, `--config-env`, `--edit` and `--file` still fire.

use std::path::{Path, PathBuf};

use super::scripts::git;
use super::*;
use crate::approvals::ApprovalsFile;
use crate::policy::{CompiledPolicy, HostContext, Verdict};

const CWD: &str = "/home/u/proj";

/// The guard ids `git ARGS…` trips.
fn git_hits(args: &[&str]) -> Vec<&'static str> {
    let argv: Vec<String> = std::iter::once("git")
        .chain(args.iter().copied())
        .map(str::to_owned)
        .collect();
    check("git", &argv, Path::new(CWD), false)
        .into_iter()
        .map(|h| h.id)
        .collect()
}

fn passes(cases: &[&[&str]]) {
    for args in cases {
        assert_eq!(git_hits(args), Vec::<&str>::new(), "git {args:?}");
        assert_eq!(verdict(args), Verdict::Allow, "git {args:?} (policy)");
    }
}

fn fires(id: &str, cases: &[&[&str]]) {
    for args in cases {
        assert!(git_hits(args).contains(&id), "git {args:?}: {id}");
        assert_eq!(verdict(args), Verdict::Ask, "git {args:?} (policy)");
    }
}

/// Through the whole policy: git allowlisted, guards on, default safe bins.
fn verdict(args: &[&str]) -> Verdict {
    let git = ["/usr/local/bin/git", "/usr/bin/git", "/bin/git"]
        .iter()
        .find_map(|p| std::fs::canonicalize(p).ok())
        .expect("git is installed");
    let json = serde_json::json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"},
        "agents": {"main": {"allowlist": [{"pattern": git}]}}
    });
    let text = serde_json::to_vec(&json).unwrap();
    let file = ApprovalsFile::parse(&text, Path::new("test.json"))
        .unwrap()
        .file;
    let host = HostContext {
        path: Some("/usr/local/bin:/usr/bin:/bin".into()),
        home: Some(PathBuf::from("/home/test")),
        state_dirs: Vec::new(),
    };
    let policy = CompiledPolicy::compile(file.resolve(Some("main")), &host);
    let argv: Vec<String> = std::iter::once("git")
        .chain(args.iter().copied())
        .map(str::to_owned)
        .collect();
    policy
        .evaluate(&argv, Path::new("/tmp"), &Default::default())
        .decision
}

#[test]
fn git_config_get_is_read_only() {
    passes(&[
        &["config", "--get", "core.pager"],
        &["config", "--get-all", "alias.co"],
        &["config", "--get-regexp", "^alias\\."],
        &["config", "--list"],
        &["config", "-l"],
        &["config", "--list", "--show-origin"],
        &["config", "--show-origin", "--get", "core.sshCommand"],
        &["config", "--name-only", "--get-regexp", "url"],
        &["config", "--global", "--get", "user.email"],
        &["config", "-t", "bool", "--get", "core.bare"],
        &["config", "--type=bool", "core.bare"],
        &["config", "-z", "--list"],
        &["config", "--get-urlmatch", "http", "https://example.com"],
        &["config", "core.pager"],
        &["config", "get", "core.pager"],
        &["config", "get", "--all", "--show-names", "alias.co"],
        &["config", "list", "--show-origin", "--show-scope"],
    ]);
}

#[test]
fn git_config_set_of_an_inert_key_passes() {
    passes(&[
        &["config", "user.name", "Ada Lovelace"],
        &["config", "--global", "user.email", "ada@example.com"],
        &["config", "pull.rebase", "false"],
        &["config", "set", "init.defaultBranch", "main"],
        &["config", "--unset", "color.ui"],
        &["-c", "color.ui=never", "config", "--get", "core.pager"],
    ]);
}

#[test]
fn git_config_set_core_pager_is_still_guarded() {
    fires(
        "git.config-write",
        &[
            &["config", "core.pager", "less"],
            &["config", "--global", "core.pager", "sh"],
            &["config", "set", "core.pager", "sh"],
            &["config", "--add", "alias.x", "!sh"],
            &["config", "--replace-all", "core.sshCommand", "sh"],
            &["config", "--unset", "core.pager"],
            &["config", "unset", "core.pager"],
            // Stop at the first operand, as git does: this *sets* core.pager.
            &["config", "core.pager", "--get"],
            // A value option takes the next word: core.pager is the key.
            &["config", "--comment", "user.name", "core.pager", "sh"],
            &["config", "--type", "bool", "core.pager", "sh"],
            // Unknown keys are written only after a question.
            &["config", "url.ext::sh -c id.insteadOf", "https://"],
            &["config", "safe.directory", "*"],
            &["config", "remote.origin.url", "https://evil.example"],
            &["config", "protocol.ext.allow", "always"],
            // Editors, other files, sections, unread options.
            &["config", "--edit"],
            &["config", "-e"],
            &["config", "edit"],
            &["config", "--file", "/tmp/x", "--get", "a.b"],
            &["config", "-f", "x", "user.name", "y"],
            &["config", "--file=../.git/config", "--list"],
            &["config", "-lf", "/etc/x"],
            &["config", "--rename-section", "foo", "alias"],
            &["config", "rename-section", "foo", "alias"],
            &["config", "--li"],
            &["config", "user.name", "x", "--file", "y"],
        ],
    );
}

#[test]
fn git_c_color_ui_is_inert() {
    passes(&[
        &["-c", "color.ui=always", "log"],
        &["-c", "Color.UI=always", "log"],
        &["-c", "core.quotePath=false", "status"],
        &["-c", "column.ui=never", "branch"],
        &[
            "-c",
            "user.name=X",
            "-c",
            "user.email=Y",
            "commit",
            "-m",
            "x",
        ],
        &["-c", "log.showSignature=false", "log"],
        &["-c", "init.defaultBranch=main", "init"],
        &["-c", "advice.detachedHead=false", "checkout", "main"],
        &["-c", "format.pretty=%h %s", "log"],
        &["-c", "color.diff.meta=blue", "diff"],
        &["-c", "commit.gpgSign=false", "commit", "-m", "x"],
    ]);
}

#[test]
fn git_c_core_pager_is_still_guarded() {
    // argument-grammars.md section 2: keys that run a program, load config
    // or code, or write files.
    fires(
        "git.config-override",
        &[
            &["-c", "core.pager=sh", "log"],
            &["-c", "core.sshCommand=sh -c id", "fetch"],
            &["-c", "alias.st=!sh -c id", "st"],
            &["-c", "include.path=/tmp/evil", "status"],
            &["-c", "includeIf.gitdir:/.path=/tmp/evil", "status"],
            &["-c", "credential.helper=!sh", "fetch"],
            &["-c", "diff.external=sh", "diff"],
            &["-c", "diff.x.textconv=sh", "diff"],
            &["-c", "filter.lfs.smudge=sh", "checkout", "."],
            &["-c", "gpg.program=sh", "log"],
            &["-c", "gpg.ssh.defaultKeyCommand=sh", "commit"],
            &["-c", "core.hooksPath=/tmp/h", "commit"],
            &["-c", "core.fsmonitor=sh", "status"],
            &["-c", "core.editor=sh", "commit"],
            &["-c", "core.askPass=sh", "fetch"],
            &["-c", "core.alternateRefsCommand=sh", "fetch"],
            &["-c", "core.worktree=/", "status"],
            &["-c", "sequence.editor=sh", "rebase", "-i"],
            &["-c", "pager.log=sh", "log"],
            &["-c", "interactive.diffFilter=sh", "add", "-p"],
            &["-c", "sendemail.sendmailCmd=sh", "send-email"],
            &["-c", "submodule.x.update=!sh", "submodule", "update"],
            &["-c", "mergetool.x.cmd=sh", "mergetool"],
            &["-c", "url.ext::sh -c id #.insteadOf=https://", "fetch"],
            &["-c", "protocol.ext.allow=always", "fetch"],
            &["-c", "protocol.allow=always", "fetch"],
            &["-c", "trace2.eventTarget=/tmp/x", "status"],
            &["-c", "init.templateDir=/tmp/t", "init"],
            &["-c", "uploadpack.packObjectsHook=sh", "fetch"],
            &["-c", "web.browser=sh", "help", "-w", "log"],
            &["-c", "ssh.variant=simple", "fetch"],
            &["-c", "safe.directory=*", "status"],
            // An inert key beside a dangerous one.
            &["-c", "color.ui=always", "-c", "core.pager=sh", "log"],
        ],
    );
}

#[test]
fn git_c_unknown_key_is_guarded() {
    fires(
        "git.config-override",
        &[
            &["-c", "http.proxy=http://evil.example", "fetch"],
            &["-c", "http.sslVerify=false", "fetch"],
            &["-c", "remote.origin.url=/tmp/evil", "fetch"],
            &["-c", "some.future.key=x", "log"],
            // Spellings the inert list does not vouch for.
            &["-ccolor.ui=always", "log"],
            &["-c", "color.ui =x", "log"],
            &["-c", "color.=x", "log"],
            &["-c", "color=x", "log"],
            &["-c", "advice", "log"],
            &["-c", "color.ui/../x=1", "log"],
            &["-c"],
        ],
    );
}

#[test]
fn git_config_env_is_always_guarded() {
    fires(
        "git.config-env",
        &[
            &["--config-env=color.ui=TERM", "log"],
            &["--config-env", "color.ui=TERM", "log"],
        ],
    );
}

#[test]
fn inert_key_table_is_sorted_unique_lowercase_and_explained() {
    let keys: Vec<&str> = git::INERT_KEYS.iter().map(|(k, _)| *k).collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "{keys:?}");
    for (key, why) in git::INERT_KEYS {
        assert!(!why.is_empty(), "{key}");
        assert_eq!(*key, key.to_ascii_lowercase(), "{key}");
        let pattern = key.strip_suffix(".*").unwrap_or(key);
        assert!(!pattern.contains('*'), "{key}: `*` only as `name.*`");
        // No inert key is one the dangerous list explains.
        let probe = key.replace('*', "x");
        assert!(
            !scripts::GIT_CONFIG_KEYS
                .iter()
                .any(|(p, _)| scripts::key_matches(p, &probe)),
            "{key} is also a dangerous key"
        );
    }
}

/// Helper H28's sweep: `git -c diff.noprefix=true diff` was asked as a
/// config override. The diff display keys are inert; a diff key that
/// names a program (`diff.external`, `diff.DRIVER.command`, `diff.tool`)
/// or is merely unknown still fires, with `-c` and with `git config`.
#[test]
fn git_diff_display_keys_are_inert_and_diff_keys_naming_programs_fire() {
    passes(&[
        &["-c", "diff.noprefix=true", "diff"],
        &[
            "-c",
            "diff.mnemonicPrefix=true",
            "-c",
            "diff.renames=copies",
            "log",
            "-p",
        ],
        &["-c", "diff.algorithm=histogram", "show"],
        &["-c", "diff.colorMoved=zebra", "diff", "--cached"],
        &["-c", "diff.context=10", "diff"],
        &["config", "diff.noprefix", "true"],
    ]);
    fires(
        "git.config-override",
        &[
            &["-c", "diff.external=/tmp/x", "diff"],
            &["-c", "diff.x.command=sh", "diff"],
            &["-c", "diff.tool=x", "difftool"],
            &["-c", "diff.noprefix.x=1", "diff"],
            &["-c", "diff.orderFile=/tmp/x", "diff"],
        ],
    );
}
