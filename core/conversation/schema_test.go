package conversation

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/goose-acp/goose-acp/internal/openapischema"
)

// Verbatim copies of the goosed OpenAPI documents from the shared reference
// (TestOpenAPICopiesAreGoosesDocuments pins them). 1.33 is the current
// wire format; 1.24 still has the "reasoning" variant.
const (
	openAPIPath    = "testdata/openapi/goosed-openapi-1.33.0.json"
	openAPI124Path = "testdata/openapi/goosed-openapi-1.24.0.json"
)

type schemaSet struct {
	c   *jsonschema.Compiler
	url string
	mu  sync.Mutex
	got map[string]*jsonschema.Schema
}

var (
	schemasOnce sync.Once
	schemas133  *schemaSet
	schemas124  *schemaSet
	schemasErr  error
)

// componentSchema compiles #/components/schemas/<name> of the 1.33 (or
// 1.24) spec. OpenAPI 3.0's "nullable" is rewritten to JSON Schema first.
func componentSchema(t *testing.T, v124 bool, name string) *jsonschema.Schema {
	t.Helper()
	schemasOnce.Do(func() {
		schemas133, schemasErr = loadSchemaSet(openAPIPath, "mem://goosed/1.33/openapi.json")
		if schemasErr == nil {
			schemas124, schemasErr = loadSchemaSet(openAPI124Path, "mem://goosed/1.24/openapi.json")
		}
	})
	if schemasErr != nil {
		t.Fatalf("load OpenAPI schemas: %v", schemasErr)
	}
	s := schemas133
	if v124 {
		s = schemas124
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sch, ok := s.got[name]; ok {
		return sch
	}
	sch, err := s.c.Compile(s.url + "#/components/schemas/" + name)
	if err != nil {
		t.Fatalf("compile %s: %v", name, err)
	}
	s.got[name] = sch
	return sch
}

func loadSchemaSet(path, url string) (*schemaSet, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(url, openapischema.Nullable(doc)); err != nil {
		return nil, err
	}
	return &schemaSet{c: c, url: url, got: map[string]*jsonschema.Schema{}}, nil
}

func validate(t *testing.T, sch *jsonschema.Schema, raw []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("decode instance: %v", err)
	}
	return sch.Validate(inst)
}

func TestNullableRewriteKeepsSchemasStrict(t *testing.T) {
	// A nullable id accepts null; a missing required field still fails.
	msg := componentSchema(t, false, "Message")
	if err := validate(t, msg, []byte(`{"id":null,"role":"user","created":1,"content":[],"metadata":{"userVisible":true,"agentVisible":true}}`)); err != nil {
		t.Fatalf("null id rejected: %v", err)
	}
	if err := validate(t, msg, []byte(`{"id":null,"role":"user","created":1,"content":[]}`)); err == nil {
		t.Fatal("message without metadata accepted")
	}
	if err := validate(t, msg, []byte(`{"id":null,"role":"system","created":1,"content":[],"metadata":{"userVisible":true,"agentVisible":true}}`)); err == nil {
		t.Fatal("unknown role accepted")
	}
}

// The copies are goose's published OpenAPI documents (goose-server's
// openapi.json of 1.33.0 and 1.24.0), byte for byte: a schema edited here
// would let the tests above agree with themselves.
// Tests read nothing outside the repository, so the copies are pinned by
// their digest and version rather than compared with the reference.
func TestOpenAPICopiesAreGoosesDocuments(t *testing.T) {
	for path, want := range map[string]struct{ sha256, version string }{
		openAPIPath:    {"bc9b06ba5bcc0937d4742213cf64dd5c1cdea96cedb66f9500aee21bc65756a0", "1.33.0"},
		openAPI124Path: {"4117c71f3fe5669a0f909a9818134d32534238d9b1acd28c26758d6fe9de7424", "1.24.0"},
	} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != want.sha256 {
			t.Errorf("%s is not goose's document any more (sha256 %x); copy the reference again", path, sum)
		}
		var doc struct {
			Info struct{ Title, Version string }
		}
		if err := json.Unmarshal(b, &doc); err != nil || doc.Info.Title != "goose-server" || doc.Info.Version != want.version {
			t.Errorf("%s: info %+v (%v), want goose-server %s", path, doc.Info, err, want.version)
		}
	}
}
