# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_node_host_global_optspecs
    string join \n h/help V/version
end

function __fish_node_host_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_node_host_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_node_host_using_subcommand
    set -l cmd (__fish_node_host_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c node-host -n "__fish_node_host_needs_command" -s h -l help -d 'Print help'
complete -c node-host -n "__fish_node_host_needs_command" -s V -l version -d 'Print version'
complete -c node-host -n "__fish_node_host_needs_command" -f -a "explain" -d 'Show what the policy decides for a command, and why, without running it.'
complete -c node-host -n "__fish_node_host_needs_command" -f -a "run" -d 'Run one command under the policy, through the UI bridge or the embedded exec host.'
complete -c node-host -n "__fish_node_host_needs_command" -f -a "approvals" -d 'Read or edit the approvals file: get, allow, revoke, set.'
complete -c node-host -n "__fish_node_host_needs_command" -f -a "identity" -d 'Print the device id a gateway pairs this node as.'
complete -c node-host -n "__fish_node_host_needs_command" -f -a "serve" -d 'Join an OpenClaw gateway as a node and serve system.run under the policy, in the foreground (logs on stderr; RUST_LOG=debug for more).'
complete -c node-host -n "__fish_node_host_needs_command" -f -a "doctor" -d 'Check the setup for what is unsafe or broken, and say how to fix it.'
complete -c node-host -n "__fish_node_host_needs_command" -f -a "service" -d 'Install, remove or show the node as a per-user service (a systemd user unit on Linux, a launchd agent on macOS).'
complete -c node-host -n "__fish_node_host_needs_command" -f -a "completions" -d 'Print the completion script for a shell on stdout.'
complete -c node-host -n "__fish_node_host_needs_command" -f -a "man" -d 'Write the man pages (node-host.1 and one per subcommand) into a directory'
complete -c node-host -n "__fish_node_host_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c node-host -n "__fish_node_host_using_subcommand explain" -l approvals -d 'The approvals file [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand explain" -l agent -d 'The agent whose policy applies' -r
complete -c node-host -n "__fish_node_host_using_subcommand explain" -l cwd -d 'The working directory the command would run in [default: the current one]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand explain" -l env -d 'An environment override the request carries, as NAME=VALUE (repeatable): only inert ones (LANG, TZ, RUST_LOG, …) are auto-allowed; a blocked one (PATH, LD_*, …) is refused by the host before the policy is consulted (env-override-rejected)' -r
complete -c node-host -n "__fish_node_host_using_subcommand explain" -l shell -d 'Explain a shell script: the same as `-- /bin/sh -c SCRIPT`' -r
complete -c node-host -n "__fish_node_host_using_subcommand explain" -l batch -d 'Read one case per line from FILE (or - for stdin): {"argv":[...]} or {"shell":"..."}, with optional "agent", "cwd" and "env" (an object of overrides, {"NAME":"VALUE"}); write one JSON result per line' -r
complete -c node-host -n "__fish_node_host_using_subcommand explain" -l json -d 'Print one JSON object (one per line with --batch) instead of text'
complete -c node-host -n "__fish_node_host_using_subcommand explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c node-host -n "__fish_node_host_using_subcommand run" -l approvals -d 'The approvals file [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand run" -l socket -d 'The bridge socket [default: socket.path from the approvals file, else exec-approvals.sock beside it]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand run" -l exec-host -d 'Which exec host decides and runs the command' -r -f -a "auto\t'The UI bridge when one answers on the socket, else the embedded host'
bridge\t'Only the UI bridge; fail closed when none runs'
local\t'The embedded exec host in this process'"
complete -c node-host -n "__fish_node_host_using_subcommand run" -l agent -d 'The agent whose policy applies' -r
complete -c node-host -n "__fish_node_host_using_subcommand run" -l session -d 'The session the request belongs to (shown to approvers, audited)' -r
complete -c node-host -n "__fish_node_host_using_subcommand run" -l cwd -d 'The working directory [default: the current one]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand run" -l env -d 'An environment override for the command (repeatable); PATH and loader or interpreter hooks are refused' -r
complete -c node-host -n "__fish_node_host_using_subcommand run" -l timeout-ms -d 'Kill the command (and everything it started) after this many ms' -r
complete -c node-host -n "__fish_node_host_using_subcommand run" -l shell -d 'Run a shell script: the same as `-- /bin/sh -c SCRIPT`' -r
complete -c node-host -n "__fish_node_host_using_subcommand run" -l json -d 'Print the exec-res payload (or error) as JSON instead of the output'
complete -c node-host -n "__fish_node_host_using_subcommand run" -s q -l quiet -d 'Do not print the `node-host:` progress lines (waiting for approval, no bridge, no approvals file, load warnings) on stderr'
complete -c node-host -n "__fish_node_host_using_subcommand run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and not __fish_seen_subcommand_from get allow revoke set help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and not __fish_seen_subcommand_from get allow revoke set help" -f -a "get" -d 'Print the policy (never the socket token) and the file\'s hash'
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and not __fish_seen_subcommand_from get allow revoke set help" -f -a "allow" -d 'Add an allowlist entry (a glob over the executable\'s real path)'
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and not __fish_seen_subcommand_from get allow revoke set help" -f -a "revoke" -d 'Remove an allowlist entry of one agent'
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and not __fish_seen_subcommand_from get allow revoke set help" -f -a "set" -d 'Replace the policy with FILE\'s content, if nobody changed it meanwhile'
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and not __fish_seen_subcommand_from get allow revoke set help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and __fish_seen_subcommand_from get" -l approvals -d 'The approvals file [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and __fish_seen_subcommand_from get" -l json -d 'Print one JSON object instead of a summary'
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and __fish_seen_subcommand_from get" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and __fish_seen_subcommand_from allow" -l approvals -d 'The approvals file [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and __fish_seen_subcommand_from allow" -l agent -d 'The agent whose allowlist changes (`*` for every agent)' -r
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and __fish_seen_subcommand_from allow" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -l approvals -d 'The approvals file [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -l agent -d 'The agent whose allowlist changes (`*` for every agent)' -r
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and __fish_seen_subcommand_from revoke" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and __fish_seen_subcommand_from set" -l approvals -d 'The approvals file [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and __fish_seen_subcommand_from set" -l base-hash -d 'The hash printed by `approvals get` when FILE was made (64 hex digits); required unless FILE is `approvals get --json` output' -r
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and __fish_seen_subcommand_from help" -f -a "get" -d 'Print the policy (never the socket token) and the file\'s hash'
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and __fish_seen_subcommand_from help" -f -a "allow" -d 'Add an allowlist entry (a glob over the executable\'s real path)'
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and __fish_seen_subcommand_from help" -f -a "revoke" -d 'Remove an allowlist entry of one agent'
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and __fish_seen_subcommand_from help" -f -a "set" -d 'Replace the policy with FILE\'s content, if nobody changed it meanwhile'
complete -c node-host -n "__fish_node_host_using_subcommand approvals; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c node-host -n "__fish_node_host_using_subcommand identity" -l state-dir -d 'The node\'s state directory, holding device.json [default: $CLAWDBOT_STATE_DIR/node, else ~/.clawdbot/node]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand identity" -l json -d 'Print `{"deviceId": …, "publicKey": …}` instead of the bare id'
complete -c node-host -n "__fish_node_host_using_subcommand identity" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c node-host -n "__fish_node_host_using_subcommand serve" -l gateway -d 'The gateway: ws://127.0.0.1:PORT (plain ws only to loopback unless --insecure) or wss://HOST:PORT' -r
complete -c node-host -n "__fish_node_host_using_subcommand serve" -l token-file -d 'A file holding the gateway\'s shared token (first line; keep it 0600). Needed for the first connect; later ones use the device token the gateway issued, saved in the state directory' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand serve" -l display-name -d 'The name the gateway\'s operators see [default: this host\'s name]' -r
complete -c node-host -n "__fish_node_host_using_subcommand serve" -l exec-host -d 'Which exec host decides and runs system.run: the UI bridge when one answers (auto), only the bridge (bridge), or this process (local)' -r -f -a "auto\t'The UI bridge when one answers on the socket, else the embedded host'
bridge\t'Only the UI bridge; fail closed when none runs'
local\t'The embedded exec host in this process'"
complete -c node-host -n "__fish_node_host_using_subcommand serve" -l approvals -d 'The approvals file [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand serve" -l socket -d 'The bridge socket [default: socket.path from the approvals file]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand serve" -l state-dir -d 'Where the device identity and tokens live [default: $CLAWDBOT_STATE_DIR/node, else ~/.clawdbot/node]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand serve" -l tls-fingerprint -d 'Trust a wss:// gateway by the sha256 of its certificate (hex) instead of the system\'s roots' -r
complete -c node-host -n "__fish_node_host_using_subcommand serve" -l insecure -d 'Allow plain ws:// to a host that is not loopback: anyone on the path can read and change what the gateway sends'
complete -c node-host -n "__fish_node_host_using_subcommand serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c node-host -n "__fish_node_host_using_subcommand doctor" -l approvals -d 'The approvals file [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand doctor" -l socket -d 'The bridge socket [default: socket.path from the approvals file, else exec-approvals.sock beside it]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand doctor" -l gateway -d 'Also check that this gateway answers (ws://127.0.0.1:18789 or wss://HOST:PORT): TCP connect, TLS, WebSocket upgrade' -r
complete -c node-host -n "__fish_node_host_using_subcommand doctor" -l tls-fingerprint -d 'Trust a wss:// gateway by the sha256 of its certificate (hex), as `serve --tls-fingerprint` does' -r
complete -c node-host -n "__fish_node_host_using_subcommand doctor" -l json -d 'Print the report as one JSON object: {"approvals", "approvalsFile": {"path", "source", "why"}, "ok", "findings": [{"check", "severity", "subject", "problem", "fix", "fixed"?}]}'
complete -c node-host -n "__fish_node_host_using_subcommand doctor" -l fix -d 'Repair what is safe to repair: modes (chmod 700 directories, 600 files and the socket) and a socket nothing answers on. Each repair is reported. Owners, symbolic links and file contents are never changed'
complete -c node-host -n "__fish_node_host_using_subcommand doctor" -l insecure -d 'Allow a plain ws:// gateway off loopback, as `serve --insecure` does'
complete -c node-host -n "__fish_node_host_using_subcommand doctor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c node-host -n "__fish_node_host_using_subcommand service; and not __fish_seen_subcommand_from install uninstall status help" -l gateway -d 'The gateway the service joins (needed by install)' -r
complete -c node-host -n "__fish_node_host_using_subcommand service; and not __fish_seen_subcommand_from install uninstall status help" -l token-file -d 'The gateway token file the service reads' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand service; and not __fish_seen_subcommand_from install uninstall status help" -l approvals -d 'The approvals file [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand service; and not __fish_seen_subcommand_from install uninstall status help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c node-host -n "__fish_node_host_using_subcommand service; and not __fish_seen_subcommand_from install uninstall status help" -f -a "install" -d 'Write the unit files (systemd user units, or a launchd agent) and print the command that enables them'
complete -c node-host -n "__fish_node_host_using_subcommand service; and not __fish_seen_subcommand_from install uninstall status help" -f -a "uninstall" -d 'Remove the unit files `install` wrote (after you disable them)'
complete -c node-host -n "__fish_node_host_using_subcommand service; and not __fish_seen_subcommand_from install uninstall status help" -f -a "status" -d 'Say which unit files are installed'
complete -c node-host -n "__fish_node_host_using_subcommand service; and not __fish_seen_subcommand_from install uninstall status help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c node-host -n "__fish_node_host_using_subcommand service; and __fish_seen_subcommand_from install" -l unit-dir -d 'Where to write them [default: ~/.config/systemd/user, or ~/Library/LaunchAgents on macOS]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand service; and __fish_seen_subcommand_from install" -l gateway -d 'The gateway the service joins (needed by install)' -r
complete -c node-host -n "__fish_node_host_using_subcommand service; and __fish_seen_subcommand_from install" -l token-file -d 'The gateway token file the service reads' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand service; and __fish_seen_subcommand_from install" -l approvals -d 'The approvals file [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand service; and __fish_seen_subcommand_from install" -s h -l help -d 'Print help'
complete -c node-host -n "__fish_node_host_using_subcommand service; and __fish_seen_subcommand_from uninstall" -l unit-dir -d 'Where they are [default: as for install]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand service; and __fish_seen_subcommand_from uninstall" -l gateway -d 'The gateway the service joins (needed by install)' -r
complete -c node-host -n "__fish_node_host_using_subcommand service; and __fish_seen_subcommand_from uninstall" -l token-file -d 'The gateway token file the service reads' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand service; and __fish_seen_subcommand_from uninstall" -l approvals -d 'The approvals file [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand service; and __fish_seen_subcommand_from uninstall" -s h -l help -d 'Print help'
complete -c node-host -n "__fish_node_host_using_subcommand service; and __fish_seen_subcommand_from status" -l unit-dir -d 'Where they are [default: as for install]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand service; and __fish_seen_subcommand_from status" -l gateway -d 'The gateway the service joins (needed by install)' -r
complete -c node-host -n "__fish_node_host_using_subcommand service; and __fish_seen_subcommand_from status" -l token-file -d 'The gateway token file the service reads' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand service; and __fish_seen_subcommand_from status" -l approvals -d 'The approvals file [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand service; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c node-host -n "__fish_node_host_using_subcommand service; and __fish_seen_subcommand_from help" -f -a "install" -d 'Write the unit files (systemd user units, or a launchd agent) and print the command that enables them'
complete -c node-host -n "__fish_node_host_using_subcommand service; and __fish_seen_subcommand_from help" -f -a "uninstall" -d 'Remove the unit files `install` wrote (after you disable them)'
complete -c node-host -n "__fish_node_host_using_subcommand service; and __fish_seen_subcommand_from help" -f -a "status" -d 'Say which unit files are installed'
complete -c node-host -n "__fish_node_host_using_subcommand service; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c node-host -n "__fish_node_host_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c node-host -n "__fish_node_host_using_subcommand man" -l out -d 'Where to write them' -r -F
complete -c node-host -n "__fish_node_host_using_subcommand man" -s h -l help -d 'Print help'
complete -c node-host -n "__fish_node_host_using_subcommand help; and not __fish_seen_subcommand_from explain run approvals identity serve doctor service completions man help" -f -a "explain" -d 'Show what the policy decides for a command, and why, without running it.'
complete -c node-host -n "__fish_node_host_using_subcommand help; and not __fish_seen_subcommand_from explain run approvals identity serve doctor service completions man help" -f -a "run" -d 'Run one command under the policy, through the UI bridge or the embedded exec host.'
complete -c node-host -n "__fish_node_host_using_subcommand help; and not __fish_seen_subcommand_from explain run approvals identity serve doctor service completions man help" -f -a "approvals" -d 'Read or edit the approvals file: get, allow, revoke, set.'
complete -c node-host -n "__fish_node_host_using_subcommand help; and not __fish_seen_subcommand_from explain run approvals identity serve doctor service completions man help" -f -a "identity" -d 'Print the device id a gateway pairs this node as.'
complete -c node-host -n "__fish_node_host_using_subcommand help; and not __fish_seen_subcommand_from explain run approvals identity serve doctor service completions man help" -f -a "serve" -d 'Join an OpenClaw gateway as a node and serve system.run under the policy, in the foreground (logs on stderr; RUST_LOG=debug for more).'
complete -c node-host -n "__fish_node_host_using_subcommand help; and not __fish_seen_subcommand_from explain run approvals identity serve doctor service completions man help" -f -a "doctor" -d 'Check the setup for what is unsafe or broken, and say how to fix it.'
complete -c node-host -n "__fish_node_host_using_subcommand help; and not __fish_seen_subcommand_from explain run approvals identity serve doctor service completions man help" -f -a "service" -d 'Install, remove or show the node as a per-user service (a systemd user unit on Linux, a launchd agent on macOS).'
complete -c node-host -n "__fish_node_host_using_subcommand help; and not __fish_seen_subcommand_from explain run approvals identity serve doctor service completions man help" -f -a "completions" -d 'Print the completion script for a shell on stdout.'
complete -c node-host -n "__fish_node_host_using_subcommand help; and not __fish_seen_subcommand_from explain run approvals identity serve doctor service completions man help" -f -a "man" -d 'Write the man pages (node-host.1 and one per subcommand) into a directory'
complete -c node-host -n "__fish_node_host_using_subcommand help; and not __fish_seen_subcommand_from explain run approvals identity serve doctor service completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c node-host -n "__fish_node_host_using_subcommand help; and __fish_seen_subcommand_from approvals" -f -a "get" -d 'Print the policy (never the socket token) and the file\'s hash'
complete -c node-host -n "__fish_node_host_using_subcommand help; and __fish_seen_subcommand_from approvals" -f -a "allow" -d 'Add an allowlist entry (a glob over the executable\'s real path)'
complete -c node-host -n "__fish_node_host_using_subcommand help; and __fish_seen_subcommand_from approvals" -f -a "revoke" -d 'Remove an allowlist entry of one agent'
complete -c node-host -n "__fish_node_host_using_subcommand help; and __fish_seen_subcommand_from approvals" -f -a "set" -d 'Replace the policy with FILE\'s content, if nobody changed it meanwhile'
complete -c node-host -n "__fish_node_host_using_subcommand help; and __fish_seen_subcommand_from service" -f -a "install" -d 'Write the unit files (systemd user units, or a launchd agent) and print the command that enables them'
complete -c node-host -n "__fish_node_host_using_subcommand help; and __fish_seen_subcommand_from service" -f -a "uninstall" -d 'Remove the unit files `install` wrote (after you disable them)'
complete -c node-host -n "__fish_node_host_using_subcommand help; and __fish_seen_subcommand_from service" -f -a "status" -d 'Say which unit files are installed'
