//! `ui-bridge service` and `node-host service` end to end: the real
//! binaries write systemd user units into a temp directory, the units pass
//! `systemd-analyze verify` (no warning either), uninstall removes them, and
//! a unit file someone else wrote is never overwritten.
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
    let Ok(version) = Command::new("systemd-analyze").arg("--version").output() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must have systemd-analyze (.ci/run installs systemd)"
        );
        eprintln!("SKIP: systemd-analyze is not installed");
        return;
    };
    assert!(version.status.success());
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
