package e2e

import (
	"slices"
	"strings"
	"testing"
)

// A client sets a session's title (session/set_title) and archives it
// (session/archive, session/unarchive), as ACP's unstable schema has them,
// through the official SDK client: the title is stored one-line and
// announced with a session_info_update before the answer; bad titles are
// -32602 and unknown sessions -32002; archiving closes the session on the
// connection and session/list's archived filter (exclude by default,
// include, only) shows it with archived on every listed session.
func TestClientSetTitleAndArchive(t *testing.T) {
	env := newAgentEnv(t)
	work := t.TempDir()
	r := runACP24(t, env, work, `{}`, "titles")
	var titleErrs, archiveErrs []int
	r.field(t, "titleErrors", &titleErrs)
	r.field(t, "archiveErrors", &archiveErrs)
	if !slices.Equal(titleErrs, []int{-32602, -32002, -32602}) {
		t.Errorf("set_title errors (empty, unknown session, too long) %v", titleErrs)
	}
	if !slices.Equal(archiveErrs, []int{-32002, -32002, -32602, -32002}) {
		t.Errorf("archive errors (unknown, unarchive unknown, bad filter, prompt after archive) %v", archiveErrs)
	}
	var listed []string
	r.field(t, "listed", &listed)
	want := []string{
		"a:false:Fix the flaky test b:false:New Chat", // before
		"b:false:New Chat",                            // archived: default
		"b:false:New Chat",                            // exclude
		"a:true:Fix the flaky test b:false:New Chat",  // include
		"a:true:Fix the flaky test",                   // only
		"a:false:Fix the flaky test b:false:New Chat", // unarchived
	}
	if strings.Join(listed, "\n") != strings.Join(want, "\n") {
		t.Errorf("session/list\n got %q\nwant %q", listed, want)
	}
}
