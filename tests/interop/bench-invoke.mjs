// An operator client that issues `node.invoke` system.run to one node, N
// times, back to back (or P at a time), over one WebSocket, and prints
// {"median_ms", "p99_ms", "n", "ok", "failures"} as JSON. Each latency is
// request sent → response received, as an operator sees it.
//
// Usage: node bench-invoke.mjs --url ws://127.0.0.1:PORT --token TOKEN
//          --node NODE_ID [--n 200] [--warmup 10] [--parallel 1]
//          [--argv '["/bin/true"]'] [--cwd DIR] [--timeout-ms 15000]
//          [--params '{"suppressNotifyOnExit":true}']   (more system.run params)
//          [--gap-ms 0]   a pause after each response before the next request,
//                         so work the gateway does after answering (a node's
//                         exec.finished) does not fall on the next invoke
// `ok` counts invokes whose command exited 0; `failures` lists the first
// few other outcomes. Exits 1 when any invoke failed.
import { connectWithRetry, connectParams, deviceIdentity, parseFlags } from "./gateway-ws.mjs";

const flags = parseFlags(process.argv.slice(2));
if (!flags.url || !flags.token || !flags.node) {
  console.error("usage: bench-invoke.mjs --url ws://HOST:PORT --token TOKEN --node NODE_ID [--n N] [--parallel P] [--argv JSON]");
  process.exit(2);
}
const n = Number(flags.n ?? 200);
const warmup = Number(flags.warmup ?? 10);
const parallel = Math.max(1, Number(flags.parallel ?? 1));
const argv = JSON.parse(flags.argv ?? '["/bin/true"]');
const timeoutMs = Number(flags["timeout-ms"] ?? 15000);
const extraParams = JSON.parse(flags.params ?? "{}");
const gapMs = Number(flags["gap-ms"] ?? 0);
const identity = deviceIdentity();
const scopes = ["operator.admin"];
const client = {
  id: "cli",
  displayName: "bench-invoke",
  version: "0.0.0",
  platform: "linux",
  mode: "cli",
  instanceId: crypto.randomUUID(),
};

const conn = await connectWithRetry({
  url: flags.url,
  buildParams: (challenge) =>
    connectParams({ identity, token: flags.token, role: "operator", scopes, client, caps: [], commands: [], challenge }),
});

let seq = 0;
async function invokeOnce() {
  const params = { ...extraParams, command: argv, timeoutMs };
  if (flags.cwd) params.cwd = flags.cwd;
  const t0 = process.hrtime.bigint();
  try {
    const res = await conn.request("node.invoke", {
      nodeId: flags.node,
      command: "system.run",
      params,
      timeoutMs: timeoutMs + 5000,
      idempotencyKey: `bench-${process.pid}-${seq++}-${crypto.randomUUID()}`,
    });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const payload = res?.payload ?? (res?.payloadJSON ? JSON.parse(res.payloadJSON) : null);
    const ok = res?.ok !== false && payload?.exitCode === 0;
    return { ms, ok, detail: ok ? null : JSON.stringify(res).slice(0, 300) };
  } catch (err) {
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    return { ms, ok: false, detail: String(err.message ?? err).slice(0, 300) };
  }
}

async function runMany(count) {
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      results.push(await invokeOnce());
      if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
  return results;
}

await runMany(warmup);
const results = await runMany(n);
conn.close();

const times = results.map((r) => r.ms).sort((a, b) => a - b);
// Nearest-rank p99; the median averages the middle two of an even count.
const pick = (q) => times[Math.min(times.length - 1, Math.max(0, Math.ceil(q * times.length) - 1))];
const median = () => {
  const mid = times.length >> 1;
  return times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
};
const round = (x) => Math.round(x * 100) / 100;
const failures = results.filter((r) => !r.ok).map((r) => r.detail);
console.log(
  JSON.stringify({
    median_ms: round(median()),
    p99_ms: round(pick(0.99)),
    n: results.length,
    ok: results.length - failures.length,
    failures: failures.slice(0, 5),
    times_ms: times.map(round),
  }),
);
process.exit(failures.length ? 1 : 0);
