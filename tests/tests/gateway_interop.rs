//! `node-host serve` against the real OpenClaw gateway (issue 12): the
//! gateway from `scripts/install-openclaw` on loopback with a throwaway
//! state dir, our node approved with the gateway's own CLI, and every
//! command driven through the gateway as an operator would.
//!
//! Without the install each test prints `SKIP: …` and passes, except in CI
//! (`CI` set), where it fails. One gateway serves all the flows of a test,
//! since it takes about 10 s to start. Ports 28821-28823 (one per test, so
//! the tests may run at once).
//!
//! What the gateway itself does here (openclaw 2026.9.6), which the flows
//! rely on: an approval is bound to the operator connection that asked for
//! it; `node.invoke` with `approved` replaces the caller's argv, cwd, agent
//! and session with the approved plan's (so a changed argv at invoke time
//! runs the approved command, never the changed one); an allow-once is
//! consumed by its first use; it honours a node's exec event only while
//! it holds the authorization it made for that invoke (a failed result
//! drops it, `exec.finished` or `exec.denied` consumes it), and answers
//! one it does not honour `handled: false`.

use std::path::Path;
use std::time::Duration;

use approvals_tests::gateway::{
    Answer, Gateway, Install, Supervised, install_or_skip, interop_script, invoke_call,
    processes_with, signal_all,
};
use approvals_tests::wire_tap::{Direction, Frame, WireTap};
use approvals_tests::{Bridge, TestHome, real_path, unique};
use serde_json::{Value, json};

/// A socket token the node must never hand to the gateway.
const SECRET: &str = "interopSecretToken-4f1c9a7e2b6d";

/// The policy of every flow: allowlist with ask on-miss and askFallback
/// deny; echo and sleep allowlisted, anything else needs an approval.
fn policy() -> Value {
    json!({
        "version": 1,
        "socket": {"token": SECRET},
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"},
        "agents": {"*": {"allowlist": [
            {"pattern": real_path("echo")},
            {"pattern": real_path("sleep")}
        ]}}
    })
}

/// A running `node-host serve` and its device id.
struct Node {
    process: Supervised,
    id: String,
}

/// Starts `node-host serve --exec-host MODE` in `home` against `gateway`,
/// reached at `url`, and approves its command surface.
fn serve(home: &TestHome, gateway: &Gateway, url: &str, mode: &str) -> Node {
    use std::os::unix::fs::PermissionsExt;
    let token_file = home.path().join("gateway-token");
    std::fs::write(&token_file, format!("{}\n", gateway.token)).expect("token file");
    std::fs::set_permissions(&token_file, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let state = home.path().join("node-state");
    std::fs::create_dir_all(&state).expect("node state dir");
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o700)).expect("chmod");

    let out = home
        .command("node-host")
        .args(["identity", "--json", "--state-dir"])
        .arg(&state)
        .output()
        .expect("run node-host identity");
    assert!(
        out.status.success(),
        "node-host identity failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let identity: Value = serde_json::from_slice(&out.stdout).expect("identity --json is JSON");
    let id = identity["deviceId"]
        .as_str()
        .expect("deviceId in identity --json")
        .to_owned();

    let mut cmd = home.command("node-host");
    cmd.env("RUST_LOG", "info")
        .args(["serve", "--gateway", url, "--token-file"])
        .arg(&token_file)
        .args([
            "--display-name",
            &format!("interop-{mode}"),
            "--exec-host",
            mode,
        ])
        .arg("--approvals")
        .arg(home.approvals())
        .arg("--state-dir")
        .arg(&state);
    let log = home.path().join(format!("serve-{}.log", unique()));
    let process = Supervised::spawn(cmd, log, Duration::from_secs(5));
    gateway.approve_node(&id);
    gateway.wait_connected(&id, Duration::from_secs(60));
    Node { process, id }
}

/// The payload of a `system.run` that must have run.
fn ran(answer: Answer, what: &str, node: &Node) -> Value {
    match answer {
        Ok(result) => result["payload"].clone(),
        Err(e) => panic!(
            "{what} was refused: {e}\nnode log:\n{}",
            node.process.log_tail(30)
        ),
    }
}

/// The error of an invoke that must have been refused.
fn refused(answer: Answer, what: &str) -> Value {
    match answer {
        Err(e) => e,
        Ok(result) => panic!("{what} was not refused: {result}"),
    }
}

fn run_params(argv: &[&str], cwd: &Path) -> Value {
    json!({"command": argv, "cwd": cwd, "timeoutMs": 20_000})
}

/// Every flow of issue 12's interop list against one gateway and one node.
fn all_flows(install: &Install, port: u16, mode: &str) {
    let home = TestHome::new();
    home.write_approvals(&policy());
    // The bridge takes the approvals the node relays from the gateway.
    let _bridge = (mode == "bridge").then(|| Bridge::start(&home, &["--accept-gateway-approvals"]));
    let mut gateway = Gateway::start(install, port);
    // The node reaches the gateway through a recording relay, so the
    // lifecycle flow can see what went over the wire, in order.
    let tap = WireTap::start(gateway.port);
    let node = serve(&home, &gateway, &tap.url(), mode);
    let work = home.path().join("work");
    std::fs::create_dir_all(&work).expect("work dir");

    allowlisted_and_denied(&mut gateway, &node, &work);
    lifecycle_events_in_order(&mut gateway, &node, &tap, &work, mode);
    which(&mut gateway, &node);
    approvals_round_trip(&gateway, &node, &home);
    approval_gated(&mut gateway, &node, &work);
    timed_out_leaves_nothing(&mut gateway, &node, &work);
    concurrent(&mut gateway, &node, &work);
    reconnects_after_restart(&mut gateway, &node, &work);
}

fn allowlisted_and_denied(gateway: &mut Gateway, node: &Node, work: &Path) {
    let marker = format!("allowed-{}", unique());
    let out = ran(
        gateway.invoke(
            &node.id,
            "system.run",
            run_params(&["/bin/echo", &marker], work),
        ),
        "an allowlisted echo",
        node,
    );
    assert_eq!(out["exitCode"], 0, "{out}");
    assert_eq!(out["stdout"], format!("{marker}\n"), "{out}");

    let target = work.join(format!("denied-{}", unique()));
    let touch = real_path("touch");
    let error = refused(
        gateway.invoke(
            &node.id,
            "system.run",
            run_params(&[&touch, &target.to_string_lossy()], work),
        ),
        "a non-allowlisted touch",
    );
    assert!(
        error.to_string().contains("SYSTEM_RUN_DENIED"),
        "not a SYSTEM_RUN_DENIED refusal: {error}"
    );
    assert!(!target.exists(), "the refused touch ran");
}

/// What our node sent the gateway for one run, in wire order: `result`
/// for its `node.invoke.result`, the event name for each `node.event`,
/// and the gateway's answer to each event.
struct Sent {
    order: Vec<String>,
    answers: Vec<(String, Value)>,
}

/// The frames of run `run_id`: the invoke the gateway sent for it tells
/// the invoke id its result carries; events carry the run id themselves.
fn sent_for(frames: &[Frame], run_id: &str) -> Sent {
    let decoded = |raw: &Value| -> Value {
        raw.as_str()
            .and_then(|text| serde_json::from_str(text).ok())
            .unwrap_or(Value::Null)
    };
    let invoke_id = frames.iter().find_map(|f| {
        let payload = &f.json["payload"];
        (f.direction == Direction::ToNode
            && f.json["event"] == "node.invoke.request"
            && decoded(&payload["paramsJSON"])["runId"] == run_id)
            .then(|| payload["id"].clone())
    });
    let mut sent = Sent {
        order: Vec::new(),
        answers: Vec::new(),
    };
    for frame in frames
        .iter()
        .filter(|f| f.direction == Direction::ToGateway)
    {
        let params = &frame.json["params"];
        match frame.json["method"].as_str() {
            Some("node.invoke.result") if invoke_id.as_ref() == Some(&params["id"]) => {
                sent.order.push("result".to_owned());
            }
            Some("node.event") if decoded(&params["payloadJSON"])["runId"] == run_id => {
                let event = params["event"].as_str().unwrap_or("?").to_owned();
                sent.order.push(event.clone());
                let answer = frames.iter().find(|f| {
                    f.direction == Direction::ToNode
                        && f.json["type"] == "res"
                        && f.json["id"] == frame.json["id"]
                });
                if let Some(answer) = answer {
                    sent.answers.push((event, answer.json.clone()));
                }
            }
            _ => {}
        }
    }
    sent
}

/// Runs `argv` as run `run_id` and checks what the node sent for it:
/// exactly `expected`, in that order, and every event taken and acted on
/// by the real gateway (not `handled: false`).
fn expect_sent(
    gateway: &mut Gateway,
    node: &Node,
    tap: &WireTap,
    argv: &[&str],
    work: &Path,
    run_id: &str,
    expected: &[&str],
) -> Answer {
    let answer = gateway.invoke(
        &node.id,
        "system.run",
        json!({"command": argv, "cwd": work, "timeoutMs": 20_000, "runId": run_id,
               "suppressNotifyOnExit": true}),
    );
    let events = expected.iter().filter(|e| **e != "result").count();
    let frames = tap.wait_for(Duration::from_secs(30), |frames| {
        let sent = sent_for(frames, run_id);
        sent.order.len() >= expected.len() && sent.answers.len() >= events
    });
    let sent = sent_for(&frames, run_id);
    assert_eq!(
        sent.order,
        expected,
        "what the node sent for {argv:?} (run {run_id})\nnode log:\n{}",
        node.process.log_tail(20)
    );
    for (event, answer) in &sent.answers {
        assert!(
            answer["ok"] == true && answer["payload"]["handled"] != false,
            "the gateway did not act on {event} of run {run_id}: {answer}"
        );
    }
    answer
}

/// The lifecycle events reach the real gateway in the order it honours
/// them: a quick run sends its result, then `exec.finished`, and no
/// "started" notice; a run past the notice's delay sends `exec.started`
/// while it runs (from the embedded exec host; the bridge reports no
/// start); a refusal sends `exec.denied` before its error result, since
/// the gateway drops a failed invoke's authorization with the result.
fn lifecycle_events_in_order(
    gateway: &mut Gateway,
    node: &Node,
    tap: &WireTap,
    work: &Path,
    mode: &str,
) {
    let marker = format!("quick-{}", unique());
    let run_id = format!("run-{marker}");
    let quick = expect_sent(
        gateway,
        node,
        tap,
        &["/bin/echo", &marker],
        work,
        &run_id,
        &["result", "exec.finished"],
    );
    assert_eq!(ran(quick, "a quick echo", node)["exitCode"], 0);

    let sleep = real_path("sleep");
    let seconds = (node_host::invoke::STARTED_NOTICE_AFTER.as_secs() + 2).to_string();
    let run_id = format!("run-long-{}", unique());
    let expected: &[&str] = if mode == "local" {
        &["exec.started", "result", "exec.finished"]
    } else {
        &["result", "exec.finished"]
    };
    let long = expect_sent(
        gateway,
        node,
        tap,
        &[&sleep, &seconds],
        work,
        &run_id,
        expected,
    );
    assert_eq!(ran(long, "a sleep past the notice", node)["exitCode"], 0);

    let touch = real_path("touch");
    let target = work.join(format!("denied-{}", unique()));
    let run_id = format!("run-denied-{}", unique());
    let denied = expect_sent(
        gateway,
        node,
        tap,
        &[&touch, &target.to_string_lossy()],
        work,
        &run_id,
        &["exec.denied", "result"],
    );
    refused(denied, "a non-allowlisted touch");
}

fn which(gateway: &mut Gateway, node: &Node) {
    let missing = format!("no-such-program-{}", unique());
    let answer = gateway.invoke(
        &node.id,
        "system.which",
        json!({"bins": ["echo", &missing]}),
    );
    let bins = ran(answer, "system.which", node)["bins"].clone();
    assert!(
        bins["echo"].as_str().is_some_and(|p| p.ends_with("/echo")),
        "echo not found: {bins}"
    );
    assert!(
        bins.get(&missing).is_none(),
        "a missing program was found: {bins}"
    );
}

fn approvals_round_trip(gateway: &Gateway, node: &Node, home: &TestHome) {
    let got = gateway
        .call("exec.approvals.node.get", json!({"nodeId": node.id}))
        .unwrap_or_else(|e| panic!("exec.approvals.node.get failed: {e}"));
    assert!(
        !got.to_string().contains(SECRET),
        "the socket token left the node: {got}"
    );
    let hash = got["hash"].as_str().expect("a hash").to_owned();
    let mut file = got["file"].clone();
    file["agents"]["*"]["allowlist"]
        .as_array_mut()
        .expect("the allowlist came back")
        .push(json!({"pattern": real_path("true")}));

    let stale = "0".repeat(64);
    let error = gateway
        .call(
            "exec.approvals.node.set",
            json!({"nodeId": node.id, "file": file, "baseHash": stale}),
        )
        .expect_err("a stale baseHash must be refused");
    assert!(
        error.to_string().to_lowercase().contains("changed")
            || error.to_string().to_lowercase().contains("hash"),
        "unexpected refusal of a stale baseHash: {error}"
    );
    assert!(
        !home
            .read_approvals()
            .to_string()
            .contains(&real_path("true")),
        "a refused set changed the file"
    );

    let set = gateway
        .call(
            "exec.approvals.node.set",
            json!({"nodeId": node.id, "file": file, "baseHash": hash}),
        )
        .unwrap_or_else(|e| panic!("exec.approvals.node.set failed: {e}"));
    assert!(
        !set.to_string().contains(SECRET),
        "set echoed the token: {set}"
    );
    let on_disk = home.read_approvals();
    assert_eq!(
        on_disk["socket"]["token"], SECRET,
        "set lost the socket token"
    );
    assert!(
        on_disk.to_string().contains(&real_path("true")),
        "set did not save the new entry: {on_disk}"
    );
}

/// `system.run.prepare` for `argv` in `cwd`: the plan.
fn prepare(gateway: &mut Gateway, node: &Node, argv: &[&str], cwd: &Path) -> Value {
    let answer = gateway.invoke(
        &node.id,
        "system.run.prepare",
        json!({"command": argv, "rawCommand": argv.join(" "), "cwd": cwd,
               "agentId": "main", "sessionKey": "interop"}),
    );
    let prepared = ran(answer, "system.run.prepare", node);
    let plan = prepared["plan"].clone();
    assert!(
        plan["argv"].as_array().is_some_and(|a| !a.is_empty())
            && plan["commandText"].as_str().is_some_and(|t| !t.is_empty()),
        "not a plan OpenClaw's exec tool accepts: {prepared}"
    );
    plan
}

/// `exec.approval.request` for `plan` (as the agent's exec tool sends it,
/// reference/openclaw.md 9.1), then `exec.approval.resolve` allow-once:
/// the approval id.
fn approve(gateway: &mut Gateway, node: &Node, plan: &Value) -> String {
    let id = format!("interop-{}", unique());
    let request = gateway.operator().request(
        "exec.approval.request",
        json!({
            "id": id, "host": "node", "nodeId": node.id,
            "command": plan["commandText"], "commandArgv": plan["argv"],
            "cwd": plan["cwd"], "agentId": plan["agentId"], "sessionKey": plan["sessionKey"],
            "systemRunPlan": plan, "security": "allowlist", "ask": "on-miss",
            "timeoutMs": 120_000, "twoPhase": true,
            // No approval client is connected: keep it pending for resolve.
            "requireDeliveryRoute": false
        }),
    );
    let accepted = request.unwrap_or_else(|e| panic!("exec.approval.request failed: {e}"));
    assert_eq!(accepted["status"], "accepted", "{accepted}");
    gateway
        .operator()
        .request(
            "exec.approval.resolve",
            json!({"id": id, "decision": "allow-once"}),
        )
        .unwrap_or_else(|e| panic!("exec.approval.resolve failed: {e}"));
    id
}

/// `system.run` of `argv` in `cwd` carrying approval `id`.
fn run_approved(gateway: &mut Gateway, node: &Node, argv: &[&str], cwd: &Path, id: &str) -> Answer {
    gateway.invoke(
        &node.id,
        "system.run",
        json!({"command": argv, "cwd": cwd, "agentId": "main", "sessionKey": "interop",
               "runId": id, "approved": true, "approvalDecision": "allow-once",
               "timeoutMs": 20_000}),
    )
}

fn approval_gated(gateway: &mut Gateway, node: &Node, work: &Path) {
    let touch = real_path("touch");
    let file = |tag: &str| work.join(format!("{tag}-{}", unique()));

    // No approval: the node refuses and asks for one.
    let target = file("unapproved");
    let argv = [touch.as_str(), &target.to_string_lossy()];
    prepare(gateway, node, &argv, work);
    let error = refused(
        gateway.invoke(&node.id, "system.run", run_params(&argv, work)),
        "a run needing approval, without one",
    );
    assert!(error.to_string().contains("SYSTEM_RUN_DENIED"), "{error}");
    assert!(!target.exists(), "ran without an approval");

    // Prepared, approved allow-once: runs, once.
    let target = file("approved");
    let argv = [touch.as_str(), &target.to_string_lossy()];
    let plan = prepare(gateway, node, &argv, work);
    let id = approve(gateway, node, &plan);
    let out = ran(
        run_approved(gateway, node, &argv, work, &id),
        "an approved run",
        node,
    );
    assert_eq!(out["exitCode"], 0, "{out}");
    assert!(target.exists(), "the approved command did not run");
    std::fs::remove_file(&target).expect("remove marker");
    refused(
        run_approved(gateway, node, &argv, work, &id),
        "a second use of an allow-once",
    );
    assert!(!target.exists(), "an allow-once ran twice");

    // A changed argv or cwd at invoke time never runs the changed command.
    let target = file("approved-once");
    let changed = file("changed-argv");
    let argv = [touch.as_str(), &target.to_string_lossy()];
    let plan = prepare(gateway, node, &argv, work);
    let id = approve(gateway, node, &plan);
    let other_dir = work.join(format!("elsewhere-{}", unique()));
    std::fs::create_dir_all(&other_dir).expect("dir");
    let _ = run_approved(
        gateway,
        node,
        &[touch.as_str(), &changed.to_string_lossy()],
        &other_dir,
        &id,
    );
    assert!(
        !changed.exists(),
        "a changed argv ran under another's approval"
    );

    // An approval for a plan the node never prepared (argv or cwd changed
    // between prepare and the approval request) is not the node's plan.
    let target = file("prepared");
    let forged = file("forged-argv");
    let plan = prepare(
        gateway,
        node,
        &[touch.as_str(), &target.to_string_lossy()],
        work,
    );
    let mut tampered = plan.clone();
    tampered["argv"] = json!([touch, forged]);
    tampered["commandText"] = json!(format!("{touch} {}", forged.display()));
    let id = approve(gateway, node, &tampered);
    let error = refused(
        run_approved(
            gateway,
            node,
            &[touch.as_str(), &forged.to_string_lossy()],
            work,
            &id,
        ),
        "a run approved for a plan with another argv",
    );
    assert!(error.to_string().contains("SYSTEM_RUN_DENIED"), "{error}");
    assert!(!forged.exists() && !target.exists(), "a forged plan ran");

    let relative = format!("forged-cwd-{}", unique());
    let plan = prepare(gateway, node, &[touch.as_str(), &relative], work);
    let mut tampered = plan.clone();
    tampered["cwd"] = json!(other_dir);
    let id = approve(gateway, node, &tampered);
    let error = refused(
        run_approved(gateway, node, &[touch.as_str(), &relative], &other_dir, &id),
        "a run approved for a plan with another cwd",
    );
    assert!(error.to_string().contains("SYSTEM_RUN_DENIED"), "{error}");
    assert!(
        !other_dir.join(&relative).exists() && !work.join(&relative).exists(),
        "a plan with a forged cwd ran"
    );
}

fn timed_out_leaves_nothing(gateway: &mut Gateway, node: &Node, work: &Path) {
    let sleep = real_path("sleep");

    // The command's own timeout: the node kills it and says so.
    let marker = sleep_marker();
    let out = ran(
        gateway.invoke(
            &node.id,
            "system.run",
            json!({"command": [sleep, "300", marker], "cwd": work, "timeoutMs": 1000}),
        ),
        "a sleep that times out",
        node,
    );
    assert_eq!(out["timedOut"], true, "{out}");
    let left = processes_with(&marker);
    signal_all(&left, "-KILL");
    assert!(
        left.is_empty(),
        "the timed-out sleep is still running: {left:?}"
    );

    // The gateway's timeout: it answers TIMEOUT and sends the node
    // node.invoke.cancel, which must kill the command.
    let marker = sleep_marker();
    let mut call = invoke_call(
        &node.id,
        "system.run",
        json!({"command": [sleep, "300", marker], "cwd": work}),
    );
    call["timeoutMs"] = json!(3000);
    let error = refused(
        gateway.operator().request("node.invoke", call),
        "an invoke past the gateway's timeout",
    );
    assert!(error.to_string().contains("TIMEOUT"), "{error}");
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let left = processes_with(&marker);
        if left.is_empty() {
            break;
        }
        if std::time::Instant::now() > deadline {
            signal_all(&left, "-KILL");
            panic!(
                "the cancelled sleep is still running: {left:?}\nnode log:\n{}",
                node.process.log_tail(30)
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// An operand for sleep(1) that marks its process: sleep adds up its
/// operands, and this one is a unique tiny fraction of a second.
fn sleep_marker() -> String {
    format!("0.0000{}{:04}", std::process::id(), unique_small())
}

/// A small number unique within this process, for markers that must be
/// numbers.
fn unique_small() -> u32 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

fn concurrent(gateway: &mut Gateway, node: &Node, work: &Path) {
    let markers: Vec<String> = (0..20)
        .map(|i| format!("parallel-{i}-{}", unique()))
        .collect();
    let calls: Vec<(&str, Value)> = markers
        .iter()
        .map(|m| {
            (
                "node.invoke",
                invoke_call(&node.id, "system.run", run_params(&["/bin/echo", m], work)),
            )
        })
        .collect();
    let answers = gateway.operator().requests(&calls);
    for (marker, answer) in markers.iter().zip(answers) {
        let out = ran(answer, "one of 20 concurrent runs", node);
        assert_eq!(out["stdout"], format!("{marker}\n"), "{out}");
    }
}

fn reconnects_after_restart(gateway: &mut Gateway, node: &Node, work: &Path) {
    gateway.restart();
    gateway.wait_connected(&node.id, Duration::from_secs(120));
    let marker = format!("after-restart-{}", unique());
    let out = ran(
        gateway.invoke(
            &node.id,
            "system.run",
            run_params(&["/bin/echo", &marker], work),
        ),
        "a run after the gateway restarted",
        node,
    );
    assert_eq!(out["stdout"], format!("{marker}\n"), "{out}");
}

#[test]
fn serve_with_the_embedded_exec_host_passes_every_flow() {
    let Some(install) = install_or_skip("gateway_interop (local)") else {
        return;
    };
    all_flows(&install, 28822, "local");
}

#[test]
fn serve_through_the_ui_bridge_passes_every_flow() {
    let Some(install) = install_or_skip("gateway_interop (bridge)") else {
        return;
    };
    all_flows(&install, 28823, "bridge");
}

/// The harness itself, proven with the minimal node (which spawns what it
/// is sent, unchecked): start, pair with the CLI, run, survive a gateway
/// restart, and leave no process behind.
#[test]
fn harness_drives_a_minimal_node_through_a_restart() {
    let Some(install) = install_or_skip("gateway_interop (harness)") else {
        return;
    };
    let mut gateway = Gateway::start(&install, 28821);
    let mut cmd = std::process::Command::new(install.node());
    let key = gateway.home().join("minimal.key");
    cmd.arg(interop_script("minimal-node.mjs"))
        .args(["--url", &gateway.url(), "--token", &gateway.token, "--key"])
        .arg(&key);
    let log = gateway.home().join("minimal.log");
    let process = Supervised::spawn(cmd, log, Duration::from_secs(5));
    let id = minimal_node_id(&process);
    let node = Node { process, id };
    gateway.approve_node(&node.id);
    let work = gateway.home().to_owned();
    allowlisted_echo_runs(&mut gateway, &node, &work);
    reconnects_after_restart(&mut gateway, &node, &work);
    let pid = node.process.pid();
    drop(node);
    assert!(
        !Path::new(&format!("/proc/{pid}")).exists(),
        "the minimal node outlived its Supervised"
    );
}

fn allowlisted_echo_runs(gateway: &mut Gateway, node: &Node, work: &Path) {
    let marker = format!("minimal-{}", unique());
    let out = ran(
        gateway.invoke(
            &node.id,
            "system.run",
            run_params(&["/bin/echo", &marker], work),
        ),
        "echo on the minimal node",
        node,
    );
    assert_eq!(out["stdout"], format!("{marker}\n"), "{out}");
}

/// The device id the minimal node prints once connected.
fn minimal_node_id(process: &Supervised) -> String {
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    loop {
        let text = std::fs::read_to_string(&process.log).unwrap_or_default();
        if let Some(id) = text
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find_map(|v| v["deviceId"].as_str().map(str::to_owned))
        {
            return id;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the minimal node did not connect: {text}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
