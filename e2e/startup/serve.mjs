// `goose-acp serve` start-up (docs/performance.md): not a test, a tool for the figures quoted
// there. For each run and each binary (alternating): spawn `serve --port P` with an empty
// GOOSE_PATH_ROOT and time spawn → the first GET /status answering 200 (polled every 0.2 ms).
// Prints each binary's median and raw times. Copy binaries with `cat` before measuring.
//
// node e2e/startup/serve.mjs /path/to/goose-acp [/path/to/other …] RUNS
import { spawn } from "node:child_process";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const bins = process.argv.slice(2, -1);
const runs = +process.argv.at(-1);
if (!bins.length || !(runs > 0)) {
  console.error("usage: node e2e/startup/serve.mjs BINARY [BINARY …] RUNS");
  process.exit(2);
}
const root = mkdtempSync(join(tmpdir(), "serve-"));
const status = (port) => new Promise((res) => {
  const r = http.get({ host: "127.0.0.1", port, path: "/status", agent: false }, (x) => { x.resume(); res(x.statusCode); });
  r.on("error", () => res(0));
});
const times = Object.fromEntries(bins.map((b) => [b, []]));
let port = 39000 + Math.floor(Math.random() * 1000);
for (let i = 0; i < runs; i++) {
  for (const b of (i % 2 ? [...bins].reverse() : bins)) {
    port++;
    const t0 = process.hrtime.bigint();
    const p = spawn(b, ["serve", "--port", String(port)], { stdio: "ignore",
      env: { HOME: root, GOOSE_PATH_ROOT: root, PATH: process.env.PATH, GOOSE_DISABLE_KEYRING: "1", GOOSE_SERVER__SECRET_KEY: "s" } });
    while ((await status(port)) !== 200) await new Promise((r) => setTimeout(r, 0.2));
    times[b].push(Number(process.hrtime.bigint() - t0) / 1e6);
    p.kill();
    await new Promise((r) => p.on("exit", r));
  }
}
for (const b of bins) {
  const s = times[b].sort((x, y) => x - y);
  console.log(b, "spawn → /status 200 median", s[s.length >> 1].toFixed(2), "ms; raw", s.map((x) => x.toFixed(1)).join(" "));
}
rmSync(root, { recursive: true, force: true });
