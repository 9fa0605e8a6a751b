package e2e

import (
	"regexp"
	"slices"
	"testing"
)

// TestDeletedIDsNeverReusedWithTheSDK: the official SDK client (zod on
// every frame) starts goose-acp as goose's registry entry and editor
// set-ups do (`goose-acp acp`), deletes its newest session twice and
// starts another; a restarted plain `goose-acp` does it again. Every id is
// goose's YYYYMMDD_N and none is handed out twice (goose gives the
// deleted newest id to the next session).
func TestDeletedIDsNeverReusedWithTheSDK(t *testing.T) {
	env := newAgentEnv(t)
	work := env.Root
	idForm := regexp.MustCompile(`^\d{8}_\d+$`)
	var seen []string
	var kept []string
	for i, args := range []string{`["acp"]`, `[]`} {
		r := runACP24With(t, env, work, `{}`, []string{"ARGS=" + args}, "deleteids")
		var ids, listed []string
		var loadCode int
		r.field(t, "ids", &ids)
		r.field(t, "listedAfterDelete", &listed)
		r.field(t, "deletedLoad", &loadCode)
		if len(ids) != 3 {
			t.Fatalf("run %d (argv %s): ids %v", i, args, ids)
		}
		for _, id := range ids {
			if !idForm.MatchString(id) {
				t.Errorf("run %d: session id %q is not goose's YYYYMMDD_N", i, id)
			}
			if slices.Contains(seen, id) {
				t.Errorf("run %d (argv %s): session/new handed out %s again (seen %v)", i, args, id, seen)
			}
			seen = append(seen, id)
		}
		kept = append(kept, ids[2])
		slices.Sort(listed)
		want := slices.Clone(kept)
		slices.Sort(want)
		if !slices.Equal(listed, want) {
			t.Errorf("run %d: session/list after the deletes = %v, want %v", i, listed, want)
		}
		if loadCode != -32002 {
			t.Errorf("run %d: session/load of a deleted id answered code %d, want -32002", i, loadCode)
		}
	}
}
