//! OpenSSH's ssh and scp. Options from OpenSSH 9.2p1's usage and tried on
//! the installed programs (`ssh -G` prints the configuration an argv makes
//! without connecting). Both use BSD `getopt`: short options only, no
//! permutation; ssh reads a second round of options after the destination
//! (`ssh host -oProxyCommand=x` sets it; `ssh -- host -o…` and anything
//! after the remote command's first word do not). Running the remote
//! command is ssh's job; running a local program (`ProxyCommand`,
//! `LocalCommand`, scp's `-S`), loading a config file or a PKCS#11 library,
//! and writing a log are asked.

use crate::policy::specs::types::Effect::Mode;
use crate::policy::specs::types::Mode::Recursive;
use crate::policy::specs::types::{Copying, Operands};
use crate::policy::specs::types::{
    Effect::{LoadsCode, Network, ReadsFile, RunsProgram, SetsConfig, SetsConfigKey, WritesFile},
    Grammar, Keys, Opt, Spec, flag, ids, value,
};
use crate::policy::specs::types::{loads, location};

/// `-o` config keys that only choose how to connect, authenticate or show
/// things: allowed. Every other key is asked: `ProxyCommand`,
/// `LocalCommand`, `PermitLocalCommand`, `KnownHostsCommand`, `Match`
/// (`exec`), `RemoteCommand`, `Include`, `PKCS11Provider`,
/// `SecurityKeyProvider`, `ProxyUseFdpass`, `UserKnownHostsFile` (ssh
/// appends host keys to it, so it writes any file), `ForwardAgent` (the
/// remote host signs with this user's keys while connected) and `SendEnv`
/// (hands the named variables, tokens among them, to the remote host):
/// both found by the H25 sweep. Any key added later is asked too.
pub(crate) const INERT_KEYS: &[&str] = &[
    "addressfamily",
    "batchmode",
    "bindaddress",
    "checkhostip",
    "ciphers",
    "compression",
    "connectionattempts",
    "connecttimeout",
    "controlmaster",
    "controlpath",
    "controlpersist",
    "exitonforwardfailure",
    "forwardx11",
    "globalknownhostsfile",
    "hashknownhosts",
    "hostkeyalgorithms",
    "hostname",
    "identitiesonly",
    "identityfile",
    "kexalgorithms",
    "loglevel",
    "macs",
    "numberofpasswordprompts",
    "passwordauthentication",
    "port",
    "preferredauthentications",
    "proxyjump",
    "pubkeyacceptedalgorithms",
    "pubkeyauthentication",
    "requesttty",
    "serveraliveinterval",
    "serveralivecountmax",
    "stricthostkeychecking",
    "tcpkeepalive",
    "updatehostkeys",
    "user",
    "verifyhostkeydns",
];

/// Whether an ssh config line given to `-o` (`Key=Value`, `Key Value`,
/// any case, leading blanks allowed) sets an inert key.
pub(crate) fn inert_line(line: &str) -> bool {
    let line = line.trim_start_matches([' ', '\t']);
    let key = line
        .split(|c: char| c == '=' || c.is_ascii_whitespace())
        .next()
        .unwrap_or("");
    INERT_KEYS.contains(&key.to_ascii_lowercase().as_str())
}

const CONFIG_LINE: &str = "sets an ssh config key that can run a local program (ProxyCommand, LocalCommand, KnownHostsCommand, Match exec) or load code";
/// Why `-A` is asked.
const AGENT: &str = "forwards the ssh agent: while connected, the remote host logs in elsewhere with this user's keys";
const CONFIG_FILE: &str =
    "reads an ssh config file, whose ProxyCommand, LocalCommand or Match exec run programs";

/// Options ssh and scp share.
const COMMON: &[Opt] = &[
    flag(&["-4"]),
    flag(&["-6"]),
    flag(&["-A"]).does(SetsConfig(AGENT)),
    flag(&["-C"]),
    flag(&["-q"]),
    flag(&["-v"]),
    value(&["-c"]),
    value(&["-F"]).does(LoadsCode(CONFIG_FILE)),
    value(&["-i"]).does(ReadsFile),
    value(&["-J"]).does(Network),
    value(&["-o"]).does(SetsConfigKey(Keys::Ssh, CONFIG_LINE)),
];

const SSH_OPTS: &[Opt] = &[
    flag(&["-1"]),
    flag(&["-2"]),
    flag(&["-a"]),
    flag(&["-f"]),
    flag(&["-G"]),
    flag(&["-g"]),
    flag(&["-K"]),
    flag(&["-k"]),
    flag(&["-M"]),
    flag(&["-N"]),
    flag(&["-n"]),
    flag(&["-P"]),
    flag(&["-s"]),
    flag(&["-T"]),
    flag(&["-t"]),
    flag(&["-V"]),
    flag(&["-X"]),
    flag(&["-x"]),
    flag(&["-Y"]),
    flag(&["-y"]),
    value(&["-B"]),
    value(&["-b"]),
    value(&["-D"]).does(Network),
    value(&["-E"]).does(WritesFile("writes ssh's log")),
    value(&["-e"]),
    value(&["-I"]).does(LoadsCode("loads a PKCS#11 shared library")),
    value(&["-L"]).does(Network),
    value(&["-l"]),
    value(&["-m"]),
    value(&["-O"]),
    value(&["-p"]),
    value(&["-Q"]),
    value(&["-R"]).does(Network),
    value(&["-S"]),
    value(&["-W"]).does(Network),
    value(&["-w"]).does(Network),
];

/// `ssh`.
pub(crate) const SSH: Spec = Spec {
    family: "ssh",
    names: &["slogin", "ssh"],
    ids: ids!("ssh"),
    grammar: Grammar::Ssh,
    opts: &[COMMON, SSH_OPTS],
    subs: &[],
    checked_with: "OpenSSH 9.2p1 (openssh-client, Debian 12)",
    operands: Operands::Plain,
    env: &[
        loads("SSH_ASKPASS", "ssh runs this program to ask for a password"),
        loads("SSH_ASKPASS_REQUIRE", "makes ssh run SSH_ASKPASS"),
        location("SSH_AUTH_SOCK", "the agent whose keys ssh uses"),
        loads(
            "SSH_SK_HELPER",
            "ssh runs this program instead of ssh-sk-helper to use a security key",
        ),
        loads(
            "SSH_SK_PROVIDER",
            "ssh-keygen and ssh-add load this library as the security key middleware",
        ),
    ],
};

const SCP_OPTS: &[Opt] = &[
    flag(&["-3"]),
    flag(&["-B"]),
    flag(&["-O"]),
    flag(&["-p"]),
    flag(&["-R"]),
    flag(&["-r"]).does(Mode(Recursive)),
    flag(&["-s"]),
    flag(&["-T"]),
    // Undocumented server modes: `-t` writes the files its input sends,
    // `-f` sends the named files, `-d` says the target is a directory.
    flag(&["-d"]),
    flag(&["-f"]),
    flag(&["-t"]).does(WritesFile(
        "scp's server mode writes whatever files its input sends",
    )),
    value(&["-D"]).does(RunsProgram("runs the given program as a local SFTP server")),
    value(&["-l"]),
    value(&["-M"]),
    value(&["-P"]),
    value(&["-S"]).does(RunsProgram("runs the given program instead of ssh")),
    value(&["-X"]),
];

/// `scp`. Its `-1` is accepted and fails (protocol 1 is gone): left out.
pub(crate) const SCP: Spec = Spec {
    family: "scp",
    names: &["scp"],
    ids: ids!("scp"),
    grammar: Grammar::Getopt { permute: false },
    opts: &[COMMON, SCP_OPTS],
    subs: &[],
    checked_with: "OpenSSH 9.2p1 (openssh-client, Debian 12)",
    operands: Operands::Destination(Copying {
        why: "copies files here",
        remote: true,
        trailing_slash_is_contents: false,
        recursive: false,
        links: false,
    }),
    env: &[],
};
