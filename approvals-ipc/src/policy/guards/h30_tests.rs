//! Guard families added by the H30 sweep of programs with no full spec
//! that write files at a chosen path, run commands or change the system:
//! each test is named for the attack it stops, and the last keeps their
//! everyday use allowed.

use super::dev_tools_tests::{ids, ids_with, trips};
use super::*;

#[test]
fn kubectl_cp_to_or_from_a_path_outside_the_tree_is_asked() {
    trips(&[
        (
            &["kubectl", "cp", "pod:/etc/passwd", "/tmp/x"],
            "kubectl.cp-outside",
        ),
        (
            &[
                "kubectl",
                "-n",
                "prod",
                "cp",
                "/home/u/.ssh/id_rsa",
                "pod:/tmp/k",
            ],
            "kubectl.cp-outside",
        ),
        (
            &["kubectl", "cp", "pod:/x", "../elsewhere/x"],
            "kubectl.cp-outside",
        ),
    ]);
}

#[test]
fn spec_less_output_options_outside_the_tree_are_asked() {
    for cmd in [
        &[
            "openssl",
            "enc",
            "-aes-256-cbc",
            "-in",
            "s.txt",
            "-out",
            "/tmp/x",
        ][..],
        &["openssl", "req", "-new", "-out", "../x"],
        &["openssl", "genrsa", "-out", "~/.ssh/x", "2048"],
        &["openssl", "x509", "-in", "c.pem", "-out=/tmp/c.pem"],
        &["gcc", "-o", "/tmp/a.out", "main.c"],
        &["gcc", "-o/tmp/a.out", "main.c"],
        &["zstd", "--output=/var/tmp/x.zst", "x"],
    ] {
        assert!(
            ids(cmd).contains(&unknown::ID),
            "{cmd:?} should trip {}: {:?}",
            unknown::ID,
            ids(cmd)
        );
    }
}

#[test]
fn redis_server_config_lua_modules_and_replication_are_asked_in_any_case() {
    for cmd in [
        &["redis-cli", "config", "set", "dir", "/var/spool/cron"][..],
        &["redis-cli", "CONFIG", "SET", "dbfilename", "root"],
        &["redis-cli", "-h", "cache", "Config", "set", "dir", "/x"],
        &["redis-cli", "eval", "redis.call('set','k','v')", "0"],
        &["redis-cli", "EVALSHA", "abc", "0"],
        &["redis-cli", "module", "load", "/tmp/x.so"],
        &["redis-cli", "script", "load", "return 1"],
        &["redis-cli", "debug", "sleep", "10"],
        &["redis-cli", "replicaof", "evil.example", "6379"],
        &["redis-cli", "fcall", "f", "0"],
        &["valkey-cli", "acl", "setuser", "x", "on"],
    ] {
        assert!(
            ids(cmd).contains(&"redis.runs-on-server"),
            "{cmd:?}: {:?}",
            ids(cmd)
        );
    }
    trips(&[
        (&["redis-cli", "--eval", "script.lua"], "redis.script"),
        (&["redis-cli", "--pipe"], "redis.script"),
        (&["redis-cli", "--cluster", "fix", "h:1"], "redis.script"),
        (&["redis-cli", "--rdb", "/tmp/dump.rdb"], "redis.local-file"),
    ]);
}

#[test]
fn redis_commands_piped_into_redis_cli_are_asked() {
    assert!(ids_with(&["redis-cli"], true).contains(&"redis.stdin-commands"));
    assert!(ids_with(&["redis-cli", "-h", "cache"], true).contains(&"redis.stdin-commands"));
    // `-x` with a command reads the last argument from stdin, not commands.
    assert_eq!(
        ids_with(&["redis-cli", "-x", "set", "k"], true),
        Vec::<&str>::new()
    );
}

#[test]
fn sysctl_writing_kernel_settings_is_asked() {
    trips(&[
        (&["sysctl", "-w", "net.ipv4.ip_forward=1"], "sysctl.writes"),
        (&["sysctl", "net.ipv4.ip_forward=1"], "sysctl.assigns"),
        (&["sysctl", "-p", "/etc/sysctl.d/x.conf"], "sysctl.writes"),
        (&["sysctl", "-qp"], "sysctl.writes"),
        (&["sysctl", "--system"], "sysctl.writes"),
        (&["sysctl", "--load=/tmp/x.conf"], "sysctl.writes"),
        (&["sysctl", "-f", "x.conf"], "sysctl.writes"),
    ]);
}

#[test]
fn ifconfig_changing_an_interface_is_asked() {
    trips(&[
        (&["ifconfig", "eth0", "down"], "ifconfig.changes-network"),
        (
            &["ifconfig", "eth0", "10.0.0.2", "netmask", "255.0.0.0"],
            "ifconfig.changes-network",
        ),
        (&["ip", "link", "set", "eth0", "down"], "ip.changes-network"),
        (
            &["ip", "addr", "add", "10.0.0.2/24", "dev", "eth0"],
            "ip.changes-network",
        ),
    ]);
}

#[test]
fn fuser_killing_processes_is_asked() {
    trips(&[
        (&["fuser", "-k", "8080/tcp"], "fuser.kills"),
        (&["fuser", "-k", "-n", "tcp", "80"], "fuser.kills"),
        (&["fuser", "-vk", "file.txt"], "fuser.kills"),
        (&["fuser", "--kill", "-n", "tcp", "80"], "fuser.kills"),
        (&["fuser", "--ki", "x"], "fuser.kills"),
    ]);
}

#[test]
fn yq_loading_files_printing_the_environment_or_writing_outside_is_asked() {
    trips(&[
        (
            &["yq", "load(\"/home/u/.ssh/id_rsa\")", "x.yaml"],
            "yq.environment",
        ),
        (
            &["yq", ".a = load_str(\"/etc/shadow\")", "x.yaml"],
            "yq.environment",
        ),
        (&["yq", "eval", "env", "x.yaml"], "yq.environment"),
        (&["yq", ".a = strenv(TOKEN)", "x.yaml"], "yq.environment"),
        (&["yq", "-n", "env(HOME)"], "yq.environment"),
        (
            &["yq", "\"${HOME}\" | envsubst", "x.yaml"],
            "yq.environment",
        ),
        (&["yq", "$ENV.TOKEN", "x.yaml"], "yq.environment"),
        (&["yq", "--from-file", "e.yq", "x.yaml"], "yq.from-file"),
        (
            &["yq", "-i", ".a = 1", "/etc/x.yaml"],
            "yq.rewrites-outside",
        ),
        (
            &["yq", "--inplace", ".a = 1", "../o/x.yaml"],
            "yq.rewrites-outside",
        ),
        (&["yq", "-s", ".name", "x.yaml"], "yq.split"),
    ]);
}

#[test]
fn nginx_started_signalled_or_given_a_config_is_asked() {
    trips(&[
        (&["nginx"], "nginx.runs-server"),
        (&["nginx", "-q"], "nginx.runs-server"),
        (&["nginx", "-c", "/tmp/n.conf"], "nginx.config"),
        (&["nginx", "-c/tmp/n.conf"], "nginx.config"),
        (&["nginx", "-g", "load_module /tmp/x.so;"], "nginx.config"),
        (&["nginx", "-s", "stop"], "nginx.config"),
        (&["nginx", "-t", "-c", "/tmp/n.conf"], "nginx.config"),
        (&["nginx", "-tc", "/tmp/n.conf"], "nginx.config"),
        (&["nginx", "-p", "/tmp/x"], "nginx.config"),
    ]);
}

#[test]
fn everyday_uses_of_the_h30_families_stay_allowed() {
    for cmd in [
        &["redis-cli", "ping"][..],
        &["redis-cli", "info"],
        &["redis-cli", "-h", "cache", "-p", "6380", "get", "session:1"],
        &["redis-cli", "--scan", "--pattern", "user:*"],
        &["sysctl", "-a"],
        &["sysctl", "net.ipv4.ip_forward"],
        &["sysctl", "-n", "kernel.hostname"],
        &["ifconfig"],
        &["ifconfig", "-a"],
        &["ifconfig", "eth0"],
        &["ip", "a"],
        &["ip", "route"],
        &["fuser", "-v", "file.txt"],
        &["fuser", "-n", "tcp", "8080"],
        &["yq", ".a.b", "x.yaml"],
        &["yq", "-i", ".version = \"1.2\"", "x.yaml"],
        &["yq", "-o", "json", ".", "x.yaml"],
        &["yq", "e", ".env.FOO", "x.yaml"],
        &["yq", ".environment", "x.yaml"],
        &["nginx", "-t"],
        &["nginx", "-T"],
        &["nginx", "-v"],
        &["nginx", "-V"],
        &["kubectl", "cp", "app:/var/log/app.log", "./app.log"],
        &["kubectl", "port-forward", "svc/web", "8080:80"],
        &["kubectl", "proxy"],
        &["openssl", "req", "-new", "-key", "k.pem", "-out", "req.csr"],
        &["openssl", "genrsa", "-out", "build/key.pem", "2048"],
        &["openssl", "dgst", "-sha256", "-out", "-", "f.bin"],
        &["openssl", "dgst", "-out", "/dev/stdout", "f.bin"],
        &["gcc", "-o", "build/app", "main.c"],
    ] {
        assert_eq!(ids(cmd), Vec::<&str>::new(), "{cmd:?}");
    }
}
