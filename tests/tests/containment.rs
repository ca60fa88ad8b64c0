//! Issue 9, hole 5: a run's processes die with the run, including those
//! that left its session (`setsid`) or double-forked away from it; on
//! timeout, cancel, normal completion and bridge shutdown; through both
//! exec hosts (`node-host run --exec-host bridge` and `--exec-host local`)
//! and under both Linux mechanisms (`EXEC_APPROVALS_CONTAINMENT=subreaper`
//! and `cgroup`). Also the approver hook's leftovers, and a mode we do not
//! know, which refuses every run.
//!
//! Each command starts two escapees that write their pid to a file and
//! sleep: one `setsid` child of the command's shell, and one `setsid`
//! grandchild orphaned at once by a double fork. The test then ends the
//! run its way and polls `/proc/PID` (a zombie counts as gone) with a
//! generous deadline.
//!
//! The cgroup cases are skipped, with a printed reason, where no writable
//! cgroup v2 is at hand.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use approvals_tests::screen::{Screen, tmux_available};
use approvals_tests::{Bridge, TestHome};
use serde_json::json;

/// How long an escapee may take to appear, and to be gone.
const DEADLINE: Duration = Duration::from_secs(30);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Subreaper,
    Cgroup,
}

impl Mode {
    fn value(self) -> &'static str {
        match self {
            Mode::Subreaper => "subreaper",
            Mode::Cgroup => "cgroup",
        }
    }

    /// Whether this mode can run here; prints why not.
    fn available(self) -> bool {
        if self == Mode::Cgroup
            && let Err(why) = writable_cgroup()
        {
            eprintln!("skipping: no writable cgroup v2 ({why})");
            return false;
        }
        true
    }
}

/// Checks, as the bridge will, that a child cgroup can be made below ours.
fn writable_cgroup() -> Result<(), String> {
    let membership = std::fs::read_to_string("/proc/self/cgroup").map_err(|e| e.to_string())?;
    let own = membership
        .lines()
        .find_map(|line| line.strip_prefix("0::"))
        .ok_or("no 0:: line in /proc/self/cgroup")?;
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").map_err(|e| e.to_string())?;
    let mount = mounts
        .lines()
        .find_map(|line| {
            let (fields, after) = line.split_once(" - ")?;
            (after.split_whitespace().next()? == "cgroup2")
                .then(|| fields.split_whitespace().nth(4).map(str::to_owned))?
        })
        .ok_or("no cgroup2 mount")?;
    let probe = Path::new(&mount)
        .join(own.trim_start_matches('/'))
        .join(format!("containment-test-{}", std::process::id()));
    std::fs::create_dir(&probe).map_err(|e| format!("{}: {e}", probe.display()))?;
    std::fs::remove_dir(&probe).map_err(|e| e.to_string())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Host {
    Bridge,
    Local,
}

/// How the test ends the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    Timeout,
    Cancel,
    Completion,
    Shutdown,
}

/// `security: full`: every command runs unasked.
fn full(home: &TestHome) {
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "full", "ask": "off", "askFallback": "deny"}
    }));
}

/// Shell text that starts two escapees writing their pids to `a` and `b`,
/// waits until both wrote, then runs `tail`.
fn escaping_script(a: &Path, b: &Path, tail: &str) -> String {
    format!(
        "setsid sh -c 'echo $$ > {a}; exec sleep 300' & \
         (setsid sh -c 'echo $$ > {b}; exec sleep 300' &); \
         while [ ! -s {a} ] || [ ! -s {b} ]; do sleep 0.05; done; {tail}",
        a = a.display(),
        b = b.display(),
    )
}

/// The pids the escapees wrote; kills them on drop, so a failing test
/// leaves nothing behind.
struct Escapees(Vec<i32>);

impl Escapees {
    /// Waits for both pid files.
    fn read(files: &[&Path]) -> Self {
        let deadline = Instant::now() + DEADLINE;
        let mut pids = Vec::new();
        for file in files {
            loop {
                let text = std::fs::read_to_string(file).unwrap_or_default();
                if let Ok(pid) = text.trim().parse::<i32>() {
                    pids.push(pid);
                    break;
                }
                assert!(
                    Instant::now() < deadline,
                    "no pid in {} in time",
                    file.display()
                );
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        Self(pids)
    }

    /// Asserts that every escapee is gone within the deadline.
    fn assert_gone(&self, context: &str) {
        let deadline = Instant::now() + DEADLINE;
        for &pid in &self.0 {
            while alive(pid) {
                assert!(
                    Instant::now() < deadline,
                    "pid {pid} outlived its run ({context})"
                );
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
}

impl Drop for Escapees {
    fn drop(&mut self) {
        for &pid in &self.0 {
            if alive(pid) {
                let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            }
        }
    }
}

/// Whether `pid` runs (a zombie has exited and counts as gone).
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

/// `node-host run` of `script` through `host`, in the background.
fn start_run(
    home: &TestHome,
    host: Host,
    mode: Mode,
    script: &str,
    timeout_ms: Option<u64>,
) -> Child {
    let mut cmd = home.command("node-host");
    cmd.env("EXEC_APPROVALS_CONTAINMENT", mode.value())
        .args(["run", "--exec-host"])
        .arg(match host {
            Host::Bridge => "bridge",
            Host::Local => "local",
        });
    if let Some(ms) = timeout_ms {
        cmd.args(["--timeout-ms", &ms.to_string()]);
    }
    cmd.args(["--", "/bin/sh", "-c", script])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start node-host")
}

fn bridge(home: &TestHome, mode: Mode) -> Bridge {
    let mut cmd = home.command("ui-bridge");
    cmd.env("EXEC_APPROVALS_CONTAINMENT", mode.value());
    Bridge::spawn(cmd, home, &[])
}

/// Runs the escaping command through `host` under `mode`, ends it by
/// `ending`, and checks that both escapees are gone.
fn escapees_die_with_their_run(host: Host, mode: Mode, ending: Ending) {
    if !mode.available() {
        return;
    }
    let home = TestHome::new();
    full(&home);
    let mut bridge = (host == Host::Bridge).then(|| bridge(&home, mode));
    let (a, b) = (home.path().join("a.pid"), home.path().join("b.pid"));
    let (tail, timeout) = match ending {
        Ending::Timeout => ("sleep 100", Some(3000)),
        Ending::Cancel | Ending::Shutdown => ("sleep 100", None),
        Ending::Completion => ("echo finished", None),
    };
    let client = start_run(&home, host, mode, &escaping_script(&a, &b, tail), timeout);
    let escapees = Escapees::read(&[&a, &b]);
    match ending {
        Ending::Timeout | Ending::Completion => {}
        Ending::Cancel => {
            // The bridge sees its client hang up; a local host gets the
            // signal a terminal or a supervisor would send.
            let signal = if host == Host::Bridge {
                "-KILL"
            } else {
                "-TERM"
            };
            let status = Command::new("kill")
                .args([signal, &client.id().to_string()])
                .status()
                .expect("kill");
            assert!(status.success());
        }
        Ending::Shutdown => {
            let bridge = bridge.as_mut().expect("shutdown needs a bridge");
            bridge.signal("-TERM");
            let status = bridge.wait_exit(DEADLINE);
            assert_eq!(status.code(), Some(0), "{}", bridge.log_text());
        }
    }
    let out = client.wait_with_output().expect("wait for node-host");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    match ending {
        Ending::Timeout => assert_eq!(out.status.code(), Some(124), "{stdout}{stderr}"),
        Ending::Completion => {
            assert_eq!(
                (out.status.code(), stdout.trim()),
                (Some(0), "finished"),
                "{stderr}"
            )
        }
        Ending::Cancel | Ending::Shutdown => {}
    }
    escapees.assert_gone(&format!("{host:?}, {mode:?}, {ending:?}"));
    drop(bridge);
}

macro_rules! escape_cases {
    ($($name:ident: $host:ident, $mode:ident, $ending:ident;)*) => {$(
        #[test]
        fn $name() {
            escapees_die_with_their_run(Host::$host, Mode::$mode, Ending::$ending);
        }
    )*};
}

escape_cases! {
    bridge_subreaper_kills_escapees_on_timeout: Bridge, Subreaper, Timeout;
    bridge_subreaper_kills_escapees_on_cancel: Bridge, Subreaper, Cancel;
    bridge_subreaper_kills_escapees_on_completion: Bridge, Subreaper, Completion;
    bridge_subreaper_kills_escapees_on_shutdown: Bridge, Subreaper, Shutdown;
    bridge_cgroup_kills_escapees_on_timeout: Bridge, Cgroup, Timeout;
    bridge_cgroup_kills_escapees_on_cancel: Bridge, Cgroup, Cancel;
    bridge_cgroup_kills_escapees_on_completion: Bridge, Cgroup, Completion;
    bridge_cgroup_kills_escapees_on_shutdown: Bridge, Cgroup, Shutdown;
    local_subreaper_kills_escapees_on_timeout: Local, Subreaper, Timeout;
    local_subreaper_kills_escapees_on_cancel: Local, Subreaper, Cancel;
    local_subreaper_kills_escapees_on_completion: Local, Subreaper, Completion;
    local_cgroup_kills_escapees_on_timeout: Local, Cgroup, Timeout;
    local_cgroup_kills_escapees_on_cancel: Local, Cgroup, Cancel;
    local_cgroup_kills_escapees_on_completion: Local, Cgroup, Completion;
}

/// A hook that leaves a `setsid` grandchild behind: it dies when the hook
/// ends, under both mechanisms.
fn hook_escapee_dies_with_the_hook(mode: Mode) {
    if !mode.available() {
        return;
    }
    let home = TestHome::new();
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"}
    }));
    let pidfile = home.path().join("hook.pid");
    let hook = format!(
        "setsid sh -c 'echo $$ > {p}; exec sleep 300' >/dev/null 2>&1 & \
         while [ ! -s {p} ]; do sleep 0.05; done; echo deny",
        p = pidfile.display()
    );
    let mut cmd = home.command("ui-bridge");
    cmd.env("EXEC_APPROVALS_CONTAINMENT", mode.value());
    let _bridge = Bridge::spawn(
        cmd,
        &home,
        &[
            "--approver-command",
            &hook,
            "--approval-timeout-ms",
            "60000",
        ],
    );
    let out = home
        .command("node-host")
        .args(["run", "--exec-host", "bridge", "--", "printf", "x"])
        .stdin(Stdio::null())
        .output()
        .expect("node-host");
    assert_eq!(
        out.status.code(),
        Some(126),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Escapees::read(&[&pidfile]).assert_gone(&format!("hook, {mode:?}"));
}

#[test]
fn a_hooks_setsid_escapee_dies_with_the_hook_under_the_subreaper() {
    hook_escapee_dies_with_the_hook(Mode::Subreaper);
}

#[test]
fn a_hooks_setsid_escapee_dies_with_the_hook_under_a_cgroup() {
    hook_escapee_dies_with_the_hook(Mode::Cgroup);
}

/// A mode we do not know fails closed: nothing runs, and the message names
/// the variable and the fix; through both hosts.
#[test]
fn an_unknown_containment_mode_refuses_every_run() {
    let home = TestHome::new();
    full(&home);
    let mut cmd = home.command("ui-bridge");
    cmd.env("EXEC_APPROVALS_CONTAINMENT", "none");
    let _bridge = Bridge::spawn(cmd, &home, &[]);
    for host in ["bridge", "local"] {
        let marker: PathBuf = home.path().join(format!("ran-{host}"));
        let out = home
            .command("node-host")
            .env("EXEC_APPROVALS_CONTAINMENT", "none")
            .args(["run", "--exec-host", host, "--", "touch"])
            .arg(&marker)
            .stdin(Stdio::null())
            .output()
            .expect("node-host");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{host}: {stderr}");
        assert!(
            stderr.contains("EXEC_APPROVALS_CONTAINMENT") && stderr.contains("hint: use auto"),
            "{host}: {stderr}"
        );
        assert!(!marker.exists(), "{host}: the command ran uncontained");
    }
}

// Issue 9, hole 6 (the commands' half): a command, or the approver hook, of
// a bridge serving in a terminal has no controlling terminal, so it cannot
// open `/dev/tty` to paint a fake prompt, nor `TIOCSTI` a key into the
// pane to answer another approval. Driven in a real pseudo-terminal (tmux);
// skipped, with a printed reason, without tmux or python3.

/// The line the terminal approver shows once keys answer.
const KEYS_LINE: &str = "[o] allow once";

/// The real path of python3, outside any version manager's shims (the
/// test home hides their configuration); `None` when there is none.
fn python3() -> Option<PathBuf> {
    let out = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    if path.is_file() {
        Some(path)
    } else {
        eprintln!("skipping: python3 is not installed (needed for TIOCSTI)");
        None
    }
}

/// What the attacking command tries, printed as `WHAT:RESULT` words:
/// open `/dev/tty` and type `o` into it, then type `o` into the pane's
/// device by path. A result is `ok` or an errno number.
const INJECT: &str = r#"
import errno, fcntl, os, sys, termios
def attempt(name, path):
    try:
        fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
    except OSError as e:
        return f"{name}-open:{e.errno}"
    try:
        os.write(fd, b"\r\n[o] allow once  (painted by a command)\r\n")
        fcntl.ioctl(fd, termios.TIOCSTI, b"o")
        return f"{name}:ok"
    except OSError as e:
        return f"{name}:{e.errno}"
print(attempt("tty", "/dev/tty"), attempt("pts", sys.argv[1]))
"#;

/// A command that an unprivileged agent may run while an approval waits on
/// the bridge's terminal cannot answer it: `/dev/tty` does not open
/// (ENXIO), and `TIOCSTI` into the pane by path is refused (EPERM) since
/// the pane is not its controlling terminal. A root command keeps
/// `CAP_SYS_ADMIN`, which allows `TIOCSTI` anywhere; the attacker here
/// drops it (`setpriv`) to stand for an ordinary user's command.
#[test]
fn a_command_cannot_type_into_or_paint_over_the_bridges_terminal() {
    let Some(python) = python3() else {
        return;
    };
    let home = TestHome::new();
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"},
        "agents": {"attacker": {"security": "full", "ask": "off"}}
    }));
    let Some(pane) = tmux_available().then(|| Screen::start_bridge(&home, "")) else {
        return;
    };
    let marker = home.path().join("approved-by-injection");
    let pending = home
        .command("node-host")
        .args(["run", "--exec-host", "bridge", "--", "touch"])
        .arg(&marker)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node-host");
    pane.wait_for(&[KEYS_LINE]);
    let attack = home
        .command("node-host")
        .args(["run", "--exec-host", "bridge", "--agent", "attacker", "--"])
        .args(["setpriv", "--bounding-set", "-sys_admin"])
        .arg(&python)
        .args(["-c", INJECT, &pane.tty()])
        .stdin(Stdio::null())
        .output()
        .expect("node-host");
    let report = String::from_utf8_lossy(&attack.stdout).trim().to_owned();
    assert_eq!(
        report,
        format!("tty-open:{} pts:{}", libc_errno::ENXIO, libc_errno::EPERM),
        "{}",
        String::from_utf8_lossy(&attack.stderr)
    );
    // Only a real key decides: the injected `o`, had it landed, would have
    // been read before this `d`.
    pane.press("d");
    let out = pending.wait_with_output().expect("node-host");
    assert_eq!(
        out.status.code(),
        Some(126),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!marker.exists(), "an injected key approved the command");
}

/// A hook of a bridge serving in a terminal has no terminal either.
#[test]
fn the_approver_hook_has_no_controlling_terminal() {
    let home = TestHome::new();
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"}
    }));
    let seen = home.path().join("hook-tty");
    let hook = format!(
        "if (: <>/dev/tty) 2>/dev/null; then echo tty; else echo none; fi > {}; echo deny",
        seen.display()
    );
    let quoted = format!("--approver-command \"{hook}\"");
    let Some(_pane) = tmux_available().then(|| Screen::start_bridge(&home, &quoted)) else {
        return;
    };
    let out = home
        .command("node-host")
        .args(["run", "--exec-host", "bridge", "--", "printf", "x"])
        .stdin(Stdio::null())
        .output()
        .expect("node-host");
    assert_eq!(out.status.code(), Some(126));
    let seen = std::fs::read_to_string(&seen).expect("the hook ran");
    assert_eq!(seen.trim(), "none");
}

/// The errno values the terminal test expects, as Linux numbers them.
mod libc_errno {
    /// No such device or address: `/dev/tty` without a controlling terminal.
    pub const ENXIO: i32 = 6;
    /// Operation not permitted: `TIOCSTI` on a terminal not one's own.
    pub const EPERM: i32 = 1;
}
