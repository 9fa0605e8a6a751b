package e2e

import (
	"net"
	"net/http"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// startPlainGoosed runs `goose-acp agent` over plain HTTP (GOOSE_TLS=false) and
// returns its base URL once /status answers.
func startPlainGoosed(t *testing.T, env *agentEnv, secret string) string {
	t.Helper()
	addr := freeAddr(t)
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command(binary, "agent")
	cmd.Env = append(env.environ(), "GOOSE_PORT="+port, "GOOSE_TLS=false", "GOOSE_SERVER__SECRET_KEY="+secret)
	cmd.Dir = env.Root
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	base := "http://" + addr
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(base + "/status")
		if err == nil {
			resp.Body.Close()
			return base
		}
		select {
		case err := <-exited:
			t.Fatalf("goose-acp agent exited: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("goose-acp agent never answered /status: %v\n%s", err, stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestHTTPCustomProviderReachesRegistry: a provider created through
// /config/custom-providers is listed by /config/providers as Custom, with
// its models, by the real provider registry.
func TestHTTPCustomProviderReachesRegistry(t *testing.T) {
	env := newAgentEnv(t)
	const secret = "custom-secret"
	base := startPlainGoosed(t, env, secret)
	body := `{"engine":"openai_compatible","display_name":"My LLM","api_url":"` + env.LLM.URL + `/v1","api_key":"sk-custom","models":["m1","m2"]}`
	var created struct {
		ProviderName string `json:"provider_name"`
	}
	if code := httpCall(t, "POST", base+"/config/custom-providers", secret, body, &created); code != 200 || created.ProviderName != "custom_my_llm" {
		t.Fatalf("create: %d %+v", code, created)
	}
	var provs []struct {
		Name         string `json:"name"`
		IsConfigured bool   `json:"is_configured"`
		ProviderType string `json:"provider_type"`
		Metadata     struct {
			DefaultModel string `json:"default_model"`
		} `json:"metadata"`
	}
	httpCall(t, "GET", base+"/config/providers", secret, "", &provs)
	for _, p := range provs {
		if p.Name == "custom_my_llm" {
			if p.ProviderType != "Custom" || p.Metadata.DefaultModel != "m1" || !p.IsConfigured {
				t.Fatalf("custom provider listed as %+v", p)
			}
			return
		}
	}
	t.Fatalf("custom_my_llm not in /config/providers: %+v", provs)
}
