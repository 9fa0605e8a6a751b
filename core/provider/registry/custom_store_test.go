package registry

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

type memSecrets struct {
	mu sync.Mutex
	m  map[string]any
}

func (s *memSecrets) Get(k string) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[k]
	if !ok {
		return nil, errors.New("no such secret")
	}
	return v, nil
}
func (s *memSecrets) Set(k string, v any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[k] = v
	return nil
}
func (s *memSecrets) Delete(k string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, k)
	return nil
}

func TestCustomStoreLifecycle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "custom_providers")
	sec := &memSecrets{m: map[string]any{}}
	st := NewCustomStore(dir, sec)
	in := CustomInput{Engine: "openai_compatible", DisplayName: "My Host", APIURL: "https://h.example/v1", APIKey: "k1", Models: []string{"m1", "m2"}}
	cp, err := st.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	if cp.Name != "custom_my_host" || cp.APIKeyEnv != "CUSTOM_MY_HOST_API_KEY" || sec.m["CUSTOM_MY_HOST_API_KEY"] != "k1" {
		t.Fatalf("%+v %v", cp, sec.m)
	}
	// The file is what the registry loads.
	loaded, errs := LoadCustomProviders(dir)
	if len(errs) != 0 || len(loaded) != 1 || loaded[0].Engine != EngineOpenAI || loaded[0].Models[1].ContextLimit != DefaultCustomContextLimit {
		t.Fatalf("%+v %v", loaded, errs)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "custom_my_host.json"))
	if !strings.Contains(string(b), "\n  \"name\": \"custom_my_host\",\n") || !strings.Contains(string(b), `"description": "Custom My Host provider"`) {
		t.Fatalf("file:\n%s", b)
	}
	// A second one with the same name gets _1.
	second, err := st.Create(in)
	if err != nil || second.Name != "custom_my_host_1" {
		t.Fatalf("%v %s", err, second.Name)
	}
	in.DisplayName, in.APIKey, in.Engine = "Renamed", "", "anthropic"
	up, err := st.Update(cp.Name, in)
	if err != nil || up.DisplayName != "Renamed" || up.Engine != EngineAnthropic || *up.Description != "Custom My Host provider" {
		t.Fatalf("%+v %v", up, err)
	}
	if sec.m["CUSTOM_MY_HOST_API_KEY"] != "k1" {
		t.Fatal("an update without a key dropped the key")
	}
	if !st.HasKey(up) || st.HasKey(CustomProvider{Name: "other", APIKeyEnv: "OTHER_API_KEY"}) {
		t.Fatal("HasKey does not read the secret store")
	}
	if got := st.Names(); !got["custom_my_host"] || !got["custom_my_host_1"] || len(got) != 2 {
		t.Fatalf("names %v", got)
	}
	if err := st.Remove(cp.Name); err != nil {
		t.Fatal(err)
	}
	if _, ok := sec.m["CUSTOM_MY_HOST_API_KEY"]; ok {
		t.Fatal("key kept after remove")
	}
	if _, err := st.Get(cp.Name); !errors.Is(err, ErrCustomNotFound) {
		t.Fatalf("after remove: %v", err)
	}
}

func TestCustomStoreRejects(t *testing.T) {
	st := NewCustomStore(t.TempDir(), &memSecrets{m: map[string]any{}})
	if _, err := st.Create(CustomInput{Engine: "grpc", DisplayName: "x"}); !errors.Is(err, ErrInvalidEngine) || err.Error() != "Invalid provider type: grpc" {
		t.Fatal(err)
	}
	for _, id := range []string{"", ".", "..", "a/b", `a\b`, "missing"} {
		if _, err := st.Get(id); !errors.Is(err, ErrCustomNotFound) {
			t.Errorf("%q: %v", id, err)
		}
	}
}
