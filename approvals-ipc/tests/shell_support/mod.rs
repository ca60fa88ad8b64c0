//! Helpers shared by the `shell_*` integration tests.
#![allow(dead_code)]

use approvals_ipc::policy::plan::{ChainOp, Sink};
use approvals_ipc::policy::shell::{ChainItem, GlobWord, Input, ShellScript, SimpleCommand};

/// The home directory the tests expand `~` to.
pub const HOME: &str = "/home/tester";

/// A command with default I/O and no assignments.
pub fn cmd(argv: &[&str]) -> SimpleCommand {
    SimpleCommand {
        assignments: vec![],
        argv: argv.iter().map(|s| (*s).to_owned()).collect(),
        globs: vec![],
        stdin: None,
        stdout: Sink::Stdout,
        stderr: Sink::Stderr,
    }
}

/// A chain item.
pub fn item(op: ChainOp, pipeline: Vec<SimpleCommand>) -> ChainItem {
    ChainItem { op, pipeline }
}

/// A script of one command per item, all joined by `;`.
pub fn seq(commands: Vec<SimpleCommand>) -> ShellScript {
    ShellScript {
        items: commands
            .into_iter()
            .map(|c| item(ChainOp::Seq, vec![c]))
            .collect(),
    }
}

/// `'...'` quoting that bash reads back as exactly `s`.
pub fn single_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// `"..."` quoting that bash reads back as exactly `s`.
pub fn double_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        if matches!(c, '$' | '`' | '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// Whether `script` holds `${` + blank/`|`/`\` once line continuations are
/// removed: the one place quoting does not protect text from refusal.
pub fn has_function_substitution_shape(script: &str) -> bool {
    let joined = script.replace("\\\n", "");
    ["${ ", "${\t", "${\n", "${|", "${\\"]
        .iter()
        .any(|p| joined.contains(p))
}

/// Accepted scripts with their exact analysis. Command words are kept to
/// [`SHADOWED`] names (or have assignments) so the differential test can run
/// them through bash.
pub fn accepted() -> Vec<(&'static str, ShellScript)> {
    use ChainOp::{And, Or, Seq};
    let null_out = |argv: &[&str]| SimpleCommand {
        stdout: Sink::Null,
        ..cmd(argv)
    };
    let with_stdin = |argv: &[&str], body: &str| SimpleCommand {
        stdin: Some(Input::Heredoc(body.to_owned())),
        ..cmd(argv)
    };
    let with_file = |argv: &[&str], name: &str| SimpleCommand {
        stdin: Some(Input::File(name.to_owned())),
        ..cmd(argv)
    };
    vec![
        ("ls", seq(vec![cmd(&["ls"])])),
        ("  ls  -la  ", seq(vec![cmd(&["ls", "-la"])])),
        ("ls;", seq(vec![cmd(&["ls"])])),
        (
            "git status && ls -la",
            ShellScript {
                items: vec![
                    item(Seq, vec![cmd(&["git", "status"])]),
                    item(And, vec![cmd(&["ls", "-la"])]),
                ],
            },
        ),
        (
            "make || echo failed",
            ShellScript {
                items: vec![
                    item(Seq, vec![cmd(&["make"])]),
                    item(Or, vec![cmd(&["echo", "failed"])]),
                ],
            },
        ),
        (
            "ls || echo a && echo b; echo c",
            ShellScript {
                items: vec![
                    item(Seq, vec![cmd(&["ls"])]),
                    item(Or, vec![cmd(&["echo", "a"])]),
                    item(And, vec![cmd(&["echo", "b"])]),
                    item(Seq, vec![cmd(&["echo", "c"])]),
                ],
            },
        ),
        (
            "echo a; echo b",
            seq(vec![cmd(&["echo", "a"]), cmd(&["echo", "b"])]),
        ),
        (
            "echo a\necho b\n",
            seq(vec![cmd(&["echo", "a"]), cmd(&["echo", "b"])]),
        ),
        (
            "\n\necho a\n\n\necho b",
            seq(vec![cmd(&["echo", "a"]), cmd(&["echo", "b"])]),
        ),
        (
            "ls &&\n  echo done",
            ShellScript {
                items: vec![
                    item(Seq, vec![cmd(&["ls"])]),
                    item(And, vec![cmd(&["echo", "done"])]),
                ],
            },
        ),
        (
            "ls -la | grep foo | wc -l",
            ShellScript {
                items: vec![item(
                    Seq,
                    vec![
                        cmd(&["ls", "-la"]),
                        cmd(&["grep", "foo"]),
                        cmd(&["wc", "-l"]),
                    ],
                )],
            },
        ),
        (
            "echo 'hello world' \"a b\" c\\ d '' \"\"",
            seq(vec![cmd(&["echo", "hello world", "a b", "c d", "", ""])]),
        ),
        (
            "git log --format='%H %s' -n 5",
            seq(vec![cmd(&["git", "log", "--format=%H %s", "-n", "5"])]),
        ),
        (
            "git commit -m \"fix: it's \\\"quoted\\\" \\$5\"",
            seq(vec![cmd(&[
                "git",
                "commit",
                "-m",
                "fix: it's \"quoted\" $5",
            ])]),
        ),
        ("echo 'it'\\''s'", seq(vec![cmd(&["echo", "it's"])])),
        ("echo \"ok \\$(id)\"", seq(vec![cmd(&["echo", "ok $(id)"])])),
        (
            "echo '$(id)' '`id`' '*'",
            seq(vec![cmd(&["echo", "$(id)", "`id`", "*"])]),
        ),
        (
            "echo \\* \\? \\[ '{a,b}'",
            seq(vec![cmd(&["echo", "*", "?", "[", "{a,b}"])]),
        ),
        (
            "echo \"a\\b\" 'a\\b' a\\\\b",
            seq(vec![cmd(&["echo", "a\\b", "a\\b", "a\\b"])]),
        ),
        ("ec\\\nho hi", seq(vec![cmd(&["echo", "hi"])])),
        ("echo 'a\\\nb'", seq(vec![cmd(&["echo", "a\\\nb"])])),
        ("echo \"a\\\nb\"", seq(vec![cmd(&["echo", "ab"])])),
        (
            "echo \"line1\nline2\"",
            seq(vec![cmd(&["echo", "line1\nline2"])]),
        ),
        (
            "ls # comment\necho x # more",
            seq(vec![cmd(&["ls"]), cmd(&["echo", "x"])]),
        ),
        ("echo a#b", seq(vec![cmd(&["echo", "a#b"])])),
        (
            "git diff HEAD~1 HEAD@{1} @{u}",
            seq(vec![cmd(&["git", "diff", "HEAD~1", "HEAD@{1}", "@{u}"])]),
        ),
        (
            "find . -name '*.rs' -exec grep x {} +",
            seq(vec![cmd(&[
                "find", ".", "-name", "*.rs", "-exec", "grep", "x", "{}", "+",
            ])]),
        ),
        (
            "echo héllo 日本 🙂",
            seq(vec![cmd(&["echo", "héllo", "日本", "🙂"])]),
        ),
        ("echo a=b --x=y", seq(vec![cmd(&["echo", "a=b", "--x=y"])])),
        (
            "cat ~/x ~ '~' x~ ~/",
            seq(vec![cmd(&[
                "cat",
                "/home/tester/x",
                "/home/tester",
                "~",
                "x~",
                "/home/tester/",
            ])]),
        ),
        (
            "cd /tmp && ls",
            ShellScript {
                items: vec![
                    item(Seq, vec![cmd(&["cd", "/tmp"])]),
                    item(And, vec![cmd(&["ls"])]),
                ],
            },
        ),
        // Redirections, applied like the fd table.
        (
            "ls 2>&1",
            seq(vec![SimpleCommand {
                stderr: Sink::Stdout,
                ..cmd(&["ls"])
            }]),
        ),
        // Unquoted globs are kept with their pattern, for the analysis to
        // expand where the command runs; quoted glob characters escaped.
        (
            "ls *.rs \"a*\"b? -- '[x'*",
            seq(vec![SimpleCommand {
                globs: vec![
                    GlobWord {
                        index: 1,
                        pattern: "*.rs".to_owned(),
                    },
                    GlobWord {
                        index: 2,
                        pattern: "a\\*b?".to_owned(),
                    },
                    GlobWord {
                        index: 4,
                        pattern: "\\[x*".to_owned(),
                    },
                ],
                ..cmd(&["ls", "*.rs", "a*b?", "--", "[x*"])
            }]),
        ),
        ("ls >/dev/null", seq(vec![null_out(&["ls"])])),
        ("ls 1>/dev/null", seq(vec![null_out(&["ls"])])),
        ("ls > \"/dev/null\"", seq(vec![null_out(&["ls"])])),
        (
            "ls 2>/dev/null",
            seq(vec![SimpleCommand {
                stderr: Sink::Null,
                ..cmd(&["ls"])
            }]),
        ),
        (
            "ls &>/dev/null",
            seq(vec![SimpleCommand {
                stderr: Sink::Null,
                ..null_out(&["ls"])
            }]),
        ),
        (
            "ls >/dev/null 2>&1",
            seq(vec![SimpleCommand {
                stderr: Sink::Null,
                ..null_out(&["ls"])
            }]),
        ),
        (
            "ls 2>&1 >/dev/null",
            seq(vec![SimpleCommand {
                stderr: Sink::Stdout,
                ..null_out(&["ls"])
            }]),
        ),
        (">/dev/null ls -a", seq(vec![null_out(&["ls", "-a"])])),
        (
            "ls |& grep x",
            ShellScript {
                items: vec![item(
                    Seq,
                    vec![
                        SimpleCommand {
                            stderr: Sink::Stdout,
                            ..cmd(&["ls"])
                        },
                        cmd(&["grep", "x"]),
                    ],
                )],
            },
        ),
        (
            "ls >/dev/null |& grep x",
            ShellScript {
                items: vec![item(
                    Seq,
                    vec![
                        SimpleCommand {
                            stderr: Sink::Null,
                            ..null_out(&["ls"])
                        },
                        cmd(&["grep", "x"]),
                    ],
                )],
            },
        ),
        // Heredocs.
        (
            "cat <<'EOF'\n$HOME $(id) `id` \\$ \\\nEOF",
            seq(vec![with_stdin(&["cat"], "$HOME $(id) `id` \\$ \\\n")]),
        ),
        (
            "cat <<\"EOF\"\n$X\nEOF",
            seq(vec![with_stdin(&["cat"], "$X\n")]),
        ),
        (
            "cat <<\\EOF\n$X\nEOF",
            seq(vec![with_stdin(&["cat"], "$X\n")]),
        ),
        (
            "cat <<EOF\nhello \\$HOME \\`x\\` \\\\ \\n 'q' \"q\"\nEOF",
            seq(vec![with_stdin(
                &["cat"],
                "hello $HOME `x` \\ \\n 'q' \"q\"\n",
            )]),
        ),
        (
            "cat <<EOF\nfoo\\\nbar\nEOF",
            seq(vec![with_stdin(&["cat"], "foobar\n")]),
        ),
        (
            "cat <<-EOF\n\thello\n\t\tworld\n\tEOF",
            seq(vec![with_stdin(&["cat"], "hello\nworld\n")]),
        ),
        ("cat <<EOF\nEOF", seq(vec![with_stdin(&["cat"], "")])),
        (
            "cat <<EOF | wc -l\na\nb\nEOF\necho done",
            ShellScript {
                items: vec![
                    item(
                        Seq,
                        vec![with_stdin(&["cat"], "a\nb\n"), cmd(&["wc", "-l"])],
                    ),
                    item(Seq, vec![cmd(&["echo", "done"])]),
                ],
            },
        ),
        (
            "cat <<EOF; echo after\nbody\nEOF",
            seq(vec![
                with_stdin(&["cat"], "body\n"),
                cmd(&["echo", "after"]),
            ]),
        ),
        // `< FILE` and `0< FILE`: a literal name, quotes removed, `~`
        // expanded; the policy judges the file. The differential test
        // reads these files from the package directory, where bash runs.
        (
            "wc -l < Cargo.toml",
            seq(vec![with_file(&["wc", "-l"], "Cargo.toml")]),
        ),
        (
            "sort 0<Cargo.toml",
            seq(vec![with_file(&["sort"], "Cargo.toml")]),
        ),
        (
            "cat < 'Cargo.toml'",
            seq(vec![with_file(&["cat"], "Cargo.toml")]),
        ),
        (
            "cat <\"Cargo\".toml",
            seq(vec![with_file(&["cat"], "Cargo.toml")]),
        ),
        (
            "cat < /dev/null",
            seq(vec![with_file(&["cat"], "/dev/null")]),
        ),
        (
            "<Cargo.toml cat",
            seq(vec![with_file(&["cat"], "Cargo.toml")]),
        ),
        (
            "cat < /dev/null 2>/dev/null | wc -c",
            ShellScript {
                items: vec![item(
                    Seq,
                    vec![
                        SimpleCommand {
                            stderr: Sink::Null,
                            ..with_file(&["cat"], "/dev/null")
                        },
                        cmd(&["wc", "-c"]),
                    ],
                )],
            },
        ),
        // Assignments stay literal; the policy judges the names.
        (
            "LANG=C TZ='Europe/Paris x' sort -u",
            seq(vec![SimpleCommand {
                assignments: vec![
                    ("LANG".to_owned(), "C".to_owned()),
                    ("TZ".to_owned(), "Europe/Paris x".to_owned()),
                ],
                ..cmd(&["sort", "-u"])
            }]),
        ),
        (
            "CFG=~/c make",
            seq(vec![SimpleCommand {
                assignments: vec![("CFG".to_owned(), "/home/tester/c".to_owned())],
                ..cmd(&["make"])
            }]),
        ),
        // openclaw class 17: the outer script is literal; the carried script
        // (`$0 "$@"`) is refused when the plan unwraps `sh -lc`.
        (
            "sh -lc '$0 \"$@\"' xargs sh -c id",
            seq(vec![cmd(&[
                "sh",
                "-lc",
                "$0 \"$@\"",
                "xargs",
                "sh",
                "-c",
                "id",
            ])]),
        ),
    ]
}

/// Command names the differential test replaces with recording functions.
pub const SHADOWED: &[&str] = &[
    "cat", "cd", "echo", "find", "git", "grep", "ls", "make", "sh", "sort", "wc",
];
