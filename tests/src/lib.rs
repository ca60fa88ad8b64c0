//! Helpers shared by the end-to-end suites: the real `node-host` and
//! `ui-bridge` binaries, built once per test process, and private temp homes
//! so no test touches the user's own `~/.clawdbot`.

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
