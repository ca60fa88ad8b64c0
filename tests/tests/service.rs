//! `ui-bridge service` and `node-host service` end to end: the real
//! binaries write systemd user units into a temp directory, the units pass
//! `systemd-analyze verify` (no warning either), uninstall removes them, and
//! a unit file someone else wrote is never overwritten. The units the
//! `.deb` ships (`contrib/`) pass `systemd-analyze verify` too, and the
//! launchd agents (generated, and the example in `contrib/`) are
//! well-formed property lists that Python's `plistlib` reads back.
//!
//! Starting the units needs a running `systemd --user`, which CI containers
//! lack; socket activation itself is tested in socket_activation.rs.

use std::path::Path;
use std::process::Command;

use approvals_tests::status::USAGE;
use approvals_tests::{TestHome, bin, output};

fn service(home: &TestHome, binary: &str, args: &[&str], units: &Path) -> std::process::Output {
    output(
        home.command(binary)
            .arg("service")
            .args(args)
            .arg("--unit-dir")
            .arg(units),
    )
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

#[test]
fn install_writes_hardened_units_that_uninstall_removes() {
    let home = TestHome::new();
    let units = home.path().join("units");
    let out = service(&home, "ui-bridge", &["install"], &units);
    assert!(out.status.success(), "{out:?}");
    let out = service(
        &home,
        "node-host",
        &["install", "--gateway", "ws://127.0.0.1:18789"],
        &units,
    );
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains(
        "systemctl --user daemon-reload && systemctl --user enable --now node-host.service"
    ));

    let bridge = read(&units.join("ui-bridge.service"));
    let approvals = home.approvals().display().to_string();
    assert!(
        bridge.contains(&format!(
            "ExecStart={} serve --approvals {approvals}\n",
            bin("ui-bridge").display()
        )),
        "{bridge}"
    );
    for line in [
        "Requires=ui-bridge.socket",
        "NoNewPrivileges=yes",
        "ProtectSystem=full",
        "Delegate=yes",
    ] {
        assert!(bridge.contains(line), "missing {line}: {bridge}");
    }
    let socket = read(&units.join("ui-bridge.socket"));
    assert!(
        socket.contains(&format!(
            "ListenStream={}\nSocketMode=0600\n",
            home.state_dir().join("exec-approvals.sock").display()
        )),
        "{socket}"
    );
    let node = read(&units.join("node-host.service"));
    assert!(
        node.contains("serve --approvals ") && node.contains(" --gateway ws://127.0.0.1:18789\n"),
        "{node}"
    );

    let status = service(&home, "ui-bridge", &["status"], &units);
    assert!(
        String::from_utf8_lossy(&status.stdout).contains("installed: "),
        "{status:?}"
    );
    assert!(
        service(&home, "ui-bridge", &["uninstall"], &units)
            .status
            .success()
    );
    assert!(
        service(&home, "node-host", &["uninstall"], &units)
            .status
            .success()
    );
    let left: Vec<_> = std::fs::read_dir(&units)
        .expect("units")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(left, Vec::<std::ffi::OsString>::new());
}

#[test]
fn generated_units_pass_systemd_analyze_verify() {
    if !have("systemd-analyze", ".ci/run installs systemd") {
        return;
    }
    let home = TestHome::new();
    let units = home.path().join("units");
    assert!(
        service(&home, "ui-bridge", &["install"], &units)
            .status
            .success()
    );
    assert!(
        service(
            &home,
            "node-host",
            &["install", "--gateway", "wss://gw.example.net:18789"],
            &units
        )
        .status
        .success()
    );
    let runtime = home.path().join("run");
    std::fs::create_dir(&runtime).expect("runtime dir");
    for unit in ["ui-bridge.service", "ui-bridge.socket", "node-host.service"] {
        let out = output(
            Command::new("systemd-analyze")
                .env("XDG_RUNTIME_DIR", &runtime)
                .args(["verify", "--man=no", "--user"])
                .arg(units.join(unit)),
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && stderr.trim().is_empty(),
            "systemd-analyze verify {unit}: {stderr}\n{}",
            read(&units.join(unit))
        );
    }
}

#[test]
fn install_never_overwrites_a_unit_it_did_not_write() {
    let home = TestHome::new();
    let units = home.path().join("units");
    std::fs::create_dir_all(&units).expect("mkdir");
    std::fs::write(
        units.join("ui-bridge.service"),
        "[Service]\nExecStart=/bin/true\n",
    )
    .expect("write");
    let out = service(&home, "ui-bridge", &["install"], &units);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("was not written by `service install`"),
        "{out:?}"
    );
    assert_eq!(
        read(&units.join("ui-bridge.service")),
        "[Service]\nExecStart=/bin/true\n"
    );
    assert!(!units.join("ui-bridge.socket").exists());
}

#[test]
fn node_service_install_needs_a_gateway() {
    let home = TestHome::new();
    let units = home.path().join("units");
    let out = service(&home, "node-host", &["install"], &units);
    assert_eq!(out.status.code(), Some(USAGE), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--gateway"));
}

#[test]
fn install_without_a_user_manager_says_how_to_run_the_service_by_hand() {
    let home = TestHome::new();
    let units = home.path().join("units");
    let runtime = home.path().join("run");
    std::fs::create_dir(&runtime).expect("runtime dir");
    let install = || {
        output(
            home.command("ui-bridge")
                .env("XDG_RUNTIME_DIR", &runtime)
                .args(["service", "install", "--unit-dir"])
                .arg(&units),
        )
    };
    let out = install();
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let note = format!(
        "note: no systemd user manager is running here (no {}), so `systemctl --user` cannot start the units yet\n",
        runtime.join("systemd/private").display()
    );
    let by_hand = format!(
        "\n  {} serve --approvals {}\n",
        bin("ui-bridge").display(),
        home.approvals().display()
    );
    assert!(
        stderr.starts_with(&note) && stderr.ends_with(&by_hand),
        "{stderr}"
    );

    // With a user manager's socket there, the units can be started: no note.
    std::fs::create_dir(runtime.join("systemd")).expect("systemd dir");
    let _manager = std::os::unix::net::UnixListener::bind(runtime.join("systemd/private"))
        .expect("bind the manager's socket");
    let out = install();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// Whether `program --version` runs; outside CI a missing tool is a SKIP
/// line, in CI a failure (`.ci/run` installs it).
fn have(program: &str, installed_by: &str) -> bool {
    if Command::new(program).arg("--version").output().is_ok() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must have {program} ({installed_by})"
    );
    eprintln!("SKIP: {program} is not installed");
    false
}

#[test]
fn packaged_units_in_contrib_pass_systemd_analyze_verify() {
    // The units the .deb ships to /usr/lib/systemd/user/ run /usr/bin/NAME,
    // which is not installed here: the copies checked differ from the
    // shipped files only in that one path, pointed at the built binary.
    if !have("systemd-analyze", ".ci/run installs systemd") {
        return;
    }
    let home = TestHome::new();
    let units = home.path().join("units");
    std::fs::create_dir(&units).expect("units dir");
    let contrib = approvals_tests::workspace_root().join("contrib");
    for (unit, binary) in [
        ("ui-bridge.service", Some("ui-bridge")),
        ("ui-bridge.socket", None),
        ("node-host.service", Some("node-host")),
    ] {
        let shipped = read(&contrib.join(unit));
        let copy = match binary {
            Some(name) => {
                let packaged = format!("\nExecStart=/usr/bin/{name} ");
                assert_eq!(
                    shipped.matches(&packaged).count(),
                    1,
                    "contrib/{unit} does not run the packaged /usr/bin/{name}: {shipped}"
                );
                shipped.replace(&packaged, &format!("\nExecStart={} ", bin(name).display()))
            }
            None => shipped.clone(),
        };
        std::fs::write(units.join(unit), copy).expect("write the copy");
        for line in ["NoNewPrivileges=yes", "ProtectSystem=full", "UMask=0077"] {
            assert!(
                binary.is_none() || shipped.contains(&format!("\n{line}\n")),
                "contrib/{unit} lacks {line}"
            );
        }
    }
    let runtime = home.path().join("run");
    std::fs::create_dir(&runtime).expect("runtime dir");
    for unit in ["ui-bridge.service", "ui-bridge.socket", "node-host.service"] {
        let out = output(
            Command::new("systemd-analyze")
                .env("XDG_RUNTIME_DIR", &runtime)
                .env("HOME", home.path())
                .args(["verify", "--man=no", "--user"])
                .arg(units.join(unit)),
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && stderr.trim().is_empty(),
            "systemd-analyze verify contrib/{unit}: {stderr}"
        );
    }
}

/// A plist read back by Python's `plistlib` (the format's reference
/// reader outside macOS; it refuses malformed XML), as JSON.
fn read_plist(plist: &Path) -> serde_json::Value {
    let out = output(
        Command::new("python3")
            .args([
                "-c",
                "import json, plistlib, sys\n\
                 with open(sys.argv[1], 'rb') as f:\n    print(json.dumps(plistlib.load(f)))",
            ])
            .arg(plist),
    );
    assert!(
        out.status.success(),
        "{} is not a well-formed plist: {}\n{}",
        plist.display(),
        String::from_utf8_lossy(&out.stderr),
        read(plist)
    );
    serde_json::from_slice(&out.stdout).expect("plistlib prints JSON")
}

#[test]
fn launchd_plists_are_well_formed_and_say_what_the_unit_runs() {
    if !have("python3", ".ci/run installs python3") {
        return;
    }
    use ui_bridge::service::{BridgeServiceArgs, ServiceCommand, launchd_plist};
    let home = TestHome::new();
    // A path with every character XML escapes, a space, a quote and a
    // control character: the plist must stay well-formed and say it back.
    let dir = home.path().join("a & <b> \"c\" \u{1}d");
    let approvals = dir.join("exec-approvals.json");
    let args = BridgeServiceArgs {
        command: ServiceCommand::Install { unit_dir: None },
        approvals: Some(approvals.clone()),
    };
    let spec = args.spec().expect("the bridge's service spec");
    let (name, text) = launchd_plist(&spec, Some(home.path()));
    assert_eq!(name, "ai.clawdbot.ui-bridge.plist");
    let path = home.path().join(&name);
    std::fs::write(&path, &text).expect("write the plist");
    let plist = read_plist(&path);
    let shown_approvals = approvals.display().to_string().replace('\u{1}', "\u{FFFD}");
    assert_eq!(plist["Label"], "ai.clawdbot.ui-bridge");
    assert_eq!(
        plist["ProgramArguments"],
        serde_json::json!([
            spec.exe.display().to_string(),
            "serve",
            "--approvals",
            shown_approvals
        ])
    );
    assert_eq!(plist["RunAtLoad"], true);
    assert_eq!(plist["KeepAlive"], true);
    assert_eq!(plist["Umask"], 0o077);
    // The log is private to the user, never in the shared /tmp.
    assert_eq!(
        plist["StandardErrorPath"],
        home.path()
            .join("Library/Logs/ai.clawdbot.ui-bridge.log")
            .display()
            .to_string()
    );
    let (_, no_home) = launchd_plist(&spec, None);
    std::fs::write(&path, &no_home).expect("write the plist");
    assert!(read_plist(&path).get("StandardErrorPath").is_none());

    // The example agent in contrib/ that docs/gateway.md has users copy.
    let contrib =
        read_plist(&approvals_tests::workspace_root().join("contrib/ai.clawdbot.node-host.plist"));
    assert_eq!(contrib["Label"], "ai.clawdbot.node-host");
    let argv = contrib["ProgramArguments"].as_array().expect("an array");
    assert!(
        argv.iter().all(serde_json::Value::is_string) && argv[1] == "serve",
        "{argv:?}"
    );
}
