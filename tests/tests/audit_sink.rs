//! Fleet logging end to end: `ui-bridge serve --audit-sink syslog:SOCKET`
//! against a real `rsyslogd` listening on a private Unix socket, and the
//! head it ships used by `ui-bridge audit verify --expect-head` to catch a
//! local log cut short with its head file rewritten.
//!
//! Without `rsyslogd` each test prints `SKIP: …` and passes, except in CI
//! (`CI=true`), where it fails (`.ci/run` installs rsyslog).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use approvals_ipc::ipc::{Client, ExecRequest, ExecResponse};
use approvals_tests::{Bridge, TestHome, output, real_path};
use serde_json::{Value, json};

/// `rsyslogd -n` with an `imuxsock` input on `dir/log.sock` writing every
/// message, with its MSGID and structured data, to `dir/out.log`.
struct Rsyslog {
    child: Child,
    socket: PathBuf,
    out: PathBuf,
}

impl Rsyslog {
    fn start(dir: &Path) -> Option<Rsyslog> {
        let Some(rsyslogd) = which("rsyslogd") else {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "rsyslogd is missing in CI: .ci/run installs the rsyslog package"
            );
            println!("SKIP: rsyslogd not installed (apt install rsyslog)");
            return None;
        };
        let socket = dir.join("log.sock");
        let out = dir.join("out.log");
        let conf = dir.join("rsyslog.conf");
        std::fs::write(
            &conf,
            format!(
                r#"global(workDirectory="{dir}")
module(load="imuxsock" SysSock.Use="off")
input(type="imuxsock" Socket="{socket}" UseSpecialParser="off" ParseHostname="on" CreatePath="on")
template(name="sd" type="string" string="%msgid% %structured-data% %msg%\n")
*.* action(type="omfile" file="{out}" template="sd")
"#,
                dir = dir.display(),
                socket = socket.display(),
                out = out.display()
            ),
        )
        .expect("write rsyslog.conf");
        let child = Command::new(rsyslogd)
            .arg("-n")
            .arg("-f")
            .arg(&conf)
            .arg("-i")
            .arg(dir.join("rsyslogd.pid"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start rsyslogd");
        let deadline = Instant::now() + Duration::from_secs(20);
        while !socket.exists() {
            assert!(
                Instant::now() < deadline,
                "rsyslogd did not create {socket:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(Rsyslog { child, socket, out })
    }

    /// The received lines, waiting until `n` arrived.
    fn lines(&self, n: usize) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let text = std::fs::read_to_string(&self.out).unwrap_or_default();
            let lines: Vec<String> = text.lines().map(str::to_owned).collect();
            if lines.len() >= n {
                return lines;
            }
            assert!(
                Instant::now() < deadline,
                "rsyslogd wrote {} of {n} lines: {text}",
                lines.len()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Rsyslog {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .chain(["/usr/sbin".into(), "/sbin".into()])
        .map(|dir| dir.join(name))
        .find(|path| path.is_file())
}

/// A structured-data parameter of a received line.
fn param<'a>(line: &'a str, name: &str) -> &'a str {
    let start = line
        .find(&format!(" {name}=\""))
        .unwrap_or_else(|| panic!("no {name} in {line}"))
        + name.len()
        + 3;
    let len = line[start..].find('"').expect("closing quote");
    &line[start..start + len]
}

async fn exec(bridge: &Bridge, argv: &[&str]) -> bool {
    let mut client = Client::connect(&bridge.socket, bridge.token.clone())
        .await
        .expect("connect");
    let request = ExecRequest {
        command: argv.iter().map(|s| (*s).to_owned()).collect(),
        ..ExecRequest::default()
    };
    matches!(client.exec(&request).await.expect("a reply"), ExecResponse::Completed(p) if p.success)
}

#[tokio::test]
async fn every_record_reaches_rsyslog_with_its_chain_fields_and_the_shipped_head_catches_a_cut() {
    let home = TestHome::new();
    let Some(syslog) = Rsyslog::start(home.path()) else {
        return;
    };
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "off", "askFallback": "deny"},
        "agents": {"main": {"allowlist": [{"pattern": real_path("true")}]}}
    }));
    let sink = format!("syslog:{}", syslog.socket.display());
    let bridge = Bridge::start(&home, &["--audit-sink", &sink]);
    assert!(exec(&bridge, &["/usr/bin/true"]).await);
    assert!(!exec(&bridge, &["/usr/bin/id"]).await);
    // allowed: decision, exec.started, exec.finished; denied: decision, exec.denied.
    let received = syslog.lines(5);
    let log = home.state_dir().join("exec-audit.jsonl");
    let local: Vec<String> = std::fs::read_to_string(&log)
        .expect("the local log")
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(local.len(), 5, "{local:?}");
    for (line, copy) in local.iter().zip(&received) {
        let record: Value = serde_json::from_str(line).unwrap();
        assert!(
            copy.starts_with(record["event"].as_str().unwrap()),
            "{copy}"
        );
        assert!(copy.contains("[exec-approvals@32473 "), "{copy}");
        assert_eq!(param(copy, "seq"), record["seq"].to_string(), "{copy}");
        assert_eq!(param(copy, "prev"), record["prev"].as_str().unwrap());
        assert_eq!(
            param(copy, "hash"),
            ui_bridge::audit::line_hash(line.as_bytes())
        );
        assert!(copy.ends_with(line.as_str()), "the exact line: {copy}");
    }
    let shipped = received.last().unwrap();
    let head = format!("{}:{}", param(shipped, "seq"), param(shipped, "hash"));
    let verify = |extra: &[&str]| {
        output(
            home.command("ui-bridge")
                .args(["audit", "verify", "--expect-head", &head])
                .args(extra),
        )
    };
    let out = verify(&[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // An attacker with this UID cuts the last two records and rewrites
    // the head file to match: the local checks pass, the shipped head not.
    drop(bridge);
    std::fs::write(&log, format!("{}\n", local[..3].join("\n"))).unwrap();
    let forged = json!({"seq": 3, "hash": ui_bridge::audit::line_hash(local[2].as_bytes())});
    std::fs::write(ui_bridge::audit::head_path_for(&log), forged.to_string()).unwrap();
    let local_only = output(home.command("ui-bridge").args(["audit", "verify"]));
    assert_eq!(local_only.status.code(), Some(0));
    let out = verify(&[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("cut short"), "{stderr}");
}

#[test]
fn an_unknown_sink_in_the_approvals_file_refuses_the_start_naming_the_file() {
    let home = TestHome::new();
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "deny"},
        "audit": {"sink": "kafka"}
    }));
    let out = output(
        home.command("ui-bridge")
            .args(["serve", "--approval-timeout-ms", "1000"])
            .stdin(Stdio::null()),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("audit.sink"), "{stderr}");
    assert!(stderr.contains("exec-approvals.json"), "{stderr}");
    assert!(stderr.contains("kafka"), "{stderr}");
}
