package configureui

import (
	"reflect"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/setup"
)

// configure asks for the API key (the first secret), host and endpoint
// settings, and required settings without a default — nothing else.
func TestPromptedFields(t *testing.T) {
	def := func(v string) *string { return &v }
	key := func(k provider.ConfigKey) setup.Field { return setup.Field{ConfigKey: k} }
	fields := []setup.Field{
		key(provider.ConfigKey{Name: "OPENAI_API_KEY", Secret: true, Required: true}),
		key(provider.ConfigKey{Name: "OPENAI_HOST", Default: def("https://api.openai.com")}),
		key(provider.ConfigKey{Name: "OPENAI_BASE_PATH", Default: def("v1/chat/completions")}),
		key(provider.ConfigKey{Name: "OPENAI_ORGANIZATION"}),
		key(provider.ConfigKey{Name: "OPENAI_SECOND_SECRET", Secret: true}),
		key(provider.ConfigKey{Name: "AZURE_OPENAI_ENDPOINT", Required: true}),
		key(provider.ConfigKey{Name: "LITELLM_BASE_URL"}),
		key(provider.ConfigKey{Name: "DEPLOYMENT", Required: true}),
		key(provider.ConfigKey{Name: "TIMEOUT", Required: true, Default: def("600")}),
	}
	var got []string
	for _, f := range promptedFields(fields) {
		got = append(got, f.Name)
	}
	want := []string{"OPENAI_API_KEY", "OPENAI_HOST", "AZURE_OPENAI_ENDPOINT", "LITELLM_BASE_URL", "DEPLOYMENT"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("prompted %v, want %v", got, want)
	}
}
