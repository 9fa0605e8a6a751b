// Probes goose-acp as the ACP registry's daily protocol matrix does
// (agentclientprotocol/registry .github/workflows/protocol_matrix.py,
// probe schema 2): the same requests, byte for byte as Python's json.dumps
// writes them, in the same order with the same ids, each answer classified
// by the matrix's rules. Every frame the agent sends is also validated
// against the ACP SDK's zod schemas.
//
// usage: GOOSE_ACP_BIN=/path/to/goose-acp WORKDIR=/abs/dir node registry_matrix.mjs
// Prints one JSON report line.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const root = require.resolve("@agentclientprotocol/sdk").replace(/dist\/v1\/stable\/acp\.js$/, "");
const z = await import(root + "dist/v1/unstable/schema/zod.gen.js");

const bin = process.env.GOOSE_ACP_BIN;
const workdir = process.env.WORKDIR;
const RPC_TIMEOUT = 5000;

// pyDumps is json.dumps with Python's default separators (", ", ": ") and
// ensure_ascii: the matrix writes each request this way.
function pyDumps(v) {
  if (v === null) return "null";
  if (v === true) return "true";
  if (v === false) return "false";
  if (typeof v === "number") return String(v);
  if (typeof v === "string") return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
  if (Array.isArray(v)) return "[" + v.map(pyDumps).join(", ") + "]";
  return "{" + Object.entries(v).map(([k, x]) => pyDumps(k) + ": " + pyDumps(x)).join(", ") + "}";
}

const initializeParams = {
  protocolVersion: 1,
  clientInfo: { name: "ACP Registry Protocol Matrix", version: "0.1.0" },
  clientCapabilities: {
    terminal: true,
    fs: { readTextFile: true, writeTextFile: true },
    _meta: { terminal_output: true, "terminal-auth": true },
  },
};

const RESULT = {
  initialize: z.zInitializeResponse, "session/new": z.zNewSessionResponse, "session/list": z.zListSessionsResponse,
  "session/fork": z.zForkSessionResponse, "session/resume": z.zResumeSessionResponse, "session/close": z.zCloseSessionResponse,
};
const violations = [];
const check = (schema, value, what) => {
  if (!schema) return;
  const r = schema.safeParse(value);
  if (!r.success) violations.push({ what, issues: r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).slice(0, 5) });
};

const child = spawn(bin, [], { stdio: ["pipe", "pipe", "ignore"], cwd: workdir, env: process.env });
const lines = [];
let waiting = null;
createInterface({ input: child.stdout }).on("line", (line) => {
  let m;
  try { m = JSON.parse(line); } catch { violations.push({ what: "not JSON on stdout", line }); return; }
  if (m.jsonrpc !== "2.0") violations.push({ what: "jsonrpc field", m });
  if (m.method === "session/update") check(z.zSessionNotification, m.params, "session/update");
  else if ("method" in m && !m.method.startsWith("_")) violations.push({ what: "unexpected agent message " + m.method });
  lines.push(m);
  if (waiting) waiting();
});

// request sends one request as the matrix does and waits for the answer
// with its id, skipping every other line, up to the matrix's timeout.
async function request(id, method, params) {
  sent.set(id, method);
  child.stdin.write(pyDumps({ jsonrpc: "2.0", id, method, params }) + "\n");
  const deadline = Date.now() + RPC_TIMEOUT;
  for (;;) {
    const i = lines.findIndex((m) => m.id === id && ("result" in m || "error" in m));
    if (i >= 0) {
      const m = lines.splice(i, 1)[0];
      if ("result" in m) check(RESULT[method], m.result, "result of " + method);
      return m;
    }
    const left = deadline - Date.now();
    if (left <= 0) return null;
    await new Promise((r) => { waiting = r; setTimeout(r, left); });
    waiting = null;
  }
}
const sent = new Map();

// classify is the matrix's classify_rpc_response.
function classify(m) {
  if (!m) return { status: "no_response" };
  if ("result" in m) return { status: "success" };
  const e = m.error;
  if (typeof e !== "object" || e === null) return { status: "error", message: "Invalid error payload" };
  if (typeof e.code !== "number" || typeof e.message !== "string") violations.push({ what: "error object", e });
  const code = e.code, msg = e.message ?? null, lower = String(msg ?? "").toLowerCase();
  const out = (status) => ({ status, code, message: msg });
  if (code === -32601) return out("method_not_found");
  if (code === -32000 || lower.includes("auth_required") || lower.includes("authentication")) return out("auth_required");
  if (code === -32602) return out("invalid_params");
  if (code === -32002) return out("resource_not_found");
  if (code === -32800) return out("cancelled");
  return out("error");
}

function authType(method) {
  if (typeof method.type === "string" && method.type) return method.type;
  const meta = method._meta ?? {};
  if ("terminal-auth" in meta) return "terminal";
  if ("agent-auth" in meta) return "agent";
  if ("env-var-auth" in meta) return "env_var";
  return "agent";
}
const present = (caps, key) => key in caps && caps[key] !== null;
const closeAdvertised = (sc) => {
  const c = sc.close;
  if (typeof c !== "object" || c === null || Array.isArray(c)) return false;
  return !("_meta" in c) || c._meta === null || (typeof c._meta === "object" && !Array.isArray(c._meta));
};
const exposesModels = (m) => !!m && typeof m.result === "object" && m.result !== null && m.result.models != null;

const report = { authMethods: [], capabilities: {}, setModelSignal: false, methodProbes: {} };
let id = 1;
const init = await request(id++, "initialize", initializeParams);
report.initialize = classify(init);
let sessionId = "sess_matrix_probe", closeId = null;
if (init && init.result) {
  const r = init.result;
  report.protocolVersion = r.protocolVersion;
  report.authMethods = [...new Set((r.authMethods ?? []).map(authType))].sort();
  const ac = r.agentCapabilities ?? {}, sc = ac.sessionCapabilities ?? {};
  report.capabilities = { loadSession: !!ac.loadSession, sessionList: present(sc, "list"), sessionFork: present(sc, "fork"),
    sessionResume: present(sc, "resume"), sessionClose: closeAdvertised(sc) };
  const created = await request(id++, "session/new", { cwd: workdir, mcpServers: [] });
  report.sessionNew = classify(created);
  report.setModelSignal = exposesModels(created);
  if (report.sessionNew.status === "success") sessionId = closeId = created.result.sessionId;
  for (const method of ["session/list", "session/fork", "session/resume", "session/set_model", "session/close"]) {
    let params;
    if (method === "session/list") params = {};
    else if (method === "session/fork" || method === "session/resume") params = { sessionId, cwd: workdir, mcpServers: [] };
    else if (method === "session/set_model") params = { sessionId, modelId: "matrix-model" };
    else {
      if (!report.capabilities.sessionClose) { report.methodProbes[method] = { status: "not_applicable" }; continue; }
      if (closeId === null) { report.methodProbes[method] = { status: "not_probed" }; continue; }
      params = { sessionId: closeId };
    }
    const m = await request(id++, method, params);
    let outcome = classify(m);
    if (method === "session/close" && outcome.status === "success" && (typeof m.result !== "object" || m.result === null || Array.isArray(m.result))) {
      outcome = { status: "invalid_response", message: "session/close result must be an object" };
    }
    report.setModelSignal ||= exposesModels(m);
    report.methodProbes[method] = outcome;
  }
}
child.stdin.end();
await new Promise((r) => { child.on("exit", r); setTimeout(r, 5000); });
report.violations = violations;
console.log(JSON.stringify(report));
