// A scripted Goose Desktop: starts `goose-acp serve` as Desktop's gooseServe.ts
// does, connects over WebSocket with @agentclientprotocol/sdk 1.5.0
// (createWebSocketStream, ?token=, Origin file://), sends Desktop's initialize
// and then the steps of a script the Go test wrote: the requests Desktop's own
// code sends, with Desktop's params. It records every result and every frame
// the agent sends, and validates
//   - every _goose/unstable/* result, notification and agent request against
//     BOTH Desktop versions' contracts (acp-meta.json + acp-schema.json of
//     Desktop 1.44 and of Desktop 1.5x), as their generated Zod does;
//   - every standard ACP result and session/update with the SDK's zod schemas.
//
// usage: GOOSE_ACP_BIN=… WORKDIR=… DESKTOP_SCRIPT=<script.json>
//        DESKTOP_SCHEMAS=<name>=<dir>,<name>=<dir> node driver.mjs
//
// Script: {
//   "serveArgs": [...]            argv after the binary; "$PORT" is replaced (default: Desktop 1.44's,
//                                 serve --platform desktop --host 127.0.0.1 --port $PORT)
//   "clientVersion": "1.44.0",    clientInfo.version of initialize
//   "permission": "allow_once",   the option Desktop's user picks on session/request_permission
//   "recipeParams": {"action": "cancel", "values": {}},  the answer to …/recipe/request-params
//   "steps": [
//     {"call": "session/new", "params": {...}, "as": "s"}      a request (any method, verbatim);
//                                                              "untilNonEmpty": "field" repeats it until
//                                                              that array of its result has an element
//     {"notify": "session/cancel", "params": {...}}            a notification
//     {"reconnect": true}                                      close the socket, new socket + initialize
//     {"sleepMs": 1100}                                        let the clock move (message times are seconds)
//     {"waitFor": {"sessionId": "...", "update": "usage_update", "custom": true}, "count": 1}
//   ]
// }
// A string "${name.path.to.field}" anywhere in params is replaced by that value
// of the result of the step saved "as" name (its whole value when the string is
// only the reference).
//
// Prints one JSON line: {results: {name: {method, params, result|error}}, steps: [...],
// inbound: [{method, params}], requests: [{method, params}], initialize: [...],
// violations: [...], stderr}; exit 0 even when steps fail (the Go test judges).
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

const require = createRequire(import.meta.url);
const z = await import(require.resolve("@agentclientprotocol/sdk").replace(/acp\.js$/, "schema/zod.gen.js"));

const bin = process.env.GOOSE_ACP_BIN;
const workdir = process.env.WORKDIR;
const script = JSON.parse(readFileSync(process.env.DESKTOP_SCRIPT, "utf8"));
const schemaDirs = (process.env.DESKTOP_SCHEMAS ?? "").split(",").filter(Boolean).map((kv) => kv.split("="));
if (!bin || !workdir || schemaDirs.length === 0) {
  console.error("GOOSE_ACP_BIN, WORKDIR, DESKTOP_SCRIPT and DESKTOP_SCHEMAS are required");
  process.exit(2);
}

// --- the contracts: one validator set per Desktop version ---
const contracts = schemaDirs.map(([name, dir]) => {
  const meta = JSON.parse(readFileSync(path.join(dir, "acp-meta.json"), "utf8"));
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(JSON.parse(readFileSync(path.join(dir, "acp-schema.json"), "utf8")), "acp");
  return {
    name,
    ajv,
    response: new Map(meta.methods.map((m) => [m.method, m.responseType])),
    inbound: new Map([
      ...meta.notifications.map((n) => [n.method, n.paramsType]),
      ...meta.agentRequests.map((r) => [r.method, r.requestType]),
    ]),
  };
});
const violations = [];
function contractCheck(kind, method, value) {
  for (const c of contracts) {
    const type = (kind === "response" ? c.response : c.inbound).get(method);
    if (!type) continue; // this version does not have the method
    const validate = c.ajv.getSchema(`acp#/$defs/${type}`);
    if (!validate) {
      violations.push({ version: c.name, what: `${method}: no $defs/${type}` });
    } else if (!validate(value)) {
      violations.push({
        version: c.name, what: `${kind} of ${method} (${type})`,
        issues: validate.errors.slice(0, 8).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`),
      });
    }
  }
}
const STANDARD_RESULT = {
  initialize: z.zInitializeResponse, "session/new": z.zNewSessionResponse, "session/load": z.zLoadSessionResponse,
  "session/prompt": z.zPromptResponse, "session/list": z.zListSessionsResponse, "session/fork": z.zForkSessionResponse,
  "session/set_config_option": z.zSetSessionConfigOptionResponse,
};
const STANDARD_INBOUND = { "session/update": z.zSessionNotification, "session/request_permission": z.zRequestPermissionRequest };
function zodCheck(schema, value, what) {
  if (!schema) return;
  const r = schema.safeParse(value);
  if (!r.success) violations.push({ version: "sdk-1.5.0", what, issues: r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).slice(0, 8) });
}

// --- frames ---
const inbound = []; // notifications from the agent, in order
const requests = []; // agent→client requests
const sent = new Map();
let frameSeq = 0;
function validating(stream) {
  const readable = stream.readable.pipeThrough(new TransformStream({
    transform(m, c) {
      frameSeq++;
      if ("method" in m) {
        if (STANDARD_INBOUND[m.method]) zodCheck(STANDARD_INBOUND[m.method], m.params, m.method);
        else contractCheck("inbound", m.method, m.params);
        if ("id" in m) requests.push({ seq: frameSeq, method: m.method, params: m.params });
        else inbound.push({ seq: frameSeq, method: m.method, params: m.params });
      } else {
        const method = sent.get(m.id);
        sent.delete(m.id);
        if (!("error" in m)) {
          if (method in STANDARD_RESULT) zodCheck(STANDARD_RESULT[method], m.result, "result of " + method);
          else contractCheck("response", method, m.result);
        }
      }
      c.enqueue(m);
    },
  }));
  const inner = stream.writable.getWriter();
  const writable = new WritableStream({
    write(m) {
      if ("method" in m && "id" in m) sent.set(m.id, m.method);
      return inner.write(m);
    },
    close() { return inner.close(); },
  });
  return { readable, writable };
}

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
const argv = (script.serveArgs ?? ["serve", "--platform", "desktop", "--host", "127.0.0.1", "--port", "$PORT"])
  .map((a) => (a === "$PORT" ? String(port) : a));
const child = spawn(bin, argv, {
  cwd: workdir,
  stdio: ["ignore", "pipe", "pipe"],
  env: { ...process.env, GOOSE_SERVER__SECRET_KEY: secret },
});
let stderr = "";
let exited = null;
child.stdout.on("data", () => {});
child.stderr.on("data", (b) => { stderr += b; });
child.on("exit", (code, signal) => { exited = { code, signal }; });
const base = `http://127.0.0.1:${port}`;
const deadline = Date.now() + 30_000;
for (;;) {
  if (exited) fail("goose-acp serve exited: " + JSON.stringify(exited));
  if (Date.now() > deadline) fail("/status never answered within 30 s");
  try {
    const r = await fetch(`${base}/status`, { signal: AbortSignal.timeout(1000) });
    if (r.ok) break;
  } catch { /* not up yet */ }
  await new Promise((r) => setTimeout(r, 100));
}

const clientImpl = {
  async sessionUpdate() {},
  async requestPermission() {
    return { outcome: { outcome: "selected", optionId: script.permission ?? "allow_once" } };
  },
  async extMethod(method) {
    if (method === "_goose/unstable/session/recipe/request-params") return script.recipeParams ?? { action: "cancel", values: {} };
    throw new Error("unexpected agent request " + method);
  },
  async extNotification() {},
};
const initialize = {
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
  clientInfo: { name: "goose-app", version: script.clientVersion ?? "1.54.0" },
};
const initResults = [];
let conn;
async function connect() {
  conn = new ClientSideConnection(() => clientImpl, validating(createWebSocketStream(`ws://127.0.0.1:${port}/acp?token=${secret}`, { protocols: [] })));
  sent.set("init", "initialize");
  initResults.push(await conn.initialize(initialize));
}

const saved = {};
function lookup(ref) {
  const [name, ...rest] = ref.split(".");
  let v = saved[name];
  for (const k of rest) v = v?.[k];
  return v;
}
function substitute(v) {
  if (typeof v === "string") {
    const whole = /^\$\{([^}]+)\}$/.exec(v);
    if (whole) return lookup(whole[1]);
    return v.replace(/\$\{([^}]+)\}/g, (_, r) => String(lookup(r)));
  }
  if (Array.isArray(v)) return v.map(substitute);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, substitute(x)]));
  return v;
}
const TYPED = {
  "session/new": (c, p) => c.newSession(p),
  "session/load": (c, p) => c.loadSession(p),
  "session/list": (c, p) => c.listSessions(p),
  "session/prompt": (c, p) => c.prompt(p),
  "session/fork": (c, p) => c.unstable_forkSession(p),
  "session/close": (c, p) => c.closeSession(p),
  "session/set_config_option": (c, p) => c.setSessionConfigOption(p),
};
function matches(n, want) {
  const custom = n.method === "_goose/unstable/session/update";
  if (want.custom !== undefined && want.custom !== custom) return false;
  if (!custom && n.method !== "session/update") return false;
  if (want.sessionId && n.params.sessionId !== want.sessionId) return false;
  return !want.update || n.params.update?.sessionUpdate === want.update;
}

const steps = [];
const results = {};
try {
  await connect();
  for (const [i, raw] of script.steps.entries()) {
    const step = substitute(raw);
    const rec = { i, ...step };
    steps.push(rec);
    const name = step.as ?? `#${i}`;
    if (step.reconnect) {
      const closed = new Promise((r) => conn.signal.addEventListener("abort", r, { once: true }));
      lastSocket.close();
      await closed;
      await connect();
      continue;
    }
    if (step.waitFor) {
      const want = step.waitFor;
      const until = Date.now() + (step.timeoutMs ?? 10_000);
      while (inbound.filter((n) => matches(n, want)).length < (step.count ?? 1)) {
        if (Date.now() > until) { rec.timedOut = true; break; }
        await new Promise((r) => setTimeout(r, 20));
      }
      continue;
    }
    if (step.sleepMs) {
      await new Promise((r) => setTimeout(r, step.sleepMs));
      continue;
    }
    if (step.notify) {
      await conn.extNotification(step.notify, step.params ?? {});
      continue;
    }
    const method = step.call;
    const params = step.params ?? {};
    rec.afterSeq = frameSeq;
    try {
      let result = TYPED[method] ? await TYPED[method](conn, params) : await conn.extMethod(method, params);
      // "untilNonEmpty": the call is repeated until that array field of its
      // result has an element (what a view polling the agent would see).
      const until = Date.now() + (step.timeoutMs ?? 15_000);
      while (step.untilNonEmpty && !(result?.[step.untilNonEmpty]?.length > 0) && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 200));
        result = await conn.extMethod(method, params);
      }
      results[name] = { method, params, result: result ?? null };
      saved[name] = result;
    } catch (e) {
      results[name] = { method, params, error: { code: e?.code, message: e?.message, data: e?.data } };
    }
    rec.doneSeq = frameSeq;
  }
} catch (e) {
  results["!driver"] = { error: { message: String(e?.stack ?? e) } };
}
// Frames that follow a response (usage, commands) settle before the report.
await new Promise((r) => setTimeout(r, script.settleMs ?? 150));
child.kill("SIGTERM");
await new Promise((r) => (exited ? r() : child.on("exit", r)));
console.log(JSON.stringify({ results, steps, inbound, requests, initialize: initResults, violations, stderr }));

function fail(msg) {
  console.log(JSON.stringify({ results: { "!driver": { error: { message: msg } } }, violations, stderr }));
  child?.kill("SIGKILL");
  process.exit(0);
}
