package registry

import (
	"errors"
	"testing"

	"github.com/goose-acp/goose-acp/core/errkind"
)

func TestCustomInputNormalize(t *testing.T) {
	yes, no := true, false
	good := CustomInput{Engine: " OpenAI_Compatible ", DisplayName: " My LLM ", APIURL: " https://llm.example/v1 ",
		APIKey: " k ", Models: []string{" a ", "", "b"}, Headers: map[string]string{" X-Team ": " core ", "": "dropped"}, RequiresAuth: &yes}
	in, err := good.Normalize(true)
	if err != nil {
		t.Fatal(err)
	}
	if in.Engine != "openai_compatible" || in.DisplayName != "My LLM" || in.APIURL != "https://llm.example/v1" || in.APIKey != "k" ||
		len(in.Models) != 2 || in.Models[0] != "a" || len(in.Headers) != 1 || in.Headers["X-Team"] != "core" {
		t.Errorf("normalized: %+v", in)
	}
	for _, c := range []struct {
		name   string
		change func(*CustomInput)
		key    bool
		want   string
	}{
		{"engine", func(c *CustomInput) { c.Engine = "bedrock" }, true, "Unsupported custom provider engine: bedrock"},
		{"name", func(c *CustomInput) { c.DisplayName = " " }, true, "displayName cannot be empty"},
		{"url", func(c *CustomInput) { c.APIURL = "llm.example" }, true, "apiUrl must be a valid URL"},
		{"scheme", func(c *CustomInput) { c.APIURL = "ftp://llm.example" }, true, "apiUrl must use HTTP or HTTPS"},
		{"key on create", func(c *CustomInput) { c.APIKey = " " }, true, "apiKey cannot be empty"},
		{"models", func(c *CustomInput) { c.Models = []string{" "} }, false, "models cannot be empty"},
		{"header name", func(c *CustomInput) { c.Headers = map[string]string{"X Team": "v"} }, false, "Invalid header name: X Team"},
		{"header value", func(c *CustomInput) { c.Headers = map[string]string{"X-Team": "a\nb"} }, false, "Invalid header value for: X-Team"},
	} {
		in := good
		in.Models = append([]string(nil), good.Models...)
		c.change(&in)
		_, err := in.Normalize(c.key)
		if !errors.Is(err, ErrInvalidCustom) || err.Error() != ErrInvalidCustom.Error()+": "+c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	noAuth := good
	noAuth.APIKey, noAuth.RequiresAuth = "", &no
	if _, err := noAuth.Normalize(true); err != nil {
		t.Errorf("a provider without auth needs no key: %v", err)
	}
	update := good
	update.APIKey = ""
	if _, err := update.Normalize(false); err != nil {
		t.Errorf("an update may keep the stored key: %v", err)
	}
}

// A refused custom provider is Invalid with a detail a face shows as it is.
func TestInvalidCustomDetail(t *testing.T) {
	_, err := CustomInput{Engine: "nope"}.Normalize(false)
	if !errors.Is(err, ErrInvalidCustom) || errkind.Of(err) != errkind.Invalid {
		t.Fatalf("%v: kind %v", err, errkind.Of(err))
	}
	if d := errkind.Detail(err); d == "" || d == err.Error() || "invalid custom provider: "+d != err.Error() {
		t.Errorf("detail %q of %q", d, err.Error())
	}
}
