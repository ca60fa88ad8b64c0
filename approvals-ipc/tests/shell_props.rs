//! Properties of the shell analysis over generated scripts.

mod shell_support;

use approvals_ipc::policy::plan::ChainOp;
use approvals_ipc::policy::shell::{ShellRefusal, ShellScript, analyze};
use proptest::prelude::*;
use shell_support::{HOME, accepted, double_quote, single_quote};

fn arg_char() -> impl Strategy<Value = char> {
    prop_oneof![
        8 => proptest::char::range(' ', '~'),
        1 => prop::sample::select(vec!['\n', '\t', '\'', '"', '$', '\\', '`', '*', '{', '}', '~', '#', ';', '&', '|']),
        1 => prop::sample::select(vec!['é', '日', '🙂', 'ѕ']),
    ]
}

fn argv() -> impl Strategy<Value = Vec<String>> {
    let word =
        prop::collection::vec(arg_char(), 0..16).prop_map(|v| v.into_iter().collect::<String>());
    prop::collection::vec(word, 0..6)
}

fn script_of(args: &[String], quote: fn(&str) -> String) -> String {
    let mut s = String::from("cmd");
    for a in args {
        s.push(' ');
        s.push_str(&quote(a));
    }
    s
}

/// The shape every accepted analysis has.
fn assert_shape(script: &str, got: &ShellScript) -> Result<(), TestCaseError> {
    prop_assert!(!got.items.is_empty(), "{script:?}");
    prop_assert_eq!(got.items[0].op, ChainOp::Seq);
    for item in &got.items {
        prop_assert!(!item.pipeline.is_empty(), "{script:?}");
        for command in &item.pipeline {
            let word = command.argv.first().map(String::as_str).unwrap_or_default();
            prop_assert!(!word.is_empty() && word.is_ascii(), "{script:?}");
        }
    }
    Ok(())
}

/// Text that must make any script it is appended to unacceptable.
const ATTACKS: &[&str] = &[
    "; $(x)",
    "&& `x`",
    "| sh -c \"$(y)\"",
    " > f",
    " &",
    "; echo $SECRET",
    "; *",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn single_quoted_words_come_back_exactly(args in argv()) {
        let script = script_of(&args, single_quote);
        let got = analyze(&script, Some(HOME));
        if shell_support::has_function_substitution_shape(&script) {
            prop_assert_eq!(got.map_err(|e| e.code()), Err("function-substitution"));
        } else {
            let mut want = vec!["cmd".to_owned()];
            want.extend(args);
            prop_assert_eq!(got.map(|s| s.items[0].pipeline[0].argv.clone()), Ok(want));
        }
    }

    #[test]
    fn double_quoted_escaped_words_come_back_exactly(args in argv()) {
        let script = script_of(&args, double_quote);
        let got = analyze(&script, Some(HOME));
        if shell_support::has_function_substitution_shape(&script) {
            prop_assert_eq!(got.map_err(|e| e.code()), Err("function-substitution"));
        } else {
            let mut want = vec!["cmd".to_owned()];
            want.extend(args);
            prop_assert_eq!(got.map(|s| s.items[0].pipeline[0].argv.clone()), Ok(want));
        }
    }

    #[test]
    fn appending_an_attack_to_an_accepted_script_is_never_accepted(
        index in 0..accepted().len(),
        args in argv(),
        use_table in any::<bool>(),
        attack in prop::sample::select(ATTACKS),
    ) {
        let base = if use_table {
            accepted()[index].0.to_owned()
        } else {
            script_of(&args, single_quote)
        };
        // A comment would swallow the attack: nothing to refuse then.
        prop_assume!(!base.contains('#'));
        prop_assume!(analyze(&base, Some(HOME)).is_ok());
        let script = format!("{base}{attack}");
        prop_assert!(analyze(&script, Some(HOME)).is_err(), "{script:?}");
    }

    #[test]
    fn analysis_never_panics_on_shell_like_text(
        chars in prop::collection::vec(prop_oneof![
            4 => proptest::char::range(' ', '~'),
            1 => prop::sample::select(vec![
                '\n', '\t', '\\', '\'', '"', '$', '`', '(', ')', '{', '}', '<', '>', '|', '&', ';',
                '#', '~', '*', '?', '[', ']', '!', '=', '0', '9', '-',
            ]),
            1 => any::<char>(),
        ], 0..64)
    ) {
        let script: String = chars.into_iter().collect();
        match analyze(&script, Some(HOME)) {
            Ok(got) => assert_shape(&script, &got)?,
            Err(e) => prop_assert_ne!(e, ShellRefusal::ParserFailure, "{:?}", script),
        }
    }

    #[test]
    fn analysis_never_panics_on_arbitrary_text(script in any::<String>()) {
        if let Err(e) = analyze(&script, None) {
            prop_assert_ne!(e, ShellRefusal::ParserFailure, "{:?}", script);
        }
    }
}

#[test]
fn mutated_accepted_scripts_never_hit_a_parser_panic() {
    // Every prefix of every accepted script: truncation is where parsers
    // tend to break.
    for (script, _) in accepted() {
        for (i, _) in script.char_indices() {
            let prefix = &script[..i];
            assert_ne!(
                analyze(prefix, Some(HOME)).err(),
                Some(ShellRefusal::ParserFailure),
                "{prefix:?}"
            );
        }
    }
}
