// The floor: the smallest node an OpenClaw gateway accepts. It connects and
// signs (reference/openclaw-gateway.md §3), declares system.run, and answers
// it by spawning argv with NO checks at all. Only for the benchmark and for
// proving the test harness; never point it at a gateway you do not own.
//
// Usage: node minimal-node.mjs --url ws://127.0.0.1:PORT --token TOKEN
//          [--key FILE] [--name DISPLAY_NAME]
// Prints {"deviceId": …} on stdout once connected; reconnects when the
// gateway goes away.
import { spawn } from "node:child_process";
import { connectWithRetry, connectParams, deviceIdentity, parseFlags } from "./gateway-ws.mjs";

const flags = parseFlags(process.argv.slice(2));
if (!flags.url || !flags.token) {
  console.error("usage: minimal-node.mjs --url ws://HOST:PORT --token TOKEN [--key FILE] [--name NAME]");
  process.exit(2);
}
const identity = deviceIdentity(flags.key);
const client = {
  id: "node-host",
  displayName: flags.name ?? "minimal-node",
  version: "0.0.0",
  platform: "linux",
  mode: "node",
  instanceId: crypto.randomUUID(),
};
let announced = false;

function runArgv(params) {
  return new Promise((resolve) => {
    const argv = params.command;
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let child;
    try {
      child = spawn(argv[0], argv.slice(1), { cwd: params.cwd, stdio: ["ignore", "pipe", "pipe"] });
    } catch (err) {
      resolve({ exitCode: null, timedOut, success: false, stdout, stderr, error: String(err) });
      return;
    }
    const timer =
      params.timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            child.kill("SIGKILL");
          }, params.timeoutMs)
        : null;
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (err) => {
      if (timer) clearTimeout(timer);
      resolve({ exitCode: null, timedOut, success: false, stdout, stderr, error: String(err) });
    });
    child.on("close", (code) => {
      if (timer) clearTimeout(timer);
      resolve({ exitCode: code, timedOut, success: code === 0 && !timedOut, stdout, stderr, error: null });
    });
  });
}

async function session() {
  let conn;
  const done = new Promise((resolve) => {
    connectWithRetry(
      {
        url: flags.url,
        buildParams: (challenge) =>
          connectParams({
            identity,
            token: flags.token,
            role: "node",
            scopes: [],
            client,
            caps: ["system"],
            commands: ["system.run"],
            challenge,
          }),
        onEvent: async (frame) => {
          if (frame.event !== "node.invoke.request") return;
          const req = frame.payload;
          const params = req.paramsJSON ? JSON.parse(req.paramsJSON) : req.params ?? {};
          let result;
          if (req.command === "system.run" && Array.isArray(params.command) && params.command.length) {
            const payload = await runArgv(params);
            result = { id: req.id, nodeId: req.nodeId, ok: true, payloadJSON: JSON.stringify(payload) };
          } else {
            result = {
              id: req.id,
              nodeId: req.nodeId,
              ok: false,
              error: { code: "UNAVAILABLE", message: "command not supported" },
            };
          }
          conn?.request("node.invoke.result", result).catch(() => {});
        },
        onClose: () => resolve(),
      },
      Number.MAX_SAFE_INTEGER,
    ).then((c) => {
      conn = c;
      if (!announced) {
        announced = true;
        process.stdout.write(JSON.stringify({ deviceId: identity.deviceId }) + "\n");
      }
    }, (err) => {
      console.error(`minimal-node: cannot connect: ${err.message}`);
      process.exit(1);
    });
  });
  await done;
}

for (;;) {
  await session();
  await new Promise((r) => setTimeout(r, 500));
}
