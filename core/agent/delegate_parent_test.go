package agent

import (
	"testing"

	"github.com/goose-acp/goose-acp/core/session"
)

// TestParentSessionIDReadsColumnThenLegacyKey: the parent_session_id
// column wins; children delegated before it existed still name their
// parent through extension_data "subagent.v0".
func TestParentSessionIDReadsColumnThenLegacyKey(t *testing.T) {
	col := "20260101_1"
	legacy := session.ExtensionData{SubagentParentKey: []byte(`{"parent_session_id":"20250101_9"}`)}
	for _, tc := range []struct {
		name string
		s    session.Session
		want string
	}{
		{"column", session.Session{ParentSessionID: &col}, col},
		{"column over legacy key", session.Session{ParentSessionID: &col, ExtensionData: legacy}, col},
		{"legacy key", session.Session{ExtensionData: legacy}, "20250101_9"},
		{"none", session.Session{ExtensionData: session.ExtensionData{}}, ""},
	} {
		if got := ParentSessionID(tc.s); got != tc.want {
			t.Errorf("%s: ParentSessionID = %q, want %q", tc.name, got, tc.want)
		}
	}
}
