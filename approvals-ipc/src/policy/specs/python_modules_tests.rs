//! `python -m MODULE` table tests, named by the attack or the false
//! refusal they stop.

use std::path::Path;

use super::python_modules::{Job, MODULES, UNKNOWN_MODULE};
use super::tests::{ids, ids_in, reasons};

const NONE: [&str; 0] = [];

#[test]
fn the_module_table_is_sorted_and_has_one_row_per_name() {
    for pair in MODULES.windows(2) {
        assert!(
            pair[0].name < pair[1].name,
            "{} before {}",
            pair[0].name,
            pair[1].name
        );
    }
    for module in MODULES {
        assert!(!module.why.is_empty(), "{} has no reason", module.name);
    }
}

#[test]
fn everyday_modules_that_do_the_program_s_own_job_stay_allowed() {
    for argv in [
        &["python3", "-m", "pytest", "-x", "tests/"][..],
        &["python3", "-m", "unittest", "discover", "-s", "tests"],
        &["python3", "-m", "venv", ".venv"],
        &[
            "python3", "-m", "venv", "--clear", "--prompt", "dev", ".venv",
        ],
        &["python3", "-m", "json.tool", "data.json"],
        &[
            "python3",
            "-m",
            "json.tool",
            "--sort-keys",
            "in.json",
            "out.json",
        ],
        &["python3", "-m", "compileall", "-q", "src"],
        &["python3", "-m", "py_compile", "a.py"],
        &["python3", "-m", "black", "--check", "."],
        &["python3", "-m", "ruff", "check", "--fix", "."],
        &["python3", "-m", "mypy", "src"],
        &["python3", "-m", "pylint", "--disable=C0114", "src"],
        &["python3", "-m", "flake8", "src"],
        &["python3", "-m", "isort", "."],
        &["python3", "-m", "build", "--wheel"],
        &["python3", "-m", "twine", "check", "dist/x.whl"],
        &["python3", "-m", "coverage", "run", "-m", "pytest", "-q"],
        &[
            "python3",
            "-m",
            "coverage",
            "run",
            "--branch",
            "--source=src",
            "-m",
            "pytest",
        ],
        &["python3", "-m", "coverage", "run", "script.py"],
        &["python3", "-m", "coverage", "report", "-m"],
        &["python3", "-m", "cProfile", "-s", "cumtime", "script.py"],
        &[
            "python3", "-m", "cProfile", "-o", "prof.out", "-m", "pytest",
        ],
        &["python3", "-m", "zipfile", "-l", "a.zip"],
        &["python3", "-m", "tarfile", "-v", "-l", "a.tar"],
        &["python3", "-m", "doctest", "README.md"],
        &["python3", "-m", "pip", "list"],
    ] {
        assert_eq!(ids(argv), NONE, "{argv:?}: {:?}", reasons(argv));
    }
}

#[test]
fn modules_that_run_code_from_their_arguments_or_stdin_are_asked() {
    for argv in [
        &["python3", "-m", "timeit", "__import__('os').system('id')"][..],
        &["python3", "-mtimeit", "-s", "import os", "os.system('id')"],
        &["python3", "-m", "pdb", "-c", "!import os", "x.py"],
        &["python3", "-m", "code"],
        &["python3", "-m", "asyncio"],
        &["python3", "-m", "idlelib", "-c", "x"],
        &["python3", "-m", "runpy", "timeit", "x"],
        &["python3", "-m", "pickle", "evil.pkl"],
        &[
            "python3", "-m", "trace", "--count", "--module", "timeit", "x",
        ],
        &[
            "python3",
            "-m",
            "pylint",
            "--init-hook=import os; os.system('id')",
            "src",
        ],
        &["python3", "-m", "pylint", "--init=import os", "src"],
        &["python3", "-m", "pylint", "--load-plug", "evil", "src"],
        // Through the modules that run a module (judged as `-m` is).
        &["python3", "-m", "coverage", "run", "-m", "timeit", "x"],
        &[
            "python3", "-m", "coverage", "run", "--source", "timeit", "-m", "timeit", "x",
        ],
        &["python3", "-m", "cProfile", "-m", "timeit", "x"],
        &[
            "python3", "-m", "profile", "-s", "time", "-m", "pdb", "x.py",
        ],
    ] {
        assert_eq!(ids(argv).len(), 1, "{argv:?}: {:?}", reasons(argv));
        assert!(
            ids(argv)[0] == "python.module-code",
            "{argv:?}: {:?}",
            reasons(argv)
        );
    }
}

#[test]
fn modules_that_serve_write_open_a_browser_install_or_upload_are_asked() {
    for (argv, id) in [
        (
            &["python3", "-m", "http.server", "8000"][..],
            "python.module-serves",
        ),
        (&["python3", "-m", "pydoc", "-b"], "python.module-serves"),
        (&["python3", "-m", "smtpd", "-n"], "python.module-serves"),
        (&["python3", "-m", "xmlrpc.server"], "python.module-serves"),
        (
            &["python3", "-m", "zipfile", "-e", "a.zip", "/"],
            "python.module-writes",
        ),
        (
            &["python3", "-m", "zipfile", "-c", "a.zip", "x"],
            "python.module-writes",
        ),
        (
            &["python3", "-m", "zipfile", "-l", "a.zip", "-e"],
            "python.module-writes",
        ),
        (
            &["python3", "-m", "tarfile", "-e", "a.tar", "/"],
            "python.module-writes",
        ),
        (
            &["python3", "-m", "tarfile", "-l", "a.tar", "-e", "b.tar"],
            "python.module-writes",
        ),
        (
            &["python3", "-m", "zipapp", "src", "-m", "x:y"],
            "python.module-writes",
        ),
        (
            &["python3", "-m", "json.tool", "in.json", "/home/u/.bashrc"],
            "python.module-writes",
        ),
        (
            &["python3", "-m", "venv", "/home/u/.local"],
            "python.module-writes",
        ),
        (
            &["python3", "-m", "venv", "--frob", ".venv"],
            "python.module-writes",
        ),
        (
            &["python3", "-m", "cProfile", "-o", "/home/u/.bashrc", "x.py"],
            "python.module-writes",
        ),
        (
            &["python3", "-m", "webbrowser", "http://x"],
            "python.module-browser",
        ),
        (&["python3", "-m", "antigravity"], "python.module-browser"),
        (&["python3", "-m", "ensurepip"], "python.module-installs"),
        (
            &["python3", "-m", "twine", "upload", "dist/*"],
            "python.module-uploads",
        ),
    ] {
        assert_eq!(ids(argv), [id], "{argv:?}: {:?}", reasons(argv));
    }
}

#[test]
fn an_unknown_module_is_asked_and_named() {
    let argv = ["python3", "-m", "evilmod", "x"];
    assert_eq!(ids(&argv), [UNKNOWN_MODULE]);
    assert!(
        reasons(&argv)[0].starts_with("unknown module evilmod for python3 -m: "),
        "{:?}",
        reasons(&argv)
    );
    // A module the table does not know, reached through coverage.
    assert_eq!(
        ids(&["python3", "-m", "coverage", "run", "-m", "evilmod"]),
        ["python.module-code"]
    );
}

#[test]
fn a_module_file_inside_the_working_tree_runs_as_a_script_would() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cwd = dir.path();
    std::fs::create_dir_all(cwd.join("mypkg/app")).expect("mkdir");
    std::fs::write(cwd.join("mypkg/__init__.py"), "").expect("write");
    std::fs::write(cwd.join("mypkg/tool.py"), "print(1)\n").expect("write");
    std::fs::write(cwd.join("mypkg/app/__init__.py"), "").expect("write");
    std::fs::write(cwd.join("mypkg/app/__main__.py"), "print(1)\n").expect("write");
    std::fs::write(cwd.join("tool.py"), "print(1)\n").expect("write");
    std::fs::write(cwd.join("runpy.py"), "print(1)\n").expect("write");
    assert_eq!(ids_in(cwd, &["python3", "-m", "mypkg.tool", "-x"]), NONE);
    assert_eq!(ids_in(cwd, &["python3", "-m", "mypkg.app"]), NONE);
    assert_eq!(ids_in(cwd, &["python3", "-m", "tool"]), NONE);
    // Not found, or kept off sys.path by -I / -P: an installed module.
    assert_eq!(
        ids_in(cwd, &["python3", "-m", "mypkg.other"]),
        [UNKNOWN_MODULE]
    );
    assert_eq!(
        ids_in(cwd, &["python3", "-I", "-m", "mypkg.tool"]),
        [UNKNOWN_MODULE]
    );
    assert_eq!(
        ids_in(cwd, &["python3", "-P", "-m", "mypkg.tool"]),
        [UNKNOWN_MODULE]
    );
    // A relative or path-like name is no module python would find here.
    assert_eq!(
        ids_in(cwd, &["python3", "-m", "..mypkg.tool"]),
        [UNKNOWN_MODULE]
    );
    // A planted ./runpy.py does not turn the frozen runpy into a script.
    assert_eq!(
        ids_in(cwd, &["python3", "-m", "runpy", "timeit", "x"]),
        ["python.module-code"]
    );
}

#[test]
fn a_namespace_directory_in_the_tree_does_not_hide_an_installed_package() {
    // `./IPython/__main__.py` without `__init__.py` is a namespace portion:
    // python runs an installed regular IPython (`-c CODE`) instead.
    let dir = tempfile::tempdir().expect("tempdir");
    let cwd = dir.path();
    std::fs::create_dir_all(cwd.join("IPython/core")).expect("mkdir");
    std::fs::write(cwd.join("IPython/__main__.py"), "").expect("write");
    std::fs::write(cwd.join("IPython/core/tool.py"), "").expect("write");
    assert_eq!(
        ids_in(cwd, &["python3", "-m", "IPython", "-c", "x"]),
        [UNKNOWN_MODULE]
    );
    assert_eq!(
        ids_in(cwd, &["python3", "-m", "IPython.core.tool"]),
        [UNKNOWN_MODULE]
    );
}

#[cfg(unix)]
#[test]
fn a_module_reached_through_a_link_out_of_the_tree_is_asked() {
    let dir = tempfile::tempdir().expect("tempdir");
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("__init__.py"), "").expect("write");
    std::fs::write(outside.path().join("tool.py"), "print(1)\n").expect("write");
    std::os::unix::fs::symlink(outside.path(), dir.path().join("linked")).expect("symlink");
    std::os::unix::fs::symlink(outside.path().join("tool.py"), dir.path().join("evil.py"))
        .expect("symlink");
    assert_eq!(
        ids_in(dir.path(), &["python3", "-m", "linked.tool"]),
        [UNKNOWN_MODULE]
    );
    assert_eq!(
        ids_in(dir.path(), &["python3", "-m", "evil"]),
        [UNKNOWN_MODULE]
    );
}

#[test]
fn every_program_row_names_a_spec_d_program() {
    for module in MODULES {
        if let Job::Program(name) = module.job {
            assert!(super::lookup(name).is_some(), "{} -> {name}", module.name);
        }
    }
}

/// Rows for modules that are not in CPython's standard library.
const THIRD_PARTY: &[&str] = &[
    "black",
    "build",
    "coverage",
    "flake8",
    "isort",
    "mypy",
    "pip",
    "pip3",
    "pycodestyle",
    "pyflakes",
    "pylint",
    "pytest",
    "ruff",
    "twine",
    "uv",
];

#[test]
fn every_standard_library_row_names_a_module_the_real_python_has() {
    let names: Vec<&str> = MODULES
        .iter()
        .map(|m| m.name)
        .filter(|n| !THIRD_PARTY.contains(n))
        .collect();
    let probe = "import importlib.util, sys\n\
                 print(' '.join(n for n in sys.argv[1:] if importlib.util.find_spec(n) is None))";
    let out = match std::process::Command::new("python3")
        .arg("-I")
        .arg("-c")
        .arg(probe)
        .args(&names)
        .output()
    {
        Ok(out) if out.status.success() => out,
        other => {
            eprintln!(
                "SKIP every_standard_library_row_names_a_module_the_real_python_has: python3 did not run ({other:?})"
            );
            return;
        }
    };
    let missing: Vec<&str> = std::str::from_utf8(&out.stdout)
        .unwrap_or_default()
        .split_whitespace()
        .filter(|name| !SPLIT_OUT.contains(name))
        .collect();
    assert_eq!(
        missing,
        Vec::<&str>::new(),
        "rows naming no module of this python"
    );
}

/// Standard-library modules that distributions ship in a package of their
/// own, so a stock `python3` may lack them (Debian: `idle-python3.X` for
/// idlelib, `python3-tk` for tkinter and turtledemo). Their rows stay (a
/// machine that has them must ask); a python without them proves nothing.
const SPLIT_OUT: &[&str] = &["idlelib", "tkinter", "turtledemo"];

/// The guard ids `argv` trips through the guards, as the policy checks a
/// program with no spec.
fn guard_ids(argv: &[&str]) -> Vec<&'static str> {
    let argv: Vec<String> = argv.iter().map(|w| (*w).to_owned()).collect();
    crate::policy::guards::check(&argv[0], &argv, Path::new(super::tests::CWD), false)
        .iter()
        .map(|h| h.id)
        .collect()
}

#[test]
fn a_console_script_is_judged_as_python_m_its_module() {
    // Each was auto-allowed once its script was allowlisted: the module
    // table judged only `python -m NAME`.
    for (argv, id) in [
        (
            &["pylint", "--init-hook=import os; os.system('id')", "src"][..],
            "python.module-code",
        ),
        (
            &["pylint", "--load-plug", "evil", "src"],
            "python.module-code",
        ),
        (&["twine", "upload", "dist/*"], "python.module-uploads"),
        (
            &["coverage", "run", "-m", "timeit", "1"],
            "python.module-code",
        ),
        (&["pdb3", "script.py"], "python.module-code"),
    ] {
        assert_eq!(guard_ids(argv), [id], "{argv:?}");
    }
    for argv in [
        &["pylint", "--disable=C0114", "src"][..],
        &["coverage", "report", "-m"],
        &["twine", "check", "dist/x.whl"],
        // Not a console script the table knows.
        &["black", "--check", "."],
    ] {
        assert_eq!(guard_ids(argv), NONE, "{argv:?}");
    }
}

#[test]
fn a_pylint_or_coverage_rcfile_from_outside_the_tree_is_asked() {
    // Found by the H25 sweep: an rcfile's init-hook or plugins run code.
    for argv in [
        &["pylint", "--rcfile=/tmp/evil.rc", "src"][..],
        &["pylint", "--rcfile", "../evil.rc", "src"],
        &["pylint", "--rcf=/tmp/evil.rc", "src"],
        &["pylint", "--rc", "/tmp/evil.rc", "src"],
        &["coverage", "run", "--rcfile=/tmp/x", "-m", "pytest"],
        &["coverage", "report", "--rcfile=/tmp/x"],
    ] {
        assert_eq!(guard_ids(argv), ["python.module-code"], "{argv:?}");
    }
    for argv in [
        &["pylint", "--rcfile=.pylintrc", "src"][..],
        &["coverage", "run", "--rcfile=.coveragerc", "-m", "pytest"],
    ] {
        assert_eq!(guard_ids(argv), NONE, "{argv:?}");
    }
}
