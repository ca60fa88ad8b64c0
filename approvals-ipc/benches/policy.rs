//! Policy evaluation and approvals-file parsing throughput.
//!
//! `cargo bench -p approvals-ipc --bench policy` — five typical commands
//! (two argv requests, three shell scripts) against allowlists of 10, 1 000
//! and 10 000 entries, parsing, wrapper unwrapping and executable resolution
//! included; and loading an approvals file with 10 000 entries.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::Path;

use approvals_ipc::approvals::ApprovalsFile;
use approvals_ipc::policy::{CompiledPolicy, HostContext};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

fn file_with_entries(n: usize) -> String {
    let mut entries: Vec<serde_json::Value> = (0..n.saturating_sub(5))
        .map(|i| serde_json::json!({"id": format!("00000000-0000-4000-8000-{i:012}"), "pattern": format!("/opt/tool{i}/bin/*"), "lastUsedAt": 1737150000000u64, "lastUsedCommand": format!("tool{i} --flag"), "lastResolvedPath": format!("/opt/tool{i}/bin/tool{i}")}))
        .collect();
    for p in [
        "/usr/bin/git",
        "/usr/local/bin/git",
        "/usr/bin/ls",
        "/usr/bin/make",
        "/usr/bin/cat",
    ] {
        entries.push(serde_json::json!({"pattern": p}));
    }
    serde_json::to_string_pretty(&serde_json::json!({
        "version": 1,
        "socket": {"path": "/tmp/x.sock", "token": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"},
        "defaults": {"security": "allowlist", "ask": "on-miss", "askFallback": "deny"},
        "agents": {"main": {"allowlist": entries}}
    }))
    .unwrap_or_default()
}

fn argv(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

fn commands() -> Vec<(&'static str, Vec<String>)> {
    vec![
        ("argv git status", argv(&["git", "status"])),
        ("argv ls -la", argv(&["ls", "-la", "/tmp"])),
        // A file operand below the working directory: one `readlink` for a
        // node running as root (nothing a user's node has to look at twice
        // in a second is settled there).
        ("argv cat file", argv(&["cat", "README.md"])),
        (
            "shell chain",
            argv(&["/bin/sh", "-c", "git status && git log --oneline -5"]),
        ),
        ("shell pipeline", argv(&["bash", "-lc", "ls -la | wc -l"])),
        (
            "shell cd make",
            argv(&["/bin/sh", "-c", "cd src && make test"]),
        ),
    ]
}

fn evaluation(c: &mut Criterion) {
    let host = HostContext::from_process();
    // The overrides a request carries: none here, as most requests.
    let no_env = BTreeMap::new();
    let mut group = c.benchmark_group("evaluate");
    group.throughput(Throughput::Elements(1));
    for n in [10usize, 1_000, 10_000] {
        let text = file_with_entries(n);
        let file = ApprovalsFile::parse(text.as_bytes(), Path::new("bench.json"))
            .expect("bench file parses")
            .file;
        let compiled = CompiledPolicy::compile(file.resolve(Some("main")), &host);
        for (name, argv) in commands() {
            group.bench_with_input(BenchmarkId::new(name, n), &argv, |b, argv| {
                b.iter(|| black_box(compiled.evaluate(black_box(argv), Path::new("/tmp"), &no_env)))
            });
        }
    }
    group.finish();
}

fn parsing(c: &mut Criterion) {
    let text = file_with_entries(10_000);
    let mut group = c.benchmark_group("approvals file");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("parse 10000 entries", |b| {
        b.iter(|| {
            black_box(ApprovalsFile::parse(
                black_box(text.as_bytes()),
                Path::new("bench.json"),
            ))
        })
    });
    group.bench_function("parse and compile 10000 entries", |b| {
        let host = HostContext::from_process();
        b.iter(|| {
            let file = ApprovalsFile::parse(black_box(text.as_bytes()), Path::new("bench.json"))
                .expect("parses")
                .file;
            black_box(CompiledPolicy::compile(file.resolve(Some("main")), &host))
        })
    });
    group.finish();
}

criterion_group!(benches, evaluation, parsing);
criterion_main!(benches);
