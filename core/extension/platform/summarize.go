package platform

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/extension/inproc"
	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

// Summarize is goose's summarize platform extension (off by default).
const Summarize = "summarize"

// Limits of goose's summarize: bigger files are skipped, a bigger total
// fails the call.
const (
	SummarizeMaxFile  = 100 * 1024
	SummarizeMaxTotal = 1024 * 1024
)

const summarizeDescription = "Load files/directories deterministically and get an LLM summary in a single call. " +
	"More efficient than subagent when you know what to analyze. " +
	"Specify paths (files or dirs that will be recursively expanded, respecting top-level .gitignore), " +
	"a question to focus the summary, and optionally filter by file extensions."

const summarizeSchema = `{"$schema":"http://json-schema.org/draft-07/schema#","title":"SummarizeParams","type":"object",` +
	`"required":["paths","question"],"properties":{` +
	`"paths":{"description":"Files or directories to include. Directories are expanded recursively.","type":"array","items":{"type":"string"}},` +
	`"question":{"description":"What to focus on or ask about the content. This guides the summary.","type":"string"},` +
	`"extensions":{"description":"File extensions to include (e.g., [\"rs\", \"py\"]). If not specified, includes all files.","type":["array","null"],"items":{"type":"string"}}}}`

// SummarizeSystemPrompt is goose's system prompt for the summary call.
const SummarizeSystemPrompt = "You are an assistant that analyzes content and provides clear, concise summaries " +
	"focused on answering the user's specific question. " +
	"Be specific and reference relevant parts of the content when helpful."

type summarizeParams struct {
	Paths      []string `json:"paths"`
	Question   string   `json:"question"`
	Extensions []string `json:"extensions"`
}

// summarizeServer is summarize's server, one per process; a call runs
// in the session found by its request's server session.
var summarizeServer = newSharedServer(Summarize, func(sh *sharedServer) *inproc.Server {
	s := newServer(Summarize, "Summarize", "")
	s.AddTool(&mcp.Tool{Name: "summarize", Description: summarizeDescription, InputSchema: json.RawMessage(summarizeSchema)},
		sh.handle(func(ctx context.Context, b *binding, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var p summarizeParams
			if err := decode(req, &p); err != nil {
				return errorResult("Invalid parameters: %v", err), nil
			}
			wd, _ := req.Params.Meta[extension.MetaWorkingDir].(string)
			if wd == "" {
				wd = b.env.WorkingDir
			}
			text, err := b.d.runSummarize(ctx, b.env.SessionID, wd, p)
			if err != nil {
				return errorResult("%s", err.Error()), nil
			}
			return textResult(text), nil
		}))
	return s
})

func (d Deps) summarize(ctx context.Context, env extension.Env) (extension.Platform, error) {
	return summarizeServer.platform(&binding{d: d, env: env}), nil
}

func (d Deps) runSummarize(ctx context.Context, sessionID, wd string, p summarizeParams) (string, error) {
	if wd == "" {
		return "", errors.New("working_dir is required for summarize")
	}
	if len(p.Paths) == 0 {
		return "", errors.New("Must provide at least one path")
	}
	if d.Agent == nil {
		return "", ErrNoAgent
	}
	files, err := CollectSummaryFiles(ctx, wd, d.ConfigDir, p.Paths, p.Extensions)
	if err != nil {
		return "", err
	}
	if len(files) == 0 {
		return "", errors.New("No files found matching the specified paths and extensions.")
	}
	answer, err := d.Agent.Complete(ctx, sessionID, SummarizeSystemPrompt, SummaryPrompt(files, p.Question))
	if err != nil {
		return "", fmt.Errorf("LLM call failed: %w", err)
	}
	lines := 0
	for _, f := range files {
		lines += f.Lines
	}
	return fmt.Sprintf("%s\n\n---\n*Analyzed %d files (%d lines)*", answer, len(files), lines), nil
}

// SummaryFile is one file summarize sends to the model.
type SummaryFile struct {
	Rel     string
	Content string
	Lines   int
}

// CollectSummaryFiles expands paths (relative, inside wd) the way goose
// does: directories recursively in name order, symlinks skipped, the
// top-level .gitignore and .git/ applied, files over 100 KiB skipped and
// a total over 1 MiB refused. Unlike goose, .gooseignore applies too (the
// path policy every other read follows), so .env files stay out.
func CollectSummaryFiles(ctx context.Context, wd, configDir string, paths, exts []string) ([]SummaryFile, error) {
	base, err := filepath.EvalSymlinks(wd)
	if err != nil {
		return nil, fmt.Errorf("Failed to canonicalize working directory %s: %v", wd, err)
	}
	var ps []gitignore.Pattern
	if text, _, err := pathpolicy.ReadText(ctx, filepath.Join(base, ".gitignore"), 1<<20); err == nil {
		ps = pathpolicy.ParseIgnore([]byte(text), ps)
	}
	ps = append(ps, gitignore.ParsePattern(".git/", nil))
	c := &collector{ctx: ctx, base: base, exts: exts, ign: gitignore.NewMatcher(ps), goose: pathpolicy.RulesFor(base, configDir)}
	for _, p := range paths {
		if filepath.IsAbs(p) {
			return nil, fmt.Errorf("Absolute paths are not allowed: %s", p)
		}
		joined := filepath.Join(base, p)
		if _, err := os.Stat(joined); err != nil {
			return nil, fmt.Errorf("Path does not exist: %s", joined)
		}
		real, err := filepath.EvalSymlinks(joined)
		if err != nil {
			return nil, fmt.Errorf("Failed to canonicalize path %s: %v", joined, err)
		}
		if !within(real, base) {
			return nil, fmt.Errorf("Path escapes working directory: %s", joined)
		}
		fi, err := os.Stat(real)
		if err != nil {
			continue
		}
		if fi.IsDir() {
			err = c.dir(real)
		} else if fi.Mode().IsRegular() && c.include(real) {
			err = c.file(real, fi.Size())
		}
		if err != nil {
			return nil, err
		}
	}
	return c.files, nil
}

type collector struct {
	ctx   context.Context
	goose *pathpolicy.Rules
	base  string
	exts  []string
	ign   gitignore.Matcher
	total int
	files []SummaryFile
}

func (c *collector) include(path string) bool {
	if c.exts == nil {
		return true
	}
	ext := strings.ToLower(fileExt(path))
	if ext == "" {
		return false
	}
	for _, e := range c.exts {
		if strings.ToLower(e) == ext {
			return true
		}
	}
	return false
}

func (c *collector) dir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("Failed to read directory: %v", err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if e.Type()&os.ModeSymlink != 0 {
			continue
		}
		rel, _ := filepath.Rel(c.base, p)
		if c.ign.Match(strings.Split(filepath.ToSlash(rel), "/"), e.IsDir()) || c.goose.Match(p, e.IsDir()) {
			continue
		}
		if e.IsDir() {
			if err := c.dir(p); err != nil {
				return err
			}
		} else if e.Type().IsRegular() && c.include(p) {
			fi, err := e.Info()
			if err != nil {
				continue
			}
			if err := c.file(p, fi.Size()); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *collector) file(path string, size int64) error {
	if size > SummarizeMaxFile || c.goose.Match(path, false) {
		return nil
	}
	text, truncated, err := pathpolicy.ReadText(c.ctx, path, SummarizeMaxFile)
	if err != nil || truncated {
		return nil
	}
	c.total += len(text)
	if c.total > SummarizeMaxTotal {
		return fmt.Errorf("Total content size limit exceeded: %d bytes over the %d byte limit", c.total-SummarizeMaxTotal, SummarizeMaxTotal)
	}
	rel, err := filepath.Rel(c.base, path)
	if err != nil {
		rel = path
	}
	c.files = append(c.files, SummaryFile{Rel: rel, Content: text, Lines: countLines(text)})
	return nil
}

// countLines counts lines as Rust's str::lines does.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// SummaryPrompt is goose's user message for the summary call.
func SummaryPrompt(files []SummaryFile, question string) string {
	total := 0
	for _, f := range files {
		total += f.Lines
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Answer this question: %s\n\n", question)
	fmt.Fprintf(&b, "**Files** (%d files, %d total lines):\n\n", len(files), total)
	for _, f := range files {
		ext := fileExt(f.Rel)
		fmt.Fprintf(&b, "### %s (%d lines)\n~~~%s\n%s\n~~~\n\n", filepath.ToSlash(f.Rel), f.Lines, ext, f.Content)
	}
	return b.String()
}

// fileExt is Rust's Path::extension: ".gitignore" has none.
func fileExt(path string) string {
	base := filepath.Base(path)
	i := strings.LastIndexByte(base, '.')
	if i <= 0 {
		return ""
	}
	return base[i+1:]
}
