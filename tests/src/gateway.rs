//! A real OpenClaw gateway for the interop suite (issue 12): found where
//! `scripts/install-openclaw` put it, started on loopback with a throwaway
//! HOME and state directory, driven through its own CLI and through one
//! long-lived operator connection (`tests/interop/operator.mjs`), and
//! stopped with its whole process tree when dropped.
//!
//! Why an operator session beside the CLI: the gateway binds an exec
//! approval to the connection (or device) that requested it, and every
//! `openclaw gateway call` is a new connection without a device, so the
//! approval flow (request → resolve → `node.invoke`) must share one; it
//! also saves the ~1 s of Node start-up each CLI call costs.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long the gateway may take to accept connects (about 10 s when idle;
/// CI machines are slower and run several suites at once).
const START_LIMIT: Duration = Duration::from_secs(120);
/// How long one gateway request may take before the suite gives up.
const REQUEST_LIMIT: Duration = Duration::from_secs(60);

/// Where Node 24 and openclaw are installed (`scripts/install-openclaw`).
#[derive(Clone, Debug)]
pub struct Install {
    dir: PathBuf,
}

impl Install {
    /// The install under `EA_INTEROP_DIR`, or the installer's default cache
    /// dir, when both programs are there.
    pub fn find() -> Result<Install, String> {
        let dir = match std::env::var_os("EA_INTEROP_DIR") {
            Some(dir) => PathBuf::from(dir),
            None => std::env::var_os("HOME")
                .map(|home| PathBuf::from(home).join(".cache/exec-approvals/interop"))
                .ok_or("neither EA_INTEROP_DIR nor HOME is set")?,
        };
        let install = Install { dir };
        for path in [install.node(), install.openclaw()] {
            if !path.is_file() {
                return Err(format!(
                    "{} is missing (run scripts/install-openclaw, or set EA_INTEROP_DIR)",
                    path.display()
                ));
            }
        }
        Ok(install)
    }

    /// Node 24.
    pub fn node(&self) -> PathBuf {
        self.dir.join("node24/bin/node")
    }

    /// openclaw's CLI entry point.
    pub fn openclaw(&self) -> PathBuf {
        self.dir.join("oc/node_modules/openclaw/openclaw.mjs")
    }
}

/// The install, or `None` after printing `SKIP: …` when it is absent; with
/// `CI` set an absent install fails the suite instead, so CI cannot pass
/// without running it.
pub fn install_or_skip(suite: &str) -> Option<Install> {
    match Install::find() {
        Ok(install) => Some(install),
        Err(why) if std::env::var_os("CI").is_some() => {
            panic!("{suite}: the real gateway is needed in CI: {why}")
        }
        Err(why) => {
            eprintln!("SKIP: {suite}: {why}");
            None
        }
    }
}

/// A script in `tests/interop/`.
pub fn interop_script(name: &str) -> PathBuf {
    crate::workspace_root().join("tests/interop").join(name)
}

/// The pids of `root` and all its descendants, from /proc (the gateway's
/// workers run in their own process groups, so a group kill misses them).
pub fn process_tree(root: u32) -> Vec<u32> {
    let mut parent_of: Vec<(u32, u32)> = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for entry in entries.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|s| s.parse::<u32>().ok())
            else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // The fields after the command name, which may hold spaces.
            let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
                continue;
            };
            if let Some(ppid) = rest.split_whitespace().nth(1).and_then(|s| s.parse().ok()) {
                parent_of.push((pid, ppid));
            }
        }
    }
    let mut tree = vec![root];
    let mut i = 0;
    while i < tree.len() {
        let parent = tree[i];
        tree.extend(
            parent_of
                .iter()
                .filter(|(_, p)| *p == parent)
                .map(|(c, _)| *c),
        );
        i += 1;
    }
    tree
}

/// Sends `signal` (`-TERM`, `-KILL`) to each pid; gone ones are ignored.
pub fn signal_all(pids: &[u32], signal: &str) {
    if pids.is_empty() {
        return;
    }
    let _ = Command::new("kill")
        .arg(signal)
        .args(pids.iter().map(u32::to_string))
        .stderr(Stdio::null())
        .status();
}

/// Pids whose command line contains `marker` (a process a test started
/// and expects gone).
pub fn processes_with(marker: &str) -> Vec<u32> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if text.contains(marker) && pid != std::process::id() {
                found.push(pid);
            }
        }
    }
    found
}

/// A child process whose whole tree is stopped when dropped: SIGTERM, up
/// to `grace` to exit, then SIGKILL to whatever of the tree is left.
pub struct Supervised {
    child: Child,
    /// Its stdout+stderr log.
    pub log: PathBuf,
    grace: Duration,
}

impl Supervised {
    /// Spawns `cmd` with stdout and stderr to `log`.
    pub fn spawn(mut cmd: Command, log: PathBuf, grace: Duration) -> Supervised {
        let out = std::fs::File::create(&log).expect("create a log file");
        let err = out.try_clone().expect("clone the log file");
        let child = cmd
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
        Supervised { child, log, grace }
    }

    /// Its pid.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether it has exited (and how).
    pub fn exited(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// The last `n` lines of its log, for failure messages.
    pub fn log_tail(&self, n: usize) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(n)..].join("\n")
    }

    /// Stops it and its whole tree: `-TERM` first (SIGTERM with the grace
    /// period) or `-KILL` at once.
    pub fn stop(&mut self, signal: &str) {
        let tree = process_tree(self.pid());
        if self.exited().is_none() {
            signal_all(&[self.pid()], signal);
            let deadline = Instant::now() + self.grace;
            while self.exited().is_none() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        // Whatever of the tree outlived it (or the grace period).
        let left: Vec<u32> = tree
            .into_iter()
            .filter(|pid| Path::new(&format!("/proc/{pid}")).exists())
            .collect();
        signal_all(&left, "-KILL");
        let _ = self.child.wait();
    }
}

impl Drop for Supervised {
    fn drop(&mut self) {
        self.stop("-TERM");
    }
}

/// A gateway answer: the payload, or the error object (`code`, `message`,
/// `details`).
pub type Answer = Result<Value, Value>;

/// One operator connection (`tests/interop/operator.mjs`): requests go in
/// as JSON lines, answers come back in order.
pub struct Operator {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Its device id (the approvals it requests are bound to it).
    pub device_id: String,
}

impl Operator {
    /// Connects to `url` with `token`, waiting (the script polls a
    /// starting gateway) up to `limit`.
    pub fn connect(install: &Install, url: &str, token: &str, limit: Duration) -> Operator {
        let mut child = Command::new(install.node())
            .arg(interop_script("operator.mjs"))
            .args(["--url", url, "--token", token])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start operator.mjs");
        let stdin = child.stdin.take().expect("operator stdin");
        let stdout = child.stdout.take().expect("operator stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut operator = Operator {
            child,
            stdin,
            lines,
            device_id: String::new(),
        };
        let ready = operator
            .next_line(limit)
            .unwrap_or_else(|why| panic!("the operator did not connect to {url}: {why}"));
        operator.device_id = ready["deviceId"].as_str().unwrap_or_default().to_owned();
        operator
    }

    fn next_line(&mut self, limit: Duration) -> Result<Value, String> {
        match self.lines.recv_timeout(limit) {
            Ok(line) => serde_json::from_str(&line).map_err(|e| format!("bad line {line:?}: {e}")),
            Err(RecvTimeoutError::Timeout) => Err(format!("no answer within {limit:?}")),
            Err(RecvTimeoutError::Disconnected) => Err(format!(
                "operator.mjs exited ({:?})",
                self.child.try_wait().ok().flatten()
            )),
        }
    }

    /// Sends several requests at once (they are in flight together) and
    /// returns their answers in order.
    pub fn requests(&mut self, calls: &[(&str, Value)]) -> Vec<Answer> {
        for (method, params) in calls {
            let line = json!({"method": method, "params": params}).to_string();
            writeln!(self.stdin, "{line}").expect("write to operator.mjs");
        }
        self.stdin.flush().expect("flush operator.mjs");
        calls
            .iter()
            .map(|(method, _)| {
                let answer = self
                    .next_line(REQUEST_LIMIT)
                    .unwrap_or_else(|why| panic!("{method}: {why}"));
                if answer["ok"] == true {
                    Ok(answer["payload"].clone())
                } else {
                    Err(answer["error"].clone())
                }
            })
            .collect()
    }

    /// One request.
    pub fn request(&mut self, method: &str, params: Value) -> Answer {
        self.requests(&[(method, params)]).remove(0)
    }
}

impl Drop for Operator {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A running `openclaw gateway run` on loopback with its own throwaway
/// HOME and state directory, and an operator session to it.
pub struct Gateway {
    install: Install,
    home: tempfile::TempDir,
    /// Its port on 127.0.0.1.
    pub port: u16,
    /// The shared gateway token.
    pub token: String,
    process: Option<Supervised>,
    operator: Option<Operator>,
    starts: u32,
}

impl Gateway {
    /// Starts a gateway on `port` and waits until it accepts connects.
    pub fn start(install: &Install, port: u16) -> Gateway {
        let mut gateway = Gateway {
            install: install.clone(),
            home: tempfile::tempdir().expect("gateway home"),
            port,
            token: format!("interop-{}", crate::unique()),
            process: None,
            operator: None,
            starts: 0,
        };
        gateway.spawn();
        gateway
    }

    /// `ws://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("ws://127.0.0.1:{}", self.port)
    }

    /// The throwaway HOME (its state dir is `state/` inside).
    pub fn home(&self) -> &Path {
        self.home.path()
    }

    /// A command with the gateway's environment (HOME, state dir, Node 24
    /// first on PATH).
    fn node_command(&self) -> Command {
        let mut cmd = Command::new(self.install.node());
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut dirs = vec![
            self.install
                .node()
                .parent()
                .map(Path::to_owned)
                .unwrap_or_default(),
        ];
        dirs.extend(std::env::split_paths(&path));
        cmd.env("HOME", self.home())
            .env("OPENCLAW_STATE_DIR", self.home().join("state"))
            .env("OPENCLAW_GATEWAY_TOKEN", &self.token)
            .env("PATH", std::env::join_paths(dirs).unwrap_or(path))
            .current_dir(self.home());
        cmd
    }

    fn spawn(&mut self) {
        self.starts += 1;
        let mut cmd = self.node_command();
        cmd.arg(self.install.openclaw()).args([
            "gateway",
            "run",
            "--bind",
            "loopback",
            "--port",
            &self.port.to_string(),
            "--auth",
            "token",
            "--token",
            &self.token,
            "--allow-unconfigured",
        ]);
        let log = self.home().join(format!("gateway-{}.log", self.starts));
        self.process = Some(Supervised::spawn(cmd, log, Duration::from_secs(10)));
        // operator.mjs polls until the gateway's startup sidecars are done.
        let operator = Operator::connect(&self.install, &self.url(), &self.token, START_LIMIT);
        self.operator = Some(operator);
    }

    /// Kills the gateway (SIGKILL, whole tree, as a crash would) and starts
    /// it again on the same port and state.
    pub fn restart(&mut self) {
        self.operator = None;
        if let Some(mut process) = self.process.take() {
            process.stop("-KILL");
        }
        self.spawn();
    }

    /// The last lines of the gateway's log, for failure messages.
    pub fn log_tail(&self) -> String {
        self.process
            .as_ref()
            .map(|p| p.log_tail(40))
            .unwrap_or_default()
    }

    /// The operator session.
    pub fn operator(&mut self) -> &mut Operator {
        self.operator.as_mut().expect("the gateway is running")
    }

    /// `openclaw ARGS --url … --token … --json` as the gateway's operator:
    /// the JSON it prints, or its error.
    pub fn cli(&self, args: &[&str]) -> Answer {
        let out = self
            .node_command()
            .arg(self.install.openclaw())
            .args(args)
            .args(["--url", &self.url(), "--token", &self.token, "--json"])
            .stdin(Stdio::null())
            .output()
            .expect("run the openclaw CLI");
        let printed: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
            json!({"message": String::from_utf8_lossy(&out.stdout), "stderr": String::from_utf8_lossy(&out.stderr)})
        });
        if out.status.success() {
            Ok(printed)
        } else {
            Err(printed.get("error").cloned().unwrap_or(printed))
        }
    }

    /// `openclaw gateway call METHOD --params JSON`.
    pub fn call(&self, method: &str, params: Value) -> Answer {
        self.cli(&[
            "gateway",
            "call",
            method,
            "--timeout",
            "30000",
            "--params",
            &params.to_string(),
        ])
    }

    /// Approves the pending command-surface request of node `node_id`
    /// (`openclaw nodes pending` polled until it appears, then `nodes
    /// approve`).
    pub fn approve_node(&self, node_id: &str) {
        let deadline = Instant::now() + START_LIMIT;
        let request_id = loop {
            let pending = self.cli(&["nodes", "pending"]).unwrap_or(Value::Null);
            let found = pending.as_array().and_then(|list| {
                list.iter()
                    .find(|r| r["nodeId"] == node_id)
                    .and_then(|r| r["requestId"].as_str().map(str::to_owned))
            });
            if let Some(id) = found {
                break id;
            }
            assert!(
                Instant::now() < deadline,
                "node {node_id} never asked to pair; gateway log:\n{}",
                self.log_tail()
            );
            std::thread::sleep(Duration::from_millis(200));
        };
        if let Err(e) = self.cli(&["nodes", "approve", &request_id]) {
            panic!("approving node {node_id} failed: {e}");
        }
    }

    /// Polls `openclaw nodes list` until node `node_id` is paired and
    /// connected.
    pub fn wait_connected(&self, node_id: &str, limit: Duration) {
        let deadline = Instant::now() + limit;
        loop {
            let list = self.cli(&["nodes", "list"]).unwrap_or(Value::Null);
            let connected = list["paired"].as_array().is_some_and(|nodes| {
                nodes
                    .iter()
                    .any(|n| n["nodeId"] == node_id && n["connected"] == true)
            });
            if connected {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "node {node_id} did not (re)connect within {limit:?}: {list}\ngateway log:\n{}",
                self.log_tail()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// `node.invoke COMMAND` on node `node_id` through the operator
    /// session, with a fresh idempotency key.
    pub fn invoke(&mut self, node_id: &str, command: &str, params: Value) -> Answer {
        let call = invoke_call(node_id, command, params);
        self.operator().request("node.invoke", call)
    }
}

/// The params of one `node.invoke` (a fresh idempotency key each).
pub fn invoke_call(node_id: &str, command: &str, params: Value) -> Value {
    json!({
        "nodeId": node_id,
        "command": command,
        "params": params,
        "timeoutMs": 30_000,
        "idempotencyKey": format!("interop-{}", crate::unique()),
    })
}

impl Drop for Gateway {
    fn drop(&mut self) {
        // Stop the processes before the temp home they use is removed.
        self.operator = None;
        if let Some(mut process) = self.process.take() {
            process.stop("-TERM");
        }
    }
}
