package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/goose-acp/goose-acp/core/schedule"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/internal/openapischema"
)

const specURL = "mem://goosed/openapi.json"

// contract validates responses against testdata/goosed-openapi.json (1.33).
type contract struct {
	spec map[string]any
	c    *jsonschema.Compiler
	mu   sync.Mutex
	n    int
	seen map[string]bool
}

var (
	contractOnce sync.Once
	theContract  *contract
	contractErr  error
)

func loadContract(t *testing.T) *contract {
	t.Helper()
	contractOnce.Do(func() {
		b, err := os.ReadFile(filepath.Join("testdata", "goosed-openapi.json"))
		if err != nil {
			contractErr = err
			return
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			contractErr = err
			return
		}
		doc = openapischema.Nullable(doc)
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		if err := c.AddResource(specURL, doc); err != nil {
			contractErr = err
			return
		}
		theContract = &contract{spec: doc.(map[string]any), c: c, seen: map[string]bool{}}
	})
	if contractErr != nil {
		t.Fatalf("loading the OpenAPI contract: %v", contractErr)
	}
	return theContract
}

// absRefs makes "#/…" refs point into the spec resource.
func absRefs(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = absRefs(x[i])
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, val := range x {
			if s, ok := val.(string); ok && k == "$ref" && strings.HasPrefix(s, "#/") {
				out[k] = specURL + s
				continue
			}
			out[k] = absRefs(val)
		}
		return out
	}
	return v
}

func (ct *contract) schema(t *testing.T, raw any) *jsonschema.Schema {
	t.Helper()
	ct.mu.Lock()
	defer ct.mu.Unlock()
	ct.n++
	url := fmt.Sprintf("mem://goosed/inline/%d.json", ct.n)
	if err := ct.c.AddResource(url, absRefs(raw)); err != nil {
		t.Fatal(err)
	}
	sch, err := ct.c.Compile(url)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return sch
}

// componentSchema compiles #/components/schemas/<name>.
func (ct *contract) componentSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	return ct.schema(t, map[string]any{"$ref": "#/components/schemas/" + name})
}

// check validates one response of operation method+pattern.
func (ct *contract) check(t *testing.T, method, pattern string, status int, header http.Header, body []byte) {
	t.Helper()
	ct.mu.Lock()
	ct.seen[method+" "+pattern] = true
	ct.mu.Unlock()
	paths := ct.spec["paths"].(map[string]any)
	item, ok := paths[pattern].(map[string]any)
	if !ok {
		t.Fatalf("%s %s is not in the spec", method, pattern)
	}
	op, ok := item[strings.ToLower(method)].(map[string]any)
	if !ok {
		t.Fatalf("%s %s is not in the spec", method, pattern)
	}
	responses, _ := op["responses"].(map[string]any)
	resp, ok := responses[strconv.Itoa(status)].(map[string]any)
	if !ok {
		if (len(responses) == 0 && status == http.StatusOK) || specGaps[method+" "+pattern+" "+strconv.Itoa(status)] {
			return
		}
		t.Fatalf("%s %s answered %d, not one of the spec's %v (body %s)", method, pattern, status, keys(responses), body)
	}
	if len(body) == 0 {
		return // goosed answers several of these with an empty body
	}
	mt, _, _ := mime.ParseMediaType(header.Get("Content-Type"))
	content, _ := resp["content"].(map[string]any)
	if mt != "application/json" {
		if _, ok := content[mt]; !ok && len(content) > 0 && mt != "text/event-stream" {
			t.Fatalf("%s %s: content type %q, spec has %v", method, pattern, mt, keys(content))
		}
		return
	}
	media, ok := content["application/json"].(map[string]any)
	if !ok {
		// The spec says text/plain where goosed writes a JSON string.
		var s string
		if json.Unmarshal(body, &s) != nil && status < 300 {
			t.Fatalf("%s %s: JSON body %s where the spec has %v", method, pattern, body, keys(content))
		}
		return
	}
	sch := ct.schema(t, media["schema"])
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("%s %s: body is not JSON: %s", method, pattern, body)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("%s %s (%d): body does not match the spec: %v\n%s", method, pattern, status, err, body)
	}
}

// specGaps are statuses goosed 1.33's code answers that its spec does not
// list.
var specGaps = map[string]bool{
	"POST /agent/resume 404":       true,
	"POST /schedule/{id}/kill 400": true,
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// validateEvent checks one SSE payload against MessageEvent.
func (ct *contract) validateEvent(t *testing.T, data string) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(data))
	if err != nil {
		t.Fatalf("event %q: %v", data, err)
	}
	if err := ct.componentSchema(t, "MessageEvent").Validate(inst); err != nil {
		t.Fatalf("event does not match MessageEvent: %v\n%s", err, data)
	}
}

// testRunner runs scheduled recipes by creating a scheduled session.
type testRunner struct{ store session.Store }

func (r testRunner) RunRecipe(ctx context.Context, job schedule.Job, _ string) (string, error) {
	s, err := r.store.Create(ctx, session.NewSession{WorkingDir: "/tmp", Name: schedule.SessionName(job.ID), SessionType: session.TypeScheduled})
	if err != nil {
		return "", err
	}
	id := job.ID
	return s.ID, r.store.Update(ctx, s.ID, session.Update{ScheduleID: &id})
}
