// Side-by-side start-up driver (docs/performance.md, "A fresh process"): not a test, a tool for
// the figures quoted there. Copy binaries with `cat` before measuring (a just-linked binary's page
// cache differs).
//
// node e2e/startup/drive.mjs [--runs 10] goose-acp=/path/to/goose-acp [base=/path/to/other] [codex=codex]
//   label=path@K=V,K2=V2 adds environment variables to that agent's runs.
//   codex: codex-acp's own binary from CODEX_ACP (e.g. the npm package
//   @zed-industries/codex-acp-linux-x64's bin/codex-acp), started with an empty CODEX_HOME.
//   MOCK_LLM: the loopback mock (default: ../shared/clients/mock-llm.mjs beside the repository).
//
// For each run and each agent (alternating): a fresh process; spawn → initialize → session/new
// (cwd, no MCP servers) → one prompt "Say hello." answered at once by the loopback mock
// (shared/clients/mock-llm.mjs, separate process) in two SSE chunks. Times are client round
// trips (initialize is measured from spawn); total is spawn → prompt response; peak RSS is the sum
// of VmHWM over the agent's process tree, read after the prompt's response.
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";

const args = process.argv.slice(2);
let runs = 10;
const agents = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--runs") runs = +args[++i];
  else { const [label, rest] = [args[i].slice(0, args[i].indexOf("=")), args[i].slice(args[i].indexOf("=") + 1)]; const [path, extra] = rest.split("@"); agents.push({ label, path, extra }); }
}
const CODEX = process.env.CODEX_ACP || "codex-acp";
const MOCK = process.env.MOCK_LLM || fileURLToPath(new URL("../../../shared/clients/mock-llm.mjs", import.meta.url));

// --- the mock, its own process ---
const scratch = mkdtempSync(join(tmpdir(), "perf-drive-"));
const script = join(scratch, "script.json");
writeFileSync(script, JSON.stringify({ turns: [], default: { reply: "Hello! How can I help?", chunks: 2 } }));
const mock = spawn("node", [MOCK, "--script", script], { stdio: ["ignore", "pipe", "inherit"] });
const port = await new Promise((res) => {
  createInterface({ input: mock.stdout }).on("line", (l) => { const m = /MOCK_PORT=(\d+)/.exec(l); if (m) res(+m[1]); });
});
const mockURL = `http://127.0.0.1:${port}`;

function gooseSetup() {
  const root = mkdtempSync(join(scratch, "goose-"));
  mkdirSync(join(root, "config"), { recursive: true });
  writeFileSync(join(root, "config", "config.yaml"), [
    "GOOSE_PROVIDER: openai", "GOOSE_MODEL: gpt-4o", `OPENAI_HOST: ${mockURL}`, "GOOSE_MODE: auto",
    "extensions:", "  developer:", "    enabled: true", "    type: builtin", "    name: developer",
    "    display_name: Developer", "    timeout: 300", "    bundled: true", ""].join("\n"));
  let n = 0;
  return (bin, extra) => {
    const env = { PATH: process.env.PATH, HOME: root, GOOSE_PATH_ROOT: root, OPENAI_API_KEY: "sk-test",
      GOOSE_DISABLE_KEYRING: "1", GOOSE_DISABLE_SESSION_NAMING: "true" };
    n++;
    if (process.env.PERF_ENV) for (const kv of process.env.PERF_ENV.split(",")) { const [k, v] = kv.split("="); env[k] = v; }
    if (extra) for (const kv of extra.split(",")) { const i = kv.indexOf("="); env[kv.slice(0, i)] = kv.slice(i + 1); }
    if (process.env.PERF_CPU_DIR) env.PERF_CPU = `${process.env.PERF_CPU_DIR}/cpu-${n}.prof`;
    if (process.env.PERF_TRACE_DIR) env.PERF_TRACE = `${process.env.PERF_TRACE_DIR}/trace-${n}.out`;
    return { cmd: bin, args: [], cwd: root, env };
  };
}
function codexSetup() {
  const root = mkdtempSync(join(scratch, "codex-"));
  return () => {
    const home = mkdtempSync(join(root, "home-")); // an empty CODEX_HOME for every run
    return {
      cmd: CODEX, cwd: root,
      args: ["-c", "model_provider=mock", "-c",
        `model_providers.mock={name="mock",base_url="${mockURL}/v1",env_key="OPENAI_API_KEY",wire_api="responses"}`],
      env: { PATH: process.env.PATH, HOME: root, CODEX_HOME: home, OPENAI_API_KEY: "sk-test" },
    };
  };
}

function treeHWM(pid) {
  let kb = 0;
  const kids = (p) => { try { return readFileSync(`/proc/${p}/task/${p}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number); } catch { return []; } };
  const walk = (p) => {
    try { const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8")); if (m) kb += +m[1]; } catch {}
    for (const k of kids(p)) walk(k);
  };
  walk(pid);
  return kb / 1024;
}

async function once(spec, cwd) {
  const t0 = process.hrtime.bigint();
  const wrap = process.env.PERF_WRAP ? process.env.PERF_WRAP.split(" ") : [];
  const p = spawn(wrap.length ? wrap[0] : spec.cmd, wrap.length ? [...wrap.slice(1), spec.cmd, ...spec.args] : spec.args, { cwd: spec.cwd, env: spec.env, stdio: ["pipe", "pipe", process.env.PERF_STDERR ? "pipe" : "ignore"] });
  if (process.env.PERF_STDERR) { const { createWriteStream } = await import("node:fs"); const w = createWriteStream(process.env.PERF_STDERR, { flags: "a" }); w.write(`--- run\n`); p.stderr.on("data", (d) => w.write(d)); }
  const waiters = new Map();
  let next = 0;
  createInterface({ input: p.stdout }).on("line", (line) => {
    let m; try { m = JSON.parse(line); } catch { return; }
    if (m.id !== undefined && m.method === undefined && waiters.has(m.id)) { const w = waiters.get(m.id); waiters.delete(m.id); w(m); }
    else if (m.id !== undefined && m.method) { // a request from the agent: answer with an error
      p.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "not supported" } }) + "\n");
    }
  });
  const call = (method, params) => new Promise((res, rej) => {
    const id = ++next;
    waiters.set(id, (m) => (m.error ? rej(new Error(`${method}: ${JSON.stringify(m.error)}`)) : res(m.result)));
    p.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
  });
  const ms = (a, b) => Number(b - a) / 1e6;
  const cpuNow = () => { let c = 0; try { for (const t of readdirSync(`/proc/${p.pid}/task`)) c += +readFileSync(`/proc/${p.pid}/task/${t}/schedstat`, "utf8").split(" ")[0] / 1e6; } catch {} return c; };
  await call("initialize", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });
  const t1 = process.hrtime.bigint();
  // The agent's CPU is read between requests, outside the round trips:
  // each read walks /proc/<pid>/task (~0.1 ms here), which a round trip
  // timed from t1 or t2 would include.
  const c1 = cpuNow();
  if (process.env.PERF_STDERR) { const { appendFileSync } = await import("node:fs"); appendFileSync(process.env.PERF_STDERR, `CLIENT ${(Number(t1 - t0) / 1e6).toFixed(3)} init response\n`); }
  const s1 = process.hrtime.bigint();
  const s = await call("session/new", { cwd, mcpServers: [] });
  const t2 = process.hrtime.bigint();
  const c2 = cpuNow();
  const s2 = process.hrtime.bigint();
  const r = await call("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "Say hello." }] });
  const t3 = process.hrtime.bigint();
  const c3 = cpuNow();
  const rss = treeHWM(p.pid);
  if (process.env.PERF_SMAPS) { writeFileSync(process.env.PERF_SMAPS, readFileSync(`/proc/${p.pid}/smaps`)); writeFileSync(process.env.PERF_SMAPS + ".status", readFileSync(`/proc/${p.pid}/status`)); }
  if (process.env.PERF_HOOK) { const { execSync } = await import("node:child_process"); execSync(process.env.PERF_HOOK.replace("{pid}", p.pid).replace("{bin}", spec.cmd), { stdio: "inherit" }); }
  let minflt = 0;
  try { const st = readFileSync(`/proc/${p.pid}/stat`, "utf8"); minflt = +st.slice(st.lastIndexOf(")") + 2).split(" ")[7]; } catch {}
  let cpu = 0;
  try { for (const t of readdirSync(`/proc/${p.pid}/task`)) cpu += +readFileSync(`/proc/${p.pid}/task/${t}/schedstat`, "utf8").split(" ")[0] / 1e6; } catch {}
  if (r.stopReason !== "end_turn") throw new Error(`prompt: ${JSON.stringify(r)}`);
  if (process.env.PERF_CPU_DIR || process.env.PERF_TRACE_DIR) await new Promise((r) => setTimeout(r, 400));
  p.stdin.end(); p.kill("SIGTERM");
  await new Promise((res) => p.on("exit", res));
  return { init: ms(t0, t1), new: ms(s1, t2), prompt: ms(s2, t3), total: ms(t0, t3), rss, cpu, minflt, cinit: c1, cnew: c2 - c1, cprompt: c3 - c2 };
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const specs = agents.map((a) => ({ ...a, make: a.path === "codex" ? codexSetup() : gooseSetup(), raw: [] }));
const cwd = mkdtempSync(join(scratch, "work-"));
for (const s of specs) await once(s.make(s.path, s.extra), cwd); // one untimed warm-up each (page cache)
for (let i = 0; i < runs; i++)
  for (const s of (i % 2 ? [...specs].reverse() : specs)) s.raw.push(await once(s.make(s.path, s.extra), cwd));
const cols = ["init", "new", "prompt", "total", "rss", "cpu", "minflt", "cinit", "cnew", "cprompt"];
console.log(`load: ${readFileSync("/proc/loadavg", "utf8").trim()}`);
console.log("| agent | initialize | session/new | first prompt | total | peak RSS | agent CPU |\n|---|---|---|---|---|---|---|");
const med = {};
for (const s of specs) {
  med[s.label] = Object.fromEntries(cols.map((c) => [c, median(s.raw.map((r) => r[c]))]));
  const m = med[s.label];
  console.log(`| ${s.label} | ${m.init.toFixed(2)} ms | ${m.new.toFixed(2)} ms | ${m.prompt.toFixed(2)} ms | ${m.total.toFixed(2)} ms | ${m.rss.toFixed(1)} MB | ${m.cpu.toFixed(1)} ms |`);
}
if (med.codex) for (const s of specs) if (s.label !== "codex") {
  const r = (c) => (med.codex[c] / med[s.label][c]).toFixed(1);
  console.log(`| ratio codex / ${s.label} | ×${r("init")} | ×${r("new")} | ×${r("prompt")} | ×${r("total")} | ×${r("rss")} |`);
}
console.log("agent CPU per step (ms, medians): " + specs.map((s) => `${s.label} init ${med[s.label].cinit.toFixed(2)} new ${med[s.label].cnew.toFixed(2)} prompt ${med[s.label].cprompt.toFixed(2)}`).join("; "));
console.log("raw:");
for (const s of specs) for (const c of cols) console.log(`${s.label} ${c}: ${s.raw.map((r) => r[c].toFixed(2)).join(" ")}`);
mock.kill();
rmSync(scratch, { recursive: true, force: true });
