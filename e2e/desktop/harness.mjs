// Drives `goose-acp serve` the way Goose Desktop 1.54 does (gooseServe.ts,
// acpConnection.ts): free port from 127.0.0.1:0, Desktop's argv and env,
// /status polled every 100 ms, ONE ACP connection over WebSocket from
// @agentclientprotocol/sdk 1.5.0's createWebSocketStream(acpUrl, {protocols: []})
// with ?token=, Desktop's initialize, the startup sequence, a text turn, a
// tool turn with a permission request, and a reconnect + session/load.
//
// Every _goose/unstable/* answer, notification and agent request is
// validated with ajv against acp-schema.json (the type acp-meta.json names);
// standard ACP frames with the SDK's zod schemas.
//
// usage: GOOSE_ACP_BIN=… WORKDIR=… ACP_REFERENCE=<dir of acp-schema.json> node harness.mjs
// Prints one JSON report line, then "N passed, M failed"; exits 1 on any
// failure or schema violation.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";
import WS from "ws";
import Ajv2020 from "ajv/dist/2020.js";
import { ClientSideConnection } from "@agentclientprotocol/sdk";
import { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";

const require = createRequire(import.meta.url);
const z = await import(require.resolve("@agentclientprotocol/sdk").replace(/acp\.js$/, "schema/zod.gen.js"));

const bin = process.env.GOOSE_ACP_BIN;
const workdir = process.env.WORKDIR;
const ref = process.env.ACP_REFERENCE;
if (!bin || !workdir || !ref) {
  console.error("GOOSE_ACP_BIN, WORKDIR and ACP_REFERENCE are required");
  process.exit(2);
}

// --- the contract: acp-meta.json types, acp-schema.json validators ---
const meta = JSON.parse(readFileSync(path.join(ref, "acp-meta.json"), "utf8"));
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(JSON.parse(readFileSync(path.join(ref, "acp-schema.json"), "utf8")), "acp");
const responseType = new Map(meta.methods.map((m) => [m.method, m.responseType]));
const paramsType = new Map([
  ...meta.notifications.map((n) => [n.method, n.paramsType]),
  ...meta.agentRequests.map((r) => [r.method, r.requestType]),
]);
const customCheck = (type, value, what) => {
  const validate = ajv.getSchema(`acp#/$defs/${type}`);
  if (!validate) return violations.push({ what, issues: [`no $defs/${type} in acp-schema.json`] });
  if (!validate(value)) {
    violations.push({ what: `${what} (${type})`, issues: validate.errors.slice(0, 5).map((e) => `${e.instancePath} ${e.message}`), value });
  }
};
const STANDARD_RESULT = {
  initialize: z.zInitializeResponse, "session/new": z.zNewSessionResponse, "session/load": z.zLoadSessionResponse,
  "session/prompt": z.zPromptResponse, "session/list": z.zListSessionsResponse,
};
const STANDARD_INBOUND = { "session/update": z.zSessionNotification, "session/request_permission": z.zRequestPermissionRequest };
const zodCheck = (schema, value, what) => {
  const r = schema.safeParse(value);
  if (!r.success) violations.push({ what, issues: r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).slice(0, 5) });
};

const violations = [];
let frames = 0;
const sent = new Map();
// method → "ok" | "missing" (-32601) | "error <code>: <message>"
const methodState = {};

// validating wraps one SDK stream: every frame in either direction is seen.
function validating(stream) {
  const readable = stream.readable.pipeThrough(new TransformStream({
    transform(m, c) {
      frames++;
      if (m.jsonrpc !== "2.0") violations.push({ what: "jsonrpc field", m });
      if ("method" in m) {
        if (STANDARD_INBOUND[m.method]) zodCheck(STANDARD_INBOUND[m.method], m.params, m.method);
        else if (paramsType.has(m.method)) customCheck(paramsType.get(m.method), m.params, m.method);
        else violations.push({ what: "unknown agent→client method " + m.method });
      } else {
        const method = sent.get(m.id);
        sent.delete(m.id);
        if ("error" in m) {
          if (method?.startsWith("_goose/unstable/")) {
            methodState[method] = m.error.code === -32601 ? "missing" : `error ${m.error.code}: ${m.error.message}`;
          }
        } else if (STANDARD_RESULT[method]) zodCheck(STANDARD_RESULT[method], m.result, "result of " + method);
        else if (responseType.has(method)) {
          const before = violations.length;
          customCheck(responseType.get(method), m.result, "result of " + method);
          methodState[method] = violations.length === before ? "ok" : "invalid";
        }
      }
      c.enqueue(m);
    },
  }));
  // One writer for the inner stream, so end() can close it while the SDK
  // still holds this wrapper's writable.
  const inner = stream.writable.getWriter();
  let last = Promise.resolve();
  let ended = false;
  const writable = new WritableStream({
    write(m) {
      if (ended) return;
      if ("method" in m && "id" in m) sent.set(m.id, m.method);
      last = inner.write(m);
      return last;
    },
    close() { return end(); },
  });
  const end = async () => {
    if (ended) return;
    ended = true;
    await last.catch(() => undefined);
    await inner.close();
  };
  return { readable, writable, end };
}

// Electron's renderer: a browser WebSocket whose page is file://.
let lastSocket;
globalThis.WebSocket = class DesktopWebSocket extends WS {
  constructor(url, protocols, options = {}) {
    super(url, protocols, { ...options, origin: "file://" });
    lastSocket = this;
  }
};

// --- launch, as gooseServe.ts ---
const port = await new Promise((resolve, reject) => {
  const srv = net.createServer();
  srv.once("error", reject);
  srv.listen(0, "127.0.0.1", () => { const p = srv.address().port; srv.close(() => resolve(p)); });
});
const secret = randomBytes(32).toString("hex");
const child = spawn(bin, ["serve", "--platform", "desktop", "--enable-scheduler", "--host", "127.0.0.1", "--port", String(port)], {
  cwd: workdir,
  stdio: ["ignore", "pipe", "pipe"],
  env: { ...process.env, PATH: `${path.dirname(bin)}${path.delimiter}${process.env.PATH}`, GOOSE_SERVER__SECRET_KEY: secret },
});
let stdout = "";
let fatal = "";
let exited = null;
child.stdout.on("data", (b) => { stdout += b; });
child.stderr.on("data", (b) => {
  process.stderr.write(b);
  const s = String(b);
  if (/panicked at/.test(s) || /RUST_BACKTRACE/.test(s) || /fatal error/i.test(s)) fatal += s;
});
const exitedP = new Promise((resolve) => child.on("exit", (code, signal) => { exited = { code, signal }; resolve(exited); }));

const base = `http://127.0.0.1:${port}`;
const acpUrl = `ws://127.0.0.1:${port}/acp?token=${secret}`;
async function waitReady() {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (exited) throw new Error("goose-acp serve exited: " + JSON.stringify(exited));
    if (fatal) throw new Error("fatal stderr line: " + fatal);
    try {
      const r = await fetch(`${base}/status`, { signal: AbortSignal.timeout(1000) });
      if (r.ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("/status never answered within 30 s");
}

// --- the client Desktop registers (createClientCallbacks) ---
const updates = [];
const gooseUpdates = [];
const permissions = [];
const clientImpl = {
  async sessionUpdate(params) { updates.push(params); },
  async requestPermission(params) {
    permissions.push(params);
    return { outcome: { outcome: "selected", optionId: "allow_once" } };
  },
  async extMethod(method, params) {
    if (method === "_goose/unstable/session/recipe/request-params") return { action: "cancel", values: {} };
    throw new Error("unexpected agent request " + method);
  },
  async extNotification(method, params) {
    if (method === "_goose/unstable/session/update") gooseUpdates.push(params);
  },
};
const DESKTOP_INITIALIZE = {
  protocolVersion: 1,
  _meta: { "goose/useLoginShellPath": true },
  clientCapabilities: {
    elicitation: { form: {} },
    _meta: { goose: {
      mcpHostCapabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } },
      customNotifications: true,
      recipeParameterRequests: true,
    } },
  },
  clientInfo: { name: "goose-app", version: "1.54.0" },
};
async function connect() {
  const conn = new ClientSideConnection(() => clientImpl, validating(createWebSocketStream(acpUrl, { protocols: [] })));
  const init = await withTimeout(conn.initialize(DESKTOP_INITIALIZE), 10_000, "initialize (Desktop's 10 s limit)");
  return { conn, init, socket: lastSocket };
}
const withTimeout = (p, ms, what) => Promise.race([p, new Promise((_, rej) => setTimeout(() => rej(new Error(what + " timed out")), ms))]);
// call is a _goose/unstable/* request; its state is recorded by validating().
const call = async (conn, method, params) => {
  try { return await conn.extMethod("_goose/unstable/" + method, params); } catch { return undefined; }
};

const results = [];
const assert = (cond, msg) => { if (!cond) throw new Error(msg); };
const updatesOf = (id) => updates.filter((u) => u.sessionId === id).map((u) => u.update);
const textOf = (id, kind = "agent_message_chunk") =>
  updatesOf(id).filter((u) => u.sessionUpdate === kind && u.content?.type === "text").map((u) => u.content.text).join("");

const ctx = {};
const steps = {
  async launch() {
    await waitReady();
    const health = await fetch(`${base}/health`);
    assert(health.ok && (await health.text()) === "ok", "/health");
    const denied = await fetch(`${base}/acp`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    assert(denied.status === 401, "/acp without the token: " + denied.status);
  },
  async initialize() {
    const { conn, init } = await connect();
    ctx.conn = conn;
    assert(init.protocolVersion === 1, "protocolVersion " + init.protocolVersion);
    assert(init.agentCapabilities?.loadSession === true, "loadSession");
    assert(init.agentCapabilities?.sessionCapabilities?.list && init.agentCapabilities?.sessionCapabilities?.close, "session list/close");
    assert(init.authMethods?.some((m) => m.id === "goose-provider"), "goose-provider auth method");
  },
  // ConfigContext.tsx mount, the sidebar, then the on-demand reads.
  async startup() {
    const c = ctx.conn;
    await call(c, "config/read-all", {});
    await call(c, "providers/list", {});
    const list = await call(c, "config/extensions/list", {});
    if (list && !list.extensions.some((e) => e.extension?.name === "developer")) {
      await call(c, "config/extensions/add", { extension: { type: "builtin", name: "developer", display_name: "Developer", timeout: 300, bundled: true }, enabled: true });
    }
    // Desktop removes deprecated bundled entries by configKey; a fresh
    // profile has none, so remove one added for the purpose.
    await call(c, "config/extensions/add", { extension: { type: "builtin", name: "goose-acp-e2e-deprecated", bundled: true }, enabled: false });
    const again = await call(c, "config/extensions/list", {});
    const stale = again?.extensions.find((e) => e.extension?.name === "goose-acp-e2e-deprecated");
    await call(c, "config/extensions/remove", { configKey: stale?.configKey ?? "goose-acp-e2e-deprecated" });
    const after = await call(c, "config/extensions/list", {});
    if (after) assert(!after.extensions.some((e) => e.extension?.name === "goose-acp-e2e-deprecated"), "remove left the extension");
    const sessions = await c.listSessions({});
    assert(Array.isArray(sessions.sessions), "session/list");
    await call(c, "config/read", { key: "GOOSE_PROVIDER", isSecret: false });
    await call(c, "config/read", { key: "OPENAI_API_KEY", isSecret: true });
    await call(c, "defaults/read", {});
    await call(c, "preferences/read", { keys: ["gooseThinkingEffort"] });
    await call(c, "providers/config/status", { providerIds: ["openai", "anthropic"] });
    // check-binary-compat.mjs: read-only methods on a fresh install.
    await call(c, "providers/list", { providerIds: [] });
    await call(c, "providers/catalog/list", {});
    await call(c, "providers/setup/catalog/list", {});
    await call(c, "preferences/read", {});
    await call(c, "sources/list", {});
    await call(c, "dictation/config", {});
    await call(c, "dictation/models/list", {});
  },
  async textTurn() {
    const c = ctx.conn;
    const s = await c.newSession({ cwd: workdir, mcpServers: [] });
    ctx.sessionId = s.sessionId;
    await call(c, "session/info", { sessionId: s.sessionId });
    const res = await c.prompt({ sessionId: s.sessionId, prompt: [{ type: "text", text: "Say hello." }] });
    assert(res.stopReason === "end_turn", "stopReason " + res.stopReason);
    assert(textOf(s.sessionId) === "Hello from goose", "text " + JSON.stringify(textOf(s.sessionId)));
  },
  async toolTurn() {
    const c = ctx.conn;
    const res = await c.prompt({ sessionId: ctx.sessionId, prompt: [{ type: "text", text: "run echo" }] });
    assert(res.stopReason === "end_turn", "stopReason " + res.stopReason);
    assert(permissions.length === 1, "permission requests: " + permissions.length);
    assert(permissions[0].options.some((o) => o.optionId === "allow_once"), "allow_once option");
    const done = updatesOf(ctx.sessionId).find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    assert(done, "no completed tool_call_update");
    assert(textOf(ctx.sessionId).endsWith("ran it"), "text after the tool " + JSON.stringify(textOf(ctx.sessionId)));
  },
  // The socket drops; Desktop's recoverConnection opens a new one, sends a
  // new initialize and reopens the chat with session/load.
  async reconnect() {
    const closed = new Promise((r) => ctx.conn.signal.addEventListener("abort", r, { once: true }));
    lastSocket.close();
    await withTimeout(closed, 5000, "the old connection closing");
    updates.length = 0;
    const { conn } = await connect();
    ctx.conn = conn;
    const listed = await conn.listSessions({});
    assert(listed.sessions.some((s) => s.sessionId === ctx.sessionId), "session not listed after reconnect");
    await conn.loadSession({ sessionId: ctx.sessionId, cwd: workdir, mcpServers: [] });
    assert(textOf(ctx.sessionId, "user_message_chunk").includes("Say hello."), "replayed user text " + JSON.stringify(textOf(ctx.sessionId, "user_message_chunk")));
    assert(textOf(ctx.sessionId).includes("Hello from goose"), "replayed agent text");
    assert(updatesOf(ctx.sessionId).some((u) => u.sessionUpdate === "tool_call"), "replayed tool call");
    const res = await conn.prompt({ sessionId: ctx.sessionId, prompt: [{ type: "text", text: "still there?" }] });
    assert(res.stopReason === "end_turn", "prompt after load " + res.stopReason);
  },
  // Not what Desktop uses, but the same /acp: the SDK's streamable-HTTP
  // client (POST/GET SSE/DELETE) resumes the chat too, with the secret as
  // X-Secret-Key.
  async streamableHttp() {
    const stream = validating(createHttpStream(`${base}/acp`, { headers: { "X-Secret-Key": secret } }));
    const conn = new ClientSideConnection(() => clientImpl, stream);
    const init = await withTimeout(conn.initialize(DESKTOP_INITIALIZE), 10_000, "initialize over HTTP");
    assert(init.agentCapabilities?.loadSession === true, "loadSession over HTTP");
    updates.length = 0;
    await conn.loadSession({ sessionId: ctx.sessionId, cwd: workdir, mcpServers: [] });
    assert(textOf(ctx.sessionId).includes("still here"), "replay over HTTP " + JSON.stringify(textOf(ctx.sessionId)));
    await call(conn, "session/info", { sessionId: ctx.sessionId });
    await stream.end(); // the SDK's DELETE
  },
  async shutdown() {
    child.kill("SIGTERM");
    const r = await withTimeout(exitedP, 5000, "exit after SIGTERM (Desktop SIGKILLs at 5 s)");
    assert(r.code === 0, "exit " + JSON.stringify(r));
    assert(stdout === "", "stdout without --tls: " + JSON.stringify(stdout));
    assert(!fatal, "fatal stderr: " + fatal);
  },
};

for (const [name, step] of Object.entries(steps)) {
  try {
    await step();
    results.push({ name, ok: true });
  } catch (e) {
    results.push({ name, ok: false, error: String(e?.stack ?? e) });
    if (name === "launch" || name === "initialize") break;
  }
}
if (!exited) child.kill("SIGKILL");

const startup = Object.keys(methodState).sort();
const report = {
  frames,
  violations,
  results,
  implemented: startup.filter((m) => methodState[m] === "ok"),
  missing: startup.filter((m) => methodState[m] === "missing"),
  errors: startup.filter((m) => methodState[m].startsWith("error")).map((m) => `${m}: ${methodState[m]}`),
  gooseUpdates: gooseUpdates.length,
};
console.log(JSON.stringify(report));
const failed = results.filter((r) => !r.ok);
for (const f of failed) console.error(`FAIL ${f.name}: ${f.error}`);
console.log(`${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length || violations.length ? 1 : 0);
