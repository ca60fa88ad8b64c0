//! Holes found by the H29 sweep in programs that have a guard family (or
//! had nothing), each test named by the attack it stops, with the
//! everyday commands the fixes must leave alone.

use super::*;
use std::path::Path;

const CWD: &str = "/home/u/proj";

/// The guard ids `cmd` (program first) trips in [`CWD`].
fn hits(cmd: &[&str]) -> Vec<&'static str> {
    hits_in(Path::new(CWD), cmd)
}

/// The guard ids `cmd` trips in `cwd`.
fn hits_in(cwd: &Path, cmd: &[&str]) -> Vec<&'static str> {
    let argv: Vec<String> = cmd.iter().map(|s| (*s).to_owned()).collect();
    check(cmd[0], &argv, cwd, false)
        .into_iter()
        .map(|h| h.id)
        .collect()
}

fn asks(cmd: &[&str], id: &str) {
    assert!(hits(cmd).contains(&id), "{cmd:?}: {:?}", hits(cmd));
}

fn allowed(cmd: &[&str]) {
    assert_eq!(hits(cmd), Vec::<&str>::new(), "{cmd:?}");
}

#[test]
fn ps_showing_other_processes_environments_is_asked() {
    for cmd in [
        &["ps", "e"][..],
        &["ps", "eww"],
        &["ps", "auxe"],
        &["ps", "axeww"],
        &["ps", "aux", "e"],
        &["ps", "-ef", "e"],
        &["ps", "-e", "e"],
        &["ps", "e", "-p", "1"],
        &["ps", "ewwp", "1"],
        &["ps", "-o", "pid,environ"],
        &["ps", "-opid,environ"],
        &["ps", "-eo", "pid,environ=ENV"],
        &["ps", "-e", "-o", "pid,cmd,environ"],
        &["ps", "--format", "environ"],
        &["ps", "--format=pid,environ"],
        &["ps", "o", "environ"],
        &["ps", "-O", "environ"],
        &["ps", "-p", "1", "O", "environ"],
    ] {
        asks(cmd, "ps.environment");
    }
    for cmd in [
        &["ps", "aux"][..],
        &["ps", "-ef"],
        &["ps", "-e"],
        &["ps", "axu"],
        &["ps", "auxf"],
        &["ps", "-eo", "pid,comm,%cpu"],
        &["ps", "aux", "--sort=-%mem"],
        &["ps", "--sort", "-etime", "aux"],
        &["ps", "-p", "1", "-o", "pid,cmd"],
        &["ps", "-u", "steve"],
        &["ps", "-U", "steve", "-o", "pid,comm"],
        &["ps", "U", "steve"],
        &["ps", "--user", "steve"],
        &["ps", "-C", "node", "-o", "pid=,etime="],
        &[
            "ps",
            "-o",
            "user,pid,pcpu,pmem,vsz,rss,tty,stat,start,time,command",
        ],
        &["ps", "-t", "pts/1"],
        &["ps", "k", "-pcpu"],
        &["ps", "--format", "pid,comm"],
        &["ps", "--format=pid,user", "--pid", "1"],
    ] {
        allowed(cmd);
    }
}

#[test]
fn phpinfo_printing_the_environment_is_asked() {
    for cmd in [&["php", "-i"][..], &["php", "--info"], &["php", "--inf"]] {
        asks(cmd, "php.environment");
    }
    allowed(&["php", "artisan", "migrate:status"]);
    allowed(&["php", "--version"]);
}

#[test]
fn envsubst_printing_environment_variables_is_asked() {
    for cmd in [
        &["envsubst"][..],
        &["envsubst", "$GITHUB_TOKEN"],
        &["envsubst", "${AWS_SECRET_ACCESS_KEY}"],
        &["envsubst", "$HOME $NPM_TOKEN"],
        &["envsubst", "--", "$GITHUB_TOKEN"],
    ] {
        asks(cmd, "envsubst.environment");
    }
    allowed(&["envsubst", "$HOME $USER"]);
    allowed(&["envsubst", "${HOME}/x $PWD"]);
    allowed(&["envsubst", "-v", "$GITHUB_TOKEN"]);
    allowed(&["envsubst", "--variables", "$GITHUB_TOKEN"]);
    allowed(&["envsubst", "--help"]);
}

#[test]
fn yq_and_miller_expressions_reading_the_environment_or_running_commands_are_asked() {
    for cmd in [
        &["yq", "-n", "env"][..],
        &["yq", "-n", "$ENV"],
        &["yq", "-n", "$ENV.GITHUB_TOKEN"],
        &["yq", "-n", "env(GITHUB_TOKEN)"],
        &["yq", "-n", "strenv(GITHUB_TOKEN)"],
        &["yq", ".a = env(X)", "x.yml"],
        &["yq", "e", ".a = strenv(X)", "x.yml"],
        &["yq", "-n", "\"${X}\" | envsubst"],
        &["yq", "-n", "load(\"/home/u/.netrc\")"],
        &["yq", "-n", "load_str(\"x\")"],
        &["yq", "-o=json", "-n", "env"],
    ] {
        asks(cmd, "yq.environment");
    }
    asks(&["yq", "--from-file", "../x.yq", "x.yml"], "yq.from-file");
    asks(&["yq", "-i", ".a = 1", "../x.yml"], "yq.rewrites-outside");
    for cmd in [
        &["mlr", "-n", "put", "end{emit ENV}"][..],
        &["mlr", "-n", "put", "end{print ENV[\"GITHUB_TOKEN\"]}"],
        &["mlr", "-n", "put", "end{print system(\"id\")}"],
        &["mlr", "--icsv", "put", "$x = exec(\"id\")", "a.csv"],
        &["miller", "-n", "put", "end{emit ENV}"],
    ] {
        asks(cmd, "mlr.dsl");
    }
    asks(
        &["mlr", "--prepipe", "sh -c id", "cat", "a.csv"],
        "mlr.runs-program",
    );
    asks(
        &["mlr", "--load", "../x.mlr", "cat", "a.csv"],
        "mlr.runs-program",
    );
    for cmd in [
        &["yq", ".version", "package.json"][..],
        &["yq", ".services.web.env", "compose.yml"],
        &["yq", ".env.GITHUB_TOKEN", "x.yml"],
        &["yq", "-o", "json", ".", "x.yml"],
        &["yq", "e", ".a.b", "x.yml"],
        &["yq", "-i", ".version = \"1.2\"", "x.yml"],
        &["mlr", "--icsv", "--opprint", "cat", "a.csv"],
        &["mlr", "--icsv", "--ojson", "put", "$z = $x . $y", "a.csv"],
        &["mlr", "--icsv", "put", "$env = \"prod\"", "a.csv"],
    ] {
        allowed(cmd);
    }
}

#[test]
fn an_expression_names_check_skips_existing_files_named_like_a_function() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("env"), "a: 1\n").expect("write");
    let ids = hits_in(dir.path(), &["yq", ".a", "env"]);
    assert_eq!(ids, Vec::<&str>::new());
    // The same word, not a file, is the expression's `env`.
    let ids = hits_in(dir.path(), &["yq", "-n", "env", "env"]);
    assert!(ids.contains(&"yq.environment"), "{ids:?}");
    // An option's value is no expression that could hide one.
    let ids = hits_in(dir.path(), &["yq", "-o", "json", "-n", "env"]);
    assert!(ids.contains(&"yq.environment"), "{ids:?}");
    let ids = hits_in(dir.path(), &["yq", "eval", "env"]);
    assert!(ids.contains(&"yq.environment"), "{ids:?}");
}

#[test]
fn build_tools_printing_the_environment_or_their_credentials_are_asked() {
    for cmd in [
        &["mvn", "help:system"][..],
        &[
            "mvn",
            "-q",
            "help:evaluate",
            "-Dexpression=env.GITHUB_TOKEN",
        ],
        &[
            "mvn",
            "org.apache.maven.plugins:maven-help-plugin:3.4.0:system",
        ],
    ] {
        asks(cmd, "mvn.environment");
    }
    asks(&["bundle", "env"], "bundle.environment");
    allowed(&["mvn", "-q", "test"]);
    allowed(&["mvn", "help:effective-pom"]);
    allowed(&["bundle", "install"]);
}

#[test]
fn direnv_and_dotenv_running_or_printing_the_environment_are_asked() {
    for cmd in [
        &["direnv", "exec", ".", "env"][..],
        &["direnv", "export", "bash"],
        &["direnv", "dump"],
        &["direnv", "allow"],
    ] {
        asks(cmd, "direnv.always");
    }
    for cmd in [
        &["dotenv", "list"][..],
        &["dotenv", "get", "SECRET"],
        &["dotenv", "run", "env"],
        &["dotenv", "-f", "../.env", "list"],
    ] {
        asks(cmd, "dotenv.always");
    }
}

#[test]
fn rustc_paths_outside_the_tree_in_emit_extern_print_sysroot_and_target_are_asked() {
    for cmd in [
        &["rustc", "--emit=link=../x", "x.rs"][..],
        &["rustc", "--emit", "link=../x", "x.rs"],
        &["rustc", "--emit=asm,link=/tmp/x", "x.rs"],
        &["rustc", "--emit=obj=/tmp/x", "x.rs"],
        &["rustc", "--extern", "name=../x.rlib", "x.rs"],
        &["rustc", "--extern=x=/tmp/libx.so", "x.rs"],
        &["rustc", "--sysroot", "/tmp/x", "x.rs"],
        &["rustc", "--target", "../x.json", "x.rs"],
        &["rustc", "--target=/tmp/x.json", "x.rs"],
        &["rustc", "--print=cfg=../x", "x.rs"],
        &["rustc", "-C", "incremental=/tmp/x", "x.rs"],
        &["rustc", "-Cprofile-generate=/tmp/x", "x.rs"],
        &["rustc", "-L", "dependency=/tmp/x", "x.rs"],
        &["rustc", "-Lnative=../x", "x.rs"],
        &["rustdoc", "--extern", "x=../x.rlib", "x.rs"],
    ] {
        asks(cmd, "rustc.paths-outside");
    }
    for cmd in [
        &["rustc", "--emit=asm", "x.rs"][..],
        &["rustc", "--emit=link,obj", "x.rs"],
        &["rustc", "--emit=obj=build/x.o", "x.rs"],
        &["rustc", "--extern", "serde", "x.rs"],
        &[
            "rustc",
            "--extern",
            "serde=target/debug/deps/libserde.rlib",
            "x.rs",
        ],
        &["rustc", "--target", "x86_64-unknown-linux-musl", "x.rs"],
        &["rustc", "--target", "targets/custom.json", "x.rs"],
        &["rustc", "--print", "sysroot"],
        &[
            "rustc",
            "-C",
            "opt-level=3",
            "-C",
            "target-cpu=native",
            "x.rs",
        ],
        &["rustc", "-L", "dependency=target/debug/deps", "x.rs"],
        &["rustc", "--edition", "2021", "x.rs", "-o", "build/main"],
    ] {
        allowed(cmd);
    }
}
