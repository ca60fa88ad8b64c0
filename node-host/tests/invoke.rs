//! The node's commands driven through the library, with real files and
//! real processes: the gateway approval is attacked the ways a caller of
//! `node.invoke` could (no plan, a plan the node never made, a changed
//! argv, cwd, environment or script, a replayed allow-once, a policy that
//! narrowed since), and the node's own deny still wins over an approval.

use std::sync::Arc;

use node_host::invoke::{ExecHostChoice, InvokeError, Node, NodeConfig, NodeEvent, Outgoing};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

struct Fixture {
    dir: tempfile::TempDir,
    node: Arc<Node>,
    events: mpsc::UnboundedReceiver<Outgoing>,
}

fn fixture(policy: Value) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let approvals = dir.path().join("exec-approvals.json");
    std::fs::write(&approvals, serde_json::to_vec_pretty(&policy).unwrap()).unwrap();
    let (tx, events) = mpsc::unbounded_channel();
    let node = Arc::new(Node::new(
        NodeConfig {
            approvals_path: approvals,
            exec_host: ExecHostChoice::Local,
            socket: None,
        },
        tx,
    ));
    Fixture { dir, node, events }
}

fn allowlist_policy() -> Value {
    json!({"version": 1,
           "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "full"},
           "agents": {"main": {"allowlist": [{"pattern": "/usr/bin/echo"}]}}})
}

impl Fixture {
    async fn call(&self, command: &str, params: Value) -> Result<Value, InvokeError> {
        self.node
            .invoke(command, params, CancellationToken::new())
            .await
    }

    fn cwd(&self) -> String {
        self.dir.path().to_string_lossy().into_owned()
    }

    async fn prepare(&self, argv: &[&str]) -> Value {
        self.call(
            "system.run.prepare",
            json!({"command": argv, "cwd": self.cwd(), "agentId": "main", "sessionKey": "s1"}),
        )
        .await
        .unwrap()
    }

    /// A `system.run` as the gateway forwards an approved one.
    fn approved_run(plan: &Value, approval_id: &str, decision: &str) -> Value {
        json!({"command": plan["argv"], "rawCommand": plan["commandText"], "cwd": plan["cwd"],
               "agentId": plan["agentId"], "sessionKey": plan["sessionKey"],
               "systemRunPlan": plan, "runId": approval_id,
               "approved": true, "approvalDecision": decision})
    }

    fn drain(&mut self) -> Vec<NodeEvent> {
        let mut all = Vec::new();
        while let Ok(item) = self.events.try_recv() {
            match item {
                Outgoing::Event(event) => all.push(event),
                Outgoing::Result { invoke_id, .. } => {
                    panic!("the node queued a result itself: {invoke_id}")
                }
            }
        }
        all
    }
}

#[tokio::test]
async fn allowlisted_runs_and_unlisted_needs_an_approval_not_the_fallback() {
    let mut f = fixture(allowlist_policy());
    let ran = f
        .call(
            "system.run",
            json!({"command": ["echo", "hi"], "cwd": f.cwd()}),
        )
        .await
        .unwrap();
    assert_eq!(ran["stdout"], "hi\n");
    assert_eq!(ran["exitCode"], 0);
    // A run this quick gets no "started" notice, only its finish.
    let events: Vec<&str> = f.drain().iter().map(|e| e.event).collect();
    assert_eq!(events, ["exec.finished"]);
    // askFallback is full, yet with nobody asked the node refuses: the
    // gateway must ask its operators.
    let refused = f
        .call(
            "system.run",
            json!({"command": ["id", "-u"], "cwd": f.cwd()}),
        )
        .await
        .unwrap_err();
    assert_eq!(refused.code, "UNAVAILABLE");
    assert!(
        refused
            .message
            .starts_with("SYSTEM_RUN_DENIED: approval required"),
        "{}",
        refused.message
    );
    let denied = f.drain();
    assert_eq!(denied.len(), 1);
    assert_eq!(denied[0].event, "exec.denied");
    assert_eq!(denied[0].payload["reason"], "approval-required");
}

#[tokio::test]
async fn a_gateway_approval_runs_the_prepared_plan_once() {
    let f = fixture(allowlist_policy());
    let prepared = f.prepare(&["id", "-u"]).await;
    let plan = &prepared["plan"];
    assert_eq!(plan["argv"], json!(["id", "-u"]));
    assert_eq!(plan["commandText"], "id -u");
    assert_eq!(
        prepared["execPolicy"],
        json!({"security": "allowlist", "ask": "on-miss"})
    );
    assert_eq!(
        plan["policySnapshot"]["allowlistRules"][0]["pattern"],
        "/usr/bin/echo"
    );
    let run = Fixture::approved_run(plan, "approval-1", "allow-once");
    let ran = f.call("system.run", run.clone()).await.unwrap();
    assert_eq!(ran["exitCode"], 0, "{ran}");
    assert_eq!(ran["runId"], "approval-1");
    let replay = f.call("system.run", run).await.unwrap_err();
    assert!(
        replay.message.contains("already used"),
        "{}",
        replay.message
    );
    // The audit log names the gateway as the approver.
    f.node.flush_audit().await;
    let audit = std::fs::read_to_string(f.dir.path().join("exec-audit.jsonl")).unwrap();
    assert!(audit.contains("human:gateway"), "{audit}");
}

/// One way a forwarded request can differ from its approval.
type Change = Box<dyn Fn(&mut Value)>;

#[tokio::test]
async fn an_approval_must_fit_the_plan_in_every_part() {
    let f = fixture(allowlist_policy());
    let prepared = f.prepare(&["id", "-u"]).await;
    let plan = prepared["plan"].clone();
    let other = tempfile::tempdir().unwrap();
    let cases: Vec<(&str, Change)> = vec![
        (
            "no plan",
            Box::new(|r: &mut Value| {
                r.as_object_mut().unwrap().remove("systemRunPlan");
            }),
        ),
        (
            "argv",
            Box::new(|r: &mut Value| r["command"] = json!(["id", "-g"])),
        ),
        (
            "argv in plan too",
            Box::new(|r: &mut Value| {
                r["command"] = json!(["id", "-g"]);
                r["systemRunPlan"]["argv"] = json!(["id", "-g"]);
            }),
        ),
        (
            "cwd",
            Box::new(move |r: &mut Value| {
                r["cwd"] = json!(other.path().to_string_lossy());
            }),
        ),
        (
            "agent",
            Box::new(|r: &mut Value| r["agentId"] = json!("ops")),
        ),
        (
            "session",
            Box::new(|r: &mut Value| r["sessionKey"] = json!("s2")),
        ),
        (
            "env",
            Box::new(|r: &mut Value| r["env"] = json!({"LANG": "C"})),
        ),
        (
            "forged snapshot",
            Box::new(|r: &mut Value| {
                r["systemRunPlan"]["policySnapshot"]["security"] = json!("full");
            }),
        ),
        (
            "no run id",
            Box::new(|r: &mut Value| {
                r.as_object_mut().unwrap().remove("runId");
            }),
        ),
    ];
    for (what, change) in cases {
        let mut run = Fixture::approved_run(&plan, &format!("a-{what}"), "allow-once");
        change(&mut run);
        let refused = f.call("system.run", run).await.unwrap_err();
        assert!(
            refused.message.starts_with("SYSTEM_RUN_DENIED"),
            "{what}: {}",
            refused.message
        );
    }
    // None of those burnt the approval: the genuine request still runs.
    let run = Fixture::approved_run(&plan, "a-genuine", "allow-once");
    assert_eq!(f.call("system.run", run).await.unwrap()["exitCode"], 0);
}

#[tokio::test]
async fn a_script_rewritten_after_approval_does_not_run() {
    let f = fixture(allowlist_policy());
    let script = f.dir.path().join("job.sh");
    std::fs::write(&script, "echo approved\n").unwrap();
    let prepared = f.prepare(&["sh", "job.sh"]).await;
    let plan = prepared["plan"].clone();
    assert_eq!(plan["mutableFileOperand"]["argvIndex"], 1);
    std::fs::write(&script, "echo swapped\n").unwrap();
    let refused = f
        .call(
            "system.run",
            Fixture::approved_run(&plan, "s-1", "allow-once"),
        )
        .await
        .unwrap_err();
    assert!(
        refused.message.contains("script operand changed"),
        "{}",
        refused.message
    );
    std::fs::write(&script, "echo approved\n").unwrap();
    let ran = f
        .call(
            "system.run",
            Fixture::approved_run(&plan, "s-2", "allow-once"),
        )
        .await
        .unwrap();
    assert_eq!(ran["stdout"], "approved\n");
}

#[tokio::test]
async fn the_nodes_own_deny_wins_and_a_narrowed_policy_voids_approvals() {
    let f = fixture(allowlist_policy());
    let prepared = f.prepare(&["id", "-u"]).await;
    let plan = prepared["plan"].clone();
    // The policy narrows after the approval was asked for.
    let path = f.dir.path().join("exec-approvals.json");
    let mut policy = allowlist_policy();
    policy["agents"]["main"]["allowlist"] = json!([]);
    std::fs::write(&path, serde_json::to_vec(&policy).unwrap()).unwrap();
    let refused = f
        .call(
            "system.run",
            Fixture::approved_run(&plan, "n-1", "allow-once"),
        )
        .await
        .unwrap_err();
    assert!(
        refused.message.contains("policy changed"),
        "{}",
        refused.message
    );
    // security deny: a fresh plan, approved, is still refused.
    policy["defaults"]["security"] = json!("deny");
    std::fs::write(&path, serde_json::to_vec(&policy).unwrap()).unwrap();
    let prepared = f.prepare(&["id", "-u"]).await;
    let refused = f
        .call(
            "system.run",
            Fixture::approved_run(&prepared["plan"], "n-2", "allow-always"),
        )
        .await
        .unwrap_err();
    assert!(
        refused.message.contains("security=deny"),
        "{}",
        refused.message
    );
}

#[tokio::test]
async fn allow_always_from_the_gateway_persists_the_entry() {
    let f = fixture(allowlist_policy());
    let prepared = f.prepare(&["id", "-u"]).await;
    assert_eq!(prepared["allowAlwaysCoverage"]["complete"], true);
    let run = Fixture::approved_run(&prepared["plan"], "aa-1", "allow-always");
    f.call("system.run", run).await.unwrap();
    let again = f
        .call(
            "system.run",
            json!({"command": ["id", "-u"], "cwd": f.cwd()}),
        )
        .await
        .unwrap();
    assert_eq!(again["exitCode"], 0);
    // The entry the approval added shows as such in the next snapshot.
    let prepared = f.prepare(&["id", "-g"]).await;
    let rules = prepared["plan"]["policySnapshot"]["allowlistRules"]
        .as_array()
        .unwrap()
        .clone();
    assert!(
        rules
            .iter()
            .any(|r| r["source"] == "allow-always" && r["pattern"] != "/usr/bin/echo"),
        "{rules:?}"
    );
    assert!(
        rules
            .iter()
            .any(|r| r["pattern"] == "/usr/bin/echo" && r.get("source").is_none()),
        "{rules:?}"
    );
}

#[tokio::test]
async fn approvals_file_round_trips_without_the_token_and_refuses_stale_edits() {
    let f = fixture(allowlist_policy());
    let got = f.call("system.execApprovals.get", json!({})).await.unwrap();
    assert_eq!(got["exists"], true);
    let hash = got["hash"].as_str().unwrap().to_owned();
    let mut file = got["file"].clone();
    file["defaults"]["ask"] = json!("always");
    let set = f
        .call(
            "system.execApprovals.set",
            json!({"file": file, "baseHash": hash}),
        )
        .await
        .unwrap();
    assert_eq!(set["file"]["defaults"]["ask"], "always");
    let stale = f
        .call(
            "system.execApprovals.set",
            json!({"file": file, "baseHash": hash}),
        )
        .await
        .unwrap_err();
    assert_eq!(stale.code, "INVALID_REQUEST");
    assert!(stale.message.contains("changed"), "{}", stale.message);
    let no_base = f
        .call("system.execApprovals.set", json!({"file": file}))
        .await
        .unwrap_err();
    assert!(
        no_base.message.contains("base hash required"),
        "{}",
        no_base.message
    );
    let on_disk = std::fs::read_to_string(f.dir.path().join("exec-approvals.json")).unwrap();
    let token = serde_json::from_str::<Value>(&on_disk).unwrap()["socket"]["token"]
        .as_str()
        .map(str::to_owned);
    let shown = f.call("system.execApprovals.get", json!({})).await.unwrap();
    if let Some(token) = token {
        assert!(!shown.to_string().contains(&token));
    }
    assert!(shown["file"]["socket"].get("token").is_none());
}

#[tokio::test]
async fn unknown_commands_are_unavailable_and_which_answers() {
    let f = fixture(allowlist_policy());
    let error = f.call("browser.proxy", json!({})).await.unwrap_err();
    assert_eq!(error.code, "UNAVAILABLE");
    let which = f
        .call("system.which", json!({"bins": ["sh"]}))
        .await
        .unwrap();
    assert!(which["bins"]["sh"].as_str().is_some());
}

fn alive_with(marker: &str) -> bool {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .any(|entry| {
            std::fs::read(entry.path().join("cmdline"))
                .map(|cmd| String::from_utf8_lossy(&cmd).contains(marker))
                .unwrap_or(false)
        })
}

#[tokio::test]
async fn cancelling_an_invoke_kills_its_whole_process_tree() {
    let f = fixture(json!({"version": 1, "defaults": {"security": "full", "ask": "off"}}));
    // Both sleeps (one in the background) carry the marker in their argv.
    let marker = format!("{}", 7_000_000 + std::process::id());
    let script = format!("sleep {marker} & sleep {marker}; echo done");
    let cancel = CancellationToken::new();
    let node = Arc::clone(&f.node);
    let params = json!({"command": ["/bin/sh", "-c", script], "cwd": f.cwd()});
    let task = tokio::spawn({
        let cancel = cancel.clone();
        async move { node.invoke("system.run", params, cancel).await }
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !alive_with(&marker) && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(alive_with(&marker), "the command never started");
    cancel.cancel();
    let refused = task.await.unwrap().unwrap_err();
    assert!(refused.message.contains("cancelled"), "{}", refused.message);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while alive_with(&marker) && std::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert!(
        !alive_with(&marker),
        "a process of the cancelled run survived"
    );
}

fn full_policy() -> Value {
    json!({"version": 1, "defaults": {"security": "full", "ask": "off"}})
}

#[tokio::test]
async fn run_id_and_session_reach_the_result_the_events_and_the_audit() {
    let mut f = fixture(allowlist_policy());
    let ran = f
        .call(
            "system.run",
            json!({"command": ["echo", "hi"], "cwd": f.cwd(), "runId": "r-7", "sessionKey": "s9"}),
        )
        .await
        .unwrap();
    assert_eq!(ran["runId"], "r-7");
    let events = f.drain();
    assert_eq!(events.len(), 1);
    for event in &events {
        assert_eq!(event.payload["runId"], "r-7", "{event:?}");
        assert_eq!(event.payload["sessionKey"], "s9", "{event:?}");
    }
    f.node.flush_audit().await;
    let audit = std::fs::read_to_string(f.dir.path().join("exec-audit.jsonl")).unwrap();
    assert!(audit.contains(r#""sessionKey":"s9""#), "{audit}");
    // A blank run id is no id: the node makes one; no session is `node`.
    let ran = f
        .call(
            "system.run",
            json!({"command": ["echo", "hi"], "cwd": f.cwd(), "runId": " ", "sessionKey": ""}),
        )
        .await
        .unwrap();
    let made = ran["runId"].as_str().unwrap().to_owned();
    assert!(!made.trim().is_empty(), "{ran}");
    for event in f.drain() {
        assert_eq!(event.payload["runId"], made.as_str(), "{event:?}");
        assert_eq!(event.payload["sessionKey"], "node", "{event:?}");
    }
}

#[tokio::test]
async fn suppress_notify_on_exit_is_passed_on_in_every_lifecycle_event() {
    // The gateway skips the session message of an event that carries it,
    // as its agents' exec tool asks for the runs it waits on itself.
    let mut f = fixture(allowlist_policy());
    for (asked, carried) in [
        (json!(true), true),
        (json!(false), false),
        (Value::Null, false),
    ] {
        let mut params = json!({"command": ["echo", "hi"], "cwd": f.cwd()});
        if !asked.is_null() {
            params["suppressNotifyOnExit"] = asked.clone();
        }
        f.call("system.run", params).await.unwrap();
        let mut denied = json!({"command": ["id", "-u"], "cwd": f.cwd()});
        if !asked.is_null() {
            denied["suppressNotifyOnExit"] = asked.clone();
        }
        f.call("system.run", denied).await.unwrap_err();
        let events: Vec<(&str, Value)> = f
            .drain()
            .into_iter()
            .map(|e| (e.event, e.payload["suppressNotifyOnExit"].clone()))
            .collect();
        assert_eq!(
            events,
            [
                ("exec.finished", json!(carried)),
                ("exec.denied", json!(carried)),
            ],
            "suppressNotifyOnExit: {asked}"
        );
    }
}

#[tokio::test]
async fn exec_finished_follows_the_result_and_only_a_long_run_is_announced() {
    // What a transport sends: the result first, then `then`; nothing of a
    // quick run before it. The gateway drops a failed invoke's event
    // authorization with its result, so a denial goes `before`.
    let mut f = fixture(full_policy());
    let quick = f
        .node
        .handle(
            "system.run",
            json!({"command": ["true"], "cwd": f.cwd(), "runId": "quick"}),
            CancellationToken::new(),
        )
        .await;
    assert_eq!(quick.result.unwrap()["exitCode"], 0);
    let then = quick.then.expect("a run hands back its exec.finished");
    assert_eq!(then.event, "exec.finished");
    assert_eq!(then.payload["runId"], "quick");
    assert!(quick.before.is_none());
    assert!(f.drain().is_empty(), "a quick run queued an event itself");

    // A run well past the notice's delay is announced while it runs.
    let slow = format!("{}", node_host::invoke::STARTED_NOTICE_AFTER.as_secs() + 2);
    let long = f
        .node
        .handle(
            "system.run",
            json!({"command": ["sleep", slow], "cwd": f.cwd(), "runId": "long"}),
            CancellationToken::new(),
        )
        .await;
    assert_eq!(long.result.unwrap()["exitCode"], 0);
    let queued = f.drain();
    assert_eq!(
        queued.iter().map(|e| e.event).collect::<Vec<_>>(),
        ["exec.started"]
    );
    assert_eq!(queued[0].payload["runId"], "long");
    assert_eq!(long.then.map(|e| e.event), Some("exec.finished"));

    // A refusal: exec.denied goes before the result, nothing after it.
    let mut deny = full_policy();
    deny["defaults"]["security"] = json!("deny");
    std::fs::write(
        f.dir.path().join("exec-approvals.json"),
        serde_json::to_vec(&deny).unwrap(),
    )
    .unwrap();
    let refused = f
        .node
        .handle(
            "system.run",
            json!({"command": ["true"], "cwd": f.cwd()}),
            CancellationToken::new(),
        )
        .await;
    assert!(refused.result.is_err());
    assert!(refused.then.is_none());
    assert_eq!(refused.before.map(|e| e.event), Some("exec.denied"));
    assert!(f.drain().is_empty(), "a refusal queued an event itself");
}

#[tokio::test]
async fn the_agents_own_policy_applies_to_its_requests() {
    let mut policy = allowlist_policy();
    policy["agents"]["ops"] = json!({"security": "deny"});
    let f = fixture(policy);
    let params = |agent: &str| json!({"command": ["echo", "hi"], "cwd": f.cwd(), "agentId": agent});
    let ran = f.call("system.run", params("main")).await.unwrap();
    assert_eq!(ran["stdout"], "hi\n");
    let refused = f.call("system.run", params("ops")).await.unwrap_err();
    assert!(
        refused.message.contains("security=deny"),
        "{}",
        refused.message
    );
}

#[tokio::test]
async fn a_raw_command_that_is_not_the_argv_is_refused() {
    let f = fixture(allowlist_policy());
    // People would read `echo bye`; `echo hi` would run.
    let refused = f
        .call(
            "system.run",
            json!({"command": ["echo", "hi"], "rawCommand": "echo bye", "cwd": f.cwd()}),
        )
        .await
        .unwrap_err();
    assert_eq!(refused.code, "INVALID_REQUEST", "{}", refused.message);
}

#[tokio::test]
async fn environment_overrides_and_timeouts_reach_the_command() {
    let f = fixture(full_policy());
    let ran = f
        .call(
            "system.run",
            json!({"command": ["/bin/sh", "-c", "echo \"$GREETING\""], "cwd": f.cwd(),
                   "env": {"GREETING": "from-env"}}),
        )
        .await
        .unwrap();
    assert_eq!(ran["stdout"], "from-env\n", "{ran}");
    let ran = f
        .call(
            "system.run",
            json!({"command": ["/bin/sleep", "30"], "cwd": f.cwd(), "timeoutMs": 100}),
        )
        .await
        .unwrap();
    // Without the timeout the sleep ends on its own, not timed out.
    assert_eq!(ran["timedOut"], true, "{ran}");
}

#[tokio::test]
async fn expired_approvals_go_to_the_ask_fallback_and_forged_sources_are_refused() {
    let mut policy = allowlist_policy();
    policy["defaults"]["security"] = json!("full");
    policy["defaults"]["ask"] = json!("always");
    let f = fixture(policy.clone());
    let params = |extra: Value| {
        let mut p = json!({"command": ["id", "-u"], "cwd": f.cwd()});
        p.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        p
    };
    // Nobody asked: approval required. The gateway's operators let it
    // expire: askFallback (full) decides.
    let refused = f.call("system.run", params(json!({}))).await.unwrap_err();
    assert!(
        refused.message.contains("approval required"),
        "{}",
        refused.message
    );
    let ran = f
        .call(
            "system.run",
            params(json!({"approvalSource": "ask-fallback"})),
        )
        .await
        .unwrap();
    assert_eq!(ran["exitCode"], 0, "{ran}");
    for (what, extra) in [
        (
            "expired yet approved",
            json!({"approvalSource": "ask-fallback", "approved": true}),
        ),
        (
            "expired yet decided",
            json!({"approvalSource": "ask-fallback", "approvalDecision": "allow-always"}),
        ),
        (
            "the relayed source claimed by the caller",
            json!({"approvalSource": "gateway", "approvalDecision": "allow-once"}),
        ),
        (
            "an unknown decision",
            json!({"approved": true, "approvalDecision": "allow-forever", "runId": "x"}),
        ),
    ] {
        let refused = f.call("system.run", params(extra)).await.unwrap_err();
        assert_eq!(
            refused.code, "INVALID_REQUEST",
            "{what}: {}",
            refused.message
        );
    }
    let denied = f
        .call(
            "system.run",
            params(json!({"approvalDecision": "deny", "runId": "d"})),
        )
        .await
        .unwrap_err();
    assert!(denied.message.contains("user denied"), "{}", denied.message);
    // askFallback deny: the expired approval is refused.
    policy["defaults"]["askFallback"] = json!("deny");
    std::fs::write(
        f.dir.path().join("exec-approvals.json"),
        serde_json::to_vec(&policy).unwrap(),
    )
    .unwrap();
    let refused = f
        .call(
            "system.run",
            params(json!({"approvalSource": "ask-fallback"})),
        )
        .await
        .unwrap_err();
    assert!(
        refused.message.starts_with("SYSTEM_RUN_DENIED"),
        "{}",
        refused.message
    );
}

#[tokio::test]
async fn approved_without_a_decision_is_allow_once() {
    let f = fixture(allowlist_policy());
    let prepared = f.prepare(&["id", "-u"]).await;
    let mut run = Fixture::approved_run(&prepared["plan"], "plain-1", "allow-once");
    run.as_object_mut().unwrap().remove("approvalDecision");
    assert_eq!(
        f.call("system.run", run.clone()).await.unwrap()["exitCode"],
        0
    );
    let replay = f.call("system.run", run).await.unwrap_err();
    assert!(
        replay.message.contains("already used"),
        "{}",
        replay.message
    );
}

#[tokio::test]
async fn an_approval_for_another_agent_runs_under_that_agent() {
    let mut policy = allowlist_policy();
    policy["agents"]["ops"] = json!({"allowlist": [{"pattern": "/usr/bin/true"}]});
    let f = fixture(policy);
    let prepared = f
        .call(
            "system.run.prepare",
            json!({"command": ["id", "-u"], "cwd": f.cwd(), "agentId": "ops"}),
        )
        .await
        .unwrap();
    let plan = &prepared["plan"];
    assert_eq!(plan["agentId"], "ops");
    assert_eq!(
        plan["policySnapshot"]["allowlistRules"][0]["pattern"],
        "/usr/bin/true"
    );
    let run = Fixture::approved_run(plan, "ops-1", "allow-once");
    assert_eq!(f.call("system.run", run).await.unwrap()["exitCode"], 0);
}

#[tokio::test]
async fn a_shell_plan_runs_by_its_preview_and_not_by_other_text() {
    let f = fixture(allowlist_policy());
    let prepared = f.prepare(&["sh", "-c", "echo hi"]).await;
    let plan = prepared["plan"].clone();
    assert_eq!(plan["commandText"], "echo hi");
    let preview = plan["commandPreview"].as_str().unwrap().to_owned();
    assert_ne!(preview, "echo hi");
    let mut run = Fixture::approved_run(&plan, "p-1", "allow-once");
    run["rawCommand"] = json!(preview);
    let ran = f.call("system.run", run).await.unwrap();
    assert_eq!(ran["stdout"], "hi\n", "{ran}");
    let mut run = Fixture::approved_run(&plan, "p-2", "allow-once");
    run["rawCommand"] = json!("echo bye");
    let refused = f.call("system.run", run).await.unwrap_err();
    assert!(
        refused.message.contains("rawCommand differs"),
        "{}",
        refused.message
    );
}

#[tokio::test]
async fn a_script_behind_an_option_value_is_still_bound() {
    let f = fixture(allowlist_policy());
    let script = f.dir.path().join("job.sh");
    std::fs::write(&script, "echo approved\n").unwrap();
    // `errexit` is the value of `-o`, not a file: the script is `job.sh`.
    let prepared = f.prepare(&["sh", "-o", "errexit", "job.sh"]).await;
    let plan = prepared["plan"].clone();
    assert_eq!(plan["mutableFileOperand"]["argvIndex"], 3, "{plan}");
    std::fs::write(&script, "echo swapped\n").unwrap();
    let refused = f
        .call(
            "system.run",
            Fixture::approved_run(&plan, "o-1", "allow-once"),
        )
        .await
        .unwrap_err();
    assert!(
        refused.message.contains("script operand changed"),
        "{}",
        refused.message
    );
}

#[tokio::test]
async fn a_large_script_is_bound_too() {
    let f = fixture(allowlist_policy());
    let script = f.dir.path().join("bundle.sh");
    // A bundled tool of 4 MiB: a comment line of padding, then the command.
    let mut text = format!("#{}\n", "x".repeat(4 * 1024 * 1024));
    text.push_str("echo approved\n");
    std::fs::write(&script, &text).unwrap();
    let prepared = f.prepare(&["sh", "bundle.sh"]).await;
    let plan = prepared["plan"].clone();
    assert_eq!(plan["mutableFileOperand"]["argvIndex"], 1, "{plan}");
    std::fs::write(&script, text.replace("echo approved", "echo swapped!")).unwrap();
    let refused = f
        .call(
            "system.run",
            Fixture::approved_run(&plan, "big-1", "allow-once"),
        )
        .await
        .unwrap_err();
    assert!(
        refused.message.contains("script operand changed"),
        "{}",
        refused.message
    );
}

#[tokio::test]
async fn several_prepared_plans_can_each_be_approved() {
    let f = fixture(allowlist_policy());
    let first = f.prepare(&["id", "-u"]).await;
    let second = f.prepare(&["id", "-g"]).await;
    for (prepared, id) in [(&second, "m-2"), (&first, "m-1")] {
        let run = Fixture::approved_run(&prepared["plan"], id, "allow-once");
        assert_eq!(f.call("system.run", run).await.unwrap()["exitCode"], 0);
    }
}

#[tokio::test]
async fn a_script_too_large_to_hash_is_never_run_by_an_approval() {
    let f = fixture(allowlist_policy());
    let script = f.dir.path().join("huge.sh");
    let text = format!("#{}\necho approved\n", "x".repeat(16 * 1024 * 1024));
    std::fs::write(&script, &text).unwrap();
    let prepared = f.prepare(&["sh", "huge.sh"]).await;
    let plan = prepared["plan"].clone();
    assert_eq!(plan["mutableFileOperand"]["argvIndex"], 1, "{plan}");
    // Unbound, it could be swapped after approval: it is refused instead.
    std::fs::write(&script, text.replace("echo approved", "echo swapped!")).unwrap();
    let refused = f
        .call(
            "system.run",
            Fixture::approved_run(&plan, "huge-1", "allow-once"),
        )
        .await
        .unwrap_err();
    assert!(
        refused.message.contains("script operand"),
        "{}",
        refused.message
    );
}
