package sqlite_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/session"
)

// Create's answer is the stored row, as a read of it gives it, in a file
// created at v17 and in one migrated from v11 (thread_id, the columns
// migrations added): Create builds all of it but the id from what it
// wrote and the columns' defaults.
func TestCreateReturnsTheStoredRow(t *testing.T) {
	ctx := context.Background()
	provider, limit, temp := "openai", 64_000, 0.5
	news := []session.NewSession{
		{WorkingDir: "/w"},
		{WorkingDir: "/w/p", Name: "Named", SessionType: session.TypeScheduled, GooseMode: "chat"},
		{WorkingDir: "/w", Name: "with model", ProviderName: &provider, ModelConfig: &model.Config{
			ModelName: "gpt-4o", ContextLimit: &limit, Temperature: &temp, RequestParams: map[string]any{"a": 1.5}}},
		{WorkingDir: "/w", Name: "", SessionType: session.TypeSubAgent},
	}
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	migrated := filepath.Join(t.TempDir(), "v11.db")
	seedDDLFile(t, rawDB(t, migrated), "schema_v11.sql", 11)
	now := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	for _, path := range []string{fresh, migrated} {
		st := openStore(t, path, func() time.Time { return now })
		for _, ns := range news {
			got, err := st.Create(ctx, ns)
			if err != nil {
				t.Fatalf("%s: Create(%+v): %v", filepath.Base(path), ns, err)
			}
			stored, err := st.Get(ctx, got.ID, false)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, stored) {
				t.Errorf("%s: Create(%+v)\n = %+v\nstored %+v", filepath.Base(path), ns, got, stored)
			}
		}
		st.Close()
	}
}
