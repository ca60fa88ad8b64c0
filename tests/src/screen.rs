//! A real pseudo-terminal for end-to-end tests: a program of the workspace
//! running in a tmux pane of its own tmux server, keys typed as a person
//! would type them, and the screen read back.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{TestHome, bin, output, unique};

/// How long the screen may take to show what a test waits for.
pub const SCREEN_WAIT: Duration = Duration::from_secs(20);

/// Whether tmux can be run; prints why a test is skipped when it cannot.
pub fn tmux_available() -> bool {
    let found = Command::new("tmux")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        eprintln!("skipping: tmux is not installed (needed for a real pseudo-terminal)");
    }
    found
}

/// A workspace binary running in a tmux pane (200x50 unless sized); the
/// tmux server is killed when this is dropped.
pub struct Screen {
    socket: String,
}

impl Screen {
    /// Runs `binary ARGS` of `home` in a pane; once it exits, the pane
    /// shows `NAME-exited=STATUS` and whether the terminal is back in line
    /// mode (`icanon`, not `-icanon`).
    pub fn spawn(home: &TestHome, name: &str, args: &str) -> Self {
        Self::spawn_sized(home, name, args, (200, 50))
    }

    /// As [`Screen::spawn`], in a pane of `(columns, rows)`.
    pub fn spawn_sized(home: &TestHome, name: &str, args: &str, size: (u16, u16)) -> Self {
        let screen = Screen {
            socket: format!("approvals-e2e-{}", unique()),
        };
        let script = format!(
            "cd '{home}' && env HOME='{home}' CLAWDBOT_STATE_DIR='{state}' '{binary}' {args}; \
             echo {name}-exited=$?; stty -a | grep -o -- '-*icanon'; sleep 600",
            home = home.path().display(),
            state = home.state_dir().display(),
            binary = bin(name).display(),
        );
        let status = screen
            .tmux()
            .args([
                "new-session",
                "-d",
                "-x",
                &size.0.to_string(),
                "-y",
                &size.1.to_string(),
                &script,
            ])
            .status()
            .expect("start tmux");
        assert!(status.success(), "tmux new-session failed");
        screen
    }

    /// Starts `ui-bridge serve ARGS` of `home` in a pane and waits for its
    /// socket.
    pub fn start_bridge(home: &TestHome, args: &str) -> Self {
        Self::start_bridge_sized(home, args, (200, 50))
    }

    /// As [`Screen::start_bridge`], in a pane of `(columns, rows)`.
    pub fn start_bridge_sized(home: &TestHome, args: &str, size: (u16, u16)) -> Self {
        let screen = Screen::spawn_sized(home, "ui-bridge", &format!("serve {args}"), size);
        let path = home.state_dir().join("exec-approvals.sock");
        let deadline = Instant::now() + SCREEN_WAIT;
        while std::os::unix::net::UnixStream::connect(&path).is_err() {
            assert!(
                Instant::now() < deadline,
                "ui-bridge did not start:\n{}",
                screen.capture()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        screen
    }

    /// A tmux command aimed at this pane's server, not the caller's.
    pub fn tmux(&self) -> Command {
        let mut cmd = Command::new("tmux");
        cmd.args(["-L", &self.socket]).env_remove("TMUX");
        cmd
    }

    /// What the pane shows now, wrapped lines joined.
    pub fn capture(&self) -> String {
        let out = output(self.tmux().args(["capture-pane", "-p", "-J"]));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Resizes the pane's window to `(columns, rows)`, as a person
    /// dragging the terminal's corner would (the program gets SIGWINCH).
    pub fn resize(&self, size: (u16, u16)) {
        let status = self
            .tmux()
            .args([
                "resize-window",
                "-x",
                &size.0.to_string(),
                "-y",
                &size.1.to_string(),
            ])
            .status()
            .expect("tmux resize-window");
        assert!(status.success(), "tmux resize-window failed");
    }

    /// The pane's terminal device (`/dev/pts/N`), for attacks on it.
    pub fn tty(&self) -> String {
        let out = output(self.tmux().args(["display", "-p", "#{pane_tty}"]));
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    /// Waits until the pane shows every needle; returns the pane.
    pub fn wait_for(&self, needles: &[&str]) -> String {
        let deadline = Instant::now() + SCREEN_WAIT;
        loop {
            let pane = self.capture();
            if needles.iter().all(|n| pane.contains(n)) {
                return pane;
            }
            assert!(
                Instant::now() < deadline,
                "the screen never showed {needles:?}:\n{pane}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Types keys as a person would (tmux key names: `o`, `C-c`).
    pub fn press(&self, key: &str) {
        let status = self
            .tmux()
            .args(["send-keys", key])
            .status()
            .expect("tmux send-keys");
        assert!(status.success());
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = self
            .tmux()
            .arg("kill-server")
            .stderr(Stdio::null())
            .status();
    }
}
