package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
	"github.com/goose-acp/goose-acp/internal/npmtest"
)

// desktopReference is Goose Desktop 1.5x's ACP contract (acp-meta.json,
// acp-schema.json), kept in the repository.
const desktopReference = desktop15xSchema

// TestDesktopSDKOverWebSocket runs e2e/desktop/harness.mjs: goose-acp serve
// started and driven as Goose Desktop 1.54 does, through
// @agentclientprotocol/sdk 1.5.0's WebSocket client; every _goose/unstable/*
// answer is validated with ajv against acp-schema.json and every standard
// frame with the SDK's zod schemas.
func TestDesktopSDKOverWebSocket(t *testing.T) {
	ref, err := filepath.Abs(desktopReference)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(ref, "acp-schema.json")); err != nil {
		t.Fatal(err)
	}
	dir := npmtest.Install(t, "desktop")
	env := newAgentEnv(t,
		providertest.Turn{Text: []string{"Hello ", "from goose"}},
		providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "call_perm", Name: "shell", Arguments: `{"command":"echo hi"}`}}},
		textTurn("ran it"),
		textTurn("still here"),
	)
	// Permission requests come only in approve/smart modes.
	env.Vars["GOOSE_MODE"] = "approve"
	work := t.TempDir()
	var report struct {
		Frames      int               `json:"frames"`
		Violations  []json.RawMessage `json:"violations"`
		Implemented []string          `json:"implemented"`
		Missing     []string          `json:"missing"`
		Errors      []string          `json:"errors"`
	}
	runNodeHarness(t, dir, append(env.environ(), "GOOSE_ACP_BIN="+binary, "WORKDIR="+work, "ACP_REFERENCE="+ref), &report)
	if report.Frames == 0 || len(report.Violations) != 0 {
		t.Fatalf("frames=%d violations=%s", report.Frames, report.Violations)
	}
	t.Logf("startup methods validated: %v", report.Implemented)
	// Every method of Desktop's startup sequence is answered, validly.
	if len(report.Implemented) == 0 || len(report.Missing) > 0 || len(report.Errors) > 0 {
		t.Fatalf("startup methods: missing (-32601) %v, answering an error %v", report.Missing, report.Errors)
	}
	// The tool turn ran the shell after the user allowed it.
	var sawToolResult bool
	for _, r := range env.LLM.Requests() {
		sawToolResult = sawToolResult || bytes.Contains(r.Body, []byte("call_perm"))
	}
	if !sawToolResult {
		t.Errorf("the model never got the shell tool's result")
	}
}
