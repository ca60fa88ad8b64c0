# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ui_bridge_global_optspecs
    string join \n h/help V/version
end

function __fish_ui_bridge_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ui_bridge_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ui_bridge_using_subcommand
    set -l cmd (__fish_ui_bridge_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ui-bridge -n "__fish_ui_bridge_needs_command" -s h -l help -d 'Print help'
complete -c ui-bridge -n "__fish_ui_bridge_needs_command" -s V -l version -d 'Print version'
complete -c ui-bridge -n "__fish_ui_bridge_needs_command" -f -a "serve" -d 'Serve the approvals socket: decide and run `system.run` requests.'
complete -c ui-bridge -n "__fish_ui_bridge_needs_command" -f -a "audit" -d 'Read and check the audit log: tail, query, verify.'
complete -c ui-bridge -n "__fish_ui_bridge_needs_command" -f -a "approvals" -d 'List and answer the pending approvals of a running bridge.'
complete -c ui-bridge -n "__fish_ui_bridge_needs_command" -f -a "doctor" -d 'Check the setup for what is unsafe or broken, and say how to fix it.'
complete -c ui-bridge -n "__fish_ui_bridge_needs_command" -f -a "completions" -d 'Print the completion script for a shell on stdout.'
complete -c ui-bridge -n "__fish_ui_bridge_needs_command" -f -a "service" -d 'Install, remove or show the per-user service (systemd user units with socket activation on Linux, a launchd agent on macOS).'
complete -c ui-bridge -n "__fish_ui_bridge_needs_command" -f -a "schema" -d 'Print the JSON Schema of the approvals file on stdout.'
complete -c ui-bridge -n "__fish_ui_bridge_needs_command" -f -a "man" -d 'Write the man pages (ui-bridge.1 and one per subcommand) into a directory'
complete -c ui-bridge -n "__fish_ui_bridge_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand serve" -l approvals -d 'The approvals file [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand serve" -l socket -d 'The socket to listen on [default: socket.path from the approvals file, else exec-approvals.sock beside it]. Its directory must be yours with mode 0700; when missing it is created so, but only under an existing parent directory you own' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand serve" -l approval-timeout-ms -d 'How long an approval prompt waits before askFallback decides [default: approvalTimeoutMs from the policy, else 120000]' -r
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand serve" -l approver-command -d 'A program that answers approvals: run as `/bin/sh -c CMD` with the approval as one JSON line on stdin; it prints allow-once, allow-always or deny and exits 0. Checked at start (sh syntax, and its program must exist and be executable). A hook that fails answers nothing (`hook-failed`): the terminal prompt stays; with no terminal the request is denied [default: approverCommand from the policy defaults]' -r
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand serve" -l web -d 'Serve the approvals page (pending approvals live, the policy editor, the audit log) on ADDR [default ADDR: 127.0.0.1:0, a free loopback port; without the flag: `web` from the policy defaults, else no page]. Prints a login URL with a fresh secret once; keep it private. An address beyond loopback is served with a warning' -r
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand serve" -l audit-sink -d 'Also send every audit record to journald or syslog (RFC 5424), optionally at another socket: journald, syslog, syslog:/run/x.sock [default: audit.sink from the approvals file; none]' -r
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand serve" -l accept-gateway-approvals -d 'Count an approval that `node-host serve` relays from its gateway\'s operators (checked by the node against the plan it prepared) as an answer, audited as approver `gateway`. Without it only this bridge\'s own approvers answer. `defaults.approvers`, when set, must name `gateway` too'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and not __fish_seen_subcommand_from tail query verify help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and not __fish_seen_subcommand_from tail query verify help" -f -a "tail" -d 'Print the last records, and with -f the new ones as they come'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and not __fish_seen_subcommand_from tail query verify help" -f -a "query" -d 'Print the records matching every filter given, oldest first'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and not __fish_seen_subcommand_from tail query verify help" -f -a "verify" -d 'Check the hash chain: every line unchanged, none removed or inserted'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and not __fish_seen_subcommand_from tail query verify help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from tail" -l audit -d 'The audit log [default: exec-audit.jsonl beside the approvals file]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from tail" -l approvals -d 'The approvals file whose log to read (exec-audit.jsonl beside it), as `serve --approvals` was given [default: the file `serve` finds: $CLAWDBOT_STATE_DIR, else $OPENCLAW_STATE_DIR, else an existing ~/.clawdbot or ~/.openclaw file, else ~/.clawdbot]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from tail" -s n -l lines -d 'How many of the last records to print' -r
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from tail" -s f -l follow -d 'Keep printing records as they are appended, until Ctrl-C'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from tail" -l json -d 'One JSON object per line instead of readable text'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from tail" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from query" -l audit -d 'The audit log [default: exec-audit.jsonl beside the approvals file]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from query" -l approvals -d 'The approvals file whose log to read (exec-audit.jsonl beside it), as `serve --approvals` was given [default: the file `serve` finds: $CLAWDBOT_STATE_DIR, else $OPENCLAW_STATE_DIR, else an existing ~/.clawdbot or ~/.openclaw file, else ~/.clawdbot]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from query" -l since -d 'Only records from the last DUR (30s, 15m, 2h, 7d)' -r
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from query" -l agent -d 'Only records of this agent (exact id)' -r
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from query" -l decision -d 'Only records with this decision: allow, deny, allow-once, allow-always or ask' -r
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from query" -l risk -d 'Only records at this risk level or above: low, medium, high, critical' -r
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from query" -l json -d 'One JSON object per line instead of readable text'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from query" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from verify" -l audit -d 'The audit log [default: exec-audit.jsonl beside the approvals file]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from verify" -l approvals -d 'The approvals file whose log to read (exec-audit.jsonl beside it), as `serve --approvals` was given [default: the file `serve` finds: $CLAWDBOT_STATE_DIR, else $OPENCLAW_STATE_DIR, else an existing ~/.clawdbot or ~/.openclaw file, else ~/.clawdbot]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from verify" -l expect-head -d 'A head kept outside this machine, as SEQ:HASH (the EXEC_APPROVALS_SEQ and EXEC_APPROVALS_HASH of a journald copy, or seq and hash of a syslog copy): the log must reach SEQ with that hash' -r
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from verify" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from help" -f -a "tail" -d 'Print the last records, and with -f the new ones as they come'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from help" -f -a "query" -d 'Print the records matching every filter given, oldest first'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from help" -f -a "verify" -d 'Check the hash chain: every line unchanged, none removed or inserted'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand audit; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and not __fish_seen_subcommand_from list resolve cancel-agent answer help" -l approvals -d 'The approvals file holding the socket path and token [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and not __fish_seen_subcommand_from list resolve cancel-agent answer help" -l socket -d 'The bridge\'s socket [default: socket.path from the approvals file, else exec-approvals.sock beside it]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and not __fish_seen_subcommand_from list resolve cancel-agent answer help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and not __fish_seen_subcommand_from list resolve cancel-agent answer help" -f -a "list" -d 'Show the pending approvals, oldest first: id, age, time left, agent, risk and the command (invisible characters escaped)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and not __fish_seen_subcommand_from list resolve cancel-agent answer help" -f -a "resolve" -d 'Answer one pending approval by id or unique prefix (4+ characters)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and not __fish_seen_subcommand_from list resolve cancel-agent answer help" -f -a "cancel-agent" -d 'Deny every pending approval of one agent (the agent went away)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and not __fish_seen_subcommand_from list resolve cancel-agent answer help" -f -a "answer" -d 'Answer with chat text: `/approve ID DECISION`, `/deny ID`, or button data `approve:ID:once|always|deny`'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and not __fish_seen_subcommand_from list resolve cancel-agent answer help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from list" -l approvals -d 'The approvals file holding the socket path and token [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from list" -l socket -d 'The bridge\'s socket [default: socket.path from the approvals file, else exec-approvals.sock beside it]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from list" -l json -d 'Print the bridge\'s JSON (an array of pending approvals) instead'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from resolve" -l approver -d 'Who answers, recorded as control:NAME [default: $USER, else cli]' -r
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from resolve" -l approvals -d 'The approvals file holding the socket path and token [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from resolve" -l socket -d 'The bridge\'s socket [default: socket.path from the approvals file, else exec-approvals.sock beside it]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from resolve" -s h -l help -d 'Print help'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from cancel-agent" -l reason -d 'Why, shown to approvers [default: the agent went away]' -r
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from cancel-agent" -l approvals -d 'The approvals file holding the socket path and token [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from cancel-agent" -l socket -d 'The bridge\'s socket [default: socket.path from the approvals file, else exec-approvals.sock beside it]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from cancel-agent" -s h -l help -d 'Print help'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from answer" -l approver -d 'Who answers, recorded as control:NAME [default: $USER, else cli]' -r
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from answer" -l approvals -d 'The approvals file holding the socket path and token [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from answer" -l socket -d 'The bridge\'s socket [default: socket.path from the approvals file, else exec-approvals.sock beside it]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from answer" -s h -l help -d 'Print help'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from help" -f -a "list" -d 'Show the pending approvals, oldest first: id, age, time left, agent, risk and the command (invisible characters escaped)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from help" -f -a "resolve" -d 'Answer one pending approval by id or unique prefix (4+ characters)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from help" -f -a "cancel-agent" -d 'Deny every pending approval of one agent (the agent went away)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from help" -f -a "answer" -d 'Answer with chat text: `/approve ID DECISION`, `/deny ID`, or button data `approve:ID:once|always|deny`'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand approvals; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand doctor" -l approvals -d 'The approvals file [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand doctor" -l socket -d 'The bridge socket [default: socket.path from the approvals file, else exec-approvals.sock beside it]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand doctor" -l json -d 'Print the report as one JSON object: {"approvals", "approvalsFile": {"path", "source", "why"}, "ok", "findings": [{"check", "severity", "subject", "problem", "fix", "fixed"?}]}'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand doctor" -l fix -d 'Repair what is safe to repair: modes (chmod 700 directories, 600 files and the socket) and a socket nothing answers on. Each repair is reported. Owners, symbolic links and file contents are never changed'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand doctor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand service; and not __fish_seen_subcommand_from install uninstall status help" -l approvals -d 'The approvals file the service serves [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand service; and not __fish_seen_subcommand_from install uninstall status help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand service; and not __fish_seen_subcommand_from install uninstall status help" -f -a "install" -d 'Write the unit files (systemd user units, or a launchd agent) and print the command that enables them'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand service; and not __fish_seen_subcommand_from install uninstall status help" -f -a "uninstall" -d 'Remove the unit files `install` wrote (after you disable them)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand service; and not __fish_seen_subcommand_from install uninstall status help" -f -a "status" -d 'Say which unit files are installed'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand service; and not __fish_seen_subcommand_from install uninstall status help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand service; and __fish_seen_subcommand_from install" -l unit-dir -d 'Where to write them [default: ~/.config/systemd/user, or ~/Library/LaunchAgents on macOS]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand service; and __fish_seen_subcommand_from install" -l approvals -d 'The approvals file the service serves [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand service; and __fish_seen_subcommand_from install" -s h -l help -d 'Print help'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand service; and __fish_seen_subcommand_from uninstall" -l unit-dir -d 'Where they are [default: as for install]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand service; and __fish_seen_subcommand_from uninstall" -l approvals -d 'The approvals file the service serves [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand service; and __fish_seen_subcommand_from uninstall" -s h -l help -d 'Print help'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand service; and __fish_seen_subcommand_from status" -l unit-dir -d 'Where they are [default: as for install]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand service; and __fish_seen_subcommand_from status" -l approvals -d 'The approvals file the service serves [default: $CLAWDBOT_STATE_DIR/exec-approvals.json, else $OPENCLAW_STATE_DIR/exec-approvals.json, else an existing ~/.clawdbot/exec-approvals.json, else an existing ~/.openclaw/exec-approvals.json, else ~/.clawdbot/exec-approvals.json]' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand service; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand service; and __fish_seen_subcommand_from help" -f -a "install" -d 'Write the unit files (systemd user units, or a launchd agent) and print the command that enables them'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand service; and __fish_seen_subcommand_from help" -f -a "uninstall" -d 'Remove the unit files `install` wrote (after you disable them)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand service; and __fish_seen_subcommand_from help" -f -a "status" -d 'Say which unit files are installed'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand service; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand schema" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand man" -l out -d 'Where to write them' -r -F
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand man" -s h -l help -d 'Print help'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand help; and not __fish_seen_subcommand_from serve audit approvals doctor completions service schema man help" -f -a "serve" -d 'Serve the approvals socket: decide and run `system.run` requests.'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand help; and not __fish_seen_subcommand_from serve audit approvals doctor completions service schema man help" -f -a "audit" -d 'Read and check the audit log: tail, query, verify.'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand help; and not __fish_seen_subcommand_from serve audit approvals doctor completions service schema man help" -f -a "approvals" -d 'List and answer the pending approvals of a running bridge.'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand help; and not __fish_seen_subcommand_from serve audit approvals doctor completions service schema man help" -f -a "doctor" -d 'Check the setup for what is unsafe or broken, and say how to fix it.'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand help; and not __fish_seen_subcommand_from serve audit approvals doctor completions service schema man help" -f -a "completions" -d 'Print the completion script for a shell on stdout.'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand help; and not __fish_seen_subcommand_from serve audit approvals doctor completions service schema man help" -f -a "service" -d 'Install, remove or show the per-user service (systemd user units with socket activation on Linux, a launchd agent on macOS).'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand help; and not __fish_seen_subcommand_from serve audit approvals doctor completions service schema man help" -f -a "schema" -d 'Print the JSON Schema of the approvals file on stdout.'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand help; and not __fish_seen_subcommand_from serve audit approvals doctor completions service schema man help" -f -a "man" -d 'Write the man pages (ui-bridge.1 and one per subcommand) into a directory'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand help; and not __fish_seen_subcommand_from serve audit approvals doctor completions service schema man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand help; and __fish_seen_subcommand_from audit" -f -a "tail" -d 'Print the last records, and with -f the new ones as they come'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand help; and __fish_seen_subcommand_from audit" -f -a "query" -d 'Print the records matching every filter given, oldest first'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand help; and __fish_seen_subcommand_from audit" -f -a "verify" -d 'Check the hash chain: every line unchanged, none removed or inserted'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand help; and __fish_seen_subcommand_from approvals" -f -a "list" -d 'Show the pending approvals, oldest first: id, age, time left, agent, risk and the command (invisible characters escaped)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand help; and __fish_seen_subcommand_from approvals" -f -a "resolve" -d 'Answer one pending approval by id or unique prefix (4+ characters)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand help; and __fish_seen_subcommand_from approvals" -f -a "cancel-agent" -d 'Deny every pending approval of one agent (the agent went away)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand help; and __fish_seen_subcommand_from approvals" -f -a "answer" -d 'Answer with chat text: `/approve ID DECISION`, `/deny ID`, or button data `approve:ID:once|always|deny`'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand help; and __fish_seen_subcommand_from service" -f -a "install" -d 'Write the unit files (systemd user units, or a launchd agent) and print the command that enables them'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand help; and __fish_seen_subcommand_from service" -f -a "uninstall" -d 'Remove the unit files `install` wrote (after you disable them)'
complete -c ui-bridge -n "__fish_ui_bridge_using_subcommand help; and __fish_seen_subcommand_from service" -f -a "status" -d 'Say which unit files are installed'
