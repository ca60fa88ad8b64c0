//! git spec tests, named by the attack or the false refusal they stop.

use std::path::Path;

use super::check;

const CWD: &str = "/work/project";

fn ids(line: &str) -> Vec<&'static str> {
    let words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
    let (program, args) = words.split_first().expect("argv");
    check(program, args, Path::new(CWD))
        .expect("git has a spec")
        .iter()
        .map(|h| h.id)
        .collect()
}

fn reasons(line: &str) -> Vec<String> {
    let words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
    let (program, args) = words.split_first().expect("argv");
    check(program, args, Path::new(CWD))
        .expect("git has a spec")
        .into_iter()
        .map(|h| h.reason)
        .collect()
}

#[test]
fn everyday_git_trips_nothing() {
    for line in [
        "git status",
        "git status -sb",
        "git status --porcelain=v1 --short",
        "git log --oneline -n 20",
        "git log --oneline -20",
        "git log --graph --decorate --all",
        "git log -p --stat -- src",
        "git log --since=2.weeks --author=x",
        "git log --pretty=format:%h --name-only",
        "git log --format=%H -1",
        "git diff --stat HEAD~1",
        "git diff --cached",
        "git diff --name-only main...HEAD",
        "git diff -U5 --word-diff",
        "git diff --output=patch.diff",
        "git show HEAD:README.md",
        "git show --stat HEAD",
        "git branch -a",
        "git branch --merged",
        "git branch -vv",
        "git add -A",
        "git add -p src",
        "git commit -m msg",
        "git commit -am msg",
        "git commit --amend --no-edit",
        "git push origin main",
        "git push -u origin HEAD",
        "git push --force-with-lease",
        "git pull --rebase",
        "git pull --ff-only",
        "git fetch --all --prune",
        "git checkout -b x",
        "git checkout -- file",
        "git switch -c x",
        "git restore --staged f",
        "git stash",
        "git stash pop",
        "git stash list",
        "git stash show -p stash@{0}",
        "git rebase -i HEAD~3",
        "git rebase --continue",
        "git config --get user.name",
        "git config user.name",
        "git -c color.ui=always log",
        "git rev-parse --show-toplevel",
        "git rev-parse --abbrev-ref HEAD",
        "git ls-files -z",
        "git grep -n foo",
        "git grep -n -e foo -- src",
        "git blame -L 1,10 f",
        "git tag -l",
        "git remote -v",
        "git remote add origin https://example.com/x.git",
        "git worktree list",
        "git worktree add wt/x",
        "git clean -n",
        "git clean -fd",
        "git merge --no-ff feature",
        "git cherry-pick -x abc123",
        "git reset --hard HEAD~1",
        "git describe --tags --always",
        "git shortlog -sn",
        "git rev-list --count HEAD",
        "git cat-file -p HEAD",
        "git format-patch -1 HEAD",
        "git clone https://example.com/x.git",
        "git clone --depth 1 https://example.com/x.git",
        "git init",
        "git submodule update --init --recursive",
        "git reflog",
        "git --no-pager log -1",
        "git -P diff",
        "git --version",
        "git version",
        "git help log",
        "git archive --format=tar.gz --prefix=x/ -o x.tar.gz HEAD",
        "git archive -9 --format=zip HEAD",
        "git log -S foo -G bar",
        "git log -n5 --no-merges --follow -- f",
        "git log -1 --format=%cd --date=iso",
        "git log --left-right --cherry-pick A...B",
        "git log -L :func:file",
        "git diff --color=always --check",
        "git diff --name-only --diff-filter=M",
        "git diff HEAD -- file",
        "git show --name-status HEAD",
        "git commit --no-verify -m x",
        "git commit -S -m x",
        "git push --tags",
        "git push -f origin x",
        "git push origin --delete b",
        "git fetch origin main:main",
        "git checkout HEAD~1 -- f",
        "git checkout -",
        "git switch -",
        "git reset --soft HEAD~1",
        "git branch -D x",
        "git branch -m new",
        "git tag -a v1 -m msg",
        "git remote set-url origin https://example.com/y.git",
        "git remote get-url origin",
        "git config --global user.name x",
        "git status --porcelain",
        "git status -uno",
        "git cherry-pick --continue",
        "git merge --abort",
        "git stash push -m msg",
        "git stash drop",
        "git ls-files --others --exclude-standard",
        "git grep -l foo",
        "git show-ref --verify refs/heads/x",
        "git rev-parse HEAD",
        "git rev-parse --short HEAD",
        "git rev-parse --git-dir",
        "git rev-parse --is-inside-work-tree",
        "git symbolic-ref --short HEAD",
        "git for-each-ref --format=%(refname) refs/heads",
        "git count-objects -vH",
        "git gc --prune=now",
        "git fsck --full",
        "git describe --abbrev=0 --tags",
        "git blame -w -C file",
        "git shortlog -sne",
        "git worktree remove x",
        "git worktree prune",
        "git submodule status",
        "git submodule sync --recursive",
        "git bisect start",
        "git bisect good",
        "git bisect reset",
        "git notes show",
        "git reflog show --date=iso",
        "git clean -fdx",
        "git mv a b",
        "git rm --cached f",
        "git rm -r dir",
        "git restore .",
        "git apply --3way p.diff",
        "git am -3 x.mbox",
        "git format-patch -1 --stdout",
        "git cat-file -t HEAD",
        "git merge-base HEAD main",
        "git ls-tree -r HEAD",
        "git ls-remote origin",
        "git range-diff A...B",
        "git whatchanged -1",
        "git annotate f",
        "git var -l",
        "git difftool --tool=vimdiff HEAD",
        "git log --oneline --decorate=short",
        "git log --stat=100 --abbrev=8 --color",
        "git log --no-color --date=relative --reverse",
        "git log --first-parent main",
        "git log origin/main..HEAD",
        "git log -10 --pretty=fuller",
        "git show -s --format=%B HEAD",
        "git diff --stat=200 -M",
        "git diff --find-renames=50% -w --minimal --no-renames",
        "git log --grep=fix -i --all-match --max-count=3",
        "git log --until=yesterday --topo-order --merges",
        "git show --pretty=raw",
        "git log --no-walk --abbrev-commit",
        "git log -g",
        "git log --walk-reflogs",
        "git diff --no-index a b",
        "git diff --ext-diff",
        "git commit -n -m x",
        "git cherry-pick -n abc123",
        "git clone -n https://example.com/x.git",
        "git difftool -y HEAD",
        "git rebase -n main",
        "git branch --no-merged main",
        "git grep --no-index foo",
        "git status -h",
        "git",
    ] {
        assert_eq!(ids(line), Vec::<&str>::new(), "{line}");
    }
}

#[test]
fn an_abbreviated_upload_pack_is_still_a_program_git_runs() {
    assert_eq!(ids("git fetch --upload=sh origin"), ["git.runs-program"]);
    assert_eq!(ids("git fetch --upl sh origin"), ["git.runs-program"]);
    assert_eq!(
        ids("git ls-remote --upload-pack=sh x"),
        ["git.runs-program"]
    );
    assert_eq!(ids("git pull --upload-pack=sh"), ["git.runs-program"]);
    assert_eq!(ids("git clone -u sh url"), ["git.runs-program"]);
}

#[test]
fn an_abbreviated_receive_pack_is_still_a_program_git_runs() {
    assert_eq!(ids("git push --rece=sh origin"), ["git.runs-program"]);
    // `--rec` is also `--recurse-submodules`: ambiguous to git and to us.
    assert_eq!(ids("git push --rec=sh origin"), ["git.unknown-option"]);
    assert_eq!(ids("git push --exec=sh origin"), ["git.runs-program"]);
}

#[test]
fn an_abbreviated_diff_output_outside_the_tree_is_asked() {
    // Every prefix of `--output` is also one of `--output-indicator-*`:
    // ambiguous, so asked, never read as an inert option.
    assert_eq!(ids("git diff --outp=/tmp/x"), ["git.unknown-option"]);
    assert_eq!(ids("git log --outp=../x"), ["git.unknown-option"]);
    assert_eq!(ids("git log --output=../x"), ["git.writes-file"]);
    assert_eq!(ids("git diff --output /tmp/x"), ["git.writes-file"]);
    assert_eq!(
        ids("git show --output=.git/hooks/post-commit"),
        ["git.writes-file"]
    );
}

#[test]
fn a_prefix_of_output_and_output_indicator_is_ambiguous_and_asked() {
    // `--out` is `--output` or one of the `--output-indicator-*`.
    let why = reasons("git diff --out=/tmp/x");
    assert!(why[0].contains("ambiguous option --out"), "{why:?}");
}

#[test]
fn an_option_of_another_subcommand_is_unknown() {
    assert_eq!(ids("git status --oneline"), ["git.unknown-option"]);
    assert_eq!(ids("git status --output=/tmp/x"), ["git.unknown-option"]);
    assert_eq!(ids("git add --upload-pack=sh"), ["git.unknown-option"]);
}

#[test]
fn a_command_attached_to_a_short_option_is_read() {
    assert_eq!(ids("git rebase -xsh HEAD~1"), ["git.runs-program"]);
    assert_eq!(ids("git rebase -ix sh HEAD~1"), ["git.runs-program"]);
    assert_eq!(ids("git grep -Ovim x"), ["git.runs-program"]);
    assert_eq!(ids("git grep -nO x"), ["git.runs-program"]);
    assert_eq!(ids("git difftool -xsh"), ["git.runs-program"]);
}

#[test]
fn an_abbreviated_global_option_is_unknown_not_the_option_it_prefixes() {
    // git.c refuses `--work` (`unknown option: --work`): it is not `--work-tree`.
    let why = reasons("git --work x status");
    assert_eq!(ids("git --work x status"), ["git.unknown-option"]);
    assert!(why[0].contains("--work"), "{why:?}");
    assert_eq!(ids("git --git x status"), ["git.unknown-option"]);
    assert_eq!(ids("git --exec=/tmp status"), ["git.unknown-option"]);
}

#[test]
fn an_unknown_subcommand_may_be_an_alias_and_is_asked_by_name() {
    assert_eq!(ids("git pwn"), ["git.unknown-subcommand"]);
    let why = reasons("git -c x.y=z st");
    assert!(
        why.iter().any(|r| r.contains("unknown subcommand st")),
        "{why:?}"
    );
}

#[test]
fn a_config_override_naming_a_program_is_asked() {
    assert_eq!(ids("git -c core.pager=sh log"), ["git.sets-config"]);
    let why = reasons("git -c core.pager=sh log");
    assert!(why[0].starts_with("git -c core.pager=sh:"), "{why:?}");
    assert_eq!(
        ids("git -c alias.x=!sh x"),
        ["git.sets-config", "git.unknown-subcommand"]
    );
    assert_eq!(
        ids("git --config-env=core.editor=E commit"),
        ["git.sets-config"]
    );
    assert_eq!(
        ids("git clone -c core.hooksPath=/tmp/h url"),
        ["git.sets-config"]
    );
    assert_eq!(
        ids("git clone --config=color.ui=never url"),
        Vec::<&str>::new()
    );
}

#[test]
fn another_repository_outside_the_tree_is_asked() {
    assert_eq!(ids("git -C /elsewhere log"), ["git.other-tree"]);
    assert_eq!(ids("git --git-dir=/tmp/evil/.git log"), ["git.other-tree"]);
    assert_eq!(ids("git --work-tree /tmp/x status"), ["git.other-tree"]);
    assert_eq!(ids("git -C sub log"), Vec::<&str>::new());
}

#[test]
fn an_exec_path_is_asked() {
    assert_eq!(ids("git --exec-path=/tmp/x status"), ["git.runs-program"]);
}

#[test]
fn format_patch_and_archive_writing_outside_the_tree_are_asked() {
    assert_eq!(
        ids("git format-patch -o /tmp/x HEAD~3"),
        ["git.writes-file"]
    );
    assert_eq!(
        ids("git format-patch --output-dir=/tmp/x HEAD~3"),
        ["git.writes-file"]
    );
    assert_eq!(
        ids("git format-patch -o patches HEAD~3"),
        Vec::<&str>::new()
    );
    assert_eq!(ids("git archive --output=/etc/x HEAD"), ["git.writes-file"]);
    assert_eq!(ids("git archive -o/etc/x HEAD"), ["git.writes-file"]);
    assert_eq!(
        ids("git archive --exec=sh --remote=x HEAD"),
        ["git.runs-program"]
    );
}

#[test]
fn a_template_directory_loads_hooks_and_is_asked() {
    assert_eq!(ids("git clone --template=/tmp/t url"), ["git.loads-code"]);
    assert_eq!(ids("git init --templ /tmp/t"), ["git.loads-code"]);
}

#[test]
fn help_in_a_web_browser_runs_a_program() {
    assert_eq!(ids("git help -w log"), ["git.runs-program"]);
    assert_eq!(ids("git help --web log"), ["git.runs-program"]);
}

#[test]
fn credential_prints_secrets_and_is_asked() {
    assert_eq!(ids("git credential fill"), ["git.runs-program"]);
}

#[test]
fn apply_outside_the_tree_is_asked() {
    assert_eq!(ids("git apply --unsafe-paths p.diff"), ["git.writes-file"]);
    assert_eq!(
        ids("git apply --directory=/etc p.diff"),
        ["git.writes-file"]
    );
    assert_eq!(ids("git apply --check p.diff"), Vec::<&str>::new());
}

#[test]
fn a_bundle_is_asked() {
    assert_eq!(
        ids("git bundle create /tmp/x.bundle HEAD"),
        ["git.writes-file"]
    );
}

#[test]
fn a_negated_dangerous_option_is_inert() {
    assert_eq!(ids("git fetch --no-upload-pack origin"), Vec::<&str>::new());
    assert_eq!(ids("git diff --no-ext-diff"), Vec::<&str>::new());
}

#[test]
fn options_after_end_of_options_are_operands() {
    assert_eq!(
        ids("git log --end-of-options --output=/tmp/x"),
        Vec::<&str>::new()
    );
    assert_eq!(ids("git grep -e x -- -O"), Vec::<&str>::new());
}

#[test]
fn a_merge_strategy_not_built_in_runs_a_program_and_is_asked() {
    assert_eq!(ids("git merge -s evil x"), ["git.runs-program"]);
}

#[test]
fn a_dangerous_option_after_operands_is_still_read() {
    // parse-options permutes: options may follow the repository and refs.
    assert_eq!(
        ids("git fetch origin --upload-pack=sh"),
        ["git.runs-program"]
    );
    assert_eq!(
        ids("git clone url dir --template=/tmp/t"),
        ["git.loads-code"]
    );
    assert_eq!(ids("git diff HEAD --output=/tmp/x"), ["git.writes-file"]);
    assert_eq!(
        ids("git push origin main --receive-pack sh"),
        ["git.runs-program"]
    );
}

#[test]
fn a_value_given_to_a_negation_is_asked() {
    // `--no-upload-pack=sh` is an error to git; never read as inert.
    assert_eq!(ids("git fetch --no-upload-pack=sh"), ["git.unknown-option"]);
}

#[test]
fn a_global_option_after_the_subcommand_is_the_subcommand_s_option() {
    // `-C` after `log` is log's copy detection, `-c` the combined diff.
    assert_eq!(ids("git log -C -c"), Vec::<&str>::new());
    // `--work-tree` after `status` is unknown to status.
    assert_eq!(ids("git status --work-tree=/tmp"), ["git.unknown-option"]);
}

#[test]
fn an_abbreviated_exec_of_rebase_is_a_command_git_runs() {
    assert_eq!(ids("git rebase --exe=sh HEAD~1"), ["git.runs-program"]);
    assert_eq!(ids("git rebase --exec sh HEAD~1"), ["git.runs-program"]);
}

#[test]
fn help_spelled_as_an_option_is_read_as_git_help() {
    // git.c turns `git SUB --help …` into `git help SUB …` and a global
    // `--help`/`-h` into `git help …`, so `-w` there opens a web browser.
    for line in [
        "git log --help -w",
        "git status --help --web",
        "git --help log -w",
        "git -h log --web",
        "git -C . log --help -w",
    ] {
        assert_eq!(ids(line), ["git.runs-program"], "{line}");
        assert!(
            reasons(line).iter().any(|r| r.contains("web browser")),
            "{line}"
        );
    }
    // Plain help stays plain; `--help` later in the words is log's own
    // (parse-options prints log's usage), and `-w` there is log's.
    for line in [
        "git log --help",
        "git --help log",
        "git -h",
        "git help log",
        "git log -p --help -w",
        "git log -w",
    ] {
        assert!(ids(line).is_empty(), "{line}: {:?}", ids(line));
    }
}
