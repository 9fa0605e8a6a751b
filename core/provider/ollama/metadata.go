package ollama

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/goose-acp/goose-acp/core/provider"
)

// Goose's ollama defaults.
const (
	Name           = "ollama"
	DefaultHost    = "localhost"
	DefaultPort    = 11434
	DefaultTimeout = 600 // seconds, OLLAMA_TIMEOUT
	DefaultModel   = "qwen3"
	DocURL         = "https://ollama.com/library"
)

// KnownModels are the models goose lists for ollama.
var KnownModels = []string{"qwen3", "qwen3-vl", "qwen3-coder:30b", "qwen3-coder:480b-cloud"}

// Metadata is goose's ollama provider metadata.
func Metadata() provider.Metadata {
	models := make([]provider.ModelInfo, len(KnownModels))
	for i, m := range KnownModels {
		models[i] = provider.ModelInfo{Name: m, ContextLimit: 128_000}
	}
	host, timeout := DefaultHost, strconv.Itoa(DefaultTimeout)
	return provider.Metadata{
		Name:         Name,
		DisplayName:  "Ollama",
		Description:  "Local open source models",
		DefaultModel: DefaultModel,
		KnownModels:  models,
		ModelDocLink: DocURL,
		ConfigKeys: []provider.ConfigKey{
			{Name: "OLLAMA_HOST", Required: true, Default: &host},
			{Name: "OLLAMA_TIMEOUT", Default: &timeout},
		},
	}
}

// HostURL turns an OLLAMA_HOST value into a base URL as goose does: a bare
// host gets http://, and a bare localhost or 127.0.0.1 without a port
// gets Ollama's default port 11434.
func HostURL(host string) (string, error) {
	host = strings.TrimSpace(host)
	if host == "" {
		host = DefaultHost
	}
	hasScheme := strings.HasPrefix(host, "http://") || strings.HasPrefix(host, "https://")
	base := host
	if !hasScheme {
		base = "http://" + host
	}
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("ollama: invalid OLLAMA_HOST %q", host)
	}
	localhost := host == "localhost" || host == "127.0.0.1"
	if !hasScheme && u.Port() == "" && !strings.Contains(host, ":") && localhost {
		u.Host = u.Hostname() + ":" + strconv.Itoa(DefaultPort)
	}
	return strings.TrimSuffix(u.String(), "/"), nil
}
