package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/charmbracelet/x/term"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/setup"
)

// Output formats of `goose-acp run --output-format` (goose's names).
const (
	formatText       = "text"
	formatJSON       = "json"
	formatStreamJSON = "stream-json"
)

// validOutputFormat accepts goose's names; "" is text.
func validOutputFormat(f string) bool {
	return f == "" || f == formatText || f == formatJSON || f == formatStreamJSON
}

// runOutput is stdout for one run, with how to render the turn: text for
// people (coloured, with thinking and inline approvals when stderr is a
// terminal, and stdin too for approvals), or goose's JSON for scripts.
type runOutput struct {
	w      io.Writer
	ctx    context.Context
	format string
	// tty: stderr, where tool lines, thinking and approval questions go,
	// is a terminal; color: and NO_COLOR is not set.
	tty, color bool
	// asker reads approval answers from stdin; nil when stdin is not a
	// terminal (approvals are then denied).
	asker *lineAsker
	enc   *json.Encoder
}

func newRunOutput(env *environment, format string) *runOutput {
	if format == "" {
		format = formatText
	}
	o := &runOutput{w: env.stdout, ctx: env.ctx, format: format}
	o.tty = isTerminal(env.stderr)
	o.color = o.tty && env.getenv("NO_COLOR") == ""
	if in, ok := env.stdin.(*os.File); ok && o.tty && format == formatText && term.IsTerminal(in.Fd()) {
		o.asker = &lineAsker{r: bufio.NewReader(in)}
	}
	o.enc = json.NewEncoder(env.stdout)
	o.enc.SetEscapeHTML(false)
	return o
}

func (o *runOutput) Write(b []byte) (int, error) { return o.w.Write(b) }

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// style is a terminal text style.
type style string

const (
	styleDim    style = "\x1b[2m"
	styleHeader style = "\x1b[36m"
	styleError  style = "\x1b[31m"
)

func (o *runOutput) paint(s style, text string) string {
	if !o.color {
		return text
	}
	return string(s) + text + "\x1b[0m"
}

// streamEvent is one line of --output-format stream-json, goose's
// StreamEvent: {"type":"message","message":…}, {"type":"notification",…},
// {"type":"error","error":…}, {"type":"complete",…}.
type streamEvent struct {
	Type        string                `json:"type"`
	Message     *conversation.Message `json:"message,omitempty"`
	ExtensionID string                `json:"extension_id,omitempty"`
	Log         *struct {
		Message string `json:"message"`
	} `json:"log,omitempty"`
	Error string `json:"error,omitempty"`
	tokenCounts
}

// tokenCounts are goose's JSON token fields.
type tokenCounts struct {
	TotalTokens  *int `json:"total_tokens,omitempty"`
	InputTokens  *int `json:"input_tokens,omitempty"`
	OutputTokens *int `json:"output_tokens,omitempty"`
}

// event writes one stream-json line (json collects nothing: the final
// document is read from the session).
func (o *runOutput) event(ev agent.Event) {
	if o.format != formatStreamJSON {
		return
	}
	switch e := ev.(type) {
	case agent.MessageEvent:
		m := e.Message
		_ = o.enc.Encode(streamEvent{Type: "message", Message: &m})
	case agent.NotificationEvent:
		line := streamEvent{Type: "notification", ExtensionID: e.Extension}
		line.Log = &struct {
			Message string `json:"message"`
		}{Message: notificationText(e.Params)}
		_ = o.enc.Encode(line)
	}
}

// sessionGetter reads the finished session for the JSON output.
type sessionGetter interface {
	Get(ctx context.Context, id string, withConversation bool) (session.Session, error)
}

// finish ends the output (the JSON document, or stream-json's last line)
// and maps err to the exit status; errors also go to stderr as "Error: …".
func (o *runOutput) finish(store sessionGetter, res runResult, err error, stderr io.Writer) int {
	if err != nil && (setup.IsAuth(err) || errors.Is(err, agent.ErrNoProvider)) {
		// One line saying what to do, not the agent's wrapped chain.
		err = fmt.Errorf("%s", setup.AuthReason(err))
	}
	var sess session.Session
	if res.SessionID != "" && o.format != formatText {
		sess, _ = store.Get(context.WithoutCancel(o.ctx), res.SessionID, o.format == formatJSON)
	}
	counts := tokenCounts{TotalTokens: sess.TotalTokens, InputTokens: sess.InputTokens, OutputTokens: sess.OutputTokens}
	switch o.format {
	case formatStreamJSON:
		if err != nil {
			_ = o.enc.Encode(streamEvent{Type: "error", Error: err.Error()})
		} else {
			_ = o.enc.Encode(streamEvent{Type: "complete", tokenCounts: counts})
		}
	case formatJSON:
		status := "completed"
		if err != nil {
			status = "error"
		}
		doc := struct {
			Messages []conversation.Message `json:"messages"`
			Metadata struct {
				tokenCounts
				Status string `json:"status"`
				Error  string `json:"error,omitempty"`
			} `json:"metadata"`
		}{Messages: conversation.Conversation(sess.Conversation).WithoutTurnContext()}
		if doc.Messages == nil {
			doc.Messages = []conversation.Message{}
		}
		doc.Metadata.tokenCounts, doc.Metadata.Status = counts, status
		if err != nil {
			doc.Metadata.Error = err.Error()
		}
		_ = o.enc.Encode(doc)
	}
	return exitCode(stderr, err)
}

// lineAsker reads answers from the terminal one line at a time; a read
// blocked when the run is interrupted is abandoned.
type lineAsker struct {
	r     *bufio.Reader
	once  sync.Once
	lines chan string
}

func (a *lineAsker) line(ctx context.Context) (string, bool) {
	a.once.Do(func() {
		a.lines = make(chan string)
		go func() {
			defer close(a.lines)
			for {
				s, err := a.r.ReadString('\n')
				if s != "" || err == nil {
					a.lines <- s
				}
				if err != nil {
					return
				}
			}
		}()
	})
	select {
	case s, ok := <-a.lines:
		return s, ok
	case <-ctx.Done():
		return "", false
	}
}

// notificationText is an MCP notification's data: the string itself, or
// its JSON.
func notificationText(params json.RawMessage) string {
	var p struct {
		Data json.RawMessage `json:"data"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.Data) == 0 {
		return string(params)
	}
	var s string
	if json.Unmarshal(p.Data, &s) == nil {
		return s
	}
	return string(p.Data)
}
