package developer

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/developer/shellrun"
)

// goose's platform shell output bounds.
const (
	outputLimitLines = 2000
	outputLimitBytes = 50_000
	previewLines     = 50
	previewBytes     = 10_000
	outputSlots      = 8
)

// shellOutput is the editor shell's structuredContent (goose's ShellOutput).
type shellOutput struct {
	Stdout          string `json:"stdout"`
	Stderr          string `json:"stderr"`
	ExitCode        *int   `json:"exit_code,omitempty"`
	TimedOut        bool   `json:"timed_out,omitempty"`
	OutputTruncated bool   `json:"output_truncated,omitempty"`
}

func (s *service) shellEditor(ctx context.Context, cc callContext, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var a shellArgs
	if err := decodeArgs(raw, &a); err != nil {
		return shellErrorResult(errorText(err)), nil
	}
	if strings.TrimSpace(a.Command) == "" {
		return shellErrorResult("Command cannot be empty."), nil
	}
	if err := s.checkShellPaths(a.Command, cc); err != nil {
		return shellErrorResult(err.Error()), nil
	}
	if s.opts.Terminal != nil {
		return s.shellViaTerminal(ctx, cc, a)
	}
	res, err := s.execLocal(ctx, cc, a.Command, s.shellTimeout(a))
	if err != nil {
		return shellErrorResult(err.Error()), nil
	}
	return s.editorResult(a, res)
}

// shellErrorResult is goose's ShellTool::error_result.
func shellErrorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content:           []mcp.Content{text(msg)},
		StructuredContent: shellOutput{Stderr: msg},
		IsError:           true,
	}
}

func (s *service) editorResult(a shellArgs, res *shellrun.Result) (*mcp.CallToolResult, error) {
	slot := (s.callIndex.Add(1) - 1) % outputSlots
	var notices []string
	shape := func(buf *shellrun.Buffer, label string) (string, error) {
		preview, notice, err := s.truncateOutput(strings.TrimSuffix(buf.String(), "\n"), fmt.Sprintf("%s-%d", label, slot))
		if notice != "" && label == "output" {
			notices = append(notices, notice)
		}
		return preview, err
	}
	combined, err := shape(&res.Combined, "output")
	if err != nil {
		return shellErrorResult(err.Error()), nil
	}
	stdout, err := shape(&res.Stdout, "stdout")
	if err != nil {
		return shellErrorResult(err.Error()), nil
	}
	stderr, err := shape(&res.Stderr, "stderr")
	if err != nil {
		return shellErrorResult(err.Error()), nil
	}
	if combined == "" {
		combined = "(no output)"
	}
	suffix, isErr := endingNotes(a, res)
	content := []mcp.Content{text(combined + suffix)}
	if len(notices) > 0 {
		content = append(content, text(strings.Join(notices, "\n")))
	}
	out := &mcp.CallToolResult{
		Content: content,
		StructuredContent: shellOutput{
			Stdout: stdout, Stderr: stderr, ExitCode: res.ExitCode,
			TimedOut: res.TimedOut, OutputTruncated: res.DrainTimedOut,
		},
		IsError: isErr,
	}
	return withMeta(out, MetaKeyShell, shellMeta(res)), nil
}

// truncateOutput bounds text to 2000 lines / 50,000 bytes. Past either,
// the full text is saved under label and the preview is the last 50 lines,
// capped to 10,000 bytes, with goose's notice.
func (s *service) truncateOutput(text, label string) (string, string, error) {
	lines := rustLines(text)
	var reason string
	switch {
	case len(lines) > outputLimitLines:
		reason = fmt.Sprintf("Output exceeded %d line limit (%d lines total).", outputLimitLines, len(lines))
	case len(text) > outputLimitBytes:
		reason = fmt.Sprintf("Output exceeded %d byte limit (%d bytes total).", outputLimitBytes, len(text))
	default:
		return text, "", nil
	}
	dir, err := s.outDir.get()
	if err != nil {
		return "", "", err
	}
	path := filepath.Join(dir, label)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		return "", "", fmt.Errorf("save shell output: %w", err)
	}
	preview := tailBytes(strings.Join(lines[max(len(lines)-previewLines, 0):], "\n"), previewBytes)
	how := "shell commands like `head`, `tail`, or `sed -n '100,200p'`"
	if runtime.GOOS == "windows" {
		how = "PowerShell commands like `Get-Content -TotalCount 200`, `Select-String`, or `Get-Content | Select-Object -Skip 100 -First 100`"
	}
	notice := fmt.Sprintf("[%s Full output saved to %s. Read it with %s up to %d lines at a time.]", reason, path, how, outputLimitLines)
	return preview, notice, nil
}
