// What the SDK harnesses share. validated wraps an SDK ndJsonStream so that every frame on the wire is
// checked against the SDK's zod schemas: the agent's requests and
// notifications by method (INBOUND), its results by the method of the
// request they answer (RESULT). Methods starting with "_" are extensions and
// go unchecked; any other method INBOUND does not name is a violation.
// onInbound sees each agent→client message in wire order.
export function validated(raw, { INBOUND, RESULT }, onInbound = () => {}) {
  const sent = new Map();
  const violations = [];
  let frames = 0;
  const check = (schema, value, what) => {
    if (!schema) return;
    const r = schema.safeParse(value);
    if (!r.success) violations.push({ what, value, issues: r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).slice(0, 5) });
  };
  const readable = raw.readable.pipeThrough(new TransformStream({
    transform(m, c) {
      frames++;
      onInbound(m);
      if (m.jsonrpc !== "2.0") violations.push({ what: "jsonrpc field", m });
      if ("method" in m) {
        if (!(m.method in INBOUND) && !m.method.startsWith("_")) violations.push({ what: "unknown method " + m.method });
        check(INBOUND[m.method], m.params, m.method);
      } else if ("result" in m) {
        check(RESULT[sent.get(m.id)], m.result, "result of " + sent.get(m.id));
      }
      c.enqueue(m);
    },
  }));
  const writable = new WritableStream({
    async write(m) {
      if ("method" in m && "id" in m) sent.set(m.id, m.method);
      const w = raw.writable.getWriter();
      try { await w.write(m); } finally { w.releaseLock(); }
    },
  });
  return { readable, writable, violations, frames: () => frames };
}

// runScenarios runs the named scenarios in order against the connected
// agent, recording each one's outcome in results (an unknown name fails).
export async function runScenarios(scenarios, wanted, results, ...args) {
  for (const name of wanted) {
    const fn = scenarios[name];
    try {
      if (!fn) throw new Error("unknown scenario");
      await fn(...args);
      results.push({ name, ok: true });
    } catch (e) {
      results.push({ name, ok: false, error: String(e && e.message || e) });
    }
  }
}

// endAgent closes the agent's stdin and waits for it to exit (5 s at most).
export async function endAgent(child) {
  child.stdin.end();
  await new Promise((r) => { child.on("exit", r); setTimeout(r, 5000); });
}
