// Acceptance harness for `goose-acp mcp developer` (seed 000 §14), driven by
// the official MCP TypeScript client over stdio.
//
//   GOOSE_ACP_BIN=/path/to/goose-acp node run.mjs         # runs "<bin> mcp developer"
//   GOOSE_ACP_BIN=/path/to/server GOOSE_ACP_ARGS="serve --stdio" node run.mjs
//   node run.mjs                                          # go build ./cmd/goose-acp first
//
// Prints one line per scenario and a final "N passed, M failed"; exits 1 on failure.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

function binary() {
  if (process.env.GOOSE_ACP_BIN) {
    const args = process.env.GOOSE_ACP_ARGS ?? "mcp developer";
    return { command: process.env.GOOSE_ACP_BIN, args: args.split(" ").filter(Boolean) };
  }
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "goose-acp-bin-")), "goose-acp");
  execFileSync("go", ["build", "-o", out, "./cmd/goose-acp"], { cwd: path.resolve(here, "../.."), stdio: "inherit" });
  return { command: out, args: ["mcp", "developer"] };
}

const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "mcpdev-")));
const results = [];
const logs = [];

function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

function textOf(res, i = 0) {
  return res.content[i]?.text ?? "";
}

async function expectError(promise, code, fragment) {
  try {
    await promise;
  } catch (e) {
    assert(e.code === code, `want error code ${code}, got ${e.code}: ${e.message}`);
    assert(e.message.includes(fragment), `error ${JSON.stringify(e.message)} lacks ${JSON.stringify(fragment)}`);
    return;
  }
  throw new Error(`want error ${code} containing ${JSON.stringify(fragment)}, got success`);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z"; // a zombie is dead
  } catch {
    return true;
  }
}

function childrenOf(ppid) {
  if (!fs.existsSync("/proc")) return [];
  const kids = [];
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(f[1]) === ppid && f[0] !== "Z") kids.push(Number(d));
    } catch {}
  }
  return kids;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// noChildrenLeft waits (up to 20 s: a leak, not a slow exit) until the
// server has no live child process, and fails with the ones left.
async function noChildrenLeft(ppid) {
  let kids = childrenOf(ppid);
  for (const t0 = Date.now(); kids.length && Date.now() - t0 < 20000; kids = childrenOf(ppid)) await sleep(10);
  assert(kids.length === 0, `server children left: ${kids}`);
}
const meta = { "agent-working-dir": work, "agent-session-id": "e2e-session" };
const call = (client, name, args, opts) => client.callTool({ name, arguments: args, _meta: meta }, undefined, opts);

const scenarios = {
  async "lifecycle: initialize/initialized, capabilities"(client) {
    const info = client.getServerVersion();
    assert(info?.name === "goose-developer", `serverInfo ${JSON.stringify(info)}`);
    const caps = client.getServerCapabilities();
    assert(caps.tools && caps.prompts, `capabilities ${JSON.stringify(caps)}`);
  },
  async "tools/list and prompts/list/get"(client) {
    const tools = (await client.listTools()).tools.map((t) => t.name);
    assert(tools.includes("shell") && tools.includes("text_editor"), `tools ${tools}`);
    const shell = (await client.listTools()).tools.find((t) => t.name === "shell");
    assert(shell.inputSchema.required.includes("command"), "shell schema requires command");
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
    assert(prompts.includes("diff_edit_test"), `prompts ${prompts}`);
    const got = await client.getPrompt({ name: "diff_edit_test", arguments: { additional_info: "cover CRLF" } });
    assert(got.messages[0].content.text.endsWith("cover CRLF"), "prompt argument substituted");
  },
  async "shell: combined output and shell_output notifications"(client) {
    logs.length = 0;
    const res = await call(client, "shell", { command: "echo out; sleep 0.1; echo err >&2" });
    assert(!res.isError, "isError");
    assert(textOf(res) === "out\nerr\n", `output ${JSON.stringify(textOf(res))}`);
    await sleep(50);
    const streamed = logs.filter((l) => l.data?.type === "shell_output").map((l) => `${l.data.stream}:${l.data.output}`);
    assert(streamed.join("|") === "stdout:out|stderr:err", `notifications ${JSON.stringify(streamed)}`);
  },
  async "shell: metadata working dir and session id"(client) {
    const res = await call(client, "shell", { command: "pwd; printenv AGENT_SESSION_ID" });
    assert(textOf(res) === `${work}\ne2e-session\n`, `got ${JSON.stringify(textOf(res))}`);
  },
  async "shell: non-zero exit is an error result with its code"(client) {
    const res = await call(client, "shell", { command: "echo fail; exit 7" });
    assert(res.isError === true, "isError");
    assert(textOf(res).endsWith("fail\n\nCommand exited with code 7"), JSON.stringify(textOf(res)));
  },
  async "shell: empty command is invalid params"(client) {
    await expectError(call(client, "shell", { command: "" }), -32602, "Shell command cannot be empty");
  },
  async "shell: .gooseignore restricted path rejected"(client) {
    fs.writeFileSync(path.join(work, ".gooseignore"), "secret.txt\n");
    fs.writeFileSync(path.join(work, "secret.txt"), "s3cr3t\n");
    await expectError(call(client, "shell", { command: "cat secret.txt" }), -32603,
      "The command attempts to access 'secret.txt' which is restricted by .gooseignore");
    await expectError(call(client, "text_editor", { command: "view", path: path.join(work, "secret.txt") }), -32603,
      "restricted by .gooseignore");
  },
  // Bounds here only turn a hang or a leak into a failure: 20 s is far
  // inside the sleep's 60 s and far above a loaded machine's delays.
  async "shell: cancellation ends `sleep 60 & wait` long before it would end, no survivors"(client, transport) {
    const pidFile = path.join(work, "bg.pid");
    const ac = new AbortController();
    const pending = call(client, "shell", { command: `sleep 60 & echo $! > ${pidFile}; wait` }, { signal: ac.signal, timeout: 120000 });
    pending.catch(() => {});
    let pid = 0;
    for (let i = 0; i < 500 && !pid; i++) {
      await sleep(10);
      if (fs.existsSync(pidFile)) pid = Number(fs.readFileSync(pidFile, "utf8").trim());
    }
    assert(pid > 0, "background sleep started");
    const t0 = Date.now();
    ac.abort("test cancel");
    while (alive(pid) && Date.now() - t0 < 20000) await sleep(10);
    assert(!alive(pid), `sleep ${pid} still alive ${Date.now() - t0} ms after cancel`);
    await noChildrenLeft(transport.pid);
  },
  async "shell: no lingering process after completion"(client, transport) {
    for (let i = 0; i < 3; i++) await call(client, "shell", { command: `echo ${i}` });
    // A call's result comes from its supervisor's status line; the
    // supervisor itself exits a moment later, so look until it has.
    await noChildrenLeft(transport.pid);
  },
  async "output bounds: tail of 100 lines with full output saved"(client) {
    const res = await call(client, "shell", { command: 'for i in $(seq 1 150); do echo "Line $i"; done' });
    assert(textOf(res, 0).startsWith("private note: output was 150 lines"), textOf(res, 0).slice(0, 80));
    const user = textOf(res, 1);
    assert(user.startsWith("NOTE: Output was 150 lines, showing only the last 100 lines.\n\nLine 51\n"), user.slice(0, 90));
    assert(!user.includes("Line 50\n") && user.endsWith("Line 150"), "tail is lines 51..150");
    const saved = textOf(res, 0).split("remainder of lines in ")[1].split(" ")[0];
    assert(fs.readFileSync(saved, "utf8").split("\n").length === 151, "saved file holds all 150 lines");
  },
  async "output bounds: 400,000 character cap"(client) {
    await expectError(call(client, "shell", { command: "head -c 400001 /dev/zero | tr '\\0' a" }), -32603,
      "has too many characters (400001). Maximum character count is 400000.");
  },
  async "text_editor: write, view, view_range, str_replace, insert, undo_edit"(client) {
    const f = path.join(work, "notes.py");
    let res = await call(client, "text_editor", { command: "write", path: f, file_text: "a = 1\nb = 2\nc = 3" });
    assert(textOf(res) === `Successfully wrote to ${f}`, textOf(res));
    assert(fs.readFileSync(f, "utf8") === "a = 1\nb = 2\nc = 3\n", "trailing newline added");
    res = await call(client, "text_editor", { command: "view", path: f });
    assert(textOf(res) === `### ${f}\n\`\`\`python\n1: a = 1\n2: b = 2\n3: c = 3\n\`\`\`\n`, JSON.stringify(textOf(res)));
    res = await call(client, "text_editor", { command: "view", path: f, view_range: [2, -1] });
    assert(textOf(res).startsWith(`### ${f} (lines 2-end)\n`) && !textOf(res).includes("1: a"), textOf(res));
    res = await call(client, "text_editor", { command: "str_replace", path: f, old_str: "b = 2", new_str: "b = 20" });
    assert(textOf(res).startsWith(`The file ${f} has been edited`), textOf(res));
    assert(fs.readFileSync(f, "utf8") === "a = 1\nb = 20\nc = 3\n", "replaced");
    await expectError(call(client, "text_editor", { command: "str_replace", path: f, old_str: "zzz", new_str: "y" }), -32602,
      "'old_str' must appear exactly once in the file, but it does not appear in the file.");
    res = await call(client, "text_editor", { command: "insert", path: f, insert_line: 1, new_str: "x = 0" });
    assert(textOf(res).startsWith(`Text has been inserted at line 2 in ${f}.`), textOf(res));
    assert(fs.readFileSync(f, "utf8") === "a = 1\nx = 0\nb = 20\nc = 3\n", "inserted");
    res = await call(client, "text_editor", { command: "undo_edit", path: f });
    assert(textOf(res) === "Undid the last edit", textOf(res));
    assert(fs.readFileSync(f, "utf8") === "a = 1\nb = 20\nc = 3\n", "undone");
    await call(client, "text_editor", { command: "undo_edit", path: f });
    await expectError(call(client, "text_editor", { command: "undo_edit", path: f }), -32602, "No edit history available to undo");
    res = await call(client, "text_editor", { command: "view", path: work });
    assert(textOf(res).startsWith(`'${work}' is a directory. Contents:\n\n`) && textOf(res).includes("  notes.py\n"), textOf(res));
  },
};

async function main() {
  const { command, args } = binary();
  const transport = new StdioClientTransport({ command, args, cwd: work, stderr: "inherit" });
  const client = new Client({ name: "goose-acp-e2e", version: "1.0.0" });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params));
  await client.connect(transport);
  await client.setLoggingLevel("info");
  for (const [name, fn] of Object.entries(scenarios)) {
    try {
      await fn(client, transport);
      results.push(true);
      console.log(`ok - ${name}`);
    } catch (e) {
      results.push(false);
      console.log(`not ok - ${name}: ${e.message}`);
    }
  }
  await client.close();
  fs.rmSync(work, { recursive: true, force: true });
  const passed = results.filter(Boolean).length;
  const failed = results.length - passed;
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.log(`not ok - harness: ${e.stack ?? e}`);
  console.log(`0 passed, 1 failed`);
  process.exit(1);
});
