package recipe

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestResponseSchemaValidation(t *testing.T) {
	schema := []byte(`{"type":"object","required":["message"],"properties":{
		"message":{"type":"string"},
		"items":{"type":"array","items":{"type":"object","properties":{"n":{"type":"integer","minimum":1}}}},
		"type":{"type":"string","enum":["a","b"]}}}`)
	s, err := CompileSchema(schema)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ in, path, msg string }{
		{`{"message":"hi","items":[{"n":2}],"type":"a"}`, "", ""},
		{`{"other":1}`, "", "required: missing properties"},
		{`{"message":3}`, "/message", `type: 3 has type "integer", want "string"`},
		{`{"message":"x","items":[{"n":0}]}`, "/items/*/n", "minimum"},
		{`{"message":"x","type":"c"}`, "/type", "enum"},
	}
	for _, c := range cases {
		var v any
		if err := json.Unmarshal([]byte(c.in), &v); err != nil {
			t.Fatal(err)
		}
		err := s.Validate(v)
		if c.msg == "" {
			if err != nil {
				t.Errorf("%s: unexpected error %v", c.in, err)
			}
			continue
		}
		var se *SchemaError
		if !errors.As(err, &se) || se.InstancePath != c.path || !strings.Contains(se.Message, c.msg) {
			t.Errorf("%s: got %#v, want path %q and message containing %q", c.in, err, c.path, c.msg)
		}
	}
}

func TestCompileSchemaRejectsBadSchemas(t *testing.T) {
	for _, bad := range []string{`{"type":"invalid_type"}`, `{"type":12}`, `{"properties":{"a":{"type":["string","nope"]}}}`, `not json`} {
		if _, err := CompileSchema([]byte(bad)); err == nil {
			t.Errorf("CompileSchema(%s) accepted a bad schema", bad)
		}
	}
	// Data keywords may hold a "type" member that is not a type name.
	if _, err := CompileSchema([]byte(`{"type":"object","const":{"type":"whatever"},"default":{"type":1}}`)); err != nil {
		t.Errorf("const/default data rejected: %v", err)
	}
}
