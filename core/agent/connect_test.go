package agent

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension"
)

// A session started with ConnectInBackground is returned while a slow
// extension still starts; a model change meanwhile (Zed applies saved
// defaults right after session/new) does not save a half-connected
// extension list, and once the connect is done the whole list is stored.
func TestBackgroundConnectSavesTheWholeExtensionList(t *testing.T) {
	release := make(chan struct{})
	h := newHarnessWith(t, nil, func(o *Options) {
		o.Builtins["slow"] = func(ctx context.Context, env extension.Env) (extension.Server, error) {
			select {
			case <-release:
			case <-ctx.Done():
				return extension.Server{}, ctx.Err()
			}
			return extension.MCP(mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, nil)), nil
		}
	})
	sess, results, err := h.a.StartSession(context.Background(), StartOptions{
		WorkingDir: t.TempDir(), ConnectInBackground: true,
		Extensions: []config.ExtensionConfig{{Type: config.ExtensionBuiltin, Name: "tt"}, {Type: config.ExtensionBuiltin, Name: "slow"}},
	})
	if err != nil || results != nil {
		t.Fatalf("StartSession: results %v, err %v (want none yet)", results, err)
	}
	if err := h.a.Sessions().SetModel(context.Background(), sess.ID, "", "other-model"); err != nil {
		t.Fatal(err)
	}
	if stored, err := h.store.Get(context.Background(), sess.ID, false); err != nil {
		t.Fatal(err)
	} else if raw, ok := stored.ExtensionData[EnabledExtensionsKey]; ok {
		t.Fatalf("extension list saved while connecting: %s", raw)
	}
	close(release)
	res, err := h.a.Extensions().Results(context.Background(), sess.ID)
	if err != nil || len(res) != 2 || !res[0].Success || !res[1].Success {
		t.Fatalf("results %+v, err %v", res, err)
	}
	names := storedExtensions(t, h, sess.ID)
	slices.Sort(names) // in the order they finished connecting
	if len(names) != 2 || names[0] != "slow" || names[1] != "tt" {
		t.Fatalf("stored extensions %v, want slow and tt", names)
	}
}

func storedExtensions(t *testing.T, h *harness, id string) []string {
	t.Helper()
	sess, err := h.store.Get(context.Background(), id, false)
	if err != nil {
		t.Fatal(err)
	}
	raw, ok := sess.ExtensionData[EnabledExtensionsKey]
	if !ok {
		return nil
	}
	var st enabledExtensions
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range st.Extensions {
		names = append(names, c.Name)
	}
	return names
}
