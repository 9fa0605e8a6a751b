package acp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The _goose/unstable/* contract: testdata/unstable/acp-meta.json (method →
// request/response type) and acp-schema.json (every type, under $defs),
// verbatim from goose (see testdata/unstable/README.md). Goose Desktop parses
// every result with Zod schemas generated from the same file, so a response
// that fails here breaks a Desktop view.

const unstableSchemaURL = "mem://goose/acp-schema.json"

type unstableMethod struct {
	Method       string `json:"method"`
	RequestType  string `json:"requestType"`
	ResponseType string `json:"responseType"`
}

type unstableContract struct {
	methods  map[string]unstableMethod
	compiler *jsonschema.Compiler
	mu       sync.Mutex
	compiled map[string]*jsonschema.Schema
}

var (
	unstableOnce sync.Once
	theUnstable  *unstableContract
	unstableErr  error
)

func loadUnstable(t testing.TB) *unstableContract {
	t.Helper()
	unstableOnce.Do(func() { theUnstable, unstableErr = readUnstableContract() })
	if unstableErr != nil {
		t.Fatalf("loading the _goose/unstable contract: %v", unstableErr)
	}
	return theUnstable
}

func readUnstableContract() (*unstableContract, error) {
	dir := filepath.Join("testdata", "unstable")
	metaJSON, err := os.ReadFile(filepath.Join(dir, "acp-meta.json"))
	if err != nil {
		return nil, err
	}
	var meta struct {
		Methods       []unstableMethod `json:"methods"`
		AgentRequests []unstableMethod `json:"agentRequests"`
	}
	if err := json.Unmarshal(metaJSON, &meta); err != nil {
		return nil, fmt.Errorf("acp-meta.json: %w", err)
	}
	schemaJSON, err := os.ReadFile(filepath.Join(dir, "acp-schema.json"))
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, fmt.Errorf("acp-schema.json: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(unstableSchemaURL, doc); err != nil {
		return nil, err
	}
	u := &unstableContract{methods: map[string]unstableMethod{}, compiler: c, compiled: map[string]*jsonschema.Schema{}}
	for _, m := range meta.Methods {
		u.methods[m.Method] = m
	}
	return u, nil
}

// methodNames lists every client→agent method of acp-meta.json, sorted.
func (u *unstableContract) methodNames() []string {
	names := make([]string, 0, len(u.methods))
	for m := range u.methods {
		names = append(names, m)
	}
	sort.Strings(names)
	return names
}

func (u *unstableContract) schema(t testing.TB, typeName string) *jsonschema.Schema {
	t.Helper()
	u.mu.Lock()
	defer u.mu.Unlock()
	if s, ok := u.compiled[typeName]; ok {
		return s
	}
	s, err := u.compiler.Compile(unstableSchemaURL + "#/$defs/" + typeName)
	if err != nil {
		t.Fatalf("compiling $defs/%s: %v", typeName, err)
	}
	u.compiled[typeName] = s
	return s
}

// validateUnstableType fails t unless doc (JSON) is a valid typeName of
// acp-schema.json's $defs.
func validateUnstableType(t testing.TB, typeName string, doc []byte) {
	t.Helper()
	u := loadUnstable(t)
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", typeName, err, doc)
	}
	if err := u.schema(t, typeName).Validate(v); err != nil {
		t.Fatalf("%s does not validate against acp-schema.json:\n%s\n%v", typeName, doc, err)
	}
}

// validateUnstableResponse fails t unless result is a valid response of
// method, the responseType acp-meta.json names for it.
func validateUnstableResponse(t testing.TB, method string, result []byte) {
	t.Helper()
	m, ok := loadUnstable(t).methods[method]
	if !ok {
		t.Fatalf("%s is not a method of acp-meta.json", method)
	}
	validateUnstableType(t, m.ResponseType, result)
}

// validateUnstableRequest fails t unless params is a valid request of
// method: tests check their own requests so they send what Desktop sends.
func validateUnstableRequest(t testing.TB, method string, params []byte) {
	t.Helper()
	m, ok := loadUnstable(t).methods[method]
	if !ok {
		t.Fatalf("%s is not a method of acp-meta.json", method)
	}
	validateUnstableType(t, m.RequestType, params)
}

// rpcReply is one JSON-RPC answer as a test reads it.
type rpcReply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// callRaw sends one request over the NDJSON pipes and returns its answer,
// skipping notifications (session/update frames) in between.
func (c *lineClient) callRaw(t testing.TB, id int, method string, params any) rpcReply {
	t.Helper()
	p, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": json.RawMessage(p)})
	if _, err := c.in.Write(append(line, '\n')); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprint(id)
	for c.out.Scan() {
		var r rpcReply
		if err := json.Unmarshal(c.out.Bytes(), &r); err != nil {
			t.Fatalf("agent wrote a non-JSON line: %s", c.out.Text())
		}
		if string(r.ID) == want {
			return r
		}
		c.skipped = append(c.skipped, c.out.Text())
	}
	t.Fatalf("agent output ended before the answer to %s: %v", method, c.out.Err())
	return rpcReply{}
}

// callUnstable validates params against the method's request type, calls
// it, fails on an error answer and validates the result against the
// method's response type; it returns the result.
func (c *lineClient) callUnstable(t testing.TB, id int, method string, params any) json.RawMessage {
	t.Helper()
	p, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	validateUnstableRequest(t, method, p)
	r := c.callRaw(t, id, method, json.RawMessage(p))
	if r.Error != nil {
		t.Fatalf("%s answered error %d %s %s", method, r.Error.Code, r.Error.Message, r.Error.Data)
	}
	validateUnstableResponse(t, method, r.Result)
	return r.Result
}

// The helper itself: a wrong shape must fail, a right one pass.
func TestUnstableSchemaHelperRejectsWrongShapes(t *testing.T) {
	u := loadUnstable(t)
	if len(u.methods) != 112 {
		t.Fatalf("acp-meta.json lists %d methods, want 112", len(u.methods))
	}
	good := []byte(`{"config":{"GOOSE_PROVIDER":"openai"}}`)
	if err := u.schema(t, "ConfigReadAllResponse_unstable").Validate(mustJSONValue(t, good)); err != nil {
		t.Fatalf("a valid ConfigReadAllResponse was refused: %v", err)
	}
	for _, bad := range []string{`{}`, `{"config":[]}`, `[]`} {
		if err := u.schema(t, "ConfigReadAllResponse_unstable").Validate(mustJSONValue(t, []byte(bad))); err == nil {
			t.Errorf("%s was accepted as a ConfigReadAllResponse", bad)
		}
	}
}

func mustJSONValue(t testing.TB, b []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return v
}
