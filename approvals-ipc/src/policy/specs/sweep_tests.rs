//! Holes found by the red-team sweep of text, file and network tools'
//! arguments (helper H21), each test named by the attack it stops, and the
//! everyday commands the fixes must leave alone.

use std::path::Path;

use super::tests::{ids, ids_in, reasons};

#[test]
fn extracting_or_working_inside_git_metadata_through_a_directory_option_is_asked() {
    for argv in [
        &["tar", "-xf", "a.tar", "-C", ".git"][..],
        &["tar", "-C", ".git/hooks", "-xf", "a.tar"],
        &["tar", "xf", "a.tar", "--directory=.git"],
        &["tar", "-xf", "a.tar", "-C", "sub/.git"],
        &["tar", "-xf", "a.tar", "--one-top-level=.git"],
    ] {
        assert!(
            ids(argv).contains(&"tar.other-tree"),
            "{argv:?}: {:?}",
            ids(argv)
        );
    }
    for argv in [
        &["tar", "-xzf", "out.tgz", "-C", "build"][..],
        &["tar", "-C", "src", "-cf", "out.tar", "."],
        &["tar", "-xf", "a.tar", "-C", "gitlab"],
    ] {
        assert_eq!(ids(argv), Vec::<&str>::new(), "{argv:?}");
    }
}

#[test]
fn wget_saving_a_url_under_a_name_other_tools_run_is_asked() {
    for argv in [
        &["wget", "https://x.test/Makefile"][..],
        &["wget", "-N", "https://x.test/Makefile"],
        &["wget", "-nc", "https://x.test/dir/.envrc"],
        &["wget", "https://x.test/%2ebashrc"],
        &["wget", "https://x.test/a/conftest.py#frag"],
        &["wget", "-P", ".git/hooks", "https://x.test/pre-commit"],
        &["wget", "-x", "-nH", "https://x.test/.git/hooks/pre-commit"],
        &["wget", "-r", "https://x.test/.git/config"],
    ] {
        assert!(
            ids(argv).contains(&"wget.writes-file"),
            "{argv:?}: {:?}",
            ids(argv)
        );
    }
    for argv in [
        &["wget", "-q", "https://x.test/x.tgz"][..],
        &["wget", "https://x.test/"],
        &["wget", "https://x.test"],
        &["wget", "https://x.test/Makefile?raw=1"],
        &["wget", "-P", "downloads", "https://x.test/a.zip"],
        &["wget", "-O", "-", "https://x.test/Makefile"],
    ] {
        assert_eq!(ids(argv), Vec::<&str>::new(), "{argv:?}");
    }
}

#[test]
fn a_list_of_file_names_read_from_a_file_is_asked() {
    for (argv, id) in [
        (&["sort", "--files0-from=list"][..], "sort.loads-code"),
        (&["sort", "--files0-f", "list"], "sort.loads-code"),
        (&["tar", "-T", "list", "-cf", "x.tar"], "tar.loads-code"),
        (&["tar", "-cf", "x.tar", "--files-from=-"], "tar.loads-code"),
    ] {
        assert!(ids(argv).contains(&id), "{argv:?}: {:?}", ids(argv));
    }
    // Counting and listing show no contents; rsync reads the list's names
    // below the source operand, which the prompt shows (it strips a leading
    // `/` and refuses `..`).
    for argv in [
        &["wc", "--files0-from=list"][..],
        &["find", "-files0-from", "list", "-size", "+1M"],
        &["rsync", "--files-from=list", ".", "host:x"],
        &["sort", "-u", "names.txt"],
        &["tar", "-cf", "x.tar", "src"],
    ] {
        assert_eq!(ids(argv), Vec::<&str>::new(), "{argv:?}");
    }
}

#[test]
fn find_runs_no_command_it_cannot_check_on_start_points_from_a_list() {
    let args = |a: &[&str]| a.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    assert!(
        crate::policy::find_exec::commands(&args(&[
            "-files0-from",
            "list",
            "-exec",
            "cat",
            "{}",
            "+"
        ]))
        .is_none()
    );
    assert!(crate::policy::find_exec::commands(&args(&[".", "-exec", "cat", "{}", "+"])).is_some());
}

#[test]
fn a_jq_program_reading_the_environment_or_files_by_import_is_asked() {
    for argv in [
        &["jq", "-n", "env"][..],
        &["jq", "-n", "$ENV.AWS_SECRET_ACCESS_KEY"],
        &["jq", "-n", "env.HOME"],
        &["jq", "-n", "\"\\(env)\""],
        &["jq", "-n", "{} | .a = env"],
        &["jq", "-n", "{$ENV}"],
        &[
            "jq",
            "-n",
            "import \"/home/u/.clawdbot/exec-approvals\" as $t; $t",
        ],
        &["jq", "-n", "include \"evil\"; f"],
        &["jq", "-n", "modulemeta"],
        &["jq", "--arg", "x", "1", "-n", "env"],
        &["jq", "-f", "prog.jq", "x.json"],
        &["jq", "--from-file", "prog.jq", "x.json"],
        &["jq", "-rf", "prog.jq", "x.json"],
    ] {
        assert!(
            ids(argv).contains(&"jq.loads-code"),
            "{argv:?}: {:?}",
            ids(argv)
        );
    }
    let why = reasons(&["jq", "-n", "env"]).join(" ");
    assert!(why.contains("environment"), "{why}");
    for argv in [
        &["jq", ".name", "package.json"][..],
        &["jq", ".env", "vercel.json"],
        &["jq", ".a.import", "x.json"],
        &["jq", "-r", ".scripts | keys[]", "package.json"],
        &["jq", "--arg", "env", "prod", ".[$env]", "x.json"],
        &["jq", ".", "env.json"],
    ] {
        assert_eq!(ids(argv), Vec::<&str>::new(), "{argv:?}");
    }
}

#[test]
fn the_spec_rows_of_the_sweep_hold_in_any_working_directory() {
    // Judged the same in another directory: nothing above depends on CWD.
    let cwd = Path::new("/srv/other");
    assert!(ids_in(cwd, &["wget", "https://x.test/Makefile"]).contains(&"wget.writes-file"));
    assert!(ids_in(cwd, &["tar", "-xf", "a", "-C", ".git"]).contains(&"tar.other-tree"));
}
