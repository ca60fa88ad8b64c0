//! pnpm. Options and commands from pnpm 12.21.0 (a native binary whose
//! argv parser is clap): every command `pnpm --help` lists with its
//! aliases, the rc-options it lists (accepted before the command and, as
//! the help says, again after it), and each command's own options from
//! `pnpm <command> --help`; checked by `tests/js_spec_conformance.rs`. The
//! tables below are those lists, each option's effect set by hand.
//!
//! Grammar ([`Grammar::PackageManager`]): exact long names (pnpm 12 takes
//! no abbreviation: `--regis` is an error; pnpm 8-10's nopt took prefixes,
//! which the spec leaves unknown, so asked), `--opt=v` or `--opt v`, short
//! bundles. `pnpm test`, `start` and `stop` hand every later word to the
//! script (`pnpm test --dir=/x` passes `--dir=/x` to it); `run`, `exec`,
//! `dlx`, `create`, `recursive` and `with` read options up to their first
//! operand and hand the rest on. `--config.KEY=V` sets any config key
//! (`--config.script-shell=sh`): no row has it, so it is an unknown
//! option, asked. An unknown command is read as `pnpm run COMMAND`: pnpm
//! runs the package.json script of that name, else the command of that
//! name from PATH (`pnpm id` runs id), so `specs/package_scripts.rs` reads
//! package.json and asks unless the script is there.
//!
//! Installing, and running the project's own scripts (`pnpm install`,
//! `pnpm test`, `pnpm run build`), is pnpm's job. Asked: running a
//! package's binary or a command (`exec`, `dlx`, `create`, `with`), another
//! project directory or an outside `--filter` path, another registry, an
//! env file or auth file, the global prefix, letting a dependency's build
//! scripts run (`--allow-build`, `approve-builds`), config and
//! package.json edits, publishing and account commands, and commands that
//! install or replace runtimes and pnpm itself.

use crate::policy::specs::types::Operands;

const INSTALLS_FROM: &str = "installs a package from there, whose install scripts then run";
use crate::policy::specs::types::{
    Effect::{LoadsCode, Network, OtherTree, RunsProgram, SetsConfig, Uploads, WritesFile},
    Grammar, Opt, Sources, Spec, Sub, flag, ids, location, optional, sub, value,
};

const DIR: &str = "works in another project directory, whose package.json scripts then run";
const FILTER: &str =
    "runs the command in the workspace projects a path selector picks, whose scripts then run";
const ENV_FILE: &str =
    "loads environment variables from a file into every script pnpm runs (NODE_OPTIONS, PATH, …)";
const REGISTRY: &str = "installs packages from another registry, whose install scripts then run";
const AUTH_FILE: &str = "reads registry credentials and config from another file";
const CONFIG: &str = "adds a config dependency, whose pnpmfile and hooks pnpm then loads";
const STORE: &str = "keeps pnpm's content-addressed store in a directory";
const STATE: &str = "keeps pnpm's state in a directory";
const LOCKFILE: &str = "writes pnpm-lock.yaml into a directory";
const PATCHES: &str = "writes patch files into a directory";
const OUTPUT: &str = "writes its output into a directory";
const EDIT_DIR: &str = "unpacks a package for patching into a directory";
const GLOBAL_PREFIX: &str = "works on the global packages, whose bin directory is on PATH";
const ALLOW_BUILD: &str = "lets the named dependencies run their install scripts";
const SHELL_MODE: &str = "runs the command through a shell";
const WATCH: &str = "runs the pipeline again for every new revision of a watched branch";
const REPORT: &str = "uploads the run's summary and events to a pnpr server";

const EXEC: &str = "runs a command or a package's binary";
const DLX: &str = "downloads a package and runs its binary";
const CREATE: &str = "downloads a create-* starter kit and runs it";
const WITH: &str = "downloads another pnpm version and runs it";
const OPENS: &str = "opens a URL in a browser";
const RECURSIVE: &str =
    "runs another pnpm command, whose options the spec does not read, in every project";
const SELF_UPDATE: &str = "downloads and installs another pnpm";
const CONFIG_CMD: &str =
    "changes pnpm config, which can set the script shell, node options or registry";
const SET_SCRIPT: &str = "writes a script into package.json, which pnpm then runs";
const PKG: &str = "edits package.json, whose scripts pnpm runs";
const APPROVE: &str = "changes which dependencies may run install scripts";
const SETUP: &str = "edits the shell's startup files to put pnpm on PATH";
const RUNTIME: &str = "installs Node.js versions and puts one on PATH";
const SHIM: &str = "writes shims on PATH that run packages";
const TOKEN: &str = "changes registry tokens in the user config";
const PROFILE: &str = "changes settings of the registry profile";
const LANE: &str = "changes per-package release lanes";
const PATCH: &str = "changes which patches pnpm applies to dependencies' code";
const PUBLISHES: &str = "changes what the registry serves to everyone who installs the package";
const STAR: &str = "changes a star as the logged-in user";
const LOGIN: &str = "sends credentials to a registry and saves its token in the user config";
const LINK: &str = "links a package from another directory, or through the global prefix on PATH";
const DEPLOY: &str = "copies a package and its dependencies into a target directory";

/// The rc-options `pnpm --help` lists, read before the command and, as
/// pnpm 12 says, again after it.
const GLOBAL: &[Opt] = &[
    flag(&["-v", "--version"]),
    flag(&["-y", "--yes"]),
    value(&["--env-file"]).does(LoadsCode(ENV_FILE)),
    value(&["-C", "--dir"]).does(OtherTree(DIR)),
    value(&["--store-dir"]).does(WritesFile(STORE)),
    value(&["--state-dir"]).does(WritesFile(STATE)),
    value(&["--npmrc-auth-file"]).does(LoadsCode(AUTH_FILE)),
    flag(&["--ignore-workspace"]),
    value(&["--workspace-packages"]),
    value(&["--registry"]).does(LoadsCode(REGISTRY)),
    value(&["--https-proxy"]).does(Network),
    value(&["--http-proxy"]).does(Network),
    value(&["--no-proxy"]),
    optional(&["--color"]),
    value(&["--reporter"]),
    value(&["--loglevel"]),
    flag(&["--no-progress"]),
    flag(&["--stream"]),
    flag(&["--aggregate-output"]),
    flag(&["--use-stderr"]),
    flag(&["-r", "--recursive"]),
    value(&["-F", "--filter"]).does(OtherTree(FILTER)),
    value(&["--filter-prod"]).does(OtherTree(FILTER)),
    flag(&["-w", "--workspace-root"]),
    flag(&["--fail-if-no-match"]),
    flag(&["--no-fail-if-no-match"]),
    flag(&["--include-workspace-root"]),
    flag(&["--no-include-workspace-root"]),
    value(&["--test-pattern"]),
    value(&["--changed-files-ignore-pattern"]),
    flag(&["--sort"]),
    flag(&["--no-sort"]),
    flag(&["--reverse"]),
    value(&["--workspace-concurrency"]),
    flag(&["--parallel"]),
    flag(&["-h", "--help"]),
];

/// `pnpm access --help`'s own options.
const OPTS_ACCESS: &[Opt] = &[flag(&["--json"]), value(&["--otp"])];

/// `pnpm init --help`'s own options.
const OPTS_INIT: &[Opt] = &[
    flag(&["--bare"]),
    value(&["--init-type"]),
    flag(&["--init-package-manager"]),
    flag(&["--no-init-package-manager"]),
];

/// `pnpm add --help`'s own options.
const OPTS_ADD: &[Opt] = &[
    flag(&["-P", "--save-prod"]),
    flag(&["-D", "--save-dev"]),
    flag(&["-O", "--save-optional"]),
    flag(&["--save-build"]),
    flag(&["--save-peer"]),
    flag(&["--no-save-peer"]),
    flag(&["--prod"]),
    flag(&["--dev"]),
    value(&["--cpu"]),
    value(&["--os"]),
    value(&["--libc"]),
    flag(&["--ignore-scripts"]),
    flag(&["--no-ignore-scripts"]),
    flag(&["--ignore-pnpmfile"]),
    flag(&["--save-types"]),
    flag(&["--no-save-types"]),
    flag(&["-E", "--save-exact"]),
    flag(&["--tilde"]),
    value(&["--save-prefix"]),
    flag(&["--save-catalog"]),
    value(&["--save-catalog-name"]),
    flag(&["--config"]).does(LoadsCode(CONFIG)),
    flag(&["--workspace"]),
    flag(&["-g", "--global"]).does(WritesFile(GLOBAL_PREFIX)),
    flag(&["--ignore-workspace-root-check"]),
    flag(&["--auto-dedupe"]),
    flag(&["--no-auto-dedupe"]),
    value(&["--allow-build"]).does(RunsProgram(ALLOW_BUILD)),
    flag(&["--lockfile-only"]),
    value(&["--lockfile-dir"]).does(WritesFile(LOCKFILE)),
    flag(&["--optional"]),
    flag(&["--no-optional"]),
    flag(&["--force"]),
];

/// `pnpm install --help`'s own options.
const OPTS_INSTALL: &[Opt] = &[
    flag(&["-P", "--prod"]),
    flag(&["-D", "--dev"]),
    flag(&["--optional"]),
    flag(&["--no-optional"]),
    value(&["--cpu"]),
    value(&["--os"]),
    value(&["--libc"]),
    flag(&["--ignore-scripts"]),
    flag(&["--no-ignore-scripts"]),
    flag(&["--ignore-pnpmfile"]),
    flag(&["--offline"]),
    flag(&["--no-offline"]),
    flag(&["--prefer-offline"]),
    flag(&["--no-prefer-offline"]),
    flag(&["--frozen-lockfile"]),
    flag(&["--no-frozen-lockfile"]),
    flag(&["--lockfile-only"]),
    flag(&["--fix-lockfile"]),
    value(&["--lockfile-dir"]).does(WritesFile(LOCKFILE)),
    flag(&["--prefer-frozen-lockfile"]),
    flag(&["--no-prefer-frozen-lockfile"]),
    flag(&["--ignore-manifest-check"]),
    flag(&["--auto-dedupe"]),
    flag(&["--no-auto-dedupe"]),
    flag(&["--merge-git-branch-lockfiles"]),
    value(&["--merge-git-branch-lockfiles-branch-pattern"]),
    flag(&["--trust-lockfile"]),
    flag(&["--no-trust-lockfile"]),
    flag(&["--update-checksums"]),
    value(&["--network-concurrency"]),
    value(&["--fetch-timeout"]),
    value(&["--fetch-warn-timeout-ms"]),
    value(&["--fetch-min-speed-ki-bps"]),
    value(&["--user-agent"]),
    value(&["--pnpr-server"]).does(LoadsCode(REGISTRY)),
    flag(&["--dry-run"]),
    flag(&["--force"]),
    flag(&["--no-runtime"]),
    value(&["--node-linker"]),
    flag(&["--frozen-store"]),
    flag(&["--no-frozen-store"]),
    value(&["--allow-build"]).does(RunsProgram(ALLOW_BUILD)),
];

/// `pnpm install-test --help`'s own options.
const OPTS_INSTALL_TEST: &[Opt] = OPTS_INSTALL;

/// `pnpm update --help`'s own options.
const OPTS_UPDATE: &[Opt] = &[
    flag(&["-P", "--prod"]),
    flag(&["-D", "--dev"]),
    flag(&["--optional"]),
    flag(&["--no-optional"]),
    flag(&["--peer"]),
    value(&["--cpu"]),
    value(&["--os"]),
    value(&["--libc"]),
    flag(&["--ignore-scripts"]),
    flag(&["--no-ignore-scripts"]),
    flag(&["--ignore-pnpmfile"]),
    flag(&["-L", "--latest"]),
    flag(&["--patches"]),
    value(&["--depth"]),
    flag(&["-i", "--interactive"]),
    flag(&["--include-github-actions"]),
    flag(&["-g", "--global"]).does(WritesFile(GLOBAL_PREFIX)),
    flag(&["--workspace"]),
    flag(&["-E", "--save-exact"]),
    flag(&["--no-save"]),
    flag(&["--changeset"]),
    flag(&["--no-changeset"]),
    flag(&["--lockfile-only"]),
    value(&["--lockfile-dir"]).does(WritesFile(LOCKFILE)),
    value(&["--pnpr-server"]).does(LoadsCode(REGISTRY)),
];

/// `pnpm outdated --help`'s own options.
const OPTS_OUTDATED: &[Opt] = &[
    flag(&["-P", "--prod"]),
    flag(&["-D", "--dev"]),
    flag(&["--no-optional"]),
    flag(&["--optional"]),
    flag(&["--compatible"]),
    flag(&["--include-github-actions"]),
    flag(&["-g", "--global"]).does(WritesFile(GLOBAL_PREFIX)),
    flag(&["--long"]),
    value(&["--format"]),
    flag(&["--no-table"]),
    flag(&["--json"]),
    value(&["--sort-by"]),
    flag(&["--notes"]),
];

/// `pnpm audit --help`'s own options.
const OPTS_AUDIT: &[Opt] = &[
    flag(&["--json"]),
    flag(&["-P", "--prod"]),
    flag(&["-D", "--dev"]),
    flag(&["--no-optional"]),
    flag(&["--optional"]),
    flag(&["--ignore-registry-errors"]),
    flag(&["-i", "--interactive"]),
    value(&["--audit-level"]),
    value(&["--ignore"]),
    flag(&["--ignore-unfixable"]),
];

/// `pnpm change --help`'s own options.
const OPTS_CHANGE: &[Opt] = &[value(&["--bump"]), value(&["--summary"])];

/// `pnpm version --help`'s own options.
const OPTS_VERSION: &[Opt] = &[
    flag(&["--dry-run"]),
    value(&["--preid"]),
    flag(&["--allow-same-version"]),
    flag(&["--json"]),
    value(&["--release-notes"]),
    flag(&["--no-git-checks"]),
    value(&["-m", "--message"]),
    flag(&["--no-git-tag-version"]),
    flag(&["--no-commit-hooks"]),
    flag(&["--sign-git-tag"]),
    value(&["--tag-version-prefix"]),
];

/// `pnpm list --help`'s own options.
const OPTS_LIST: &[Opt] = &[
    flag(&["-g", "--global"]).does(WritesFile(GLOBAL_PREFIX)),
    flag(&["--exclude-peers"]),
    value(&["--find-by"]),
    flag(&["--long"]),
    flag(&["--json"]),
    flag(&["--parseable"]),
    flag(&["-P", "--prod"]),
    flag(&["-D", "--dev"]),
    flag(&["--no-optional"]),
    flag(&["--optional"]),
    value(&["--depth"]),
    flag(&["--only-projects"]),
    flag(&["--lockfile-only"]),
];

/// `pnpm ll --help`'s own options.
const OPTS_LL: &[Opt] = OPTS_LIST;

/// `pnpm licenses --help`'s own options.
const OPTS_LICENSES: &[Opt] = &[
    flag(&["--json"]),
    flag(&["--long"]),
    flag(&["-P", "--prod"]),
    flag(&["-D", "--dev"]),
    flag(&["--no-optional"]),
    flag(&["-O", "--optional"]),
];

/// `pnpm fund --help`'s own options.
const OPTS_FUND: &[Opt] = &[flag(&["--json"]), value(&["--which"])];

/// `pnpm why --help`'s own options.
const OPTS_WHY: &[Opt] = &[
    value(&["--depth"]),
    flag(&["--exclude-peers"]),
    value(&["--find-by"]),
    flag(&["--long"]),
    flag(&["--json"]),
    flag(&["--parseable"]),
    flag(&["-P", "--prod"]),
    flag(&["-D", "--dev"]),
    flag(&["--no-optional"]),
    flag(&["--optional"]),
];

/// `pnpm view --help`'s own options.
const OPTS_VIEW: &[Opt] = &[flag(&["--json"])];

/// `pnpm sbom --help`'s own options.
const OPTS_SBOM: &[Opt] = &[
    flag(&["--lockfile-only"]),
    value(&["--out"]).does(WritesFile(OUTPUT)),
    flag(&["--split"]),
    value(&["--sbom-format"]),
    value(&["--sbom-type"]),
    value(&["--sbom-spec-version"]),
    value(&["--sbom-authors"]),
    value(&["--sbom-supplier"]),
    flag(&["-P", "--prod"]),
    flag(&["-D", "--dev"]),
    flag(&["--no-optional"]),
    flag(&["--optional"]),
    flag(&["--exclude-peers"]),
];

/// `pnpm deprecate --help`'s own options.
const OPTS_DEPRECATE: &[Opt] = &[value(&["--otp"])];

/// `pnpm undeprecate --help`'s own options.
const OPTS_UNDEPRECATE: &[Opt] = &[value(&["--otp"])];

/// `pnpm unpublish --help`'s own options.
const OPTS_UNPUBLISH: &[Opt] = &[value(&["--otp"]), flag(&["--force"])];

/// `pnpm dist-tag --help`'s own options.
const OPTS_DIST_TAG: &[Opt] = &[value(&["--otp"])];

/// `pnpm doctor --help`'s own options.
const OPTS_DOCTOR: &[Opt] = &[
    flag(&["--offline"]),
    flag(&["--benchmark"]),
    flag(&["--json"]),
];

/// `pnpm search --help`'s own options.
const OPTS_SEARCH: &[Opt] = &[flag(&["--json"]), value(&["--search-limit"])];

/// `pnpm rebuild --help`'s own options.
const OPTS_REBUILD: &[Opt] = &[flag(&["--pending"])];

/// `pnpm rb --help`'s own options.
const OPTS_RB: &[Opt] = &[flag(&["--pending"])];

/// `pnpm pack --help`'s own options.
const OPTS_PACK: &[Opt] = &[
    flag(&["--dry-run"]),
    value(&["--pack-destination"]).does(WritesFile(OUTPUT)),
    flag(&["--json"]),
    value(&["--out"]).does(WritesFile(OUTPUT)),
    value(&["--variant"]),
    value(&["--pack-gzip-level"]),
    flag(&["--skip-manifest-obfuscation"]),
];

/// `pnpm publish --help`'s own options.
const OPTS_PUBLISH: &[Opt] = &[
    flag(&["--dry-run"]),
    flag(&["--ignore-scripts"]),
    flag(&["--force"]),
    flag(&["--batch"]),
    value(&["--tag"]),
    value(&["--access"]),
    flag(&["--provenance"]),
    value(&["--otp"]),
    value(&["--publish-wait-timeout"]),
    flag(&["--embed-readme"]),
    flag(&["--skip-manifest-obfuscation"]),
    value(&["--release-notes"]),
    flag(&["--no-release-notes"]),
    value(&["--publication-name"]),
    value(&["--publish-branch"]),
    flag(&["--no-git-checks"]),
    flag(&["--json"]),
    flag(&["--report-summary"]),
    flag(&["--no-variants"]),
    value(&["--upload-variant"]),
    value(&["--variant-integrity"]),
];

/// `pnpm stage --help`'s own options.
const OPTS_STAGE: &[Opt] = OPTS_PUBLISH;

/// `pnpm remove --help`'s own options.
const OPTS_REMOVE: &[Opt] = &[
    flag(&["-P", "--save-prod"]),
    flag(&["-D", "--save-dev"]),
    flag(&["-O", "--save-optional"]),
    flag(&["--lockfile-only"]),
    value(&["--lockfile-dir"]).does(WritesFile(LOCKFILE)),
    flag(&["--trust-lockfile"]),
    flag(&["--no-trust-lockfile"]),
    flag(&["-g", "--global"]).does(WritesFile(GLOBAL_PREFIX)),
];

/// `pnpm patch --help`'s own options.
const OPTS_PATCH: &[Opt] = &[
    value(&["-d", "--edit-dir"]).does(WritesFile(EDIT_DIR)),
    flag(&["--ignore-existing"]),
];

/// `pnpm patch-commit --help`'s own options.
const OPTS_PATCH_COMMIT: &[Opt] = &[value(&["--patches-dir"]).does(WritesFile(PATCHES))];

/// `pnpm peers --help`'s own options.
const OPTS_PEERS: &[Opt] = &[
    flag(&["-g", "--global"]).does(WritesFile(GLOBAL_PREFIX)),
    flag(&["--json"]),
    flag(&["--lockfile-only"]),
];

/// `pnpm run --help`'s own options.
const OPTS_RUN: &[Opt] = &[
    flag(&["--if-present"]),
    flag(&["-s", "--sequential"]),
    flag(&["--dry-run"]),
    flag(&["--json"]),
];

/// `pnpm pipeline --help`'s own options.
const OPTS_PIPELINE: &[Opt] = &[
    flag(&["-P", "--prod"]),
    flag(&["-D", "--dev"]),
    flag(&["--optional"]),
    flag(&["--no-optional"]),
    value(&["--cpu"]),
    value(&["--os"]),
    value(&["--libc"]),
    flag(&["--ignore-scripts"]),
    flag(&["--no-ignore-scripts"]),
    flag(&["--ignore-pnpmfile"]),
    flag(&["--offline"]),
    flag(&["--no-offline"]),
    flag(&["--prefer-offline"]),
    flag(&["--no-prefer-offline"]),
    flag(&["--frozen-lockfile"]),
    flag(&["--no-frozen-lockfile"]),
    flag(&["--lockfile-only"]),
    flag(&["--fix-lockfile"]),
    value(&["--lockfile-dir"]).does(WritesFile(LOCKFILE)),
    flag(&["--prefer-frozen-lockfile"]),
    flag(&["--no-prefer-frozen-lockfile"]),
    flag(&["--ignore-manifest-check"]),
    flag(&["--auto-dedupe"]),
    flag(&["--no-auto-dedupe"]),
    flag(&["--merge-git-branch-lockfiles"]),
    value(&["--merge-git-branch-lockfiles-branch-pattern"]),
    flag(&["--trust-lockfile"]),
    flag(&["--no-trust-lockfile"]),
    flag(&["--update-checksums"]),
    value(&["--network-concurrency"]),
    value(&["--fetch-timeout"]),
    value(&["--fetch-warn-timeout-ms"]),
    value(&["--fetch-min-speed-ki-bps"]),
    value(&["--user-agent"]),
    value(&["--pnpr-server"]).does(LoadsCode(REGISTRY)),
    flag(&["--dry-run"]),
    flag(&["--force"]),
    flag(&["--no-runtime"]),
    value(&["--node-linker"]),
    flag(&["--frozen-store"]),
    flag(&["--no-frozen-store"]),
    value(&["--allow-build"]).does(RunsProgram(ALLOW_BUILD)),
    flag(&["--json"]),
    flag(&["--no-cache"]),
    flag(&["--full"]),
    value(&["--base"]),
    flag(&["--watch"]).does(RunsProgram(WATCH)),
    value(&["--repo"]),
    value(&["--branch"]),
    value(&["--interval"]),
    flag(&["--once"]),
    flag(&["--report"]).does(Uploads(REPORT)),
    value(&["--report-to"]).does(Uploads(REPORT)),
];

/// `pnpm exec --help`'s own options.
const OPTS_EXEC: &[Opt] = &[flag(&["-c", "--shell-mode"]).does(RunsProgram(SHELL_MODE))];

/// `pnpm dlx --help`'s own options.
const OPTS_DLX: &[Opt] = &[
    value(&["--package"]),
    value(&["--allow-build"]).does(RunsProgram(ALLOW_BUILD)),
    flag(&["-c", "--shell-mode"]).does(RunsProgram(SHELL_MODE)),
    value(&["--cpu"]),
    value(&["--os"]),
    value(&["--libc"]),
];

/// `pnpm create --help`'s own options.
const OPTS_CREATE: &[Opt] = &[
    value(&["--allow-build"]).does(RunsProgram(ALLOW_BUILD)),
    flag(&["-c", "--shell-mode"]).does(RunsProgram(SHELL_MODE)),
    value(&["--cpu"]),
    value(&["--os"]),
    value(&["--libc"]),
];

/// `pnpm restart --help`'s own options.
const OPTS_RESTART: &[Opt] = &[flag(&["--if-present"])];

/// `pnpm runtime --help`'s own options.
const OPTS_RUNTIME: &[Opt] = &[
    flag(&["-g", "--global"]).does(WritesFile(GLOBAL_PREFIX)),
    flag(&["-D", "--save-dev"]),
    flag(&["-P", "--save-prod"]),
];

/// `pnpm env --help`'s own options.
const OPTS_ENV: &[Opt] = &[flag(&["-g", "--global"]).does(WritesFile(GLOBAL_PREFIX))];

/// `pnpm bin --help`'s own options.
const OPTS_BIN: &[Opt] = &[flag(&["-g", "--global"]).does(WritesFile(GLOBAL_PREFIX))];

/// `pnpm clean --help`'s own options.
const OPTS_CLEAN: &[Opt] = &[flag(&["-l", "--lockfile"])];

/// `pnpm purge --help`'s own options.
const OPTS_PURGE: &[Opt] = &[flag(&["-l", "--lockfile"])];

/// `pnpm ci --help`'s own options.
const OPTS_CI: &[Opt] = OPTS_INSTALL;

/// `pnpm root --help`'s own options.
const OPTS_ROOT: &[Opt] = &[flag(&["-g", "--global"]).does(WritesFile(GLOBAL_PREFIX))];

/// `pnpm prefix --help`'s own options.
const OPTS_PREFIX: &[Opt] = &[flag(&["-g", "--global"]).does(WritesFile(GLOBAL_PREFIX))];

/// `pnpm config --help`'s own options.
const OPTS_CONFIG: &[Opt] = &[
    flag(&["-g", "--global"]).does(WritesFile(GLOBAL_PREFIX)),
    value(&["--location"]),
    flag(&["--json"]),
];

/// `pnpm get --help`'s own options.
const OPTS_GET: &[Opt] = OPTS_CONFIG;

/// `pnpm set --help`'s own options.
const OPTS_SET: &[Opt] = OPTS_CONFIG;

/// `pnpm pkg --help`'s own options.
const OPTS_PKG: &[Opt] = &[flag(&["--json"])];

/// `pnpm pack-app --help`'s own options.
const OPTS_PACK_APP: &[Opt] = &[
    value(&["--entry"]),
    value(&["-t", "--target"]),
    value(&["--runtime"]),
    value(&["-o", "--output-dir"]).does(WritesFile(OUTPUT)),
    value(&["--output-name"]),
];

/// `pnpm approve-builds --help`'s own options.
const OPTS_APPROVE_BUILDS: &[Opt] = &[
    flag(&["--all"]),
    flag(&["-g", "--global"]).does(WritesFile(GLOBAL_PREFIX)),
];

/// `pnpm approve --help`'s own options.
const OPTS_APPROVE: &[Opt] = &[flag(&["--all"])];

/// `pnpm import --help`'s own options.
const OPTS_IMPORT: &[Opt] = &[value(&["--pnpr-server"]).does(LoadsCode(REGISTRY))];

/// `pnpm dedupe --help`'s own options.
const OPTS_DEDUPE: &[Opt] = &[
    flag(&["--check"]),
    flag(&["--lockfile-only"]),
    flag(&["--no-runtime"]),
    flag(&["--ignore-scripts"]),
    flag(&["--no-ignore-scripts"]),
    flag(&["--ignore-pnpmfile"]),
    flag(&["--offline"]),
    flag(&["--no-offline"]),
    flag(&["--prefer-offline"]),
    flag(&["--no-prefer-offline"]),
];

/// `pnpm deploy --help`'s own options.
const OPTS_DEPLOY: &[Opt] = &[
    flag(&["-P", "--prod"]),
    flag(&["-D", "--dev"]),
    flag(&["--optional"]),
    flag(&["--no-optional"]),
    value(&["--cpu"]),
    value(&["--os"]),
    value(&["--libc"]),
    flag(&["--ignore-scripts"]),
    flag(&["--no-ignore-scripts"]),
    flag(&["--ignore-pnpmfile"]),
    flag(&["--offline"]),
    flag(&["--no-offline"]),
    flag(&["--prefer-offline"]),
    flag(&["--no-prefer-offline"]),
    flag(&["--frozen-lockfile"]),
    flag(&["--no-frozen-lockfile"]),
    flag(&["--lockfile-only"]),
    flag(&["--fix-lockfile"]),
    value(&["--lockfile-dir"]).does(WritesFile(LOCKFILE)),
    flag(&["--prefer-frozen-lockfile"]),
    flag(&["--no-prefer-frozen-lockfile"]),
    flag(&["--ignore-manifest-check"]),
    flag(&["--auto-dedupe"]),
    flag(&["--no-auto-dedupe"]),
    flag(&["--merge-git-branch-lockfiles"]),
    value(&["--merge-git-branch-lockfiles-branch-pattern"]),
    flag(&["--trust-lockfile"]),
    flag(&["--no-trust-lockfile"]),
    flag(&["--update-checksums"]),
    value(&["--network-concurrency"]),
    value(&["--fetch-timeout"]),
    value(&["--fetch-warn-timeout-ms"]),
    value(&["--fetch-min-speed-ki-bps"]),
    value(&["--user-agent"]),
    value(&["--pnpr-server"]).does(LoadsCode(REGISTRY)),
    flag(&["--dry-run"]),
    flag(&["--force"]),
    flag(&["--no-runtime"]),
    value(&["--node-linker"]),
    flag(&["--frozen-store"]),
    flag(&["--no-frozen-store"]),
    value(&["--allow-build"]).does(RunsProgram(ALLOW_BUILD)),
    flag(&["--legacy"]),
];

/// `pnpm prune --help`'s own options.
const OPTS_PRUNE: &[Opt] = &[
    flag(&["-P", "--prod"]),
    flag(&["-D", "--dev"]),
    flag(&["--optional"]),
    flag(&["--no-optional"]),
    flag(&["--ignore-scripts"]),
    flag(&["--no-ignore-scripts"]),
];

/// `pnpm fetch --help`'s own options.
const OPTS_FETCH: &[Opt] = &[
    flag(&["-P", "--prod"]),
    flag(&["-D", "--dev"]),
    flag(&["--ignore-pnpmfile"]),
];

/// `pnpm unlink --help`'s own options.
const OPTS_UNLINK: &[Opt] = &[flag(&["--ignore-pnpmfile"])];

/// `pnpm setup --help`'s own options.
const OPTS_SETUP: &[Opt] = &[flag(&["-f", "--force"]), flag(&["--no-modify-path"])];

/// `pnpm login --help`'s own options.
const OPTS_LOGIN: &[Opt] = &[value(&["--scope"])];

/// `pnpm team --help`'s own options.
const OPTS_TEAM: &[Opt] = &[value(&["--otp"]), flag(&["--parseable"]), flag(&["--json"])];

/// `pnpm owner --help`'s own options.
const OPTS_OWNER: &[Opt] = &[value(&["--otp"])];

/// `pnpm profile --help`'s own options.
const OPTS_PROFILE: &[Opt] = &[
    value(&["--otp"]),
    flag(&["--json"]),
    flag(&["-p", "--parseable"]),
];

/// `pnpm token --help`'s own options.
const OPTS_TOKEN: &[Opt] = &[
    value(&["--otp"]),
    flag(&["--json"]),
    flag(&["-p", "--parseable"]),
    flag(&["--read-only"]),
    value(&["--cidr"]),
];

/// Every command `pnpm --help` lists, with its aliases.
const SUBS: &[Sub] = &[
    sub(&["access"], &[GLOBAL, OPTS_ACCESS]).does(Uploads(PUBLISHES)),
    sub(&["init"], &[GLOBAL, OPTS_INIT]),
    sub(&["recursive", "multi", "m"], &[GLOBAL]).does(RunsProgram(RECURSIVE)),
    sub(&["add"], &[GLOBAL, OPTS_ADD]).operands(Operands::Installs(Sources::Npm, INSTALLS_FROM)),
    sub(&["install", "i"], &[GLOBAL, OPTS_INSTALL])
        .operands(Operands::Installs(Sources::Npm, INSTALLS_FROM)),
    sub(&["install-test", "it"], &[GLOBAL, OPTS_INSTALL_TEST]),
    sub(&["update", "up", "upgrade"], &[GLOBAL, OPTS_UPDATE]),
    sub(&["outdated"], &[GLOBAL, OPTS_OUTDATED]),
    sub(&["audit"], &[GLOBAL, OPTS_AUDIT]),
    sub(&["change"], &[GLOBAL, OPTS_CHANGE]),
    sub(&["version"], &[GLOBAL, OPTS_VERSION]),
    sub(&["lane"], &[GLOBAL]).does(SetsConfig(LANE)),
    sub(&["bugs", "issues"], &[GLOBAL]).does(RunsProgram(OPENS)),
    sub(&["list", "ls"], &[GLOBAL, OPTS_LIST]),
    sub(&["ll", "la"], &[GLOBAL, OPTS_LL]),
    sub(&["licenses", "licences"], &[GLOBAL, OPTS_LICENSES]),
    sub(&["fund"], &[GLOBAL, OPTS_FUND]),
    sub(&["why"], &[GLOBAL, OPTS_WHY]),
    sub(&["view", "info", "show", "v"], &[GLOBAL, OPTS_VIEW]),
    sub(&["sbom"], &[GLOBAL, OPTS_SBOM]),
    sub(&["whoami"], &[GLOBAL]),
    sub(&["deprecate"], &[GLOBAL, OPTS_DEPRECATE]).does(Uploads(PUBLISHES)),
    sub(&["undeprecate"], &[GLOBAL, OPTS_UNDEPRECATE]).does(Uploads(PUBLISHES)),
    sub(&["unpublish"], &[GLOBAL, OPTS_UNPUBLISH]).does(Uploads(PUBLISHES)),
    sub(&["star"], &[GLOBAL]).does(Uploads(STAR)),
    sub(&["unstar"], &[GLOBAL]).does(Uploads(STAR)),
    sub(&["stars"], &[GLOBAL]),
    sub(&["dist-tag", "dist-tags"], &[GLOBAL, OPTS_DIST_TAG]).does(Uploads(PUBLISHES)),
    sub(&["ping"], &[GLOBAL]),
    sub(&["doctor"], &[GLOBAL, OPTS_DOCTOR]),
    sub(&["search", "s", "se", "find"], &[GLOBAL, OPTS_SEARCH]),
    sub(&["rebuild"], &[GLOBAL, OPTS_REBUILD]),
    sub(&["rb"], &[GLOBAL, OPTS_RB]),
    sub(&["pack"], &[GLOBAL, OPTS_PACK]),
    sub(&["publish"], &[GLOBAL, OPTS_PUBLISH]).does(Uploads(PUBLISHES)),
    sub(&["stage"], &[GLOBAL, OPTS_STAGE]).does(Uploads(PUBLISHES)),
    sub(
        &["remove", "uninstall", "rm", "un", "uni"],
        &[GLOBAL, OPTS_REMOVE],
    ),
    sub(&["patch"], &[GLOBAL, OPTS_PATCH]),
    sub(&["patch-commit"], &[GLOBAL, OPTS_PATCH_COMMIT]).does(SetsConfig(PATCH)),
    sub(&["patch-remove"], &[GLOBAL]).does(SetsConfig(PATCH)),
    sub(&["peers"], &[GLOBAL, OPTS_PEERS]),
    sub(&["set-script", "ss"], &[GLOBAL]).does(SetsConfig(SET_SCRIPT)),
    sub(&["test", "t", "tst"], &[GLOBAL]),
    sub(&["run", "run-script"], &[GLOBAL, OPTS_RUN]),
    sub(&["tasks"], &[GLOBAL]),
    sub(&["pipeline"], &[GLOBAL, OPTS_PIPELINE]),
    sub(&["exec"], &[GLOBAL, OPTS_EXEC]).does(RunsProgram(EXEC)),
    sub(&["dlx"], &[GLOBAL, OPTS_DLX]).does(RunsProgram(DLX)),
    sub(&["create"], &[GLOBAL, OPTS_CREATE]).does(RunsProgram(CREATE)),
    sub(&["completion"], &[GLOBAL]),
    sub(&["start"], &[GLOBAL]),
    sub(&["stop"], &[GLOBAL]),
    sub(&["restart"], &[GLOBAL, OPTS_RESTART]),
    sub(&["find-hash"], &[GLOBAL]),
    sub(&["runtime", "rt"], &[GLOBAL, OPTS_RUNTIME]).does(SetsConfig(RUNTIME)),
    sub(&["env"], &[GLOBAL, OPTS_ENV]).does(SetsConfig(RUNTIME)),
    sub(&["shim"], &[GLOBAL]).does(SetsConfig(SHIM)),
    sub(&["bin"], &[GLOBAL, OPTS_BIN]),
    sub(&["clean"], &[GLOBAL, OPTS_CLEAN]),
    sub(&["purge"], &[GLOBAL, OPTS_PURGE]),
    sub(
        &["ci", "clean-install", "ic", "install-clean"],
        &[GLOBAL, OPTS_CI],
    ),
    sub(&["root"], &[GLOBAL, OPTS_ROOT]),
    sub(&["prefix"], &[GLOBAL, OPTS_PREFIX]),
    sub(&["config", "c"], &[GLOBAL, OPTS_CONFIG]).does(SetsConfig(CONFIG_CMD)),
    sub(&["get"], &[GLOBAL, OPTS_GET]),
    sub(&["set"], &[GLOBAL, OPTS_SET]).does(SetsConfig(CONFIG_CMD)),
    sub(&["pkg"], &[GLOBAL, OPTS_PKG]).does(SetsConfig(PKG)),
    sub(&["pack-app"], &[GLOBAL, OPTS_PACK_APP]),
    sub(&["store"], &[GLOBAL]),
    sub(&["cache"], &[GLOBAL]),
    sub(&["cat-file"], &[GLOBAL]),
    sub(&["cat-index"], &[GLOBAL]),
    sub(&["ignored-builds"], &[GLOBAL]),
    sub(&["approve-builds"], &[GLOBAL, OPTS_APPROVE_BUILDS]).does(SetsConfig(APPROVE)),
    sub(&["permissions"], &[GLOBAL]).does(SetsConfig(APPROVE)),
    sub(&["approve"], &[GLOBAL, OPTS_APPROVE]).does(SetsConfig(APPROVE)),
    sub(&["link", "ln"], &[GLOBAL]).does(OtherTree(LINK)),
    sub(&["import"], &[GLOBAL, OPTS_IMPORT]),
    sub(&["dedupe"], &[GLOBAL, OPTS_DEDUPE]),
    sub(&["deploy"], &[GLOBAL, OPTS_DEPLOY]).does(WritesFile(DEPLOY)),
    sub(&["prune"], &[GLOBAL, OPTS_PRUNE]),
    sub(&["fetch"], &[GLOBAL, OPTS_FETCH]),
    sub(&["unlink", "dislink"], &[GLOBAL, OPTS_UNLINK]),
    sub(&["docs", "home"], &[GLOBAL]).does(RunsProgram(OPENS)),
    sub(&["repo"], &[GLOBAL]).does(RunsProgram(OPENS)),
    sub(&["self-update"], &[GLOBAL]).does(RunsProgram(SELF_UPDATE)),
    sub(&["setup"], &[GLOBAL, OPTS_SETUP]).does(SetsConfig(SETUP)),
    sub(&["login", "adduser"], &[GLOBAL, OPTS_LOGIN]).does(Uploads(LOGIN)),
    sub(&["team"], &[GLOBAL, OPTS_TEAM]).does(Uploads(PUBLISHES)),
    sub(&["owner", "owners"], &[GLOBAL, OPTS_OWNER]).does(Uploads(PUBLISHES)),
    sub(&["logout"], &[GLOBAL]).does(SetsConfig(TOKEN)),
    sub(&["with"], &[GLOBAL]).does(RunsProgram(WITH)),
    sub(&["edit"], &[GLOBAL]),
    sub(&["profile"], &[GLOBAL, OPTS_PROFILE]).does(SetsConfig(PROFILE)),
    sub(&["token"], &[GLOBAL, OPTS_TOKEN]).does(SetsConfig(TOKEN)),
    sub(&["xmas"], &[GLOBAL]),
    sub(&["help"], &[GLOBAL]),
];

/// `pnpm`.
pub(crate) const PNPM: Spec = Spec {
    family: "pnpm",
    names: &["pnpm"],
    ids: ids!("pnpm"),
    grammar: Grammar::PackageManager {
        scripts: &[
            "run",
            "run-script",
            "exec",
            "dlx",
            "create",
            "recursive",
            "multi",
            "m",
            "with",
        ],
        verbatim: &["test", "t", "tst", "start", "stop", "help"],
        unknown: Some("run"),
        commander: false,
    },
    opts: &[GLOBAL],
    subs: SUBS,
    checked_with: "pnpm 12.21.0",
    operands: Operands::Plain,
    env: &[
        location(
            "PNPM_CONFIG_*",
            "sets any pnpm option, such as the registry or the script shell",
        ),
        location(
            "PNPM_HOME",
            "moves pnpm's home, whose global bin directory is on PATH",
        ),
    ],
};
