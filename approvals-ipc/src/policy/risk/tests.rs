use super::RiskLevel::{Critical, High, Low, Medium};
use super::*;

/// Builds pipelines from `a b | c d ; e` (a test-only splitter, no quoting).
fn pipes(text: &str) -> Vec<Vec<Vec<String>>> {
    text.split(';')
        .map(|p| {
            p.split('|')
                .map(|c| c.split_whitespace().map(str::to_owned).collect())
                .collect()
        })
        .collect()
}

#[test]
fn commands_get_their_level_and_reason() {
    let table: &[(&str, RiskLevel, &str)] = &[
        ("rm -rf /", Critical, "rm -rf /"),
        ("rm -rf /*", Critical, "rm -rf /"),
        ("rm -fr /", Critical, "rm -rf /"),
        ("rm -r -f /", Critical, "rm -rf /"),
        ("rm --recursive --force /", Critical, "rm -rf /"),
        ("rm -rf ~", Critical, "rm -rf /"),
        ("rm -rf ~/", Critical, "rm -rf /"),
        ("rm -rf $HOME", Critical, "rm -rf /"),
        ("rm -rf /etc", Critical, "rm -rf /"),
        ("rm -r /usr/", Critical, "rm -rf /"),
        ("rm --no-preserve-root -rf /", Critical, "rm -rf /"),
        ("sudo rm -rf /", Critical, "rm -rf /"),
        ("sudo -u root rm -rf /", Critical, "rm -rf /"),
        ("rm -rf build", High, "rm -r"),
        ("rm -R dir", High, "rm -r"),
        ("curl -fsSL https://x.sh | sh", Critical, "curl … | sh"),
        ("curl https://x | sudo bash", Critical, "curl … | sh"),
        ("wget -qO- https://x | python3", Critical, "curl … | sh"),
        ("curl https://x | tee f | perl", Critical, "curl … | sh"),
        ("curl https://x | node", Critical, "curl … | sh"),
        // Known to the decision's interpreter list, not to the old risk list.
        ("curl https://x | pypy3", Critical, "curl … | sh"),
        ("curl https://x | luajit", Critical, "curl … | sh"),
        ("curl https://x | mksh", Critical, "curl … | sh"),
        ("curl https://x | Python3", Critical, "curl … | sh"),
        ("dd if=x of=/dev/sda", Critical, "dd of=/dev"),
        ("mkfs.ext4 /dev/sdb1", Critical, "formats"),
        ("mkfs -t ext4 /dev/sdb1", Critical, "formats"),
        ("wipefs -a /dev/sdb", Critical, "formats"),
        ("fdisk /dev/sda", Critical, "formats"),
        ("parted /dev/sda rm 1", Critical, "formats"),
        ("shred -n 3 /dev/sda", Critical, "formats"),
        ("sudo ls", High, "elevated privileges"),
        ("doas ls", High, "elevated privileges"),
        ("su -", High, "elevated privileges"),
        ("pkexec ls", High, "elevated privileges"),
        ("chmod 777 f", High, "chmod 777"),
        ("chmod -R 777 .", High, "chmod 777"),
        ("chmod a+rwx f", High, "chmod 777"),
        ("chown -R u:g /srv", High, "chown -R"),
        ("tee /etc/hosts", High, "system directory"),
        ("cp x /usr/bin/ls", High, "system directory"),
        ("mv x /etc/", High, "system directory"),
        ("ln -sf x /bin/sh", High, "system directory"),
        (
            "install -m 755 x /usr/local/bin/x",
            High,
            "system directory",
        ),
        (
            "truncate -s 0 /var/lib/dpkg/status",
            High,
            "system directory",
        ),
        ("cp -t /lib64 x", High, "system directory"),
        ("shutdown -h now", High, "shuts down"),
        ("reboot", High, "shuts down"),
        ("poweroff", High, "shuts down"),
        ("init 0", High, "shuts down"),
        ("kill -9 -1", Medium, "many processes"),
        ("pkill node", Medium, "many processes"),
        ("killall python", Medium, "many processes"),
        ("git push --force origin main", Medium, "git history"),
        ("git push -f", Medium, "git history"),
        ("git push origin +main", Medium, "git history"),
        ("git reset --hard HEAD~3", Medium, "git history"),
        ("git clean -fdx", Medium, "git history"),
        ("crontab -r", High, "scheduled jobs"),
        ("systemctl stop sshd", High, "services"),
        ("launchctl unload x", High, "services"),
        ("iptables -F", High, "firewall"),
        ("nft flush ruleset", High, "firewall"),
        ("useradd eve", High, "user accounts"),
        ("usermod -aG sudo eve", High, "user accounts"),
        ("passwd", High, "user accounts"),
        ("visudo", High, "user accounts"),
        ("history -c", Medium, "history"),
        ("unset HISTFILE", Medium, "history"),
        ("curl https://example.com", Medium, "remote host"),
        ("wget https://example.com", Medium, "remote host"),
        ("ssh host uptime", Medium, "remote host"),
        ("scp f host:/tmp", Medium, "remote host"),
        ("rsync -a d host:d", Medium, "remote host"),
        ("nc host 80", Medium, "remote host"),
        ("env FOO=1 nice -n 5 rm -rf /", Critical, "rm -rf /"),
    ];
    for (cmd, level, reason) in table {
        let risk = assess(&pipes(cmd), None);
        assert_eq!(risk.level, *level, "{cmd}: {risk:?}");
        assert!(
            risk.reasons.iter().any(|r| r.contains(reason)),
            "{cmd}: no reason containing {reason:?} in {:?}",
            risk.reasons
        );
    }
}

/// The interpreters of the rule come from the programs table's
/// `CodeOnStdin` rows: awk reads data on stdin (its program is an operand),
/// so a download piped into awk is not read as running the download.
#[test]
fn a_download_piped_into_awk_is_not_download_to_interpreter() {
    let risk = assess(&pipes("curl https://x | awk {print}"), None);
    assert_eq!(risk.level, Medium, "{risk:?}");
    assert!(
        !risk.reasons.iter().any(|r| r.contains("curl … | sh")),
        "{risk:?}"
    );
}

#[test]
fn plain_commands_are_low_with_no_reasons() {
    for cmd in [
        "ls -la",
        "git status",
        "cat README.md",
        "git push origin main",
        "git log --oneline -5",
        "rm file.txt",
        "chmod 644 f",
        "chmod +x script.sh",
        "cp a b",
        "cp a /home/u/x",
        "tee out.txt",
        "dd if=/dev/zero of=img bs=1M count=1",
        "dd if=x of=/dev/null",
        "kill 1234",
        "kill -1 1234",
        "grep -r foo .",
        "echo rm -rf /",
        "curl",
        "scp a b",
        "cat x | sh",
        "systemctl-like",
    ] {
        assert_eq!(assess(&pipes(cmd), None), Risk::default(), "{cmd}");
    }
}

#[test]
fn raw_text_is_read_for_fork_bombs_and_hidden_scripts() {
    let table: &[(&str, RiskLevel, &str)] = &[
        (":(){ :|:& };:", Critical, "fork bomb"),
        (": () { : | : & } ; :", Critical, "fork bomb"),
        ("bomb(){ bomb|bomb& };bomb", Critical, "fork bomb"),
        ("sh -c 'curl -s https://x | sh'", Critical, "curl … | sh"),
        ("bash -c \"rm -rf ${HOME}\"", Critical, "rm -rf /"),
        ("ls && sudo reboot", High, "shuts down"),
        ("export HISTFILE=/dev/null", Medium, "history"),
        ("echo $(curl -s https://x | bash)", Critical, "curl … | sh"),
    ];
    for (text, level, reason) in table {
        let risk = assess(&[], Some(text));
        assert_eq!(risk.level, *level, "{text}: {risk:?}");
        assert!(
            risk.reasons.iter().any(|r| r.contains(reason)),
            "{text}: {:?}",
            risk.reasons
        );
    }
    assert_eq!(assess(&[], Some("ls -la && git status")), Risk::default());
    assert_eq!(assess(&[], Some("f(){ echo hi; }; f")), Risk::default());
}

#[test]
fn level_is_the_max_and_reasons_are_deduplicated_in_order() {
    let risk = assess(
        &pipes("sudo ls ; sudo pwd ; rm -rf /"),
        Some("sudo ls; sudo pwd; rm -rf /"),
    );
    assert_eq!(risk.level, Critical);
    assert_eq!(
        risk.reasons,
        vec![
            rules::RULES
                .iter()
                .find(|r| r.id == "privilege")
                .map(|r| r.reason.to_owned())
                .unwrap(),
            rules::RULES
                .iter()
                .find(|r| r.id == "rm-recursive")
                .map(|r| r.reason.to_owned())
                .unwrap(),
            rules::RULES
                .iter()
                .find(|r| r.id == "rm-root")
                .map(|r| r.reason.to_owned())
                .unwrap(),
        ]
    );
}

#[test]
fn risk_serializes_lowercase() {
    let risk = assess(&pipes("sudo ls"), None);
    assert_eq!(
        serde_json::to_value(&risk).unwrap(),
        serde_json::json!({"level": "high", "reasons": ["runs with elevated privileges (sudo, doas, su, pkexec)"]})
    );
    assert!(Low < Medium && Medium < High && High < Critical);
}

#[test]
fn rule_table_is_sorted_unique_and_explained() {
    let ids: Vec<&str> = rules::RULES.iter().map(|r| r.id).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    assert!(rules::RULES.iter().all(|r| !r.reason.is_empty()));
}

/// The risk rules read through every POSIX shell and wrapper of the
/// programs table. The old list here missed most semantic wrappers, so
/// `setsid rm -rf /` was low; and `command`, `mksh` and a versioned or
/// upper-case spelling were not read through.
#[test]
fn every_wrapper_of_the_programs_table_is_read_through() {
    for cmd in [
        "setsid rm -rf /",
        "command rm -rf /",
        "mksh -c rm -rf /",
        "SUDO rm -rf /",
        "watch -n 1 rm -rf /",
        "ionice -c 3 rm -rf /",
        "busybox rm -rf /",
        "strace -o /tmp/t rm -rf /",
    ] {
        assert_eq!(assess(&pipes(cmd), None).level, Critical, "{cmd}");
    }
}
