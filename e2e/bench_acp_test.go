package e2e

// Benchmarks of the spawned goose-acp binary:
//
//	go test -run XXX -bench . -benchtime 20x -count 10 ./e2e/
//
// Each reports ns/op for its step; BenchmarkChunkLatency also reports the
// median and p99 delay between the mock flushing a chunk and the chunk's
// frame reaching the client, and BenchmarkTextTurn the agent's RSS.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/sqlite"
)

// rawAgent is a spawned goose-acp driven with raw NDJSON lines, so the
// measured time is the agent's, not a client library's.
type rawAgent struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
	next  int
	// onLine, if set, sees every line read (with its arrival time).
	onLine func(line []byte, at time.Time)
}

func spawnRaw(b testing.TB, env *agentEnv) *rawAgent {
	b.Helper()
	a := &rawAgent{cmd: exec.Command(binary)}
	a.cmd.Env = env.environ()
	a.cmd.Dir = env.Root
	stdin, err := a.cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := a.cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := a.cmd.Start(); err != nil {
		b.Fatal(err)
	}
	a.stdin, a.out = stdin, bufio.NewReaderSize(stdout, 1<<20)
	return a
}

// reportCPU reports the agent's CPU time per op since start (see cpuTime).
func (a *rawAgent) reportCPU(b *testing.B, start time.Duration) {
	if end, ok := cpuTime(a.cmd.Process.Pid); ok && b.N > 0 {
		b.ReportMetric(float64((end-start).Microseconds())/1000/float64(b.N), "ms-agent-cpu/op")
	}
}

func (a *rawAgent) cpu() time.Duration {
	d, _ := cpuTime(a.cmd.Process.Pid)
	return d
}

func (a *rawAgent) stop() {
	a.stdin.Close()
	_ = a.cmd.Wait()
}

// call sends a request and reads lines until its response; it returns the
// result and how many other lines (notifications) came first.
func (a *rawAgent) call(b testing.TB, method string, params any) (json.RawMessage, int) {
	a.next++
	id := a.next
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if _, err := a.stdin.Write(append(msg, '\n')); err != nil {
		b.Fatal(err)
	}
	var others int
	for {
		line, err := a.out.ReadBytes('\n')
		if err != nil {
			b.Fatalf("%s: agent output ended: %v", method, err)
		}
		if a.onLine != nil {
			a.onLine(line, time.Now())
		}
		var m struct {
			ID     *int            `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(line, &m); err != nil {
			b.Fatalf("bad frame %q", line)
		}
		if m.Method == "" && m.ID != nil && *m.ID == id {
			if m.Error != nil {
				b.Fatalf("%s: %s", method, m.Error)
			}
			return m.Result, others
		}
		others++
	}
}

var initParams = map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}}

func (a *rawAgent) newSession(b testing.TB, cwd string) string {
	res, _ := a.call(b, "session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}})
	var r struct {
		SessionID string `json:"sessionId"`
	}
	json.Unmarshal(res, &r)
	return r.SessionID
}

func (a *rawAgent) prompt(b testing.TB, sessionID, text string) {
	res, _ := a.call(b, "session/prompt", map[string]any{"sessionId": sessionID, "prompt": []any{map[string]any{"type": "text", "text": text}}})
	if !strings.Contains(string(res), `"end_turn"`) {
		b.Fatalf("prompt: %s", res)
	}
}

// BenchmarkSpawnToInitialize: process start until the initialize response
// is read (goal ≤ 10 ms).
func BenchmarkSpawnToInitialize(b *testing.B) {
	env := newAgentEnv(b)
	for b.Loop() {
		a := spawnRaw(b, env)
		a.call(b, "initialize", initParams)
		b.StopTimer()
		a.stop()
		b.StartTimer()
	}
}

// BenchmarkSessionNew: one session/new on a running agent (goal ≤ 5 ms).
func BenchmarkSessionNew(b *testing.B) {
	env := newAgentEnv(b)
	a := spawnRaw(b, env)
	defer a.stop()
	a.call(b, "initialize", initParams)
	cwd := b.TempDir()
	a.newSession(b, cwd) // warm-up
	start := a.cpu()
	for b.Loop() {
		id := a.newSession(b, cwd)
		// An editor keeps a few sessions open, not thousands: close each
		// one (untimed) so the loop does not measure a growing heap.
		b.StopTimer()
		a.call(b, "session/close", map[string]any{"sessionId": id})
		b.StartTimer()
	}
	a.reportCPU(b, start)
}

// BenchmarkSessionNewFirstPrompt: session/new and then the session's first
// one-message prompt (an editor's first question in a new thread). The
// extensions connect in the background, so the prompt may wait for them:
// ms-new and ms-first-prompt are the two steps' own times; their sum is
// what the user waits.
func BenchmarkSessionNewFirstPrompt(b *testing.B) { benchFirstPrompt(b, 0) }

// BenchmarkFirstPromptAfterPause: the same with the 100 ms a person needs
// at least to type a first question between session/new and the prompt
// (untimed): the extensions have connected by then.
func BenchmarkFirstPromptAfterPause(b *testing.B) { benchFirstPrompt(b, 100*time.Millisecond) }

func benchFirstPrompt(b *testing.B, pause time.Duration) {
	env := newAgentEnv(b)
	a := spawnRaw(b, env)
	defer a.stop()
	a.call(b, "initialize", initParams)
	cwd := b.TempDir()
	turn := providertest.Turn{Text: []string{"Hello there."}, Usage: &providertest.Usage{Input: 50, Output: 3}}
	env.LLM.Script.Append(turn)
	a.prompt(b, a.newSession(b, cwd), "warm up") // token tables, provider client
	var news, prompts time.Duration
	start := a.cpu()
	for b.Loop() {
		b.StopTimer()
		env.LLM.Script.Append(turn)
		b.StartTimer()
		t0 := time.Now()
		id := a.newSession(b, cwd)
		news += time.Since(t0)
		if pause > 0 {
			b.StopTimer()
			time.Sleep(pause)
			b.StartTimer()
		}
		t1 := time.Now()
		a.prompt(b, id, "say hello")
		prompts += time.Since(t1)
		b.StopTimer()
		a.call(b, "session/close", map[string]any{"sessionId": id})
		b.StartTimer()
	}
	a.reportCPU(b, start)
	b.ReportMetric(float64(news.Microseconds())/1000/float64(b.N), "ms-new")
	b.ReportMetric(float64(prompts.Microseconds())/1000/float64(b.N), "ms-first-prompt")
}

// BenchmarkTextTurn: a one-message text turn against an instant mock LLM,
// prompt sent to response read (goal ≤ 15 ms); reports the agent's RSS
// (VmRSS, MiB) after the first turn (goal ≤ 30 MB), and after the loop.
func BenchmarkTextTurn(b *testing.B) {
	env := newAgentEnv(b)
	a := spawnRaw(b, env)
	defer a.stop()
	a.call(b, "initialize", initParams)
	id := a.newSession(b, b.TempDir())
	// The first turn pays one-time costs (token counter tables, provider
	// client); it is reported on its own, the loop measures the next turns.
	turn := providertest.Turn{Text: []string{"Hello there."}, Usage: &providertest.Usage{Input: 50, Output: 3}}
	rssBefore, rssOK := rssMB(a.cmd.Process.Pid)
	env.LLM.Script.Append(turn)
	first := time.Now()
	a.prompt(b, id, "say hello")
	firstTurn := time.Since(first)
	// The goal is the RSS after that one-message turn; the loop below grows
	// the session by b.N turns, so its RSS is reported on its own.
	rssAfterTurn, _ := rssMB(a.cmd.Process.Pid)
	start := a.cpu()
	for b.Loop() {
		b.StopTimer()
		env.LLM.Script.Append(turn)
		b.StartTimer()
		a.prompt(b, id, "say hello")
	}
	a.reportCPU(b, start)
	// Metrics reported before b.Loop are dropped by its timer reset.
	b.ReportMetric(float64(firstTurn.Microseconds())/1000, "ms-first-turn")
	if mb, ok := rssMB(a.cmd.Process.Pid); ok && rssOK {
		b.ReportMetric(rssBefore, "MiB-RSS-before-turn")
		b.ReportMetric(rssAfterTurn, "MiB-RSS")
		b.ReportMetric(mb, "MiB-RSS-after-loop")
	}
}

// BenchmarkChunkLatency: a mock LLM streams 20 chunks 2 ms apart and
// stamps each flush; the client stamps each agent_message_chunk frame's
// arrival. Reports the p50 and p99 delay (goal ≤ 1 ms).
func BenchmarkChunkLatency(b *testing.B) {
	const chunks = 20
	var mu sync.Mutex
	sent := map[string]time.Time{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string `json:"model"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		turn := providertest.Turn{}
		for i := range chunks {
			turn.Text = append(turn.Text, fmt.Sprintf("tok%d-%d ", time.Now().UnixNano(), i))
		}
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		for _, c := range providertest.OpenAIChunks("chatcmpl-bench", req.Model, turn, true) {
			data, _ := json.Marshal(c)
			fmt.Fprintf(w, "data: %s\n\n", data)
			rc.Flush()
			if s := string(data); strings.Contains(s, "tok") {
				mu.Lock()
				sent[tokenIn(s)] = time.Now()
				mu.Unlock()
				time.Sleep(2 * time.Millisecond)
			}
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()
	env := newAgentEnv(b)
	env.Vars["OPENAI_HOST"] = srv.URL
	a := spawnRaw(b, env)
	defer a.stop()
	var delays []time.Duration
	a.onLine = func(line []byte, at time.Time) {
		s := string(line)
		if !strings.Contains(s, "agent_message_chunk") {
			return
		}
		mu.Lock()
		if t0, ok := sent[tokenIn(s)]; ok {
			delays = append(delays, at.Sub(t0))
		}
		mu.Unlock()
	}
	a.call(b, "initialize", initParams)
	id := a.newSession(b, b.TempDir())
	for b.Loop() {
		a.prompt(b, id, "stream")
	}
	if len(delays) == 0 {
		b.Fatal("no chunk matched")
	}
	slices.Sort(delays)
	b.ReportMetric(float64(delays[len(delays)/2].Microseconds()), "µs-chunk-p50")
	b.ReportMetric(float64(delays[len(delays)*99/100].Microseconds()), "µs-chunk-p99")
}

// tokenIn extracts the "tok…" marker from a frame.
func tokenIn(s string) string {
	i := strings.Index(s, "tok")
	j := strings.IndexByte(s[i:], ' ')
	if j < 0 {
		return s[i:]
	}
	return s[i : i+j]
}

// BenchmarkLoadReplay10k: session/load of a stored 10,000-message session,
// request sent until the response (after the whole replay) is read
// (goal ≤ 300 ms).
func BenchmarkLoadReplay10k(b *testing.B) {
	env := newAgentEnv(b)
	cwd := b.TempDir()
	id := seedSession(b, env, cwd, 10_000)
	a := spawnRaw(b, env)
	defer a.stop()
	a.call(b, "initialize", initParams)
	start := a.cpu()
	for b.Loop() {
		_, replayed := a.call(b, "session/load", map[string]any{"sessionId": id, "cwd": cwd, "mcpServers": []any{}})
		if replayed < 10_000 {
			b.Fatalf("replayed %d updates, want ≥ 10000", replayed)
		}
	}
	a.reportCPU(b, start)
}

// seedSession writes a session of n alternating user/assistant messages
// straight into the agent's sessions.db.
func seedSession(b *testing.B, env *agentEnv, cwd string, n int) string {
	b.Helper()
	return seedSessionText(b, env, cwd, n, "lorem ipsum ", 8)
}

// seedSessionText is seedSession with each message's text: its index and
// word repeated times.
func seedSessionText(b *testing.B, env *agentEnv, cwd string, n int, word string, times int) string {
	b.Helper()
	ctx := context.Background()
	store, sess := seedStore(b, env, cwd)
	defer store.Close()
	msgs := make([]conversation.Message, 0, n)
	base := time.Now().Add(-time.Hour).Unix() - int64(n) // all in the past
	for i := range n {
		role := conversation.RoleUser
		if i%2 == 1 {
			role = conversation.RoleAssistant
		}
		text := fmt.Sprintf("message %d: %s", i, strings.Repeat(word, times))
		msgs = append(msgs, conversation.NewMessage(role, base+int64(i)).WithID(fmt.Sprintf("msg_%05d", i)).WithText(text))
	}
	if err := store.ReplaceConversation(ctx, sess.ID, msgs); err != nil {
		b.Fatal(err)
	}
	return sess.ID
}

// seedStore opens env's sessions.db as the agent will find it and creates
// the session "long" in cwd there.
func seedStore(tb testing.TB, env *agentEnv, cwd string) (*sqlite.Store, session.Session) {
	tb.Helper()
	paths, err := config.ResolvePaths(func(k string) string { return env.Vars[k] }, env.Root)
	if err != nil {
		tb.Fatal(err)
	}
	store, err := sqlite.Open(context.Background(), paths.SessionsDB(), sqlite.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	sess, err := store.Create(context.Background(), session.NewSession{WorkingDir: cwd, Name: "long", SessionType: session.TypeUser})
	if err != nil {
		store.Close()
		tb.Fatal(err)
	}
	return store, sess
}
