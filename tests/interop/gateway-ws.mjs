// The OpenClaw gateway's WebSocket protocol (v4) as the interop tools need
// it: the signed connect handshake (reference/openclaw-gateway.md §3) and
// request/response framing (§2). Node 24's global WebSocket; Ed25519 from
// node:crypto. Shared by minimal-node.mjs and bench-invoke.mjs.
import crypto from "node:crypto";
import fs from "node:fs";

/** Raw 32-byte Ed25519 public key from a KeyObject (SPKI DER tail). */
function rawPublicKey(publicKey) {
  const der = publicKey.export({ type: "spki", format: "der" });
  return der.subarray(der.length - 32);
}

const b64url = (buf) => Buffer.from(buf).toString("base64url");

/** A device identity: a new key, or the one saved at `file` (0600). */
export function deviceIdentity(file) {
  let privateKey;
  if (file && fs.existsSync(file)) {
    privateKey = crypto.createPrivateKey(fs.readFileSync(file, "utf8"));
  } else {
    ({ privateKey } = crypto.generateKeyPairSync("ed25519"));
    if (file) {
      fs.writeFileSync(file, privateKey.export({ type: "pkcs8", format: "pem" }), {
        mode: 0o600,
      });
    }
  }
  const raw = rawPublicKey(crypto.createPublicKey(privateKey));
  return {
    privateKey,
    publicKey: b64url(raw),
    deviceId: crypto.createHash("sha256").update(raw).digest("hex"),
  };
}

/** Connect params signed with the v3 payload (§3). */
export function connectParams({ identity, token, role, scopes, client, caps, commands, challenge }) {
  const norm = (v) => (v == null ? "" : String(v).trim().toLowerCase());
  const payload = [
    "v3",
    identity.deviceId,
    client.id,
    client.mode,
    role,
    scopes.join(","),
    String(challenge.ts),
    token ?? "",
    challenge.nonce,
    norm(client.platform),
    norm(client.deviceFamily),
  ].join("|");
  const signature = crypto.sign(null, Buffer.from(payload, "utf8"), identity.privateKey);
  return {
    minProtocol: 3,
    maxProtocol: 4,
    client,
    caps,
    commands,
    auth: { token },
    role,
    scopes,
    device: {
      id: identity.deviceId,
      publicKey: identity.publicKey,
      signature: b64url(signature),
      signedAt: challenge.ts,
      nonce: challenge.nonce,
    },
  };
}

/**
 * One connection: resolves with {ws, hello, request(method, params), close()}
 * once hello-ok arrives; rejects with the connect error (its `retryAfterMs`
 * kept) otherwise. `onEvent(frame)` gets every event after the challenge; `onClose` is
 * called only for a connection that got its hello.
 */
export function connect({ url, buildParams, onEvent = () => {}, onClose = () => {} }) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const pending = new Map();
    let hello = null;
    const request = (method, params) =>
      new Promise((res, rej) => {
        const id = crypto.randomUUID();
        pending.set(id, { res, rej });
        ws.send(JSON.stringify({ type: "req", id, method, params }));
      });
    ws.addEventListener("message", (msg) => {
      let frame;
      try {
        frame = JSON.parse(String(msg.data));
      } catch {
        return;
      }
      if (frame.type === "event" && frame.event === "connect.challenge" && !hello) {
        request("connect", buildParams(frame.payload)).then(
          (payload) => {
            hello = payload;
            resolve({ ws, hello, request, close: () => ws.close() });
          },
          (err) => {
            reject(err);
            ws.close();
          },
        );
        return;
      }
      if (frame.type === "res") {
        const p = pending.get(frame.id);
        if (!p) return;
        pending.delete(frame.id);
        if (frame.ok) p.res(frame.payload);
        else {
          const err = new Error(`${frame.error?.code}: ${frame.error?.message}`);
          err.code = frame.error?.code;
          err.retryAfterMs = frame.error?.retryAfterMs;
          err.retryable = frame.error?.retryable === true || frame.error?.code === "UNAVAILABLE";
          err.details = frame.error?.details;
          p.rej(err);
        }
        return;
      }
      if (frame.type === "event") onEvent(frame);
    });
    ws.addEventListener("error", () => {});
    ws.addEventListener("close", (ev) => {
      for (const p of pending.values()) p.rej(new Error(`connection closed (${ev.code})`));
      pending.clear();
      // 1008: the gateway refused the connect params; anything else before
      // hello (refused socket, 1013 while starting) is worth a retry.
      if (!hello)
        reject(
          Object.assign(new Error(`closed before hello (${ev.code} ${ev.reason})`), {
            retryable: ev.code !== 1008,
            retryAfterMs: 500,
          }),
        );
      else onClose(ev);
    });
  });
}

/** Connects, retrying a retryable refusal (gateway still starting) until `deadlineMs`. */
export async function connectWithRetry(opts, deadlineMs = Date.now() + 60_000) {
  for (;;) {
    try {
      return await connect(opts);
    } catch (err) {
      if (!err.retryable || Date.now() > deadlineMs) throw err;
      await new Promise((r) => setTimeout(r, err.retryAfterMs ?? 500));
    }
  }
}

/** `--name value` flags into an object. */
export function parseFlags(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) throw new Error(`unexpected argument ${a}`);
    const v = argv[i + 1];
    if (v === undefined || v.startsWith("--")) out[a.slice(2)] = true;
    else {
      out[a.slice(2)] = v;
      i++;
    }
  }
  return out;
}
