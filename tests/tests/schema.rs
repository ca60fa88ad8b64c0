//! The JSON Schema of the approvals file (`ui-bridge schema`,
//! `docs/exec-approvals.schema.json`): it is what the loader's types say
//! now, it accepts every approvals file the project ships or writes, it
//! rejects what the loader would drop, and the `$schema` key that points
//! editors at it survives the loader's round trip.
//!
//! Regenerate the committed copy with `scripts/gen-docs` (or
//! `ui-bridge schema > docs/exec-approvals.schema.json`).

use approvals_tests::{Bridge, TestHome, output, workspace_root};
use serde_json::{Value, json};

/// The schema the binary prints now.
fn generated_schema() -> Value {
    let home = TestHome::new();
    let out = output(home.command("ui-bridge").arg("schema"));
    assert!(out.status.success(), "ui-bridge schema: {out:?}");
    serde_json::from_slice(&out.stdout).expect("the schema is JSON")
}

fn validator() -> jsonschema::Validator {
    jsonschema::validator_for(&generated_schema()).expect("a valid JSON Schema")
}

fn assert_valid(validator: &jsonschema::Validator, what: &str, file: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(file)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{what} does not validate: {errors:#?}");
}

#[test]
fn committed_schema_matches_the_loader() {
    let path = workspace_root().join("docs/exec-approvals.schema.json");
    let committed: Value = serde_json::from_slice(&std::fs::read(&path).expect("read the schema"))
        .expect("the committed schema is JSON");
    assert!(
        committed == generated_schema(),
        "docs/exec-approvals.schema.json differs from `ui-bridge schema`: run scripts/gen-docs and commit the result"
    );
}

#[test]
fn the_example_and_every_shipped_approvals_file_validate() {
    let validator = validator();
    let root = workspace_root();
    let example: Value = serde_json::from_slice(
        &std::fs::read(root.join("exec-approvals.json.example")).expect("read the example"),
    )
    .expect("the example is JSON");
    assert_eq!(example["$schema"], "./docs/exec-approvals.schema.json");
    assert_valid(&validator, "exec-approvals.json.example", &example);

    // Every JSON block in the docs that is an approvals file.
    let mut docs = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).expect("docs") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            docs.push(path);
        }
    }
    let mut checked = 0;
    for doc in docs {
        let text = std::fs::read_to_string(&doc).expect("read doc");
        for block in text.split("```json").skip(1) {
            let body = block.split("```").next().unwrap_or_default();
            let Ok(value) = serde_json::from_str::<Value>(body) else {
                continue;
            };
            if value.get("version").is_some() {
                assert_valid(&validator, &format!("a block in {}", doc.display()), &value);
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no approvals file found in the docs");
}

#[test]
fn the_file_a_bridge_creates_validates() {
    let home = TestHome::new();
    drop(Bridge::start(&home, &[]));
    assert_valid(
        &validator(),
        "the file ui-bridge serve created",
        &home.read_approvals(),
    );
}

#[test]
fn the_schema_rejects_what_the_loader_drops_or_refuses() {
    let validator = validator();
    for bad in [
        json!({"version": 2}),
        json!({"agents": {}}),
        json!({"version": 1, "defaults": {"security": "sometimes"}}),
        json!({"version": 1, "defaults": {"ask": "never"}}),
        json!({"version": 1, "agents": {"main": {"allowlist": [42]}}}),
        json!({"version": 1, "agents": {"main": {"allowlist": [{"id": "no-pattern"}]}}}),
        json!({"version": 1, "socket": {"path": 7}}),
    ] {
        assert!(!validator.is_valid(&bad), "accepted {bad}");
    }
    for good in [
        json!({"version": 1}),
        json!({"version": 1, "agents": {"main": {"allowlist": ["/usr/bin/git", {"pattern": "/usr/bin/make", "lastUsedAt": 1}]}}}),
        json!({"version": 1, "futureField": {"kept": true}}),
    ] {
        assert_valid(&validator, &good.to_string(), &good);
    }
}

#[test]
fn the_schema_key_survives_an_edit_through_the_loader() {
    let home = TestHome::new();
    let mut example: Value = serde_json::from_slice(
        &std::fs::read(workspace_root().join("exec-approvals.json.example")).expect("read"),
    )
    .expect("json");
    example["$schema"] = json!("/usr/share/doc/ui-bridge/exec-approvals.schema.json");
    home.write_approvals(&example);
    let out = output(home.command("node-host").args([
        "approvals",
        "allow",
        "/usr/bin/make",
        "--agent",
        "main",
    ]));
    assert!(out.status.success(), "approvals allow: {out:?}");
    let saved = home.read_approvals();
    assert_eq!(
        saved["$schema"],
        json!("/usr/share/doc/ui-bridge/exec-approvals.schema.json")
    );
    assert!(
        approvals_tests::allowlist_patterns(&saved, "main").contains(&"/usr/bin/make".to_owned()),
        "the edit was saved: {saved:#}"
    );
}
