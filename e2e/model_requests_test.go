//go:build !windows

package e2e

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
	"github.com/goose-acp/goose-acp/internal/npmtest"
)

var updateGoldens = flag.Bool("update", false, "rewrite e2e/testdata goldens")

// The request bodies goose-acp sends the model (OpenAI Chat Completions,
// gpt-4o) for eleven fixed sessions, pinned in e2e/testdata/model_requests:
// a default session, a tool turn, an editor client and /compact, todo
// turned on, an extension serving resources (the resource tools offered),
// auto-compaction at a turn's start, compaction inside a tool loop (files read and modified, the tool-loop
// continuation), the remaining-context (<compaction>) signal, later turns (the turn budget
// signal, tool-pair summarization) and the session title request. Each
// section of a golden is preceded by an "@@ … @@" line naming the goose
// 1.54 source it follows. The working directory and the goose home are
// written $WORK and $ROOT, and the turn's current time $NOW (its format is
// checked before it is replaced). Regenerate with
// `go test ./e2e -run TestModelRequestGoldens -update` and review the diff.
func TestModelRequestGoldens(t *testing.T) {
	t.Run("default", func(t *testing.T) {
		env, work := goldenEnv(t, textTurn("Hello!"))
		c := startAgent(t, env)
		c.initialize(acp.ClientCapabilities{})
		sess := c.newSession(work)
		c.prompt(sess.SessionID, "hello")
		goldenRequests(t, env, work, "default", 0)
	})
	t.Run("tool_turn", func(t *testing.T) {
		env, work := goldenEnv(t, toolCallTurn("call_1", "shell", map[string]string{"command": "echo hi"}), textTurn("It printed hi."))
		c := startAgent(t, env)
		c.initialize(acp.ClientCapabilities{})
		sess := c.newSession(work)
		c.prompt(sess.SessionID, "run echo hi")
		goldenRequests(t, env, work, "tool_turn", 1)
	})
	t.Run("editor", func(t *testing.T) {
		env, work := goldenEnv(t, textTurn("Hello!"))
		c := startAgent(t, env)
		(&editor{}).install(c)
		c.initialize(acp.ClientCapabilities{FS: acp.FSCapabilities{ReadTextFile: true, WriteTextFile: true}, Terminal: true})
		sess := c.newSession(work)
		c.prompt(sess.SessionID, "hello")
		goldenRequests(t, env, work, "editor", 0)
	})
	t.Run("compact", func(t *testing.T) {
		env, work := goldenEnv(t,
			toolCallTurn("call_w", "write", map[string]string{"path": "notes.txt", "content": "remember the milk\n"}),
			textTurn("Wrote notes.txt."),
			textTurn("### Goal\nKeep notes.\n\n### Next Step\nAwaiting user input"),
			textTurn("Done."),
		)
		c := startAgent(t, env)
		c.initialize(acp.ClientCapabilities{})
		sess := c.newSession(work)
		c.prompt(sess.SessionID, "write a note")
		c.prompt(sess.SessionID, "/compact")
		c.prompt(sess.SessionID, "thanks")
		goldenRequests(t, env, work, "compact", 2, 3)
	})
	// The remaining-context signal: the first turn's model call reports
	// 60,100 tokens of gpt-4o's 128k, past half of the way to
	// auto-compaction (80 %, 102,400), so the next turn's <turn-context>
	// carries <compaction>~42k tokens remaining</compaction>; the first
	// turn's block, kept in history, has none.
	t.Run("compaction_signal", func(t *testing.T) {
		first := textTurn("Hello!")
		first.Usage = &providertest.Usage{Input: 60_000, Output: 100}
		env, work := goldenEnv(t, first, textTurn("Still here."))
		c := startAgent(t, env)
		c.initialize(acp.ClientCapabilities{})
		sess := c.newSession(work)
		c.prompt(sess.SessionID, "hello")
		c.prompt(sess.SessionID, "are you there?")
		var decoded any
		if err := json.Unmarshal(env.LLM.Requests()[1].Body, &decoded); err != nil {
			t.Fatal(err)
		}
		body := compactJSON(t, decoded)
		if n := strings.Count(body, "<compaction>"); n != 1 || !strings.Contains(body, `<compaction>~42k tokens remaining</compaction>\n</turn-context>`) {
			t.Errorf("the second turn's request carries %d <compaction> signals, want one saying ~42k remaining at the end of its block", n)
		}
		goldenRequests(t, env, work, "compaction_signal", 1)
	})
	// todo turned on in config.yaml (it is off by default): its tool, its
	// instructions and its per-turn note in the <turn-context>.
	t.Run("todo_on", func(t *testing.T) {
		env, work := goldenEnv(t, textTurn("Hello!"))
		env.enableTodo(t)
		c := startAgent(t, env)
		c.initialize(acp.ClientCapabilities{})
		sess := c.newSession(work)
		c.prompt(sess.SessionID, "hello")
		goldenRequests(t, env, work, "todo_on", 0)
	})
	// An extension that serves resources (e2e/mcpeverything's
	// resource_server.mjs, from the editor's session/new): the resource
	// tools are offered.
	t.Run("resources", func(t *testing.T) {
		env, work := goldenEnv(t, textTurn("Hello!"))
		dir := npmtest.Install(t, "mcpeverything")
		c := startAgent(t, env)
		c.initialize(acp.ClientCapabilities{})
		var sess acp.NewSessionResponse
		c.call("session/new", acp.NewSessionRequest{CWD: work, MCPServers: []acp.MCPServer{{
			Name: "notes", Command: "node", Args: []string{filepath.Join(dir, "resource_server.mjs")}, Env: []acp.EnvVariable{},
		}}}, &sess)
		c.prompt(sess.SessionID, "hello")
		goldenRequests(t, env, work, "resources", 0)
	})
	// Auto-compaction at the start of a turn: the first turn's model call
	// reports 110,100 tokens, over 80 % of gpt-4o's 128k, so the next
	// prompt is compacted before its model call; the retried request
	// carries the summary, the automatic continuation and the user's
	// text again.
	t.Run("auto_compact", func(t *testing.T) {
		first := textTurn("Hello!")
		first.Usage = &providertest.Usage{Input: 110_000, Output: 100}
		env, work := goldenEnv(t, first,
			textTurn("### Goal\nGreet.\n\n### Next Step\nAwaiting user input"),
			textTurn("Still here."))
		c := startAgent(t, env)
		c.initialize(acp.ClientCapabilities{})
		sess := c.newSession(work)
		c.prompt(sess.SessionID, "hello")
		c.prompt(sess.SessionID, "are you there?")
		if n := len(env.LLM.Requests()); n != 3 {
			t.Fatalf("%d model requests, want 3 (turn, summary, turn)", n)
		}
		goldenRequests(t, env, work, "auto_compact", 1, 2)
	})
	// Compaction inside a tool loop: the model read one file and wrote
	// another, then the provider refuses the next request as over the
	// context length. The summary request lists the files already read
	// and those modified, and the retried request continues with the
	// tool-loop text (run a tool again rather than guess at a result the
	// summary lacks).
	t.Run("tool_loop_compact", func(t *testing.T) {
		env, work := goldenEnv(t,
			toolCallTurn("call_r", "read", map[string]string{"path": "plan.md"}),
			toolCallTurn("call_w", "write", map[string]string{"path": "todo.txt", "content": "ship it\n"}),
			providertest.Turn{Status: 400, ErrorBody: `{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`},
			textTurn("### Goal\nShip the plan.\n\n### Next Step\nReport back"),
			textTurn("Done."),
		)
		if err := os.WriteFile(filepath.Join(work, "plan.md"), []byte("1. ship it\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		c := startAgent(t, env)
		(&editor{}).install(c)
		c.initialize(acp.ClientCapabilities{FS: acp.FSCapabilities{ReadTextFile: true, WriteTextFile: true}})
		sess := c.newSession(work)
		if r := c.prompt(sess.SessionID, "follow the plan"); r.StopReason != "end_turn" {
			t.Fatalf("stopReason %q\n%s", r.StopReason, c.dump(sess.SessionID))
		}
		if n := len(env.LLM.Requests()); n != 5 {
			t.Fatalf("%d model requests, want 5 (read, write, refused, summary, retry)", n)
		}
		goldenRequests(t, env, work, "tool_loop_compact", 3, 4)
	})
	// Later turns: the turn budget signal once half of GOOSE_MAX_TURNS is
	// used, then at the next turn the oldest tool pairs past
	// GOOSE_TOOL_CALL_CUTOFF summarized beside the turn's call (all
	// answered alike: they race for the mock's next answer), and the turn
	// after that sending the summaries in the pairs' place.
	t.Run("later_turns", func(t *testing.T) {
		// goose summarizes a batch of 10 once more than cutoff + 10 calls
		// lie before the turn's own: 12 calls one after another, cutoff 1.
		var turns []providertest.Turn
		for i := range 12 {
			turns = append(turns, toolCallTurn(fmt.Sprintf("call_%d", i), "shell", map[string]string{"command": fmt.Sprintf("echo %d", i)}))
		}
		turns = append(turns, textTurn("All printed."))
		for range 11 { // the second turn's answer and the 10 summaries
			turns = append(turns, textTurn("Noted."))
		}
		env, work := goldenEnv(t, append(turns, textTurn("Bye."))...)
		env.Vars["GOOSE_MAX_TURNS"] = "20"
		env.Vars["GOOSE_TOOL_CALL_CUTOFF"] = "1"
		c := startAgent(t, env)
		c.initialize(acp.ClientCapabilities{})
		sess := c.newSession(work)
		c.prompt(sess.SessionID, "run echo 0 to echo 11")
		c.prompt(sess.SessionID, "note it")
		c.prompt(sess.SessionID, "bye")
		var summaries []int
		for i, r := range env.LLM.Requests() {
			if strings.Contains(string(r.Body), "Summarize a tool call and its response in one message") {
				summaries = append(summaries, i)
			}
		}
		if len(summaries) != 10 || len(env.LLM.Requests()) != 25 {
			t.Fatalf("%d tool-pair summary requests among %d, want 10 among 25", len(summaries), len(env.LLM.Requests()))
		}
		// The summary's place among the requests varies: -1 - i names it
		// without its index.
		goldenRequests(t, env, work, "later_turns", 12, -1-summaries[0])
		// The third turn sends the summaries instead of the first ten pairs
		// and keeps the last two. (Where the summaries sit follows the
		// stored created-second order, which the clock decides here: not
		// pinned byte for byte.)
		last := string(env.LLM.Requests()[24].Body)
		if n := strings.Count(last, `Noted.`); n != 11 {
			t.Errorf("the third turn's request holds %d 'Noted.' (want 10 summaries and the second turn's answer)", n)
		}
		for i := range 12 {
			if got := strings.Contains(last, fmt.Sprintf(`"id":"call_%d"`, i)); got != (i >= 10) {
				t.Errorf("the third turn's request carries call_%d: %v", i, got)
			}
		}
	})
	// The session-title request after the first user message (naming
	// runs beside the turn: both are answered alike).
	t.Run("title", func(t *testing.T) {
		env, work := goldenEnv(t, textTurn("Fix the failing build"), textTurn("Fix the failing build"))
		delete(env.Vars, "GOOSE_DISABLE_SESSION_NAMING")
		c := startAgent(t, env)
		c.initialize(acp.ClientCapabilities{})
		sess := c.newSession(work)
		c.prompt(sess.SessionID, "why does the build fail?")
		c.waitFor("the title request", func() bool { return len(env.LLM.Requests()) == 2 })
		title := -1
		for i, r := range env.LLM.Requests() {
			if strings.Contains(string(r.Body), "---BEGIN USER MESSAGES---") {
				title = i
			}
		}
		if title < 0 {
			t.Fatal("no title request")
		}
		goldenRequests(t, env, work, "title", -1-title)
	})
}

// goldenEnv is a mock LLM with turns and a session directory, in UTC.
func goldenEnv(t *testing.T, turns ...providertest.Turn) (*agentEnv, string) {
	env := newAgentEnv(t, turns...)
	env.Vars["TZ"] = "UTC"
	work := filepath.Join(env.Root, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	return env, work
}

var nowRE = regexp.MustCompile(`<current-time>\d{4}-\d\d-\d\d \d\d:\d\d:00 \+00:00</current-time>`)

// goldenRequests renders the mock's requests at the given indexes and
// compares them with testdata/model_requests/<name>.golden; an index
// written -1-i is request i rendered without its index (a request made
// beside the turn's own, whose place among them varies).
func goldenRequests(t *testing.T, env *agentEnv, work, name string, idx ...int) {
	t.Helper()
	reqs := env.LLM.Requests()
	var b strings.Builder
	for _, i := range idx {
		at := i
		if i < 0 { // a request beside the turn's own: its index varies
			i = -1 - i
		}
		if i >= len(reqs) {
			t.Fatalf("%d requests, want request %d", len(reqs), i)
		}
		var decoded any
		if err := json.Unmarshal(reqs[i].Body, &decoded); err != nil {
			t.Fatal(err)
		}
		body := compactJSON(t, decoded) // <, > and & unescaped, so the tags read as they are
		if strings.Contains(body, "<current-time>") && !nowRE.MatchString(body) {
			t.Fatalf("current-time not in goose's format: %s", body)
		}
		body = nowRE.ReplaceAllString(body, "<current-time>$$NOW</current-time>")
		body = strings.NewReplacer(jsonText(work), "$WORK", jsonText(env.Root), "$ROOT").Replace(body)
		renderRequest(t, &b, at, []byte(body))
	}
	path := filepath.Join("testdata", "model_requests", name+".golden")
	if *updateGoldens {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Fatalf("%s differs from the golden (regenerate with -update and review):\n%s", path, b.String())
	}
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// renderRequest writes one request body as annotated sections: the
// parameters, the system prompt split at its headings, each message and
// each tool, one JSON line apiece.
func renderRequest(t *testing.T, b *strings.Builder, i int, body []byte) {
	t.Helper()
	var req map[string]json.RawMessage
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	var msgs []map[string]any
	var tools []map[string]any
	_ = json.Unmarshal(req["messages"], &msgs)
	_ = json.Unmarshal(req["tools"], &tools)
	delete(req, "messages")
	delete(req, "tools")
	n := fmt.Sprint(i)
	if i < 0 {
		n = "beside the turn's own"
	}
	section(b, "request %s: POST /v1/chat/completions (OpenAI Chat Completions) — goose 1.54 crates/goose/src/providers/formats/openai.rs", n)
	section(b, "parameters — max_tokens is the model's output limit: goose 1.54 crates/goose-provider-types/src/model.rs (with_canonical_limits)")
	b.WriteString(compactJSON(t, req) + "\n")
	for j, m := range msgs {
		if m["role"] == "system" {
			text := m["content"].(string)
			if strings.HasPrefix(text, "Summarize a tool call") {
				section(b, "system: the tool-pair summary prompt — goose 1.54 crates/goose/src/context_mgmt/mod.rs (summarize_tool_call)")
				b.WriteString(text + "\n")
				continue
			}
			if len(msgs) == 2 && strings.Contains(compactJSON(t, msgs[1]), "---BEGIN USER MESSAGES---") {
				section(b, "system: the session-title prompt — goose 1.54 crates/goose/src/prompts/session_name.md")
				b.WriteString(text + "\n")
				continue
			}
			if strings.HasPrefix(text, "## Task") {
				section(b, "system: the compaction template — goose 1.54 crates/goose/src/prompts/compaction.md (messages, files read and modified: context_mgmt/mod.rs extract_file_history)")
				b.WriteString(text + "\n")
				continue
			}
			renderSystem(b, text)
			continue
		}
		section(b, "messages[%d] %s — %s", j, m["role"], messageSource(m))
		b.WriteString(compactJSON(t, m) + "\n")
	}
	for _, tool := range tools {
		fn, _ := tool["function"].(map[string]any)
		name, _ := fn["name"].(string)
		section(b, "tool %s — goose 1.54 %s", name, toolSource(name))
		b.WriteString(compactJSON(t, tool) + "\n")
	}
}

func section(b *strings.Builder, format string, args ...any) {
	b.WriteString("@@ " + strings.TrimSpace(fmt.Sprintf(format, args...)) + " @@\n")
}

// renderSystem writes the system prompt whole, an annotation before each
// of its headings.
func renderSystem(b *strings.Builder, text string) {
	section(b, "system: identity — goose 1.54 crates/goose/src/prompts/system.md (its first two lines)")
	for _, line := range strings.SplitAfter(text, "\n") {
		if h, ok := heading(line); ok {
			section(b, "system: %s — goose 1.54 %s", h, systemSource(h))
		}
		b.WriteString(line)
	}
	b.WriteString("\n")
}

func heading(line string) (string, bool) {
	l := strings.TrimRight(line, "\n")
	if strings.HasPrefix(l, "# ") || strings.HasPrefix(l, "## ") {
		return l, true
	}
	return "", false
}

// systemSource names the goose 1.54 file a system prompt section follows.
func systemSource(h string) string {
	switch h {
	case "# Turn Context":
		return "crates/goose/src/agents/moim.rs (SYSTEM_PROMPT_BLOCK_TEMPLATE, rendered into system.md)"
	case "# Extensions", "# Response Guidelines":
		return "crates/goose/src/prompts/system.md"
	case "# Additional Instructions:":
		return "crates/goose/src/agents/prompt_manager.rs (system_prompt_extras, hints)"
	case "## analyze":
		return "crates/goose/src/agents/platform_extensions/analyze/mod.rs (instructions)"
	case "## developer":
		return "crates/goose/src/agents/platform_extensions/developer/mod.rs (developer_instructions)"
	case "## extensionmanager":
		return "crates/goose/src/agents/platform_extensions/ext_manager.rs (instructions)"
	case "## skills":
		return "crates/goose/src/skills/client.rs (instructions listing the skills)"
	case "## summon":
		return "crates/goose/src/agents/platform_extensions/summon.rs (no instructions)"
	case "## tom":
		return "crates/goose/src/agents/platform_extensions/tom.rs (no instructions)"
	case "## notes":
		return "crates/goose/src/prompts/system.md (an MCP extension's section: the has_resources line)"
	case "## todo":
		return "crates/goose/src/agents/platform_extensions/todo.rs (instructions)"
	}
	return "(no goose 1.54 counterpart)"
}

// messageSource names where a message's shape comes from.
func messageSource(m map[string]any) string {
	content, _ := m["content"].(string)
	switch {
	case strings.Contains(content, "<turn-context>"):
		return "the user's text, then the stored <turn-context> block: goose 1.54 crates/goose/src/agents/moim.rs (turn_context_event), state_machine/inference_preparation.rs"
	case strings.HasPrefix(content, "The previous message is a structured summary"):
		return "compaction continuation: goose 1.54 crates/goose/src/context_mgmt/mod.rs (*_CONTINUATION_TEXT)"
	case content == "Please summarize the conversation history provided in the system prompt.":
		return "compaction request: goose 1.54 crates/goose/src/context_mgmt/mod.rs (do_compact)"
	case strings.HasPrefix(content, "[assistant]: tool_request("):
		return "the tool pair to summarize: goose 1.54 crates/goose/src/context_mgmt/mod.rs (format_message_for_summarizing)"
	case strings.Contains(content, "---BEGIN USER MESSAGES---"):
		return "the first user messages to title: goose 1.54 crates/goose/src/session/session_naming.rs"
	case m["role"] == "tool":
		return "tool result: goose 1.54 crates/goose/src/providers/formats/openai.rs"
	case m["tool_calls"] != nil:
		return "tool call: goose 1.54 crates/goose/src/providers/formats/openai.rs"
	}
	return "conversation message"
}

// toolSource names the goose 1.54 file a tool follows.
func toolSource(name string) string {
	switch {
	case name == "shell":
		return "crates/goose/src/agents/platform_extensions/developer/shell.rs (unprefixed: platform_extensions/mod.rs)"
	case name == "write" || name == "edit":
		return "crates/goose/src/agents/platform_extensions/developer/edit.rs"
	case name == "tree":
		return "crates/goose/src/agents/platform_extensions/developer/tree.rs"
	case name == "read_image":
		return "crates/goose/src/agents/platform_extensions/developer/image.rs"
	case name == "read":
		return "crates/goose/src/acp/fs.rs (offered to clients with fs.readTextFile)"
	case name == "analyze":
		return "crates/goose/src/agents/platform_extensions/analyze/mod.rs"
	case name == "load" || name == "delegate":
		return "crates/goose/src/agents/platform_extensions/summon.rs"
	case name == "load_skill":
		return "crates/goose/src/skills/client.rs"
	case strings.HasPrefix(name, "extensionmanager__"):
		return "crates/goose/src/agents/platform_extensions/ext_manager.rs (prefixed)"
	case strings.HasPrefix(name, "todo__"):
		return "crates/goose/src/agents/platform_extensions/todo.rs (prefixed)"
	}
	return "(no goose 1.54 counterpart)"
}

// compactJSON is v as one line of JSON with sorted keys, <, > and &
// left as they are.
func compactJSON(t *testing.T, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(sortedKeys(v)); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// sortedKeys re-decodes raw JSON values so maps marshal with sorted keys.
func sortedKeys(v any) any {
	switch x := v.(type) {
	case map[string]json.RawMessage:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := map[string]any{}
		for _, k := range keys {
			var d any
			_ = json.Unmarshal(x[k], &d)
			out[k] = d
		}
		return out
	}
	return v
}
