//! The companion page (`ui-bridge serve --web`) end to end: a real bridge in
//! a private home, real `node-host run` requests waiting for a person, and
//! real HTTP.
//!
//! The refusal tests speak HTTP over a plain TCP socket, so they need
//! nothing but the binaries. The browser tests drive the page in Debian's
//! chromium through `playwright-core` (tests/web/drive.mjs; `.ci/run`
//! installs both, with no browser download) and save a screenshot per step
//! under `target/tmp/web-ui/<test>/`. Without chromium, node or
//! tests/web/node_modules they print a SKIP line, and fail instead when
//! `CI=true`. The terminal test also runs the bridge in a tmux pane
//! (`approvals_tests::screen`, as the terminal suite does) and is skipped
//! without tmux.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use approvals_tests::screen::{Screen, tmux_available};
use approvals_tests::{Bridge, TestHome, bin, finish_within, workspace_root};
use serde_json::{Value, json};

/// A bridge with the page on a free loopback port whose policy asks about
/// everything (an answer has 60 s).
struct WebBridge {
    home: TestHome,
    bridge: Bridge,
    /// The login URL the bridge printed.
    url: String,
}

impl WebBridge {
    fn start() -> WebBridge {
        let home = TestHome::new();
        let bridge = Bridge::start(&home, &["--web", "--approval-timeout-ms", "60000"]);
        let mut file = home.read_approvals();
        file["defaults"] =
            json!({"security": "allowlist", "ask": "on-miss", "askFallback": "deny"});
        file["agents"] = json!({"main": {"allowlist": []}});
        home.write_approvals(&file);
        let url = login_url(&bridge);
        WebBridge { home, bridge, url }
    }

    /// `127.0.0.1:PORT`.
    fn addr(&self) -> String {
        let rest = self.url.trim_start_matches("http://");
        rest.split('/').next().unwrap_or_default().to_owned()
    }

    fn secret(&self) -> String {
        self.url
            .split_once("secret=")
            .map(|(_, s)| s.to_owned())
            .unwrap_or_default()
    }

    fn cookie(&self) -> String {
        let port = self
            .addr()
            .rsplit(':')
            .next()
            .unwrap_or_default()
            .to_owned();
        format!("ea_session_{port}={}", self.secret())
    }

    /// `node-host run --exec-host bridge -- ARGV`, waiting for an answer.
    fn run(&self, argv: &[&str]) -> Child {
        self.home
            .command("node-host")
            .args(["run", "--exec-host", "bridge", "--"])
            .args(argv)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start node-host")
    }

    /// Polls the page's own list until `n` approvals are pending; their ids.
    fn wait_pending(&self, n: usize) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let reply = self.get("/api/pending", &[]);
            assert_eq!(reply.status, 200, "{}", reply.body);
            let list: Value = serde_json::from_str(&reply.body).expect("pending is json");
            let ids: Vec<String> = list
                .as_array()
                .expect("an array")
                .iter()
                .map(|a| a["id"].as_str().expect("id").to_owned())
                .collect();
            if ids.len() == n {
                return ids;
            }
            assert!(Instant::now() < deadline, "never saw {n} pending: {list}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A GET with the session cookie, the right Host and `extra` headers.
    fn get(&self, path: &str, extra: &[(&str, &str)]) -> Reply {
        let cookie = self.cookie();
        let host = self.addr();
        let mut headers = vec![("Host", host.as_str()), ("Cookie", cookie.as_str())];
        headers.extend_from_slice(extra);
        http(&self.addr(), "GET", path, &headers, "")
    }

    /// A JSON request with the session cookie and `headers` (Host included).
    fn send(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &Value) -> Reply {
        let cookie = self.cookie();
        let mut all = vec![
            ("Cookie", cookie.as_str()),
            ("Content-Type", "application/json"),
        ];
        all.extend_from_slice(headers);
        http(&self.addr(), method, path, &all, &body.to_string())
    }
}

/// Waits for the login URL on the bridge's stderr.
fn login_url(bridge: &Bridge) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let log = bridge.log_text();
        if let Some(url) = printed_url(&log) {
            return url;
        }
        assert!(Instant::now() < deadline, "no page URL printed: {log}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The login URL in what the bridge printed, if it is there yet.
fn printed_url(text: &str) -> Option<String> {
    text.lines()
        .find_map(|line| line.trim().strip_prefix("ui-bridge: approvals page at "))
        .map(|url| url.trim().to_owned())
}

/// One HTTP answer.
#[derive(Debug)]
struct Reply {
    status: u16,
    head: String,
    body: String,
}

impl Reply {
    fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.eq_ignore_ascii_case(name)
                .then(|| value.trim().to_owned())
        })
    }
}

/// A raw HTTP/1.1 request over TCP (no client library: the test controls
/// every header, as an attacker would).
fn http(addr: &str, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Reply {
    let mut stream = TcpStream::connect(addr).expect("connect to the page");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    let mut request = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    stream.write_all(request.as_bytes()).expect("send");
    let mut raw = Vec::new();
    // An event stream never ends: its status line and headers are enough.
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
            Err(error) => panic!("read from the page: {error}"),
        }
        if path.ends_with("/events") && raw.windows(4).any(|w| w == b"\r\n\r\n") {
            break;
        }
    }
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Reply {
        status,
        head: head.to_owned(),
        body: body.to_owned(),
    }
}

/// Waits for a child with a bound, so a broken answer fails instead of hanging.
fn finish(child: Child) -> Output {
    finish_within(child, Duration::from_secs(90))
}

#[test]
fn requests_without_the_secret_are_refused_and_the_login_sets_a_strict_cookie() {
    let web = WebBridge::start();
    let host = web.addr();
    for path in ["/", "/app.js", "/api/pending", "/api/policy", "/api/events"] {
        let reply = http(&host, "GET", path, &[("Host", &host)], "");
        assert_eq!(reply.status, 401, "{path}: {reply:?}");
    }
    let wrong = http(&host, "GET", "/login?secret=0000", &[("Host", &host)], "");
    assert_eq!(wrong.status, 401, "{wrong:?}");
    assert!(wrong.header("set-cookie").is_none(), "{wrong:?}");
    let stale_cookie = http(
        &host,
        "GET",
        "/",
        &[
            ("Host", &host),
            ("Cookie", &web.cookie().replace('=', "=x")),
        ],
        "",
    );
    assert_eq!(stale_cookie.status, 401, "{stale_cookie:?}");

    let login = http(
        &host,
        "GET",
        &format!("/login?secret={}", web.secret()),
        &[("Host", &host)],
        "",
    );
    assert_eq!(login.status, 303, "{login:?}");
    assert_eq!(login.header("location").as_deref(), Some("/"));
    let cookie = login.header("set-cookie").expect("a session cookie");
    assert!(cookie.starts_with(&web.cookie()), "{cookie}");
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );

    let page = web.get("/", &[]);
    assert_eq!(page.status, 200, "{page:?}");
    let csp = page.header("content-security-policy").expect("a CSP");
    assert!(
        csp.contains("default-src 'self'") && csp.contains("script-src 'self'"),
        "{csp}"
    );
    assert!(!csp.contains("unsafe-inline"), "{csp}");
    assert!(!page.body.contains("<script>"), "inline script in the page");
    // Isolation from other sites' pages, kept though it costs a new tab's
    // first paint (docs/security.md, "Opener policy kept").
    assert_eq!(
        page.header("cross-origin-opener-policy").as_deref(),
        Some("same-origin")
    );
    assert_eq!(page.header("x-frame-options").as_deref(), Some("DENY"));
}

#[test]
fn foreign_origins_and_hosts_cannot_answer_or_listen() {
    let web = WebBridge::start();
    let node = web.run(&["id", "-u"]);
    let id = web.wait_pending(1).remove(0);
    let host = web.addr();
    let path = format!("/api/approvals/{id}/answer");
    let allow = json!({"decision": "allow-once"});

    let evil = web.send(
        "POST",
        &path,
        &[("Host", &host), ("Origin", "http://evil.example")],
        &allow,
    );
    assert_eq!(evil.status, 403, "{evil:?}");
    let no_origin = web.send("POST", &path, &[("Host", &host)], &allow);
    assert_eq!(no_origin.status, 403, "{no_origin:?}");
    let rebound = web.send(
        "POST",
        &path,
        &[("Host", "evil.example"), ("Origin", "http://evil.example")],
        &allow,
    );
    assert_eq!(rebound.status, 403, "{rebound:?}");
    let cookie = web.cookie();
    let rebound_only = http(
        &host,
        "GET",
        "/api/pending",
        &[("Host", "attacker.test:1234"), ("Cookie", &cookie)],
        "",
    );
    assert_eq!(rebound_only.status, 403, "{rebound_only:?}");
    let listen = web.get("/api/events", &[("Origin", "http://evil.example")]);
    assert_eq!(listen.status, 403, "{listen:?}");
    let listen_cross = web.get("/api/events", &[("Sec-Fetch-Site", "cross-site")]);
    assert_eq!(listen_cross.status, 403, "{listen_cross:?}");

    // Nothing was answered: the approval still waits, and this page's own
    // origin answers it.
    assert_eq!(web.wait_pending(1), vec![id.clone()]);
    let origin = format!("http://{host}");
    let ok = web.send(
        "POST",
        &path,
        &[("Host", &host), ("Origin", &origin)],
        &allow,
    );
    assert_eq!(ok.status, 200, "{ok:?}");
    let ran = finish(node);
    assert_eq!(
        ran.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    // The first answer won: a second one is told the approval is gone.
    let again = web.send(
        "POST",
        &path,
        &[("Host", &host), ("Origin", &origin)],
        &allow,
    );
    assert_eq!(again.status, 404, "{again:?}");
}

#[test]
fn the_policy_api_never_sends_the_token_and_refuses_a_stale_save() {
    let web = WebBridge::start();
    let token = web.bridge.token.clone();
    let read = web.get("/api/policy", &[]);
    assert_eq!(read.status, 200, "{read:?}");
    assert!(!read.body.contains(&token), "the token reached the page");
    let view: Value = serde_json::from_str(&read.body).expect("json");
    let before = std::fs::read(web.home.approvals()).expect("read the file");

    let host = web.addr();
    let origin = format!("http://{host}");
    let mut file = view["file"].clone();
    file["agents"]["main"]["allowlist"] = json!([{"pattern": "/usr/bin/stale-edit"}]);
    let stale = web.send(
        "PUT",
        "/api/policy",
        &[("Host", &host), ("Origin", &origin)],
        &json!({"file": file, "baseHash": "0".repeat(64)}),
    );
    assert_eq!(stale.status, 409, "{stale:?}");
    let conflict: Value = serde_json::from_str(&stale.body).expect("json");
    assert_eq!(conflict["yours"], file, "the page's version comes back");
    assert_eq!(conflict["current"]["hash"], view["hash"]);
    assert!(!stale.body.contains(&token), "the token reached the page");
    assert_eq!(
        std::fs::read(web.home.approvals()).expect("read the file"),
        before,
        "a stale save changed the file"
    );

    let saved = web.send(
        "PUT",
        "/api/policy",
        &[("Host", &host), ("Origin", &origin)],
        &json!({"file": file, "baseHash": view["hash"]}),
    );
    assert_eq!(saved.status, 200, "{saved:?}");
    let on_disk = web.home.read_approvals();
    assert_eq!(
        on_disk["agents"]["main"]["allowlist"][0]["pattern"],
        "/usr/bin/stale-edit"
    );
    assert_eq!(
        on_disk["socket"]["token"],
        token.as_str(),
        "the token was kept"
    );
}

// ---------------------------------------------------------------- browser

/// Why the browser tests cannot run here, if they cannot.
fn browser_missing() -> Option<String> {
    if !Path::new("/usr/bin/chromium").exists() {
        return Some("/usr/bin/chromium is missing (apt-get install chromium)".to_owned());
    }
    if Command::new("node").arg("--version").output().is_err() {
        return Some("node is missing".to_owned());
    }
    if !web_dir().join("node_modules/playwright-core").is_dir()
        || !web_dir().join("node_modules/axe-core").is_dir()
    {
        return Some("tests/web/node_modules is missing (npm ci --prefix tests/web)".to_owned());
    }
    None
}

fn web_dir() -> PathBuf {
    workspace_root().join("tests/web")
}

/// Runs one scenario of tests/web/drive.mjs against a fresh bridge; its
/// JSON result, or `None` when skipped.
fn drive(scenario: &str) -> Option<Value> {
    if skip_browser(scenario) {
        return None;
    }
    let web = WebBridge::start();
    let driver = Driver::start(scenario, &web.url, &web.home, &[]);
    Some(driver.finish(&|| web.bridge.log_text()))
}

/// Whether the browser tests cannot run here (printed as SKIP); fails
/// instead under `CI=true`.
fn skip_browser(scenario: &str) -> bool {
    let Some(why) = browser_missing() else {
        return false;
    };
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    assert!(!ci, "CI=true but the browser test cannot run: {why}");
    eprintln!("SKIP web_ui {scenario}: {why}");
    true
}

/// One scenario of tests/web/drive.mjs running in chromium, its stdout read
/// line by line (a scenario may print lines for the test to act on before
/// its result).
struct Driver {
    scenario: String,
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
    out: PathBuf,
}

impl Driver {
    /// Starts `node drive.mjs SCENARIO` against the page at `url` of
    /// `home`, with `extra` environment; screenshots go to
    /// `target/tmp/web-ui/SCENARIO/`.
    fn start(scenario: &str, url: &str, home: &TestHome, extra: &[(&str, &str)]) -> Driver {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("web-ui")
            .join(scenario);
        std::fs::create_dir_all(&out).expect("screenshot dir");
        let mut child = Command::new("node")
            .arg(web_dir().join("drive.mjs"))
            .arg(scenario)
            .current_dir(web_dir())
            .env("EA_WEB_URL", url)
            .env("EA_HOME", home.path())
            .env("EA_NODE_HOST", bin("node-host"))
            .env("EA_UI_BRIDGE", bin("ui-bridge"))
            .env("EA_OUT", &out)
            .envs(extra.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start node drive.mjs");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Driver {
            scenario: scenario.to_owned(),
            child,
            lines,
            seen: Vec::new(),
            out,
        }
    }

    /// Waits for the JSON line the scenario prints with `key`; its value.
    fn wait_for(&mut self, key: &str, log: &dyn Fn() -> String) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    let parsed: Option<Value> = serde_json::from_str(&line).ok();
                    if let Some(value) = parsed.and_then(|mut v| v.get_mut(key).map(Value::take)) {
                        return value;
                    }
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                    let _ = self.child.kill();
                    let stderr = self.stderr();
                    panic!(
                        "drive.mjs {} never printed {key:?} (screenshots in {}):\n{stderr}\n{}\nbridge log:\n{}",
                        self.scenario,
                        self.out.display(),
                        self.seen.join("\n"),
                        log()
                    );
                }
            }
        }
    }

    /// Waits for the scenario to end, which must succeed with screenshots
    /// saved; its result (the last line, JSON).
    fn finish(mut self, log: &dyn Fn() -> String) -> Value {
        self.seen.extend(self.lines.iter());
        let status = self.child.wait().expect("wait for drive.mjs");
        let stderr = self.stderr();
        let stdout = self.seen.join("\n");
        assert!(
            status.success(),
            "drive.mjs {} failed (screenshots in {}):\n{stderr}\n{stdout}\nbridge log:\n{}",
            self.scenario,
            self.out.display(),
            log()
        );
        eprintln!("{stdout}");
        let last = self.seen.last().map(String::as_str).unwrap_or_default();
        let result: Value = serde_json::from_str(last).expect("drive.mjs prints JSON");
        assert_eq!(result["ok"], true, "{result}");
        let shots = std::fs::read_dir(&self.out).expect("screenshots").count();
        assert!(shots > 0, "no screenshot saved in {}", self.out.display());
        result
    }

    fn stderr(&mut self) -> String {
        let mut text = String::new();
        if let Some(mut pipe) = self.child.stderr.take() {
            let _ = pipe.read_to_string(&mut text);
        }
        text
    }
}

#[test]
fn browser_each_button_and_key_answers_the_waiting_run() {
    if let Some(result) = drive("answers") {
        assert_eq!(
            result["cases"].as_array().map(Vec::len),
            Some(6),
            "{result}"
        );
    }
}

#[test]
fn browser_an_answer_from_approvals_resolve_removes_the_request() {
    if let Some(result) = drive("elsewhere") {
        assert_eq!(result["lateAnswer"], 404, "{result}");
    }
}

#[test]
fn browser_an_answer_in_the_terminal_removes_the_request_and_reaches_the_run() {
    if !tmux_available() || skip_browser("terminal") {
        return;
    }
    let home = TestHome::new();
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"},
        "agents": {"main": {"allowlist": []}}
    }));
    // The bridge in a real terminal, with the page beside it.
    let screen = Screen::start_bridge(&home, "--web --approval-timeout-ms 60000");
    let url = {
        let pane = screen.wait_for(&["ui-bridge: approvals page at "]);
        printed_url(&pane).expect("the login URL on the screen")
    };
    let argv = ["printf", "%s", "answered-in-the-terminal"];
    let pane = || screen.capture();
    let mut driver = Driver::start(
        "terminal",
        &url,
        &home,
        &[("EA_ARGV", &json!(argv).to_string())],
    );
    // The card is on the page; the same request is on the terminal.
    let id = driver.wait_for("waiting", &pane);
    screen.wait_for(&["printf %s answered-in-the-terminal", "[o] allow once"]);
    screen.press("o");
    let result = driver.finish(&pane);
    assert_eq!(result["id"], id, "{result}");
    assert_eq!(result["exit"], 0, "{result}");
    assert_eq!(result["stdout"], "answered-in-the-terminal", "{result}");
    screen.wait_for(&["terminal: allow-once printf %s answered-in-the-terminal"]);
}

#[test]
fn browser_policy_edit_allows_the_next_run_and_a_conflict_is_reported() {
    if let Some(result) = drive("policy") {
        assert_eq!(result["conflict"], "reported", "{result}");
    }
}

#[test]
fn browser_each_agents_safe_bins_and_denylist_are_edited_and_decide_the_next_run() {
    if let Some(result) = drive("lists") {
        assert_eq!(
            (&result["edited"], &result["after"]),
            (
                &json!({"wc": "ask", "uname": "deny"}),
                &json!({"wc": "allow", "uname": "ask"})
            ),
            "{result}"
        );
    }
}

#[test]
fn browser_page_has_no_serious_accessibility_violations() {
    drive("a11y");
}

#[test]
fn browser_only_the_hashed_script_is_cached_and_a_second_tab_runs_it_from_the_cache() {
    if let Some(result) = drive("caching") {
        let script = result["script"].as_str().unwrap_or_default();
        assert!(
            script.starts_with("/app.") && script.ends_with(".js"),
            "{result}"
        );
        assert_eq!(result["secondTab"]["scriptTransfer"], 0, "{result}");
        assert_eq!(
            result["headers"]["/"]["cacheControl"], "no-store",
            "{result}"
        );
        assert_eq!(result["headers"]["/app.js"]["status"], 404, "{result}");
    }
}

#[test]
fn browser_fifty_pending_approvals_render_and_update() {
    // Numbers for BENCHMARKS.md; printed, not asserted.
    drive("bench");
}

#[test]
fn defaults_web_in_the_policy_serves_the_page_and_a_bad_one_refuses_to_start() {
    let home = TestHome::new();
    home.write_approvals(&json!({
        "version": 1,
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny", "web": "127.0.0.1:0"}
    }));
    let bridge = Bridge::start(&home, &[]);
    let url = login_url(&bridge);
    let (addr, secret) = url
        .trim_start_matches("http://")
        .split_once("/login?secret=")
        .expect("a login URL");
    let login = http(
        addr,
        "GET",
        &format!("/login?secret={secret}"),
        &[("Host", addr)],
        "",
    );
    assert_eq!(login.status, 303, "{login:?}");
    assert_eq!(home.read_approvals()["defaults"]["web"], "127.0.0.1:0");
    drop(bridge);

    let bad = TestHome::new();
    bad.write_approvals(&json!({"version": 1, "defaults": {"web": "not an address"}}));
    let mut child = bad
        .command("ui-bridge")
        .arg("serve")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ui-bridge");
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("ui-bridge served with defaults.web = \"not an address\"");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        let _ = pipe.read_to_string(&mut stderr);
    }
    assert_eq!(
        status.code(),
        Some(approvals_tests::status::FILE_ERROR),
        "{stderr}"
    );
    assert!(stderr.contains("defaults.web"), "{stderr}");
}

#[test]
fn the_bridge_stops_on_sigterm_while_a_page_listens() {
    let mut web = WebBridge::start();
    // An open event stream, as a tab left open keeps it.
    let mut stream = TcpStream::connect(web.addr()).expect("connect to the page");
    let request = format!(
        "GET /api/events HTTP/1.1\r\nHost: {}\r\nCookie: {}\r\n\r\n",
        web.addr(),
        web.cookie()
    );
    stream.write_all(request.as_bytes()).expect("send");
    let mut first = [0u8; 64];
    let n = stream.read(&mut first).expect("read the stream's head");
    assert!(
        String::from_utf8_lossy(&first[..n]).starts_with("HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&first[..n])
    );
    web.bridge.signal("-TERM");
    let status = web.bridge.wait_exit(Duration::from_secs(20));
    assert!(status.success(), "{status}: {}", web.bridge.log_text());
}
