//! Paths an allowed command must not name: the guardrail's own state and
//! the user's credential stores.
//!
//! Allowlisting `cat` trusts it to show files, and what it shows goes back
//! to the agent and the model behind it. `cat ~/.clawdbot/exec-approvals.json`
//! would hand over the socket token that authenticates approvals, and
//! `head ~/.ssh/id_ed25519` a key that logs in elsewhere; `cp`, `tar`,
//! `git diff --no-index` or `jq` do the same. Whatever the program and
//! whether or not it has a spec, an argument naming such a path (as a word,
//! after an option's `=`, after curl's `@`, or attached to a short option)
//! is asked, and the reason names the path and what it holds.
//!
//! Arguments are read lexically, against the segment's directory, after
//! the analysis expanded `~`, `$HOME` and globs. A directory above one of
//! these paths handed to a program that reads whole trees (`grep -r x ~`,
//! `cp -r ~ b`, `tar czf x.tgz ~`) is asked too ([`recursive`]). A link to
//! one of them that an earlier request made or a clone or an archive
//! brought (`ln -s ~/.clawdbot/exec-approvals.json x`, then `cat x`; a
//! link to the home directory, then `cat home/.netrc`) is followed: an
//! argument that names an existing link, or a path through one, is judged
//! by the real path it resolves to ([`Secrets::through_link`]), and relative
//! names after a `cd` through a link are read where it leads ([`Site`]).
//! Making such a link in the same request is asked as a link out of the
//! tree. The file a command reads on stdin (`< FILE`) is judged as such
//! an argument, and by the real path the executor opens
//! ([`Secrets::read_on_stdin`]).

use std::path::{Path, PathBuf};

use regex::bytes::Regex;

use crate::approvals::{HOME_STATE_DIR, OPENCLAW_HOME_STATE_DIR};
use crate::policy::analysis::normalize;
use crate::policy::guards::GuardHit;

/// The guard id the hits carry.
pub const ID: &str = "secrets.path";

/// The guard id of printing the environment, where tokens and keys live
/// (`env`, `printenv`; `specs::types::Operands::PrintsEnv`).
pub const ENVIRONMENT_ID: &str = "secrets.environment";

/// Why the guardrail's own state directory is protected.
const STATE: &str = "the guardrail's own state: the approvals file with the socket token that authenticates approvals, the socket and the audit log";

/// Why shell and REPL histories are protected.
const HISTORY: &str = "command history, which holds tokens and passwords typed on command lines";

/// Credential stores under the home directory: the path, what it holds,
/// and the file names directly inside it that hold nothing secret.
const HOME_ROWS: &[(&str, &str, &[&str])] = &[
    (HOME_STATE_DIR, STATE, &[]),
    (OPENCLAW_HOME_STATE_DIR, STATE, &[]),
    (
        ".ssh",
        "SSH private keys, which log in to other hosts",
        &["*.pub", "known_hosts", "known_hosts.old"],
    ),
    (".gnupg", "GnuPG private keys", &[]),
    (".aws", "AWS credentials", &[]),
    (".azure", "Azure credentials", &[]),
    (".config/gcloud", "Google Cloud credentials", &[]),
    (".kube", "Kubernetes cluster credentials", &[]),
    (".docker/config.json", "container registry credentials", &[]),
    (".netrc", "passwords for remote hosts", &[]),
    (".git-credentials", "git's stored passwords and tokens", &[]),
    (
        ".config/git/credentials",
        "git's stored passwords and tokens",
        &[],
    ),
    (".config/gh/hosts.yml", "the GitHub CLI's token", &[]),
    (".npmrc", "npm registry tokens", &[]),
    (".pypirc", "Python package index passwords", &[]),
    (".cargo/credentials", "crates.io tokens", &[]),
    (".cargo/credentials.toml", "crates.io tokens", &[]),
    (".password-store", "the pass password store", &[]),
    (".pgpass", "PostgreSQL passwords", &[]),
    (".s3cfg", "S3 access keys (s3cmd)", &[]),
    (
        ".terraform.d/credentials.tfrc.json",
        "Terraform Cloud tokens",
        &[],
    ),
    (".vault-token", "a HashiCorp Vault token", &[]),
    (".gem/credentials", "RubyGems API keys", &[]),
    (".config/hub", "the hub CLI's GitHub token", &[]),
    (
        ".config/rclone/rclone.conf",
        "rclone's cloud storage tokens",
        &[],
    ),
    (".local/share/keyrings", "the desktop keyring", &[]),
    // Found by the H25 sweep: stores of tokens and passwords that CLIs,
    // build tools, agents and browsers keep under the home directory.
    (
        ".boto",
        "Google Cloud Storage and AWS keys (boto, gsutil)",
        &[],
    ),
    (".bundle/config", "Bundler's gem server credentials", &[]),
    (".cache/huggingface/token", "a Hugging Face token", &[]),
    (".claude.json", "an AI agent's account and API key", &[]),
    (
        ".claude/.credentials.json",
        "an AI agent's login tokens",
        &[],
    ),
    (
        ".cloudflared",
        "Cloudflare tunnel certificates and credentials",
        &[],
    ),
    (".codex/auth.json", "an AI agent's login tokens", &[]),
    (
        ".composer/auth.json",
        "Composer's registry and GitHub tokens",
        &[],
    ),
    (
        ".config/Code/User/globalStorage",
        "the editor's stored tokens and secrets",
        &[],
    ),
    (
        ".config/BraveSoftware",
        "browser cookies and saved passwords",
        &[],
    ),
    (
        ".config/chromium",
        "browser cookies and saved passwords",
        &[],
    ),
    (
        ".config/composer/auth.json",
        "Composer's registry and GitHub tokens",
        &[],
    ),
    (
        ".config/containers/auth.json",
        "container registry credentials",
        &[],
    ),
    (".config/doctl", "a DigitalOcean token", &[]),
    (".config/filezilla", "saved FTP and SFTP passwords", &[]),
    (".config/github-copilot", "a GitHub Copilot token", &[]),
    (
        ".config/google-chrome",
        "browser cookies and saved passwords",
        &[],
    ),
    (
        ".config/helm/repositories.yaml",
        "chart repository passwords",
        &[],
    ),
    (".config/op", "the 1Password CLI's account data", &[]),
    (
        ".config/sops/age/keys.txt",
        "age private keys that decrypt sops secrets",
        &[],
    ),
    (".databrickscfg", "Databricks tokens", &[]),
    (
        ".gradle/gradle.properties",
        "Gradle's repository and signing credentials",
        &[],
    ),
    (".huggingface/token", "a Hugging Face token", &[]),
    (".kaggle/kaggle.json", "a Kaggle API key", &[]),
    (
        ".local/share/remmina",
        "saved remote desktop passwords",
        &[],
    ),
    (".m2/settings-security.xml", "Maven's master password", &[]),
    (".m2/settings.xml", "Maven's repository passwords", &[]),
    (".mozilla", "browser cookies and saved passwords", &[]),
    (".my.cnf", "MySQL passwords", &[]),
    (".oci/config", "Oracle Cloud keys", &[]),
    (".pulumi/credentials.json", "Pulumi access tokens", &[]),
    (".terraformrc", "Terraform Cloud tokens", &[]),
    (".thunderbird", "mail passwords and messages", &[]),
    (".bash_history", HISTORY, &[]),
    (".zsh_history", HISTORY, &[]),
    (".local/share/fish/fish_history", HISTORY, &[]),
    (".python_history", HISTORY, &[]),
    (".psql_history", HISTORY, &[]),
    (".mysql_history", HISTORY, &[]),
    (".irb_history", HISTORY, &[]),
    (".node_repl_history", HISTORY, &[]),
    (".rediscli_history", HISTORY, &[]),
    (".sqlite_history", HISTORY, &[]),
    (
        ".viminfo",
        "the editor's command and search history and registers, which hold pasted tokens",
        &[],
    ),
    // Found by the H27 sweep: more CLIs' token and key stores.
    (
        ".authinfo",
        "passwords for remote hosts (netrc format)",
        &[],
    ),
    (
        ".authinfo.gpg",
        "passwords for remote hosts (netrc format, encrypted)",
        &[],
    ),
    (
        ".bitcoin/wallet.dat",
        "a cryptocurrency wallet's private keys",
        &[],
    ),
    (".circleci/cli.yml", "a CircleCI API token", &[]),
    (
        ".config/age/keys.txt",
        "age private keys that decrypt secrets",
        &[],
    ),
    (
        ".config/configstore/firebase-tools.json",
        "the Firebase CLI's login tokens",
        &[],
    ),
    (".config/ngrok", "an ngrok auth token", &[]),
    (".config/stripe", "Stripe API keys", &[]),
    (".config/vercel", "a Vercel token", &[]),
    (".dbt/profiles.yml", "database passwords (dbt)", &[]),
    (
        ".env",
        "environment secrets kept in the home directory",
        &[],
    ),
    (".ethereum/keystore", "cryptocurrency private keys", &[]),
    (".expo/state.json", "the Expo CLI's session token", &[]),
    (".fly/config.yml", "a Fly.io access token", &[]),
    (".local/share/com.vercel.cli", "the Vercel CLI's token", &[]),
    (".netlify/config.json", "the Netlify CLI's token", &[]),
    (".ngrok2/ngrok.yml", "an ngrok auth token", &[]),
    (".sentryclirc", "a Sentry auth token", &[]),
    (".solana/id.json", "a Solana private key", &[]),
    (".travis/config.yml", "a Travis CI token", &[]),
    (".twilio-cli", "Twilio API keys", &[]),
    (".wakatime.cfg", "a WakaTime API key", &[]),
    (".yarnrc.yml", "Yarn's registry tokens (npmAuthToken)", &[]),
];

/// Why a process's directory in `/proc` is protected.
const PROC: &str = "a process's environment (tokens), memory and open files, and links (root, cwd) around every path check";

/// Protected paths outside the home directory.
const SYSTEM_ROWS: &[(&str, &str)] = &[
    ("/etc/shadow", "the system's password hashes"),
    ("/etc/gshadow", "the system's group password hashes"),
    // Found by the H27 sweep.
    (
        "/run/secrets",
        "secrets a container runtime mounts (Docker, Compose, Kubernetes)",
    ),
    (
        "/var/run/secrets",
        "secrets a container runtime mounts, among them the Kubernetes service account token",
    ),
    ("/etc/ssh/ssh_host_rsa_key", "the host's SSH private key"),
    ("/etc/ssh/ssh_host_ecdsa_key", "the host's SSH private key"),
    (
        "/etc/ssh/ssh_host_ed25519_key",
        "the host's SSH private key",
    ),
];

/// One protected path.
#[derive(Debug, Clone)]
struct Row {
    path: PathBuf,
    what: &'static str,
    /// File names directly inside `path` that are not protected (`*.pub`:
    /// any name ending `.pub`).
    except: &'static [&'static str],
    /// Only the per-process directories inside `path` are protected.
    per_process: bool,
}

/// Where an argv runs, and which of its words cannot be files.
#[derive(Debug, Clone)]
pub struct Site<'a> {
    /// The directory it runs in, as the analysis spelled it (absolute,
    /// normalized).
    cwd: &'a Path,
    /// Where `cwd` leads, when a link on it leads elsewhere.
    moved_to: Option<PathBuf>,
    /// Whether `cwd` is the request's own directory, which the host
    /// resolved: then it and every directory above it hold no link.
    cwd_is_real: bool,
    /// Words of argv (borrowed from it) that the program's grammar reads as
    /// subcommand names: never opened, so never followed.
    not_files: &'a [&'a str],
}

impl<'a> Site<'a> {
    /// An argv run in `cwd`. `cwd_is_real`: it is the request's own
    /// directory, which the host resolved before asking; one a `cd` moved
    /// to may go through a link, and costs a system call to resolve.
    pub fn new(cwd: &'a Path, cwd_is_real: bool, not_files: &'a [&'a str]) -> Self {
        let moved_to = (!cwd_is_real)
            .then(|| links::real_dir(cwd))
            .filter(|real| real != cwd);
        Site {
            cwd,
            moved_to,
            cwd_is_real,
            not_files,
        }
    }

    /// The directory the program's kernel reads relative names in: the
    /// real one, which holds no link.
    fn real_cwd(&self) -> &Path {
        self.moved_to.as_deref().unwrap_or(self.cwd)
    }
}

/// The protected paths of one host, and a quick test for arguments that
/// could name one.
#[derive(Debug, Clone)]
pub struct Secrets {
    rows: Vec<Row>,
    /// Matches any argument holding a protected path's last component:
    /// only those, and relative ones in a protected directory, are read
    /// as paths (most arguments are not paths at all).
    needles: Option<Regex>,
    /// Every directory above a protected path: from one of them, a bare
    /// name (`.netrc` in the home directory) can name one.
    above: foldhash::HashSet<Vec<u8>>,
    /// The protected paths themselves, to find one above a directory.
    paths: foldhash::HashSet<Vec<u8>>,
    /// Paths found to hold no link that only root can change.
    settled: Settled,
}

impl Secrets {
    /// The protected paths for a host with this home directory and these
    /// guardrail state directories (`$CLAWDBOT_STATE_DIR`,
    /// `$OPENCLAW_STATE_DIR`).
    pub fn for_host(home: Option<&Path>, state_dirs: &[PathBuf]) -> Self {
        let mut rows: Vec<Row> = Vec::new();
        if let Some(home) = home.filter(|h| h.is_absolute()) {
            rows.extend(HOME_ROWS.iter().map(|(p, what, except)| Row {
                path: normalize(&home.join(p)),
                what,
                except,
                per_process: false,
            }));
        }
        rows.extend(state_dirs.iter().filter(|d| d.is_absolute()).map(|d| Row {
            path: normalize(d),
            what: STATE,
            except: &[],
            per_process: false,
        }));
        rows.extend(SYSTEM_ROWS.iter().map(|(p, what)| Row {
            path: PathBuf::from(p),
            what,
            except: &[],
            per_process: false,
        }));
        rows.push(Row {
            path: PathBuf::from("/proc"),
            what: PROC,
            except: &[],
            per_process: true,
        });
        // A path inside a row holds the row's last component; a row with
        // none (`/`) or one that is not UTF-8 leaves no quick test.
        let names: Option<Vec<String>> = rows
            .iter()
            .map(|r| r.path.file_name()?.to_str().map(regex::escape))
            .collect();
        let needles = names.and_then(|mut names| {
            names.sort();
            names.dedup();
            Regex::new(&names.join("|")).ok()
        });
        let above = rows
            .iter()
            .flat_map(|r| r.path.ancestors().skip(1))
            .map(|p| p.as_os_str().as_encoded_bytes().to_vec())
            .collect();
        let paths = rows
            .iter()
            .map(|r| r.path.as_os_str().as_encoded_bytes().to_vec())
            .collect();
        Self {
            rows,
            needles,
            above,
            paths,
            settled: Settled::for_this_user(),
        }
    }

    /// Whether `text` could name a protected path: it holds a protected
    /// path's last component (always, without a quick test).
    fn may_name(&self, text: &[u8]) -> bool {
        self.needles.as_ref().is_none_or(|n| n.is_match(text))
    }

    /// The hit for the first argument of `argv`, run at `site`, that names
    /// a protected path, if any.
    pub fn named_by(&self, argv: &[String], site: &Site<'_>) -> Option<GuardHit> {
        let bases = self.bases(site);
        let mut options_end = false;
        for arg in argv.iter().skip(1) {
            if let Some(hit) = self.spelled_at(arg, &bases) {
                return Some(hit);
            }
            // Before `--`, a word spelled like an option is one, and only
            // its `=value` can name a file; after it, the whole word can
            // (`cat -- -k`). A subcommand name is never a file.
            let option = !options_end && arg.starts_with('-');
            options_end |= arg == "--";
            if site
                .not_files
                .iter()
                .any(|w| std::ptr::eq(*w, arg.as_str()))
            {
                continue;
            }
            if let Some(hit) = self.through_link(arg, site, option) {
                return Some(hit);
            }
        }
        None
    }

    /// The hit when the file a command run at `site` reads on stdin
    /// (`< word`, whose real path is `real`) is a protected path: judged as
    /// [`Secrets::named_by`] judges a file operand (its spelling, a link on
    /// it), and by the real path the executor opens.
    pub fn read_on_stdin(&self, word: &str, real: &Path, site: &Site<'_>) -> Option<GuardHit> {
        self.spelled_at(word, &self.bases(site))
            .or_else(|| self.through_link(word, site, false))
            .or_else(|| {
                let row = self.row_of(real)?;
                Some(GuardHit {
                    id: ID,
                    reason: format!(
                        "stdin from {word} reads {}, which is in {} and holds {}; what a command reads there goes back to the agent",
                        real.display(),
                        row.path.display(),
                        row.what
                    ),
                })
            })
    }

    /// The directories a relative name is read in at `site` (its own, and
    /// after a `cd` through a link, where that leads, as the program's
    /// kernel reads it), each with whether it is in or just above a
    /// protected path and whether it is inside one.
    fn bases<'a>(&self, site: &'a Site<'_>) -> [Option<(&'a Path, bool, bool)>; 2] {
        let base = |cwd: &'a Path| {
            let bytes = cwd.as_os_str().as_encoded_bytes();
            let in_protected = self.in_or_at_a_path(bytes) && self.row_of(cwd).is_some();
            // A word with no `/` names `cwd/word`: protected only when
            // `cwd` is in a protected path or just above one. Most words
            // are that, and most directories neither.
            let near = in_protected || self.above.contains(bytes);
            (cwd, near, in_protected)
        };
        [Some(base(site.cwd)), site.moved_to.as_deref().map(base)]
    }

    /// The hit for `arg` when its spelling names a protected path from one
    /// of `bases`.
    fn spelled_at(&self, arg: &str, bases: &[Option<(&Path, bool, bool)>; 2]) -> Option<GuardHit> {
        bases
            .iter()
            .flatten()
            .find_map(|&(cwd, near, in_protected)| self.spelled(arg, cwd, near, in_protected))
    }

    /// The hit for `arg` when its spelling, read lexically against `cwd`,
    /// names a protected path. `near`: `cwd` is in or just above one, so a
    /// bare name can name one; `in_protected`: `cwd` is inside one.
    fn spelled(&self, arg: &str, cwd: &Path, near: bool, in_protected: bool) -> Option<GuardHit> {
        if !near && !arg.contains('/') {
            return None;
        }
        let named = self.may_name(arg.as_bytes());
        // In a protected directory, any relative name is inside it.
        let relative_inside = in_protected && !arg.starts_with('/');
        if !(named || relative_inside) {
            return None;
        }
        for candidate in candidates(arg) {
            let path = normalize(&cwd.join(candidate));
            if let Some(row) = self.row_of(&path) {
                let shown = if Path::new(arg) == path {
                    arg.to_owned()
                } else {
                    format!("{arg} ({})", path.display())
                };
                return Some(GuardHit {
                    id: ID,
                    reason: format!(
                        "{shown} is in {}, which holds {}; what a command reads there goes back to the agent",
                        row.path.display(),
                        row.what
                    ),
                });
            }
        }
        None
    }

    /// The hit for `arg` when it names, through a link that already exists
    /// on disk, a protected path that its spelling does not show: a link
    /// itself (`x` → `~/.ssh/id_rsa`) or a path through a linked directory
    /// (`home/.netrc` with `home` → `~`). The whole word and an option's or
    /// an operand's `=value` are read, against `real_cwd` (which holds no
    /// link). A path with no link on it is its own real path, which
    /// [`Secrets::spelled`] already read; finding that out costs one system
    /// call ([`links`]).
    fn through_link(&self, arg: &str, site: &Site<'_>, option: bool) -> Option<GuardHit> {
        let real_cwd = site.real_cwd();
        let after_eq = arg.split_once('=').map(|(_, v)| v);
        // curl's `-w @file` and openssl's `-pass file:P` name the file
        // after a prefix (found by the H25 sweep).
        let after_at = arg.strip_prefix('@').filter(|_| !option);
        let after_file = arg.strip_prefix("file:").filter(|_| !option);
        std::iter::once(arg)
            .filter(|_| !option)
            .chain(after_eq)
            .chain(after_at)
            .chain(after_file)
            .filter(|c| !c.is_empty())
            .find_map(|candidate| {
                let path = real_cwd.join(candidate);
                if own_stream(&path) || self.settled.holds_no_link(&path) {
                    return None;
                }
                // The host resolved the request's directory: it and every
                // directory above it hold no link, so `.`, `..` and its own
                // absolute name cost no system call (`grep -r x .`, `du -sh
                // ..`). A directory a `cd` moved to is not known to be real
                // above the point it was resolved to: looked at as usual.
                if site.cwd_is_real
                    && (candidate.starts_with('.') || candidate.starts_with('/'))
                    && real_cwd.starts_with(normalize(&path))
                {
                    return None;
                }
                let one_below_real = match candidate.strip_prefix('/') {
                    Some(rest) => !rest.is_empty() && !rest.contains('/'),
                    None => !candidate.contains('/'),
                };
                let real = links::linked(&path, one_below_real)?;
                let row = self.row_of(&real)?;
                Some(GuardHit {
                    id: ID,
                    reason: format!(
                        "{arg} leads through a link to {}, which is in {} and holds {}; what a command reads there goes back to the agent",
                        real.display(),
                        row.path.display(),
                        row.what
                    ),
                })
            })
    }

    /// Whether `dir` (absolute, normalized) or a directory above it is a
    /// protected path, by a lookup per level rather than a scan of rows.
    fn in_or_at_a_path(&self, dir: &[u8]) -> bool {
        let mut end = dir.len();
        loop {
            let prefix = &dir[..end];
            let key: &[u8] = if prefix.is_empty() { b"/" } else { prefix };
            if self.paths.contains(key) {
                return true;
            }
            match prefix.iter().rposition(|&b| b == b'/') {
                Some(slash) => end = slash,
                None => return false,
            }
        }
    }

    /// The protected row `path` (absolute, normalized) is, or is inside.
    fn row_of(&self, path: &Path) -> Option<&Row> {
        self.rows.iter().find(|row| {
            let Ok(rest) = path.strip_prefix(&row.path) else {
                return false;
            };
            let mut parts = rest.iter();
            match (parts.next(), parts.next()) {
                _ if row.per_process => rest.iter().next().is_some_and(is_process),
                (Some(name), None) => !row.except.iter().any(|e| excepted(name, e)),
                _ => true,
            }
        })
    }

    /// The protected path a directory holds, when a command is handed
    /// every file under it (`find DIR -exec cat {} +`): one at or below it.
    pub fn under(&self, dir: &Path) -> Option<GuardHit> {
        let dir = normalize(dir);
        let row = self
            .row_of(&dir)
            .or_else(|| self.rows.iter().find(|row| row.path.starts_with(&dir)))?;
        Some(GuardHit {
            id: ID,
            reason: format!(
                "the command reads every file under {}, and {} holds {}; what a command reads there goes back to the agent",
                dir.display(),
                row.path.display(),
                row.what
            ),
        })
    }
}

/// `/dev/stdin`, `/dev/fd/N` and the like: the command's own streams,
/// whose links into `/proc/self` say nothing of the command. Anything else
/// under `/dev` (`/dev/shm`, which anyone can write) is followed.
fn own_stream(path: &Path) -> bool {
    if !path
        .as_os_str()
        .as_encoded_bytes()
        .windows(4)
        .any(|w| w == b"/dev")
    {
        return false;
    }
    let path = normalize(path);
    ["/dev/stdin", "/dev/stdout", "/dev/stderr"]
        .iter()
        .any(|s| path == Path::new(s))
        || path.starts_with("/dev/fd")
}

/// A per-process directory of `/proc`: a pid, `self` or `thread-self`.
fn is_process(name: &std::ffi::OsStr) -> bool {
    name.to_str().is_some_and(|n| {
        n == "self"
            || n == "thread-self"
            || (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// Whether a file name is an exception: equal to it, or for `*SUFFIX`
/// ending with SUFFIX (a public key, `id_ed25519.pub`, says nothing secret).
fn excepted(name: &std::ffi::OsStr, exception: &str) -> bool {
    match exception.strip_prefix('*') {
        Some(suffix) => name.to_str().is_some_and(|n| n.ends_with(suffix)),
        None => name == exception,
    }
}

/// The ways an argument can carry a path: whole, after an option's or an
/// operand's `=` (`--file=P`, `if=P`), after curl's `@`, or attached to a
/// short option or after any prefix (`-fP`): from its first `/`.
fn candidates(arg: &str) -> impl Iterator<Item = &str> {
    let after_eq = arg.split_once('=').map(|(_, v)| v);
    let after_at = arg.strip_prefix('@');
    let from_slash = arg.find('/').filter(|&i| i > 0).map(|i| &arg[i..]);
    std::iter::once(arg)
        .chain(after_eq)
        .chain(after_at)
        .chain(from_slash)
        .map(|c| c.strip_prefix('@').unwrap_or(c))
        .filter(|c| !c.is_empty())
}

#[path = "secrets/links.rs"]
pub(crate) mod links;
#[path = "secrets/settled.rs"]
mod settled;

use settled::Settled;
#[path = "secrets/recursive.rs"]
mod recursive;

#[cfg(test)]
#[path = "secrets/tests.rs"]
mod tests;
