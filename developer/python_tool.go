package developer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/developer/pykernel"
	"github.com/goose-acp/goose-acp/developer/shellrun"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Python session mode: goose's developer python_session.
// GOOSE_DEVELOPER_MODE=python_session replaces the
// editor surface's tools with one `python` tool backed by a persistent
// interpreter per session.
const (
	devModeKey        = "GOOSE_DEVELOPER_MODE"
	pyInterpreterKey  = "GOOSE_PYTHON_SESSION_PYTHON"
	pyCellTimeoutKey  = "GOOSE_PYTHON_SESSION_CELL_TIMEOUT_SECS"
	pyMaxOutputKey    = "GOOSE_PYTHON_SESSION_MAX_OUTPUT_CHARS"
	pyMaxImagesKey    = "GOOSE_PYTHON_SESSION_MAX_IMAGES"
	pyMaxImages       = 8
	pyDefaultTimeout  = 120 * time.Second
	pyIdleTTL         = 30 * time.Minute
	pyProbeTimeout    = 500 * time.Millisecond
	pyChdirTimeout    = 5 * time.Second
	pyResetNotice     = "[python session was restarted: variables, imports, and functions from before this point no longer exist; recreate what you need]"
	pyNoInterpreter   = "no python3 or python interpreter found on PATH; install Python 3.9+ or set " + pyInterpreterKey
	pythonDescription = "Run Python in a persistent session (one per conversation). State persists\n" +
		"across calls and survives compaction: variables, imports, functions, cwd.\n\n" +
		"Inspect the real inputs before you compute, and verify your output against the\n" +
		"task's success criteria (run its tests/acceptance commands) before you finish.\n\n" +
		"Semantics:\n" +
		"- The trailing expression of the cell is echoed (like a REPL). `_` holds it.\n" +
		"- stdout/stderr/echo are each capped; assign large data to variables and\n" +
		"  print slices instead of dumping it.\n" +
		"- sh(command, timeout=None) runs a shell command and returns a result object\n" +
		"  (.code/.out/.err, up to 64 MiB per stream retained); edit(path, old, new) does a\n" +
		"  unique-match text replacement.\n" +
		"- view_image(path, crop=None) attaches an image (local path or http(s) URL) to\n" +
		"  the result so you can see it; prefer this over OCR to read text in a picture.\n" +
		"- Long-running cells are interrupted after a timeout with KeyboardInterrupt;\n" +
		"  the session and its variables survive the interrupt.\n"
	pythonSchema = `{"type":"object","required":["code"],"properties":{"code":{"type":"string","description":"Python code to run in the persistent session."}}}`
)

// pythonInstructions is goose's server instructions text for the mode.
const pythonInstructions = "You have a persistent Python session: variables, imports, functions, and open\n" +
	"resources persist across `python` calls for the whole conversation, and they\n" +
	"survive conversation compaction. Reuse variables you have already defined instead\n" +
	"of recomputing or re-reading them; after a compaction, a `<python-session>` block\n" +
	"in the turn context re-lists what still exists.\n\n" +
	"Work in three phases; do not skip the first or the last:\n" +
	"1. INSPECT before you compute. Never guess an input's format. Print a real\n" +
	"   sample of the actual data (a genuine line, the raw bytes, the file header,\n" +
	"   the directory listing) and confirm the exact task requirements before you\n" +
	"   write the solution. Most wrong answers come from computing confidently on an\n" +
	"   assumed structure.\n" +
	"2. SOLVE. Read, search, and transform data in Python and ASSIGN results to\n" +
	"   variables so later steps are cheap and survive compaction. Large data can\n" +
	"   stay in variables; print the slice you need to reason about the next step.\n" +
	"3. VERIFY before you finish. Re-read what success requires and check your output\n" +
	"   against it. If the task states how it will be judged (a command to run, a\n" +
	"   file to produce, an expected value), run that exact check and confirm it\n" +
	"   passes. Inspect the produced artifact directly - open the file you wrote,\n" +
	"   diff it against the spec. Do not declare the task done on the assumption that\n" +
	"   your code worked; declare it done only after you have seen it pass.\n\n" +
	"Tools:\n" +
	"- Shell commands: r = sh(\"pytest -q 2>&1\"); then inspect r.code, r.out, r.err\n" +
	"  (full output is retained on the object; the echoed form is a capped tail).\n" +
	"  Use sh to run the task's own tests or acceptance commands as your verification.\n" +
	"- File edits: edit(path, old, new) replaces a unique occurrence; edit(path, \"\",\n" +
	"  content) creates a file. pathlib is also fine.\n" +
	"- Images: view_image(path, crop=None) returns an image (a screenshot, diagram,\n" +
	"  or photo) to you as pixels; pass a local path or http(s) URL. To read a\n" +
	"  screenshot of code or a diagram, VIEW it - do not OCR it. crop=(x, y, width,\n" +
	"  height) zooms into a region. You may view several by calling it in a loop.\n" +
	"- The last expression in a cell is echoed like a REPL; end a cell with the\n" +
	"  value you want to see.\n"

// configValue reads a goose setting the way goose does: Options.Config
// (environment variable, else config.yaml) when set, else the environment.
func (s *service) configValue(key string) (string, bool) {
	if s.opts.Config != nil {
		if v, ok := s.opts.Config(key); ok && v != nil {
			return strings.TrimSpace(fmt.Sprint(v)), true
		}
		return "", false
	}
	v := strings.TrimSpace(s.getenv(key))
	return v, v != ""
}

// pythonMode reports GOOSE_DEVELOPER_MODE=python_session ("tools", the
// default, and anything unknown keep the normal tools).
func (s *service) pythonMode() bool {
	v, ok := s.configValue(devModeKey)
	if ok && v != "tools" && v != "python_session" {
		s.log.Warn("unknown GOOSE_DEVELOPER_MODE; using tools", "value", v)
	}
	return ok && v == "python_session"
}

func (s *service) registerPython(srv registrar) {
	addTool(srv, &mcp.Tool{Name: "python", Description: pythonDescription, InputSchema: json.RawMessage(pythonSchema),
		Annotations: annotations("Run Python", false, true, false, true)}, s.handler(s.pythonTool))
}

// cellTimeout is GOOSE_PYTHON_SESSION_CELL_TIMEOUT_SECS (at least 1 s).
func (s *service) cellTimeout() time.Duration {
	if s.py.cellTimeout > 0 {
		return s.py.cellTimeout
	}
	if v, ok := s.configValue(pyCellTimeoutKey); ok {
		if n, err := strconv.ParseUint(v, 10, 32); err == nil {
			return time.Duration(max(n, 1)) * time.Second
		}
	}
	return pyDefaultTimeout
}

// interpreter is GOOSE_PYTHON_SESSION_PYTHON, else python3 then python on
// pathEnv.
func (s *service) interpreter(pathEnv string) (string, error) {
	if v, ok := s.configValue(pyInterpreterKey); ok && v != "" {
		return v, nil
	}
	suffix := ""
	if runtime.GOOS == "windows" {
		suffix = ".exe"
	}
	for _, name := range []string{"python3", "python"} {
		for _, dir := range filepath.SplitList(pathEnv) {
			if dir == "" {
				continue
			}
			c := filepath.Join(dir, name+suffix)
			if fi, err := os.Stat(c); err == nil && fi.Mode().IsRegular() {
				return c, nil
			}
		}
	}
	return "", errors.New(pyNoInterpreter)
}

// kernelSpecFor resolves the interpreter and environment a new kernel of
// this call gets: the login shell's PATH when configured (as the shell
// does), AGENT_SESSION_ID, and the output and image limits.
func (s *service) kernelSpecFor(cc callContext) (pykernel.Spec, error) {
	path := s.getenv("PATH")
	if s.opts.LoginShellPath {
		if p := s.loginPath(shellrun.Select(runtime.GOOS, s.getenv, exec.LookPath)); p != "" {
			path = p
		}
	}
	python, err := s.interpreter(path)
	if err != nil {
		return pykernel.Spec{}, err
	}
	over := map[string]string{"PATH": path, "AGENT_SESSION_ID": cc.sessionID, pyMaxImagesKey: strconv.Itoa(pyMaxImages)}
	if v, ok := s.configValue(pyMaxOutputKey); ok {
		if n, err := strconv.ParseUint(v, 10, 32); err == nil {
			over[pyMaxOutputKey] = strconv.FormatUint(n, 10)
		}
	}
	dir := cc.workingDir
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		dir = ""
	}
	return pykernel.Spec{Python: python, Dir: dir, Env: shellrun.MergeEnv(os.Environ(), over, runtime.GOOS)}, nil
}

func (s *service) pythonTool(ctx context.Context, cc callContext, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var a struct {
		Code any `json:"code"`
	}
	_ = json.Unmarshal(raw, &a)
	code, ok := a.Code.(string)
	if !ok {
		return toolError("Missing required parameter: code"), nil
	}
	out, err := s.py.run(ctx, s, cc, code)
	if err != nil {
		return toolError("%s", err.Error()), nil
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{text(formatOutcome(out))}, IsError: out.Resp.Error != nil}
	s.attachImages(ctx, cc, res, out.Resp)
	return res, nil
}

// attachImages loads the cell's view_image() requests through read_image
// (same formats, limits, SSRF guard and path policy).
func (s *service) attachImages(ctx context.Context, cc callContext, res *mcp.CallToolResult, r pykernel.Response) {
	for _, img := range r.Images[:min(len(r.Images), pyMaxImages)] {
		var got *mcp.CallToolResult
		data, err := s.imageBytes(ctx, cc, strings.TrimSpace(img.Source))
		if err != nil {
			err = errors.New(errorText(err))
		} else {
			got, err = imageResult(img.Source, data, cropOf(img.Crop))
		}
		if err != nil {
			res.Content = append(res.Content, text(fmt.Sprintf("[view_image could not load %s: %s]", img.Source, err)))
			continue
		}
		res.Content = append(res.Content, got.Content...)
	}
	if total := len(r.Images) + r.ImagesOver; total > pyMaxImages {
		res.Content = append(res.Content, text(fmt.Sprintf("[view_image: %d images requested; only the first %d are shown]", total, pyMaxImages)))
	}
}

func contentTexts(cs []mcp.Content) []string {
	var out []string
	for _, c := range cs {
		if t, ok := c.(*mcp.TextContent); ok {
			out = append(out, t.Text)
		}
	}
	return out
}

// pyCellOutput is a finished cell plus the notices owed to the model.
type pyCellOutput struct {
	pykernel.Outcome
	reset   bool
	restore string
}

// formatOutcome is goose's format_outcome.
func formatOutcome(o pyCellOutput) string {
	var parts []string
	// A restore brings the variables back, so it replaces the reset notice.
	if o.reset && o.restore == "" {
		parts = append(parts, pyResetNotice)
	}
	if o.restore != "" {
		parts = append(parts, o.restore)
	}
	r := o.Resp
	if strings.TrimSpace(r.Stdout) != "" {
		parts = append(parts, strings.TrimRight(r.Stdout, " \t\r\n"))
	}
	if strings.TrimSpace(r.Stderr) != "" {
		parts = append(parts, "stderr:\n"+strings.TrimRight(r.Stderr, " \t\r\n"))
	}
	switch {
	case r.Error != nil:
		parts = append(parts, *r.Error)
	case r.Value != nil:
		parts = append(parts, "=> "+*r.Value)
	}
	if o.Interrupted && r.Error == nil {
		parts = append(parts, "[cell was interrupted but completed anyway]")
	}
	if r.DurationMS != nil && *r.DurationMS >= 5000 {
		parts = append(parts, fmt.Sprintf("[cell ran %.1fs]", float64(*r.DurationMS)/1000))
	}
	if len(parts) == 0 {
		return "(cell completed with no output)"
	}
	return strings.Join(parts, "\n")
}

// cropOf is a view_image() crop box as read_image takes it.
func cropOf(c *pykernel.Crop) *cropArgs {
	if c == nil {
		return nil
	}
	a := cropArgs(*c)
	return &a
}
