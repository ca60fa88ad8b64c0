//! The guard data: which programs we parse, how their options take values,
//! and every built-in guard with the reason shown to the human.
//!
//! Rows are sorted by id and each names one construct. A wrong value-taking
//! entry could hide a guarded option inside a "value", so the option tables
//! list only options known to take a separate value; anything unlisted is
//! inspected as an option or operand (over-guarding, never under-guarding).

use super::types::{Guard, Inspection, Layout, ProgramSpec, Trigger};
use crate::policy::programs;

const fn spec(
    family: &'static str,
    names: &'static [&'static str],
    layout: Layout,
    value_shorts: &'static str,
    value_longs: &'static [&'static str],
) -> ProgramSpec {
    ProgramSpec {
        family,
        names,
        versioned: false,
        layout,
        value_shorts,
        value_longs,
        program_opts: &[],
    }
}

const fn interpreter(
    family: &'static str,
    names: &'static [&'static str],
    value_shorts: &'static str,
    value_longs: &'static [&'static str],
    program_opts: &'static [&'static str],
) -> ProgramSpec {
    ProgramSpec {
        family,
        names,
        versioned: true,
        layout: Layout::OptionsFirst,
        value_shorts,
        value_longs,
        program_opts,
    }
}

/// The programs guards know, sorted by family.
pub(crate) const PROGRAMS: &[ProgramSpec] = &[
    spec(
        "accounts",
        &[
            "chage", "chfn", "chpasswd", "chsh", "gpasswd", "groupadd", "groupdel", "groupmod",
            "newusers", "passwd", "useradd", "userdel", "usermod", "vigr", "vipw",
        ],
        Layout::Permuted,
        "",
        &[],
    ),
    spec(
        "aria2c",
        &["aria2c"],
        Layout::Permuted,
        "dio",
        &[
            "--conf-path",
            "--dir",
            "--input-file",
            "--on-bt-download-complete",
            "--on-download-complete",
            "--on-download-error",
            "--on-download-pause",
            "--on-download-start",
            "--on-download-stop",
            "--out",
        ],
    ),
    ProgramSpec {
        versioned: false,
        program_opts: &[
            "--exec",
            "--file",
            "--include",
            "--source",
            "-E",
            "-e",
            "-f",
            "-i",
        ],
        ..spec(
            "awk",
            &["awk", "gawk", "mawk", "nawk", "original-awk"],
            Layout::OptionsFirst,
            "EFefilvW",
            &[
                "--assign",
                "--exec",
                "--field-separator",
                "--file",
                "--include",
                "--load",
                "--source",
            ],
        )
    },
    spec(
        "bun",
        &["bun"],
        Layout::SubcommandAnywhere,
        "ep",
        &["--cwd", "--eval", "--preload", "--print"],
    ),
    spec(
        "bundle",
        &["bundle", "bundler"],
        Layout::SubcommandAnywhere,
        "",
        &["--gemfile"],
    ),
    spec("cargo", &["cargo"], Layout::Permuted, "", &["--config"]),
    spec(
        "cc",
        &[
            "c++",
            "c89",
            "c99",
            "cc",
            "clang",
            "clang++",
            "cpp",
            "g++",
            "gcc",
            "x86_64-linux-gnu-g++",
            "x86_64-linux-gnu-gcc",
        ],
        Layout::Permuted,
        "",
        &[],
    ),
    spec("cmake", &["cmake"], Layout::Permuted, "ABCDGPSTUW", &[]),
    spec(
        "curl",
        &["curl"],
        Layout::Permuted,
        "AbcCdDeEFHKmoPQrtTuUwxXyYz",
        &[
            "--alt-svc",
            "--cacert",
            "--capath",
            "--cert",
            "--config",
            "--connect-timeout",
            "--cookie",
            "--cookie-jar",
            "--data",
            "--data-ascii",
            "--data-binary",
            "--data-raw",
            "--data-urlencode",
            "--dump-header",
            "--etag-compare",
            "--etag-save",
            "--form",
            "--form-string",
            "--header",
            "--hsts",
            "--json",
            "--key",
            "--libcurl",
            "--max-time",
            "--output",
            "--output-dir",
            "--proxy",
            "--range",
            "--referer",
            "--request",
            "--stderr",
            "--trace",
            "--trace-ascii",
            "--upload-file",
            "--url",
            "--user",
            "--user-agent",
            "--write-out",
        ],
    ),
    spec(
        "dbclient",
        &["mariadb", "mysql", "pg_wrapper", "psql"],
        Layout::Permuted,
        "",
        &[],
    ),
    interpreter(
        "dc",
        &["dc"],
        "ef",
        &["--expression", "--file"],
        &["--expression", "--file", "-e", "-f"],
    ),
    spec("deno", &["deno"], Layout::SubcommandAnywhere, "", &[]),
    spec(
        "desktop",
        &[
            "dbus-send",
            "gdbus",
            "gio",
            "gtk-launch",
            "kioclient",
            "kioclient5",
            "qdbus",
        ],
        Layout::Permuted,
        "",
        &[],
    ),
    // GNU find and gfind have a spec (`specs/families/find.rs`); bfs keeps these.
    spec(
        "diff3",
        &["diff3", "sdiff"],
        Layout::Permuted,
        "o",
        &["--diff-program", "--output"],
    ),
    spec(
        "dpkg-architecture",
        &["dpkg-architecture"],
        Layout::Permuted,
        "aAeqtT",
        &["--command"],
    ),
    spec(
        "editor",
        &[
            "ed",
            "editor",
            "emacs",
            "ex",
            "gvim",
            "nano",
            "nvim",
            "red",
            "rview",
            "rvim",
            "sensible-editor",
            "vi",
            "view",
            "vim",
            "vim.basic",
            "vim.gtk3",
            "vim.nox",
            "vim.tiny",
            "vimdiff",
            "vimtutor",
        ],
        Layout::Permuted,
        "",
        &[],
    ),
    interpreter("expect", &["expect"], "cDf", &[], &["-c", "-f"]),
    spec("find", &["bfs"], Layout::Permuted, "", &[]),
    spec(
        "git",
        &["git"],
        Layout::GlobalThenSubcommand,
        "cC",
        &[
            "--attr-source",
            "--config-env",
            "--git-dir",
            "--list-cmds",
            "--namespace",
            "--super-prefix",
            "--work-tree",
        ],
    ),
    spec(
        "gpg",
        &[
            "dirmngr",
            "gpg",
            "gpg-agent",
            "gpg-connect-agent",
            "gpg2",
            "gpgconf",
            "gpgsm",
            "gpgv",
            "scdaemon",
        ],
        Layout::Permuted,
        "o",
        &["--exec-path", "--homedir", "--options", "--photo-viewer"],
    ),
    spec(
        "groff",
        &["gnroff", "groff", "gtroff", "nroff", "troff"],
        Layout::Permuted,
        "dfmnorwDFIKLMPTW",
        &[],
    ),
    spec(
        "ip",
        &["ip"],
        Layout::Permuted,
        "fbn",
        &["--batch", "--netns"],
    ),
    spec(
        "java",
        &[
            "jar",
            "jarsigner",
            "java",
            "javac",
            "javadoc",
            "javap",
            "jdb",
            "jdeps",
            "jlink",
            "jpackage",
            "jrunscript",
            "jshell",
            "keytool",
            "serialver",
        ],
        Layout::Permuted,
        "",
        &[],
    ),
    interpreter(
        "julia",
        &["julia"],
        "eEJLpt",
        &[
            "--eval",
            "--load",
            "--print",
            "--project",
            "--sysimage",
            "--threads",
        ],
        &["--eval", "--print", "-E", "-e"],
    ),
    spec("latexmk", &["latexmk"], Layout::Permuted, "er", &[]),
    spec(
        "ld",
        &[
            "gold",
            "ld",
            "ld.bfd",
            "ld.gold",
            "ld.lld",
            "ld64.lld",
            "lld",
            "mold",
            "x86_64-linux-gnu-ld",
            "x86_64-linux-gnu-ld.bfd",
            "x86_64-linux-gnu-ld.gold",
        ],
        Layout::Permuted,
        "",
        &[],
    ),
    spec(
        "lftp",
        &["lftp"],
        Layout::Permuted,
        "cefpu",
        &["--env-password", "--norc", "--rcfile"],
    ),
    spec("llvm", &["llc", "lli", "opt"], Layout::Permuted, "", &[]),
    interpreter("lua", &["lua", "luajit"], "el", &[], &["-e"]),
    spec(
        "make",
        &["gmake", "make"],
        Layout::Permuted,
        "CEfIoW",
        &[
            "--assume-new",
            "--assume-old",
            "--directory",
            "--eval",
            "--file",
            "--include-dir",
            "--makefile",
            "--new-file",
            "--old-file",
            "--what-if",
        ],
    ),
    spec(
        "man",
        &["man"],
        Layout::Permuted,
        "CEKLMmPpRrSs",
        &["--config-file", "--pager"],
    ),
    spec(
        "ninja",
        &["ninja", "samu"],
        Layout::Permuted,
        "Cdfjklt",
        &[],
    ),
    interpreter(
        "node",
        &["node", "nodejs"],
        "eprC",
        &[
            "--conditions",
            "--eval",
            "--import",
            "--loader",
            "--print",
            "--require",
        ],
        &["--eval", "--print", "--test", "-e", "-p"],
    ),
    spec(
        "npm",
        &["npm"],
        Layout::SubcommandAnywhere,
        "Cw",
        &["--prefix", "--script-shell", "--workspace"],
    ),
    spec("npx", &["bunx", "npx", "pnpx"], Layout::Permuted, "", &[]),
    spec("openssl", &["openssl"], Layout::SubcommandAnywhere, "", &[]),
    interpreter("osascript", &["osascript"], "els", &[], &["-e"]),
    spec(
        "packages",
        &[
            "add-apt-repository",
            "apt",
            "apt-add-repository",
            "apt-get",
            "apt-key",
            "apt-mark",
            "aptitude",
            "cpan",
            "debconf-communicate",
            "debconf-copydb",
            "debconf-set-selections",
            "dpkg",
            "dpkg-divert",
            "dpkg-reconfigure",
            "dpkg-statoverride",
            "flatpak",
            "gem",
            "snap",
            "ucf",
            "ucfr",
            "update-alternatives",
        ],
        Layout::Permuted,
        "",
        &[],
    ),
    spec(
        "pager",
        &["less", "more", "most", "pg", "sensible-pager"],
        Layout::Permuted,
        "",
        &[],
    ),
    spec(
        "pandoc",
        &["pandoc"],
        Layout::Permuted,
        "ABcdDfFHLMortVw",
        &[
            "--defaults",
            "--filter",
            "--from",
            "--lua-filter",
            "--metadata",
            "--output",
            "--pdf-engine",
            "--pdf-engine-opt",
            "--read",
            "--to",
            "--variable",
            "--write",
        ],
    ),
    spec(
        "patch",
        &["patch"],
        Layout::Permuted,
        "BbDdFgiopruVYz",
        &[
            "--basename-prefix",
            "--directory",
            "--input",
            "--output",
            "--prefix",
            "--reject-file",
            "--suffix",
        ],
    ),
    interpreter("perl", &["perl"], "eEIMm", &[], &["-E", "-e"]),
    interpreter(
        "php",
        &["php"],
        "BcdEFfRrtz",
        &[
            "--process-begin",
            "--process-code",
            "--process-end",
            "--process-file",
            "--run",
        ],
        &[
            "--process-begin",
            "--process-code",
            "--process-end",
            "--process-file",
            "--run",
            "-B",
            "-E",
            "-F",
            "-R",
            "-f",
            "-r",
        ],
    ),
    spec("pic", &["gpic", "pic"], Layout::Permuted, "", &[]),
    spec(
        "pnpm",
        &["pnpm"],
        Layout::SubcommandAnywhere,
        "Cw",
        &["--dir", "--filter", "--workspace"],
    ),
    spec("pwsh", &["powershell", "pwsh"], Layout::Permuted, "", &[]),
    spec(
        "pygmentize",
        &["pygmentize"],
        Layout::Permuted,
        "aFfloOPS",
        &[],
    ),
    interpreter(
        "python",
        &["pypy", "python"],
        "cmWXQ",
        &["--check-hash-based-pycs"],
        &["-c", "-m"],
    ),
    interpreter("r", &["R"], "edfg", &["--file"], &["--file", "-e", "-f"]),
    spec(
        "remote-keys",
        &["ssh-copy-id", "ssh-import-id"],
        Layout::Permuted,
        "",
        &[],
    ),
    spec(
        "rg",
        &["rg", "ripgrep"],
        Layout::Permuted,
        "ABCEefgjMmrTtv",
        &["--pre-glob", "--regexp"],
    ),
    interpreter("rscript", &["Rscript"], "e", &[], &["-e"]),
    interpreter("ruby", &["ruby"], "CEeFIr", &[], &["-e"]),
    spec(
        "rustc",
        &["rustc", "rustdoc"],
        Layout::Permuted,
        "ACDFLloWZ",
        &[
            "--cap-lints",
            "--cfg",
            "--check-cfg",
            "--codegen",
            "--crate-name",
            "--crate-type",
            "--edition",
            "--emit",
            "--error-format",
            "--explain",
            "--extern",
            "--json",
            "--out-dir",
            "--print",
            "--remap-path-prefix",
            "--runtool",
            "--runtool-arg",
            "--sysroot",
            "--target",
            "--test-builder",
            "--test-builder-wrapper",
        ],
    ),
    spec(
        "sed",
        &["gsed", "sed"],
        Layout::Permuted,
        "efl",
        &["--expression", "--file", "--line-length"],
    ),
    spec(
        "sevenzip",
        &["7z", "7za", "7zr", "7zz"],
        Layout::Permuted,
        "o",
        &[],
    ),
    spec(
        "shell",
        &["csh", "elvish", "fish", "nu", "tcsh", "xonsh"],
        Layout::OptionsFirst,
        "",
        &[],
    ),
    spec("sqlite", &["sqlite3"], Layout::Permuted, "", &[]),
    spec(
        "ssh-add",
        &["ssh-add"],
        Layout::OptionsFirst,
        "EehHMmsSt",
        &[],
    ),
    spec(
        "ssh-keygen",
        &["ssh-keygen"],
        Layout::OptionsFirst,
        "CDEFIJMNOPRVYZabfgjmnrstwz",
        &[],
    ),
    spec(
        "system",
        &[
            "busctl",
            "chattr",
            "dconf",
            "gsettings",
            "hostnamectl",
            "kernel-install",
            "localectl",
            "loginctl",
            "mount",
            "networkctl",
            "service",
            "systemctl",
            "systemd",
            "systemd-cryptenroll",
            "systemd-firstboot",
            "systemd-machine-id-setup",
            "systemd-mount",
            "systemd-repart",
            "systemd-sysext",
            "systemd-sysusers",
            "systemd-tmpfiles",
            "systemd-umount",
            "timedatectl",
            "umount",
            "update-mime-database",
            "xdg-desktop-icon",
            "xdg-desktop-menu",
            "xdg-icon-resource",
            "xdg-mime",
            "xdg-settings",
            "xdg-user-dirs-update",
        ],
        Layout::Permuted,
        "",
        &[],
    ),
    spec(
        "tar",
        &["bsdtar", "gtar", "tar"],
        Layout::OldStyleBundle,
        "bCfFgHIKLNTVX",
        &[
            "--checkpoint-action",
            "--directory",
            "--exclude",
            "--file",
            "--files-from",
            "--format",
            "--group",
            "--info-script",
            "--mode",
            "--new-volume-script",
            "--owner",
            "--rsh-command",
            "--to-command",
            "--transform",
            "--use-compress-program",
        ],
    ),
    spec(
        "tex",
        &[
            "dvilualatex",
            "dviluatex",
            "etex",
            "latex",
            "lualatex",
            "luahblatex",
            "luahbtex",
            "luatex",
            "pdfetex",
            "pdflatex",
            "pdftex",
            "tex",
            "xelatex",
            "xetex",
        ],
        Layout::Permuted,
        "",
        &[],
    ),
    spec(
        "wget",
        &["wget"],
        Layout::Permuted,
        "aABDeiIlOoPQRtTUwX",
        &[
            "--append-output",
            "--body-data",
            "--body-file",
            "--config",
            "--directory-prefix",
            "--execute",
            "--input-file",
            "--output-document",
            "--output-file",
            "--post-data",
            "--post-file",
            "--use-askpass",
        ],
    ),
    spec("xargs", &["gxargs", "xargs"], Layout::Permuted, "", &[]),
    spec(
        "yarn",
        &["yarn"],
        Layout::SubcommandAnywhere,
        "",
        &["--cwd"],
    ),
];

const fn g(id: &'static str, trigger: Trigger, reason: &'static str) -> Guard {
    Guard {
        id,
        trigger,
        reason,
    }
}

use Trigger::{
    Always, CodeOnStdin, Inspect, Opt, OptOutsideCwd, OptValueIs, SubOpt, Subcommand, Word,
};

const INLINE: &str = "runs inline code that no allowlist entry covers";
const STDIN: &str = "runs code read from stdin";
const SCRIPT_SOURCE: &str =
    "the script is stdin under a path name or a URL, not a file shown to the human";

/// Every built-in guard, sorted by id; the family is the id's prefix.
pub(crate) const GUARDS: &[Guard] = &[
    g(
        "accounts.always",
        Always,
        "changes user accounts, passwords or groups, which every login on this machine depends on",
    ),
    g(
        "aria2c.config",
        Opt(&["--conf-path"]),
        "reads options from a file the prompt does not show, which can name programs to run",
    ),
    g(
        "aria2c.runs-program",
        Opt(&[
            "--on-bt-download-complete",
            "--on-download-complete",
            "--on-download-error",
            "--on-download-pause",
            "--on-download-start",
            "--on-download-stop",
        ]),
        "runs a program of the caller's choosing when a download starts, pauses, stops, fails or completes",
    ),
    g("awk.code-on-stdin", CodeOnStdin, STDIN),
    g(
        "awk.load",
        Opt(&["--load", "-l"]),
        "loads a shared library into awk",
    ),
    g(
        "awk.program",
        Inspect(Inspection::AwkProgram),
        "the awk program can run commands, read or write files, or read the environment",
    ),
    g(
        "awk.program-file",
        Opt(&["--exec", "--file", "--include", "-E", "-f", "-i"]),
        "runs awk code from a file the prompt does not show",
    ),
    g(
        "awk.w-option",
        Opt(&["-W"]),
        "passes implementation options such as mawk `-W exec`",
    ),
    g(
        "awk.write-file",
        Opt(&[
            "--dump-variables",
            "--pretty-print",
            "--profile",
            "-d",
            "-o",
            "-p",
        ]),
        "writes a file named by the option",
    ),
    g(
        "bun.inline-code",
        Opt(&["--eval", "--print", "-e", "-p"]),
        INLINE,
    ),
    g(
        "bun.package-runner",
        Subcommand(&["x"]),
        "downloads and runs a package",
    ),
    g(
        "bun.script-source",
        Inspect(Inspection::ScriptSource),
        SCRIPT_SOURCE,
    ),
    g("bun.stdin-script", Word(&["-"]), STDIN),
    g(
        "bundle.exec",
        Subcommand(&["exec"]),
        "runs the command it is given, found on a PATH with the bundle's gem executables first",
    ),
    g(
        "cargo.config",
        Opt(&["--config"]),
        "sets any cargo config value, including `build.rustc-wrapper` and `target.<triple>.runner`, which run programs",
    ),
    g(
        "cc.runs-program",
        Inspect(Inspection::CompilerDriver),
        "makes the compiler run or load a program of the caller's choosing (a wrapper, a plugin, another tool directory, a spec or response file)",
    ),
    g(
        "cmake.command-mode",
        Opt(&["-E"]),
        "command mode runs the command it is given (`-E env`, `-E time`, `-E chdir`) and copies, links and removes files, with no spec for each tool",
    ),
    g(
        "curl.config",
        Opt(&["--config", "-K"]),
        "reads options from a file, which can set any of them",
    ),
    g(
        "curl.output",
        Opt(&[
            "--cookie-jar",
            "--dump-header",
            "--etag-save",
            "--libcurl",
            "--output",
            "--output-dir",
            "--remote-name",
            "--remote-name-all",
            "--stderr",
            "--trace",
            "--trace-ascii",
            "-D",
            "-O",
            "-c",
            "-o",
        ]),
        "writes a local file",
    ),
    g(
        "curl.send-file",
        Inspect(Inspection::CurlFileData),
        "sends the contents of a local file",
    ),
    g(
        "curl.upload",
        Opt(&["--upload-file", "-T"]),
        "uploads a local file",
    ),
    g(
        "dbclient.always",
        Always,
        "a database client runs client commands that start programs (`\\!`, `system`), read and write local files (`\\copy`, `\\o`, `\\i`, `LOAD DATA LOCAL`) and send what it reads to a server",
    ),
    g("dc.code-on-stdin", CodeOnStdin, STDIN),
    g(
        "dc.inline-code",
        Opt(&["--expression", "-e"]),
        "runs inline code that no allowlist entry covers; `!` in dc code runs a shell command",
    ),
    g("deno.eval", Subcommand(&["eval", "repl"]), INLINE),
    g(
        "deno.script-source",
        Inspect(Inspection::ScriptSource),
        SCRIPT_SOURCE,
    ),
    g("deno.stdin-script", Word(&["-"]), STDIN),
    g(
        "desktop.always",
        Always,
        "asks session services over D-Bus or GIO to act outside this request: they start units and applications (`org.freedesktop.systemd1`), open files and URLs with other programs, and change settings",
    ),
    g(
        "diff3.program",
        Opt(&["--diff-program"]),
        "runs the program it names in place of diff",
    ),
    g(
        "dpkg-architecture.command",
        Opt(&["--command", "-c"]),
        "runs the command it is given with the build architecture's variables set",
    ),
    g(
        "editor.always",
        Always,
        "an editor runs commands from its options (`-c`, `+cmd`, `--eval`), its startup files and `:!cmd`, and writes any file",
    ),
    g("expect.code-on-stdin", CodeOnStdin, STDIN),
    g("expect.inline-code", Opt(&["-c"]), INLINE),
    g("find.delete", Word(&["-delete"]), "deletes every match"),
    g(
        "find.exec",
        Word(&["-exec", "-execdir", "-ok", "-okdir"]),
        "runs a command for each match",
    ),
    g(
        "find.write-file",
        Word(&["-fls", "-fprint", "-fprint0", "-fprintf"]),
        "writes a file named in the expression",
    ),
    g(
        "git.clone-config",
        SubOpt(&["clone"], &["--config", "--template", "-c"]),
        "sets config or hooks for the new repository",
    ),
    g(
        "git.config-env",
        Opt(&["--config-env"]),
        "git --config-env sets config that can run commands",
    ),
    g(
        "git.config-override",
        Inspect(Inspection::GitConfigOverride),
        "git -c sets config that can run commands",
    ),
    g(
        "git.config-write",
        Inspect(Inspection::GitConfig),
        "sets git config that can name a program git runs later, or edits config",
    ),
    g(
        "git.exec-path",
        Opt(&["--exec-path"]),
        "runs git helpers from another directory",
    ),
    g(
        "git.other-repo",
        OptOutsideCwd(&["-C"]),
        "switches to a project outside the working directory",
    ),
    g(
        "git.remote-program",
        SubOpt(&[], &["--exec", "--receive-pack", "--upload-pack"]),
        "names a program git runs on a remote or locally",
    ),
    g(
        "git.repo-override",
        Opt(&["--git-dir", "--work-tree"]),
        "points git at another repository, whose config can run commands",
    ),
    g(
        "git.run-command",
        Inspect(Inspection::GitRunsCommand),
        "the subcommand runs a command it is given",
    ),
    g(
        "git.tool-command",
        SubOpt(
            &["clone", "difftool", "grep", "ls-remote", "rebase"],
            &["--extcmd", "--open-files-in-pager", "-O", "-u", "-x"],
        ),
        "runs a command given on the command line",
    ),
    g(
        "gpg.runs-program",
        Opt(&[
            "--agent-program",
            "--dirmngr-program",
            "--exec-path",
            "--homedir",
            "--ctapi-driver",
            "--daemon",
            "--exec",
            "--launch",
            "--ldap-wrapper-program",
            "--load-extension",
            "--options",
            "--pcsc-driver",
            "--photo-viewer",
            "--pinentry-program",
            "--scdaemon-program",
            "--supervised",
        ]),
        "makes GnuPG run a program, load a driver library, start a daemon, or read config (which can name programs) of the caller's choosing",
    ),
    g(
        "groff.unsafe",
        Opt(&["-U"]),
        "turns off groff's safer mode: the document can then run shell commands (`.sy`, `.pso`, pipes)",
    ),
    g(
        "ip.batch",
        // iproute2 reads `-batch` by any prefix (`-b`), `-br` is `-brief`.
        Inspect(Inspection::ExactLong(&["b", "ba", "bat", "batc", "batch"])),
        "runs the ip commands in a file the prompt does not show",
    ),
    g(
        "ip.changes-network",
        Word(&[
            "add", "append", "change", "del", "delete", "exec", "flush", "prepend", "replace",
            "restore", "set",
        ]),
        "changes the network configuration other programs depend on, or runs a command in another network namespace (`ip netns exec`)",
    ),
    g(
        "java.inline-code",
        Inspect(Inspection::ExactLong(&["e"])),
        INLINE,
    ),
    g(
        "java.loads-code",
        Inspect(Inspection::ArgPrefix(&[
            "-J-XX:OnError",
            "-J-XX:OnOutOfMemoryError",
            "-J-agentlib:",
            "-J-agentpath:",
            "-J-javaagent:",
            "-XX:OnError",
            "-XX:OnOutOfMemoryError",
            "-agentlib:",
            "-agentpath:",
            "-javaagent:",
        ])),
        "loads a native or Java agent into the JVM, or names a command the JVM runs on an error",
    ),
    g("julia.code-on-stdin", CodeOnStdin, STDIN),
    g(
        "julia.inline-code",
        Opt(&["--eval", "--print", "-E", "-e"]),
        INLINE,
    ),
    g(
        "julia.preload",
        Opt(&["--load", "--sysimage", "-J", "-L"]),
        "loads code (a file or a system image) before the script, which the prompt does not show",
    ),
    g(
        "latexmk.runs-code",
        Inspect(Inspection::ExactLong(&[
            "dvilualatex=",
            "e",
            "latex=",
            "latexoption=",
            "lualatex=",
            "pdflatex=",
            "r",
            "shell-escape",
            "usepretex",
            "usepretex=",
            "xelatex=",
        ])),
        "runs Perl code (`-e`, an rc file with `-r`), the TeX command of the caller's choosing (`-pdflatex=CMD`) or TeX with shell escape on",
    ),
    g(
        "ld.loads-code",
        Inspect(Inspection::LongOnly(&[
            "load-pass-plugin",
            "mllvm",
            "plugin",
        ])),
        "loads a shared library into the linker (a plugin) or passes options to LLVM that can load one",
    ),
    g(
        "ld.response-file",
        Inspect(Inspection::ResponseFile),
        "reads more arguments from a file the prompt does not show",
    ),
    g(
        "lftp.commands",
        Opt(&["-c", "-e", "-f"]),
        "runs lftp commands, among them `!` shell commands and local file reads and writes",
    ),
    g(
        "llvm.loads-code",
        Inspect(Inspection::ExactLong(&[
            "fpass-plugin",
            "load",
            "load-pass-plugin",
        ])),
        "loads a plugin library into the LLVM tool, which runs its code",
    ),
    g("lua.code-on-stdin", CodeOnStdin, STDIN),
    g("lua.inline-code", Opt(&["-e"]), INLINE),
    g(
        "make.eval",
        Opt(&["--eval", "-E"]),
        "evaluates make code given on the command line",
    ),
    g(
        "make.makefile-stdin",
        OptValueIs(&["--file", "--makefile", "-f"], &["-"]),
        "reads the makefile from stdin",
    ),
    g(
        "make.other-dir",
        OptOutsideCwd(&["--directory", "-C"]),
        "switches to a project outside the working directory",
    ),
    g(
        "make.variable-override",
        Inspect(Inspection::MakeAssignment),
        "a command-line variable can replace the commands make runs (CC=, SHELL=)",
    ),
    g(
        "man.browser",
        Opt(&["--html", "-H"]),
        "runs a browser program",
    ),
    g(
        "man.pager",
        Opt(&["--pager", "-P"]),
        "runs a pager program of the caller's choosing",
    ),
    g(
        "ninja.other-dir",
        OptOutsideCwd(&["-C", "-f"]),
        "builds from another directory's build file, which runs commands nobody here chose",
    ),
    g("node.code-on-stdin", CodeOnStdin, STDIN),
    g(
        "node.inline-code",
        Opt(&["--eval", "--print", "-e", "-p"]),
        INLINE,
    ),
    g(
        "node.inspector",
        Opt(&[
            "--inspect",
            "--inspect-brk",
            "--inspect-port",
            "--inspect-wait",
        ]),
        "opens a debugger port through which anything can be run",
    ),
    g(
        "node.preload",
        Opt(&[
            "--experimental-loader",
            "--import",
            "--loader",
            "--require",
            "-r",
        ]),
        "loads a module before the script: code the prompt does not show",
    ),
    g(
        "node.script-source",
        Inspect(Inspection::ScriptSource),
        SCRIPT_SOURCE,
    ),
    g(
        "npm.exec",
        Subcommand(&["create", "exec", "init", "x"]),
        "downloads or runs a package binary",
    ),
    g(
        "npm.other-project",
        OptOutsideCwd(&["--prefix", "-C"]),
        "switches to a project outside the working directory",
    ),
    g(
        "npm.script-shell",
        Opt(&["--script-shell"]),
        "runs scripts with a shell of the caller's choosing",
    ),
    g("npx.always", Always, "downloads and runs a package"),
    g(
        "openssl.loads-code",
        Word(&["-config", "-engine", "-provider", "-provider-path"]),
        "loads a shared library (an engine or a provider) or a config file that can load one",
    ),
    g("osascript.code-on-stdin", CodeOnStdin, STDIN),
    g("osascript.inline-code", Opt(&["-e"]), INLINE),
    g(
        "packages.always",
        Always,
        "installs, removes or reconfigures packages, whose install scripts run as code and whose files every program on this machine uses",
    ),
    g(
        "pager.always",
        Always,
        "a pager can run shell commands (`!cmd`) and open other files",
    ),
    g(
        "pandoc.defaults",
        Opt(&["--defaults", "-d"]),
        "reads options from a defaults file the prompt does not show, which can name filters and engines to run",
    ),
    g(
        "pandoc.runs-program",
        Opt(&[
            "--filter",
            "--lua-filter",
            "--pdf-engine",
            "--pdf-engine-opt",
            "-F",
            "-L",
        ]),
        "runs a program or Lua code on the document (`--filter`, `--lua-filter`) or a PDF engine, with options, of the caller's choosing",
    ),
    g(
        "patch.always",
        Always,
        "writes the files the patch names, which the prompt does not show (a Makefile, .envrc or .git/hooks inside the tree); `git apply` checks the paths it writes",
    ),
    g("perl.code-on-stdin", CodeOnStdin, STDIN),
    g("perl.inline-code", Opt(&["-E", "-e"]), INLINE),
    g(
        "perl.module-code",
        Inspect(Inspection::PerlModuleCode),
        "a -M/-m value is compiled as `use` text: anything past a module name and its import list is code",
    ),
    g(
        "perl.script-source",
        Inspect(Inspection::ScriptSource),
        SCRIPT_SOURCE,
    ),
    g("php.code-on-stdin", CodeOnStdin, STDIN),
    g(
        "php.ini-code",
        Inspect(Inspection::PhpIniCode),
        "a -d setting loads a file or extension before or after the script",
    ),
    g(
        "php.inline-code",
        Opt(&[
            "--process-begin",
            "--process-code",
            "--process-end",
            "--run",
            "-B",
            "-E",
            "-R",
            "-r",
        ]),
        INLINE,
    ),
    g(
        "pic.unsafe",
        Opt(&["-U"]),
        "turns off pic's safer mode: `sh` commands in the picture then run",
    ),
    g(
        "pnpm.exec",
        Subcommand(&["create", "dlx", "exec"]),
        "downloads or runs a package binary",
    ),
    g(
        "pnpm.other-project",
        OptOutsideCwd(&["--dir", "-C"]),
        "switches to a project outside the working directory",
    ),
    g("pwsh.inline-code", Inspect(Inspection::PwshCommand), INLINE),
    g(
        "pygmentize.loads-code",
        Opt(&["-x"]),
        "loads a lexer, formatter or filter from a Python file (`-l FILE.py -x`), which runs its code",
    ),
    g("python.code-on-stdin", CodeOnStdin, STDIN),
    g("python.inline-code", Opt(&["-c"]), INLINE),
    g(
        "python.script-source",
        Inspect(Inspection::ScriptSource),
        SCRIPT_SOURCE,
    ),
    g(
        "r.cmd",
        Word(&["CMD"]),
        "`R CMD` runs the tool or program it names in R's environment",
    ),
    g("r.code-on-stdin", CodeOnStdin, STDIN),
    g("r.inline-code", Opt(&["-e"]), INLINE),
    g(
        "remote-keys.always",
        Always,
        "installs a public key in an authorized_keys file (another host's, or this account's from a key server), granting logins; ssh-copy-id also hands its -o options to ssh, where ProxyCommand runs a program here",
    ),
    g(
        "rg.preprocessor",
        Opt(&["--pre"]),
        "runs a preprocessor program on every file",
    ),
    g("rscript.code-on-stdin", CodeOnStdin, STDIN),
    g("rscript.inline-code", Opt(&["-e"]), INLINE),
    g("ruby.code-on-stdin", CodeOnStdin, STDIN),
    g("ruby.inline-code", Opt(&["-e"]), INLINE),
    g(
        "ruby.script-source",
        Inspect(Inspection::ScriptSource),
        SCRIPT_SOURCE,
    ),
    g(
        "rustc.runs-program",
        Inspect(Inspection::RustcCodegen),
        "names the linker or other program the compiler runs, or arguments and code handed to it",
    ),
    g(
        "rustc.test-runner",
        Inspect(Inspection::ExactLong(&[
            "runtool",
            "test-builder",
            "test-builder-wrapper",
        ])),
        "runs doctests through, or builds them with, a program of the caller's choosing",
    ),
    g(
        "rustc.unstable",
        Opt(&["-Z"]),
        "an unstable option, some of which load code (`-Z codegen-backend=x.so`) or run programs",
    ),
    g(
        "sed.in-place",
        Opt(&["--in-place", "-i"]),
        "edits files in place",
    ),
    g(
        "sed.script",
        Inspect(Inspection::SedScripts),
        "the sed script can run commands, or read or write files",
    ),
    g(
        "sed.script-file",
        Opt(&["--file", "-f"]),
        "reads the sed script from a file the prompt does not show",
    ),
    g(
        "sevenzip.output-outside",
        OptOutsideCwd(&["-o"]),
        "extracts into a directory outside the working directory, under names the archive chooses",
    ),
    g("shell.code-on-stdin", CodeOnStdin, STDIN),
    g(
        "shell.other-language",
        Inspect(Inspection::AnyOption),
        "a shell whose language the analysis does not parse: its options (`-c`, `--command`, `--init-command`, `--execute`) run code no allowlist entry covers; only a script file operand is its own job",
    ),
    g(
        "sqlite.always",
        Always,
        "runs SQL and dot-commands that can run programs (.shell, .system, .once |cmd), write any file (writefile(), ATTACH, VACUUM INTO, .output) and load code (.load, load_extension())",
    ),
    g(
        "ssh-add.loads-code",
        Opt(&["-S", "-s"]),
        "makes the agent load a shared library (a PKCS#11 or FIDO provider): native code the prompt does not show",
    ),
    g(
        "ssh-keygen.loads-code",
        Opt(&["-D", "-w"]),
        "loads a shared library (a PKCS#11 or FIDO provider) into ssh-keygen: native code the prompt does not show",
    ),
    g(
        "system.always",
        Always,
        "changes the system outside the working directory: services, mounts, settings, file attributes or the machine's identity, which other programs and users depend on",
    ),
    g(
        "tar.checkpoint-action",
        Opt(&["--checkpoint-action"]),
        "runs an action, possibly a command, at checkpoints",
    ),
    g(
        "tar.compress-program",
        Opt(&["--use-compress-program", "-I"]),
        "runs a compression program of the caller's choosing",
    ),
    g(
        "tar.info-script",
        Opt(&["--info-script", "--new-volume-script", "-F"]),
        "runs a script at the end of each volume",
    ),
    g(
        "tar.rsh-command",
        Opt(&["--rsh-command"]),
        "runs a remote-shell program of the caller's choosing",
    ),
    g(
        "tar.to-command",
        Opt(&["--to-command"]),
        "pipes each extracted file into a command",
    ),
    g(
        "tex.shell-escape",
        Inspect(Inspection::LongOnly(&[
            "cnf-line",
            "enable-pipes",
            "enable-write18",
            "lua",
            "shell-escape",
        ])),
        "lets the document run shell commands (`\\write18`, pipes), or sets TeX's config or a Lua start-up script that can",
    ),
    g(
        "wget.askpass",
        Opt(&["--use-askpass"]),
        "runs a password program",
    ),
    g(
        "wget.config",
        Opt(&["--config"]),
        "reads options from a file, which can set any of them",
    ),
    g(
        "wget.execute",
        Opt(&["--execute", "-e"]),
        "runs a wgetrc command, which can set any option",
    ),
    g(
        "wget.input-file",
        Opt(&["--input-file", "-i"]),
        "reads the URLs to fetch from a file",
    ),
    g(
        "wget.output",
        Opt(&[
            "--append-output",
            "--output-document",
            "--output-file",
            "-O",
            "-a",
            "-o",
        ]),
        "writes a file at a chosen path",
    ),
    g(
        "wget.post-file",
        Opt(&["--body-file", "--post-file"]),
        "sends the contents of a local file",
    ),
    g(
        "xargs.always",
        Always,
        "runs a command built from its input",
    ),
    g(
        "yarn.exec",
        Subcommand(&["create", "dlx", "exec"]),
        "downloads or runs a package binary",
    ),
];

/// The spec of `program`'s family: by exact name (after the programs
/// table's `.exe` rule), for versioned specs by the programs table's
/// [`family`](crate::policy::programs::family) rule (`python3.11`, `perl5.36`),
/// and for any spec by the program a Debian name is a versioned copy of
/// ([`debian_base`](crate::policy::programs::debian_base): `gcc-12`).
pub(crate) fn program_spec(program: &str) -> Option<&'static ProgramSpec> {
    let name = programs::executable_name(program);
    SPECS
        .by_name
        .get(name)
        .copied()
        .or_else(|| {
            SPECS
                .by_family
                .get(programs::family(program).as_ref())
                .copied()
        })
        // `gcc-12`, `x86_64-linux-gnu-g++-12`, `gem3.1`: Debian's names
        // for a versioned copy are that program.
        .or_else(|| {
            let base = programs::debian_base(program)?;
            SPECS.by_name.get(base.as_str()).copied()
        })
}

/// The specs indexed once: by each name, and by the family of each name of
/// a versioned spec (the first spec in table order wins either way).
struct SpecIndex {
    by_name: foldhash::HashMap<&'static str, &'static ProgramSpec>,
    by_family: foldhash::HashMap<String, &'static ProgramSpec>,
}

static SPECS: std::sync::LazyLock<SpecIndex> = std::sync::LazyLock::new(|| {
    let mut index = SpecIndex {
        by_name: foldhash::HashMap::default(),
        by_family: foldhash::HashMap::default(),
    };
    for spec in PROGRAMS {
        for name in spec.names {
            index.by_name.entry(name).or_insert(spec);
            if spec.versioned {
                let family = programs::family(name).into_owned();
                index.by_family.entry(family).or_insert(spec);
            }
        }
    }
    index
});

/// The guards of one family, in table order.
pub(crate) fn guards_of(family: &str) -> impl Iterator<Item = &'static Guard> {
    BY_FAMILY
        .get(family)
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .copied()
}

/// [`GUARDS`] grouped by family once, so a check does not scan the table.
static BY_FAMILY: std::sync::LazyLock<foldhash::HashMap<&'static str, Vec<&'static Guard>>> =
    std::sync::LazyLock::new(|| {
        let mut map: foldhash::HashMap<&'static str, Vec<&'static Guard>> =
            foldhash::HashMap::default();
        for guard in GUARDS {
            if let Some((family, _)) = guard.id.split_once('.') {
                map.entry(family).or_default().push(guard);
            }
        }
        map
    });
