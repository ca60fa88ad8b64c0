//! The built-in risk rules: a const table, one reason per row, and the small
//! matchers they name. Matchers look at argv as written; they never touch
//! the file system.

use smallvec::{SmallVec, smallvec};

use crate::policy::programs::{self, Kind};

use super::RiskLevel::{self, Critical, High, Medium};

/// What a rule looks at.
#[derive(Clone, Copy)]
pub(crate) enum Matcher {
    /// One command's argv (argv[0] first, reduced to its basename).
    Command(fn(&[&str]) -> bool),
    /// A whole pipeline: per command, its argv and the argv of what its
    /// wrappers run (each argv[0] reduced to its basename).
    Pipeline(fn(&Named<'_>) -> bool),
    /// The raw shell text.
    Text(fn(&str) -> bool),
}

/// A pipeline as the rules read it: for each command, its argv and the
/// argv of each command its wrappers run (a layer each, in order), every
/// argv[0] reduced to its basename. The words sit in one flat buffer, inline
/// for the usual pipeline, so assessing risk allocates nothing on an
/// evaluation's hot path.
#[derive(Default)]
pub(crate) struct Named<'a> {
    words: SmallVec<[&'a str; 16]>,
    /// (the command's index in the pipeline, its words in `words`).
    layers: SmallVec<[(usize, std::ops::Range<usize>); 4]>,
}

impl<'a> Named<'a> {
    /// Adds command number `command`'s layers, outermost first.
    pub(crate) fn push<S: AsRef<str>>(&mut self, command: usize, argv: &'a [S]) {
        for layer in unwrap_layers(argv) {
            let start = self.words.len();
            let mut words = layer.iter().map(AsRef::as_ref);
            self.words.extend(words.next().map(base));
            self.words.extend(words);
            self.layers.push((command, start..self.words.len()));
        }
    }

    /// Every layer of every command, as (command index, argv).
    pub(crate) fn layers(&self) -> impl Iterator<Item = (usize, &[&'a str])> {
        self.layers
            .iter()
            .map(|(command, range)| (*command, &self.words[range.clone()]))
    }
}

/// One built-in rule.
pub(crate) struct Rule {
    /// Stable id, sorted.
    pub id: &'static str,
    /// The level when it matches.
    pub level: RiskLevel,
    /// The reason shown to the human.
    pub reason: &'static str,
    /// What it looks at.
    pub matcher: Matcher,
}

const fn r(id: &'static str, level: RiskLevel, reason: &'static str, matcher: Matcher) -> Rule {
    Rule {
        id,
        level,
        reason,
        matcher,
    }
}

use Matcher::{Command, Pipeline, Text};

/// Every built-in rule, sorted by id.
pub(crate) const RULES: &[Rule] = &[
    r(
        "chmod-world",
        High,
        "makes files writable or executable by everyone (chmod 777)",
        Command(chmod_world),
    ),
    r(
        "chown-recursive",
        High,
        "changes ownership recursively (chown -R)",
        Command(chown_recursive),
    ),
    r(
        "dd-device",
        Critical,
        "writes raw data to a device (dd of=/dev/…)",
        Command(dd_device),
    ),
    r(
        "disk-format",
        Critical,
        "formats, partitions or wipes a disk",
        Command(disk_format),
    ),
    r(
        "download-to-interpreter",
        Critical,
        "runs code downloaded from the network (curl … | sh)",
        Pipeline(download_to_interpreter),
    ),
    r(
        "fork-bomb",
        Critical,
        "fork bomb: a function that spawns itself until the system stalls",
        Text(fork_bomb),
    ),
    r(
        "git-destructive",
        Medium,
        "rewrites or discards git history or files (force push, reset --hard, clean)",
        Command(git_destructive),
    ),
    r(
        "history-tamper",
        Medium,
        "clears or disables the shell history",
        Command(history_tamper),
    ),
    r(
        "history-tamper-text",
        Medium,
        "clears or disables the shell history",
        Text(history_text),
    ),
    r(
        "kill-many",
        Medium,
        "kills many processes at once",
        Command(kill_many),
    ),
    r(
        "network",
        Medium,
        "talks to a remote host",
        Command(network),
    ),
    r(
        "power",
        High,
        "shuts down or reboots the machine",
        Command(power),
    ),
    r(
        "privilege",
        High,
        "runs with elevated privileges (sudo, doas, su, pkexec)",
        Command(privilege),
    ),
    r(
        "rm-recursive",
        High,
        "deletes files recursively (rm -r)",
        Command(rm_recursive),
    ),
    r(
        "rm-root",
        Critical,
        "deletes the root, home or a top-level system directory recursively (rm -rf /)",
        Command(rm_root),
    ),
    r(
        "system-admin",
        High,
        "changes services, scheduled jobs, firewall or user accounts",
        Command(system_admin),
    ),
    r(
        "system-path-write",
        High,
        "writes under a system directory (/etc, /usr, /bin, /dev …)",
        Command(system_path_write),
    ),
];

/// `argv` and every command its wrappers would run, outermost first.
pub(crate) fn unwrap_layers<S: AsRef<str>>(argv: &[S]) -> SmallVec<[&[S]; 2]> {
    let mut layers = smallvec![argv];
    let mut cur = argv;
    for _ in 0..4 {
        let Some((head, rest)) = cur.split_first() else {
            break;
        };
        // POSIX shells and wrappers of the programs table, each with the
        // short options that take a value; shells are here for the crude
        // text reading, where `sh -c 'a b'` arrives as separate words.
        let Some(wrapper) = programs::looked_through(base(head.as_ref())) else {
            break;
        };
        let (name, values) = (&wrapper.name, wrapper.value_shorts);
        let mut i = 0;
        while let Some(tok) = rest.get(i).map(AsRef::as_ref) {
            if tok == "--" {
                i += 1;
                break;
            }
            let is_assignment = *name == "env" && tok.contains('=') && !tok.starts_with('-');
            let is_duration = *name == "timeout" && tok.starts_with(|c: char| c.is_ascii_digit());
            if is_assignment || is_duration {
                i += 1;
                if is_duration {
                    break;
                }
                continue;
            }
            if !tok.starts_with('-') || tok == "-" {
                break;
            }
            let takes_value = tok.len() == 2 && tok[1..].chars().all(|c| values.contains(c));
            i += if takes_value { 2 } else { 1 };
        }
        match rest.get(i..) {
            Some(next) if !next.is_empty() => {
                layers.push(next);
                cur = next;
            }
            _ => break,
        }
    }
    layers
}

/// The basename of argv[0].
pub(crate) fn base(arg0: &str) -> &str {
    arg0.rfind('/').map_or(arg0, |slash| &arg0[slash + 1..])
}

/// The program a rule sees: [`assess_pipeline`](super::assess_pipeline)
/// hands rules argv with argv[0] already reduced to its basename, once,
/// instead of once per rule.
fn program<'a>(argv: &[&'a str]) -> &'a str {
    argv.first().copied().unwrap_or("")
}

fn operands<'a, 'b>(argv: &'b [&'a str]) -> impl Iterator<Item = &'a str> + 'b {
    argv.iter()
        .skip(1)
        .copied()
        .filter(|a| !a.starts_with('-') || *a == "-")
}

/// True when a short cluster or long option among the args sets `short` or is `long`.
fn has_flag(argv: &[&str], short: char, long: &str) -> bool {
    argv.iter().skip(1).any(|a| {
        if let Some(name) = a.strip_prefix("--") {
            name == long
        } else if let Some(cluster) = a.strip_prefix('-') {
            cluster.contains(short) && !cluster.is_empty()
        } else {
            false
        }
    })
}

fn rm_recursive(argv: &[&str]) -> bool {
    program(argv) == "rm" && (has_flag(argv, 'r', "recursive") || has_flag(argv, 'R', "recursive"))
}

/// Targets whose recursive removal destroys a system or a home.
fn catastrophic_target(t: &str) -> bool {
    let t = t.trim_end_matches('*').trim_end_matches('/');
    let home = ["~", "$HOME", "${HOME}"];
    if t.is_empty() || home.contains(&t) || t == "/." {
        return true;
    }
    if let Some(rest) = t.strip_prefix('/') {
        // A top-level directory: /etc, /usr, /home …
        return !rest.is_empty() && !rest.contains('/') && !rest.starts_with('.');
    }
    false
}

fn rm_root(argv: &[&str]) -> bool {
    program(argv) == "rm"
        && (argv.contains(&"--no-preserve-root")
            || (rm_recursive(argv) && operands(argv).any(catastrophic_target)))
}

/// A shell or interpreter that runs what it reads on stdin as code, from
/// the programs table (matched by family: `python3.12`, `pypy3`, `ksh93`).
fn is_interpreter(name: &str) -> bool {
    programs::has(name, Kind::CodeOnStdin)
}

fn download_to_interpreter(pipeline: &Named<'_>) -> bool {
    let fetch = pipeline
        .layers()
        .find(|(_, argv)| matches!(program(argv), "curl" | "wget" | "fetch" | "aria2c"))
        .map(|(command, _)| command);
    fetch.is_some_and(|fetch| {
        pipeline
            .layers()
            .any(|(command, argv)| command > fetch && is_interpreter(program(argv)))
    })
}

fn dd_device(argv: &[&str]) -> bool {
    const HARMLESS: &[&str] = &["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/zero"];
    program(argv) == "dd"
        && argv.iter().any(|a| {
            a.strip_prefix("of=")
                .is_some_and(|t| t.starts_with("/dev/") && !HARMLESS.contains(&t))
        })
}

fn disk_format(argv: &[&str]) -> bool {
    let p = program(argv);
    p.starts_with("mkfs")
        || matches!(
            p,
            "wipefs" | "fdisk" | "sfdisk" | "gdisk" | "sgdisk" | "parted" | "mkswap"
        )
        || (matches!(p, "shred" | "blkdiscard") && operands(argv).any(|a| a.starts_with("/dev/")))
}

/// `f(){ f|f& };f` and renamed variants, whitespace ignored.
fn fork_bomb(text: &str) -> bool {
    let s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut from = 0;
    while let Some(pos) = s[from..].find("(){") {
        let at = from + pos;
        let name_start = s[..at]
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '.'))
            .map_or(0, |i| i + 1);
        let name = &s[name_start..at];
        if !name.is_empty() {
            let body = &s[at + 3..];
            let body = &body[..body.find('}').unwrap_or(body.len())];
            if body.contains(&format!("{name}|{name}&"))
                || body.contains(&format!("{name}&{name}&"))
            {
                return true;
            }
        }
        from = at + 3;
    }
    false
}

fn privilege(argv: &[&str]) -> bool {
    programs::has(program(argv), Kind::Privileged)
}

fn chmod_world(argv: &[&str]) -> bool {
    const MODES: &[&str] = &[
        "777", "0777", "666", "0666", "a+rwx", "ugo+rwx", "a+w", "o+w", "o+rwx",
    ];
    program(argv) == "chmod" && argv.iter().skip(1).any(|a| MODES.contains(a))
}

fn chown_recursive(argv: &[&str]) -> bool {
    matches!(program(argv), "chown" | "chgrp") && has_flag(argv, 'R', "recursive")
}

const SYSTEM_PREFIXES: &[&str] = &[
    "/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/sbin",
    "/sys", "/usr", "/var/lib",
];

fn under_system(path: &str) -> bool {
    if matches!(path, "/dev/null" | "/dev/stdout" | "/dev/stderr") {
        return false;
    }
    SYSTEM_PREFIXES.iter().any(|p| {
        path.strip_prefix(p)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

fn system_path_write(argv: &[&str]) -> bool {
    let targets: Vec<&str> = match program(argv) {
        "tee" | "truncate" => operands(argv).collect(),
        "cp" | "mv" | "ln" | "install" | "rsync" => {
            let mut t: Vec<&str> = operands(argv).last().into_iter().collect();
            // -t DIR / --target-directory=DIR
            for (i, a) in argv.iter().enumerate() {
                if *a == "-t" {
                    t.extend(argv.get(i + 1));
                } else if let Some(v) = a.strip_prefix("--target-directory=") {
                    t.push(v);
                }
            }
            t
        }
        "dd" => argv.iter().filter_map(|a| a.strip_prefix("of=")).collect(),
        _ => Vec::new(),
    };
    targets.into_iter().any(under_system)
}

fn power(argv: &[&str]) -> bool {
    match program(argv) {
        "shutdown" | "reboot" | "halt" | "poweroff" => true,
        "init" | "telinit" => argv.get(1).is_some_and(|a| matches!(*a, "0" | "6")),
        _ => false,
    }
}

fn kill_many(argv: &[&str]) -> bool {
    match program(argv) {
        "pkill" | "killall" | "killall5" => true,
        // `-1` as a target (not as the signal in argv[1]): every process.
        "kill" => argv.iter().skip(2).any(|a| *a == "-1"),
        _ => false,
    }
}

fn git_destructive(argv: &[&str]) -> bool {
    if program(argv) != "git" {
        return false;
    }
    let sub = argv.iter().skip(1).find(|a| !a.starts_with('-'));
    match sub.copied() {
        Some("push") => {
            has_flag(argv, 'f', "force")
                || argv
                    .iter()
                    .any(|a| a.starts_with("--force") || a.starts_with("+"))
        }
        Some("reset") => argv.contains(&"--hard"),
        Some("clean") => has_flag(argv, 'f', "force"),
        Some("checkout") | Some("restore") => argv.contains(&"--") && argv.contains(&"."),
        _ => false,
    }
}

fn system_admin(argv: &[&str]) -> bool {
    matches!(
        program(argv),
        "crontab"
            | "systemctl"
            | "launchctl"
            | "iptables"
            | "ip6tables"
            | "nft"
            | "ufw"
            | "useradd"
            | "usermod"
            | "userdel"
            | "groupadd"
            | "passwd"
            | "chpasswd"
            | "visudo"
    )
}

fn history_tamper(argv: &[&str]) -> bool {
    match program(argv) {
        "history" => argv
            .iter()
            .skip(1)
            .any(|a| a.starts_with('-') && a.contains('c')),
        "unset" => argv.contains(&"HISTFILE"),
        _ => false,
    }
}

fn history_text(text: &str) -> bool {
    text.contains("HISTFILE=") || text.contains("HISTSIZE=0")
}

fn network(argv: &[&str]) -> bool {
    match program(argv) {
        "curl" | "wget" | "nc" | "ncat" | "netcat" | "ssh" | "telnet" | "ftp" | "sftp" => {
            operands(argv).next().is_some()
        }
        "scp" | "rsync" => operands(argv).any(|a| a.contains(':')),
        _ => false,
    }
}
