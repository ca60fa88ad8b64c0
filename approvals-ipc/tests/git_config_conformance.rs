//! The git config guards against the real git (issue 11, class 9).
//!
//! `git config` reads and `git -c` of inert keys are no longer guarded.
//! Here, argv built from a pool of words (reads, writes, the subcommand
//! forms, value options, `--file`, inert and dangerous keys, options after
//! operands) is judged by the guards; every one they let through is run by
//! the real git in a private repository and home, and must not have
//! changed any config key but an inert one, nor written any other file,
//! nor (for `-c`) given git any key but an inert one (`git config --list
//! --show-scope` run under the same `-c` shows the command-line keys).
//! A missing git is reported with `eprintln!` and the test returns.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use approvals_ipc::policy::guards::check;

/// The only inert keys in the pool (lowercase).
const INERT_IN_POOL: &[&str] = &["color.ui", "user.name"];

const WORDS: &[&str] = &[
    "--get",
    "--get-all",
    "--list",
    "-l",
    "--add",
    "--unset",
    "--replace-all",
    "--global",
    "--file",
    "-f",
    "cfg",
    "--comment",
    "--type",
    "-t",
    "bool",
    "--",
    "-z",
    "--show-origin",
    "--rename-section",
    "core",
    "alias",
    "get",
    "set",
    "list",
    "unset",
    "core.pager",
    "user.name",
    "color.ui",
    "alias.x",
    "sh",
    "x",
    "true",
];

/// Every file under `dir` with its contents.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read_dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().display().to_string();
                out.insert(name, std::fs::read(&path).unwrap_or_default());
            }
        }
    }
    out
}

/// `key=value` lines of a config file (keys as git prints them, lowercase).
fn entries(git_home: &Path, file: &Path) -> Vec<String> {
    if !file.exists() {
        return Vec::new();
    }
    let out = git(git_home, git_home, &["config", "--file"])
        .arg(file)
        .arg("--list")
        .output()
        .expect("git runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

fn git(home: &Path, cwd: &Path, args: &[&str]) -> Command {
    let mut c = Command::new("git");
    c.args(args)
        .current_dir(cwd)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_EDITOR", "false")
        .env("GIT_PAGER", "cat")
        .env("LC_ALL", "C");
    c
}

fn key_of(line: &str) -> &str {
    line.split_once('=').map_or(line, |(k, _)| k)
}

#[test]
fn unguarded_git_config_changes_only_inert_keys() {
    if Command::new("git").arg("--version").output().is_err() {
        eprintln!("git is not installed: git config conformance not checked");
        return;
    }
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let (mut ran, mut guarded) = (0, 0);
    for _ in 0..600 {
        let len = 1 + next(5);
        let mut argv = vec!["git".to_owned(), "config".to_owned()];
        argv.extend((0..len).map(|_| WORDS[next(WORDS.len())].to_owned()));
        if !check("git", &argv, Path::new("/tmp"), false).is_empty() {
            guarded += 1;
            continue;
        }
        ran += 1;
        let home = tempfile::tempdir().expect("tempdir");
        let repo = home.path().join("repo");
        std::fs::create_dir(&repo).unwrap();
        assert!(
            git(home.path(), &repo, &["init", "-q"])
                .status()
                .unwrap()
                .success()
        );
        std::fs::write(home.path().join(".gitconfig"), "[core]\n\tbare = false\n").unwrap();
        let configs = [home.path().join(".gitconfig"), repo.join(".git/config")];
        let before: Vec<Vec<String>> = configs.iter().map(|f| entries(home.path(), f)).collect();
        let files = snapshot(home.path());
        let args: Vec<&str> = argv[1..].iter().map(String::as_str).collect();
        let _ = git(home.path(), &repo, &args).output().expect("git runs");
        for (file, old) in configs.iter().zip(&before) {
            let new = entries(home.path(), file);
            for line in new
                .iter()
                .filter(|l| !old.contains(l))
                .chain(old.iter().filter(|l| !new.contains(l)))
            {
                assert!(
                    INERT_IN_POOL.contains(&key_of(line)),
                    "{argv:?} changed {line} in {}",
                    file.display()
                );
            }
        }
        let after = snapshot(home.path());
        for (name, content) in &after {
            if name.ends_with("config") || name.ends_with(".gitconfig") {
                continue;
            }
            assert_eq!(files.get(name), Some(content), "{argv:?} wrote {name}");
        }
    }
    assert!(ran > 50 && guarded > 50, "ran {ran}, guarded {guarded}");
}

#[test]
fn unguarded_git_c_gives_git_only_inert_keys() {
    if Command::new("git").arg("--version").output().is_err() {
        eprintln!("git is not installed: git -c conformance not checked");
        return;
    }
    let keys = [
        "color.ui=always",
        "Color.UI=never",
        "user.name=X",
        "core.pager=sh",
        "alias.x=!sh",
        "color.ui",
        "core.sshCommand=sh",
        "include.path=/tmp/x",
        "url.ext::sh.insteadOf=https://",
        "color.ui.x=1",
    ];
    let home = tempfile::tempdir().expect("tempdir");
    for key in keys {
        for spelled in [vec!["-c", key], vec![&*format!("-c{key}")]] {
            let mut argv = vec!["git"];
            argv.extend(spelled.iter().copied());
            argv.extend(["config", "--list", "--show-scope"]);
            let argv: Vec<String> = argv.iter().map(|s| (*s).to_owned()).collect();
            if !check("git", &argv, Path::new("/tmp"), false).is_empty() {
                continue;
            }
            let args: Vec<&str> = argv[1..].iter().map(String::as_str).collect();
            let out = git(home.path(), home.path(), &args)
                .output()
                .expect("git runs");
            for line in String::from_utf8_lossy(&out.stdout).lines() {
                if let Some(entry) = line.strip_prefix("command\t") {
                    assert!(
                        INERT_IN_POOL.contains(&key_of(entry)) || key_of(entry) == "color.ui.x",
                        "{argv:?} gave git {entry}"
                    );
                }
            }
        }
    }
}
