//! Helpers shared by the end-to-end suites: the real `node-host` and
//! `ui-bridge` binaries, built once per test process, and private temp homes
//! so no test touches the user's own `~/.clawdbot`.

pub mod baseline;
pub mod gateway;
pub mod screen;
pub mod wire_tap;

/// The binaries' exit statuses as `ExitStatus::code` reports them, taken
/// from their shared table (`ui_bridge::exit::Exit`), so a suite names the
/// outcome it expects rather than a number.
pub mod status {
    use ui_bridge::exit::Exit;

    /// A bad flag or value.
    pub const USAGE: i32 = Exit::Usage.code() as i32;
    /// A file that is missing, unreadable, malformed, unsafe or broken.
    pub const FILE_ERROR: i32 = Exit::FileError.code() as i32;
    /// Refused by the policy, a person, the approvals file or the bridge.
    pub const REFUSED: i32 = Exit::Refused.code() as i32;
    /// No bridge answers, it went away, or it refused our token.
    pub const UNREACHABLE: i32 = Exit::Unreachable.code() as i32;
    /// The command ran out of time.
    pub const TIMED_OUT: i32 = Exit::TimedOut.code() as i32;
    /// The command was not found or could not be started.
    pub const NOT_FOUND: i32 = Exit::NotFound.code() as i32;
}

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The workspace root (this crate lives in `tests/`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_owned)
        .unwrap_or_else(|| PathBuf::from(".."))
}

/// The directory holding the binaries of the profile the tests were built
/// with (`target/debug` or `target/release`).
fn bin_dir() -> PathBuf {
    // The test executable lives in target/<profile>/deps/.
    let exe = std::env::current_exe().expect("test executable path");
    exe.parent()
        .and_then(Path::parent)
        .map(Path::to_owned)
        .expect("target/<profile> directory")
}

/// Builds the workspace binaries once per test process, so a test never
/// runs a stale binary.
fn build_binaries() -> &'static PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = bin_dir();
        let release = dir.file_name().is_some_and(|n| n == "release");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut cmd = Command::new(cargo);
        cmd.current_dir(workspace_root()).args([
            "build",
            "--quiet",
            "--bins",
            "-p",
            "node-host",
            "-p",
            "ui-bridge",
        ]);
        if release {
            cmd.arg("--release");
        }
        let status = cmd.status().expect("run cargo build");
        assert!(status.success(), "cargo build of the binaries failed");
        dir
    })
}

/// The path of a workspace binary (`node-host` or `ui-bridge`).
pub fn bin(name: &str) -> PathBuf {
    build_binaries().join(name)
}

/// A private home: a temp dir used as `HOME` and `CLAWDBOT_STATE_DIR`.
pub struct TestHome {
    dir: tempfile::TempDir,
}

impl TestHome {
    /// Creates an empty home.
    pub fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("temp home"),
        }
    }

    /// The home directory.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The state directory (`~/.clawdbot`).
    pub fn state_dir(&self) -> PathBuf {
        self.dir.path().join(".clawdbot")
    }

    /// The approvals file path.
    pub fn approvals(&self) -> PathBuf {
        self.state_dir().join("exec-approvals.json")
    }

    /// The approvals file as JSON, as it is on disk now.
    pub fn read_approvals(&self) -> serde_json::Value {
        let bytes = std::fs::read(self.approvals()).expect("read the approvals file");
        serde_json::from_slice(&bytes).expect("the approvals file is JSON")
    }

    /// Writes the approvals file (0700 dir, 0600 file).
    pub fn write_approvals(&self, json: &serde_json::Value) {
        use std::os::unix::fs::PermissionsExt;
        let dir = self.state_dir();
        std::fs::create_dir_all(&dir).expect("state dir");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).expect("chmod");
        let text = serde_json::to_string_pretty(json).expect("json");
        std::fs::write(self.approvals(), text + "\n").expect("write approvals");
        std::fs::set_permissions(self.approvals(), std::fs::Permissions::from_mode(0o600))
            .expect("chmod");
    }

    /// A command for a workspace binary with this home's environment.
    pub fn command(&self, name: &str) -> Command {
        let mut cmd = Command::new(bin(name));
        cmd.env("HOME", self.path())
            .env("CLAWDBOT_STATE_DIR", self.state_dir())
            .env_remove("RUST_LOG")
            .current_dir(self.path());
        cmd
    }

    /// `node-host explain --json ARGS` in this home, which must exit 0: the
    /// decision as JSON, for tests that check what the policy says.
    pub fn explain(&self, args: &[&str]) -> serde_json::Value {
        let out = output(
            self.command("node-host")
                .arg("explain")
                .arg("--json")
                .args(args),
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "explain {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("explain --json prints one JSON object")
    }

    /// `node-host explain ARGS --batch FILE` in this home over `cases`, one
    /// JSON line each, which must exit 0: its output lines. `configure`
    /// adds to the command (an environment, `--cwd`).
    pub fn explain_batch(
        &self,
        cases: &[serde_json::Value],
        configure: impl FnOnce(&mut Command),
    ) -> Vec<serde_json::Value> {
        let input: String = cases.iter().map(|c| format!("{c}\n")).collect();
        let batch = self.path().join("cases.jsonl");
        std::fs::write(&batch, input).expect("write batch");
        let mut cmd = self.command("node-host");
        cmd.arg("explain");
        configure(&mut cmd);
        let out = output(cmd.arg("--batch").arg(&batch));
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).expect("json line"))
            .collect()
    }

    /// The decision for each shell line in `cwd` under an allowlist as
    /// broad as a user's `/usr/bin/*`: every word of the lines that could
    /// name a program (and `[`) is a stand-in executable in this home's
    /// `bin/`, the only directory on `PATH` and in the allowlist, so a
    /// decision depends on names and arguments, never on what the host has
    /// installed. Shared by the red-team and everyday corpora.
    pub fn broad_allowlist_decisions(&self, shells: &[&str], cwd: &Path) -> Vec<serde_json::Value> {
        use std::os::unix::fs::PermissionsExt;
        let bin = self.path().join("bin");
        std::fs::create_dir_all(&bin).expect("bin");
        let words: std::collections::BTreeSet<&str> = shells
            .iter()
            .flat_map(|s| s.split(|ch: char| ch.is_whitespace() || ch == '\'' || ch == '"'))
            .filter(|w| {
                *w == "["
                    || (w.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
                        && w.chars()
                            .all(|c| c.is_ascii_alphanumeric() || "._+-".contains(c)))
            })
            .collect();
        for word in words {
            let file = bin.join(word);
            std::fs::write(&file, "#!/bin/sh\nexit 0\n").expect("stand-in");
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        }
        self.write_approvals(&serde_json::json!({
            "version": 1,
            "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"},
            "agents": {"*": {"allowlist": [{"pattern": format!("{}/*", bin.display())}]}}
        }));
        let cases: Vec<serde_json::Value> = shells
            .iter()
            .map(|s| serde_json::json!({ "shell": s }))
            .collect();
        self.explain_batch(&cases, |cmd| {
            cmd.env("PATH", &bin).arg("--cwd").arg(cwd);
        })
    }
}

impl Default for TestHome {
    fn default() -> Self {
        Self::new()
    }
}

/// Runs a command and returns its output, panicking with context if it
/// cannot be started.
pub fn output(cmd: &mut Command) -> Output {
    cmd.output().expect("run command")
}

/// Waits for `child` for at most `limit`, so a broken answer fails the
/// test instead of hanging it.
pub fn finish_within(child: std::process::Child, limit: std::time::Duration) -> Output {
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("process {pid} did not finish"))
        .expect("wait")
}

/// The real path of a program on this host's `PATH` (symlinks resolved),
/// as allowlist entries must name it.
pub fn real_path(name: &str) -> String {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
        .and_then(|p| std::fs::canonicalize(p).ok())
        .unwrap_or_else(|| panic!("{name} must be installed"))
        .to_string_lossy()
        .into_owned()
}

/// The approval timeout the test bridges use unless a test sets its own.
pub const TEST_APPROVAL_TIMEOUT_MS: &str = "1500";

/// A running `ui-bridge serve`, killed (SIGKILL) when dropped.
pub struct Bridge {
    child: std::process::Child,
    /// The socket it serves.
    pub socket: PathBuf,
    /// The token from its approvals file.
    pub token: String,
    log: PathBuf,
}

impl Bridge {
    /// Starts `ui-bridge serve` in `home` with extra arguments and waits until its socket accepts.
    pub fn start(home: &TestHome, args: &[&str]) -> Bridge {
        Self::spawn(home.command("ui-bridge"), home, args)
    }

    /// Starts the bridge from a prepared command (e.g. with extra
    /// environment); `home` supplies the default socket path and log file.
    pub fn spawn(mut cmd: Command, home: &TestHome, args: &[&str]) -> Bridge {
        let socket = args
            .iter()
            .position(|a| *a == "--socket")
            .and_then(|i| args.get(i + 1))
            .map(PathBuf::from)
            .unwrap_or_else(|| home.state_dir().join("exec-approvals.sock"));
        let log = home.path().join(format!("bridge-{}.log", unique()));
        let log_file = std::fs::File::create(&log).expect("bridge log");
        cmd.arg("serve").args(args);
        if !args.contains(&"--approval-timeout-ms") {
            // A headless bridge waits for `ui-bridge approvals resolve` until
            // the approval timeout (120 s by default) before askFallback
            // decides; tests that do not answer must not wait that long.
            cmd.args(["--approval-timeout-ms", TEST_APPROVAL_TIMEOUT_MS]);
        }
        let child = cmd
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(log_file)
            .spawn()
            .expect("spawn ui-bridge");
        let mut bridge = Bridge {
            child,
            socket,
            token: String::new(),
            log,
        };
        bridge.wait_ready();
        let approvals = args
            .iter()
            .position(|a| *a == "--approvals")
            .and_then(|i| args.get(i + 1))
            .map(PathBuf::from)
            .unwrap_or_else(|| home.approvals());
        bridge.token = read_token(&approvals);
        bridge
    }

    fn wait_ready(&mut self) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            if std::os::unix::net::UnixStream::connect(&self.socket).is_ok() {
                return;
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("ui-bridge exited early ({status}): {}", self.log_text());
            }
            assert!(
                std::time::Instant::now() < deadline,
                "ui-bridge did not accept on {} in time: {}",
                self.socket.display(),
                self.log_text()
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// The bridge's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// What the bridge wrote to stderr so far.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Sends `signal` (e.g. `-TERM`, `-KILL`) to the bridge.
    pub fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .arg(signal)
            .arg(self.pid().to_string())
            .status()
            .expect("run kill");
        assert!(status.success(), "kill {signal} failed");
    }

    /// Waits up to `limit` for the bridge to exit and returns its status.
    pub fn wait_exit(&mut self, limit: std::time::Duration) -> std::process::ExitStatus {
        let deadline = std::time::Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for ui-bridge") {
                return status;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "ui-bridge did not exit within {limit:?}: {}",
                self.log_text()
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

impl Drop for Bridge {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The socket token of an approvals file.
/// The allowlist patterns of `agent` in an approvals file, in file order.
pub fn allowlist_patterns(file: &serde_json::Value, agent: &str) -> Vec<String> {
    file["agents"][agent]["allowlist"]
        .as_array()
        .map(|entries| {
            entries
                .iter()
                .filter_map(|e| e["pattern"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

pub fn read_token(approvals: &Path) -> String {
    let text = std::fs::read_to_string(approvals).expect("read approvals file");
    let value: serde_json::Value = serde_json::from_str(&text).expect("approvals json");
    value["socket"]["token"]
        .as_str()
        .expect("socket.token in the approvals file")
        .to_owned()
}

/// A string unique within this test run, for markers and file names.
pub fn unique() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}
