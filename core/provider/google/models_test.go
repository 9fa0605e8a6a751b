package google

import (
	"context"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func TestFetchModelsPages(t *testing.T) {
	srv, requests := rawServer(t,
		reply{body: `{"models":[{"name":"models/b"},{"name":"models/a"}],"nextPageToken":"tok/=+1"}`},
		reply{body: `{"models":[{"name":"tunedModels/c"},{"name":"d"}]}`})
	got, err := rawProvider(t, srv, "gemini-2.5-flash").FetchModels(context.Background())
	if err != nil || strings.Join(got, ",") != "a,b,d,tunedModels/c" {
		t.Fatalf("models = %v, %v", got, err)
	}
	var urls []string
	for _, r := range requests() {
		urls = append(urls, r.Method+" "+r.URL)
		if r.Header.Get("X-Goog-Api-Key") != testKey || r.Body != "" {
			t.Errorf("request %s key %q body %q", r.URL, r.Header.Get("X-Goog-Api-Key"), r.Body)
		}
	}
	if want := "GET /v1beta/models?pageSize=1000,GET /v1beta/models?pageSize=1000&pageToken=tok%2F%3D%2B1"; strings.Join(urls, ",") != want {
		t.Errorf("requests = %v, want %s", urls, want)
	}
}

func TestFetchModelsErrors(t *testing.T) {
	tests := []struct {
		name  string
		reply reply
		want  providertest.WantError
	}{
		{"denied", reply{status: 403, body: `{"error":{"code":403,"message":"denied ` + testKey + `"}}`},
			providertest.WantError{Kind: provider.KindAuth, Status: 403, Text: "Response: denied [REDACTED]"}},
		{"not JSON", reply{body: "nope"}, providertest.WantError{Kind: provider.KindServer, Text: "invalid character"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := rawServer(t, tt.reply)
			_, err := rawProvider(t, srv, "gemini-2.5-flash").FetchModels(context.Background())
			w := tt.want
			w.Provider, w.Secret = "google", testKey
			providertest.CheckError(t, err, w)
		})
	}
}
