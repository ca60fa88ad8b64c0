//! npm. Options from npm 11.19.1: every config key of `npm config ls -l
//! --json` (and the two it hides, `_auth` and `password`), each with the
//! arity of its type in `@npmcli/config`'s definitions (a boolean, or a
//! boolean-or-null, is a flag; anything else takes a value), plus npm's
//! shorthands (`-g`, `-D`, `-w`, `-C`, `--reg`, `--ws`, …) as spellings of
//! the key they expand to. npm parses argv with nopt ([`Grammar::Npm`]):
//! every key is an option before or after the command, any unique prefix
//! of a key is that key, `--no-` turns a key off, a boolean takes a
//! following `true`/`false`, and the command is the first word that is not
//! an option or an option's value (`npm --loglevel exec install` is
//! `install`). One table serves before and after the command.
//!
//! Installing packages and running the project's own scripts (`npm test`,
//! `npm run build`, `npm ci`) is npm's job. A shell, editor, browser, git
//! or node-gyp of the caller's choosing, node options, another registry or
//! config file, an init module, another prefix, the global prefix, and the
//! commands that run a package's binary, open a program, publish, log in
//! or change config are asked, as is a package named by a URL, a VCS, a
//! GitHub `owner/repo` or a path outside the tree ([`Sources::Npm`]; `npm
//! pkg get` reads, `npm pkg set|delete|fix` edit; `npm config get|list`
//! read, npm 11 refusing or hiding protected keys such as tokens, `npm
//! config set|delete|fix|edit` change it; `-g`, the global prefix that
//! `npm install -g` writes, is only where `npm ls|root|prefix|outdated|
//! explain` and `npm config get|list` look); so is any option or command the spec does
//! not know (npm takes an unknown `--key` as config, and an abbreviated
//! command as the command it abbreviates).

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::{
    Effect::{
        LoadsCode, Network, OtherTree, ReadsFile, RunsProgram, SetsConfig, Uploads, WritesFile,
    },
    Grammar, Opt, Sources, Spec, Sub, flag, group, ids, sub, value,
};
use crate::policy::specs::types::{loads, location};

const SCRIPT_SHELL: &str = "runs every package script with a shell of the caller's choosing";
const NODE_OPTIONS: &str =
    "passes options to every node that npm and its scripts start, such as --require";
const SHELL: &str = "runs a shell of the caller's choosing (npm exec, npm explore)";
const EDITOR: &str = "runs an editor of the caller's choosing";
const BROWSER: &str = "runs a browser of the caller's choosing";
const VIEWER: &str = "runs a help viewer of the caller's choosing";
const GIT: &str = "runs a git of the caller's choosing";
const NODE_GYP: &str = "runs a node-gyp of the caller's choosing to build native packages";
const CALL: &str = "runs a shell command line (npm exec -c)";
const INIT_MODULE: &str = "runs a module of the caller's choosing to write package.json";
const CONFIG: &str =
    "reads npm config from another file, which can set the script shell, node options or registry";
const REGISTRY: &str = "installs packages from another registry, whose install scripts then run";
const PREFIX: &str = "works in another project, whose package.json scripts then run";
const GLOBAL: &str = "works on the global prefix, whose bin directory is on PATH";
const PKG_EDITS: &str = "edits package.json, whose scripts npm runs";
/// `-g` on a command that only reads: it lists, prints or explains the
/// global prefix instead of the project (`npm ls -g --depth=0`, `npm root
/// -g`), writing nothing there.
const GLOBAL_READ: &[&str] = &["-g", "--global"];
const CONFIG_EDITS: &str =
    "changes npm config, which can set the script shell, node options or registry";
const INSTALLS_FROM: &str = "installs a package from there, whose install scripts then run";
const LOCATION: &str =
    "chooses which config npm saves to and where it installs (global: the prefix on PATH)";

/// Every npm config key, in the order of npm's definitions, with its
/// shorthands; and the shorthands that set a fixed value.
const KEYS: &[Opt] = &[
    value(&["--_auth"]),
    value(&["--access"]),
    flag(&["-a", "--all"]),
    flag(&["--allow-same-version"]),
    value(&["--allow-directory"]),
    value(&["--allow-file"]),
    value(&["--allow-git"]),
    value(&["--allow-remote"]),
    value(&["--allow-scripts"]),
    value(&["--also"]),
    flag(&["--audit"]),
    value(&["--audit-level"]),
    value(&["--auth-type"]),
    value(&["--before", "--enjoy-by"]),
    flag(&["--bin-links"]),
    value(&["--browser"]).does(RunsProgram(BROWSER)),
    flag(&["--bypass-2fa"]),
    value(&["--ca"]),
    value(&["--cache"]).does(WritesFile("keeps npm's cache in a directory")),
    value(&["--cache-max"]),
    value(&["--cache-min"]),
    value(&["--cafile"]).does(ReadsFile),
    value(&["-c", "--call"]).does(RunsProgram(CALL)),
    value(&["--cert"]),
    value(&["--cidr"]),
    flag(&["--color"]),
    flag(&["--commit-hooks"]),
    value(&["--cpu"]),
    flag(&["--dangerously-allow-all-scripts"]),
    value(&["--depth"]),
    flag(&["--description", "--desc"]),
    flag(&["--dev"]),
    value(&["--diff"]),
    flag(&["--diff-ignore-all-space"]),
    flag(&["--diff-name-only"]),
    flag(&["--diff-no-prefix"]),
    value(&["--diff-dst-prefix"]),
    value(&["--diff-src-prefix"]),
    flag(&["--diff-text"]),
    value(&["--diff-unified"]),
    flag(&["--dry-run"]),
    value(&["--editor"]).does(RunsProgram(EDITOR)),
    flag(&["--engine-strict"]),
    value(&["--expect-result-count"]),
    flag(&["--expect-results"]),
    value(&["--expires"]),
    value(&["--fetch-retries"]),
    value(&["--fetch-retry-factor"]),
    value(&["--fetch-retry-maxtimeout"]),
    value(&["--fetch-retry-mintimeout"]),
    value(&["--fetch-timeout"]),
    flag(&["-f", "--force"]),
    flag(&["--foreground-scripts"]),
    flag(&["--format-package-lock"]),
    flag(&["--fund"]),
    value(&["--git"]).does(RunsProgram(GIT)),
    flag(&["--git-tag-version"]),
    flag(&["-g", "--global"]).does(WritesFile(GLOBAL)),
    value(&["--globalconfig"]).does(LoadsCode(CONFIG)),
    flag(&["--global-style"]),
    value(&["--heading"]),
    value(&["--https-proxy"]).does(Network),
    flag(&["--if-present"]),
    flag(&["--ignore-scripts"]),
    value(&["--include"]),
    flag(&["--include-staged"]),
    flag(&["--include-workspace-root", "--iwr"]),
    flag(&["--include-attestations"]),
    value(&["--init-author-email"]),
    value(&["--init-author-name"]),
    value(&["--init-author-url"]),
    value(&["--init-license"]),
    value(&["--init-module"]).does(LoadsCode(INIT_MODULE)),
    value(&["--init-type"]),
    value(&["--init-version"]),
    flag(&["--init-private"]),
    value(&["--init.author.email"]),
    value(&["--init.author.name"]),
    value(&["--init.author.url"]),
    value(&["--init.license"]),
    value(&["--init.module"]).does(LoadsCode(INIT_MODULE)),
    value(&["--init.version"]),
    flag(&["--install-links"]),
    value(&["--install-strategy"]),
    flag(&["--json"]),
    value(&["--key"]),
    flag(&["--legacy-bundling"]),
    flag(&["--legacy-peer-deps"]),
    value(&["--libc"]),
    flag(&["--link"]),
    value(&["--local-address"]),
    value(&["-L", "--location"]).does(LoadsCode(LOCATION)),
    value(&["--lockfile-version"]),
    value(&["--loglevel"]),
    value(&["--logs-dir"]).does(WritesFile("writes npm's debug logs into a directory")),
    value(&["--logs-max"]),
    flag(&["-l", "--long"]),
    value(&["--name"]),
    value(&["--maxsockets"]),
    value(&["-m", "--message"]),
    value(&["--min-release-age"]),
    value(&["--min-release-age-exclude"]),
    value(&["--node-gyp"]).does(RunsProgram(NODE_GYP)),
    value(&["--node-options"]).does(LoadsCode(NODE_OPTIONS)),
    value(&["--noproxy"]),
    flag(&["--offline"]),
    value(&["--omit"]),
    flag(&["--omit-lockfile-registry-resolved"]),
    value(&["--only"]),
    value(&["--orgs"]),
    flag(&["--optional"]),
    value(&["--os"]),
    value(&["--otp"]),
    value(&["--package"]),
    flag(&["--package-lock"]),
    flag(&["--package-lock-only"]),
    value(&["--pack-destination"]).does(WritesFile("writes the packed tarball into a directory")),
    value(&["--packages"]),
    flag(&["-p", "--parseable", "--porcelain"]),
    flag(&["--allow-scripts-pending"]),
    flag(&["--allow-scripts-pin"]),
    flag(&["--prefer-dedupe"]),
    flag(&["--prefer-offline"]),
    flag(&["--prefer-online"]),
    value(&["-C", "--prefix"]).does(OtherTree(PREFIX)),
    value(&["--preid"]),
    flag(&["--production"]),
    flag(&["--progress"]),
    flag(&["--provenance"]),
    value(&["--provenance-file"]).does(ReadsFile),
    value(&["--proxy"]).does(Network),
    flag(&["--read-only", "--readonly"]),
    flag(&["--rebuild-bundle"]),
    value(&["--registry", "--reg"]).does(LoadsCode(REGISTRY)),
    value(&["--replace-registry-host"]),
    flag(&["-S", "--save"]),
    flag(&["-B", "--save-bundle"]),
    flag(&["-D", "--save-dev"]),
    flag(&["-E", "--save-exact"]),
    flag(&["-O", "--save-optional"]),
    flag(&["--save-peer"]),
    value(&["--save-prefix"]),
    flag(&["-P", "--save-prod"]),
    value(&["--sbom-format"]),
    value(&["--sbom-type"]),
    value(&["--scope"]),
    value(&["--scopes"]),
    flag(&["--packages-all"]),
    value(&["--packages-and-scopes-permission"]),
    value(&["--orgs-permission"]),
    value(&["--password"]),
    value(&["--token-description"]),
    value(&["--script-shell"]).does(RunsProgram(SCRIPT_SHELL)),
    value(&["--searchexclude"]),
    value(&["--searchlimit"]),
    value(&["--searchopts"]),
    value(&["--searchstaleness"]),
    value(&["--shell"]).does(RunsProgram(SHELL)),
    flag(&["--shrinkwrap"]),
    flag(&["--sign-git-commit"]),
    flag(&["--sign-git-tag"]),
    flag(&["--strict-peer-deps"]),
    flag(&["--strict-allow-scripts"]),
    flag(&["--strict-ssl"]),
    value(&["--tag"]),
    value(&["--tag-version-prefix"]),
    flag(&["--timing"]),
    value(&["--umask"]),
    flag(&["--unicode"]),
    flag(&["--update-notifier"]),
    flag(&["-?", "-H", "-h", "--usage", "--help"]),
    value(&["--user-agent"]),
    value(&["--userconfig"]).does(LoadsCode(CONFIG)),
    flag(&["-v", "--version"]),
    flag(&["--versions"]),
    value(&["--viewer"]).does(RunsProgram(VIEWER)),
    value(&["--which"]),
    // A workspace by path runs that package's scripts: one outside the
    // tree is another project (found by the H25 sweep).
    value(&["-w", "--workspace"]).does(OtherTree(
        "runs the scripts of the workspace package in that directory",
    )),
    flag(&["--workspaces", "--ws"]),
    flag(&["--workspaces-update"]),
    flag(&["-y", "--yes"]),
    // Shorthands for a fixed value: `--loglevel info|verbose|silly|warn|
    // silent`, `--no-global`, `--no-yes`.
    flag(&[
        "-d",
        "-q",
        "-s",
        "--dd",
        "--ddd",
        "--quiet",
        "--silent",
        "--verbose",
    ]),
    flag(&["--local"]),
    flag(&["-n", "--no"]),
];

const PUBLISHES: &str = "changes what the registry serves to everyone who installs the package";
const OPENS: &str = "opens a URL with the configured browser";

/// npm's commands with every alias npm's `cmd-list.js` gives them. Their
/// options are the config keys, read from [`KEYS`] ([`Grammar::Npm`]).
const SUBS: &[Sub] = &[
    sub(&["adduser", "add-user", "login"], &[]).does(Uploads(
        "sends credentials to a registry and saves its token in the user config",
    )),
    sub(&["audit"], &[]),
    sub(&["bugs", "issues"], &[]).does(RunsProgram(OPENS)),
    sub(&["cache"], &[]),
    sub(
        &[
            "ci",
            "clean-install",
            "ic",
            "install-clean",
            "isntall-clean",
        ],
        &[],
    ),
    sub(&["completion"], &[]),
    // `get` and `list` print config (npm 11 refuses to print a protected
    // key such as a token, and lists one as `(protected)`), as `npm get`
    // does; the others change it or open an editor.
    group(
        &["config", "c"],
        &[],
        &[
            sub(&["delete", "rm", "del"], &[]).does(SetsConfig(CONFIG_EDITS)),
            sub(&["edit"], &[]).does(RunsProgram("opens npm config in the configured editor")),
            sub(&["fix"], &[]).does(SetsConfig(CONFIG_EDITS)),
            sub(&["get"], &[]).looks_only(GLOBAL_READ),
            sub(&["list", "ls"], &[]).looks_only(GLOBAL_READ),
            sub(&["set"], &[]).does(SetsConfig(CONFIG_EDITS)),
        ],
    ),
    sub(&["dedupe", "ddp"], &[]),
    sub(&["deprecate"], &[]).does(Uploads(PUBLISHES)),
    sub(&["diff"], &[]),
    sub(&["dist-tag", "dist-tags"], &[]).does(Uploads(PUBLISHES)),
    sub(&["docs", "home"], &[]).does(RunsProgram(OPENS)),
    sub(&["doctor"], &[]),
    sub(&["edit"], &[]).does(RunsProgram("opens a package's directory in an editor")),
    sub(&["exec", "x"], &[]).does(RunsProgram(
        "runs a package's binary, downloading the package when it is not installed",
    )),
    sub(&["explain", "why"], &[]).looks_only(GLOBAL_READ),
    sub(&["explore"], &[]).does(RunsProgram(
        "runs a shell or command in a package's directory",
    )),
    sub(&["find-dupes"], &[]),
    sub(&["fund"], &[]),
    sub(&["get"], &[]),
    sub(&["help", "hlep"], &[]),
    sub(&["help-search"], &[]),
    sub(&["init", "create", "innit"], &[]).does(RunsProgram(
        "runs a package's initializer (npm init <name> runs create-<name>)",
    )),
    sub(
        &[
            "install", "add", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta",
            "isntal", "isntall",
        ],
        &[],
    )
    .operands(Operands::Installs(Sources::Npm, INSTALLS_FROM)),
    sub(
        &["install-ci-test", "cit", "clean-install-test", "sit"],
        &[],
    ),
    sub(&["install-test", "it"], &[]),
    sub(&["link", "ln"], &[]).does(OtherTree(
        "links packages through the global prefix, whose bin directory is on PATH",
    )),
    sub(&["ll", "la"], &[]).looks_only(GLOBAL_READ),
    sub(&["logout"], &[]).does(SetsConfig("removes a registry token from the user config")),
    sub(&["ls", "list"], &[]).looks_only(GLOBAL_READ),
    sub(&["outdated"], &[]).looks_only(GLOBAL_READ),
    sub(&["owner", "author"], &[]).does(Uploads(PUBLISHES)),
    sub(&["pack"], &[]),
    sub(&["ping"], &[]),
    group(
        &["pkg"],
        &[],
        &[
            sub(&["delete"], &[]).does(SetsConfig(PKG_EDITS)),
            sub(&["fix"], &[]).does(SetsConfig(PKG_EDITS)),
            sub(&["get"], &[]),
            sub(&["set"], &[]).does(SetsConfig(PKG_EDITS)),
        ],
    ),
    sub(&["prefix"], &[]).looks_only(GLOBAL_READ),
    sub(&["prune"], &[]),
    sub(&["publish"], &[]).does(Uploads("uploads the package to a registry")),
    sub(&["query"], &[]),
    sub(&["rebuild", "rb"], &[]),
    sub(&["repo"], &[]).does(RunsProgram(OPENS)),
    sub(&["restart"], &[]),
    sub(&["root"], &[]).looks_only(GLOBAL_READ),
    sub(&["run", "run-script", "rum", "urn"], &[]),
    sub(&["sbom"], &[]),
    sub(&["search", "find", "s", "se"], &[]),
    sub(&["set"], &[]).does(SetsConfig(
        "changes npm config, which can set the script shell, node options or registry",
    )),
    sub(&["shrinkwrap"], &[]),
    sub(&["star"], &[]).does(Uploads("stars a package as the logged-in user")),
    sub(&["stars"], &[]),
    sub(&["start"], &[]),
    sub(&["stop"], &[]),
    sub(&["test", "t", "tst"], &[]),
    sub(&["token"], &[]).does(SetsConfig(
        "lists, creates or revokes registry access tokens",
    )),
    sub(&["undeprecate"], &[]).does(Uploads(PUBLISHES)),
    sub(&["uninstall", "r", "remove", "rm", "un", "unlink"], &[]),
    sub(&["unpublish"], &[]).does(Uploads(PUBLISHES)),
    sub(&["unstar"], &[]).does(Uploads("unstars a package as the logged-in user")),
    sub(&["update", "u", "udpate", "up", "upgrade"], &[]),
    sub(&["version", "verison"], &[]),
    sub(&["view", "info", "show", "v"], &[]),
    sub(&["whoami"], &[]),
];

/// `npm`.
pub(crate) const NPM: Spec = Spec {
    family: "npm",
    names: &["npm"],
    ids: ids!("npm"),
    grammar: Grammar::Npm,
    opts: &[KEYS],
    subs: SUBS,
    checked_with: "npm 11.19.1",
    operands: Operands::Plain,
    env: &[
        location(
            "NPM_CONFIG_*",
            "sets any npm option, such as --registry or --script-shell",
        ),
        loads(
            "NODE_OPTIONS",
            "node, and every script npm runs, takes options from here, including --require",
        ),
    ],
};
