//! gh, the GitHub CLI. Options and subcommands from gh 2.23.0's `gh <cmd>
//! [<sub>] --help` (FLAGS and INHERITED FLAGS, every command listed under
//! a COMMANDS heading), and the aliases probed with `--help` (`gh pr ls`,
//! `gh cs`). cobra and pflag: long names exact (no abbreviation: tried),
//! `--opt=v` or `--opt v`, short bundles with attached values, `-o=v` as
//! `-o v`, options anywhere until `--`; a group's options (`-R` of `gh
//! pr`) come before its subcommand or, being persistent, after it.
//!
//! Talking to GitHub is gh's job: viewing, listing, commenting, creating
//! and merging pull requests and issues (`gh pr create` pushes the branch,
//! as `git push` would), cloning into the tree (a clone directory outside
//! it is asked). Asked: `gh api` (any
//! request, any method: too wide to judge), whatever uploads a local file
//! (`--body-file`, `gh gist create`, `gh release create|upload`, keys,
//! secrets), prints a token, opens a browser or an editor (programs gh's
//! config or the environment names), runs ssh or an extension, installs
//! an extension, sets gh's config or aliases (which can name shell command
//! lines), starts a workflow, deletes or reconfigures a repository, writes
//! downloads outside the tree, and words after `--` that `gh repo clone`
//! hands to `git clone` as options. Unknown commands are asked: gh runs
//! extensions (`gh-NAME` executables) and aliases by their names.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::{
    Effect::{LoadsCode, RunsProgram, SetsConfig, Uploads, WritesFile},
    Grammar, Opt, Spec, Sub, flag, group, ids, loads, location, sub, value,
};

const BROWSER: &str =
    "opens a web browser: gh runs the program its config, GH_BROWSER or BROWSER names";
const EDITOR: &str =
    "opens an editor: gh runs the program its config, GH_EDITOR, VISUAL or EDITOR names";
const BODY_FILE: &str = "sends the contents of a local file to GitHub";
const RECOVER: &str = "sends the contents of a local recovery file to GitHub";
const TOKEN: &str = "prints the GitHub token, a secret, where the agent reads it";
const LOGIN: &str = "changes the GitHub credentials gh stores and uses";
const SETUP_GIT: &str = "sets git's credential helper to run gh for GitHub hosts";
const CS_SSH: &str = "runs ssh to a codespace, with any remote command or ssh options";
const CS_CP: &str = "copies files between this machine and a codespace (scp)";
const CS_CODE: &str = "opens Visual Studio Code, a program gh runs";
const GIST: &str = "uploads local files to a gist";
const RELEASE: &str = "uploads the local files named as operands as release assets";
const DELETES: &str = "deletes a GitHub repository, which cannot be undone";
const REPO_SETTINGS: &str =
    "changes a repository's settings (visibility, name, archived), which others depend on";
const KEY: &str = "adds a key to the GitHub account or repository, granting whoever holds its private half access";
const WORKFLOW: &str =
    "starts a GitHub Actions workflow, which runs code with the repository's secrets";
const ALIAS: &str =
    "changes gh's aliases, which expand to any gh command or (--shell) a shell command line";
const API: &str = "makes any authenticated GitHub API request, which can change or delete anything the token can (and -F @file or --input sends a file)";
const CONFIG: &str = "sets gh's config: editor, pager and browser name programs gh runs";
const EXTENSION: &str = "installs or upgrades a gh extension, code that runs as a gh command";
const EXTENSION_EXEC: &str = "runs an installed gh extension, a program of any kind";
const EXTENSION_CREATE: &str =
    "creates a new extension's files, an executable script, and runs git init";
const EXTENSION_REMOVE: &str = "removes an installed gh extension";
const SECRET: &str = "stores a secret on GitHub from a value, a file or stdin";
const SECRET_DELETE: &str = "deletes a secret that workflows use";
const DOWNLOAD: &str = "writes downloaded files";
const SOURCE: &str = "pushes a local repository to the new GitHub repository";
const GIT_FLAGS: &str = "passes the words after -- to git clone as options, which can run programs (--upload-pack, -c core.sshCommand)";

/// Every command's `--help`.
const HELP: &[Opt] = &[flag(&["--help"])];

/// `-R`, persistent in the repository commands.
const REPO: &[Opt] = &[value(&["-R", "--repo"])];

/// `-c`, persistent in `gh codespace ports`.
const CODESPACE: &[Opt] = &[value(&["-c", "--codespace"])];

const ROOT: &[Opt] = &[flag(&["--help"]), flag(&["--version"])];

const AUTH_LOGIN_OPTS: &[Opt] = &[
    value(&["-p", "--git-protocol"]),
    value(&["-h", "--hostname"]),
    value(&["-s", "--scopes"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
    flag(&["--with-token"]),
];

const AUTH_LOGOUT_OPTS: &[Opt] = &[value(&["-h", "--hostname"])];

const AUTH_REFRESH_OPTS: &[Opt] = &[value(&["-h", "--hostname"]), value(&["-s", "--scopes"])];

const AUTH_SETUP_GIT_OPTS: &[Opt] = &[value(&["-h", "--hostname"])];

const AUTH_STATUS_OPTS: &[Opt] = &[
    value(&["-h", "--hostname"]),
    flag(&["-t", "--show-token"]).does(Uploads(TOKEN)),
];

const AUTH_TOKEN_OPTS: &[Opt] = &[value(&["-h", "--hostname"])];

const AUTH_SUBS: &[Sub] = &[
    sub(&["login"], &[AUTH_LOGIN_OPTS, HELP]).does(SetsConfig(LOGIN)),
    sub(&["logout"], &[AUTH_LOGOUT_OPTS, HELP]).does(SetsConfig(LOGIN)),
    sub(&["refresh"], &[AUTH_REFRESH_OPTS, HELP]).does(SetsConfig(LOGIN)),
    sub(&["setup-git"], &[AUTH_SETUP_GIT_OPTS, HELP]).does(SetsConfig(SETUP_GIT)),
    sub(&["status"], &[AUTH_STATUS_OPTS, HELP]),
    sub(&["token"], &[AUTH_TOKEN_OPTS, HELP]).does(Uploads(TOKEN)),
];

const BROWSE_OPTS: &[Opt] = &[
    value(&["-b", "--branch"]),
    flag(&["-c", "--commit"]),
    flag(&["-n", "--no-browser"]),
    flag(&["-p", "--projects"]),
    value(&["-R", "--repo"]),
    flag(&["-s", "--settings"]),
    flag(&["-w", "--wiki"]),
];

const CODESPACE_CODE_OPTS: &[Opt] = &[
    value(&["-c", "--codespace"]),
    flag(&["--insiders"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const CODESPACE_CP_OPTS: &[Opt] = &[
    value(&["-c", "--codespace"]),
    flag(&["-e", "--expand"]),
    value(&["-p", "--profile"]),
    flag(&["-r", "--recursive"]),
];

const CODESPACE_CREATE_OPTS: &[Opt] = &[
    value(&["-b", "--branch"]),
    flag(&["--default-permissions"]),
    value(&["--devcontainer-path"]),
    value(&["-d", "--display-name"]),
    value(&["--idle-timeout"]),
    value(&["-l", "--location"]),
    value(&["-m", "--machine"]),
    value(&["-R", "--repo"]),
    value(&["--retention-period"]),
    flag(&["-s", "--status"]),
];

const CODESPACE_DELETE_OPTS: &[Opt] = &[
    flag(&["--all"]),
    value(&["-c", "--codespace"]),
    value(&["--days"]),
    flag(&["-f", "--force"]),
    value(&["-o", "--org"]),
    value(&["-R", "--repo"]),
    value(&["-u", "--user"]),
];

const CODESPACE_EDIT_OPTS: &[Opt] = &[
    value(&["-c", "--codespace"]),
    value(&["-d", "--display-name"]),
    value(&["-m", "--machine"]),
];

const CODESPACE_JUPYTER_OPTS: &[Opt] = &[value(&["-c", "--codespace"])];

const CODESPACE_LIST_OPTS: &[Opt] = &[
    value(&["-q", "--jq"]),
    value(&["--json"]),
    value(&["-L", "--limit"]),
    value(&["-o", "--org"]),
    value(&["-R", "--repo"]),
    value(&["-t", "--template"]),
    value(&["-u", "--user"]),
];

const CODESPACE_LOGS_OPTS: &[Opt] = &[value(&["-c", "--codespace"]), flag(&["-f", "--follow"])];

const CODESPACE_PORTS_OPTS: &[Opt] = &[
    value(&["-c", "--codespace"]),
    value(&["-q", "--jq"]),
    value(&["--json"]),
    value(&["-t", "--template"]),
];

const CODESPACE_PORTS_SUBS: &[Sub] = &[
    sub(&["forward"], &[CODESPACE, HELP]).does(RunsProgram(CS_SSH)),
    sub(&["visibility"], &[CODESPACE, HELP]),
];

const CODESPACE_REBUILD_OPTS: &[Opt] = &[value(&["-c", "--codespace"]), flag(&["--full"])];

const CODESPACE_SSH_OPTS: &[Opt] = &[
    value(&["-c", "--codespace"]),
    flag(&["--config"]),
    flag(&["-d", "--debug"]),
    value(&["--debug-file"]),
    value(&["--profile"]),
    value(&["--server-port"]),
];

const CODESPACE_STOP_OPTS: &[Opt] = &[
    value(&["-c", "--codespace"]),
    value(&["-o", "--org"]),
    value(&["-u", "--user"]),
];

const CODESPACE_SUBS: &[Sub] = &[
    sub(&["code"], &[CODESPACE_CODE_OPTS, HELP]).does(RunsProgram(CS_CODE)),
    sub(&["cp"], &[CODESPACE_CP_OPTS, HELP]).does(Uploads(CS_CP)),
    sub(&["create"], &[CODESPACE_CREATE_OPTS, HELP]),
    sub(&["delete"], &[CODESPACE_DELETE_OPTS, HELP]),
    sub(&["edit"], &[CODESPACE_EDIT_OPTS, HELP]),
    sub(&["jupyter"], &[CODESPACE_JUPYTER_OPTS, HELP]).does(RunsProgram(BROWSER)),
    sub(&["list", "ls"], &[CODESPACE_LIST_OPTS, HELP]),
    sub(&["logs"], &[CODESPACE_LOGS_OPTS, HELP]).does(RunsProgram(CS_SSH)),
    group(
        &["ports"],
        &[CODESPACE_PORTS_OPTS, HELP],
        CODESPACE_PORTS_SUBS,
    ),
    sub(&["rebuild"], &[CODESPACE_REBUILD_OPTS, HELP]),
    sub(&["ssh"], &[CODESPACE_SSH_OPTS, HELP]).does(RunsProgram(CS_SSH)),
    sub(&["stop"], &[CODESPACE_STOP_OPTS, HELP]),
];

const GIST_CREATE_OPTS: &[Opt] = &[
    value(&["-d", "--desc"]),
    value(&["-f", "--filename"]),
    flag(&["-p", "--public"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const GIST_EDIT_OPTS: &[Opt] = &[
    value(&["-a", "--add"]),
    value(&["-d", "--desc"]),
    value(&["-f", "--filename"]),
];

const GIST_LIST_OPTS: &[Opt] = &[
    value(&["-L", "--limit"]),
    flag(&["--public"]),
    flag(&["--secret"]),
];

const GIST_VIEW_OPTS: &[Opt] = &[
    value(&["-f", "--filename"]),
    flag(&["--files"]),
    flag(&["-r", "--raw"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const GIST_SUBS: &[Sub] = &[
    sub(&["clone"], &[HELP]).passes(RunsProgram(GIT_FLAGS)),
    sub(&["create", "new"], &[GIST_CREATE_OPTS, HELP]).does(Uploads(GIST)),
    sub(&["delete"], &[HELP]),
    sub(&["edit"], &[GIST_EDIT_OPTS, HELP]).does(RunsProgram(EDITOR)),
    sub(&["list", "ls"], &[GIST_LIST_OPTS, HELP]),
    sub(&["view"], &[GIST_VIEW_OPTS, HELP]),
];

const ISSUE_OPTS: &[Opt] = &[value(&["-R", "--repo"])];

const ISSUE_CREATE_OPTS: &[Opt] = &[
    value(&["-a", "--assignee"]),
    value(&["-b", "--body"]),
    value(&["-F", "--body-file"]).does(Uploads(BODY_FILE)),
    value(&["-l", "--label"]),
    value(&["-m", "--milestone"]),
    value(&["-p", "--project"]),
    value(&["--recover"]).does(Uploads(RECOVER)),
    value(&["-t", "--title"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const ISSUE_LIST_OPTS: &[Opt] = &[
    value(&["--app"]),
    value(&["-a", "--assignee"]),
    value(&["-A", "--author"]),
    value(&["-q", "--jq"]),
    value(&["--json"]),
    value(&["-l", "--label"]),
    value(&["-L", "--limit"]),
    value(&["--mention"]),
    value(&["-m", "--milestone"]),
    value(&["-S", "--search"]),
    value(&["-s", "--state"]),
    value(&["-t", "--template"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const ISSUE_STATUS_OPTS: &[Opt] = &[
    value(&["-q", "--jq"]),
    value(&["--json"]),
    value(&["-t", "--template"]),
];

const ISSUE_CLOSE_OPTS: &[Opt] = &[value(&["-c", "--comment"]), value(&["-r", "--reason"])];

const ISSUE_COMMENT_OPTS: &[Opt] = &[
    value(&["-b", "--body"]),
    value(&["-F", "--body-file"]).does(Uploads(BODY_FILE)),
    flag(&["--edit-last"]),
    flag(&["-e", "--editor"]).does(RunsProgram(EDITOR)),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const ISSUE_DELETE_OPTS: &[Opt] = &[flag(&["--yes"])];

const ISSUE_DEVELOP_OPTS: &[Opt] = &[
    value(&["-b", "--base"]),
    flag(&["-c", "--checkout"]),
    value(&["-i", "--issue-repo"]),
    flag(&["-l", "--list"]),
    value(&["-n", "--name"]),
];

const ISSUE_EDIT_OPTS: &[Opt] = &[
    value(&["--add-assignee"]),
    value(&["--add-label"]),
    value(&["--add-project"]),
    value(&["-b", "--body"]),
    value(&["-F", "--body-file"]).does(Uploads(BODY_FILE)),
    value(&["-m", "--milestone"]),
    value(&["--remove-assignee"]),
    value(&["--remove-label"]),
    value(&["--remove-project"]),
    value(&["-t", "--title"]),
];

const ISSUE_LOCK_OPTS: &[Opt] = &[value(&["-r", "--reason"])];

const ISSUE_REOPEN_OPTS: &[Opt] = &[value(&["-c", "--comment"])];

const ISSUE_VIEW_OPTS: &[Opt] = &[
    flag(&["-c", "--comments"]),
    value(&["-q", "--jq"]),
    value(&["--json"]),
    value(&["-t", "--template"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const ISSUE_SUBS: &[Sub] = &[
    sub(&["create", "new"], &[ISSUE_CREATE_OPTS, REPO, HELP]),
    sub(&["list", "ls"], &[ISSUE_LIST_OPTS, REPO, HELP]),
    sub(&["status"], &[ISSUE_STATUS_OPTS, REPO, HELP]),
    sub(&["close"], &[ISSUE_CLOSE_OPTS, REPO, HELP]),
    sub(&["comment"], &[ISSUE_COMMENT_OPTS, REPO, HELP]),
    sub(&["delete"], &[ISSUE_DELETE_OPTS, REPO, HELP]),
    sub(&["develop"], &[ISSUE_DEVELOP_OPTS, REPO, HELP]),
    sub(&["edit"], &[ISSUE_EDIT_OPTS, REPO, HELP]),
    sub(&["lock"], &[ISSUE_LOCK_OPTS, REPO, HELP]),
    sub(&["pin"], &[REPO, HELP]),
    sub(&["reopen"], &[ISSUE_REOPEN_OPTS, REPO, HELP]),
    sub(&["transfer"], &[REPO, HELP]),
    sub(&["unlock"], &[REPO, HELP]),
    sub(&["unpin"], &[REPO, HELP]),
    sub(&["view"], &[ISSUE_VIEW_OPTS, REPO, HELP]),
];

const PR_OPTS: &[Opt] = &[value(&["-R", "--repo"])];

const PR_CREATE_OPTS: &[Opt] = &[
    value(&["-a", "--assignee"]),
    value(&["-B", "--base"]),
    value(&["-b", "--body"]),
    value(&["-F", "--body-file"]).does(Uploads(BODY_FILE)),
    flag(&["-d", "--draft"]),
    flag(&["-f", "--fill"]),
    value(&["-H", "--head"]),
    value(&["-l", "--label"]),
    value(&["-m", "--milestone"]),
    flag(&["--no-maintainer-edit"]),
    value(&["-p", "--project"]),
    value(&["--recover"]).does(Uploads(RECOVER)),
    value(&["-r", "--reviewer"]),
    value(&["-t", "--title"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const PR_LIST_OPTS: &[Opt] = &[
    value(&["--app"]),
    value(&["-a", "--assignee"]),
    value(&["-A", "--author"]),
    value(&["-B", "--base"]),
    flag(&["-d", "--draft"]),
    value(&["-H", "--head"]),
    value(&["-q", "--jq"]),
    value(&["--json"]),
    value(&["-l", "--label"]),
    value(&["-L", "--limit"]),
    value(&["-S", "--search"]),
    value(&["-s", "--state"]),
    value(&["-t", "--template"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const PR_STATUS_OPTS: &[Opt] = &[
    flag(&["-c", "--conflict-status"]),
    value(&["-q", "--jq"]),
    value(&["--json"]),
    value(&["-t", "--template"]),
];

const PR_CHECKOUT_OPTS: &[Opt] = &[
    value(&["-b", "--branch"]),
    flag(&["--detach"]),
    flag(&["-f", "--force"]),
    flag(&["--recurse-submodules"]),
];

const PR_CHECKS_OPTS: &[Opt] = &[
    value(&["-i", "--interval"]),
    flag(&["--required"]),
    flag(&["--watch"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const PR_CLOSE_OPTS: &[Opt] = &[
    value(&["-c", "--comment"]),
    flag(&["-d", "--delete-branch"]),
];

const PR_COMMENT_OPTS: &[Opt] = ISSUE_COMMENT_OPTS;

const PR_DIFF_OPTS: &[Opt] = &[
    value(&["--color"]),
    flag(&["--name-only"]),
    flag(&["--patch"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const PR_EDIT_OPTS: &[Opt] = &[
    value(&["--add-assignee"]),
    value(&["--add-label"]),
    value(&["--add-project"]),
    value(&["--add-reviewer"]),
    value(&["-B", "--base"]),
    value(&["-b", "--body"]),
    value(&["-F", "--body-file"]).does(Uploads(BODY_FILE)),
    value(&["-m", "--milestone"]),
    value(&["--remove-assignee"]),
    value(&["--remove-label"]),
    value(&["--remove-project"]),
    value(&["--remove-reviewer"]),
    value(&["-t", "--title"]),
];

const PR_LOCK_OPTS: &[Opt] = &[value(&["-r", "--reason"])];

const PR_MERGE_OPTS: &[Opt] = &[
    flag(&["--admin"]),
    value(&["-A", "--author-email"]),
    flag(&["--auto"]),
    value(&["-b", "--body"]),
    value(&["-F", "--body-file"]).does(Uploads(BODY_FILE)),
    flag(&["-d", "--delete-branch"]),
    flag(&["--disable-auto"]),
    value(&["--match-head-commit"]),
    flag(&["-m", "--merge"]),
    flag(&["-r", "--rebase"]),
    flag(&["-s", "--squash"]),
    value(&["-t", "--subject"]),
];

const PR_READY_OPTS: &[Opt] = &[flag(&["--undo"])];

const PR_REOPEN_OPTS: &[Opt] = &[value(&["-c", "--comment"])];

const PR_REVIEW_OPTS: &[Opt] = &[
    flag(&["-a", "--approve"]),
    value(&["-b", "--body"]),
    value(&["-F", "--body-file"]).does(Uploads(BODY_FILE)),
    flag(&["-c", "--comment"]),
    flag(&["-r", "--request-changes"]),
];

const PR_VIEW_OPTS: &[Opt] = ISSUE_VIEW_OPTS;

const PR_SUBS: &[Sub] = &[
    sub(&["create", "new"], &[PR_CREATE_OPTS, REPO, HELP]),
    sub(&["list", "ls"], &[PR_LIST_OPTS, REPO, HELP]),
    sub(&["status"], &[PR_STATUS_OPTS, REPO, HELP]),
    sub(&["checkout"], &[PR_CHECKOUT_OPTS, REPO, HELP]),
    sub(&["checks"], &[PR_CHECKS_OPTS, REPO, HELP]),
    sub(&["close"], &[PR_CLOSE_OPTS, REPO, HELP]),
    sub(&["comment"], &[PR_COMMENT_OPTS, REPO, HELP]),
    sub(&["diff"], &[PR_DIFF_OPTS, REPO, HELP]),
    sub(&["edit"], &[PR_EDIT_OPTS, REPO, HELP]),
    sub(&["lock"], &[PR_LOCK_OPTS, REPO, HELP]),
    sub(&["merge"], &[PR_MERGE_OPTS, REPO, HELP]),
    sub(&["ready"], &[PR_READY_OPTS, REPO, HELP]),
    sub(&["reopen"], &[PR_REOPEN_OPTS, REPO, HELP]),
    sub(&["review"], &[PR_REVIEW_OPTS, REPO, HELP]),
    sub(&["unlock"], &[REPO, HELP]),
    sub(&["view"], &[PR_VIEW_OPTS, REPO, HELP]),
];

const RELEASE_OPTS: &[Opt] = &[value(&["-R", "--repo"])];

const RELEASE_CREATE_OPTS: &[Opt] = &[
    value(&["--discussion-category"]),
    flag(&["-d", "--draft"]),
    flag(&["--generate-notes"]),
    flag(&["--latest"]),
    value(&["-n", "--notes"]),
    value(&["-F", "--notes-file"]).does(Uploads(BODY_FILE)),
    value(&["--notes-start-tag"]),
    flag(&["-p", "--prerelease"]),
    value(&["--target"]),
    value(&["-t", "--title"]),
    flag(&["--verify-tag"]),
];

const RELEASE_LIST_OPTS: &[Opt] = &[
    flag(&["--exclude-drafts"]),
    flag(&["--exclude-pre-releases"]),
    value(&["-L", "--limit"]),
];

const RELEASE_DELETE_OPTS: &[Opt] = &[flag(&["--cleanup-tag"]), flag(&["-y", "--yes"])];

const RELEASE_DELETE_ASSET_OPTS: &[Opt] = &[flag(&["-y", "--yes"])];

const RELEASE_DOWNLOAD_OPTS: &[Opt] = &[
    value(&["-A", "--archive"]),
    flag(&["--clobber"]),
    value(&["-D", "--dir"]).does(WritesFile(DOWNLOAD)),
    value(&["-O", "--output"]).does(WritesFile(DOWNLOAD)),
    value(&["-p", "--pattern"]),
    flag(&["--skip-existing"]),
];

const RELEASE_EDIT_OPTS: &[Opt] = &[
    value(&["--discussion-category"]),
    flag(&["--draft"]),
    flag(&["--latest"]),
    value(&["-n", "--notes"]),
    value(&["-F", "--notes-file"]).does(Uploads(BODY_FILE)),
    flag(&["--prerelease"]),
    value(&["--tag"]),
    value(&["--target"]),
    value(&["-t", "--title"]),
];

const RELEASE_UPLOAD_OPTS: &[Opt] = &[flag(&["--clobber"])];

const RELEASE_VIEW_OPTS: &[Opt] = &[
    value(&["-q", "--jq"]),
    value(&["--json"]),
    value(&["-t", "--template"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const RELEASE_SUBS: &[Sub] = &[
    sub(&["create", "new"], &[RELEASE_CREATE_OPTS, REPO, HELP]).does(Uploads(RELEASE)),
    sub(&["list", "ls"], &[RELEASE_LIST_OPTS, REPO, HELP]),
    sub(&["delete"], &[RELEASE_DELETE_OPTS, REPO, HELP]),
    sub(&["delete-asset"], &[RELEASE_DELETE_ASSET_OPTS, REPO, HELP]),
    sub(&["download"], &[RELEASE_DOWNLOAD_OPTS, REPO, HELP]),
    sub(&["edit"], &[RELEASE_EDIT_OPTS, REPO, HELP]),
    sub(&["upload"], &[RELEASE_UPLOAD_OPTS, REPO, HELP]).does(Uploads(RELEASE)),
    sub(&["view"], &[RELEASE_VIEW_OPTS, REPO, HELP]),
];

const REPO_CREATE_OPTS: &[Opt] = &[
    flag(&["--add-readme"]),
    flag(&["-c", "--clone"]),
    value(&["-d", "--description"]),
    flag(&["--disable-issues"]),
    flag(&["--disable-wiki"]),
    value(&["-g", "--gitignore"]),
    value(&["-h", "--homepage"]),
    flag(&["--include-all-branches"]),
    flag(&["--internal"]),
    value(&["-l", "--license"]),
    flag(&["--private"]),
    flag(&["--public"]),
    flag(&["--push"]),
    value(&["-r", "--remote"]),
    value(&["-s", "--source"]).does(Uploads(SOURCE)),
    value(&["-t", "--team"]),
    value(&["-p", "--template"]),
];

const REPO_LIST_OPTS: &[Opt] = &[
    flag(&["--archived"]),
    flag(&["--fork"]),
    value(&["-q", "--jq"]),
    value(&["--json"]),
    value(&["-l", "--language"]),
    value(&["-L", "--limit"]),
    flag(&["--no-archived"]),
    flag(&["--source"]),
    value(&["-t", "--template"]),
    value(&["--topic"]),
    value(&["--visibility"]),
];

const REPO_ARCHIVE_OPTS: &[Opt] = &[flag(&["-y", "--yes"])];

const REPO_CLONE_OPTS: &[Opt] = &[value(&["-u", "--upstream-remote-name"])];

const REPO_DELETE_OPTS: &[Opt] = &[flag(&["--yes"])];

const REPO_DEPLOY_KEY_OPTS: &[Opt] = &[value(&["-R", "--repo"])];

const REPO_DEPLOY_KEY_ADD_OPTS: &[Opt] =
    &[flag(&["-w", "--allow-write"]), value(&["-t", "--title"])];

const REPO_DEPLOY_KEY_SUBS: &[Sub] = &[
    sub(&["add"], &[REPO_DEPLOY_KEY_ADD_OPTS, REPO, HELP]).does(Uploads(KEY)),
    sub(&["delete"], &[REPO, HELP]),
    sub(&["list", "ls"], &[REPO, HELP]),
];

const REPO_EDIT_OPTS: &[Opt] = &[
    value(&["--add-topic"]),
    flag(&["--allow-forking"]),
    flag(&["--allow-update-branch"]),
    value(&["--default-branch"]),
    flag(&["--delete-branch-on-merge"]),
    value(&["-d", "--description"]),
    flag(&["--enable-auto-merge"]),
    flag(&["--enable-discussions"]),
    flag(&["--enable-issues"]),
    flag(&["--enable-merge-commit"]),
    flag(&["--enable-projects"]),
    flag(&["--enable-rebase-merge"]),
    flag(&["--enable-squash-merge"]),
    flag(&["--enable-wiki"]),
    value(&["-h", "--homepage"]),
    value(&["--remove-topic"]),
    flag(&["--template"]),
    value(&["--visibility"]),
];

const REPO_FORK_OPTS: &[Opt] = &[
    flag(&["--clone"]),
    flag(&["--default-branch-only"]),
    value(&["--fork-name"]),
    value(&["--org"]),
    flag(&["--remote"]),
    value(&["--remote-name"]),
];

const REPO_RENAME_OPTS: &[Opt] = &[value(&["-R", "--repo"]), flag(&["-y", "--yes"])];

const REPO_SET_DEFAULT_OPTS: &[Opt] = &[flag(&["-u", "--unset"]), flag(&["-v", "--view"])];

const REPO_SYNC_OPTS: &[Opt] = &[
    value(&["-b", "--branch"]),
    flag(&["--force"]),
    value(&["-s", "--source"]),
];

const REPO_VIEW_OPTS: &[Opt] = &[
    value(&["-b", "--branch"]),
    value(&["-q", "--jq"]),
    value(&["--json"]),
    value(&["-t", "--template"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const REPO_SUBS: &[Sub] = &[
    sub(&["create", "new"], &[REPO_CREATE_OPTS, HELP]),
    sub(&["list", "ls"], &[REPO_LIST_OPTS, HELP]),
    sub(&["archive"], &[REPO_ARCHIVE_OPTS, HELP]).does(SetsConfig(REPO_SETTINGS)),
    sub(&["clone"], &[REPO_CLONE_OPTS, HELP])
        .passes(RunsProgram(GIT_FLAGS))
        .operands(Operands::Fills(1, "clones into this directory")),
    sub(&["delete"], &[REPO_DELETE_OPTS, HELP]).does(SetsConfig(DELETES)),
    group(
        &["deploy-key"],
        &[REPO_DEPLOY_KEY_OPTS, HELP],
        REPO_DEPLOY_KEY_SUBS,
    ),
    sub(&["edit"], &[REPO_EDIT_OPTS, HELP]).does(SetsConfig(REPO_SETTINGS)),
    sub(&["fork"], &[REPO_FORK_OPTS, HELP]).passes(RunsProgram(GIT_FLAGS)),
    sub(&["rename"], &[REPO_RENAME_OPTS, HELP]).does(SetsConfig(REPO_SETTINGS)),
    sub(&["set-default"], &[REPO_SET_DEFAULT_OPTS, HELP]),
    sub(&["sync"], &[REPO_SYNC_OPTS, HELP]),
    sub(&["view"], &[REPO_VIEW_OPTS, HELP]),
];

const RUN_OPTS: &[Opt] = &[value(&["-R", "--repo"])];

const RUN_DOWNLOAD_OPTS: &[Opt] = &[
    value(&["-D", "--dir"]).does(WritesFile(DOWNLOAD)),
    value(&["-n", "--name"]),
    value(&["-p", "--pattern"]),
];

const RUN_LIST_OPTS: &[Opt] = &[
    value(&["-b", "--branch"]),
    value(&["-q", "--jq"]),
    value(&["--json"]),
    value(&["-L", "--limit"]),
    value(&["-t", "--template"]),
    value(&["-u", "--user"]),
    value(&["-w", "--workflow"]),
];

const RUN_RERUN_OPTS: &[Opt] = &[
    flag(&["-d", "--debug"]),
    flag(&["--failed"]),
    value(&["-j", "--job"]),
];

const RUN_VIEW_OPTS: &[Opt] = &[
    flag(&["--exit-status"]),
    value(&["-j", "--job"]),
    value(&["-q", "--jq"]),
    value(&["--json"]),
    flag(&["--log"]),
    flag(&["--log-failed"]),
    value(&["-t", "--template"]),
    flag(&["-v", "--verbose"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const RUN_WATCH_OPTS: &[Opt] = &[flag(&["--exit-status"]), value(&["-i", "--interval"])];

const RUN_SUBS: &[Sub] = &[
    sub(&["cancel"], &[REPO, HELP]),
    sub(&["download"], &[RUN_DOWNLOAD_OPTS, REPO, HELP]),
    sub(&["list", "ls"], &[RUN_LIST_OPTS, REPO, HELP]),
    sub(&["rerun"], &[RUN_RERUN_OPTS, REPO, HELP]),
    sub(&["view"], &[RUN_VIEW_OPTS, REPO, HELP]),
    sub(&["watch"], &[RUN_WATCH_OPTS, REPO, HELP]),
];

const WORKFLOW_OPTS: &[Opt] = &[value(&["-R", "--repo"])];

const WORKFLOW_LIST_OPTS: &[Opt] = &[flag(&["-a", "--all"]), value(&["-L", "--limit"])];

const WORKFLOW_RUN_OPTS: &[Opt] = &[
    value(&["-F", "--field"]),
    flag(&["--json"]),
    value(&["-f", "--raw-field"]),
    value(&["-r", "--ref"]),
];

const WORKFLOW_VIEW_OPTS: &[Opt] = &[
    value(&["-r", "--ref"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
    flag(&["-y", "--yaml"]),
];

const WORKFLOW_SUBS: &[Sub] = &[
    sub(&["disable"], &[REPO, HELP]),
    sub(&["enable"], &[REPO, HELP]),
    sub(&["list", "ls"], &[WORKFLOW_LIST_OPTS, REPO, HELP]),
    sub(&["run"], &[WORKFLOW_RUN_OPTS, REPO, HELP]).does(RunsProgram(WORKFLOW)),
    sub(&["view"], &[WORKFLOW_VIEW_OPTS, REPO, HELP]),
];

const ALIAS_SET_OPTS: &[Opt] = &[flag(&["-s", "--shell"])];

const ALIAS_SUBS: &[Sub] = &[
    sub(&["delete"], &[HELP]).does(SetsConfig(ALIAS)),
    sub(&["list", "ls"], &[HELP]),
    sub(&["set"], &[ALIAS_SET_OPTS, HELP]).does(SetsConfig(ALIAS)),
];

const API_OPTS: &[Opt] = &[
    value(&["--cache"]),
    value(&["-F", "--field"]),
    value(&["-H", "--header"]),
    value(&["--hostname"]),
    flag(&["-i", "--include"]),
    value(&["--input"]),
    value(&["-q", "--jq"]),
    value(&["-X", "--method"]),
    flag(&["--paginate"]),
    value(&["-p", "--preview"]),
    value(&["-f", "--raw-field"]),
    flag(&["--silent"]),
    value(&["-t", "--template"]),
];

const COMPLETION_OPTS: &[Opt] = &[value(&["-s", "--shell"])];

const CONFIG_GET_OPTS: &[Opt] = &[value(&["-h", "--host"])];

const CONFIG_LIST_OPTS: &[Opt] = &[value(&["-h", "--host"])];

const CONFIG_SET_OPTS: &[Opt] = &[value(&["-h", "--host"])];

const CONFIG_SUBS: &[Sub] = &[
    sub(&["get"], &[CONFIG_GET_OPTS, HELP]),
    sub(&["list", "ls"], &[CONFIG_LIST_OPTS, HELP]),
    sub(&["set"], &[CONFIG_SET_OPTS, HELP]).does(SetsConfig(CONFIG)),
];

const EXTENSION_BROWSE_OPTS: &[Opt] = &[flag(&["--debug"]), flag(&["-s", "--single-column"])];

const EXTENSION_CREATE_OPTS: &[Opt] = &[value(&["--precompiled"])];

const EXTENSION_INSTALL_OPTS: &[Opt] = &[value(&["--pin"])];

const EXTENSION_SEARCH_OPTS: &[Opt] = &[
    value(&["-q", "--jq"]),
    value(&["--json"]),
    value(&["--license"]),
    value(&["-L", "--limit"]),
    value(&["--order"]),
    value(&["--owner"]),
    value(&["--sort"]),
    value(&["-t", "--template"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const EXTENSION_UPGRADE_OPTS: &[Opt] =
    &[flag(&["--all"]), flag(&["--dry-run"]), flag(&["--force"])];

const EXTENSION_SUBS: &[Sub] = &[
    sub(&["browse"], &[EXTENSION_BROWSE_OPTS, HELP]),
    sub(&["create"], &[EXTENSION_CREATE_OPTS, HELP]).does(WritesFile(EXTENSION_CREATE)),
    sub(&["exec"], &[]).does(RunsProgram(EXTENSION_EXEC)),
    sub(&["install"], &[EXTENSION_INSTALL_OPTS, HELP]).does(LoadsCode(EXTENSION)),
    sub(&["list", "ls"], &[HELP]),
    sub(&["remove"], &[HELP]).does(SetsConfig(EXTENSION_REMOVE)),
    sub(&["search"], &[EXTENSION_SEARCH_OPTS, HELP]),
    sub(&["upgrade"], &[EXTENSION_UPGRADE_OPTS, HELP]).does(LoadsCode(EXTENSION)),
];

const GPG_KEY_DELETE_OPTS: &[Opt] = &[flag(&["-y", "--yes"])];

const GPG_KEY_SUBS: &[Sub] = &[
    sub(&["add"], &[HELP]).does(Uploads(KEY)),
    sub(&["delete"], &[GPG_KEY_DELETE_OPTS, HELP]),
    sub(&["list", "ls"], &[HELP]),
];

const LABEL_OPTS: &[Opt] = &[value(&["-R", "--repo"])];

const LABEL_CLONE_OPTS: &[Opt] = &[flag(&["-f", "--force"])];

const LABEL_CREATE_OPTS: &[Opt] = &[
    value(&["-c", "--color"]),
    value(&["-d", "--description"]),
    flag(&["-f", "--force"]),
];

const LABEL_DELETE_OPTS: &[Opt] = &[flag(&["--yes"])];

const LABEL_EDIT_OPTS: &[Opt] = &[
    value(&["-c", "--color"]),
    value(&["-d", "--description"]),
    value(&["-n", "--name"]),
];

const LABEL_LIST_OPTS: &[Opt] = &[
    value(&["-q", "--jq"]),
    value(&["--json"]),
    value(&["-L", "--limit"]),
    value(&["--order"]),
    value(&["-S", "--search"]),
    value(&["--sort"]),
    value(&["-t", "--template"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const LABEL_SUBS: &[Sub] = &[
    sub(&["clone"], &[LABEL_CLONE_OPTS, REPO, HELP]),
    sub(&["create"], &[LABEL_CREATE_OPTS, REPO, HELP]),
    sub(&["delete"], &[LABEL_DELETE_OPTS, REPO, HELP]),
    sub(&["edit"], &[LABEL_EDIT_OPTS, REPO, HELP]),
    sub(&["list", "ls"], &[LABEL_LIST_OPTS, REPO, HELP]),
];

const SEARCH_COMMITS_OPTS: &[Opt] = &[
    value(&["--author"]),
    value(&["--author-date"]),
    value(&["--author-email"]),
    value(&["--author-name"]),
    value(&["--committer"]),
    value(&["--committer-date"]),
    value(&["--committer-email"]),
    value(&["--committer-name"]),
    value(&["--hash"]),
    value(&["-q", "--jq"]),
    value(&["--json"]),
    value(&["-L", "--limit"]),
    flag(&["--merge"]),
    value(&["--order"]),
    value(&["--owner"]),
    value(&["--parent"]),
    value(&["--repo"]),
    value(&["--sort"]),
    value(&["-t", "--template"]),
    value(&["--tree"]),
    value(&["--visibility"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const SEARCH_ISSUES_OPTS: &[Opt] = &[
    value(&["--app"]),
    flag(&["--archived"]),
    value(&["--assignee"]),
    value(&["--author"]),
    value(&["--closed"]),
    value(&["--commenter"]),
    value(&["--comments"]),
    value(&["--created"]),
    flag(&["--include-prs"]),
    value(&["--interactions"]),
    value(&["--involves"]),
    value(&["-q", "--jq"]),
    value(&["--json"]),
    value(&["--label"]),
    value(&["--language"]),
    value(&["-L", "--limit"]),
    flag(&["--locked"]),
    value(&["--match"]),
    value(&["--mentions"]),
    value(&["--milestone"]),
    flag(&["--no-assignee"]),
    flag(&["--no-label"]),
    flag(&["--no-milestone"]),
    flag(&["--no-project"]),
    value(&["--order"]),
    value(&["--owner"]),
    value(&["--project"]),
    value(&["--reactions"]),
    value(&["--repo"]),
    value(&["--sort"]),
    value(&["--state"]),
    value(&["--team-mentions"]),
    value(&["-t", "--template"]),
    value(&["--updated"]),
    value(&["--visibility"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const SEARCH_PRS_OPTS: &[Opt] = &[
    value(&["--app"]),
    flag(&["--archived"]),
    value(&["--assignee"]),
    value(&["--author"]),
    value(&["-B", "--base"]),
    value(&["--checks"]),
    value(&["--closed"]),
    value(&["--commenter"]),
    value(&["--comments"]),
    value(&["--created"]),
    flag(&["--draft"]),
    value(&["-H", "--head"]),
    value(&["--interactions"]),
    value(&["--involves"]),
    value(&["-q", "--jq"]),
    value(&["--json"]),
    value(&["--label"]),
    value(&["--language"]),
    value(&["-L", "--limit"]),
    flag(&["--locked"]),
    value(&["--match"]),
    value(&["--mentions"]),
    flag(&["--merged"]),
    value(&["--merged-at"]),
    value(&["--milestone"]),
    flag(&["--no-assignee"]),
    flag(&["--no-label"]),
    flag(&["--no-milestone"]),
    flag(&["--no-project"]),
    value(&["--order"]),
    value(&["--owner"]),
    value(&["--project"]),
    value(&["--reactions"]),
    value(&["--repo"]),
    value(&["--review"]),
    value(&["--review-requested"]),
    value(&["--reviewed-by"]),
    value(&["--sort"]),
    value(&["--state"]),
    value(&["--team-mentions"]),
    value(&["-t", "--template"]),
    value(&["--updated"]),
    value(&["--visibility"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const SEARCH_REPOS_OPTS: &[Opt] = &[
    flag(&["--archived"]),
    value(&["--created"]),
    value(&["--followers"]),
    value(&["--forks"]),
    value(&["--good-first-issues"]),
    value(&["--help-wanted-issues"]),
    value(&["--include-forks"]),
    value(&["-q", "--jq"]),
    value(&["--json"]),
    value(&["--language"]),
    value(&["--license"]),
    value(&["-L", "--limit"]),
    value(&["--match"]),
    value(&["--number-topics"]),
    value(&["--order"]),
    value(&["--owner"]),
    value(&["--size"]),
    value(&["--sort"]),
    value(&["--stars"]),
    value(&["-t", "--template"]),
    value(&["--topic"]),
    value(&["--updated"]),
    value(&["--visibility"]),
    flag(&["-w", "--web"]).does(RunsProgram(BROWSER)),
];

const SEARCH_SUBS: &[Sub] = &[
    sub(&["commits"], &[SEARCH_COMMITS_OPTS, HELP]),
    sub(&["issues"], &[SEARCH_ISSUES_OPTS, HELP]),
    sub(&["prs"], &[SEARCH_PRS_OPTS, HELP]),
    sub(&["repos"], &[SEARCH_REPOS_OPTS, HELP]),
];

const SECRET_OPTS: &[Opt] = &[value(&["-R", "--repo"])];

const SECRET_DELETE_OPTS: &[Opt] = &[
    value(&["-a", "--app"]),
    value(&["-e", "--env"]),
    value(&["-o", "--org"]),
    flag(&["-u", "--user"]),
];

const SECRET_LIST_OPTS: &[Opt] = SECRET_DELETE_OPTS;

const SECRET_SET_OPTS: &[Opt] = &[
    value(&["-a", "--app"]),
    value(&["-b", "--body"]),
    value(&["-e", "--env"]),
    value(&["-f", "--env-file"]),
    flag(&["--no-store"]),
    value(&["-o", "--org"]),
    value(&["-r", "--repos"]),
    flag(&["-u", "--user"]),
    value(&["-v", "--visibility"]),
];

const SECRET_SUBS: &[Sub] = &[
    sub(&["delete", "remove"], &[SECRET_DELETE_OPTS, REPO, HELP]).does(SetsConfig(SECRET_DELETE)),
    sub(&["list", "ls"], &[SECRET_LIST_OPTS, REPO, HELP]),
    sub(&["set"], &[SECRET_SET_OPTS, REPO, HELP]).does(Uploads(SECRET)),
];

const SSH_KEY_ADD_OPTS: &[Opt] = &[value(&["-t", "--title"])];

const SSH_KEY_DELETE_OPTS: &[Opt] = &[flag(&["-y", "--yes"])];

const SSH_KEY_SUBS: &[Sub] = &[
    sub(&["add"], &[SSH_KEY_ADD_OPTS, HELP]).does(Uploads(KEY)),
    sub(&["delete"], &[SSH_KEY_DELETE_OPTS, HELP]),
    sub(&["list", "ls"], &[HELP]),
];

const STATUS_OPTS: &[Opt] = &[value(&["-e", "--exclude"]), value(&["-o", "--org"])];

const SUBS: &[Sub] = &[
    group(&["auth"], &[HELP], AUTH_SUBS),
    sub(&["browse"], &[BROWSE_OPTS, HELP]).does(RunsProgram(BROWSER)),
    group(&["codespace", "cs"], &[HELP], CODESPACE_SUBS),
    group(&["gist"], &[HELP], GIST_SUBS),
    group(&["issue"], &[ISSUE_OPTS, HELP], ISSUE_SUBS),
    group(&["pr"], &[PR_OPTS, HELP], PR_SUBS),
    group(&["release"], &[RELEASE_OPTS, HELP], RELEASE_SUBS),
    group(&["repo"], &[HELP], REPO_SUBS),
    group(&["run"], &[RUN_OPTS, HELP], RUN_SUBS),
    group(&["workflow"], &[WORKFLOW_OPTS, HELP], WORKFLOW_SUBS),
    group(&["alias"], &[HELP], ALIAS_SUBS),
    sub(&["api"], &[API_OPTS, HELP]).does(Uploads(API)),
    sub(&["completion"], &[COMPLETION_OPTS, HELP]),
    group(&["config"], &[HELP], CONFIG_SUBS),
    group(&["extension", "extensions", "ext"], &[HELP], EXTENSION_SUBS),
    group(&["gpg-key"], &[HELP], GPG_KEY_SUBS),
    group(&["label"], &[LABEL_OPTS, HELP], LABEL_SUBS),
    group(&["search"], &[HELP], SEARCH_SUBS),
    group(&["secret"], &[SECRET_OPTS, HELP], SECRET_SUBS),
    group(&["ssh-key"], &[HELP], SSH_KEY_SUBS),
    sub(&["status"], &[STATUS_OPTS, HELP]),
    sub(&["help"], &[HELP]),
    sub(&["version"], &[HELP]),
];
/// gh.
pub(crate) static GH: Spec = Spec {
    family: "gh",
    names: &["gh"],
    ids: ids!("gh"),
    grammar: Grammar::Clap,
    opts: &[ROOT],
    subs: SUBS,
    checked_with: "gh 2.23.0 (Debian bookworm)",
    operands: Operands::Plain,
    env: &[
        loads("GH_BROWSER", "gh runs this program to open a url"),
        loads("GH_EDITOR", "gh runs this program as the editor"),
        loads("GH_PAGER", "gh runs this program as the pager"),
        location(
            "GH_CONFIG_DIR",
            "gh reads its config, aliases (which can run shell command lines) and extensions from here",
        ),
        location("GH_TOKEN", "gh acts on GitHub as whoever holds this token"),
        location(
            "GITHUB_TOKEN",
            "gh acts on GitHub as whoever holds this token",
        ),
        location(
            "GH_ENTERPRISE_TOKEN",
            "gh acts on GitHub Enterprise as whoever holds this token",
        ),
        location(
            "GITHUB_ENTERPRISE_TOKEN",
            "gh acts on GitHub Enterprise as whoever holds this token",
        ),
        location("GH_HOST", "gh talks to this GitHub host"),
        location(
            "GH_PATH",
            "the gh executable git's credential helper runs (gh auth setup-git)",
        ),
    ],
};
