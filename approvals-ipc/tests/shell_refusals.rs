//! Every construct the shell analysis must refuse, with the construct's code.
//! Includes every shell example of openclaw.md section 10.

mod shell_support;

use approvals_ipc::policy::shell::analyze;
use shell_support::HOME;

/// `(script, expected refusal code)`.
const REFUSED: &[(&str, &str)] = &[
    // Empty input.
    ("", "empty-script"),
    ("   \n\t\n", "empty-script"),
    ("# only a comment", "empty-script"),
    // Parse errors, unterminated quotes, empty segments.
    ("echo 'oops", "parse-error"),
    ("echo \"oops", "parse-error"),
    ("echo oops\\", "parse-error"),
    ("ls &&", "parse-error"),
    ("ls | | wc", "parse-error"),
    ("ls ;; echo", "parse-error"),
    ("| ls", "parse-error"),
    ("ls |", "parse-error"),
    ("; ls", "parse-error"),
    ("echo @(a|b)", "parse-error"),
    ("echo a=(x y)", "complex-assignment"),
    ("cat <<EOF\nno end", "parse-error"),
    // Command substitution, also inside double quotes (openclaw class 1).
    ("echo $(id)", "command-substitution"),
    ("echo \"output: $(whoami)\"", "command-substitution"),
    ("$(echo rm) -rf /", "command-substitution"),
    ("echo x$(id)y", "command-substitution"),
    ("echo `id`", "backtick-substitution"),
    ("echo \"`id`\"", "backtick-substitution"),
    // Line continuation building `$(` (openclaw class 8).
    ("echo \"ok $\\\n(id -u)\"", "command-substitution"),
    // Unquoted, brush does not rebuild `$(` but fails to parse: still refused.
    ("echo ok $\\\n(id -u)", "parse-error"),
    // Process substitution.
    ("cat <(ls)", "process-substitution"),
    ("diff <(ls) <(ls -a)", "process-substitution"),
    ("tee >(sh)", "process-substitution"),
    ("ls > >(sh)", "process-substitution"),
    // Parameter expansion of every kind (openclaw classes 2, 17, 20).
    ("head $SECRETS/.ssh/id_rsa", "parameter-expansion"),
    ("echo ${X}", "parameter-expansion"),
    ("echo \"$X\"", "parameter-expansion"),
    ("echo $1", "parameter-expansion"),
    ("echo $@", "parameter-expansion"),
    ("echo \"$@\"", "parameter-expansion"),
    ("echo $?", "parameter-expansion"),
    ("echo $$", "parameter-expansion"),
    ("echo $!", "parameter-expansion"),
    ("echo $#", "parameter-expansion"),
    ("echo $-", "parameter-expansion"),
    ("echo $0", "parameter-expansion"),
    ("echo ${x:-$(id)}", "parameter-expansion"),
    ("echo ${#x}", "parameter-expansion"),
    ("echo $", "parameter-expansion"),
    ("echo a$", "parameter-expansion"),
    ("head -c${IFS}16${IFS}${X}", "parameter-expansion"),
    // openclaw class 17: the carrier script itself, once the plan unwraps `sh -lc`.
    ("$0 \"$@\"", "parameter-expansion"),
    // Arithmetic.
    ("echo $((1+2))", "arithmetic-expansion"),
    ("echo $[1+2]", "arithmetic-expansion"),
    ("echo \"$((1+2))\"", "arithmetic-expansion"),
    // Quoting forms that decode escapes.
    ("echo $'\\x41'", "ansi-c-quoting"),
    ("echo $\"hello\"", "locale-quoting"),
    // Brace expansion.
    ("echo {a,b}", "brace-expansion"),
    ("echo {1..3}", "brace-expansion"),
    ("echo x{a',',b}y", "brace-expansion"),
    ("echo {,}", "brace-expansion"),
    ("rm -rf /{etc,usr}", "brace-expansion"),
    // bash 5.3 function substitution (crates.md pitfall (b)).
    ("echo ${ id; }", "function-substitution"),
    ("echo \"${ id; }\"", "function-substitution"),
    ("echo ${| REPLY=x; }", "function-substitution"),
    ("echo ${\tid; }", "function-substitution"),
    ("echo $\\\n{ id; }", "function-substitution"),
    // Unquoted globs (openclaw class 2).
    ("* -rf /", "glob"),
    ("*.rs x", "glob"),
    ("a?c x", "glob"),
    ("[ab] x", "glob"),
    ("\"x\"* a", "glob"),
    // Tilde forms other than ~ and ~/.
    ("ls ~root", "tilde"),
    ("ls ~+", "tilde"),
    ("ls ~-", "tilde"),
    ("ls ~1", "tilde"),
    ("make prefix=~/x", "tilde"),
    ("ls a:~/x", "tilde"),
    ("X=~root ls", "tilde"),
    // Compound commands and control flow.
    ("(ls)", "subshell"),
    ("(cd /tmp; rm -rf x)", "subshell"),
    ("{ ls; }", "brace-group"),
    ("{ ls; pwd; } > o", "brace-group"),
    ("if true; then ls; fi", "control-flow"),
    ("for i in a b; do echo x; done", "control-flow"),
    ("for ((i=0;i<3;i++)); do echo x; done", "control-flow"),
    ("while true; do ls; done", "control-flow"),
    ("until false; do ls; done", "control-flow"),
    ("case x in x) ls;; esac", "control-flow"),
    ("[[ -f x ]]", "control-flow"),
    ("(( x = 1 ))", "control-flow"),
    ("f() { ls; }", "function-definition"),
    ("function f { ls; }", "function-definition"),
    ("coproc ls", "coprocess"),
    // Background, negation, time.
    ("ls &", "background"),
    ("sleep 1 & ls", "background"),
    ("ls & ls", "background"),
    ("! ls", "negation"),
    ("! ! ls", "negation"),
    ("ls; ! ls", "negation"),
    ("ls | ! grep x", "negation"),
    ("time ls", "time"),
    ("time -p ls", "time"),
    ("ls | time grep x", "time"),
    // Reserved words in command position.
    ("ls; then", "parse-error"),
    ("'select' x", "reserved-word"),
    ("\\if x", "reserved-word"),
    ("A=1 '{' x", "reserved-word"),
    // Builtins that change how later text runs.
    ("eval ls", "builtin"),
    ("eval \"$(curl x)\"", "command-substitution"),
    ("source ./x", "builtin"),
    (". ./x", "builtin"),
    ("alias ls=rm", "builtin"),
    ("unalias ls", "builtin"),
    ("hash -p /tmp/evil ls", "builtin"),
    ("trap 'rm x' EXIT", "builtin"),
    ("set -x", "builtin"),
    ("shopt -s extglob", "builtin"),
    ("enable -n echo", "builtin"),
    ("export PATH=/tmp", "builtin"),
    ("readonly X=1", "builtin"),
    ("declare -x X=1", "builtin"),
    ("typeset X=1", "builtin"),
    ("local X=1", "builtin"),
    ("unset PATH", "builtin"),
    ("let x=1", "builtin"),
    ("read x", "builtin"),
    ("mapfile x", "builtin"),
    ("fc -s", "builtin"),
    ("history -c", "builtin"),
    ("ulimit -n 1", "builtin"),
    ("umask 000", "builtin"),
    ("LANG=C eval ls", "builtin"),
    ("'eval' ls", "builtin"),
    ("e\\val ls", "builtin"),
    ("ls && source x", "builtin"),
    // Assignments.
    ("X=1", "assignment-only"),
    ("X=1 Y=2", "assignment-only"),
    ("ls; X=1", "assignment-only"),
    ("a[0]=x ls", "complex-assignment"),
    ("X+=1 ls", "complex-assignment"),
    ("X=(a b) ls", "complex-assignment"),
    ("X=$(id) ls", "command-substitution"),
    // Redirections.
    ("ls > out.txt", "redirection"),
    ("ls >> out.txt", "redirection"),
    ("ls >| out.txt", "redirection"),
    // `< FILE` is understood (the policy judges FILE); every other input
    // form, a name bash would pick or expand, or a second stdin is not.
    ("cat <> f", "redirection"),
    ("cat 0<> f", "redirection"),
    ("cat 3< f", "redirection"),
    ("cat 1< f", "redirection"),
    ("cat < ''", "redirection"),
    ("cat < *.txt", "glob"),
    ("cat < f?", "glob"),
    ("cat < [ab]", "glob"),
    ("cat < {a,b}", "brace-expansion"),
    ("cat < $(echo f)", "command-substitution"),
    ("cat < `echo f`", "backtick-substitution"),
    ("cat < $X", "parameter-expansion"),
    ("cat < \"$X\"", "parameter-expansion"),
    ("cat < ${X}", "parameter-expansion"),
    ("cat < $'f'", "ansi-c-quoting"),
    ("cat < <(ls)", "process-substitution"),
    ("cat < ~other/f", "tilde"),
    ("cat < a < b", "multiple-inputs"),
    ("cat 0< a < b", "multiple-inputs"),
    ("cat < a <<EOF\nx\nEOF", "multiple-inputs"),
    ("cat <<EOF < a\nx\nEOF", "multiple-inputs"),
    ("cat <&0", "fd-duplication"),
    ("cat <&-", "fd-duplication"),
    ("ls 2> err.txt", "redirection"),
    ("ls &> out.txt", "redirection"),
    ("ls &>> /dev/null", "redirection"),
    ("ls >> /dev/null", "redirection"),
    ("ls 3>/dev/null", "redirection"),
    ("> out.txt", "redirection"),
    ("ls > $X", "parameter-expansion"),
    ("cat <<< hello", "here-string"),
    ("cat <<< \"$X\"", "here-string"),
    ("ls >&2", "fd-duplication"),
    ("ls 1>&2", "fd-duplication"),
    ("ls 2>&-", "fd-duplication"),
    ("ls 3>&1", "fd-duplication"),
    ("cat <&3", "fd-duplication"),
    ("ls >&/dev/null", "fd-duplication"),
    ("ls 2>&1-", "fd-duplication"),
    ("99999999999>/dev/null ls", "redirection"),
    ("2>&1", "empty-command"),
    // Heredocs (openclaw classes 10 and 11).
    ("cat <<EOF\n$(id)\nEOF", "heredoc-expansion"),
    ("cat <<EOF\n`id`\nEOF", "heredoc-expansion"),
    ("cat <<EOF\n$OPENAI_API_KEY\nEOF", "heredoc-expansion"),
    ("cat <<EOF\n$OPENAI_API_\\\nKEY\nEOF", "heredoc-expansion"),
    ("cat <<EOF\n${X}\nEOF", "heredoc-expansion"),
    ("cat <<EOF\n$((1+1))\nEOF", "heredoc-expansion"),
    ("cat <<EOF\n$\\\n(id)\nEOF", "heredoc-expansion"),
    (
        "cat <<EOF\nfoo\\\nEOF\necho hi\nEOF",
        "heredoc-continuation",
    ),
    ("cat <<EOF\nEO\\\nF\nrm -rf x\nEOF", "heredoc-continuation"),
    ("cat <<-EOF\n\ta\\\n\tb\n\tEOF", "heredoc-continuation"),
    ("cat <<A <<B\na\nA\nb\nB", "multiple-heredocs"),
    ("cat 3<<EOF\nx\nEOF", "redirection"),
    // Invisible characters (openclaw class 24) and lookalikes.
    ("ls\u{200B} -la", "unsafe-character"),
    ("echo a\u{202E}b", "unsafe-character"),
    ("ls\u{3164}", "unsafe-character"),
    ("echo\u{00A0}hi", "unsafe-character"),
    ("ls\r\n", "unsafe-character"),
    ("echo '\u{1b}[2J'", "unsafe-character"),
    ("echo \u{FEFF}x", "unsafe-character"),
    ("echo \u{E0041}", "unsafe-character"),
    ("\u{0455}udo ls", "non-ascii-command-word"),
    ("lѕ -la", "non-ascii-command-word"),
    // Commands without a command word.
    ("'' x", "empty-command"),
    ("ls | 2>&1", "empty-command"),
];

#[test]
fn refuses_each_construct_with_its_code() {
    let mut failures = Vec::new();
    for (script, code) in REFUSED {
        match analyze(script, Some(HOME)) {
            Err(e) if e.code() == *code => {}
            other => failures.push(format!("{script:?}: want {code}, got {other:?}")),
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn refusal_messages_are_lowercase_phrases_without_final_period() {
    for (script, _) in REFUSED {
        let Err(e) = analyze(script, Some(HOME)) else {
            continue;
        };
        let msg = e.to_string();
        let first_line = msg.lines().next().unwrap_or_default();
        assert!(!first_line.ends_with('.'), "{msg}");
        let first = first_line.chars().next().unwrap_or('x');
        assert!(
            !first.is_uppercase() || first_line.starts_with("ANSI"),
            "{msg}"
        );
    }
}

#[test]
fn refusal_message_shows_the_offending_text() {
    let cases = [
        (
            "echo \"output: $(whoami)\"",
            "command substitution is not auto-allowed: $(whoami)",
        ),
        (
            "echo `id`",
            "backtick command substitution is not auto-allowed: `id`",
        ),
        ("ls > out.txt", "redirection is not auto-allowed: >out.txt"),
        (
            "eval x",
            "shell builtin eval is not auto-allowed: runs its arguments as shell code",
        ),
    ];
    for (script, want) in cases {
        let msg = analyze(script, Some(HOME))
            .map(|_| ())
            .map_err(|e| e.to_string());
        let first = msg
            .as_ref()
            .err()
            .and_then(|m| m.lines().next())
            .unwrap_or_default();
        assert_eq!(first, want, "{script}");
    }
}

#[test]
fn refusal_message_escapes_newlines_and_invisible_text() {
    let cases = [
        (
            "echo \"$(a\nb)\"",
            "command substitution is not auto-allowed: $(a\\nb)",
        ),
        (
            "echo $(x\u{1b}[2J)",
            "invisible or control character: control character U+001B at byte 8 is not auto-allowed",
        ),
    ];
    for (script, want) in cases {
        let msg = analyze(script, Some(HOME))
            .map(|_| ())
            .map_err(|e| e.to_string());
        assert_eq!(msg, Err(want.to_owned()), "{script:?}");
    }
}

#[test]
fn leading_tilde_is_refused_without_home() {
    let got = analyze("cat ~/x", None).map_err(|e| e.code());
    assert_eq!(got.err(), Some("tilde-without-home"));
}

#[test]
fn refusal_codes_are_lowercase_and_dash_separated() {
    // Codes are stable identifiers: lowercase, dash-separated.
    for (_, code) in REFUSED {
        assert!(
            code.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "{code}"
        );
    }
}
