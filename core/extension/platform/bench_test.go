package platform

import (
	"context"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/memory"
	"github.com/goose-acp/goose-acp/developer"
)

// BenchmarkSessionServers is a new session's in-process extensions: a
// fresh Manager connects every platform extension and the developer
// builtin (as session/new does), lists the tools once and closes.
func BenchmarkSessionServers(b *testing.B) {
	ctx := context.Background()
	clock := func() time.Time { return time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC) }
	store := memory.New(clock)
	home, wd := b.TempDir(), b.TempDir()
	deps := Deps{Store: store, Clock: clock, Getenv: func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}, Home: home, ConfigDir: home}
	builtins := map[string]extension.BuiltinFactory{"developer": func(_ context.Context, env extension.Env) (extension.Server, error) {
		return extension.Direct(developer.NewDirect(developer.Options{Surface: developer.Editor, WorkingDir: env.WorkingDir, Logger: env.Logger, Config: env.Config})), nil
	}}
	cfgs := []config.ExtensionConfig{{Type: config.ExtensionBuiltin, Name: "developer"}}
	for _, k := range Known() {
		cfgs = append(cfgs, config.ExtensionConfig{Type: config.ExtensionPlatform, Name: k.Name})
	}
	b.ReportAllocs()
	for b.Loop() {
		sess, err := store.Create(ctx, session.NewSession{WorkingDir: wd, SessionType: session.TypeUser})
		if err != nil {
			b.Fatal(err)
		}
		m := extension.New(extension.Options{SessionID: sess.ID, WorkingDir: wd, Platforms: Defaults(deps), Builtins: builtins})
		for _, r := range m.AddAll(ctx, cfgs) {
			if !r.Success {
				b.Fatal(r.Name, r.Error)
			}
		}
		if n := len(m.Tools(ctx)); n < 20 {
			b.Fatalf("%d tools", n)
		}
		_ = m.Close()
	}
}
