// The floor: the smallest node an OpenClaw gateway accepts. It connects and
// signs (reference/openclaw-gateway.md §3), declares system.run, and answers
// it by spawning argv with NO checks at all. Only for the benchmark and for
// proving the test harness; never point it at a gateway you do not own.
//
// Usage: node minimal-node.mjs --url ws://127.0.0.1:PORT --token TOKEN
//          [--key FILE] [--name DISPLAY_NAME] [--events MODE]
// Prints {"deviceId": …} on stdout once connected; reconnects when the
// gateway goes away.
//
// --events (benchmark only, to price the gateway's handling of a node's
// exec lifecycle events against the floor, same fields as node-host sends):
//   none       no events (the default: the floor)
//   around     exec.started before the spawn, exec.finished before the
//              result, neither awaited (node-host before run 13)
//   openclaw   exec.finished, its acknowledgement awaited, then the result
//              (OpenClaw's own node host, 2026.9.6)
//   after      the result, then exec.finished at once
//   after-ack  the result, its acknowledgement awaited, then exec.finished
import { spawn } from "node:child_process";
import { connectWithRetry, connectParams, deviceIdentity, parseFlags } from "./gateway-ws.mjs";

const flags = parseFlags(process.argv.slice(2));
if (!flags.url || !flags.token) {
  console.error("usage: minimal-node.mjs --url ws://HOST:PORT --token TOKEN [--key FILE] [--name NAME] [--events MODE]");
  process.exit(2);
}
const events = flags.events ?? "none";
if (!["none", "around", "openclaw", "after", "after-ack"].includes(events)) {
  console.error(`minimal-node: unknown --events ${events}`);
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
            const base = {
              sessionKey: params.sessionKey || "node",
              runId: params.runId,
              host: "node",
              command: params.rawCommand ?? params.command.join(" "),
              suppressNotifyOnExit: params.suppressNotifyOnExit === true,
            };
            const event = (name, payload) =>
              conn?.request("node.event", { event: name, payloadJSON: JSON.stringify(payload) }).catch(() => {});
            if (events === "around") event("exec.started", base);
            const payload = await runArgv(params);
            result = { id: req.id, nodeId: req.nodeId, ok: true, payloadJSON: JSON.stringify(payload) };
            const finished = {
              ...base,
              exitCode: payload.exitCode,
              timedOut: payload.timedOut,
              success: payload.success,
              output: payload.stdout + payload.stderr,
            };
            switch (events) {
              case "around":
                event("exec.finished", finished);
                break;
              case "openclaw":
                await event("exec.finished", finished);
                break;
              case "after":
                conn?.request("node.invoke.result", result).catch(() => {});
                event("exec.finished", finished);
                return;
              case "after-ack":
                await conn?.request("node.invoke.result", result).catch(() => {});
                event("exec.finished", finished);
                return;
            }
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
