//! yarn classic (1.22; Debian's `yarnpkg` is the same program). Options
//! and commands from yarn 1.22.22: every command `yarn --help` lists (and
//! the three, `dedupe`, `lockfile`, `prune`, it keeps only to say they are
//! not needed), the global options it lists, and each command's own
//! options from `yarn <command> --help`; checked by
//! `tests/js_spec_conformance.rs`.
//!
//! Grammar ([`Grammar::PackageManager`] with commander): yarn takes the
//! first word that is neither an option nor the value of the option
//! before it as the command; commander 2 matches long names exactly (no
//! abbreviation), takes `--opt=v` or `--opt v`, and splits `-abc` into
//! `-a -b -c` (a value letter inside a bundle is asked). An optional value
//! (`--prod [prod]`, `--emoji [bool]`) takes the next word unless it
//! starts with `-`: the spec reads it as a required value, so such an
//! option last on the line is asked rather than guessed. `yarn run`,
//! `create`, `workspace(s)` and an unknown command hand the words after
//! their script or package to it; `yarn node` hands it every word.
//!
//! An unknown command is read as `yarn run COMMAND`, which is what yarn
//! does: it runs the package.json script of that name, else the binary of
//! that name in node_modules/.bin. The script is the project's own job, so
//! `yarn build` and `yarn run lint` stay allowed as `npm test` is when
//! package.json has that script; the binary is another program, so
//! `specs/package_scripts.rs` reads package.json when the command is
//! checked and asks otherwise.
//!
//! Asked: running a downloaded or named program (`create`, `exec`,
//! `node`, `policies set-version`, `init -i`), workspace commands whose
//! own options the spec does not read, `--cwd` outside the working
//! directory, another registry or yarnrc, folders outside the tree, the
//! global prefix (`yarn global add`), config changes, publishing and
//! account commands.

use crate::policy::specs::types::Operands;

const INSTALLS_FROM: &str = "installs a package from there, whose install scripts then run";
use crate::policy::specs::types::{
    Effect::{
        LoadsCode, Network, OtherTree, ReadsFile, RunsProgram, SetsConfig, Uploads, WritesFile,
    },
    Grammar, Opt, Sources, Spec, Sub, flag, ids, location, sub, value,
};

const CWD: &str = "works in another project directory, whose package.json scripts then run";
const REGISTRY: &str = "installs packages from another registry, whose install scripts then run";
const YARNRC: &str =
    "reads yarn config from another file, which can name another yarn to run (yarn-path)";
const FOLDER: &str = "keeps yarn's packages, cache or links in a directory";
const GLOBAL_PREFIX: &str = "works on the global packages, whose bin directory is on PATH";
const PACK: &str = "writes the packed tarball";
const INIT_INSTALL: &str = "downloads a yarn release into the project and runs it";

const PUBLISHES: &str = "changes what the registry serves to everyone who installs the package";
const LOGIN: &str = "stores registry credentials in the user config";
const LOGOUT: &str = "removes registry credentials from the user config";
const CONFIG_CMD: &str =
    "reads or changes yarn config, which can set the script shell, registry or yarn-path";
const CREATE: &str = "downloads a create-* package and runs its binary";
const EXEC: &str = "runs a command of the caller's choosing";
const NODE: &str = "runs node with the caller's arguments (-e code, --require)";
const LINK: &str = "links a package from another directory, or through the global link folder";
const POLICIES: &str =
    "downloads a yarn release that every later yarn in the project runs (yarn-path)";
const WORKSPACE: &str =
    "runs a yarn command, whose options the spec does not read, in workspace packages";

/// The global options `yarn --help` lists, read before the command and
/// again after it.
const GLOBAL: &[Opt] = &[
    value(&["--cache-folder"]).does(WritesFile(FOLDER)),
    flag(&["--check-files"]),
    value(&["--cwd"]).does(OtherTree(CWD)),
    flag(&["--disable-pnp"]),
    value(&["--emoji"]),
    flag(&["--enable-pnp", "--pnp"]),
    flag(&["--flat"]),
    flag(&["--focus"]),
    flag(&["--force"]),
    flag(&["--frozen-lockfile"]),
    value(&["--global-folder"]).does(WritesFile(FOLDER)),
    flag(&["--har"]),
    value(&["--https-proxy"]).does(Network),
    flag(&["--ignore-engines"]),
    flag(&["--ignore-optional"]),
    flag(&["--ignore-platform"]),
    flag(&["--ignore-scripts"]),
    flag(&["--json"]),
    flag(&["--link-duplicates"]),
    value(&["--link-folder"]).does(WritesFile(FOLDER)),
    value(&["--modules-folder"]).does(WritesFile(FOLDER)),
    value(&["--mutex"]),
    value(&["--network-concurrency"]),
    value(&["--network-timeout"]),
    flag(&["--no-bin-links"]),
    flag(&["--no-default-rc"]),
    flag(&["--no-lockfile"]),
    flag(&["--non-interactive"]),
    flag(&["--no-node-version-check"]),
    flag(&["--no-progress"]),
    flag(&["--offline"]),
    value(&["--otp"]),
    flag(&["--prefer-offline"]),
    value(&["--preferred-cache-folder"]).does(WritesFile(FOLDER)),
    value(&["--prod", "--production"]),
    value(&["--proxy"]).does(Network),
    flag(&["--pure-lockfile"]),
    value(&["--registry"]).does(LoadsCode(REGISTRY)),
    flag(&["-s", "--silent"]),
    value(&["--scripts-prepend-node-path"]),
    flag(&["--skip-integrity-check"]),
    flag(&["--strict-semver"]),
    flag(&["--update-checksums"]),
    value(&["--use-yarnrc"]).does(LoadsCode(YARNRC)),
    flag(&["-v", "--version"]),
    flag(&["--verbose"]),
    flag(&["-h", "--help"]),
];

/// `yarn add --help`'s own options.
const OPTS_ADD: &[Opt] = &[
    flag(&["-W", "--ignore-workspace-root-check"]),
    flag(&["-D", "--dev"]),
    flag(&["-P", "--peer"]),
    flag(&["-O", "--optional"]),
    flag(&["-E", "--exact"]),
    flag(&["-T", "--tilde"]),
    flag(&["-A", "--audit"]),
];

/// `yarn audit --help`'s own options.
const OPTS_AUDIT: &[Opt] = &[flag(&["--summary"]), value(&["--level"])];

/// `yarn autoclean --help`'s own options.
const OPTS_AUTOCLEAN: &[Opt] = &[flag(&["-I", "--init"]), flag(&["-F"])];

/// `yarn cache --help`'s own options.
const OPTS_CACHE: &[Opt] = &[value(&["--pattern"])];

/// `yarn check --help`'s own options.
const OPTS_CHECK: &[Opt] = &[flag(&["--integrity"]), flag(&["--verify-tree"])];

/// `yarn generate-lock-entry --help`'s own options.
const OPTS_GENERATE_LOCK_ENTRY: &[Opt] = &[
    value(&["--use-manifest"]).does(ReadsFile),
    value(&["--resolved"]),
];

/// `yarn global --help`'s own options.
const OPTS_GLOBAL: &[Opt] = &[
    value(&["--prefix"]).does(WritesFile(GLOBAL_PREFIX)),
    flag(&["--latest"]),
];

/// `yarn init --help`'s own options.
const OPTS_INIT: &[Opt] = &[
    flag(&["-y", "--yes"]),
    flag(&["-p", "--private"]),
    value(&["-i", "--install"]).does(RunsProgram(INIT_INSTALL)),
];

/// `yarn install --help`'s own options.
const OPTS_INSTALL: &[Opt] = &[
    flag(&["-A", "--audit"]),
    flag(&["-g", "--global"]).does(WritesFile(GLOBAL_PREFIX)),
    flag(&["-S", "--save"]),
    flag(&["-D", "--save-dev"]),
    flag(&["-P", "--save-peer"]),
    flag(&["-O", "--save-optional"]),
    flag(&["-E", "--save-exact"]),
    flag(&["-T", "--save-tilde"]),
];

/// `yarn list --help`'s own options.
const OPTS_LIST: &[Opt] = &[value(&["--depth"]), value(&["--pattern"])];

/// `yarn node --help`'s own options.
const OPTS_NODE: &[Opt] = &[value(&["--into"]).does(OtherTree(CWD))];

/// `yarn pack --help`'s own options.
const OPTS_PACK: &[Opt] = &[value(&["-f", "--filename"]).does(WritesFile(PACK))];

/// `yarn publish --help`'s own options.
const OPTS_PUBLISH: &[Opt] = &[
    value(&["--new-version"]),
    flag(&["--major"]),
    flag(&["--minor"]),
    flag(&["--patch"]),
    flag(&["--premajor"]),
    flag(&["--preminor"]),
    flag(&["--prepatch"]),
    flag(&["--prerelease"]),
    value(&["--preid"]),
    value(&["--message"]),
    flag(&["--no-git-tag-version"]),
    flag(&["--no-commit-hooks"]),
    value(&["--access"]),
    value(&["--tag"]),
];

/// `yarn remove --help`'s own options.
const OPTS_REMOVE: &[Opt] = &[flag(&["-W", "--ignore-workspace-root-check"])];

/// `yarn unplug --help`'s own options.
const OPTS_UNPLUG: &[Opt] = &[flag(&["--clear"]), flag(&["--clear-all"])];

/// `yarn upgrade --help`'s own options.
const OPTS_UPGRADE: &[Opt] = &[
    value(&["-S", "--scope"]),
    flag(&["-L", "--latest"]),
    flag(&["-E", "--exact"]),
    value(&["-P", "--pattern"]),
    flag(&["-T", "--tilde"]),
    flag(&["-C", "--caret"]),
    flag(&["-A", "--audit"]),
];

/// `yarn upgrade-interactive --help`'s own options.
const OPTS_UPGRADE_INTERACTIVE: &[Opt] = &[
    value(&["-S", "--scope"]),
    flag(&["--latest"]),
    flag(&["-E", "--exact"]),
    flag(&["-T", "--tilde"]),
    flag(&["-C", "--caret"]),
];

/// `yarn version --help`'s own options.
const OPTS_VERSION: &[Opt] = &[
    value(&["--new-version"]),
    flag(&["--major"]),
    flag(&["--minor"]),
    flag(&["--patch"]),
    flag(&["--premajor"]),
    flag(&["--preminor"]),
    flag(&["--prepatch"]),
    flag(&["--prerelease"]),
    value(&["--preid"]),
    value(&["--message"]),
    flag(&["--no-git-tag-version"]),
    flag(&["--no-commit-hooks"]),
];

/// Every command `yarn --help` lists with its other spelling, and the
/// three it keeps only to say they are not needed.
const SUBS: &[Sub] = &[
    sub(&["access"], &[GLOBAL]).does(Uploads(PUBLISHES)),
    sub(&["add"], &[GLOBAL, OPTS_ADD]).operands(Operands::Installs(Sources::Npm, INSTALLS_FROM)),
    sub(&["audit"], &[GLOBAL, OPTS_AUDIT]),
    sub(&["autoclean"], &[GLOBAL, OPTS_AUTOCLEAN]),
    sub(&["bin"], &[GLOBAL]),
    sub(&["cache"], &[GLOBAL, OPTS_CACHE]),
    sub(&["check"], &[GLOBAL, OPTS_CHECK]),
    sub(&["config"], &[GLOBAL]).does(SetsConfig(CONFIG_CMD)),
    sub(&["create"], &[GLOBAL]).does(RunsProgram(CREATE)),
    sub(&["exec"], &[GLOBAL]).does(RunsProgram(EXEC)),
    sub(
        &["generate-lock-entry", "generateLockEntry"],
        &[GLOBAL, OPTS_GENERATE_LOCK_ENTRY],
    ),
    sub(&["global"], &[GLOBAL, OPTS_GLOBAL]).does(WritesFile(GLOBAL_PREFIX)),
    sub(&["help"], &[GLOBAL]),
    sub(&["import"], &[GLOBAL]),
    sub(&["info"], &[GLOBAL]),
    sub(&["init"], &[GLOBAL, OPTS_INIT]),
    sub(&["install"], &[GLOBAL, OPTS_INSTALL]),
    sub(&["licenses"], &[GLOBAL]),
    sub(&["link"], &[GLOBAL]).does(OtherTree(LINK)),
    sub(&["list"], &[GLOBAL, OPTS_LIST]),
    sub(&["login"], &[GLOBAL]).does(Uploads(LOGIN)),
    sub(&["logout"], &[GLOBAL]).does(SetsConfig(LOGOUT)),
    sub(&["node"], &[GLOBAL, OPTS_NODE]).does(RunsProgram(NODE)),
    sub(&["outdated"], &[GLOBAL]),
    sub(&["owner"], &[GLOBAL]).does(Uploads(PUBLISHES)),
    sub(&["pack"], &[GLOBAL, OPTS_PACK]),
    sub(&["policies"], &[GLOBAL]).does(RunsProgram(POLICIES)),
    sub(&["publish"], &[GLOBAL, OPTS_PUBLISH]).does(Uploads(PUBLISHES)),
    sub(&["remove"], &[GLOBAL, OPTS_REMOVE]),
    sub(&["run"], &[GLOBAL]),
    sub(&["tag"], &[GLOBAL]).does(Uploads(PUBLISHES)),
    sub(&["team"], &[GLOBAL]).does(Uploads(PUBLISHES)),
    sub(&["unlink"], &[GLOBAL]),
    sub(&["unplug"], &[GLOBAL, OPTS_UNPLUG]),
    sub(&["upgrade"], &[GLOBAL, OPTS_UPGRADE]),
    sub(
        &["upgrade-interactive", "upgradeInteractive"],
        &[GLOBAL, OPTS_UPGRADE_INTERACTIVE],
    ),
    sub(&["version"], &[GLOBAL, OPTS_VERSION]),
    sub(&["versions"], &[GLOBAL]),
    sub(&["why"], &[GLOBAL]),
    sub(&["workspace"], &[GLOBAL]).does(RunsProgram(WORKSPACE)),
    sub(&["workspaces"], &[GLOBAL]).does(RunsProgram(WORKSPACE)),
    sub(&["dedupe"], &[GLOBAL]),
    sub(&["lockfile"], &[GLOBAL]),
    sub(&["prune"], &[GLOBAL]),
];

/// `yarn` and Debian's `yarnpkg`.
pub(crate) const YARN: Spec = Spec {
    family: "yarn",
    names: &["yarn", "yarnpkg"],
    ids: ids!("yarn"),
    grammar: Grammar::PackageManager {
        scripts: &["run", "create"],
        verbatim: &["node", "workspace", "workspaces", "help"],
        unknown: Some("run"),
        commander: true,
    },
    opts: &[GLOBAL],
    subs: SUBS,
    checked_with: "yarn 1.22.22",
    operands: Operands::Plain,
    env: &[location(
        "YARN_*",
        "sets any yarn config key, such as yarn-path (another yarn to run) or the registry",
    )],
};
