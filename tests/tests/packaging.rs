//! The `cargo deb` metadata of both binaries (`[package.metadata.deb]`),
//! read through `cargo metadata` as cargo-deb reads it: the control fields
//! Debian needs are there, and every asset names files that exist, so a
//! `.deb` built from a checkout ships the binary, its man pages, the three
//! completions, the user units, the docs and the example policy. Building
//! the package itself needs cargo-deb and a release build, which CI does
//! not have time for (docs/operations.md has the command and what it held).
//! `--version` of both binaries names the crate version and the git commit.

use std::path::{Path, PathBuf};
use std::process::Command;

use approvals_tests::workspace_root;
use serde_json::Value;

/// `cargo metadata --no-deps` of the workspace.
fn metadata() -> Value {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(workspace_root())
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

fn package<'a>(metadata: &'a Value, name: &str) -> &'a Value {
    metadata["packages"]
        .as_array()
        .and_then(|packages| packages.iter().find(|p| p["name"] == name))
        .unwrap_or_else(|| panic!("no package {name}"))
}

/// The files `pattern` (relative to `dir`, `*` only in the file name)
/// names.
fn expand(dir: &Path, pattern: &str) -> Vec<PathBuf> {
    let path = dir.join(pattern);
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_owned();
    let Some((prefix, suffix)) = name.split_once('*') else {
        return if path.is_file() { vec![path] } else { vec![] };
    };
    let parent = path.parent().expect("a parent directory");
    std::fs::read_dir(parent)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with(prefix) && n.ends_with(suffix))
                })
                .collect()
        })
        .unwrap_or_default()
}

fn check_package(metadata: &Value, name: &str, units: &[&str]) {
    let package = package(metadata, name);
    let deb = &package["metadata"]["deb"];
    // "Name <email>", as Debian policy 5.6.2 wants, and the same as the
    // crate's authors (the copyright file is made from them).
    let maintainer = deb["maintainer"].as_str().expect("maintainer");
    let (who, email) = maintainer
        .split_once(" <")
        .unwrap_or_else(|| panic!("{name}: maintainer {maintainer:?} has no <email>"));
    assert!(!who.trim().is_empty(), "{name}: {maintainer:?}");
    assert!(
        email.ends_with('>') && email.contains('@'),
        "{name}: {maintainer:?}"
    );
    assert_eq!(
        package["authors"][0].as_str(),
        Some(maintainer),
        "{name}: the maintainer is not the crate's author"
    );
    for field in [
        "section",
        "priority",
        "depends",
        "copyright",
        "extended-description",
    ] {
        assert!(
            deb[field].as_str().is_some_and(|v| !v.trim().is_empty()),
            "{name}: [package.metadata.deb] has no {field}"
        );
    }
    for field in ["description", "license", "repository", "homepage"] {
        assert!(
            package[field].as_str().is_some_and(|v| !v.is_empty()),
            "{name}: Cargo.toml has no {field} (cargo-deb reads it)"
        );
    }
    let manifest_dir = PathBuf::from(package["manifest_path"].as_str().expect("manifest"))
        .parent()
        .expect("the package directory")
        .to_owned();
    let assets = deb["assets"].as_array().expect("assets");
    let mut targets = Vec::new();
    for asset in assets {
        let source = asset[0].as_str().expect("asset source");
        let target = asset[1].as_str().expect("asset target");
        targets.push(target.to_owned());
        if source.starts_with("target/release/") {
            // Built by `cargo deb`; cargo-deb maps it to the workspace's
            // target directory.
            assert_eq!(source, format!("target/release/{name}"));
            assert_eq!(target, "usr/bin/");
            continue;
        }
        let found = expand(&manifest_dir, source);
        assert!(
            !found.is_empty(),
            "{name}: asset {source} names no file in {}",
            manifest_dir.display()
        );
    }
    let ships = |dest: &str| targets.iter().any(|t| t.starts_with(dest));
    for dest in [
        "usr/bin/",
        "usr/share/man/man1/",
        "usr/share/bash-completion/completions/",
        "usr/share/zsh/vendor-completions/",
        "usr/share/fish/vendor_completions.d/",
        "usr/lib/systemd/user/",
    ] {
        assert!(ships(dest), "{name}: nothing goes to {dest}");
    }
    let sources: Vec<&str> = assets.iter().filter_map(|a| a[0].as_str()).collect();
    assert!(
        sources.contains(&"../exec-approvals.json.example"),
        "{name}: the example policy is not shipped"
    );
    for unit in units {
        assert!(
            sources.contains(&format!("../contrib/{unit}").as_str()),
            "{name}: {unit} is not shipped"
        );
    }
    // Every man page of this binary, not only the top one.
    let man = expand(&manifest_dir, &format!("../docs/man/{name}*.1"));
    assert!(man.len() > 1, "{name}: {man:?}");
}

#[test]
fn both_packages_have_complete_deb_metadata_and_every_asset_exists() {
    let metadata = metadata();
    check_package(
        &metadata,
        "ui-bridge",
        &["ui-bridge.service", "ui-bridge.socket"],
    );
    check_package(&metadata, "node-host", &["node-host.service"]);
}

#[test]
fn version_names_the_crate_version_and_the_git_commit() {
    let root = workspace_root();
    // The commit the binaries were built from: cargo rebuilds them when
    // HEAD moves (ui-bridge/build.rs), so it is HEAD's; outside a git
    // checkout it is "unknown".
    let commit = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(&root)
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned())
        .unwrap_or_else(|| "unknown".to_owned());
    let metadata = metadata();
    for name in ["ui-bridge", "node-host"] {
        let version = package(&metadata, name)["version"]
            .as_str()
            .expect("a version")
            .to_owned();
        let out = Command::new(approvals_tests::bin(name))
            .arg("--version")
            .output()
            .expect("run --version");
        assert!(out.status.success(), "{name} --version: {out:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("{name} {version} (commit {commit})\n")
        );
    }
}
