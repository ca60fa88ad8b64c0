//! node. Options from Node.js 20's `node --help`, checked by
//! `tests/interp_spec_conformance.rs`. node's option parser
//! ([`Interp::Node`]): every option is one word matched exactly (no
//! abbreviation: `--requi` is refused), `_` and `-` are the same inside a
//! name (`--inspect_brk` is `--inspect-brk`), a value is `--opt=v` or the
//! next word (never one starting with `-`), short options are never
//! bundled (`-pe` is node's one alias), a boolean is turned off with
//! `--no-NAME` (and `--NAME` turns off a `--no-NAME` option), `--` ends
//! the options, and the first operand is the script: every word after it
//! is the script's (with `-e`/`-p`, the code's argv).
//!
//! V8's own options (`node --v8-options`, hundreds) are not listed except
//! the heap and stack sizes projects set every day; any other is unknown,
//! so asked.
//!
//! Running the script, and the test runner running the project's test
//! files (`--test`), is node's job; the older guards still ask about code
//! on stdin, `-`/`/dev/stdin`, `data:` and URL scripts, inline code,
//! preloads and the inspector. Inline code, preloaded modules and loaders,
//! an env file (it can set NODE_OPTIONS), a debugger port, the interactive
//! prompt (code from stdin), network imports, policy, snapshot and OpenSSL
//! config files, a test reporter that is a module, and writes of reports,
//! profiles or logs outside the working tree are asked; an option the spec
//! does not know is asked.

use crate::policy::specs::types::Operands;
use crate::policy::specs::types::{
    ByValue,
    Effect::{LoadsCode, ReadsFile, RunsProgram, WritesFile},
    Grammar, Interp, Opt, Spec, flag, ids, loads, location, optional, value,
};

const INLINE: &str = "runs JavaScript given on the command line";
const PRELOAD: &str = "loads a module before the script: code the prompt does not show";
const INSPECTOR: &str = "opens a debugger port through which anything can be run";
const REPORT: &str = "writes diagnostic reports or profiles to a path of the caller's choosing";

const NODE_OPTS: &[Opt] = &[
    flag(&["--abort-on-uncaught-exception"]),
    flag(&["--allow-addons"]),
    flag(&["--allow-child-process"]),
    value(&["--allow-fs-read"]),
    value(&["--allow-fs-write"]),
    flag(&["--allow-wasi"]),
    flag(&["--allow-worker"]),
    flag(&["--build-snapshot"]),
    value(&["--build-snapshot-config"]).does(LoadsCode(
        "reads a snapshot config that names the script to build from",
    )),
    flag(&["-c", "--check"]),
    flag(&["--completion-bash"]),
    value(&["-C", "--conditions"]),
    flag(&["--cpu-prof"]),
    value(&["--cpu-prof-dir"]).does(WritesFile(REPORT)),
    value(&["--cpu-prof-interval"]),
    value(&["--cpu-prof-name"]).does(WritesFile(REPORT)),
    value(&["--diagnostic-dir"]).does(WritesFile(REPORT)),
    value(&["--disable-proto"]),
    value(&["--disable-warning"]),
    flag(&["--disable-wasm-trap-handler"]),
    flag(&["--disallow-code-generation-from-strings"]),
    value(&["--dns-result-order"]),
    flag(&["--enable-etw-stack-walking"]),
    flag(&["--enable-fips"]),
    flag(&["--enable-source-maps"]),
    value(&["--env-file"]).does(LoadsCode(
        "sets environment variables from a file, which can set NODE_OPTIONS and so preload code",
    )),
    value(&["--env-file-if-exists"]).does(LoadsCode(
        "sets environment variables from a file, which can set NODE_OPTIONS and so preload code",
    )),
    value(&["-e", "--eval"]).does(LoadsCode(INLINE)),
    value(&["--experimental-default-type"]),
    flag(&["--experimental-eventsource"]),
    flag(&["--experimental-import-meta-resolve"]),
    value(&["--loader", "--experimental-loader"]).does(LoadsCode(
        "loads a module loader that can rewrite every module the script loads",
    )),
    flag(&["--experimental-network-imports"])
        .does(LoadsCode("lets the script import code over the network")),
    flag(&["--experimental-network-inspection"]),
    flag(&["--experimental-permission"]),
    value(&["--experimental-policy"]).does(LoadsCode(
        "reads a policy file, whose dependency maps can redirect modules to other code",
    )),
    flag(&["--experimental-print-required-tla"]),
    value(&["--experimental-sea-config"]).does(LoadsCode(
        "reads a single-executable config that names a script and the blob it writes",
    )),
    flag(&["--experimental-test-coverage"]),
    flag(&["--experimental-test-module-mocks"]),
    flag(&["--experimental-vm-modules"]),
    flag(&["--experimental-wasm-modules"]),
    flag(&["--experimental-websocket"]),
    flag(&["--expose-gc"]),
    flag(&["--force-context-aware"]),
    flag(&["--force-fips"]),
    flag(&["--force-node-api-uncaught-exceptions-policy"]),
    flag(&["--frozen-intrinsics"]),
    flag(&["--heap-prof"]),
    value(&["--heap-prof-dir"]).does(WritesFile(REPORT)),
    value(&["--heap-prof-interval"]),
    value(&["--heap-prof-name"]).does(WritesFile(REPORT)),
    value(&["--heapsnapshot-near-heap-limit"]),
    value(&["--heapsnapshot-signal"]),
    flag(&["-h", "--help"]),
    flag(&["--huge-max-old-generation-size"]),
    value(&["--icu-data-dir"]).does(ReadsFile),
    value(&["--import"]).does(LoadsCode(PRELOAD)),
    value(&["--input-type"]),
    flag(&["--insecure-http-parser"]),
    optional(&["--inspect"]).does(RunsProgram(INSPECTOR)),
    optional(&["--inspect-brk"]).does(RunsProgram(INSPECTOR)),
    value(&["--debug-port", "--inspect-port"]).does(RunsProgram(INSPECTOR)),
    value(&["--inspect-publish-uid"]),
    optional(&["--inspect-wait"]).does(RunsProgram(INSPECTOR)),
    flag(&["-i", "--interactive"]).does(LoadsCode(
        "enters the interactive prompt, running code read from stdin",
    )),
    flag(&["--interpreted-frames-native-stack"]),
    flag(&["--jitless"]),
    value(&["--max-http-header-size"]),
    value(&["--network-family-autoselection-attempt-timeout"]),
    flag(&["--no-addons"]),
    flag(&["--no-deprecation"]),
    flag(&["--no-experimental-detect-module"]),
    flag(&["--no-experimental-fetch"]),
    flag(&["--no-experimental-global-customevent"]),
    flag(&["--no-experimental-global-webcrypto"]),
    flag(&["--no-experimental-repl-await"]),
    flag(&["--no-experimental-require-module"]),
    flag(&["--no-extra-info-on-fatal-exception"]),
    flag(&["--no-force-async-hooks-checks"]),
    flag(&["--no-global-search-paths"]),
    flag(&["--enable-network-family-autoselection"]),
    flag(&["--no-network-family-autoselection"]),
    flag(&["--no-warnings"]),
    flag(&["--node-memory-debug"]),
    value(&["--openssl-config"]).does(LoadsCode(
        "reads an OpenSSL config file, which can load engines and providers",
    )),
    flag(&["--openssl-legacy-provider"]),
    flag(&["--openssl-shared-config"]),
    flag(&["--pending-deprecation"]),
    value(&["--policy-integrity"]),
    flag(&["--preserve-symlinks"]),
    flag(&["--preserve-symlinks-main"]),
    // `-p CODE`, or `-p` alone: node takes the next word as the code unless
    // it starts with `-`.
    optional(&["-p", "--print"]).does(LoadsCode(INLINE)),
    flag(&["--prof"]),
    flag(&["--prof-process"]),
    value(&["--redirect-warnings"]).does(WritesFile(REPORT)),
    flag(&["--report-compact"]),
    value(&["--report-directory", "--report-dir"]).does(WritesFile(REPORT)),
    flag(&["--report-exclude-network"]),
    value(&["--report-filename"]).does(WritesFile(REPORT)),
    flag(&["--report-on-fatalerror"]),
    flag(&["--report-on-signal"]),
    value(&["--report-signal"]),
    flag(&["--report-uncaught-exception"]),
    value(&["-r", "--require"]).does(LoadsCode(PRELOAD)),
    value(&["--secure-heap"]),
    value(&["--secure-heap-min"]),
    value(&["--snapshot-blob"]).does(LoadsCode(
        "starts from a snapshot blob: code the prompt does not show",
    )),
    flag(&["--test"]),
    value(&["--test-concurrency"]),
    flag(&["--test-force-exit"]),
    value(&["--test-name-pattern"]),
    flag(&["--test-only"]),
    // A built-in reporter name, or a module ([`BY_VALUE`]).
    value(&["--test-reporter"]),
    value(&["--test-reporter-destination"]).does(WritesFile(REPORT)),
    value(&["--test-shard"]),
    value(&["--test-timeout"]),
    flag(&["--throw-deprecation"]),
    value(&["--title"]),
    value(&["--tls-cipher-list"]),
    value(&["--tls-keylog"]).does(WritesFile("writes TLS session keys to a file")),
    flag(&["--tls-max-v1.2"]),
    flag(&["--tls-max-v1.3"]),
    flag(&["--tls-min-v1.0"]),
    flag(&["--tls-min-v1.1"]),
    flag(&["--tls-min-v1.2"]),
    flag(&["--tls-min-v1.3"]),
    flag(&["--trace-atomics-wait"]),
    flag(&["--trace-deprecation"]),
    value(&["--trace-event-categories"]),
    value(&["--trace-event-file-pattern"]).does(WritesFile(REPORT)),
    flag(&["--trace-exit"]),
    flag(&["--trace-promises"]),
    value(&["--trace-require-module"]),
    flag(&["--trace-sigint"]),
    flag(&["--trace-sync-io"]),
    flag(&["--trace-tls"]),
    flag(&["--trace-uncaught"]),
    flag(&["--trace-warnings"]),
    flag(&["--track-heap-objects"]),
    value(&["--unhandled-rejections"]),
    flag(&["--use-bundled-ca"]),
    value(&["--use-largepages"]),
    flag(&["--use-openssl-ca"]),
    flag(&["--v8-options"]),
    value(&["--v8-pool-size"]),
    flag(&["-v", "--version"]),
    flag(&["--watch"]),
    value(&["--watch-path"]),
    flag(&["--watch-preserve-output"]),
    flag(&["--zero-fill-buffers"]),
    // V8's, not node's (`node --v8-options`): only with `=`, which the
    // spec does not require (node refuses the next-word form anyway).
    value(&["--max-old-space-size"]),
    value(&["--max-semi-space-size"]),
    value(&["--stack-size"]),
];

/// Whether a test reporter is a module rather than a built-in one.
fn reporter_module(reporter: &str) -> bool {
    !matches!(reporter, "spec" | "tap" | "dot" | "junit" | "lcov")
}

/// Options judged by their value ([`ByValue`]).
pub(crate) const BY_VALUE: &[ByValue] = &[ByValue {
    names: &["--test-reporter"],
    when: reporter_module,
    opt: value(&["--test-reporter"]).does(LoadsCode(
        "loads a test reporter module: code the prompt does not show",
    )),
}];

/// `node`, `nodejs`.
pub(crate) const NODE: Spec = Spec {
    family: "node",
    names: &["node", "nodejs"],
    ids: ids!("node"),
    grammar: Grammar::Interpreter(Interp::Node),
    opts: &[NODE_OPTS],
    subs: &[],
    checked_with: "Node.js 20.20.2",
    operands: Operands::Plain,
    env: &[
        loads(
            "NODE_OPTIONS",
            "node takes options from here, including --require",
        ),
        loads("NODE_PATH", "node resolves modules from here"),
        location(
            "NODE_REDIRECT_WARNINGS",
            "node writes its warnings to this file instead of stderr",
        ),
        loads(
            "NODE_REPL_EXTERNAL_MODULE",
            "node runs this module instead of its REPL",
        ),
        location(
            "NODE_REPL_HISTORY",
            "node's REPL reads and writes its history at this path",
        ),
    ],
};
