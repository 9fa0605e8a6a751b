//go:build !windows

package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// frame is one JSON-RPC message as it crossed stdio.
type frame struct {
	fromClient bool
	raw        json.RawMessage
}

// update is the sessionUpdate kind of a session/update notification.
func (f frame) update() string {
	var m struct {
		Method string `json:"method"`
		Params struct {
			Update struct {
				Kind string `json:"sessionUpdate"`
			} `json:"update"`
		} `json:"params"`
	}
	_ = json.Unmarshal(f.raw, &m)
	if m.Method != "session/update" {
		return ""
	}
	return m.Params.Update.Kind
}

// frameRecorder is a bare ACP client on the binary's stdio: it writes each
// frame itself and reads the agent's one at a time, so the recorded order
// is the order on the wire.
type frameRecorder struct {
	t          *testing.T
	cmd        *exec.Cmd
	stdin      io.WriteCloser
	lines      chan []byte
	stderr     *lockedBuffer
	work       string
	sessionID  string
	permission string // the optionId session/request_permission is answered with
	nextID     int
	frames     []frame
	answers    map[int]json.RawMessage
}

func startFrameRecorder(t *testing.T, env *agentEnv, work string) *frameRecorder {
	t.Helper()
	r := &frameRecorder{t: t, lines: make(chan []byte, 256), stderr: &lockedBuffer{}, work: work, answers: map[int]json.RawMessage{}}
	r.cmd = exec.Command(binary)
	r.cmd.Env = env.environ()
	r.cmd.Dir = env.Root
	r.cmd.Stderr = r.stderr
	var err error
	if r.stdin, err = r.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := r.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			r.lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(r.lines)
	}()
	t.Cleanup(func() {
		if r.cmd.ProcessState == nil {
			_ = r.cmd.Process.Kill()
			_ = r.cmd.Wait()
		}
	})
	return r
}

func (r *frameRecorder) write(v any) {
	r.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		r.t.Fatal(err)
	}
	r.frames = append(r.frames, frame{fromClient: true, raw: b})
	if _, err := r.stdin.Write(append(b, '\n')); err != nil {
		r.t.Fatalf("writing %s: %v", b, err)
	}
}

// send writes a request and returns its id.
func (r *frameRecorder) send(method string, params any) int {
	r.t.Helper()
	id := r.nextID
	r.nextID++
	r.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return id
}

func (r *frameRecorder) notify(method string, params any) {
	r.t.Helper()
	r.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// request sends a request and reads frames until its answer.
func (r *frameRecorder) request(method string, params any) json.RawMessage {
	r.t.Helper()
	return r.await(r.send(method, params))
}

// await reads frames until the answer to request id.
func (r *frameRecorder) await(id int) json.RawMessage {
	r.t.Helper()
	r.waitFrame(fmt.Sprintf("the answer to request %d", id), func(frame) bool { _, ok := r.answers[id]; return ok })
	return r.answers[id]
}

// waitSeen is waitFrame unless a frame already read satisfies done.
func (r *frameRecorder) waitSeen(what string, done func(frame) bool) {
	r.t.Helper()
	for _, f := range r.frames {
		if !f.fromClient && done(f) {
			return
		}
	}
	r.waitFrame(what, done)
}

// waitFrame reads (and answers) agent frames until one satisfies done.
func (r *frameRecorder) waitFrame(what string, done func(frame) bool) {
	r.t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		select {
		case line, ok := <-r.lines:
			if !ok {
				r.t.Fatalf("stdout closed waiting for %s\nstderr:\n%s", what, r.stderr.String())
			}
			f := r.read(line)
			if done(f) {
				return
			}
		case <-timeout:
			r.t.Fatalf("timed out waiting for %s\nstderr:\n%s", what, r.stderr.String())
		}
	}
}

// read records one agent frame and answers it when it is a request.
func (r *frameRecorder) read(line []byte) frame {
	r.t.Helper()
	f := frame{raw: json.RawMessage(line)}
	r.frames = append(r.frames, f)
	var m struct {
		ID     *json.RawMessage `json:"id"`
		Method string           `json:"method"`
		Params json.RawMessage  `json:"params"`
		Result json.RawMessage  `json:"result"`
		Error  json.RawMessage  `json:"error"`
	}
	if err := json.Unmarshal(line, &m); err != nil {
		r.t.Fatalf("stdout carried a non-JSON line: %q", line)
	}
	switch {
	case m.Method == "" && m.ID != nil: // an answer to one of ours
		var id int
		_ = json.Unmarshal(*m.ID, &id)
		if m.Error != nil {
			r.answers[id] = m.Error
		} else {
			r.answers[id] = m.Result
		}
	case m.Method != "" && m.ID != nil:
		result, rpcErr := r.answer(m.Method, m.Params)
		reply := map[string]any{"jsonrpc": "2.0", "id": *m.ID}
		if rpcErr != nil {
			reply["error"] = rpcErr
		} else {
			reply["result"] = result
		}
		r.write(reply)
	}
	return f
}

// answer is the editor's side of an agent request: its buffers are the
// files on disk (a missing file is Zed's -32002), writes are saved, and a
// permission request gets r.permission.
func (r *frameRecorder) answer(method string, params json.RawMessage) (any, any) {
	var p struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	}
	_ = json.Unmarshal(params, &p)
	switch method {
	case "session/request_permission":
		return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": r.permission}}, nil
	case "fs/read_text_file":
		b, err := os.ReadFile(p.Path)
		if err != nil {
			return nil, map[string]any{"code": -32002, "message": "Resource not found", "data": map[string]any{"uri": p.Path}}
		}
		return map[string]any{"content": string(b)}, nil
	case "fs/write_text_file":
		if err := os.WriteFile(p.Path, []byte(p.Content), 0o644); err != nil {
			return nil, map[string]any{"code": -32603, "message": err.Error()}
		}
		return nil, nil
	}
	return nil, map[string]any{"code": -32601, "message": "Method not found"}
}

// close ends stdin and records what the agent still sends before it exits.
func (r *frameRecorder) close() {
	r.t.Helper()
	r.stdin.Close()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case line, ok := <-r.lines:
			if !ok {
				_ = r.cmd.Wait()
				return
			}
			r.read(line)
		case <-timeout:
			r.t.Fatalf("goose-acp did not exit after stdin closed\nstderr:\n%s", r.stderr.String())
		}
	}
}

var (
	uuidRE = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	cmplRE = regexp.MustCompile(`chatcmpl-\d+`)
	timeRE = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`)
)

// normalised renders the frames one a line with what varies replaced.
// ids numbers the UUIDs and completion ids it has seen, across the runs
// of one golden, so an id replayed by a later process keeps its name.
func (r *frameRecorder) normalised(root, work string, ids *frameIDs) []string {
	uuids, cmpls := ids.uuids, ids.cmpls
	var out []string
	for _, f := range canonicalOrder(r.frames) {
		var v any
		if err := json.Unmarshal(f.raw, &v); err != nil {
			r.t.Fatal(err)
		}
		v = normaliseUsage(v)
		normaliseCreated(v)
		s := compactJSON(r.t, v)
		s = strings.NewReplacer(jsonText(binary), "$BINARY", jsonText(work), "$WORK", jsonText(root), "$ROOT").Replace(s)
		if r.sessionID != "" {
			s = strings.ReplaceAll(s, r.sessionID, "$SESSION")
		}
		s = uuidRE.ReplaceAllStringFunc(s, func(u string) string {
			if n, ok := uuids[u]; ok {
				return n
			}
			uuids[u] = fmt.Sprintf("$UUID%d", len(uuids)+1)
			return uuids[u]
		})
		s = timeRE.ReplaceAllString(s, "$$TIME")
		s = cmplRE.ReplaceAllStringFunc(s, func(id string) string {
			if n, ok := cmpls[id]; ok {
				return n
			}
			cmpls[id] = fmt.Sprintf("chatcmpl-$%d", len(cmpls)+1)
			return cmpls[id]
		})
		dir := "< "
		if f.fromClient {
			dir = "> "
		}
		out = append(out, dir+s)
	}
	return out
}

// frameIDs are the names normalised gave to ids so far.
type frameIDs struct{ uuids, cmpls map[string]string }

func newFrameIDs() *frameIDs {
	return &frameIDs{uuids: map[string]string{}, cmpls: map[string]string{}}
}

// normaliseUsage replaces usage_update's counts and cost, which follow the
// tokenizer's estimate of texts holding the temporary paths.
func normaliseUsage(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	params, _ := m["params"].(map[string]any)
	update, _ := params["update"].(map[string]any)
	if update == nil || update["sessionUpdate"] != "usage_update" {
		return v
	}
	for _, k := range []string{"used"} {
		if _, ok := update[k]; ok {
			update[k] = "$TOKENS"
		}
	}
	if _, ok := update["cost"]; ok {
		update["cost"] = "$COST"
	}
	return v
}

// normaliseCreated replaces the Unix times goose stamps its messages with
// (_meta.goose.created).
func normaliseCreated(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if _, isNum := e.(float64); isNum && k == "created" {
				x[k] = "$CREATED"
				continue
			}
			normaliseCreated(e)
		}
	case []any:
		for _, e := range x {
			normaliseCreated(e)
		}
	}
}

// canonicalOrder drops what the agent's own timing decides and the golden
// does not pin: a turn's closing usage_update is left out by the agent
// when it repeats the turn's last one, which depends on the token counts;
// a usage_update equal, counts aside, to the previous one since the last
// session/prompt is dropped. Nothing is reordered.
func canonicalOrder(frames []frame) []frame {
	var out []frame
	lastUsage := ""
	for _, f := range frames {
		var info struct {
			Method string `json:"method"`
			Params struct {
				Update map[string]any `json:"update"`
			} `json:"params"`
		}
		_ = json.Unmarshal(f.raw, &info)
		if f.fromClient && info.Method == "session/prompt" {
			lastUsage = ""
		}
		if u := info.Params.Update; !f.fromClient && u["sessionUpdate"] == "usage_update" {
			key := fmt.Sprint(u["size"], u["cost"] != nil)
			if key == lastUsage {
				continue
			}
			lastUsage = key
		}
		out = append(out, f)
	}
	return out
}
