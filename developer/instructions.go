package developer

import (
	"fmt"
	"runtime"
)

// instructions is the server's MCP instructions text. The classic text
// follows goose's developer server (working dir, OS, shell, tool
// guidance); the editor text follows goose's platform extension.
func (s *service) instructions() string {
	if s.python {
		return pythonInstructions
	}
	switch s.opts.Surface {
	case Editor:
		return editorInstructions(s.opts.ReadTool)
	case Analyze:
		return analyzeInstructions
	}
	shell := s.getenv("SHELL")
	if shell == "" {
		shell = "bash"
	}
	base := fmt.Sprintf("The developer extension gives you the capabilities to edit code files and run shell commands,\n"+
		"and can be used to solve a wide range of problems.\n\n"+
		"You can use the shell tool to run any command that would work on the relevant operating system.\n"+
		"Use the shell tool as needed to locate files or interact with the project.\n\n"+
		"Use the analyze tool aggressively to understand code structure before editing.\n\n"+
		"operating system: %s\ncurrent directory: %s\nshell: %s\n\n", runtime.GOOS, s.opts.WorkingDir, shell)
	editor := "Additional Text Editor Tool Instructions:\n\n" +
		"Perform text editing operations on files.\n" +
		"The `command` parameter specifies the operation to perform. Allowed options are:\n" +
		"- `view`: View the content of a file (or list a directory).\n" +
		"- `write`: Create or overwrite a file with the given content\n" +
		"- `str_replace`: Replace text in one file.\n" +
		"- `insert`: Insert text at a specific line location in the file.\n" +
		"- `undo_edit`: Undo the last edit made to a file.\n\n" +
		"To use the write command, you must specify `file_text` which will become the new content of the file. Be careful with\n" +
		"existing files! This is a full overwrite, so you must include everything - not just sections you are modifying.\n\n" +
		"To use the str_replace command to edit multiple parts of the same file, you must make a separate call for each\n" +
		"replacement. `old_str` must match exactly one place in the file.\n\n" +
		"To use the insert command, you must specify both `insert_line` (the line number after which to insert, 0 for the\n" +
		"beginning of the file, -1 for the end) and `new_str` (the text to insert).\n\n"
	shellText := "Additional Shell Tool Instructions:\n" +
		"Execute a command in the shell.\n\n" +
		"This will return the output and error concatenated into a single string, as you would see from running on the\n" +
		"command line. A non-zero exit code is reported and marks the result as an error.\n\n"
	if runtime.GOOS == "windows" {
		return base + editor + shellText + "**Important**: For searching files and code, use `rg` if available, otherwise `dir /s /b` and `findstr`.\nUse forward slashes in paths.\n"
	}
	return base + editor + shellText +
		"If you need to run a long lived command, background it - e.g. `uvicorn main:app &` so that this tool does\n" +
		"not run indefinitely.\n\n" +
		"**Important**: Each shell command runs in its own process. Things like directory changes or sourcing files do\n" +
		"not persist between tool calls. So you may need to repeat them each time by stringing together commands.\n\n" +
		"**Important**: Use ripgrep - `rg` - exclusively when you need to locate a file or a code reference, other\n" +
		"solutions may produce too large output because of hidden files! For example *do not* use `find` or `ls -r`\n" +
		"  - List files by name: `rg --files | rg <filename>`\n" +
		"  - List files that contain a regex: `rg '<regex>' -l`\n" +
		"Always prefer ripgrep (rg -C 3) to grep.\n"
}

// editorInstructions is the developer extension's guidance, carrying what
// goose 1.54's developer instructions ask (platform_extensions/developer/
// mod.rs): few calls and a small context because turns cost the user
// money, tree first, rg to search, read before editing, test and verify,
// python3. With the read tool offered it recommends read over cat and sed,
// as goose does for clients that read files for it.
func editorInstructions(read bool) string {
	search, gather := "prefer rg, which skips gitignored files", "cat or sed"
	if runtime.GOOS == "windows" {
		search, gather = "prefer findstr or Select-String through shell", "type or Get-Content"
	}
	if read {
		gather = "the read tool (line and limit for large files), which costs less than running " + gather + " in a shell"
	}
	out := "Use the developer extension to build software and operate a terminal.\n\n" +
		"Use the tools *efficiently*: gather everything you need in as few calls as possible, then make the edits or run the commands. " +
		"You are responsible for your context window: keep it small and avoid unnecessary turns, each of which costs the user money.\n\n" +
		"When working on code, start with tree to see the layout of the codebase and the sizes of its files. " +
		"To search, " + search + ". Then gather the context you need with " + gather + ", and always read a file before you edit it. " +
		"Make changes with write and edit. Test and verify your work as appropriate.\n"
	if runtime.GOOS != "windows" {
		out += "\nRun Python scripts and commands with `python3`, never `python`.\n"
	}
	return out
}

// analyzeInstructions is the analyze extension's guidance, carrying goose
// 1.54's (platform_extensions/analyze/mod.rs): the three modes, that it is
// no file reader, and to delegate big analyses to a subagent.
const analyzeInstructions = "Analyze reads code structure with tree-sitter. What it returns follows from what you pass:\n" +
	"- a directory: an overview of its tree with function and class counts\n" +
	"- a file: its parsed symbols (functions, classes, imports); it does not show the text, read that with shell cat\n" +
	"- any path with focus: the call graph of that symbol, who calls it and what it calls\n\n" +
	"On a large codebase, hand the analysis to a subagent and keep only its summary.\n"
