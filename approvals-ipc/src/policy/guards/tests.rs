use super::*;
use std::path::Path;

const CWD: &str = "/home/u/proj";

fn hits(cmd: &[&str], stdin: bool) -> Vec<&'static str> {
    let argv: Vec<String> = cmd.iter().map(|s| (*s).to_owned()).collect();
    let program = Path::new(cmd[0])
        .file_name()
        .and_then(|n| n.to_str())
        .expect("argv[0] has a name");
    check(program, &argv, Path::new(CWD), stdin)
        .into_iter()
        .map(|h| h.id)
        .collect()
}

#[test]
fn guarded_commands_trip_their_guard() {
    let table: &[(&[&str], bool, &str)] = &[
        // git
        (
            &["git", "-c", "core.pager=sh", "log"],
            false,
            "git.config-override",
        ),
        (
            &["git", "-ccore.pager=sh", "log"],
            false,
            "git.config-override",
        ),
        (
            &["git", "--config-env=core.pager=X", "log"],
            false,
            "git.config-env",
        ),
        (
            &["git", "--config-e", "core.pager=X", "log"],
            false,
            "git.config-env",
        ),
        (
            &["git", "fetch", "--upload-pack=sh -c id", "origin"],
            false,
            "git.remote-program",
        ),
        (
            &["git", "fetch", "--upload", "x", "origin"],
            false,
            "git.remote-program",
        ),
        (
            &["git", "push", "--receive-pack=x", "origin"],
            false,
            "git.remote-program",
        ),
        (
            &["git", "rebase", "--exec", "make", "main"],
            false,
            "git.remote-program",
        ),
        (
            &["git", "rebase", "-x", "make", "main"],
            false,
            "git.tool-command",
        ),
        (
            &["git", "clone", "-u", "x", "url"],
            false,
            "git.tool-command",
        ),
        (&["git", "grep", "-O", "foo"], false, "git.tool-command"),
        (
            &["git", "difftool", "--extcmd=x"],
            false,
            "git.tool-command",
        ),
        (
            &["git", "clone", "-c", "core.hooksPath=x", "url"],
            false,
            "git.clone-config",
        ),
        (
            &["git", "clone", "--template=/t", "url"],
            false,
            "git.clone-config",
        ),
        (&["git", "-C", "/etc", "status"], false, "git.other-repo"),
        (&["git", "-C", "..", "status"], false, "git.other-repo"),
        (&["git", "-C", "~/other", "status"], false, "git.other-repo"),
        (
            &["git", "-C", "sub/../../x", "status"],
            false,
            "git.other-repo",
        ),
        (
            &["git", "--git-dir=/tmp/r/.git", "log"],
            false,
            "git.repo-override",
        ),
        (
            &["git", "--work-tree", "/tmp", "status"],
            false,
            "git.repo-override",
        ),
        (
            &["git", "--exec-path=/tmp", "status"],
            false,
            "git.exec-path",
        ),
        (
            &["git", "config", "core.sshCommand", "sh"],
            false,
            "git.config-write",
        ),
        (
            &["git", "config", "--global", "core.pager", "x"],
            false,
            "git.config-write",
        ),
        (
            &["git", "config", "core.editor", "x"],
            false,
            "git.config-write",
        ),
        (
            &["git", "config", "core.hooksPath", "x"],
            false,
            "git.config-write",
        ),
        (
            &["git", "config", "core.fsmonitor", "x"],
            false,
            "git.config-write",
        ),
        (
            &["git", "config", "alias.x", "!sh"],
            false,
            "git.config-write",
        ),
        (
            &["git", "config", "diff.foo.command", "x"],
            false,
            "git.config-write",
        ),
        (
            &["git", "config", "filter.lfs.smudge", "x"],
            false,
            "git.config-write",
        ),
        (
            &["git", "config", "credential.helper", "x"],
            false,
            "git.config-write",
        ),
        (
            &["git", "config", "include.path", "x"],
            false,
            "git.config-write",
        ),
        (&["git", "config", "--edit"], false, "git.config-write"),
        (
            &["git", "submodule", "foreach", "id"],
            false,
            "git.run-command",
        ),
        (&["git", "bisect", "run", "x"], false, "git.run-command"),
        (
            &["git", "clone", "ext::sh -c id", "d"],
            false,
            "git.run-command",
        ),
        // find
        (&["find", ".", "-exec", "rm", "{}", ";"], false, "find.exec"),
        (&["find", ".", "-execdir", "x", "+"], false, "find.exec"),
        (&["find", ".", "-ok", "x", ";"], false, "find.exec"),
        (&["find", ".", "-okdir", "x", ";"], false, "find.exec"),
        (&["find", ".", "-delete"], false, "find.delete"),
        (
            &["find", ".", "-fprint", "/tmp/x"],
            false,
            "find.write-file",
        ),
        (&["find", ".", "-fprint0", "x"], false, "find.write-file"),
        (
            &["find", ".", "-fprintf", "x", "%p"],
            false,
            "find.write-file",
        ),
        (&["find", ".", "-fls", "x"], false, "find.write-file"),
        // sed
        (&["sed", "-i", "s/a/b/", "f"], false, "sed.in-place"),
        (&["sed", "-ni", "p", "f"], false, "sed.in-place"),
        (&["sed", "-i.bak", "s/a/b/", "f"], false, "sed.in-place"),
        (
            &["sed", "--in-place=.bak", "s/a/b/", "f"],
            false,
            "sed.in-place",
        ),
        (&["sed", "--in", "s/a/b/", "f"], false, "sed.in-place"),
        (&["gsed", "s/a/b/", "-i", "f"], false, "sed.in-place"),
        (&["sed", "-f", "script.sed"], false, "sed.script-file"),
        (&["sed", "1e id"], false, "sed.script"),
        (&["sed", "e"], false, "sed.script"),
        (&["sed", "-n", "w /tmp/out"], false, "sed.script"),
        (&["sed", "/x/W out"], false, "sed.script"),
        (&["sed", "s/a/id/e"], false, "sed.script"),
        (&["sed", "s/a/b/w out"], false, "sed.script"),
        (&["sed", "s|a|b|gw out"], false, "sed.script"),
        (&["sed", "-e", "p", "-e", "s/x/y/e"], false, "sed.script"),
        (&["sed", "--expression=1e id"], false, "sed.script"),
        (&["sed", "b end; w /tmp/x"], false, "sed.script"),
        (&["sed", "s/a/b"], false, "sed.script"),
        (&["sed", "1{w x\n}"], false, "sed.script"),
        // awk
        (&["awk", "BEGIN{system(\"id\")}"], false, "awk.program"),
        (&["gawk", "{print | \"sh\"}"], false, "awk.program"),
        (&["mawk", "BEGIN{\"id\" | getline x}"], false, "awk.program"),
        (&["awk", "{print > \"/tmp/x\"}"], false, "awk.program"),
        (
            &["awk", "{printf \"%s\", $1 >> \"f\"}"],
            false,
            "awk.program",
        ),
        (
            &["awk", "BEGIN{print ENVIRON[\"TOKEN\"]}"],
            false,
            "awk.program",
        ),
        (&["gawk", "@load \"x\"; BEGIN{}"], false, "awk.program"),
        (&["awk", "{print \"unterminated}"], false, "awk.program"),
        (
            &["busybox", "awk", "BEGIN{system(\"id\")}"],
            false,
            "awk.program",
        ),
        (&["awk", "-f", "prog.awk"], false, "awk.program-file"),
        (&["gawk", "-E", "prog.awk"], false, "awk.program-file"),
        (&["gawk", "--exec=prog.awk"], false, "awk.program-file"),
        (&["gawk", "-l", "ext"], false, "awk.load"),
        (&["gawk", "--load", "ext"], false, "awk.load"),
        (
            &["gawk", "-e", "BEGIN{system(\"id\")}"],
            false,
            "awk.program",
        ),
        (&["mawk", "-W", "exec", "f"], false, "awk.w-option"),
        (&["gawk", "-o/tmp/x", "1"], false, "awk.write-file"),
        // rg
        (&["rg", "--pre", "sh", "foo"], false, "rg.preprocessor"),
        (&["rg", "--pre=sh", "foo"], false, "rg.preprocessor"),
        // tar
        (
            &["tar", "-xf", "a.tar", "--to-command=sh"],
            false,
            "tar.to-command",
        ),
        (
            &[
                "tar",
                "--checkpoint=1",
                "--checkpoint-action=exec=id",
                "-cf",
                "x",
                ".",
            ],
            false,
            "tar.checkpoint-action",
        ),
        (
            &["tar", "-I", "sh", "-xf", "a"],
            false,
            "tar.compress-program",
        ),
        (&["tar", "-xIsh", "-f", "a"], false, "tar.compress-program"),
        (&["tar", "xIf", "sh", "a"], false, "tar.compress-program"),
        (
            &["tar", "--use-compress-prog=sh", "-xf", "a"],
            false,
            "tar.compress-program",
        ),
        (
            &["tar", "--rsh-command=/x", "-xf", "h:a"],
            false,
            "tar.rsh-command",
        ),
        (
            &["tar", "-F", "x.sh", "-cf", "a", "."],
            false,
            "tar.info-script",
        ),
        (
            &["tar", "--new-volume-script=x", "-cf", "a", "."],
            false,
            "tar.info-script",
        ),
        // xargs, npx, pagers
        (&["xargs", "rm"], false, "xargs.always"),
        (&["xargs"], false, "xargs.always"),
        (&["npx", "cowsay"], false, "npx.always"),
        (&["less", "README"], false, "pager.always"),
        (&["more", "README"], false, "pager.always"),
        (&["most", "README"], false, "pager.always"),
        (&["man", "-P", "sh -c id", "ls"], false, "man.pager"),
        (&["man", "--pager=x", "ls"], false, "man.pager"),
        (&["man", "-H", "ls"], false, "man.browser"),
        // interpreters: inline code
        (&["python3", "-c", "print(1)"], false, "python.inline-code"),
        (
            &["python3.11", "-Bc", "print(1)"],
            false,
            "python.inline-code",
        ),
        (&["python", "-cprint(1)"], false, "python.inline-code"),
        (&["node", "-e", "1"], false, "node.inline-code"),
        (&["nodejs", "--eval=1"], false, "node.inline-code"),
        (&["node", "-p", "1"], false, "node.inline-code"),
        (&["node", "--print", "1"], false, "node.inline-code"),
        (&["perl", "-e", "1"], false, "perl.inline-code"),
        (&["perl", "-ne", "print"], false, "perl.inline-code"),
        (&["perl", "-E", "say 1"], false, "perl.inline-code"),
        (&["ruby", "-e", "1"], false, "ruby.inline-code"),
        (&["php", "-r", "echo 1;"], false, "php.inline-code"),
        (&["php", "-R", "echo $argn;"], false, "php.inline-code"),
        (&["lua", "-e", "print(1)"], false, "lua.inline-code"),
        (&["Rscript", "-e", "1"], false, "rscript.inline-code"),
        (&["deno", "eval", "1"], false, "deno.eval"),
        (&["bun", "-e", "1"], false, "bun.inline-code"),
        (&["bun", "x", "cowsay"], false, "bun.package-runner"),
        (&["osascript", "-e", "beep"], false, "osascript.inline-code"),
        (&["pwsh", "-c", "id"], false, "pwsh.inline-code"),
        (&["pwsh", "-Command", "id"], false, "pwsh.inline-code"),
        (&["powershell", "-com", "id"], false, "pwsh.inline-code"),
        (
            &["pwsh", "-EncodedCommand", "aQBkAA=="],
            false,
            "pwsh.inline-code",
        ),
        (&["pwsh", "-ec", "aQBkAA=="], false, "pwsh.inline-code"),
        (&["powershell", "id"], false, "pwsh.inline-code"),
        (&["pwsh", "-File", "-"], true, "pwsh.inline-code"),
        // interpreters: code on stdin
        (&["python3"], true, "python.code-on-stdin"),
        (&["python3", "-"], true, "python.code-on-stdin"),
        (&["python3", "-u"], true, "python.code-on-stdin"),
        (&["python3", "-W", "ignore"], true, "python.code-on-stdin"),
        (&["node"], true, "node.code-on-stdin"),
        (&["node", "-"], true, "node.code-on-stdin"),
        (&["perl"], true, "perl.code-on-stdin"),
        (&["ruby"], true, "ruby.code-on-stdin"),
        (&["php"], true, "php.code-on-stdin"),
        (&["lua", "-"], true, "lua.code-on-stdin"),
        (&["Rscript", "-"], true, "rscript.code-on-stdin"),
        (&["osascript"], true, "osascript.code-on-stdin"),
        (&["awk"], true, "awk.code-on-stdin"),
        (&["deno", "run", "-"], true, "deno.stdin-script"),
        (&["bun", "run", "-"], true, "bun.stdin-script"),
        // make
        (&["make", "--eval=all:;id"], false, "make.eval"),
        (&["make", "-E", "all:;id"], false, "make.eval"),
        (&["make", "-f", "-"], true, "make.makefile-stdin"),
        (&["make", "--file=-"], true, "make.makefile-stdin"),
        (&["make", "--makefile", "-"], true, "make.makefile-stdin"),
        (&["make", "-C", "/tmp/other"], false, "make.other-dir"),
        (&["make", "--directory=../x"], false, "make.other-dir"),
        (&["make", "CC=sh -c id"], false, "make.variable-override"),
        (
            &["gmake", "test", "SHELL=/tmp/x"],
            false,
            "make.variable-override",
        ),
        // npm family
        (
            &["npm", "--script-shell=/tmp/x", "test"],
            false,
            "npm.script-shell",
        ),
        (&["npm", "exec", "cowsay"], false, "npm.exec"),
        (&["npm", "x", "cowsay"], false, "npm.exec"),
        (&["npm", "init", "vite"], false, "npm.exec"),
        (&["npm", "-C", "/tmp/p", "test"], false, "npm.other-project"),
        (
            &["npm", "--prefix", "../p", "test"],
            false,
            "npm.other-project",
        ),
        (&["pnpm", "dlx", "cowsay"], false, "pnpm.exec"),
        (&["pnpm", "exec", "x"], false, "pnpm.exec"),
        (
            &["pnpm", "-C", "/tmp/p", "test"],
            false,
            "pnpm.other-project",
        ),
        (
            &["pnpm", "--dir=/tmp/p", "test"],
            false,
            "pnpm.other-project",
        ),
        (&["yarn", "dlx", "cowsay"], false, "yarn.exec"),
        // curl
        (&["curl", "-o", "out", "https://x"], false, "curl.output"),
        (&["curl", "-sSLo", "out", "https://x"], false, "curl.output"),
        (&["curl", "--output=out", "https://x"], false, "curl.output"),
        (&["curl", "-O", "https://x/f"], false, "curl.output"),
        (
            &["curl", "--remote-name-all", "https://x/f"],
            false,
            "curl.output",
        ),
        (
            &["curl", "--output-dir", "/tmp", "https://x"],
            false,
            "curl.output",
        ),
        (&["curl", "-T", "secret", "https://x"], false, "curl.upload"),
        (
            &["curl", "--upload-file", "secret", "https://x"],
            false,
            "curl.upload",
        ),
        (&["curl", "-K", "cfg", "https://x"], false, "curl.config"),
        (&["curl", "--config", "cfg"], false, "curl.config"),
        (
            &["curl", "-d", "@secret", "https://x"],
            false,
            "curl.send-file",
        ),
        (
            &["curl", "--data-binary", "@secret", "https://x"],
            false,
            "curl.send-file",
        ),
        (
            &["curl", "--data-urlencode", "k@secret", "https://x"],
            false,
            "curl.send-file",
        ),
        (
            &["curl", "-F", "f=@secret", "https://x"],
            false,
            "curl.send-file",
        ),
        (
            &["curl", "--form", "f=<secret", "https://x"],
            false,
            "curl.send-file",
        ),
        // wget
        (&["wget", "-O", "out", "https://x"], false, "wget.output"),
        (
            &["wget", "--output-document=out", "https://x"],
            false,
            "wget.output",
        ),
        (
            &["wget", "--post-file=secret", "https://x"],
            false,
            "wget.post-file",
        ),
        (
            &["wget", "--body-file", "secret", "https://x"],
            false,
            "wget.post-file",
        ),
        (
            &["wget", "-e", "robots=off", "https://x"],
            false,
            "wget.execute",
        ),
        (&["wget", "--execute=x", "https://x"], false, "wget.execute"),
        (&["wget", "-i", "urls.txt"], false, "wget.input-file"),
        (&["wget", "--input-file=urls.txt"], false, "wget.input-file"),
    ];
    for (cmd, stdin, id) in table {
        let got = hits(cmd, *stdin);
        assert!(
            got.contains(id),
            "{cmd:?} (stdin={stdin}): want {id}, got {got:?}"
        );
    }
}

#[test]
fn plain_use_trips_no_guard() {
    let table: &[(&[&str], bool)] = &[
        (&["git", "status"], false),
        (&["git", "log", "--oneline", "-5"], false),
        (&["git", "-C", ".", "status"], false),
        (&["git", "-C", "sub/dir", "status"], false),
        (&["git", "-C", "/home/u/proj/sub", "status"], false),
        (&["git", "diff", "-C", "HEAD~1"], false),
        (&["git", "commit", "-c", "HEAD", "-m", "x"], false),
        (&["git", "config", "user.name"], false),
        (&["git", "config", "--get", "remote.origin.url"], false),
        (&["git", "push", "-u", "origin", "main"], false),
        (&["git", "fetch", "-u", "origin"], false),
        (&["git", "log", "--exclude=refs/x", "--all"], false),
        (&["make"], false),
        (&["make", "-j4", "test"], false),
        (&["make", "-C", "sub", "all"], false),
        (&["make", "-f", "Other.mk"], true),
        (&["npm", "test"], false),
        (&["npm", "run", "build"], false),
        (&["npm", "install"], false),
        (&["pnpm", "install"], false),
        (&["yarn", "build"], false),
        (&["curl", "https://example.com"], false),
        (
            &["curl", "-s", "-H", "Accept: x", "https://example.com"],
            false,
        ),
        (
            &["curl", "-XPOST", "-d", "a=1", "https://example.com"],
            false,
        ),
        (
            &["curl", "-d", "user@example.com", "https://example.com"],
            false,
        ),
        (
            &["curl", "--data-raw", "@literal", "https://example.com"],
            false,
        ),
        (&["python", "script.py"], false),
        (&["python", "script.py"], true),
        (&["python3", "script.py", "-c", "x"], false),
        (&["python", "-m", "pytest"], false),
        (&["python", "-m", "json.tool"], true),
        (&["node", "app.js", "-e"], false),
        (&["node", "app.js"], true),
        (&["perl", "script.pl"], true),
        (&["python3"], false),
        (&["find", ".", "-name", "*.rs"], false),
        (&["find", ".", "-type", "f", "-newer", "x", "-print"], false),
        (&["sed", "-n", "1,5p"], false),
        (&["sed", "-n", "1,5p"], true),
        (&["sed", "s/a/b/g"], false),
        (&["sed", "-E", "s/(a|b)/c/2;/^$/d"], false),
        (&["sed", "/start/,/end/{s/x/y/;p}"], false),
        (&["sed", "-e", "1i header", "-e", "$a footer"], false),
        (&["sed", ":a;N;$!ba;s/\\n/ /g"], false),
        (&["sed", "y/abc/xyz/"], false),
        (&["awk", "{print $1}"], false),
        (&["awk", "{print $1}"], true),
        (&["awk", "-F:", "{print $1}"], false),
        (&["awk", "$3 > 100"], false),
        (&["awk", "/a|b/ {n++} END {print n}"], false),
        (&["awk", "$1 ~ /x|y/ || $2 == \"a|b\""], false),
        (&["awk", "{print \"a > b\"}"], false),
        (&["awk", "{x = $1 / 2; print x}"], false),
        (&["tar", "-xzf", "a.tgz"], false),
        (&["tar", "xzf", "a.tgz"], false),
        (&["tar", "-czf", "a.tgz", "dir"], false),
        (&["tar", "-tf", "a.tar"], false),
        (&["rg", "foo"], false),
        (&["rg", "--pre-glob", "*.pdf", "foo"], false),
        (&["wget", "https://example.com"], false),
        (&["wget", "-q", "-nv", "https://example.com"], false),
        (&["man", "ls"], false),
        (&["ls", "-la"], true),
        (&["cat"], true),
        (&["deno", "run", "main.ts"], false),
        (&["bun", "run", "build"], false),
        (&["pwsh", "-NoProfile", "-File", "script.ps1"], false),
    ];
    for (cmd, stdin) in table {
        assert_eq!(
            hits(cmd, *stdin),
            Vec::<&str>::new(),
            "{cmd:?} (stdin={stdin})"
        );
    }
}

#[test]
fn hit_reasons_name_the_flag() {
    let argv: Vec<String> = ["git", "-c", "core.pager=sh", "log"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let got = check("git", &argv, Path::new(CWD), false);
    assert_eq!(
        got,
        vec![GuardHit {
            id: "git.config-override",
            reason: "git -c core.pager=sh: git -c sets config that can run commands".to_owned(),
        }]
    );
}

#[test]
fn relative_cwd_makes_every_directory_switch_outside() {
    let argv: Vec<String> = ["git", "-C", ".", "status"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let got = check("git", &argv, Path::new("proj"), false);
    assert_eq!(got.len(), 1, "{got:?}");
}

#[test]
fn guard_table_is_sorted_unique_and_explained() {
    let ids: Vec<&str> = table::GUARDS.iter().map(|g| g.id).collect();
    assert!(
        ids.windows(2).all(|w| w[0] < w[1]),
        "guards not sorted or not unique"
    );
    let families: Vec<&str> = table::PROGRAMS.iter().map(|p| p.family).collect();
    assert!(
        families.windows(2).all(|w| w[0] < w[1]),
        "programs not sorted or not unique"
    );
    for g in table::GUARDS {
        assert!(!g.reason.is_empty(), "{}", g.id);
        let (family, construct) = g.id.split_once('.').expect("id is family.construct");
        assert!(families.contains(&family), "{} has no program spec", g.id);
        assert!(!construct.is_empty(), "{}", g.id);
    }
    for p in table::PROGRAMS {
        assert!(
            table::guards_of(p.family).next().is_some(),
            "{} has no guard",
            p.family
        );
    }
    let keys: Vec<&str> = scripts::GIT_CONFIG_KEYS.iter().map(|(k, _)| *k).collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]));
    assert!(scripts::GIT_CONFIG_KEYS.iter().all(|(_, r)| !r.is_empty()));
}

#[test]
fn family_names_accept_versions_only_where_declared() {
    for (name, family) in [
        ("python3.11", Some("python")),
        ("pypy3", Some("python")),
        ("perl5.36", Some("perl")),
        ("gawk", Some("awk")),
        ("gsed", Some("sed")),
        ("nodejs", Some("node")),
        ("python-config", None),
        ("gitk", None),
        ("sedx", None),
        ("awk2", None),
        // The programs table's name rule: `.exe` in any case, and for
        // versioned families any case too.
        ("Python3.exe", Some("python")),
        ("python.EXE", Some("python")),
        ("rscript", Some("rscript")),
        ("Rscript4.3", Some("rscript")),
        ("git.EXE", Some("git")),
        ("Git", None),
    ] {
        assert_eq!(
            table::program_spec(name).map(|s| s.family),
            family,
            "{name}"
        );
    }
}

/// Multi-call binaries that run their first operand come from the programs
/// table, so every applet runner is looked through.
#[test]
fn applet_runners_of_the_programs_table_are_looked_through() {
    use crate::policy::programs::{Kind, PROGRAMS};
    for row in PROGRAMS.iter().filter(|p| p.is(Kind::AppletRunner)) {
        assert_eq!(
            hits(&[row.name, "python3", "-c", "1"], false),
            ["python.inline-code"],
            "{}",
            row.name
        );
    }
}

/// The guards' interpreter specs (versioned, options-first) and the awk,
/// bun, deno and pwsh families name only programs the programs table knows
/// as interpreters, so allow-always never persists one by path.
#[test]
fn guarded_interpreters_are_interpreters_in_the_programs_table() {
    use crate::policy::programs;
    for spec in table::PROGRAMS {
        if spec.versioned || matches!(spec.family, "awk" | "bun" | "deno" | "pwsh") {
            for name in spec.names {
                assert!(programs::is_interpreter(name), "{name}");
            }
        }
    }
}

/// The guard data depends only on the types it is written in, never on the
/// parser or the inspections that read it (no import cycle).
#[test]
fn the_guard_table_depends_only_on_its_types() {
    let table = include_str!("table.rs");
    let uses: Vec<&str> = table
        .lines()
        .filter(|l| l.starts_with("use super::"))
        .collect();
    assert_eq!(
        uses,
        ["use super::types::{Guard, Inspection, Layout, ProgramSpec, Trigger};"]
    );
    for code in ["scripts::", "parse::", "Invocation"] {
        assert!(!table.contains(code), "table.rs names {code}");
    }
    let types = include_str!("types.rs");
    assert!(!types.contains("use super::"), "types.rs imports its users");
}
