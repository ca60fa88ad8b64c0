//! The environment a checked command runs with: the host's own variables minus
//! loader and interpreter hooks, plus request overrides that passed a check.
//!
//! It decides which inherited variables are stripped (a blocklist of keys and
//! prefixes that make a program load or run code it was not asked to run),
//! which overrides a request may set at all, and which variables are inert
//! enough to auto-allow: one positive list, [`INERT`], each row with a value
//! syntax and a reason, read by [`check_inert`] for both `NAME=value`
//! prefixes in shell text and a request's overrides (DESIGN.md section 6,
//! "Environment"). A name on that list with a value outside its syntax is not
//! inert. It refuses, never silently drops, an override of `PATH`, of a
//! blocked or override-only key, with an invalid name, or with a NUL byte.
//!
//! Blocked keys are option injectors and init hooks no child should inherit;
//! override-only keys are homes, search paths and config pointers a user
//! legitimately sets for their own tools, dangerous only when a request sets
//! them, so the host's value is kept. Each row's reason says which. Everything here is a pure function of its
//! arguments: callers pass the host environment in. Upholds DESIGN.md
//! section 8 ("request overrides with a blocked key or `PATH` are refused")
//! and invariant 4 (what runs is what was checked: no hook variable can change
//! which code a checked program loads).
//!
//! Keys are compared upper-cased, as the Windows environment and careless
//! tools do, so `ld_preload` is treated like `LD_PRELOAD`.

use std::collections::BTreeMap;

use crate::policy::specs::{self, EnvKind};

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
    rule(
        "BASH_XTRACEFD",
        "bash writes its trace to this file descriptor; blocked: no child needs the host's value",
    ),
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
        "EXINIT",
        "vi and ex run these commands at startup, `:!` included; blocked: an init hook",
    ),
    rule(
        "GCONV_PATH",
        "glibc loads charset conversion modules from here",
    ),
    rule(
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "git reads objects from another repository's directories; blocked like GIT_DIR",
    ),
    rule(
        "GIT_ASKPASS",
        "git runs this program to ask for credentials",
    ),
    rule(
        "GIT_COMMON_DIR",
        "points git at another repository's config and hooks; blocked like GIT_DIR",
    ),
    rule("GIT_CONFIG", "git reads its configuration from this file"),
    rule("GIT_DIR", "points git at another repository"),
    rule("GIT_EDITOR", "git runs this program as the editor"),
    rule(
        "GIT_EXEC_PATH",
        "git runs its subcommands from this directory",
    ),
    rule("GIT_EXTERNAL_DIFF", "git runs this program to show diffs"),
    rule(
        "GIT_INDEX_FILE",
        "git reads and writes the index at this path; blocked like GIT_DIR",
    ),
    rule(
        "GIT_OBJECT_DIRECTORY",
        "git reads and writes objects in this directory; blocked like GIT_DIR",
    ),
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
        "GNUMAKEFLAGS",
        "GNU make takes options from here, including --eval; blocked like MAKEFLAGS",
    ),
    rule(
        "GOFLAGS",
        "the go command takes flags from here, including -toolexec and -exec; blocked: an option injector like NODE_OPTIONS",
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
        "MAKEFILES",
        "make reads these makefiles before any other, so their rules run; blocked: an init hook",
    ),
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
    rule(
        "OPENSSL_ENGINES",
        "openssl loads engine shared libraries from this directory; blocked: a loader path",
    ),
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
        "TAR_OPTIONS",
        "tar takes options from here, including --to-command and --checkpoint-action=exec; blocked: an option injector",
    ),
    rule(
        "VIMINIT",
        "vim runs these commands at startup instead of the vimrc, `:!` included; blocked: an init hook",
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
    rule(
        "LUA_INIT",
        "lua runs this code, or the file it names, at startup (LUA_INIT_5_4 too); blocked: an init hook",
    ),
    rule(
        "TF_CLI_ARGS",
        "terraform adds these words to its command line (TF_CLI_ARGS, and TF_CLI_ARGS_plan for one subcommand): `-chdir=`, `-plugin-dir=` and the like, which no prompt shows; blocked: an option injector",
    ),
];

/// Keys a request may not set although the host's own value is inherited:
/// each redirects where a program reads config, trusts certificates, or
/// which helper program it runs. Sorted by name.
pub const OVERRIDE_ONLY_KEYS: &[EnvRule] = &[
    rule("ALL_PROXY", "routes network traffic through another host"),
    rule(
        "AWS_CONFIG_FILE",
        "the aws config can name a credential_process to run; override-only: the host's value is kept",
    ),
    rule(
        "AWS_SHARED_CREDENTIALS_FILE",
        "switches aws credentials; override-only: the host's value is kept",
    ),
    rule(
        "BUNDLE_GEMFILE",
        "bundler loads this Gemfile, which is ruby code; override-only: the host's value is kept",
    ),
    rule(
        "CARGO_ENCODED_RUSTFLAGS",
        "passes compiler flags, such as another linker",
    ),
    rule(
        "CARGO_HOME",
        "cargo reads config (build.rustc-wrapper, aliases) and runs installed binaries from here; override-only: rustup-installed cargo needs the host's value",
    ),
    rule(
        "CFLAGS",
        "build tools pass these flags to the c compiler, and a flag can load a plugin; override-only: the host's value is kept",
    ),
    rule(
        "CLASSPATH",
        "java loads classes from here; override-only: a user's own class path is kept",
    ),
    rule(
        "CPPFLAGS",
        "build tools pass these flags to the preprocessor; override-only: the host's value is kept",
    ),
    rule("CURL_CA_BUNDLE", "changes which certificates are trusted"),
    rule(
        "CURL_HOME",
        "curl reads its .curlrc (output files, config) from here; override-only: the host's value is kept",
    ),
    rule(
        "CXXFLAGS",
        "build tools pass these flags to the c++ compiler, and a flag can load a plugin; override-only: the host's value is kept",
    ),
    rule(
        "DOCKER_CONFIG",
        "docker reads credential helpers, programs it runs, from here; override-only: the host's value is kept",
    ),
    rule("EDITOR", "programs run this as the editor"),
    rule("FTP_PROXY", "routes network traffic through another host"),
    rule(
        "GEM_HOME",
        "ruby loads and installs gems here; override-only: the host's value is kept",
    ),
    rule(
        "GEM_PATH",
        "ruby loads gems from here; override-only: the host's value is kept",
    ),
    rule(
        "GIT_ALLOW_PROTOCOL",
        "can allow ext:: urls, which run commands; override-only: a host value only narrows git",
    ),
    rule(
        "GIT_ATTR_SOURCE",
        "git reads attributes, which pick filter drivers, from this tree; override-only",
    ),
    rule(
        "GIT_SSL_NO_VERIFY",
        "turns off certificate checks in git; override-only",
    ),
    rule(
        "GOENV",
        "the go command reads its settings, GOFLAGS included, from this file; override-only: the host's value is kept",
    ),
    rule(
        "GOPATH",
        "go installs binaries and caches modules here; override-only: the host's value is needed by go",
    ),
    rule(
        "GOPROXY",
        "where go downloads modules from; override-only: the host's value is kept",
    ),
    rule(
        "GOTOOLCHAIN",
        "go downloads and runs this toolchain; override-only: the host's value is kept",
    ),
    rule(
        "HOME",
        "programs read their configuration and hooks from here",
    ),
    rule("HTTPS_PROXY", "routes network traffic through another host"),
    rule("HTTP_PROXY", "routes network traffic through another host"),
    rule(
        "LDFLAGS",
        "build tools pass these flags to the linker, which can load a plugin; override-only: the host's value is kept",
    ),
    rule(
        "LESSKEY",
        "less reads key bindings, which can run commands, from this file; override-only",
    ),
    rule("MANPAGER", "man runs this program as the pager"),
    rule(
        "MYVIMRC",
        "vimrc files often source this file; override-only: vim itself sets it for the programs it runs",
    ),
    rule(
        "NODE_EXTRA_CA_CERTS",
        "changes which certificates node trusts",
    ),
    rule(
        "NODE_TLS_REJECT_UNAUTHORIZED",
        "turns off certificate checks in node",
    ),
    rule("NO_PROXY", "changes which hosts bypass the proxy"),
    rule(
        "OPENSSL_CONF",
        "openssl reads this config, which can load engine and provider libraries; override-only: some hosts need their own",
    ),
    rule("PAGER", "programs run this as the pager"),
    rule(
        "PHPRC",
        "php reads php.ini from here, and auto_prepend_file runs code; override-only: the host's value is kept",
    ),
    rule(
        "PHP_INI_SCAN_DIR",
        "php reads more ini files from here; override-only: the host's value is kept",
    ),
    rule(
        "PYTHONUSERBASE",
        "python adds site-packages, and their .pth code, from here; override-only: the host's value is kept",
    ),
    rule(
        "PYTHONWARNINGS",
        "a warning category names a module python imports; override-only: the host's value is kept",
    ),
    rule(
        "REQUESTS_CA_BUNDLE",
        "changes which certificates python trusts",
    ),
    rule(
        "RSYNC_CONNECT_PROG",
        "rsync runs this command to reach a daemon; override-only",
    ),
    rule(
        "RSYNC_RSH",
        "rsync runs this program as the remote shell; override-only: the host's value is kept",
    ),
    rule("RUSTDOCFLAGS", "passes flags to rustdoc"),
    rule("RUSTFLAGS", "passes compiler flags, such as another linker"),
    rule(
        "RUSTUP_HOME",
        "rustup reads toolchains and settings from here; override-only: rustup needs the host's value",
    ),
    rule(
        "RUSTUP_TOOLCHAIN",
        "rustup runs this toolchain, which may be a linked one at any path; override-only: the host's value is kept",
    ),
    rule(
        "SSH_ASKPASS",
        "ssh runs this program to ask for a passphrase; override-only: desktop sessions set it",
    ),
    rule(
        "SSH_AUTH_SOCK",
        "ssh uses the keys of the agent at this socket; override-only: the host's agent is kept",
    ),
    rule("SSL_CERT_DIR", "changes which certificates are trusted"),
    rule("SSL_CERT_FILE", "changes which certificates are trusted"),
    rule(
        "SYSTEMD_LESS",
        "systemd's tools hand these options to less, whose `+` commands run at start; override-only: the host's value is kept",
    ),
    rule(
        "SYSTEMD_PAGER",
        "systemd's tools (systemctl, journalctl, loginctl …) run this program as the pager on a terminal; override-only: the host's value is kept",
    ),
    rule(
        "TERRAFORM_CONFIG",
        "terraform's older name for TF_CLI_CONFIG_FILE; override-only: the host's value is kept",
    ),
    rule(
        "TF_CLI_CONFIG_FILE",
        "terraform reads its CLI config from this file, whose provider_installation and dev_overrides choose the provider programs it runs; override-only: the host's value is kept",
    ),
    rule(
        "TF_PLUGIN_CACHE_DIR",
        "terraform runs providers cached in this directory; override-only: the host's value is kept",
    ),
    rule("TMPDIR", "moves temporary files to another directory"),
    rule("VISUAL", "programs run this as the editor"),
    rule(
        "WGETRC",
        "wget reads commands, such as output files, from this file; override-only: the host's value is kept",
    ),
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
        "CGO_",
        "cgo passes these flags to the c compiler and linker; override-only: the host's values are kept",
    ),
    rule(
        "DENO_",
        "deno settings, such as DENO_DIR (the module cache, code deno runs), DENO_CERT (a CA trusted for remote modules) and DENO_AUTH_TOKENS; override-only: the host's values are kept",
    ),
    rule(
        "GIT_TRACE",
        "git writes traces to the file these name; override-only: kept for debugging on the host",
    ),
    rule(
        "LUA_CPATH",
        "lua loads native modules from here (LUA_CPATH_5_4 too); override-only: luarocks users set it",
    ),
    rule(
        "LUA_PATH",
        "lua loads modules from here (LUA_PATH_5_4 too); override-only: luarocks users set it",
    ),
    rule(
        "NPM_CONFIG_",
        "npm settings, such as the registry or script shell",
    ),
    rule(
        "PIP_",
        "pip settings, such as the index url or trusted hosts",
    ),
    rule(
        "UV_",
        "uv settings, such as the index url or a python to run; override-only: the host's values are kept",
    ),
    rule(
        "YARN_",
        "yarn settings, such as yarnPath, a script yarn runs; override-only: the host's values are kept",
    ),
];

/// The longest value an inert variable may hold; longer is not inert.
const MAX_INERT_VALUE: usize = 256;

/// Which values an inert variable may take: the syntax in words (shown when
/// a value does not fit) and the check that decides.
#[derive(Clone, Copy)]
pub struct ValueSyntax {
    /// The syntax in words, for people.
    pub describe: &'static str,
    check: fn(&str) -> bool,
}

impl ValueSyntax {
    /// Whether `value` fits: at most [`MAX_INERT_VALUE`] bytes, no NUL, no
    /// `..` (never a way out of a directory), and the row's own check.
    pub fn accepts(&self, value: &str) -> bool {
        value.len() <= MAX_INERT_VALUE
            && !value.contains('\0')
            && !value.contains("..")
            && (self.check)(value)
    }
}

impl std::fmt::Debug for ValueSyntax {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.describe)
    }
}

/// A locale name: `C`, `POSIX`, `C.UTF-8`, `en_US.UTF-8`, `sr_RS@latin`, or
/// empty (the default). glibc reads a name with `/` as a path to locale
/// files, and `..` could climb out of the locale directory.
pub const LOCALE: ValueSyntax = ValueSyntax {
    describe: "a locale name such as C, POSIX, C.UTF-8, en_US.UTF-8 or en_US@euro (no `/`, no `..`)",
    check: is_locale,
};

/// A `:`-separated list of locale names (`LANGUAGE=de_DE:en`).
pub const LOCALE_LIST: ValueSyntax = ValueSyntax {
    describe: "a `:`-separated list of locale names such as de_DE:en (no `/`, no `..`)",
    check: is_locale_list,
};

/// A time zone: a zone name (`UTC`, `Europe/Berlin`, `:Europe/Berlin`) or a
/// POSIX rule (`EST5EDT,M3.2.0,M11.1.0`), never an absolute path or `..`
/// (glibc reads those as a zone file anywhere on disk).
pub const TIME_ZONE: ValueSyntax = ValueSyntax {
    describe: "a time zone name such as UTC or Europe/Berlin, or a POSIX TZ rule (no leading `/`, no `..`)",
    check: is_time_zone,
};

/// A plain word: letters, digits, `_`, `.` and `-`, possibly empty.
pub const WORD: ValueSyntax = ValueSyntax {
    describe: "a plain word of letters, digits, `_`, `.` and `-` (such as 1, true, test or production)",
    check: is_word,
};

/// A terminal name (`xterm-256color`, `screen.xterm`, `dumb`).
pub const TERMINAL: ValueSyntax = ValueSyntax {
    describe: "a terminal name of letters, digits, `_`, `.`, `+` and `-` such as xterm-256color (no `/`)",
    check: is_terminal,
};

/// A decimal number of at most five digits.
pub const DIGITS: ValueSyntax = ValueSyntax {
    describe: "a number of at most five digits",
    check: is_digits,
};

/// A count of at most twelve digits (a thread count, a stack size in
/// bytes).
pub const COUNT: ValueSyntax = ValueSyntax {
    describe: "a number of at most twelve digits",
    check: is_count,
};

/// How much of a backtrace Rust prints.
pub const BACKTRACE: ValueSyntax = ValueSyntax {
    describe: "0, 1, short or full",
    check: is_backtrace,
};

/// A log filter as `env_logger` and `tracing` read it (`info`,
/// `my_crate=debug,hyper::client=warn`), without `/` (a regex filter).
pub const LOG_FILTER: ValueSyntax = ValueSyntax {
    describe: "a log filter of letters, digits, `_`, `:`, `=`, `,`, `.` and `-` such as my_crate=debug,warn",
    check: is_log_filter,
};

/// A list of debug namespaces as the `debug` package reads it
/// (`express:*,-express:router`).
pub const NAME_LIST: ValueSyntax = ValueSyntax {
    describe: "a list of names of letters, digits, `_`, `:`, `*`, `,`, `.` and `-` such as app:*,-app:db",
    check: is_name_list,
};

/// A Go target name: lowercase letters and digits (`linux`, `arm64`).
pub const GO_TARGET: ValueSyntax = ValueSyntax {
    describe: "a Go target name of lowercase letters and digits such as linux or arm64",
    check: is_go_target,
};

/// When cargo colours its output.
pub const COLOR_CHOICE: ValueSyntax = ValueSyntax {
    describe: "auto, always or never",
    check: is_color_choice,
};

/// One row of [`INERT`]: a variable, the values it may take, and why
/// setting it to such a value changes only how a program presents its
/// output, never which code it runs or which files it reads.
#[derive(Debug, Clone, Copy)]
pub struct InertRule {
    /// The variable, matched exactly (case-sensitive, as the shell is).
    pub name: &'static str,
    /// The values that keep it inert; any other value is not inert.
    pub syntax: ValueSyntax,
    /// Why it is inert, for a reviewer.
    pub reason: &'static str,
}

const fn inert(name: &'static str, syntax: ValueSyntax, reason: &'static str) -> InertRule {
    InertRule {
        name,
        syntax,
        reason,
    }
}

/// The one positive list of inert variables (DESIGN.md section 6,
/// "Environment"): a `NAME=value` prefix in shell text, or a request's
/// environment override, is auto-allowed only when its name is here and its
/// value fits the row's syntax. Everything else is asked. Sorted by name.
pub const INERT: &[InertRule] = &[
    inert(
        "CARGO_INCREMENTAL",
        DIGITS,
        "turns cargo's incremental compilation on (1) or off (0); a number, never a path",
    ),
    inert(
        "CARGO_TERM_COLOR",
        COLOR_CHOICE,
        "when cargo colours its output; the value is one of three words",
    ),
    inert(
        "CARGO_TERM_VERBOSE",
        WORD,
        "how much cargo prints (true, false); a word",
    ),
    inert(
        "CI",
        WORD,
        "tells tools they run unattended (no prompts, no spinners); a word, never a path",
    ),
    inert("CLICOLOR", WORD, "turns colour output on or off"),
    inert("CLICOLOR_FORCE", WORD, "forces colour output"),
    inert(
        "COLORTERM",
        WORD,
        "tells programs the terminal's colour support (truecolor, 24bit)",
    ),
    inert("COLUMNS", DIGITS, "output width in columns"),
    inert(
        "COMPOSE_PROJECT_NAME",
        WORD,
        "the name docker compose gives a project's containers; a word",
    ),
    inert(
        "DEBUG",
        NAME_LIST,
        "which debug namespaces print (node's debug package); names, never a path",
    ),
    inert(
        "DOCKER_BUILDKIT",
        WORD,
        "whether docker builds with BuildKit (0 or 1); a flag",
    ),
    inert(
        "FORCE_COLOR",
        WORD,
        "forces colour output (0 to 3, true, false)",
    ),
    inert(
        "GIT_TERMINAL_PROMPT",
        WORD,
        "whether git may prompt for credentials on the terminal (0 turns it off); a flag",
    ),
    inert(
        "GOARCH",
        GO_TARGET,
        "the architecture go compiles for (cross-compiling); a name. go run and go test of a foreign target look for go_GOOS_GOARCH_exec on the host PATH, as any command name is",
    ),
    inert(
        "GOOS",
        GO_TARGET,
        "the operating system go compiles for (cross-compiling); a name. go run and go test of a foreign target look for go_GOOS_GOARCH_exec on the host PATH, as any command name is",
    ),
    inert(
        "HUSKY",
        WORD,
        "0 makes husky's git hooks skip themselves; a word, so it can only run less",
    ),
    inert(
        "LANG",
        LOCALE,
        "locale: message language and formats; a name, never a path to locale files",
    ),
    inert(
        "LANGUAGE",
        LOCALE_LIST,
        "message language preference list; names, never paths to catalogues",
    ),
    inert("LC_ADDRESS", LOCALE, "locale category: address format"),
    inert("LC_ALL", LOCALE, "locale: overrides every category"),
    inert("LC_COLLATE", LOCALE, "locale category: sort order"),
    inert("LC_CTYPE", LOCALE, "locale category: character classes"),
    inert("LC_IDENTIFICATION", LOCALE, "locale category: metadata"),
    inert("LC_MEASUREMENT", LOCALE, "locale category: units"),
    inert("LC_MESSAGES", LOCALE, "locale category: message language"),
    inert("LC_MONETARY", LOCALE, "locale category: currency format"),
    inert("LC_NAME", LOCALE, "locale category: name format"),
    inert("LC_NUMERIC", LOCALE, "locale category: number format"),
    inert("LC_PAPER", LOCALE, "locale category: paper size"),
    inert(
        "LC_TELEPHONE",
        LOCALE,
        "locale category: phone number format",
    ),
    inert("LC_TIME", LOCALE, "locale category: date format"),
    inert("LINES", DIGITS, "output height in lines"),
    inert(
        "NODE_ENV",
        WORD,
        "names the environment a node app runs in (test, production); a word, never a path",
    ),
    inert(
        "NODE_NO_WARNINGS",
        WORD,
        "node prints no process warnings (1); a word",
    ),
    inert("NO_COLOR", WORD, "turns colour output off"),
    inert(
        "PORT",
        DIGITS,
        "the port a dev server or app listens on (`PORT=3000 npm start`, helper H28's sweep); a number, never a path or a host",
    ),
    inert(
        "PYTHONDONTWRITEBYTECODE",
        WORD,
        "python writes no .pyc files; a flag",
    ),
    inert(
        "PYTHONUNBUFFERED",
        WORD,
        "python does not buffer its output; a flag",
    ),
    inert(
        "RUST_BACKTRACE",
        BACKTRACE,
        "how much of a backtrace a panicking Rust program prints",
    ),
    inert(
        "RUST_LIB_BACKTRACE",
        BACKTRACE,
        "whether Rust error types capture backtraces",
    ),
    inert(
        "RUST_LOG",
        LOG_FILTER,
        "which log lines a Rust program prints (env_logger, tracing); a filter, never a path",
    ),
    inert(
        "RUST_MIN_STACK",
        COUNT,
        "the stack size in bytes of the threads a Rust program spawns (its tests); a number",
    ),
    inert(
        "RUST_TEST_THREADS",
        COUNT,
        "how many threads a Rust test binary runs its tests on; a number",
    ),
    inert(
        "TERM",
        TERMINAL,
        "terminal type for output formatting; a name, never a path to a terminfo file",
    ),
    inert(
        "TZ",
        TIME_ZONE,
        "time zone for printed dates; a zone name, never a path to a zone file",
    ),
];

/// Why a variable is not inert.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotInert {
    /// It is in one of the tables of hook variables; the table's reason.
    #[error("{reason}")]
    Listed {
        /// Why the table lists it.
        reason: &'static str,
    },
    /// Its name is inert, its value is outside the row's syntax.
    #[error("its value is not {syntax}")]
    Value {
        /// The row's syntax in words.
        syntax: &'static str,
    },
    /// Its name is in no table: it is not known to be inert.
    #[error(
        "it is not on the list of inert variables (LANG, LC_*, TZ, TERM, NO_COLOR, RUST_LOG, NODE_ENV, …)"
    )]
    Unlisted,
}

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

/// Variables that describe the session, the user or where programs live,
/// and never hold a credential: `printenv` may print them. Sorted.
const NO_SECRET: &[&str] = &[
    "CARGO_HOME",
    "DISPLAY",
    "EDITOR",
    "GOPATH",
    "GOROOT",
    "HOME",
    "HOSTNAME",
    "JAVA_HOME",
    "LOGNAME",
    "OLDPWD",
    "PAGER",
    "PATH",
    "PWD",
    "RUSTUP_HOME",
    "SHELL",
    "SHLVL",
    "TMPDIR",
    "USER",
    "VIRTUAL_ENV",
    "VISUAL",
    "WAYLAND_DISPLAY",
    "XDG_CACHE_HOME",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_RUNTIME_DIR",
    "XDG_STATE_HOME",
];

/// Whether the variable `name` is known to hold no secret, so printing its
/// value hands the agent nothing it should not have: an inert variable
/// (its value has a syntax that is never a token) or one of [`NO_SECRET`].
pub fn holds_no_secret(name: &str) -> bool {
    inert_rule(name).is_some() || NO_SECRET.binary_search(&name).is_ok()
}

/// The row of [`INERT`] named exactly `name`.
pub fn inert_rule(name: &str) -> Option<&'static InertRule> {
    INERT
        .binary_search_by(|row| row.name.cmp(name))
        .ok()
        .and_then(|index| INERT.get(index))
}

/// Whether `name=value` is inert: the one check for `NAME=value` prefixes in
/// shell text and for a request's environment overrides. `Err` says why
/// not: a hook variable (with its table's reason), an inert name with a
/// value outside its syntax, or a name on no list.
pub fn check_inert(name: &str, value: &str) -> Result<(), NotInert> {
    if let Some(row) = inert_rule(name) {
        return if row.syntax.accepts(value) {
            Ok(())
        } else {
            Err(NotInert::Value {
                syntax: row.syntax.describe,
            })
        };
    }
    if name.eq_ignore_ascii_case("PATH") {
        return Err(NotInert::Listed {
            reason: "PATH decides which programs every child runs",
        });
    }
    match blocked_rule(name).or_else(|| override_only_rule(name)) {
        Some(rule) => Err(NotInert::Listed {
            reason: rule.reason,
        }),
        None => Err(NotInert::Unlisted),
    }
}

/// The request's overrides that are not inert, in key order, each with
/// its value and why.
pub fn not_inert(overrides: &BTreeMap<String, String>) -> Vec<(&str, &str, NotInert)> {
    overrides
        .iter()
        .filter_map(|(name, value)| {
            check_inert(name, value)
                .err()
                .map(|why| (name.as_str(), value.as_str(), why))
        })
        .collect()
}

fn only(value: &str, extra: &str) -> bool {
    value
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || extra.contains(c))
}

fn is_locale(value: &str) -> bool {
    only(value, "_.-@") && !value.starts_with('.')
}

fn is_locale_list(value: &str) -> bool {
    value.split(':').all(is_locale)
}

fn is_time_zone(value: &str) -> bool {
    let body = value.strip_prefix(':').unwrap_or(value);
    only(body, "_+-/:.,<>") && !body.starts_with('/')
}

fn is_word(value: &str) -> bool {
    only(value, "_.-")
}

fn is_terminal(value: &str) -> bool {
    only(value, "_.+-")
}

fn is_digits(value: &str) -> bool {
    (1..=5).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_digit())
}

fn is_count(value: &str) -> bool {
    (1..=12).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_digit())
}

fn is_backtrace(value: &str) -> bool {
    matches!(value, "0" | "1" | "short" | "full")
}

fn is_log_filter(value: &str) -> bool {
    only(value, "_:=,.-")
}

fn is_name_list(value: &str) -> bool {
    only(value, "_:*,.-")
}

fn is_go_target(value: &str) -> bool {
    value
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

fn is_color_choice(value: &str) -> bool {
    matches!(value, "auto" | "always" | "never")
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
    if let Some(rule) = override_only_rule(key) {
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

/// The row that blocks `key`: this module's tables, then every variable a
/// program spec says loads code or options (`policy/specs/families/`).
fn blocked_rule(key: &str) -> Option<&'static EnvRule> {
    find_rule(key, BLOCKED_KEYS, BLOCKED_PREFIXES).or_else(|| {
        // This module's own override-only rows win: they keep the user's
        // inherited setup (RUSTFLAGS, PIP_*), whatever a spec says.
        find_rule(key, OVERRIDE_ONLY_KEYS, OVERRIDE_ONLY_PREFIXES)
            .is_none()
            .then(|| specs::env_rule(key, EnvKind::Blocked))
            .flatten()
    })
}

/// The row that refuses `key` as an override only: this module's tables,
/// then every variable a program spec says moves a home or config location.
fn override_only_rule(key: &str) -> Option<&'static EnvRule> {
    find_rule(key, OVERRIDE_ONLY_KEYS, OVERRIDE_ONLY_PREFIXES)
        .or_else(|| specs::env_rule(key, EnvKind::Location))
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
