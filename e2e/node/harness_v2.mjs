// Drives goose-acp as an ACP v2 (draft) client with the official SDK's
// experimental v2 client (@agentclientprotocol/sdk/experimental/v2) and
// validates every frame the agent sends against the SDK's v2 zod schemas.
//
// usage: GOOSE_ACP_BIN=/path/to/goose-acp WORKDIR=/abs/dir node harness_v2.mjs scenario...
// Prints one JSON report line, then "N passed, M failed"; exits 1 on any
// failure or schema violation.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { createRequire } from "node:module";
import { endAgent, runScenarios, validated } from "./validate.mjs";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";

const require = createRequire(import.meta.url);
const root = require.resolve("@agentclientprotocol/sdk").replace(/dist\/v1\/stable\/acp\.js$/, "");
const z = await import(root + "dist/v2/schema/zod.gen.js");

const bin = process.env.GOOSE_ACP_BIN;
const workdir = process.env.WORKDIR;
if (!bin || !workdir) {
  console.error("GOOSE_ACP_BIN and WORKDIR are required");
  process.exit(2);
}

const RESULT = {
  initialize: z.zInitializeResponse, "session/new": z.zNewSessionResponse, "session/prompt": z.zPromptResponse,
  "session/list": z.zListSessionsResponse, "session/resume": z.zResumeSessionResponse,
  "session/set_config_option": z.zSetSessionConfigOptionResponse, "session/close": z.zCloseSessionResponse,
  "session/delete": z.zDeleteSessionResponse, "tool_call/cancel": z.zCancelToolCallResponse,
  "terminal/cancel": z.zCancelTerminalResponse, "auth/login": z.zLoginAuthResponse, "auth/logout": z.zLogoutAuthResponse,
};
const INBOUND = {
  "session/update": z.zUpdateSessionNotification, "session/request_permission": z.zRequestPermissionRequest,
  "elicitation/create": z.zCreateElicitationRequest, "$/cancel_request": z.zCancelRequestNotification,
};

const child = spawn(bin, [], { stdio: ["pipe", "pipe", "inherit"], cwd: workdir });
const raw = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
const inbound = [];
const { readable, writable, violations, frames } = validated(raw, { INBOUND, RESULT }, (m) => { if ("method" in m) inbound.push(m.method); });

const updates = [];
const permissions = [];
let onPermission = null;
const app = acp.client({ name: "goose-acp-node-harness-v2" })
  .onNotification(acp.methods.client.session.update, ({ params }) => { updates.push(params); })
  .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
    permissions.push(params);
    if (onPermission) await onPermission(params);
    return { outcome: { outcome: "selected", optionId: "allow_once" } };
  })
  .onRequest("*", ({ method }) => { throw acp.RequestError.methodNotFound(method); });

const results = [];
const assert = (cond, msg) => { if (!cond) throw new Error(msg); };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const updatesOf = (id) => updates.filter((u) => u.sessionId === id).map((u) => u.update);
const waitFor = async (what, cond, ms = 10000) => {
  for (let t = 0; t < ms; t += 25) {
    if (cond()) return;
    await sleep(25);
  }
  throw new Error("timed out waiting for " + what);
};
// untilIdle reads a session's updates up to its next idle state.
const untilIdle = async (session) => {
  const seen = [];
  for (;;) {
    const m = await session.nextUpdate(AbortSignal.timeout(20000));
    if (m.kind === "stop") return { seen, stopReason: m.stopReason, idle: m.update };
    seen.push(m.update);
  }
};
const rpcCode = async (p) => {
  try { await p; return 0; } catch (e) { return e.code; }
};

const scenarios = {
  async init(agent, ctx) {
    const init = ctx.init;
    assert(init.protocolVersion === 2, "protocolVersion " + init.protocolVersion);
    assert(init.info.name === "goose-acp", "info " + JSON.stringify(init.info));
    const types = init.authMethods.map((m) => m.type + ":" + m.methodId).join();
    assert(types === "agent:goose-provider,terminal:goose-acp-configure", "authMethods " + types);
    assert(init.capabilities.session.delete && init.capabilities.session.prompt.image, "capabilities " + JSON.stringify(init.capabilities));
  },
  async basic(agent, ctx) {
    const session = await agent.buildSession(workdir).start();
    ctx.basic = session.sessionId;
    const modes = session.configOptions.map((o) => o.configId).join();
    assert(modes.includes("mode") && modes.includes("model"), "configOptions " + modes);
    const res = await session.prompt("Say hello.");
    assert(typeof res.messageId === "string" && res.messageId.startsWith("msg_"), "messageId " + JSON.stringify(res));
    const { seen, stopReason } = await untilIdle(session);
    assert(stopReason === "end_turn", "stopReason " + stopReason);
    const kinds = seen.map((u) => u.sessionUpdate + (u.state ? ":" + u.state : ""));
    const user = seen.find((u) => u.sessionUpdate === "user_message");
    assert(user && user.messageId === res.messageId && user.content[0].text === "Say hello.", "user_message " + JSON.stringify(user));
    assert(kinds.indexOf("state_update:running") > kinds.indexOf("user_message"), "order " + kinds.join());
    const chunks = seen.filter((u) => u.sessionUpdate === "agent_message_chunk");
    assert(chunks.map((c) => c.content.text).join("") === "Hello from goose", "text " + JSON.stringify(chunks));
    assert(chunks.every((c) => c.messageId && c.messageId === chunks[0].messageId && c.messageId !== res.messageId), "chunk ids " + JSON.stringify(chunks.map((c) => c.messageId)));
    ctx.basicUser = res.messageId;
    ctx.basicAgent = chunks[0].messageId;
    session.dispose();
  },
  async permission(agent) {
    const session = await agent.buildSession(workdir).start();
    const r = await session.setConfigOption({ configId: "mode", type: "id", value: "approve" });
    assert(r.configOptions.find((o) => o.configId === "mode").currentValue === "approve", "mode not set");
    await session.prompt("run echo");
    const { seen, stopReason } = await untilIdle(session);
    assert(stopReason === "end_turn", "stopReason " + stopReason);
    assert(permissions.length === 1, "permission requests: " + permissions.length);
    const p = permissions[0];
    assert(p.title && p.subject.type === "tool_call" && p.subject.toolCall.toolCallId === "call_perm", "permission " + JSON.stringify(p));
    assert(p.options.map((o) => o.optionId).join() === "allow_once,allow_always,reject_once,reject_always", "options");
    const states = seen.filter((u) => u.sessionUpdate === "state_update").map((u) => u.state).join();
    assert(states === "running,requires_action,running", "states " + states);
    const calls = seen.filter((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "call_perm");
    assert(calls.length >= 2 && calls[calls.length - 1].status === "completed", "tool call " + JSON.stringify(calls));
    session.dispose();
  },
  async terminal(agent) {
    const session = await agent.buildSession(workdir).start();
    await session.prompt("print");
    const { seen, stopReason } = await untilIdle(session);
    assert(stopReason === "end_turn", "stopReason " + stopReason);
    const t = seen.filter((u) => u.sessionUpdate.startsWith("terminal_"));
    assert(t.length >= 3 && t[0].sessionUpdate === "terminal_update" && t[0].terminalId === "call_out" && t[0].command === "echo from-the-shell",
      "terminal start " + JSON.stringify(t));
    const out = t.filter((u) => u.sessionUpdate === "terminal_output_chunk").map((u) => Buffer.from(u.data, "base64").toString()).join("");
    assert(out.includes("from-the-shell"), "terminal output " + JSON.stringify(out));
    const exit = t.find((u) => u.sessionUpdate === "terminal_update" && u.exitStatus);
    assert(exit, "no exit status " + JSON.stringify(t));
    const shown = seen.filter((u) => u.sessionUpdate === "tool_call_update" && (u.content || []).some((c) => c.type === "terminal" && c.terminalId === "call_out"));
    assert(shown.length > 0, "the tool call never showed its terminal");
    session.dispose();
  },
  async toolcancel(agent) {
    const session = await agent.buildSession(workdir).start();
    await session.prompt("sleep");
    await waitFor("the sleep call to be cancellable", () => session.canCancelToolCall("call_sleep"));
    await sleep(200);
    await session.cancelToolCall("call_sleep");
    const { seen, stopReason } = await untilIdle(session);
    assert(stopReason === "end_turn", "the turn did not go on: " + stopReason);
    const last = seen.filter((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "call_sleep").pop();
    assert(last && (last.status === "failed" || last.status === "cancelled"), "final " + JSON.stringify(last));
    assert(!session.canCancelToolCall("call_sleep"), "still cancellable after it ended");
    session.dispose();
  },
  async terminalcancel(agent) {
    const session = await agent.buildSession(workdir).start();
    await session.prompt("sleep in a terminal");
    await waitFor("the terminal to be cancellable", () => session.canCancelTerminal("call_term"));
    await sleep(200);
    await session.cancelTerminal("call_term");
    const { seen, stopReason } = await untilIdle(session);
    assert(stopReason === "end_turn", "stopReason " + stopReason);
    const exit = seen.find((u) => u.sessionUpdate === "terminal_update" && u.terminalId === "call_term" && u.exitStatus);
    assert(exit, "no terminal exit " + JSON.stringify(seen.filter((u) => u.sessionUpdate.startsWith("terminal"))));
    session.dispose();
  },
  async cancel(agent) {
    const session = await agent.buildSession(workdir).start();
    await session.prompt("wait");
    await waitFor("the first text", () => updatesOf(session.sessionId).some((u) => u.sessionUpdate === "agent_message_chunk"));
    await agent.notify(acp.methods.agent.session.cancel, { sessionId: session.sessionId });
    const { stopReason } = await untilIdle(session);
    assert(stopReason === "cancelled", "stopReason " + stopReason);
    session.dispose();
  },
  async held(agent) {
    const session = await agent.buildSession(workdir).start();
    const first = session.prompt("one");
    const second = session.prompt("two");
    const a = await first;
    const b = await second;
    assert(a.messageId !== b.messageId, "same ids");
    const stops = [];
    for (let i = 0; i < 2; i++) stops.push((await untilIdle(session)).stopReason);
    assert(stops.join() === "end_turn,end_turn", "stops " + stops.join());
    const users = updatesOf(session.sessionId).filter((u) => u.sessionUpdate === "user_message").map((u) => u.messageId);
    assert(users.join() === [a.messageId, b.messageId].join(), "inserted " + users.join());
    session.dispose();
  },
  async resume(agent, ctx) {
    const before = updatesOf(ctx.basic).length;
    const r = await agent.request(acp.methods.agent.session.resume, { sessionId: ctx.basic, cwd: workdir, mcpServers: [], replayFrom: { type: "start" } });
    assert(Array.isArray(r.configOptions), "resume response " + JSON.stringify(r));
    const replay = updatesOf(ctx.basic).slice(before).filter((u) => u.sessionUpdate.endsWith("_chunk"));
    assert(replay.length >= 2 && replay[0].sessionUpdate === "user_message_chunk", "replay " + JSON.stringify(replay.map((u) => u.sessionUpdate)));
    assert(replay[0].messageId === ctx.basicUser, "replayed user id " + replay[0].messageId + " want " + ctx.basicUser);
    assert(replay.filter((u) => u.sessionUpdate === "agent_message_chunk").every((u) => u.messageId === ctx.basicAgent), "replayed agent ids");
    const n = updatesOf(ctx.basic).length;
    await agent.request(acp.methods.agent.session.resume, { sessionId: ctx.basic, cwd: workdir, mcpServers: [] });
    assert(!updatesOf(ctx.basic).slice(n).some((u) => u.sessionUpdate.endsWith("_chunk")), "resume without replayFrom replayed");
  },
  async list(agent, ctx) {
    const res = await agent.request(acp.methods.agent.session.list, { cwd: workdir });
    assert(res.sessions.some((x) => x.sessionId === ctx.basic), "basic session not listed");
  },
  async v1gone(agent, ctx) {
    for (const m of ["session/load", "session/set_mode", "session/set_model", "authenticate", "session/fork"]) {
      const code = await rpcCode(agent.request(m, { sessionId: ctx.basic, cwd: workdir, mcpServers: [], modeId: "auto", modelId: "x", methodId: "goose-provider" }));
      assert(code === -32601, m + " answered " + code);
    }
  },
  async logout(agent) {
    await agent.request(acp.methods.agent.auth.logout, {});
    const code = await rpcCode(agent.buildSession(workdir).start());
    assert(code === -32000, "session/new after logout: " + code);
    await agent.request(acp.methods.agent.auth.login, { methodId: "goose-provider" });
    const s = await agent.buildSession(workdir).start();
    s.dispose();
  },
  async close(agent, ctx) {
    await agent.request(acp.methods.agent.session.close, { sessionId: ctx.basic });
  },
};

const wanted = process.argv.slice(2);
await app.connectWith({ readable, writable }, async (agent) => {
  const ctx = {};
  ctx.init = await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    info: { name: "goose-acp-node-harness-v2", version: "1.0.0" },
    capabilities: { auth: { terminal: {} } },
  });
  await runScenarios(scenarios, wanted, results, agent, ctx);
});
await endAgent(child);

const failed = results.filter((r) => !r.ok).length + (violations.length ? 1 : 0);
console.log(JSON.stringify({ results, frames: frames(), violations: violations.slice(0, 20), inbound: [...new Set(inbound)] }));
console.log(`${results.filter((r) => r.ok).length} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
