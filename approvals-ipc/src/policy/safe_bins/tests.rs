use super::*;
use proptest::prelude::*;

fn argv(s: &[&str]) -> Vec<String> {
    s.iter().map(|a| (*a).to_owned()).collect()
}

fn usage(bin: &str, args: &[&str]) -> Result<(), &'static str> {
    let profile = builtin_profile(bin).expect("bin has a built-in profile");
    check_usage(bin, &profile, &argv(args)).map_err(|r| r.code())
}

const OK: Result<(), &str> = Ok(());

#[test]
fn ordinary_filter_use_passes_and_abuse_is_refused() {
    let table: &[(&str, &[&str], Result<(), &str>)] = &[
        // Ordinary use.
        ("head", &["-n", "5"], OK),
        ("head", &["-5"], OK),
        ("head", &["-n5"], OK),
        ("head", &["--lines=5"], OK),
        ("head", &["--li", "5"], OK),
        ("head", &["-c", "100", "-q"], OK),
        ("head", &["-n", "-5"], OK),
        ("head", &[], OK),
        ("tail", &["-n", "+2"], OK),
        ("tail", &["-c", "100"], OK),
        ("tail", &["-20"], OK),
        ("wc", &["-l"], OK),
        ("wc", &["-lw"], OK),
        ("cut", &["-d:", "-f1"], OK),
        ("cut", &["-d", ",", "-f", "2-3"], OK),
        ("cut", &["--delimiter=:", "--fields=1,3"], OK),
        ("tr", &["a-z", "A-Z"], OK),
        ("tr", &["-d", "\\r"], OK),
        ("tr", &["-s", " "], OK),
        ("tr", &["-d", "--", "-x"], OK),
        ("uniq", &["-c"], OK),
        ("uniq", &["-2"], OK),
        ("uniq", &["-f", "1", "-i"], OK),
        ("sort", &["-rn"], OK),
        ("sort", &["-k2,2", "-t,"], OK),
        ("sort", &["-u", "--key=1", "--field-separator", ":"], OK),
        ("grep", &["-i", "-e", "foo"], OK),
        ("grep", &["-ie", "foo"], OK),
        ("grep", &["-v", "--regexp=bar", "-c"], OK),
        ("grep", &["-3", "-e", "x"], OK),
        ("jq", &[".name"], OK),
        ("jq", &["-r", ".[] | .id"], OK),
        ("jq", &["-c", "{a: .b}"], OK),
        ("jq", &["."], OK),
        ("jq", &["--arg", "k", "v", ".[$k]"], OK),
        ("jq", &["-n", "1 + 2"], OK),
        // Operands are files.
        ("head", &["secret.txt"], Err("too-many-positionals")),
        ("head", &["-n", "5", "notes"], Err("too-many-positionals")),
        ("wc", &["-l", "--", "-l"], Err("too-many-positionals")),
        ("tail", &["+2"], Err("too-many-positionals")),
        ("tr", &[], Err("too-few-positionals")),
        ("tr", &["a", "b", "c"], Err("too-many-positionals")),
        ("jq", &[".", "data.json"], Err("too-many-positionals")),
        ("head", &["-"], Err("too-many-positionals")),
        // Path-like operands.
        ("tr", &["/etc/passwd"], Err("path-like")),
        ("tr", &["./x", "y"], Err("path-like")),
        ("tr", &["../x", "y"], Err("path-like")),
        ("tr", &["~/x", "y"], Err("path-like")),
        ("tr", &["a", "C:\\x"], Err("path-like")),
        ("tr", &["\\\\host\\share", "y"], Err("path-like")),
        // Glob and expansion characters, also in flag values (class 2, 20).
        (
            "head",
            &["-c${IFS}16${IFS}${OPENCLAW_CONFIG_PATH}"],
            Err("glob-or-expansion"),
        ),
        ("head", &["-n", "$N"], Err("glob-or-expansion")),
        ("head", &["--lines=`id`"], Err("glob-or-expansion")),
        ("tail", &["*"], Err("glob-or-expansion")),
        ("tr", &["[:lower:]", "[:upper:]"], OK),
        ("tr", &["a?", "b"], OK),
        ("tr", &["$HOME", "x"], Err("glob-or-expansion")),
        ("tr", &["a`id`", "x"], Err("glob-or-expansion")),
        ("cut", &["-d", "{", "-f1"], Err("glob-or-expansion")),
        ("grep", &["-e", "a.*b"], OK),
        ("grep", &["-e", "${IFS}"], Err("glob-or-expansion")),
        ("grep", &["-C$N", "-e", "x"], Err("glob-or-expansion")),
        (
            "grep",
            &["--context=$N", "-e", "x"],
            Err("glob-or-expansion"),
        ),
        ("grep", &["-i*", "x"], Err("glob-or-expansion")),
        (
            "jq",
            &["--arg", "k", "$HOME", "."],
            Err("glob-or-expansion"),
        ),
        // Denied flags, any spelling (classes 5 and 6).
        ("sort", &["-o", "/etc/x"], Err("denied-flag")),
        ("sort", &["-ro", "x"], Err("denied-flag")),
        ("sort", &["--output=x"], Err("denied-flag")),
        ("sort", &["--compress-prog=sh"], Err("denied-flag")),
        ("sort", &["--compress-program", "sh"], Err("denied-flag")),
        ("sort", &["--files0-from=list"], Err("denied-flag")),
        ("sort", &["--random-source=f"], Err("denied-flag")),
        ("sort", &["-T", "d"], Err("denied-flag")),
        ("sort", &["--temp=d"], Err("denied-flag")),
        ("grep", &["-r", "-e", "secret"], Err("denied-flag")),
        ("grep", &["-Re", "secret"], Err("denied-flag")),
        ("grep", &["--recursive"], Err("denied-flag")),
        ("grep", &["--rec"], Err("denied-flag")),
        ("grep", &["-f", "patterns"], Err("denied-flag")),
        ("grep", &["--file=patterns"], Err("denied-flag")),
        ("grep", &["-d", "recurse"], Err("denied-flag")),
        ("grep", &["--directories=recurse"], Err("denied-flag")),
        ("grep", &["--exclude-from=f"], Err("denied-flag")),
        ("wc", &["--files0-from=list"], Err("denied-flag")),
        ("wc", &["--files0=list"], Err("denied-flag")),
        ("tail", &["-f"], Err("denied-flag")),
        ("tail", &["-F"], Err("denied-flag")),
        ("tail", &["--follow"], Err("denied-flag")),
        ("tail", &["--fo"], Err("denied-flag")),
        ("tail", &["-nf"], OK), // -n takes "f" as its value; tail then fails on it
        ("jq", &["-f", "prog.jq"], Err("denied-flag")),
        ("jq", &["--from-file", "prog.jq"], Err("denied-flag")),
        ("jq", &["-L", "lib", "."], Err("denied-flag")),
        ("jq", &["--rawfile", "a", "f", "."], Err("denied-flag")),
        ("jq", &["--slurpfile", "a", "f", "."], Err("denied-flag")),
        ("jq", &["--argfile", "a", "f", "."], Err("denied-flag")),
        ("jq", &[".", "--args", "x"], Err("denied-flag")),
        ("jq", &["--jsonargs", "."], Err("denied-flag")),
        // Unknown, ambiguous, misused flags.
        ("head", &["--ver"], Err("ambiguous-flag")),
        ("head", &["--nope"], Err("unknown-flag")),
        ("head", &["-x"], Err("unknown-flag")),
        ("head", &["-5x"], Err("unknown-flag")),
        ("wc", &["-5"], Err("unknown-flag")),
        ("cut", &["-2"], Err("unknown-flag")),
        ("tr", &["-Z", "a"], Err("unknown-flag")),
        ("wc", &["--lines=3"], Err("unexpected-value")),
        ("head", &["-n"], Err("missing-value")),
        ("jq", &["--arg", "k"], Err("missing-value")),
        ("jq", &["--arg=k", "v", "."], Err("unexpected-value")),
        // The jq gate (class 19).
        ("jq", &["-n", "env"], Err("jq-filter")),
        ("jq", &["$ENV.KEY"], Err("jq-filter")),
        ("jq", &[".env"], Err("jq-filter")),
        ("jq", &["\"env\""], Err("jq-filter")),
        ("jq", &["input"], Err("jq-filter")),
        ("jq", &["[inputs]"], Err("jq-filter")),
        ("jq", &["input_filename"], Err("jq-filter")),
        ("jq", &["import \"a\" as a; ."], Err("jq-filter")),
        ("jq", &["include \"a\"; ."], Err("jq-filter")),
        ("jq", &["debug"], Err("jq-filter")),
        ("jq", &["stderr"], Err("jq-filter")),
        ("jq", &["$__loc__"], Err("jq-filter")),
        ("jq", &["modulemeta"], Err("jq-filter")),
        ("jq", &["`id`"], Err("jq-filter")),
        ("jq", &[".environment"], OK),
    ];
    for (bin, args, want) in table {
        assert_eq!(usage(bin, args), *want, "{bin} {args:?}");
    }
}

#[test]
fn denied_flags_are_refused_under_every_unique_abbreviation() {
    for b in profiles::BUILTINS {
        let profile = builtin_profile(b.bin).expect("built-in");
        let longs: Vec<&str> = b
            .flags
            .iter()
            .chain(b.value_flags)
            .copied()
            .chain(b.denied.iter().map(|d| d.flag))
            .filter_map(|f| f.strip_prefix("--"))
            .collect();
        for d in b.denied.iter().filter_map(|d| d.flag.strip_prefix("--")) {
            for len in 1..=d.len() {
                let prefix = &d[..len];
                let unique = longs.iter().filter(|n| n.starts_with(prefix)).count() == 1;
                let exact = longs.contains(&prefix);
                if !(unique || exact) || (exact && prefix != d) {
                    continue;
                }
                for arg in [format!("--{prefix}"), format!("--{prefix}=x")] {
                    let got = check_usage(b.bin, &profile, &[arg.clone(), "x".into()]);
                    assert!(
                        matches!(got, Err(SafeBinRefusal::DeniedFlag { .. })),
                        "{} {arg}: {got:?}",
                        b.bin
                    );
                }
            }
        }
    }
}

#[test]
fn short_denied_letters_are_refused_anywhere_in_a_cluster() {
    for b in profiles::BUILTINS {
        let profile = builtin_profile(b.bin).expect("built-in");
        for d in b.denied.iter().filter(|d| !d.flag.starts_with("--")) {
            let letter = &d.flag[1..];
            // Put it behind every plain short flag.
            for plain in b.flags.iter().filter(|f| !f.starts_with("--")) {
                let arg = format!("{plain}{letter}");
                let got = check_usage(b.bin, &profile, std::slice::from_ref(&arg));
                assert!(
                    matches!(got, Err(SafeBinRefusal::DeniedFlag { .. })),
                    "{} {arg}: {got:?}",
                    b.bin
                );
            }
        }
    }
}

#[test]
fn custom_profile_cannot_reallow_a_builtin_denied_flag() {
    let v = serde_json::json!({"maxPositional": 0, "allowedValueFlags": ["-o", "--output"]});
    let profile = profile_from_json("sort", &v).expect("valid profile");
    let got = check_usage("sort", &profile, &argv(&["-o", "x"]));
    assert!(
        matches!(got, Err(SafeBinRefusal::DeniedFlag { .. })),
        "{got:?}"
    );
    let got = check_usage("sort", &profile, &argv(&["--out=x"]));
    assert!(
        matches!(got, Err(SafeBinRefusal::DeniedFlag { .. })),
        "{got:?}"
    );
}

#[test]
fn custom_profile_parses_and_applies() {
    let v = serde_json::json!({"minPositional": 0, "maxPositional": 1, "allowedFlags": ["-x"]});
    let profile = profile_from_json("mytool", &v).expect("valid profile");
    assert_eq!(
        profile,
        SafeBinProfile {
            min_positional: 0,
            max_positional: 1,
            allowed_flags: vec!["-x".into()],
            allowed_value_flags: vec![],
            denied_flags: vec![],
        }
    );
    assert_eq!(
        check_usage("mytool", &profile, &argv(&["-x", "word"])),
        Ok(())
    );
    assert!(check_usage("mytool", &profile, &argv(&["-y"])).is_err());
}

#[test]
fn malformed_custom_profiles_are_rejected() {
    let cases: &[(&str, serde_json::Value)] = &[
        ("t", serde_json::json!({"maxPositional": 1, "bogus": true})),
        ("t", serde_json::json!({"maxPositional": "one"})),
        ("t", serde_json::json!({"allowedFlags": ["x"]})),
        ("t", serde_json::json!({"allowedFlags": ["-xy"]})),
        ("t", serde_json::json!({"allowedFlags": ["--a=b"]})),
        ("t", serde_json::json!({"allowedFlags": ["---a"]})),
        (
            "t",
            serde_json::json!({"allowedFlags": ["-x"], "deniedFlags": ["-x"]}),
        ),
        (
            "t",
            serde_json::json!({"minPositional": 2, "maxPositional": 1}),
        ),
        ("t", serde_json::json!({"maxPositional": 1000})),
        ("a/b", serde_json::json!({})),
        ("", serde_json::json!({})),
    ];
    for (bin, v) in cases {
        assert!(profile_from_json(bin, v).is_err(), "{bin} {v}");
    }
}

#[test]
fn a_missing_list_defaults_to_empty() {
    let profile = profile_from_json("t", &serde_json::json!({})).expect("valid");
    assert_eq!(profile, SafeBinProfile::default());
}

#[test]
fn bins_without_a_profile_have_none() {
    for bin in ["cat", "awk", "sed", "sh", "python3", "xargs", "HEAD"] {
        assert_eq!(builtin_profile(bin), None, "{bin}");
    }
    for bin in DEFAULT_SAFE_BINS {
        assert!(builtin_profile(bin).is_some(), "{bin}");
    }
}

#[test]
fn builtin_tables_are_sorted_unique_and_explained() {
    let bins: Vec<&str> = profiles::BUILTINS.iter().map(|b| b.bin).collect();
    let mut sorted = bins.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(bins, sorted);
    for b in profiles::BUILTINS {
        assert!(!b.reason.is_empty(), "{}", b.bin);
        assert!(b.min_positional <= b.max_positional, "{}", b.bin);
        let mut all: Vec<&str> = b.flags.to_vec();
        all.extend(b.value_flags);
        all.extend(b.denied.iter().map(|d| d.flag));
        for list in [b.flags, b.value_flags] {
            assert!(
                list.windows(2).all(|w| w[0] < w[1]),
                "{} unsorted: {list:?}",
                b.bin
            );
        }
        assert!(
            b.denied.windows(2).all(|w| w[0].flag < w[1].flag),
            "{}",
            b.bin
        );
        assert!(b.denied.iter().all(|d| !d.reason.is_empty()), "{}", b.bin);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n, "{} lists a flag twice", b.bin);
        assert!(all.iter().all(|f| well_formed_flag(f)), "{}", b.bin);
    }
    // The pattern and set tables: sorted, explained, about profiled bins,
    // naming only flags the profile knows.
    let knows = |bin: &str, flag: &str| {
        let b = profiles::builtin(bin).expect("a built-in bin");
        b.flags.iter().chain(b.value_flags).any(|f| *f == flag)
            || b.denied.iter().any(|d| d.flag == flag)
    };
    for (bin, flags, why) in profiles::PATTERN_OPERAND {
        assert!(!why.is_empty() && flags.windows(2).all(|w| w[0] < w[1]));
        assert!(flags.iter().all(|f| knows(bin, f)), "{bin}");
    }
    assert!(
        profiles::PATTERN_VALUE_FLAGS
            .windows(2)
            .all(|w| (w[0].0, w[0].1) < (w[1].0, w[1].1))
    );
    for (bin, flag, why) in profiles::PATTERN_VALUE_FLAGS {
        assert!(!why.is_empty() && knows(bin, flag), "{bin} {flag}");
    }
    for (bin, why) in profiles::SET_OPERANDS {
        assert!(!why.is_empty() && profiles::builtin(bin).is_some(), "{bin}");
    }
    let names: Vec<&str> = jq::DENIED_IDENTS.iter().map(|(n, _)| *n).collect();
    assert!(names.windows(2).all(|w| w[0] < w[1]));
    assert!(jq::DENIED_IDENTS.iter().all(|(_, r)| !r.is_empty()));
    assert!(
        profiles::NUMERIC_SHORTHAND
            .windows(2)
            .all(|w| w[0].0 < w[1].0)
    );
}

#[test]
fn trusted_dirs_keep_defaults_and_drop_writable_or_user_dirs() {
    let extra: Vec<String> = [
        "relative/bin",
        "/usr/local/bin",
        "/snap/bin",
        "/home/u/bin",
        "/Users/u/bin",
        "/opt/x/.nvm/versions/bin",
        "/opt/x/.local/bin",
        "/tmp",
        "/tmp/bin",
        "/usr/bin/../../tmp",
        "/",
        "/nonexistent-trusted-dir-for-test",
        "/usr/sbin",
        "/usr/bin",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    let (dirs, warnings) = trusted_dirs(&extra);
    let want: Vec<std::path::PathBuf> = ["/bin", "/usr/bin", "/usr/sbin"]
        .iter()
        .map(std::path::PathBuf::from)
        .collect();
    assert_eq!(dirs, want);
    assert_eq!(warnings.len(), 12, "{warnings:#?}");
}

#[test]
fn in_trusted_dir_requires_the_exact_parent() {
    let dirs = vec![std::path::PathBuf::from("/usr/bin")];
    assert!(in_trusted_dir(std::path::Path::new("/usr/bin/head"), &dirs));
    assert!(!in_trusted_dir(
        std::path::Path::new("/usr/bin/x/head"),
        &dirs
    ));
    assert!(!in_trusted_dir(
        std::path::Path::new("/usr/local/bin/head"),
        &dirs
    ));
}

fn assert_usage(table: &[(&str, &[&str], Result<(), &str>)]) {
    for (bin, args, want) in table {
        assert_eq!(usage(bin, args), *want, "{bin} {args:?}");
    }
}

#[test]
fn grep_pattern_operand_is_not_a_file() {
    assert_usage(&[
        ("grep", &["-i", "foo"], OK),
        ("grep", &["foo"], OK),
        ("grep", &["-v", "-c", "^#"], OK),
        ("grep", &["-E", "error|warn"], OK),
        ("grep", &["--", "-foo"], OK),
        ("grep", &["-e", "a", "-e", "b"], OK),
        ("grep", &["-ie", "a", "--regexp=b"], OK),
        ("grep", &["-iE", "/usr/bin"], OK),
    ]);
}

#[test]
fn grep_with_a_file_operand_still_reads_a_file() {
    assert_usage(&[
        ("grep", &["foo", "file.txt"], Err("too-many-positionals")),
        ("grep", &["-i", "foo", "-"], Err("too-many-positionals")),
        ("grep", &["foo", "/etc/shadow"], Err("path-like")),
        // With -e (in any spelling, before or after it) every operand is a file.
        (
            "grep",
            &["-e", "foo", "file.txt"],
            Err("too-many-positionals"),
        ),
        (
            "grep",
            &["file.txt", "-e", "foo"],
            Err("too-many-positionals"),
        ),
        (
            "grep",
            &["secret", "--reg=foo"],
            Err("too-many-positionals"),
        ),
        (
            "grep",
            &["-ve", "foo", "notes"],
            Err("too-many-positionals"),
        ),
        // A POSIX-correct grep would read an option after the pattern as a file.
        ("grep", &["foo", "-i"], Err("too-many-positionals")),
        // Patterns from a file, recursion: still denied.
        ("grep", &["-f", "patterns"], Err("denied-flag")),
        ("grep", &["-if", "patterns"], Err("denied-flag")),
        ("grep", &["x", "--file=patterns"], Err("denied-flag")),
        ("grep", &["-r", "foo"], Err("denied-flag")),
        ("grep", &["foo", "-R"], Err("denied-flag")),
    ]);
}

#[test]
fn grep_pattern_regex_characters_are_not_globs() {
    assert_usage(&[
        ("grep", &["a.*b"], OK),
        ("grep", &["-E", "^(foo|bar)[0-9]{2,3}$"], OK),
        ("grep", &["-e", "x?y*"], OK),
        ("grep", &["-e[abc]"], OK),
        ("grep", &["--regexp=a.*b"], OK),
        ("grep", &["error$"], OK),
        ("grep", &["-F", "$"], OK),
        // Expansion shapes still refused, in a pattern too (classes 2, 20).
        ("grep", &["$HOME"], Err("glob-or-expansion")),
        ("grep", &["-e", "${IFS}x"], Err("glob-or-expansion")),
        ("grep", &["a$(id)"], Err("glob-or-expansion")),
        ("grep", &["`id`"], Err("glob-or-expansion")),
        ("grep", &["a$$"], Err("glob-or-expansion")),
        ("grep", &["-e", "$@"], Err("glob-or-expansion")),
        ("grep", &["$1"], Err("glob-or-expansion")),
        ("grep", &["(a$|b$)"], OK),
        // Globs in a file operand, or in a non-pattern value, still refused.
        ("grep", &["-e", "x", "*"], Err("glob-or-expansion")),
        ("grep", &["-m", "1*", "x"], Err("glob-or-expansion")),
    ]);
}

#[test]
fn tr_character_classes_are_sets_not_globs() {
    assert_usage(&[
        ("tr", &["-d", "[:space:]"], OK),
        ("tr", &["-s", " "], OK),
        ("tr", &["a-z", "A-Z"], OK),
        ("tr", &["-cd", "[:alnum:]"], OK),
        ("tr", &["[:upper:]", "[:lower:]"], OK),
        ("tr", &["-d", "[=a=]"], OK),
        ("tr", &["{}", "()"], OK),
        ("tr", &["-d", "$"], OK),
        // Still a set of at most two operands, never a path or an expansion.
        (
            "tr",
            &["[:upper:]", "[:lower:]", "x"],
            Err("too-many-positionals"),
        ),
        ("tr", &["/etc/passwd"], Err("path-like")),
        ("tr", &["~/[a]", "x"], Err("path-like")),
        ("tr", &["${IFS}", "x"], Err("glob-or-expansion")),
        ("tr", &["-d", "$(id)"], Err("glob-or-expansion")),
    ]);
}

#[test]
fn glob_characters_are_still_refused_where_operands_are_files() {
    assert_usage(&[
        ("head", &["*"], Err("glob-or-expansion")),
        ("tail", &["[ab]"], Err("glob-or-expansion")),
        ("wc", &["-l", "?"], Err("glob-or-expansion")),
        ("cut", &["-d", "*", "-f1"], Err("glob-or-expansion")),
        ("sort", &["-t", "[", "-k1"], Err("glob-or-expansion")),
    ]);
}

/// How GNU grep reads `args` (only the flags the property test uses):
/// whether a flag gave the pattern, and the operands, with getopt's
/// permutation (`posix` false) or stopping at the first operand.
fn grep_reads(args: &[String], posix: bool) -> (bool, usize) {
    let (mut pattern, mut operands, mut done) = (false, 0, false);
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if done || a == "-" || !a.starts_with('-') {
            operands += 1;
            done |= posix;
        } else if a == "--" {
            done = true;
        } else if matches!(a, "-e" | "--reg" | "--regexp" | "-ve") {
            pattern = true;
            i += 1;
        } else if a.starts_with("--regexp=") {
            pattern = true;
        }
        i += 1;
    }
    (pattern, operands)
}

proptest! {
    /// Whatever the order, an accepted grep reads no file: with a pattern
    /// flag it has no operand, without one only the pattern, and a
    /// POSIX-correct grep sees no more operands either.
    #[test]
    fn an_accepted_grep_never_has_a_file_operand(
        args in prop::collection::vec(prop::sample::select(vec![
            "-i", "-e", "x", "foo", "notes", "--", "-", "--regexp=a", "--reg", "-ve", "-c", "a.*b",
        ]), 0..6),
    ) {
        let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        let profile = builtin_profile("grep").expect("built-in");
        if check_usage("grep", &profile, &args).is_ok() {
            for posix in [false, true] {
                let (pattern, operands) = grep_reads(&args, posix);
                let files = if pattern { operands } else { operands.saturating_sub(1) };
                prop_assert_eq!(files, 0, "{:?} posix={}", args, posix);
            }
        }
    }

    #[test]
    fn any_arg_with_a_glob_or_expansion_char_is_refused(
        bin in prop::sample::select(vec!["cut", "grep", "head", "sort", "tail", "tr", "uniq", "wc"]),
        before in "[a-z0-9:,=-]{0,6}",
        special in prop::sample::select(FORBIDDEN_CHARS.to_vec()),
        after in "[a-z0-9:,=-]{0,6}",
        prefix in prop::sample::select(vec!["", "-", "--", "-n", "--lines=", "-e"]),
        position in 0usize..3,
    ) {
        let profile = builtin_profile(bin).expect("built-in");
        let bad = format!("{prefix}{before}{special}{after}");
        let mut args = vec!["a".to_owned(); 2];
        args.insert(position.min(args.len()), bad);
        // Whatever the other refusals, the arg must never pass.
        prop_assert!(check_usage(bin, &profile, &args).is_err());
        // And alone, as a value of an allowed value flag, it is refused for its characters.
        let value_flag = profile.allowed_value_flags.first().cloned();
        if let Some(flag) = value_flag {
            let got = check_usage(bin, &profile, &[flag, format!("{before}{special}{after}")]);
            prop_assert_eq!(got.map_err(|r| r.code()), Err("glob-or-expansion"));
        }
    }

    #[test]
    fn jq_filters_mentioning_a_denied_identifier_are_refused(
        ident in prop::sample::select(jq::DENIED_IDENTS.iter().map(|(n, _)| *n).collect::<Vec<_>>()),
        left in prop::sample::select(vec!["", ".", "[", "\"", "{a: ", ". | ", "$"]),
        right in prop::sample::select(vec!["", "]", "\"", "}", " | .", ".x"]),
    ) {
        let profile = builtin_profile("jq").expect("built-in");
        let filter = format!("{left}{ident}{right}");
        prop_assert!(check_usage("jq", &profile, &[filter]).is_err());
    }
}

/// Through the whole policy: `safeBins` with grep and tr, nothing allowlisted.
mod through_the_policy {
    use std::path::Path;

    use crate::policy::decision::tests::compiled;
    use crate::policy::{CompiledPolicy, SatisfiedBy, Verdict};

    fn policy() -> CompiledPolicy {
        compiled(serde_json::json!({
            "version": 1,
            "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny",
                         "safeBins": ["cut", "grep", "head", "tail", "tr", "uniq", "wc"]},
            "agents": {"main": {}}
        }))
    }

    /// The verdict and, for a miss, the safe-bin refusal code.
    fn judge(argv: &[&str]) -> (Verdict, Option<String>) {
        let argv: Vec<String> = argv.iter().map(|a| (*a).to_owned()).collect();
        let e = policy().evaluate(&argv, Path::new("/tmp"), &Default::default());
        let miss = e
            .analysis
            .segments
            .iter()
            .find_map(|s| s.miss.as_ref())
            .map(|m| format!("{}:{}", m.code(), m.detail_code().unwrap_or_default()));
        if e.decision == Verdict::Allow {
            assert!(
                e.analysis
                    .segments
                    .iter()
                    .all(|s| s.satisfied_by == Some(SatisfiedBy::SafeBin)),
                "{argv:?}"
            );
        }
        (e.decision, miss)
    }

    fn allowed(argv: &[&str]) {
        let (verdict, miss) = judge(argv);
        assert_eq!(verdict, Verdict::Allow, "{argv:?}: {miss:?}");
    }

    fn refused(argv: &[&str], code: &str) {
        let (verdict, miss) = judge(argv);
        assert_eq!(verdict, Verdict::Ask, "{argv:?}");
        assert_eq!(
            miss.as_deref(),
            Some(format!("safe-bin-usage:{code}").as_str()),
            "{argv:?}"
        );
    }

    const HEREDOC: &str = " <<'EOF'\nHello World\nEOF";

    #[test]
    fn grep_pattern_operand_is_not_a_file() {
        allowed(&["grep", "-i", "foo"]);
        allowed(&["grep", "-e", "a", "-e", "b"]);
        allowed(&["sh", "-c", &format!("grep -i 'a.*b'{HEREDOC}")]);
        allowed(&["sh", "-c", &format!("grep -vE '^(#|$)'{HEREDOC}")]);
    }

    #[test]
    fn grep_with_a_file_operand_still_reads_a_file() {
        refused(&["grep", "foo", "file.txt"], "too-many-positionals");
        refused(&["grep", "-e", "foo", "file.txt"], "too-many-positionals");
        refused(&["grep", "-f", "patterns"], "denied-flag");
        refused(&["grep", "-r", "foo"], "denied-flag");
        refused(&["grep", "$HOME"], "glob-or-expansion");
        refused(&["grep", "-e", "x", "*"], "glob-or-expansion");
        // An unquoted glob is expanded first, then checked: a file named
        // `-r` turns `grep -*` into `grep -r`, a denied flag; a glob that
        // matches nothing is the word bash passes, a pattern on stdin.
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("-r"), "").expect("write");
        let argv = [
            "sh".to_owned(),
            "-c".to_owned(),
            format!("grep -* {HEREDOC}"),
        ];
        let e = policy().evaluate(&argv, dir.path(), &Default::default());
        assert!(e.analysis.ok);
        assert_eq!(*e.analysis.segments[0].argv, ["grep", "-r"]);
        assert_eq!(e.decision, Verdict::Ask);
        let argv = [
            "sh".to_owned(),
            "-c".to_owned(),
            format!("grep a* {HEREDOC}"),
        ];
        let e = policy().evaluate(&argv, dir.path(), &Default::default());
        assert_eq!(e.decision, Verdict::Allow, "{:?}", e.reason);
        not_understood(&format!("grep \"$SECRET\"{HEREDOC}"));
    }

    fn not_understood(script: &str) {
        let argv = ["sh".to_owned(), "-c".to_owned(), script.to_owned()];
        let e = policy().evaluate(&argv, Path::new("/tmp"), &Default::default());
        assert!(!e.analysis.ok, "{script}");
        assert_eq!(e.decision, Verdict::Ask, "{script}");
    }

    #[test]
    fn tr_character_classes_are_sets_not_globs() {
        allowed(&["tr", "-d", "[:space:]"]);
        allowed(&["tr", "-s", " "]);
        allowed(&["tr", "a-z", "A-Z"]);
        allowed(&["tr", "-cd", "[:alnum:]"]);
        allowed(&["sh", "-c", &format!("tr '[:upper:]' '[:lower:]'{HEREDOC}")]);
        refused(&["tr", "/etc/passwd", "x"], "path-like");
        refused(&["tr", "a", "b", "c"], "too-many-positionals");
        refused(&["head", "*"], "glob-or-expansion");
    }
}
