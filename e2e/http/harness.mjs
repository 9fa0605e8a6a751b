// Drives `goose-acp agent` the way Goose Desktop 1.28–1.33 does, through a
// client generated from goosed-openapi.json by @hey-api/openapi-ts:
// spawn with GOOSE_PORT and a secret, wait for GOOSED_CERT_FINGERPRINT on
// stdout, pin that certificate, poll /status, run the startup calls, a chat
// turn with a tool approval over /sessions/{id}/reply + /events, and a
// legacy POST /reply turn; then SIGTERM and expect a clean exit.
//
// Env: GOOSE_ACP_BIN (the binary), WORKDIR (the chat's working dir), plus
// whatever the agent needs (GOOSE_PATH_ROOT, mock LLM...). Prints one JSON
// report line on stdout; exits non-zero on the first failed expectation.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { randomBytes, randomUUID } from 'node:crypto';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { Readable } from 'node:stream';

const require = createRequire(import.meta.url);
const api = require('./gen/dist/index.js');
const { createClient, createConfig } = require('./gen/dist/client/index.js');

const report = { steps: [], events: {}, fingerprint: '', timing: {} };
const t0 = Date.now();
const step = (name) => report.steps.push(name);
const timing = (name) => (report.timing[name] = Date.now() - t0);
function fail(msg) {
  throw new Error(msg);
}
function expect(cond, msg) {
  if (!cond) fail(msg);
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

// spawnAgent starts the backend as goosed.ts does and resolves the
// fingerprint line.
function spawnAgent(port, secret) {
  const child = spawn(process.env.GOOSE_ACP_BIN, ['agent'], {
    cwd: process.env.WORKDIR,
    env: { ...process.env, GOOSE_PORT: String(port), GOOSE_SERVER__SECRET_KEY: secret },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const fingerprint = new Promise((resolve, reject) => {
    let buf = '';
    const onData = (d) => {
      buf += d;
      for (const line of buf.split('\n')) {
        if (line.startsWith('GOOSED_CERT_FINGERPRINT=')) {
          child.stdout.off('data', onData);
          child.stdout.resume(); // drain, as the desktop does
          resolve(line.slice('GOOSED_CERT_FINGERPRINT='.length).trim());
        }
      }
    };
    child.stdout.on('data', onData);
    child.on('exit', (code) => reject(new Error(`goose-acp agent exited (${code}) before printing its fingerprint:\n${stderr}`)));
  });
  return { child, fingerprint, stderr: () => stderr };
}

// pinnedFetch is a WHATWG fetch over node:https that trusts exactly the
// certificate whose SHA-256 fingerprint is pin (the desktop's
// setCertificateVerifyProc): the first TLS probe must match the printed
// fingerprint, then that certificate is the only CA and its fingerprint is
// re-checked on every connection.
async function pinnedFetch(port, pin) {
  const pem = await new Promise((resolve, reject) => {
    const s = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      const cert = s.getPeerCertificate(true);
      s.end();
      if (cert.fingerprint256 !== pin) {
        reject(new Error(`served certificate ${cert.fingerprint256} does not match GOOSED_CERT_FINGERPRINT ${pin}`));
        return;
      }
      const b64 = cert.raw.toString('base64').match(/.{1,64}/g).join('\n');
      resolve(`-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n`);
    });
    s.on('error', reject);
  });
  const agent = new https.Agent({
    keepAlive: true,
    ca: pem,
    checkServerIdentity: (host, cert) => (cert.fingerprint256 === pin ? undefined : new Error(`certificate ${cert.fingerprint256} is not pinned`)),
  });
  const fetchImpl = async (input, init) => {
    const req = input instanceof Request ? input : new Request(input, init);
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    return new Promise((resolve, reject) => {
      const r = https.request(req.url, { method: req.method, headers: Object.fromEntries(req.headers), agent, signal: req.signal }, (res) => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) {
          headers.set(k, Array.isArray(v) ? v.join(', ') : String(v));
        }
        const empty = res.statusCode === 204 || res.statusCode === 304 || req.method === 'HEAD';
        resolve(new Response(empty ? null : Readable.toWeb(res), { status: res.statusCode, headers }));
      });
      r.on('error', reject);
      r.end(body);
    });
  };
  return { fetchImpl, agent };
}

function userMessage(text) {
  return { id: randomUUID(), role: 'user', created: Math.floor(Date.now() / 1000), content: [{ type: 'text', text }], metadata: { userVisible: true, agentVisible: true } };
}

function kinds(ev) {
  return `${ev.message.role}:${ev.message.content.map((c) => c.type).join(',')}`;
}

async function main() {
  const port = await freePort();
  const secret = randomBytes(32).toString('hex');
  const agentProc = spawnAgent(port, secret);
  try {
    const pin = await agentProc.fingerprint;
    expect(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/.test(pin), `fingerprint format: ${pin}`);
    report.fingerprint = pin;
    step('fingerprint');
    timing('fingerprint');

    // Health check: every 100 ms for up to 30 s, before the pin is known
    // to the fetch (the probe below needs the server up).
    const deadline = Date.now() + 30000;
    for (;;) {
      const up = await new Promise((r) => {
        const s = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => (s.end(), r(true)));
        s.on('error', () => r(false));
      });
      if (up) break;
      expect(Date.now() < deadline, `server did not come up:\n${agentProc.stderr()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const { fetchImpl, agent } = await pinnedFetch(port, pin);
    const client = createClient(createConfig({ baseUrl: `https://127.0.0.1:${port}`, fetch: fetchImpl, headers: { 'X-Secret-Key': secret } }));
    const call = async (name, fn, opts = {}) => {
      const res = await fn({ client, ...opts });
      expect(res.response && res.response.ok, `${name}: HTTP ${res.response && res.response.status} ${JSON.stringify(res.error)}`);
      step(name);
      timing(name);
      return res.data;
    };

    // The wrong secret is refused.
    const bad = createClient(createConfig({ baseUrl: `https://127.0.0.1:${port}`, fetch: fetchImpl, headers: { 'X-Secret-Key': 'wrong' } }));
    const denied = await api.listSessions({ client: bad });
    expect(denied.response.status === 401, `wrong secret answered ${denied.response.status}`);

    // Desktop startup (S).
    expect((await call('status', api.status)) === 'ok', 'status body');
    await call('readConfig', api.readConfig, { body: { key: 'GOOSE_TELEMETRY_ENABLED', is_secret: false } });
    const features = await call('getFeatures', api.getFeatures);
    expect(typeof features.features === 'object', 'features');
    const cfg = await call('readAllConfig', api.readAllConfig);
    expect(cfg.config && typeof cfg.config === 'object', 'config');
    const provs = await call('providers', api.providers);
    expect(Array.isArray(provs) && provs.some((p) => p.name === 'openai'), `providers: ${JSON.stringify(provs.map((p) => p.name))}`);
    const exts = await call('getExtensions', api.getExtensions);
    expect(Array.isArray(exts.extensions), 'extensions');
    await call('listSessions', api.listSessions);
    const session = await call('startAgent', api.startAgent, { body: { working_dir: process.env.WORKDIR } });
    expect(/^\d{8}_\d+$/.test(session.id) && session.name === 'New Chat', `session ${JSON.stringify(session)}`);
    const id = session.id;
    const resumed = await call('resumeAgent', api.resumeAgent, { body: { session_id: id, load_model_and_extensions: true } });
    expect(resumed.session.id === id && Array.isArray(resumed.session.conversation), 'resume');
    await call('updateFromSession', api.updateFromSession, { body: { session_id: id } });
    await call('listApps', api.listApps, { query: { session_id: id } });

    const abort = new AbortController();
    const { stream } = await api.sessionEvents({ client, path: { id }, signal: abort.signal, sseMaxRetryAttempts: 3 });
    const iter = stream[Symbol.asyncIterator]();
    const nextEvent = async () => {
      const t = setTimeout(() => abort.abort(), 30000);
      const { value, done } = await iter.next();
      clearTimeout(t);
      expect(!done, 'event stream ended');
      return value;
    };
    const tools = await call('getTools', api.getTools, { query: { session_id: id } });
    expect(tools.some((t) => t.name === 'shell'), `tools: ${tools.map((t) => t.name)}`);
    await call('getSessionExtensions', api.getSessionExtensions, { path: { session_id: id } });
    await call('getSession', api.getSession, { path: { session_id: id } });

    // A chat turn with a tool approval (T).
    const requestId = randomUUID();
    const submitted = await call('sessionReply', api.sessionReply, { path: { id }, body: { request_id: requestId, user_message: userMessage('run the command') } });
    expect(submitted.request_id === requestId, 'reply request id');
    const seen = [];
    for (;;) {
      const ev = await nextEvent();
      if (ev.type === 'ActiveRequests') {
        // The stream connected while the request was in flight.
        expect(ev.request_ids.includes(requestId), `active requests ${JSON.stringify(ev)}`);
        continue;
      }
      expect(ev.chat_request_id === requestId, `event without chat_request_id: ${JSON.stringify(ev)}`);
      if (ev.type === 'Finish') {
        seen.push('Finish');
        break;
      }
      if (ev.type === 'Notification') {
        // MCP notifications keep the tool call's own request_id.
        expect(ev.request_id !== requestId && typeof ev.message.method === 'string', `notification ${JSON.stringify(ev)}`);
        if (seen.at(-1) !== 'Notification') seen.push('Notification');
        continue;
      }
      expect(ev.type === 'Message', `unexpected event ${JSON.stringify(ev)}`);
      seen.push(kinds(ev));
      const action = ev.message.content.find((c) => c.type === 'actionRequired');
      if (action) {
        expect(action.data.actionType === 'toolConfirmation' && action.data.toolName === 'shell', `action ${JSON.stringify(action)}`);
        await call('confirmToolAction', api.confirmToolAction, { body: { id: action.data.id, action: 'allow_once', sessionId: id, principalType: 'Tool' } });
      }
      const resp = ev.message.content.find((c) => c.type === 'toolResponse');
      if (resp) {
        expect(JSON.stringify(resp.toolResult).includes('approved-42'), `tool output ${JSON.stringify(resp)}`);
      }
    }
    report.events.approval = seen;
    expect(seen.includes('assistant:actionRequired') && seen.includes('user:toolResponse'), `approval turn: ${seen}`);
    abort.abort();
    step('approvalTurn');

    // A legacy /reply turn (desktop ≤ 1.27).
    const legacy = await api.reply({ client, body: { session_id: id, user_message: userMessage('and now?') } });
    const legacySeen = [];
    for await (const ev of legacy.stream) {
      legacySeen.push(ev.type === 'Message' ? kinds(ev) : ev.type);
      if (ev.type === 'Finish') break;
    }
    report.events.legacy = legacySeen;
    expect(legacySeen[0] === 'Ping' && legacySeen.at(-1) === 'Finish' && legacySeen.includes('assistant:text'), `legacy: ${legacySeen}`);
    step('legacyReply');

    const stored = await call('getSession', api.getSession, { path: { session_id: id } });
    // the agent's per-turn <turn-context> messages (agent-only) are not counted
    report.stored = stored.conversation.filter((m) => !m.metadata?.turnContext).length;
    agent.destroy();
  } finally {
    const exited = new Promise((r) => agentProc.child.on('exit', (code, sig) => r({ code, sig })));
    agentProc.child.kill('SIGTERM');
    const how = await Promise.race([exited, new Promise((r) => setTimeout(() => r({ timeout: true }), 10000))]);
    report.exit = how;
    timing('exit');
  }
  expect(report.exit.code === 0, `goose-acp agent did not exit cleanly on SIGTERM: ${JSON.stringify(report.exit)}`);
  console.log(JSON.stringify(report));
}

main().catch((err) => {
  console.log(JSON.stringify({ ...report, error: String(err && err.stack ? err.stack : err) }));
  process.exit(1);
});
