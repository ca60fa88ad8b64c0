//! The environment a checked command runs with: the host's own variables minus
//! loader and interpreter hooks, plus request overrides that passed a check.
//!
//! It decides which inherited variables are stripped (a blocklist of keys and
//! prefixes that make a program load or run code it was not asked to run),
//! which overrides a request may set, and which `NAME=value` prefixes in shell
//! text are inert enough to auto-allow. It refuses, never silently drops, an
//! override of `PATH`, of a blocked or override-only key, with an invalid
//! name, or with a NUL byte. Everything here is a pure function of its
//! arguments: callers pass the host environment in. Upholds DESIGN.md
//! section 8 ("request overrides with a blocked key or `PATH` are refused")
//! and invariant 4 (what runs is what was checked: no hook variable can change
//! which code a checked program loads).
//!
//! Keys are compared upper-cased, as the Windows environment and careless
//! tools do, so `ld_preload` is treated like `LD_PRELOAD`.

use std::collections::BTreeMap;

/// Why a request's environment overrides were refused; each variant names
/// the offending key so the user can drop it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EnvRefusal {
    /// The key is not a portable variable name.
    #[error(
        "environment override rejected ({key:?}): not a valid variable name; expected letters, digits and underscores, not starting with a digit"
    )]
    InvalidKey {
        /// The key as sent.
        key: String,
    },
    /// `PATH` decides which executable a bare name resolves to; it comes from
    /// the host only.
    #[error(
        "environment override rejected ({key}): PATH cannot be overridden, executables are resolved against the host PATH"
    )]
    PathOverride {
        /// The key as sent (any case of `PATH`).
        key: String,
    },
    /// The key is on the blocklist of hook variables.
    #[error("environment override rejected ({key}): {reason}")]
    Blocked {
        /// The key as sent.
        key: String,
        /// The table's reason for blocking it.
        reason: &'static str,
    },
    /// The key may be inherited from the host but not set by a request.
    #[error("environment override rejected ({key}): {reason}; it may only come from the host")]
    OverrideOnly {
        /// The key as sent.
        key: String,
        /// The table's reason for refusing it as an override.
        reason: &'static str,
    },
    /// A value with a NUL byte cannot be passed to a process and would be cut.
    #[error("environment override rejected ({key}): the value contains a NUL byte")]
    NulInValue {
        /// The key whose value holds the NUL.
        key: String,
    },
}

/// One row of a variable table: a name (or prefix), upper-case, and why it
/// is listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnvRule {
    /// The upper-case variable name, or prefix for prefix tables.
    pub name: &'static str,
    /// Why the variable is listed, shown to the user on refusal.
    pub reason: &'static str,
}

const fn rule(name: &'static str, reason: &'static str) -> EnvRule {
    EnvRule { name, reason }
}

/// Keys stripped from the inherited environment and refused as overrides:
/// each makes a program load or run code, or read a config, it was not asked
/// to. Sorted by name.
pub const BLOCKED_KEYS: &[EnvRule] = &[
    rule("BASHOPTS", "sets bash shell options at startup"),
    rule("BASH_ENV", "bash sources this file before running a script"),
    rule("BROWSER", "programs run this command to open a url"),
    rule("CC", "build tools run this program as the c compiler"),
    rule("CDPATH", "changes where cd lands inside scripts"),
    rule("CXX", "build tools run this program as the c++ compiler"),
    rule("DOCKER_HOST", "points docker at another daemon"),
    rule(
        "DOTNET_STARTUP_HOOKS",
        "loads assemblies into every .NET process",
    ),
    rule("ENV", "sh sources this file at startup"),
    rule(
        "GCONV_PATH",
        "glibc loads charset conversion modules from here",
    ),
    rule(
        "GIT_ASKPASS",
        "git runs this program to ask for credentials",
    ),
    rule("GIT_CONFIG", "git reads its configuration from this file"),
    rule("GIT_DIR", "points git at another repository"),
    rule("GIT_EDITOR", "git runs this program as the editor"),
    rule(
        "GIT_EXEC_PATH",
        "git runs its subcommands from this directory",
    ),
    rule("GIT_EXTERNAL_DIFF", "git runs this program to show diffs"),
    rule("GIT_PAGER", "git runs this program as the pager"),
    rule("GIT_PROXY_COMMAND", "git runs this program to connect"),
    rule("GIT_SEQUENCE_EDITOR", "git runs this program during rebase"),
    rule("GIT_SSH", "git runs this program instead of ssh"),
    rule("GIT_SSH_COMMAND", "git runs this command instead of ssh"),
    rule("GIT_TEMPLATE_DIR", "git copies hooks from this directory"),
    rule("GIT_WORK_TREE", "points git at another working tree"),
    rule(
        "GLIBC_TUNABLES",
        "glibc tunables, parsed by the loader (CVE-2023-4911)",
    ),
    rule(
        "GOOGLE_APPLICATION_CREDENTIALS",
        "switches google cloud credentials",
    ),
    rule("HGRCPATH", "mercurial reads hooks and config from here"),
    rule("IFS", "changes how shells split words"),
    rule(
        "JAVA_TOOL_OPTIONS",
        "the jvm adds these options, agents included",
    ),
    rule("JDK_JAVA_OPTIONS", "the java launcher adds these options"),
    rule("KUBECONFIG", "switches kubernetes clusters and credentials"),
    rule("LESSCLOSE", "less runs this command when closing a file"),
    rule("LESSOPEN", "less runs this command to preprocess input"),
    rule(
        "MAKEFLAGS",
        "make takes options from here, including --eval",
    ),
    rule("MFLAGS", "make takes options from here"),
    rule(
        "NODE_OPTIONS",
        "node takes options from here, including --require",
    ),
    rule("NODE_PATH", "node resolves modules from here"),
    rule("PERL5DB", "perl runs this code as the debugger"),
    rule("PERL5LIB", "perl loads modules from here"),
    rule("PERL5OPT", "perl takes options from here, including -M"),
    rule("PERLLIB", "perl loads modules from here"),
    rule(
        "PROMPT_COMMAND",
        "bash runs this command before each prompt",
    ),
    rule(
        "PS4",
        "bash expands this, with command substitution, when tracing",
    ),
    rule("PYTHONHOME", "python loads its standard library from here"),
    rule("PYTHONPATH", "python imports modules from here"),
    rule(
        "PYTHONSTARTUP",
        "python runs this file at interactive startup",
    ),
    rule("RUBYLIB", "ruby loads libraries from here"),
    rule("RUBYOPT", "ruby takes options from here, including -r"),
    rule("RUSTC", "cargo runs this program as the compiler"),
    rule(
        "RUSTC_WORKSPACE_WRAPPER",
        "cargo runs the compiler through this program",
    ),
    rule(
        "RUSTC_WRAPPER",
        "cargo runs the compiler through this program",
    ),
    rule("SHELL", "programs run this as the shell"),
    rule("SHELLOPTS", "sets bash shell options at startup"),
    rule(
        "SSLKEYLOGFILE",
        "tls libraries write session keys to this file",
    ),
    rule(
        "_JAVA_OPTIONS",
        "the jvm adds these options, agents included",
    ),
];

/// Prefixes stripped from the inherited environment and refused as
/// overrides. Sorted by name.
pub const BLOCKED_PREFIXES: &[EnvRule] = &[
    rule(
        "BASH_FUNC_",
        "bash imports these as functions (shellshock-style)",
    ),
    rule("DYLD_", "the macOS loader injects or redirects libraries"),
    rule(
        "GIT_CONFIG_",
        "git takes configuration, such as core.sshCommand, from here",
    ),
    rule(
        "LD_",
        "the loader injects or redirects libraries (LD_PRELOAD, LD_AUDIT)",
    ),
];

/// Keys a request may not set although the host's own value is inherited:
/// each redirects where a program reads config, trusts certificates, or
/// which helper program it runs. Sorted by name.
pub const OVERRIDE_ONLY_KEYS: &[EnvRule] = &[
    rule("ALL_PROXY", "routes network traffic through another host"),
    rule(
        "CARGO_ENCODED_RUSTFLAGS",
        "passes compiler flags, such as another linker",
    ),
    rule("CURL_CA_BUNDLE", "changes which certificates are trusted"),
    rule("EDITOR", "programs run this as the editor"),
    rule("FTP_PROXY", "routes network traffic through another host"),
    rule(
        "HOME",
        "programs read their configuration and hooks from here",
    ),
    rule("HTTPS_PROXY", "routes network traffic through another host"),
    rule("HTTP_PROXY", "routes network traffic through another host"),
    rule("MANPAGER", "man runs this program as the pager"),
    rule(
        "NODE_EXTRA_CA_CERTS",
        "changes which certificates node trusts",
    ),
    rule(
        "NODE_TLS_REJECT_UNAUTHORIZED",
        "turns off certificate checks in node",
    ),
    rule("NO_PROXY", "changes which hosts bypass the proxy"),
    rule("PAGER", "programs run this as the pager"),
    rule(
        "REQUESTS_CA_BUNDLE",
        "changes which certificates python trusts",
    ),
    rule("RUSTDOCFLAGS", "passes flags to rustdoc"),
    rule("RUSTFLAGS", "passes compiler flags, such as another linker"),
    rule("SSL_CERT_DIR", "changes which certificates are trusted"),
    rule("SSL_CERT_FILE", "changes which certificates are trusted"),
    rule("TMPDIR", "moves temporary files to another directory"),
    rule("VISUAL", "programs run this as the editor"),
    rule(
        "XDG_CONFIG_HOME",
        "programs read their configuration and hooks from here",
    ),
    rule("ZDOTDIR", "zsh sources its startup files from here"),
];

/// Prefixes a request may not set although the host's own values are
/// inherited. Sorted by name; `NPM_CONFIG_` also covers `npm_config_`.
pub const OVERRIDE_ONLY_PREFIXES: &[EnvRule] = &[
    rule(
        "CARGO_BUILD_",
        "cargo build settings, such as a compiler wrapper",
    ),
    rule("CARGO_REGISTRIES_", "points cargo at other registries"),
    rule(
        "CARGO_TARGET_",
        "cargo target settings, such as a runner or linker",
    ),
    rule(
        "NPM_CONFIG_",
        "npm settings, such as the registry or script shell",
    ),
    rule(
        "PIP_",
        "pip settings, such as the index url or trusted hosts",
    ),
];

/// Variables whose `NAME=value` prefix in shell text is auto-allowed: they
/// change how a program formats output, never what code it runs. Sorted by
/// name; matched exactly (case-sensitive, as the shell is).
pub const INERT_KEYS: &[EnvRule] = &[
    rule("CLICOLOR", "turns colour output on or off"),
    rule("CLICOLOR_FORCE", "forces colour output"),
    rule("COLORTERM", "tells programs the terminal's colour support"),
    rule("COLUMNS", "output width"),
    rule("FORCE_COLOR", "forces colour output"),
    rule("LANG", "locale: message language and formats"),
    rule("LANGUAGE", "message language preference"),
    rule("LC_ADDRESS", "locale category"),
    rule("LC_ALL", "locale: overrides every category"),
    rule("LC_COLLATE", "locale category: sort order"),
    rule("LC_CTYPE", "locale category: character classes"),
    rule("LC_IDENTIFICATION", "locale category"),
    rule("LC_MEASUREMENT", "locale category"),
    rule("LC_MESSAGES", "locale category: message language"),
    rule("LC_MONETARY", "locale category"),
    rule("LC_NAME", "locale category"),
    rule("LC_NUMERIC", "locale category: number format"),
    rule("LC_PAPER", "locale category"),
    rule("LC_TELEPHONE", "locale category"),
    rule("LC_TIME", "locale category: date format"),
    rule("LINES", "output height"),
    rule("NO_COLOR", "turns colour output off"),
    rule("TERM", "terminal type for output formatting"),
    rule("TZ", "time zone for printed dates"),
];

/// Checks a request's overrides; the first refusal (in key order) is returned
/// so the user can fix them one by one.
pub fn check_overrides(overrides: &BTreeMap<String, String>) -> Result<(), EnvRefusal> {
    overrides
        .iter()
        .try_for_each(|(key, value)| check_override(key, value))
}

/// Builds the child's whole environment: the host's own variables minus the
/// blocklist, then the overrides, which must pass [`check_overrides`].
///
/// Host entries with an invalid name or a NUL byte are dropped too: they
/// cannot have come from a real environment, and a child cannot receive them
/// intact.
pub fn child_env(
    host: impl IntoIterator<Item = (String, String)>,
    overrides: &BTreeMap<String, String>,
) -> Result<Vec<(String, String)>, EnvRefusal> {
    check_overrides(overrides)?;
    let mut env: BTreeMap<String, String> = BTreeMap::new();
    for (key, value) in host {
        if !is_valid_key(&key) || value.contains('\0') {
            tracing::debug!(key = %key.escape_debug(), "dropping malformed host variable");
            continue;
        }
        if let Some(rule) = blocked_rule(&key) {
            tracing::debug!(key = %key, reason = rule.reason, "stripping blocked host variable");
            continue;
        }
        env.insert(key, value);
    }
    for (key, value) in overrides {
        env.insert(key.clone(), value.clone());
    }
    Ok(env.into_iter().collect())
}

/// Whether a `NAME=value` prefix in shell text may be auto-allowed: only the
/// short list in [`INERT_KEYS`], matched exactly.
pub fn is_inert_assignment(name: &str) -> bool {
    INERT_KEYS
        .binary_search_by(|row| row.name.cmp(name))
        .is_ok()
}

fn check_override(key: &str, value: &str) -> Result<(), EnvRefusal> {
    if !is_valid_key(key) {
        return Err(EnvRefusal::InvalidKey {
            key: key.to_owned(),
        });
    }
    if key.eq_ignore_ascii_case("PATH") {
        return Err(EnvRefusal::PathOverride {
            key: key.to_owned(),
        });
    }
    if let Some(rule) = blocked_rule(key) {
        return Err(EnvRefusal::Blocked {
            key: key.to_owned(),
            reason: rule.reason,
        });
    }
    if let Some(rule) = find_rule(key, OVERRIDE_ONLY_KEYS, OVERRIDE_ONLY_PREFIXES) {
        return Err(EnvRefusal::OverrideOnly {
            key: key.to_owned(),
            reason: rule.reason,
        });
    }
    if value.contains('\0') {
        return Err(EnvRefusal::NulInValue {
            key: key.to_owned(),
        });
    }
    Ok(())
}

/// `^[A-Za-z_][A-Za-z0-9_]*$`: the names a POSIX shell can export.
fn is_valid_key(key: &str) -> bool {
    let mut bytes = key.bytes();
    matches!(bytes.next(), Some(b) if b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

fn blocked_rule(key: &str) -> Option<&'static EnvRule> {
    find_rule(key, BLOCKED_KEYS, BLOCKED_PREFIXES)
}

fn find_rule(
    key: &str,
    keys: &'static [EnvRule],
    prefixes: &'static [EnvRule],
) -> Option<&'static EnvRule> {
    let upper = key.to_ascii_uppercase();
    if let Ok(index) = keys.binary_search_by(|row| row.name.cmp(upper.as_str())) {
        return keys.get(index);
    }
    prefixes.iter().find(|row| upper.starts_with(row.name))
}

#[cfg(test)]
mod tests;
