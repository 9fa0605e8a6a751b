// Drives goose-acp with the official ACP TypeScript SDK client and validates
// every frame the agent sends (requests, notifications and responses)
// against the SDK's generated zod schemas.
//
// usage: GOOSE_ACP_BIN=/path/to/goose-acp WORKDIR=/abs/dir node harness.mjs scenario...
// Prints one JSON report line, then "N passed, M failed"; exits 1 on any
// failure or schema violation.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { createRequire } from "node:module";
import { endAgent, runScenarios, validated } from "./validate.mjs";
import * as acp from "@agentclientprotocol/sdk/unstable";

const require = createRequire(import.meta.url);
const root = require.resolve("@agentclientprotocol/sdk").replace(/dist\/v1\/stable\/acp\.js$/, "");
const z = await import(root + "dist/v1/unstable/schema/zod.gen.js");

const bin = process.env.GOOSE_ACP_BIN;
const workdir = process.env.WORKDIR;
if (!bin || !workdir) {
  console.error("GOOSE_ACP_BIN and WORKDIR are required");
  process.exit(2);
}

const RESULT = {
  initialize: z.zInitializeResponse, "session/new": z.zNewSessionResponse, "session/load": z.zLoadSessionResponse,
  "session/prompt": z.zPromptResponse, "session/list": z.zListSessionsResponse, "session/resume": z.zResumeSessionResponse,
  "session/set_config_option": z.zSetSessionConfigOptionResponse, "session/set_mode": z.zSetSessionModeResponse,
  "session/close": z.zCloseSessionResponse, "session/fork": z.zForkSessionResponse,
};
const INBOUND = {
  "session/update": z.zSessionNotification, "session/request_permission": z.zRequestPermissionRequest,
  "fs/read_text_file": z.zReadTextFileRequest, "fs/write_text_file": z.zWriteTextFileRequest,
  "terminal/create": z.zCreateTerminalRequest, "terminal/output": z.zTerminalOutputRequest,
  "terminal/wait_for_exit": z.zWaitForTerminalExitRequest, "terminal/kill": z.zKillTerminalRequest,
  "terminal/release": z.zReleaseTerminalRequest, "$/cancel_request": z.zCancelRequestNotification,
};

const child = spawn(bin, [], { stdio: ["pipe", "pipe", "inherit"], cwd: workdir });
const raw = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
const { readable, writable, violations, frames } = validated(raw, { INBOUND, RESULT });

const updates = [];
let permissionAnswer = "allow_once";
const permissions = [];
const withdrawn = [];
const fsCalls = [];
const app = acp.client({ name: "goose-acp-node-harness" })
  .onNotification(acp.methods.client.session.update, ({ params }) => { updates.push(params); })
  .onRequest(acp.methods.client.session.requestPermission, async ({ params, signal }) => {
    permissions.push(params);
    if (permissionAnswer === "hold") {
      // Held until the agent withdraws it with $/cancel_request.
      await new Promise((r) => signal.addEventListener("abort", r, { once: true }));
      withdrawn.push(params.toolCall.toolCallId);
      return { outcome: { outcome: "cancelled" } };
    }
    return { outcome: { outcome: "selected", optionId: permissionAnswer } };
  })
  .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
    fsCalls.push({ method: "read", path: params.path });
    return { content: "buffer-content-12345" };
  })
  .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
    fsCalls.push({ method: "write", path: params.path, content: params.content });
    return {};
  })
  .onRequest("*", ({ method }) => { throw acp.RequestError.methodNotFound(method); });

const results = [];
const assert = (cond, msg) => { if (!cond) throw new Error(msg); };
const updatesOf = (id) => updates.filter((u) => u.sessionId === id).map((u) => u.update);
const textOf = (id) => updatesOf(id).filter((u) => u.sessionUpdate === "agent_message_chunk" && u.content.type === "text").map((u) => u.content.text).join("");

const scenarios = {
  async basic(agent, ctx) {
    const s = await agent.request(acp.methods.agent.session.new, { cwd: workdir, mcpServers: [] });
    ctx.basicSession = s.sessionId;
    const res = await agent.request(acp.methods.agent.session.prompt, { sessionId: s.sessionId, prompt: [{ type: "text", text: "Say hello." }] });
    assert(res.stopReason === "end_turn", "stopReason " + res.stopReason);
    assert(textOf(s.sessionId) === "Hello from goose", "text " + JSON.stringify(textOf(s.sessionId)));
  },
  async permission(agent) {
    const s = await agent.request(acp.methods.agent.session.new, { cwd: workdir, mcpServers: [] });
    await agent.request(acp.methods.agent.session.setMode, { sessionId: s.sessionId, modeId: "approve" });
    const res = await agent.request(acp.methods.agent.session.prompt, { sessionId: s.sessionId, prompt: [{ type: "text", text: "run echo" }] });
    assert(res.stopReason === "end_turn", "stopReason " + res.stopReason);
    assert(permissions.length === 1, "permission requests: " + permissions.length);
    assert(permissions[0].options.map((o) => o.optionId).join() === "allow_once,allow_always,reject_once,reject_always", "options");
    const done = updatesOf(s.sessionId).find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    assert(done, "no completed tool_call_update");
  },
  async fsread(agent) {
    const s = await agent.request(acp.methods.agent.session.new, { cwd: workdir, mcpServers: [] });
    const res = await agent.request(acp.methods.agent.session.prompt, { sessionId: s.sessionId, prompt: [{ type: "text", text: "read notes" }] });
    assert(res.stopReason === "end_turn", "stopReason " + res.stopReason);
    assert(fsCalls.some((c) => c.method === "read"), "fs/read_text_file was not called: " + JSON.stringify(fsCalls));
  },
  async fswrite(agent) {
    const s = await agent.request(acp.methods.agent.session.new, { cwd: workdir, mcpServers: [] });
    await agent.request(acp.methods.agent.session.setMode, { sessionId: s.sessionId, modeId: "approve" });
    permissionAnswer = "reject_once";
    const res = await agent.request(acp.methods.agent.session.prompt, { sessionId: s.sessionId, prompt: [{ type: "text", text: "write" }] });
    permissionAnswer = "allow_once";
    assert(res.stopReason === "end_turn", "stopReason " + res.stopReason);
    assert(!fsCalls.some((c) => c.method === "write"), "rejected write reached fs/write_text_file");
    // A rejected call ends failed, the refused diff still its content.
    const finals = updatesOf(s.sessionId).filter((u) => u.sessionUpdate === "tool_call_update" && u.rawOutput !== undefined);
    assert(finals.length === 1 && finals[0].status === "failed" && finals[0].content?.[0]?.type === "diff", "rejected write's final update: " + JSON.stringify(finals));
    const res2 = await agent.request(acp.methods.agent.session.prompt, { sessionId: s.sessionId, prompt: [{ type: "text", text: "write again" }] });
    assert(res2.stopReason === "end_turn", "stopReason " + res2.stopReason);
    assert(fsCalls.some((c) => c.method === "write" && c.content === "from node\n"), "approved write missing: " + JSON.stringify(fsCalls));
    const diff = updatesOf(s.sessionId).flatMap((u) => u.content || []).find((c) => c.type === "diff");
    assert(diff && diff.newText === "from node\n", "no diff");
  },
  async notice(agent) {
    const s = await agent.request(acp.methods.agent.session.new, { cwd: workdir, mcpServers: [{ name: "broken", command: workdir + "/no-such-server", args: [], env: [] }] });
    for (let i = 0; i < 40 && !updatesOf(s.sessionId).some((u) => u.sessionUpdate === "notice"); i++) await new Promise((r) => setTimeout(r, 50));
    const n = updatesOf(s.sessionId).find((u) => u.sessionUpdate === "notice");
    assert(n && n.severity === "warning" && n.title === "Extension broken failed to start", "notice " + JSON.stringify(n));
  },
  // plugins: WORKDIR holds a project plugin waiting for consent, the
  // user has a PreToolUse guard denying rm -rf and a Stop hook that blocks
  // once (e2e/plugins_node_test.go sets them up).
  async plugins(agent) {
    const s = await agent.request(acp.methods.agent.session.new, { cwd: workdir, mcpServers: [] });
    for (let i = 0; i < 40 && !updatesOf(s.sessionId).some((u) => u.sessionUpdate === "notice"); i++) await new Promise((r) => setTimeout(r, 50));
    const consent = updatesOf(s.sessionId).find((u) => u.sessionUpdate === "notice");
    assert(consent && consent.severity === "warning" && consent.title.startsWith("Project plugin `repo-tools` in `"), "consent notice " + JSON.stringify(consent));
    const res = await agent.request(acp.methods.agent.session.prompt, { sessionId: s.sessionId, prompt: [{ type: "text", text: "clean up" }] });
    assert(res.stopReason === "end_turn", "stopReason " + res.stopReason);
    const denied = updatesOf(s.sessionId).find((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed");
    assert(denied && denied.content?.[0]?.content?.text?.startsWith("Tool call denied by policy hook `guard`: rm -rf is not allowed here."), "denied call " + JSON.stringify(denied));
    const stop = updatesOf(s.sessionId).find((u) => u.sessionUpdate === "notice" && u.title === "Stop hook `tests-first` blocked ending this turn.");
    assert(stop && stop.severity === "warning", "stop notice " + JSON.stringify(updatesOf(s.sessionId).filter((u) => u.sessionUpdate === "notice")));
  },
  async config(agent) {
    const s = await agent.request(acp.methods.agent.session.new, { cwd: workdir, mcpServers: [] });
    const r = await agent.request(acp.methods.agent.session.setConfigOption, { sessionId: s.sessionId, configId: "mode", value: "smart_approve" });
    assert(r.configOptions.find((o) => o.id === "mode").currentValue === "smart_approve", "mode not set");
    assert(updatesOf(s.sessionId).some((u) => u.sessionUpdate === "config_option_update"), "no config_option_update");
  },
  async image(agent) {
    const s = await agent.request(acp.methods.agent.session.new, { cwd: workdir, mcpServers: [] });
    const res = await agent.request(acp.methods.agent.session.prompt, { sessionId: s.sessionId, prompt: [
      { type: "text", text: "what is this" },
      { type: "image", mimeType: "image/png", data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==" },
      { type: "resource", resource: { uri: "file:///x/notes.md", mimeType: "text/markdown", text: "embedded" } },
    ] });
    assert(res.stopReason === "end_turn", "stopReason " + res.stopReason);
  },
  async cancel(agent) {
    const s = await agent.request(acp.methods.agent.session.new, { cwd: workdir, mcpServers: [] });
    const p = agent.request(acp.methods.agent.session.prompt, { sessionId: s.sessionId, prompt: [{ type: "text", text: "wait" }] });
    for (let i = 0; i < 200 && !textOf(s.sessionId); i++) await new Promise((r) => setTimeout(r, 25));
    await agent.notify(acp.methods.agent.session.cancel, { sessionId: s.sessionId });
    const res = await p;
    assert(res.stopReason === "cancelled", "stopReason " + res.stopReason);
  },
  // $/cancel_request from the client: the SDK's cancellationSignal on a
  // running session/prompt ends it (cancelled, or -32800).
  async cancelrequest(agent) {
    const s = await agent.request(acp.methods.agent.session.new, { cwd: workdir, mcpServers: [] });
    const ac = new AbortController();
    const p = agent.request(acp.methods.agent.session.prompt, { sessionId: s.sessionId, prompt: [{ type: "text", text: "wait" }] }, { cancellationSignal: ac.signal });
    for (let i = 0; i < 200 && !textOf(s.sessionId); i++) await new Promise((r) => setTimeout(r, 25));
    ac.abort();
    let outcome;
    try { outcome = (await p).stopReason; } catch (e) { outcome = e.code; }
    assert(outcome === "cancelled" || outcome === -32800, "prompt after $/cancel_request: " + outcome);
  },
  // $/cancel_request from the agent: session/cancel while a permission
  // request is open withdraws it; the SDK aborts the handler's signal.
  async withdraw(agent) {
    const s = await agent.request(acp.methods.agent.session.new, { cwd: workdir, mcpServers: [] });
    await agent.request(acp.methods.agent.session.setMode, { sessionId: s.sessionId, modeId: "approve" });
    permissionAnswer = "hold";
    const before = permissions.length;
    const p = agent.request(acp.methods.agent.session.prompt, { sessionId: s.sessionId, prompt: [{ type: "text", text: "run it" }] });
    for (let i = 0; i < 200 && permissions.length === before; i++) await new Promise((r) => setTimeout(r, 25));
    await agent.notify(acp.methods.agent.session.cancel, { sessionId: s.sessionId });
    const res = await p;
    for (let i = 0; i < 200 && !withdrawn.length; i++) await new Promise((r) => setTimeout(r, 25));
    permissionAnswer = "allow_once";
    assert(res.stopReason === "cancelled", "stopReason " + res.stopReason);
    assert(withdrawn.join() === "call_held", "withdrawn " + JSON.stringify(withdrawn));
  },
  async list(agent, ctx) {
    const res = await agent.request(acp.methods.agent.session.list, { cwd: workdir });
    assert(res.sessions.some((x) => x.sessionId === ctx.basicSession), "basic session not listed");
  },
  async load(agent, ctx) {
    const before = updatesOf(ctx.basicSession).length;
    await agent.request(acp.methods.agent.session.load, { sessionId: ctx.basicSession, cwd: workdir, mcpServers: [] });
    const replay = updatesOf(ctx.basicSession).slice(before).filter((u) => u.sessionUpdate.endsWith("_chunk"));
    assert(replay.length >= 2 && replay[0].sessionUpdate === "user_message_chunk", "replay " + JSON.stringify(replay.map((u) => u.sessionUpdate)));
  },
};

const wanted = process.argv.slice(2);
await app.connectWith({ readable, writable }, async (agent) => {
  await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    // auth.terminal and Zed's _meta["terminal-auth"] make the agent list
    // its terminal sign-in method too, so both shapes are schema-checked.
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false, auth: { terminal: true }, session: { notices: {} }, _meta: { "terminal-auth": true } },
    clientInfo: { name: "goose-acp-node-harness", version: "1.0.0" },
  });
  const ctx = {};
  await runScenarios(scenarios, wanted, results, agent, ctx);
});
await endAgent(child);

const failed = results.filter((r) => !r.ok).length + (violations.length ? 1 : 0);
console.log(JSON.stringify({ results, frames: frames(), violations }));
console.log(`${results.filter((r) => r.ok).length} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
