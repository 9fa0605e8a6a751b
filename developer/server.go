package developer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"os"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/extension/inproc"
)

// Surface selects which tool family a server exposes. Both share one
// implementation of file operations, shell runner, ignore policy and limits.
type Surface int

const (
	// Classic is goose's classic surface: shell, text_editor, analyze,
	// image_processor, list_windows, screen_capture. `goose-acp mcp developer` serves it.
	Classic Surface = iota
	// Editor is goose 1.54's developer platform extension: write, edit,
	// shell, tree, read_image, and read when Options.ReadTool is set. The
	// agent loads it in-process.
	Editor
	// Analyze is goose 1.54's analyze platform extension: the one analyze
	// tool (tree-sitter) with its own instructions.
	Analyze
)

// Version is reported in the classic server's serverInfo.
const Version = "1.0.0"

// Options configures a developer server. Zero values are usable defaults.
type Options struct {
	Surface Surface
	// WorkingDir is the default working dir when the call's _meta has no
	// agent-working-dir ("" → the process cwd).
	WorkingDir string
	FileIO     FileIO       // nil → local disk
	Terminal   Terminal     // nil → local processes
	Emitter    Emitter      // nil → none
	Logger     *slog.Logger // nil → discard
	Getenv     func(string) string

	// AllowedRoots, when non-empty, confines absolute paths to the working
	// dir and these roots. Relative paths are always confined to the
	// working dir, and symlink escapes out of it are always rejected.
	AllowedRoots []string
	// ConfigDir holds the global .gooseignore ("" → goose's config dir).
	ConfigDir string
	// BashEnvFile is exported as BASH_ENV when the shell is bash.
	BashEnvFile string
	// LoginShellPath replaces PATH with the login shell's PATH (cached).
	LoginShellPath bool
	// PTY runs local shell commands on a pseudo-terminal (unix only); ANSI
	// escapes are stripped from what the model sees.
	PTY bool
	// ShellTimeout bounds shell calls that pass no timeout_secs (0 = none).
	ShellTimeout time.Duration
	// Stats receives shell counters and latency (nil → kept internally).
	Stats *ShellStats
	// ReadTool offers the editor surface's read tool. goose 1.54 offers it
	// only to ACP clients that read files for it (fs.readTextFile); the
	// others read with shell cat and sed.
	ReadTool bool
	// Config looks a goose setting up as goose does: the environment
	// variable, else config.yaml (nil → Getenv only). The editor surface
	// reads GOOSE_DEVELOPER_MODE (python_session: one `python` tool, see
	// python_tool.go) and the GOOSE_PYTHON_SESSION_* keys through it.
	Config func(key string) (any, bool)
}

// service is the shared implementation behind both surfaces.
type service struct {
	opts    Options
	log     *slog.Logger
	getenv  func(string) string
	fileIO  FileIO
	paths   pathPolicy
	ignores *ignoreCache
	history *editHistory
	procs   *processTable
	stats   *ShellStats
	outDir  *lazyTempDir
	// callIndex rotates the editor shell's 8 saved-output slots.
	callIndex atomic.Uint64
	// allowAddr overrides read_image's SSRF rule in tests (nil = publicAddr).
	allowAddr func(netip.Addr) bool
	// python is set in GOOSE_DEVELOPER_MODE=python_session; py holds its
	// per-session kernels.
	python bool
	py     pySessions
	// direct is the in-process server of NewDirect (nil for NewServer):
	// its calls' python kernels live with it.
	direct *inproc.Server
}

func newService(opts Options) *service {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.WorkingDir == "" {
		opts.WorkingDir, _ = os.Getwd()
	}
	fio := opts.FileIO
	if fio == nil {
		fio = LocalFileIO{}
	}
	s := &service{
		opts:    opts,
		log:     opts.Logger,
		getenv:  opts.Getenv,
		fileIO:  fio,
		history: newEditHistory(),
		outDir:  &lazyTempDir{},
		procs:   newProcessTable(),
		stats:   opts.Stats,
	}
	if s.stats == nil {
		s.stats = &ShellStats{}
	}
	s.python = opts.Surface == Editor && s.pythonMode()
	s.paths = newPathPolicy(opts.Getenv, opts.AllowedRoots)
	s.ignores = newIgnoreCache(configDir(opts.ConfigDir, opts.Getenv))
	return s
}

// NewServer returns a go-sdk MCP server with the surface's tools, goose's
// prompts and instructions.
//
// Saved full shell outputs live in a per-server directory under one
// process-wide temp root. The directory goes when the returned server is
// garbage collected (its sessions closed and dropped); call Cleanup at
// process exit to remove whatever is left.
func NewServer(opts Options) *mcp.Server {
	srv, s := newServerWithService(opts)
	runtime.AddCleanup(srv, (*lazyTempDir).remove, s.outDir)
	return srv
}

func newServerWithService(opts Options) (*mcp.Server, *service) {
	s := newService(opts)
	srv := mcp.NewServer(s.implementation(), &mcp.ServerOptions{
		Instructions: s.instructions(),
		Logger:       s.log,
	})
	s.register(srv)
	return srv, s
}

// implementation is the server's name, title and version in initialize.
func (s *service) implementation() *mcp.Implementation {
	impl := &mcp.Implementation{Name: "goose-developer", Version: Version}
	switch s.opts.Surface {
	case Editor:
		impl = &mcp.Implementation{Name: "developer", Title: "Developer", Version: "1.0.0"}
	case Analyze:
		impl = &mcp.Implementation{Name: "analyze", Title: "Analyze", Version: "1.0.0"}
	}
	if s.python {
		impl.Title = "Developer (Python session)"
	}
	return impl
}

func (s *service) register(srv registrar) {
	switch s.opts.Surface {
	case Editor:
		s.registerEditor(srv)
	case Analyze:
		s.registerAnalyze(srv, Analyze)
		return
	default:
		s.registerClassic(srv)
	}
	s.registerPrompts(srv)
}

// NewDirect returns the surface's tools, prompts and instructions as an
// in-process server the agent calls directly (core/extension/inproc): the
// same tools and handlers as NewServer's, without an MCP session. A call's
// logging notifications (live shell output) go to the caller's
// inproc.Peer. Closing it ends its python kernels and removes its saved
// shell outputs.
func NewDirect(opts Options) *inproc.Server {
	s := newService(opts)
	srv := inproc.NewServer(s.implementation(), s.instructions())
	s.direct = srv
	s.register(srv)
	if opts.Emitter != nil {
		srv.Use(reportStart(s))
	}
	srv.OnClose(func() {
		s.py.closeConn(srv)
		s.outDir.remove()
	})
	return srv
}

// ServeStdio serves the developer server over newline-delimited JSON-RPC on
// in/out until the peer closes in or ctx ends.
func ServeStdio(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	srv, s := newServerWithService(opts)
	defer s.outDir.remove()
	x := newExchanges()
	in = &drainingReader{r: in, x: x, lines: lineCounter{count: isRequest}, grace: stdioDrainGrace}
	t := &mcp.IOTransport{Reader: io.NopCloser(in), Writer: &countingWriter{w: out, x: x, lines: lineCounter{count: isResponse}}}
	err := srv.Run(ctx, t)
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return fmt.Errorf("developer mcp server: %w", err)
	}
	return nil
}

// toolFunc is a handler with decoded _meta context.
type toolFunc func(ctx context.Context, cc callContext, args json.RawMessage) (*mcp.CallToolResult, error)

func (s *service) handler(f toolFunc) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		cc := newCallContext(ctx, req, s.opts.WorkingDir)
		if cc.conn == nil && s.direct != nil {
			cc.conn = s.direct
		}
		var args json.RawMessage
		if req.Params != nil {
			args = req.Params.Arguments
		}
		if len(args) == 0 || string(args) == "null" {
			args = json.RawMessage("{}")
		}
		return f(ctx, cc, args)
	}
}

// decodeArgs unmarshals tool arguments or reports invalid params.
func decodeArgs(args json.RawMessage, v any) error {
	if err := json.Unmarshal(args, v); err != nil {
		return invalidParams("Failed to parse arguments: %v", err)
	}
	return nil
}

// invalidParams and internalError are goose's MCP error codes (classic
// surface failures are JSON-RPC errors, as in goose's developer server).
func invalidParams(format string, a ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, a...)}
}

func internalError(format string, a ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf(format, a...)}
}

// errorText is the message of a tool error, without JSON-RPC decoration.
func errorText(err error) string {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return je.Message
	}
	return err.Error()
}
