package developer

import (
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/developer/shellrun"
)

// Tool descriptions: goose's texts.
const (
	textEditorDescription   = "Perform text editing operations on files. Commands: view (show file content), write (create/overwrite file), str_replace (AI-enhanced replace text when configured, fallback to literal replacement), insert (insert at line), undo_edit (undo last change)."
	classicShellDescription = "Execute a command in the shell.This will return the output and error concatenated into a single string, as you would see from running on the command line. There will also be an indication of if the command succeeded or failed. Avoid commands that produce a large amount of output, and consider piping those outputs to files. If you need to run a long lived command, background it - e.g. `uvicorn main:app &` so that this tool does not run indefinitely."
	readDescription         = "Read a text file from disk."
	writeDescription        = "Create a new file or overwrite an existing file. Creates parent directories if needed."
	editDescription         = "Edit a file by finding and replacing text. The before text must match exactly and uniquely. Use empty after text to delete."
	treeDescription         = "List a directory tree with line counts. Traversal respects .gitignore rules."
)

const textEditorSchema = `{"type":"object","required":["command","path"],"properties":{
"path":{"type":"string","description":"Absolute path to file or directory, e.g. ` + "`/repo/file.py`" + ` or ` + "`/repo`" + `."},
"command":{"type":"string","description":"The operation to perform. Allowed options are: ` + "`view`, `write`, `str_replace`, `insert`, `undo_edit`" + `."},
"view_range":{"type":["array","null"],"items":{"type":"integer","format":"int64"},"description":"Optional array of two integers specifying the start and end line numbers to view. Line numbers are 1-indexed, and -1 for the end line means read to the end of the file. This parameter only applies when viewing files, not directories."},
"file_text":{"type":["string","null"],"description":"Required for ` + "`write`" + ` command."},
"old_str":{"type":["string","null"]},
"new_str":{"type":["string","null"],"description":"Required for ` + "`str_replace` and `insert`" + ` commands."},
"insert_line":{"type":["integer","null"],"format":"int64","description":"The line number after which to insert text (0 for beginning). Required for ` + "`insert`" + ` command."}}}`

const shellSchema = `{"type":"object","required":["command"],"properties":{
"command":{"type":"string","description":"The command string to execute in the shell"},
"timeout_secs":{"type":["integer","null"],"format":"uint64","minimum":0,"description":"Maximum time in seconds to allow the command to run before it is killed. If omitted, no timeout applies unless the server sets a default."}}}`

const shellOutputSchema = `{"type":"object","required":["stdout","stderr"],"properties":{
"stdout":{"type":"string"},"stderr":{"type":"string"},
"exit_code":{"type":["integer","null"],"format":"int32","description":"Absent if the process was killed (e.g. timeout)"},
"timed_out":{"type":"boolean"},
"output_truncated":{"type":"boolean","description":"output collection was cut short after the shell exited"}}}`

const readSchema = `{"type":"object","required":["path"],"properties":{
"path":{"type":"string","description":"Absolute path to the file to read."},
"line":{"type":["integer","null"],"format":"uint32","minimum":1,"description":"Line number to start reading from (1-based)."},
"limit":{"type":["integer","null"],"format":"uint32","minimum":0,"description":"Maximum number of lines to read."}}}`

const writeSchema = `{"type":"object","required":["path","content"],"properties":{"path":{"type":"string"},"content":{"type":"string"}}}`

const editSchema = `{"type":"object","required":["path","before","after"],"properties":{"path":{"type":"string"},"before":{"type":"string"},"after":{"type":"string"}}}`

const treeSchema = `{"type":"object","required":["path"],"properties":{"path":{"type":"string"},"depth":{"type":"integer","format":"uint32","minimum":0,"default":2}}}`

func boolPtr(b bool) *bool { return &b }

// annotations is goose's (title, readOnly, destructive, idempotent, openWorld).
func annotations(title string, ro, destructive, idem, open bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: ro, DestructiveHint: boolPtr(destructive), IdempotentHint: idem, OpenWorldHint: boolPtr(open)}
}

func (s *service) registerClassic(srv registrar) {
	addTool(srv, &mcp.Tool{Name: "shell", Description: classicShellDescription, InputSchema: json.RawMessage(shellSchema)}, s.handler(s.shellClassic))
	addTool(srv, &mcp.Tool{Name: "text_editor", Description: textEditorDescription, InputSchema: json.RawMessage(textEditorSchema)}, s.handler(s.textEditor))
	s.registerAnalyze(srv, Classic)
	s.registerImages(srv, Classic)
	s.registerScreen(srv)
}

func (s *service) registerEditor(srv registrar) {
	if s.python {
		// goose's developer offers only `python` in this mode (analyze is
		// an extension of its own).
		s.registerPython(srv)
		return
	}
	if s.opts.ReadTool {
		addTool(srv, &mcp.Tool{Name: "read", Description: readDescription, InputSchema: json.RawMessage(readSchema),
			Annotations: annotations("Read", true, false, false, false)}, s.handler(s.readTool))
	}
	addTool(srv, &mcp.Tool{Name: "write", Description: writeDescription, InputSchema: json.RawMessage(writeSchema),
		Annotations: annotations("Write", false, true, false, false)}, s.handler(s.writeTool))
	addTool(srv, &mcp.Tool{Name: "edit", Description: editDescription, InputSchema: json.RawMessage(editSchema),
		Annotations: annotations("Edit", false, true, false, false)}, s.handler(s.editTool))
	addTool(srv, &mcp.Tool{Name: "shell", Description: editorShellDescription(s.getenv), InputSchema: json.RawMessage(shellSchema),
		OutputSchema: json.RawMessage(shellOutputSchema), Annotations: annotations("Shell", false, true, false, true)}, s.handler(s.shellEditor))
	addTool(srv, &mcp.Tool{Name: "tree", Description: treeDescription, InputSchema: json.RawMessage(treeSchema),
		Annotations: annotations("Tree", true, false, true, false)}, s.handler(s.treeTool))
	s.registerImages(srv, Editor)
}

// editorShellDescription is goose's G2 text naming the shell that will run.
func editorShellDescription(getenv func(string) string) string {
	spec := shellrun.Select(runtime.GOOS, getenv, func(string) (string, error) { return "", fmt.Errorf("not probed") })
	if runtime.GOOS != "windows" && getenv("GOOSE_SHELL") == "" && getenv("SHELL") == "" {
		spec = shellrun.SpecFor("bash", runtime.GOOS)
	}
	note := ""
	if spec.Flavor == "cmd" {
		note = " Commands must be on a single line — cmd.exe silently truncates at the first newline. Use `&` to chain (e.g. `echo a & echo b`) or set GOOSE_SHELL=powershell for multi-line support."
	}
	return fmt.Sprintf("Execute a shell command in the current dir. Commands run under `%s` (set GOOSE_SHELL to override) - write command strings in that shell's syntax.%s Returns the combined stdout and stderr, the exit code, and stdout and stderr as separate structured fields. The output is limited to up to 2000 lines, and longer outputs will be saved to a temporary file.", shellrun.Stem(spec.Path), note)
}
