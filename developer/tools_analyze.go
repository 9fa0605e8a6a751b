package developer

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/goose-acp/goose-acp/developer/analyze"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const analyzeSchema = `{"type":"object","required":["path"],"properties":{
"path":{"type":"string","description":"Absolute path. Step 1: Directory for overview. Step 2: File for details. Step 3: Directory with focus param for call graphs"},
"focus":{"type":["string","null"],"description":"Symbol name for call graph analysis (case-sensitive)"},
"follow_depth":{"type":"integer","format":"uint32","minimum":0,"default":2,"description":"0=where defined, 1=direct callers/callees, 2+=transitive chains"},
"max_depth":{"type":"integer","format":"uint32","minimum":0,"default":3,"description":"0=unlimited (warning: fails on binary files)"},
"force":{"type":"boolean","default":false,"description":"Allow large outputs without size warning"}}}`

// analyzeExtensionDescription and analyzeExtensionSchema are the analyze
// extension's tool as goose 1.54 offers it (platform_extensions/analyze):
// a structure reader, not a file reader, taking a file or a directory.
const analyzeExtensionDescription = "Analyze code structure by parsing it (tree-sitter); it does not return file contents — read those with shell cat. " +
	"Three modes: 1) a directory gives its file tree with line, function and class counts, down to max_depth. " +
	"2) a file gives its parsed symbols: functions, classes, imports. " +
	"3) a file or directory with focus gives the call graph of that symbol (case-sensitive), scanning down to max_depth. " +
	"Usual order: directory, then files, then symbols. Functions called more than 3 times are marked •N."

const analyzeExtensionSchema = `{"type":"object","required":["path"],"properties":{
"path":{"type":"string","description":"File or directory to analyze"},
"focus":{"type":["string","null"],"default":null,"description":"Symbol to focus on (switches to call graph mode)"},
"max_depth":{"type":"integer","format":"uint32","minimum":0,"default":3,"description":"How deep to walk directories (default 3, 0 = no limit); also bounds the focus scan"},
"follow_depth":{"type":"integer","format":"uint32","minimum":0,"default":2,"description":"How far to follow the call graph (default 2, 0 = definitions only)"},
"force":{"type":"boolean","default":false,"description":"Allow large outputs without size warning"}}}`

type analyzeArgs struct {
	Path        string  `json:"path"`
	Focus       *string `json:"focus"`
	FollowDepth *int    `json:"follow_depth"`
	MaxDepth    *int    `json:"max_depth"`
	Force       bool    `json:"force"`
}

func (s *service) registerAnalyze(srv registrar, surface Surface) {
	tool := &mcp.Tool{Name: "analyze", Description: analyze.ToolDescription, InputSchema: json.RawMessage(analyzeSchema)}
	if surface == Analyze {
		tool.Description, tool.InputSchema = analyzeExtensionDescription, json.RawMessage(analyzeExtensionSchema)
		tool.Annotations = annotations("Analyze", true, false, true, false)
		addTool(srv, tool, s.handler(s.analyzeEditor))
		return
	}
	addTool(srv, tool, s.handler(s.analyzeClassic))
}

// runAnalyze applies the path policy and goose's defaults and runs the
// analysis in the goose-acp-analyze helper (developer/analyze).
func (s *service) runAnalyze(ctx context.Context, cc callContext, raw json.RawMessage) (string, error) {
	var a analyzeArgs
	if err := decodeArgs(raw, &a); err != nil {
		return "", err
	}
	if a.Path == "" {
		return "", invalidParams("%s", analyze.ErrEmptyPath.Error())
	}
	p, err := s.paths.resolve(a.Path, cc.workingDir)
	if err != nil {
		return "", invalidParams("%s", err.Error())
	}
	// The helper applies the same .gooseignore (pathpolicy.RulesFor of
	// the working dir and the global config dir).
	req := analyze.Request{
		Path: p, FollowDepth: analyze.DefaultFollowDepth, MaxDepth: analyze.DefaultMaxDepth,
		Force: a.Force, WorkingDir: cc.workingDir, ConfigDir: s.ignores.globalDir,
	}
	if a.Focus != nil {
		req.Focus = *a.Focus
	}
	if a.FollowDepth != nil {
		req.FollowDepth = *a.FollowDepth
	}
	if a.MaxDepth != nil {
		req.MaxDepth = *a.MaxDepth
	}
	helper, err := analyze.Find(s.getenv, nil)
	if err != nil {
		return "", internalError("%s", err.Error())
	}
	out, err := analyze.Run(ctx, helper, req)
	switch {
	case err == nil:
		return out, nil
	case errors.Is(err, analyze.ErrIgnored):
		return "", internalError("%s", err.Error())
	case errors.Is(err, analyze.ErrNotFound), errors.Is(err, analyze.ErrEmptyPath):
		return "", invalidParams("%s", err.Error())
	}
	return "", internalError("%s", err.Error())
}

func (s *service) analyzeClassic(ctx context.Context, cc callContext, raw json.RawMessage) (*mcp.CallToolResult, error) {
	out, err := s.runAnalyze(ctx, cc, raw)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{forAssistant(out), forUser(out, 0)}}, nil
}

func (s *service) analyzeEditor(ctx context.Context, cc callContext, raw json.RawMessage) (*mcp.CallToolResult, error) {
	out, err := s.runAnalyze(ctx, cc, raw)
	if err != nil {
		return toolError("Error: %s", errorText(err)), nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{text(out)}}, nil
}
