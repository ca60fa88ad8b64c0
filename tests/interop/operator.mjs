// A long-lived operator session for the interop suite: one WebSocket
// connection (role operator, scope operator.admin, its own device key)
// that reads one request per line on stdin, {"method": …, "params": …},
// and writes one line per request on stdout, in order:
// {"ok": true, "payload": …} or {"ok": false, "error": {code, message, details}}.
//
// Why not `openclaw gateway call`: the gateway binds an exec approval to the
// connection (or device) that requested it, and the CLI connects afresh,
// without a device, on every call, so request → resolve → node.invoke must
// share one connection. It also saves ~1 s of Node start-up per call.
//
// Usage: node operator.mjs --url ws://127.0.0.1:PORT --token TOKEN
// Prints {"ready": true} once connected; exits when stdin closes.
import readline from "node:readline";
import { connectWithRetry, connectParams, deviceIdentity, parseFlags } from "./gateway-ws.mjs";

const flags = parseFlags(process.argv.slice(2));
if (!flags.url || !flags.token) {
  console.error("usage: operator.mjs --url ws://HOST:PORT --token TOKEN");
  process.exit(2);
}
const identity = deviceIdentity();
const scopes = ["operator.admin"];
const client = {
  id: "cli",
  displayName: "interop-operator",
  version: "0.0.0",
  platform: "linux",
  mode: "cli",
  instanceId: crypto.randomUUID(),
};
let conn;
try {
  conn = await connectWithRetry({
    url: flags.url,
    buildParams: (challenge) =>
      connectParams({ identity, token: flags.token, role: "operator", scopes, client, caps: [], commands: [], challenge }),
    onClose: () => {
      console.error("operator: the gateway closed the connection");
      process.exit(1);
    },
  }, Number.MAX_SAFE_INTEGER); // the suite decides how long to wait
} catch (err) {
  console.error(`operator: cannot connect: ${err.message}`);
  process.exit(1);
}
process.stdout.write(JSON.stringify({ ready: true, deviceId: identity.deviceId }) + "\n");

// Lines are answered in order even when several are in flight.
let chain = Promise.resolve();
const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  if (!line.trim()) return;
  const answer = (async () => {
    try {
      const { method, params } = JSON.parse(line);
      return { ok: true, payload: await conn.request(method, params ?? {}) };
    } catch (err) {
      return { ok: false, error: { code: err.code ?? "CLIENT", message: err.message, details: err.details ?? null } };
    }
  })();
  chain = chain.then(async () => process.stdout.write(JSON.stringify(await answer) + "\n"));
});
rl.on("close", async () => {
  await chain;
  conn.close();
  process.exit(0);
});
