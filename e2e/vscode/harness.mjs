// Drives goose-acp with @agentclientprotocol/sdk 0.21.1's ClientSideConnection,
// answering the way VS Code's "ACP Client" extension (formulahendry.acp-client
// 0.2.0) does, read from its source:
//   - initialize: fs read/write and terminal, clientInfo vscode-acp-client;
//   - permissions with auto-approve "allowAll": the first option whose kind is
//     allow_once or allow_always (src/handlers/PermissionHandler.ts);
//   - fs/read_text_file: the file's text, or the thrown EntryNotFound error,
//     which the SDK answers with -32603 (src/handlers/FileSystemHandler.ts);
//   - session_info_update: the chat banner shows update.title, so an update
//     without a title clears it (src/extension.ts).
//
// usage: GOOSE_ACP_BIN=/path/to/goose-acp WORKDIR=/abs/dir node harness.mjs scenario...
// Prints one JSON report line, then "N passed, M failed"; exits 1 on any failure.
import { spawn } from "node:child_process";
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const bin = process.env.GOOSE_ACP_BIN;
const workdir = process.env.WORKDIR;
if (!bin || !workdir) {
  console.error("GOOSE_ACP_BIN and WORKDIR are required");
  process.exit(2);
}

const child = spawn(bin, [], { stdio: ["pipe", "pipe", "inherit"], cwd: workdir });
const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));

const updates = [];
const permissions = [];
const fsCalls = [];
const fsErrors = [];
const titles = new Map(); // sessionId -> the banner's title

class VSCodeClient {
  async requestPermission(params) {
    permissions.push(params);
    const allow = params.options.find((o) => o.kind === "allow_once" || o.kind === "allow_always");
    if (allow) return { outcome: { outcome: "selected", optionId: allow.optionId } };
    return { outcome: { outcome: "cancelled" } };
  }
  async sessionUpdate(params) {
    updates.push(params);
    if (params.update.sessionUpdate === "session_info_update") titles.set(params.sessionId, params.update?.title);
  }
  async readTextFile(params) {
    fsCalls.push({ method: "read", path: params.path });
    try {
      return { content: await readFile(params.path, "utf-8") };
    } catch (e) {
      // vscode.workspace.fs.readFile throws FileSystemError EntryNotFound;
      // the extension logs and rethrows it.
      const err = new Error(`EntryNotFound (FileSystemError): Unable to read file '${params.path}'`);
      fsErrors.push(err.message);
      throw err;
    }
  }
  async writeTextFile(params) {
    fsCalls.push({ method: "write", path: params.path, content: params.content });
    await mkdir(dirname(params.path), { recursive: true });
    await writeFile(params.path, params.content);
    return {};
  }
}

const conn = new acp.ClientSideConnection(() => new VSCodeClient(), stream);
const results = [];
const assert = (cond, msg) => { if (!cond) throw new Error(msg); };
const updatesOf = (id) => updates.filter((u) => u.sessionId === id).map((u) => u.update);
const textOf = (id) => updatesOf(id).filter((u) => u.sessionUpdate === "agent_message_chunk" && u.content.type === "text").map((u) => u.content.text).join("");
const newSession = async () => (await conn.newSession({ cwd: workdir, mcpServers: [] })).sessionId;
const prompt = (sessionId, text) => conn.prompt({ sessionId, prompt: [{ type: "text", text }] });

const scenarios = {
  // Two writes in approve mode with auto-approve on: each is asked and
  // granted once; no standing rule (the Go test checks permission.yaml).
  async autoapprove() {
    const s = await newSession();
    await conn.setSessionMode({ sessionId: s, modeId: "approve" });
    for (const text of ["write one", "write two"]) {
      const res = await prompt(s, text);
      assert(res.stopReason === "end_turn", "stopReason " + res.stopReason);
    }
    assert(permissions.length === 2, "permission requests: " + permissions.length);
    const picked = permissions.map((p) => p.options.find((o) => o.kind.startsWith("allow")).kind);
    assert(picked.every((k) => k === "allow_once"), "auto-approve picked " + picked.join());
    const writes = fsCalls.filter((c) => c.method === "write").length;
    assert(writes === 2, "writes " + writes);
  },
  // The banner keeps the session's title through turns.
  async title() {
    const s = await newSession();
    for (const text of ["Refactor the parser", "and add tests", "then ship it"]) {
      await prompt(s, text);
    }
    const infos = updatesOf(s).filter((u) => u.sessionUpdate === "session_info_update");
    assert(titles.get(s) === "Refactor the parser", "banner title " + JSON.stringify(titles.get(s)) + " after " + JSON.stringify(infos));
    assert(infos.every((u) => typeof u.title === "string"), "a session_info_update without a title: " + JSON.stringify(infos));
  },
  // Reading a file that does not exist, then creating it.
  async missingfile() {
    const s = await newSession();
    await conn.setSessionMode({ sessionId: s, modeId: "approve" });
    const from = fsCalls.length;
    const res = await prompt(s, "plan it");
    assert(res.stopReason === "end_turn", "stopReason " + res.stopReason);
    const reads = fsCalls.slice(from).filter((c) => c.method === "read");
    assert(reads.length === 1, "fs/read_text_file calls: " + JSON.stringify(reads));
    const done = updatesOf(s).filter((u) => u.sessionUpdate === "tool_call_update" && u.rawOutput !== undefined);
    assert(done.some((u) => u.status === "completed" && String(u.rawOutput).startsWith("Created ")), "the new file was not Created: " + JSON.stringify(done));
  },
  async clear() {
    const s = await newSession();
    await prompt(s, "hello");
    const before = textOf(s);
    const res = await prompt(s, "/clear");
    assert(res.stopReason === "end_turn", "stopReason " + res.stopReason);
    assert(textOf(s).slice(before.length) === "Conversation cleared", "after /clear: " + JSON.stringify(textOf(s).slice(before.length)));
  },
};

await conn.initialize({
  protocolVersion: acp.PROTOCOL_VERSION,
  clientInfo: { name: "vscode-acp-client", version: "0.2.0" },
  clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
});
for (const name of process.argv.slice(2)) {
  const fn = scenarios[name];
  try {
    if (!fn) throw new Error("unknown scenario");
    await fn();
    results.push({ name, ok: true });
  } catch (e) {
    results.push({ name, ok: false, error: String(e && e.message || e) });
  }
}
child.stdin.end();
await new Promise((r) => { child.on("exit", r); setTimeout(r, 5000); });

const failed = results.filter((r) => !r.ok).length;
console.log(JSON.stringify({ results, fsErrors, permissions: permissions.length }));
console.log(`${results.filter((r) => r.ok).length} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
