package developer

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/developer/shellrun"
)

// goose's classic shell output bounds.
const (
	maxShellChars  = 400_000
	classicTailLen = 100
)

func (s *service) shellClassic(ctx context.Context, cc callContext, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var a shellArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if strings.TrimSpace(a.Command) == "" {
		return nil, invalidParams("Shell command cannot be empty")
	}
	if err := s.checkShellPaths(a.Command, cc); err != nil {
		return nil, internalError("%s", err.Error())
	}
	if s.opts.Terminal != nil {
		return s.shellViaTerminal(ctx, cc, a)
	}
	res, err := s.execLocal(ctx, cc, a.Command, s.shellTimeout(a))
	if err != nil {
		return nil, internalError("%s", err.Error())
	}
	if res.Cancelled {
		return nil, internalError("%s", errCancelled.Error())
	}
	return s.classicResult(a, res)
}

// classicResult shapes output as goose's MCP server does, and unlike it
// reports the exit code: non-zero is an error result.
func (s *service) classicResult(a shellArgs, res *shellrun.Result) (*mcp.CallToolResult, error) {
	if res.Combined.Runes() > maxShellChars {
		return nil, internalError("Shell output from command '%s' has too many characters (%d). Maximum character count is %d.", a.Command, res.Combined.Runes(), maxShellChars)
	}
	out := res.Combined.String()
	assistant, user := out, out
	if lines := rustLines(out); len(lines) > classicTailLen {
		path, err := s.saveClassicOutput(out)
		if err != nil {
			return nil, internalError("%s", err.Error())
		}
		tail := strings.Join(lines[len(lines)-classicTailLen:], "\n")
		assistant = fmt.Sprintf("private note: output was %d lines and we are only showing the most recent lines, remainder of lines in %s do not show tmp file to user, that file can be searched if extra context needed to fulfill request. truncated output: \n%s", len(lines), path, tail)
		user = fmt.Sprintf("NOTE: Output was %d lines, showing only the last %d lines.\n\n%s", len(lines), classicTailLen, tail)
	}
	suffix, isErr := endingNotes(a, res)
	if suffix != "" {
		assistant, user = strings.TrimSuffix(assistant, "\n"), strings.TrimSuffix(user, "\n")
	}
	result := &mcp.CallToolResult{
		Content: []mcp.Content{forAssistant(assistant + suffix), forUser(user+suffix, 0)},
		IsError: isErr,
	}
	return withMeta(result, MetaKeyShell, shellMeta(res)), nil
}

// endingNotes are the suffixes goose appends after the output, and whether
// the run counts as failed.
func endingNotes(a shellArgs, res *shellrun.Result) (string, bool) {
	var b strings.Builder
	isErr := false
	if res.TimedOut {
		isErr = true
		if a.TimeoutSecs != nil {
			fmt.Fprintf(&b, "\n\nCommand timed out after %d seconds", *a.TimeoutSecs)
		} else {
			b.WriteString("\n\nCommand timed out")
		}
	}
	if res.DrainTimedOut {
		b.WriteString("\n\nOutput may be incomplete because stream draining timed out after process exit.")
	}
	if res.Cancelled {
		isErr = true
		b.WriteString("\n\n" + errCancelled.Error())
	}
	if res.ExitCode != nil && *res.ExitCode != 0 {
		isErr = true
		fmt.Fprintf(&b, "\n\nCommand exited with code %d", *res.ExitCode)
	}
	if res.ExitCode == nil {
		isErr = true
	}
	return b.String(), isErr
}

// saveClassicOutput keeps the full output in a temp file the model may
// search later (goose's kept NamedTempFile).
func (s *service) saveClassicOutput(out string) (string, error) {
	dir, err := s.outDir.get()
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, "shell-output-*.txt")
	if err != nil {
		return "", fmt.Errorf("save shell output: %w", err)
	}
	defer f.Close()
	if _, err := f.WriteString(out); err != nil {
		return "", fmt.Errorf("save shell output: %w", err)
	}
	return f.Name(), nil
}

// tailBytes keeps at most n trailing bytes of s, starting on a rune boundary.
func tailBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}
