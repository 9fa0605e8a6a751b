package acp

import (
	"encoding/json"
	"runtime"
	"testing"
)

func TestUnstableDiagnosticsReport(t *testing.T) {
	r := newDesktopRig(t, nil)
	s := r.seed(t, "bug", r.dir, 1000, 1001)
	var out struct {
		Report struct {
			Level  string `json:"level"`
			System struct {
				OS string `json:"os"`
			} `json:"system"`
			Session struct {
				ID           string `json:"id"`
				MessageCount int    `json:"messageCount"`
			} `json:"session"`
			Export json.RawMessage `json:"export"`
		} `json:"report"`
	}
	mustUnmarshal(t, r.call(t, unstable+"diagnostics/get", map[string]any{"sessionId": s.ID}), &out)
	if out.Report.Level != "summary" || out.Report.Session.ID != s.ID || out.Report.Session.MessageCount != 2 ||
		out.Report.System.OS == "" || out.Report.Export != nil {
		t.Fatalf("summary report: %+v", out.Report)
	}
	if runtime.GOOS == "linux" && out.Report.System.OS != "linux" {
		t.Fatalf("os %q", out.Report.System.OS)
	}
	mustUnmarshal(t, r.call(t, unstable+"diagnostics/get", map[string]any{"sessionId": s.ID, "level": "full"}), &out)
	var exported struct {
		Conversation []any `json:"conversation"`
	}
	if err := json.Unmarshal(out.Report.Export, &exported); err != nil || len(exported.Conversation) != 2 {
		t.Fatalf("full report export: %v %s", err, out.Report.Export)
	}
	if code, _, _ := r.callErr(t, unstable+"diagnostics/get", map[string]any{"sessionId": "nope"}); code != CodeResourceNotFound {
		t.Fatalf("unknown session: %d", code)
	}
}
