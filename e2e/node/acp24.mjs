// Drives goose-acp with the official ACP TypeScript SDK client (unstable
// entry point) through issue 24's features — client-set titles and
// archive, usage, elicitation modes, steering, subagents — and validates
// every frame the agent sends against the SDK's zod schemas.
//
// usage: GOOSE_ACP_BIN=… WORKDIR=… [CAPS='{"elicitation":{"url":{}}}'] [ARGS='["acp"]'] node acp24.mjs scenario...
// CAPS are the clientCapabilities initialize sends; ARGS the agent's argv
// after the binary (none: plain `goose-acp`). Prints one JSON report
// line, then "N passed, M failed"; exits 1 on any failure or violation.
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
const caps = JSON.parse(process.env.CAPS || "{}");
const mcpServers = JSON.parse(process.env.MCP_SERVERS || "[]");

const RESULT = {
  initialize: z.zInitializeResponse, "session/new": z.zNewSessionResponse, "session/load": z.zLoadSessionResponse,
  "session/prompt": z.zPromptResponse, "session/list": z.zListSessionsResponse, "session/set_title": z.zSetSessionTitleResponse,
  "session/archive": z.zArchiveSessionResponse, "session/unarchive": z.zUnarchiveSessionResponse,
  "session/set_config_option": z.zSetSessionConfigOptionResponse, "session/close": z.zCloseSessionResponse,
  "session/delete": z.zDeleteSessionResponse,
};
const INBOUND = {
  "session/update": z.zSessionNotification, "session/request_permission": z.zRequestPermissionRequest,
  "fs/read_text_file": z.zReadTextFileRequest, "fs/write_text_file": z.zWriteTextFileRequest,
  "elicitation/create": z.zCreateElicitationRequest, "elicitation/complete": z.zCompleteElicitationNotification,
  "$/cancel_request": z.zCancelRequestNotification,
};

const child = spawn(bin, JSON.parse(process.env.ARGS || "[]"), { stdio: ["pipe", "pipe", "inherit"], cwd: workdir });
const raw = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
const wire = []; // every agent→client message, in order
const { readable, writable, violations, frames } = validated(raw, { INBOUND, RESULT }, (m) => wire.push(m));

const updates = [];
const permissions = [];
const elicitations = [];
const completed = [];
let elicitationAnswer = { action: "accept", content: { name: "Ada Lovelace", check: true } };
const app = acp.client({ name: "goose-acp-acp24-harness" })
  .onNotification(acp.methods.client.session.update, ({ params }) => { updates.push(params); })
  .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
    permissions.push(params);
    return { outcome: { outcome: "selected", optionId: "allow_once" } };
  })
  .onRequest(acp.methods.client.elicitation.create, ({ params }) => {
    elicitations.push(params);
    return params.mode === "url" ? { action: "accept" } : elicitationAnswer;
  })
  .onNotification(acp.methods.client.elicitation.complete, ({ params }) => { completed.push(params); })
  .onRequest("*", ({ method }) => { throw acp.RequestError.methodNotFound(method); });

const results = [];
const report = {};
const assert = (cond, msg) => { if (!cond) throw new Error(msg); };
const updatesOf = (id) => updates.filter((u) => u.sessionId === id).map((u) => u.update);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const until = async (cond, what) => {
  for (let i = 0; i < 400; i++) { if (cond()) return; await sleep(25); }
  throw new Error("timed out waiting for " + what);
};
// rpcError runs a request that must fail and returns its error code.
const rpcError = async (p) => {
  try { await p; } catch (e) { return e.code; }
  throw new Error("request succeeded");
};
const newSession = (agent) => agent.request(acp.methods.agent.session.new, { cwd: workdir, mcpServers });
const prompt = (agent, sessionId, text) => agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });

const textOf = (id) => updatesOf(id).filter((u) => u.sessionUpdate === "agent_message_chunk" && u.content.type === "text").map((u) => u.content.text).join("");

// shown renders one update for the subagent scenarios.
const shown = (n) => {
  const u = n.update;
  switch (u.sessionUpdate) {
    case "subagent_update":
      return `subagent_update ${u.sessionId === n.sessionId ? "self" : "child"}` + (u.title ? ` title=${u.title}` : "") +
        (u.description ? ` description=${u.description}` : "") + (u.state ? ` state=${u.state.state}${u.state.stopReason ? "/" + u.state.stopReason : ""}` : "") +
        (u.capabilities ? ` capabilities=${JSON.stringify(u.capabilities)}` : "") + (u.cwd ? " cwd" : "") + (u._meta?.goose?.toolCallId ? ` call=${u._meta.goose.toolCallId}` : "");
    case "session_message":
      return `session_message ${u.messageId} from=${u.senderSessionId === parentOf[n.sessionId] ? "parent" : u.senderSessionId} to=${u.recipientSessionId === n.sessionId ? "self" : u.recipientSessionId}: ${u.content.map((c) => c.text).join("")}`;
    case "tool_call":
      return `tool_call ${u.toolCallId} ${u.title}`;
    case "tool_call_update":
      return `tool_call_update ${u.toolCallId}` + (u.status ? " " + u.status : "") + (u.content?.[0]?.content?.text?.startsWith("Running subagent") ? " progress" : "");
    case "agent_message_chunk":
      return "agent_message_chunk " + u.content.text;
    default:
      return u.sessionUpdate;
  }
};
const parentOf = {};
const dedupe = (xs) => xs.filter((x, i, a) => x !== a[i - 1]);

const scenarios = {
  // A client without boolean options: none offered, none settable.
  async switchesplain(agent) {
    const created = await newSession(agent);
    report.switchesNew = created.configOptions.map((o) => `${o.id}:${o.type}`);
    report.switchesErrors = [await rpcError(agent.request(acp.methods.agent.session.setConfigOption,
      { sessionId: created.sessionId, configId: "extension.todo", type: "boolean", value: true }))];
  },
  // Boolean config options: the session's extension switches.
  async switches(agent) {
    const created = await newSession(agent);
    const s = created.sessionId;
    const brief = (opts) => opts.map((o) => `${o.id}:${o.type}${o.type === "boolean" ? "=" + o.currentValue : ""}`);
    report.switchesNew = brief(created.configOptions);
    const set = (configId, value, type) => agent.request(acp.methods.agent.session.setConfigOption,
      type ? { sessionId: s, configId, type, value } : { sessionId: s, configId, value });
    const before = updatesOf(s).length;
    report.switchesTodoOn = brief((await set("extension.todo", true, "boolean")).configOptions);
    report.switchesUpdate = updatesOf(s).slice(before).filter((u) => u.sessionUpdate === "config_option_update").map((u) => brief(u.configOptions));
    report.switchesStop = (await prompt(agent, s, "with todo")).stopReason;
    report.switchesSummonOff = brief((await set("extension.summon", false, "boolean")).configOptions);
    report.switchesStop2 = (await prompt(agent, s, "without summon")).stopReason;
    report.switchesErrors = [
      await rpcError(set("extension.todo", "on")),
      await rpcError(set("extension.apps", true, "boolean")),
      await rpcError(set("extension.nope", true, "boolean")),
    ];
  },
  // A delegate's subagent; the session id of the child comes from the
  // first subagent_update.
  async subagents(agent) {
    const s = (await newSession(agent)).sessionId;
    await until(() => updatesOf(s).some((u) => u.sessionUpdate === "usage_update"), "the new session's usage");
    const from = updates.length;
    const res = await prompt(agent, s, "delegate it");
    report.subagentStop = res.stopReason;
    const announce = updates.slice(from).find((n) => n.update.sessionUpdate === "subagent_update");
    const child = announce?.update.sessionId;
    if (child) parentOf[child] = s;
    report.child = child ?? null;
    report.parentUpdates = dedupe(updates.slice(from).filter((n) => n.sessionId === s).map(shown).filter((x) => x !== "usage_update"));
    report.childUpdates = dedupe(updates.slice(from).filter((n) => n.sessionId === child).map(shown));
    report.others = updates.slice(from).filter((n) => n.sessionId !== s && n.sessionId !== child).length;
    // Where each frame went, in wire order: the permission request's
    // place among the parent's and child's updates.
    report.order = dedupe(wire.filter((m) => m.method === "session/request_permission" || (m.method === "session/update" && m.params.update.sessionUpdate === "subagent_update"))
      .map((m) => m.method === "session/request_permission" ? `request_permission on=${m.params.sessionId === s ? "parent" : m.params.sessionId} child=${child && m.params._meta?.goose?.subagentSessionId === child ? "named" : m.params._meta ? JSON.stringify(m.params._meta) : "unnamed"}` : shown(m.params)));
  },
  // session/cancel with a running subagent's id stops that child only.
  async subagentcancel(agent) {
    const s = (await newSession(agent)).sessionId;
    const from = updates.length;
    const running = prompt(agent, s, "delegate a long one");
    let child;
    await until(() => (child = updates.slice(from).find((n) => n.update.sessionUpdate === "subagent_update")?.update.sessionId) &&
      updatesOf(child).some((u) => u.sessionUpdate === "agent_message_chunk"), "the subagent at work");
    await agent.notify(acp.methods.agent.session.cancel, { sessionId: child });
    report.cancelStop = (await running).stopReason;
    report.cancelParent = dedupe(updates.slice(from).filter((n) => n.sessionId === s).map(shown).filter((x) => x !== "usage_update"));
  },
  // usage_update after each model call of a turn, then the turn's own.
  async usage(agent) {
    const s = (await newSession(agent)).sessionId;
    // The session's own usage_update follows session/new's answer.
    await until(() => updatesOf(s).some((u) => u.sessionUpdate === "usage_update"), "the new session's usage");
    report.newSession = updatesOf(s).map((u) => u.sessionUpdate === "usage_update" ? `usage_update used=${u.used} size=${u.size}` : u.sessionUpdate);
    const before = updatesOf(s).length;
    const res = await prompt(agent, s, "run it");
    report.usageStop = res.stopReason;
    report.promptUsage = res.usage;
    report.turn = updatesOf(s).slice(before)
      .map((u) => u.sessionUpdate === "usage_update" ? `usage_update used=${u.used} size=${u.size}${u.cost ? ` cost=${u.cost.amount} ${u.cost.currency}` : ""}`
        : u.sessionUpdate === "session_info_update" ? `session_info_update title=${u.title}` : u.sessionUpdate)
      .filter((x, i, a) => x.startsWith("usage_update") || x !== a[i - 1]);
  },
  // An MCP server's questions during one turn (form mode, then URL mode
  // when the client takes it): what reaches the client is recorded.
  async elicit(agent) {
    const s = (await newSession(agent)).sessionId;
    report.elicitStops = [(await prompt(agent, s, "ask me")).stopReason];
    if (process.env.SECOND_PROMPT) report.elicitStops.push((await prompt(agent, s, process.env.SECOND_PROMPT)).stopReason);
    report.elicitSession = s;
  },
  // _session/steering: promptRequired while idle (when asked), injected
  // into a running turn, a new turn when idle otherwise.
  async steering(agent, init) {
    assert(init._meta?.steering?.supported === true, "initialize _meta " + JSON.stringify(init._meta));
    const s = (await newSession(agent)).sessionId;
    const steer = (params) => agent.request("_session/steering", params);
    const text = (t) => [{ type: "text", text: t }];
    report.steerIdle = await steer({ sessionId: s, prompt: text("later"), _meta: { steering: { idleBehavior: "promptRequired" } } });
    report.steerErrors = [
      await rpcError(steer({ sessionId: s, prompt: text("x"), _meta: { steering: { idleBehavior: "queue" } } })),
      await rpcError(steer({ sessionId: s, prompt: [] })),
      await rpcError(steer({ sessionId: "20200101_999", prompt: text("x") })),
    ];
    const running = prompt(agent, s, "first");
    await until(() => textOf(s).startsWith("working"), "the turn's first words");
    report.steerRunning = await steer({ sessionId: s, prompt: text("also check the tests") });
    report.firstStop = (await running).stopReason;
    report.steeredShown = updatesOf(s).filter((u) => u.sessionUpdate === "user_message_chunk").map((u) => u.content.text + "|" + u._meta?.goose?.steer);
    const before = updatesOf(s).length;
    report.steerIdleStart = await steer({ sessionId: s, prompt: text("one more thing") });
    await until(() => textOf(s).endsWith("answered the steer"), "the steered turn's answer");
    await until(() => updatesOf(s).slice(before).some((u) => u.sessionUpdate === "usage_update"), "the steered turn's end");
    report.newTurn = updatesOf(s).slice(before).map((u) => u.sessionUpdate + (u.sessionUpdate.endsWith("_chunk") ? ":" + u.content.text : ""));
  },

  // session/delete then session/new, twice: the ids handed out, what
  // session/list shows after, and the answer for a deleted id.
  async deleteids(agent, init) {
    assert(JSON.stringify(init.agentCapabilities.sessionCapabilities?.delete) === "{}", "capabilities " + JSON.stringify(init.agentCapabilities));
    report.ids = [];
    for (let i = 0; i < 2; i++) {
      const id = (await newSession(agent)).sessionId;
      report.ids.push(id);
      assert(JSON.stringify(await agent.request(acp.methods.agent.session.delete, { sessionId: id })) === "{}", "delete result");
    }
    const kept = (await newSession(agent)).sessionId;
    report.ids.push(kept);
    report.listedAfterDelete = (await agent.request(acp.methods.agent.session.list, { cwd: workdir })).sessions.map((s) => s.sessionId);
    report.deletedLoad = await rpcError(agent.request(acp.methods.agent.session.load, { sessionId: report.ids[0], cwd: workdir, mcpServers }));
  },

  // session/set_title, session/archive|unarchive and session/list's
  // archived filter.
  async titles(agent, init) {
    const sc = init.agentCapabilities.sessionCapabilities;
    assert(JSON.stringify(sc.title) === "{}" && JSON.stringify(sc.archive) === "{}", "capabilities " + JSON.stringify(sc));
    const a = (await newSession(agent)).sessionId;
    const b = (await newSession(agent)).sessionId;
    const before = updatesOf(a).length;
    const set = await agent.request(acp.methods.agent.session.setTitle, { sessionId: a, title: "  Fix the\n flaky   test " });
    assert(set.title === "Fix the flaky test", "stored title " + JSON.stringify(set));
    // Announced before the answer, with the stored title.
    const info = updatesOf(a).slice(before).filter((u) => u.sessionUpdate === "session_info_update");
    assert(info.length === 1 && info[0].title === "Fix the flaky test", "session_info_update " + JSON.stringify(info));
    report.titleErrors = [
      await rpcError(agent.request(acp.methods.agent.session.setTitle, { sessionId: a, title: " \n " })),
      await rpcError(agent.request(acp.methods.agent.session.setTitle, { sessionId: "20200101_999", title: "x" })),
      await rpcError(agent.request(acp.methods.agent.session.setTitle, { sessionId: a, title: "x".repeat(201) })),
    ];
    const list = async (archived) => (await agent.request(acp.methods.agent.session.list, archived ? { cwd: workdir, archived } : { cwd: workdir })).sessions;
    const shown = (ss) => ss.map((s) => `${s.sessionId === a ? "a" : s.sessionId === b ? "b" : s.sessionId}:${s.archived}:${s.title ?? ""}`).sort().join(" ");
    report.listed = [shown(await list())];
    assert(JSON.stringify(await agent.request(acp.methods.agent.session.archive, { sessionId: a })) === "{}", "archive result");
    assert(JSON.stringify(await agent.request(acp.methods.agent.session.archive, { sessionId: a })) === "{}", "archive again");
    report.listed.push(shown(await list()), shown(await list("exclude")), shown(await list("include")), shown(await list("only")));
    report.archiveErrors = [
      await rpcError(agent.request(acp.methods.agent.session.archive, { sessionId: "20200101_999" })),
      await rpcError(agent.request(acp.methods.agent.session.unarchive, { sessionId: "20200101_999" })),
      await rpcError(agent.request(acp.methods.agent.session.list, { cwd: workdir, archived: "sometimes" })),
      // Archiving closed the session on this connection, as session/close.
      await rpcError(prompt(agent, a, "still there?")),
    ];
    await agent.request(acp.methods.agent.session.unarchive, { sessionId: a });
    await agent.request(acp.methods.agent.session.unarchive, { sessionId: a });
    report.listed.push(shown(await list()));
  },
};

const wanted = process.argv.slice(2);
await app.connectWith({ readable, writable }, async (agent) => {
  const init = await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: caps,
    clientInfo: { name: "goose-acp-acp24-harness", version: "1.0.0" },
  });
  report.initialize = init;
  await runScenarios(scenarios, wanted, results, agent, init);
});
await endAgent(child);

const failed = results.filter((r) => !r.ok).length + (violations.length ? 1 : 0);
report.completed = completed;
console.log(JSON.stringify({ results, frames: frames(), violations, report, permissions, elicitations }));
console.log(`${results.filter((r) => r.ok).length} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
