package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/session/memory"
	"github.com/goose-acp/goose-acp/core/setup"
)

// TestV2PromptsRunInTheOrderSent: two v2 prompts sent back to back are
// inserted and run in the order sent, even when the first one's handler
// is the slower to get going (here its provider check is held until the
// second one's has run, or 300 ms when the second one is rightly still
// waiting). Each request runs in its own goroutine: without session/prompt
// being ordered up to its place in the queue, the second prompt took the
// turn first (the SDK harness's "held" scenario failed that way under load).
func TestV2PromptsRunInTheOrderSent(t *testing.T) {
	var armed atomic.Bool
	var calls atomic.Int32
	secondChecked := make(chan struct{})
	status := func() setup.Status {
		if armed.Load() {
			switch calls.Add(1) {
			case 1:
				select {
				case <-secondChecked:
				case <-time.After(300 * time.Millisecond):
				}
			case 2:
				close(secondChecked)
			}
		}
		return setup.Status{}
	}
	store := memory.New(time.Now)
	a := agent.New(agent.Options{
		Store:     store,
		Providers: func(context.Context, string, model.Config) (provider.Provider, error) { return instantModel{}, nil },
		Config:    benchConfig{"GOOSE_DISABLE_SESSION_NAMING": "true", "GOOSE_PROVIDER": "instant", "GOOSE_MODEL": "instant"},
		TempDir:   t.TempDir(),
	})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		_ = Serve(context.Background(), inR, outW, Options{Agent: a, Store: store, Builtins: []string{}, Auth: AuthOptions{Status: status}})
		outW.Close()
		close(done)
	}()
	t.Cleanup(func() {
		inW.Close()
		go io.Copy(io.Discard, outR)
		<-done
		_ = a.Close()
	})
	out := bufio.NewReaderSize(outR, 1<<16)
	send := func(line string) { _, _ = io.WriteString(inW, line+"\n") }
	type frame struct {
		ID     *int            `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
		Params struct {
			Update struct {
				SessionUpdate string `json:"sessionUpdate"`
				MessageID     string `json:"messageId"`
				State         string `json:"state"`
			} `json:"update"`
		} `json:"params"`
	}
	next := func() frame {
		line, err := out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("agent output ended: %v", err)
		}
		var f frame
		if err := json.Unmarshal(line, &f); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if f.Error != nil {
			t.Fatalf("error answer: %s", line)
		}
		return f
	}
	result := func(id int) json.RawMessage {
		for {
			if f := next(); f.Method == "" && f.ID != nil && *f.ID == id {
				return f.Result
			}
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"c","version":"1"},"capabilities":{}}}`)
	result(1)
	send(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"` + t.TempDir() + `","mcpServers":[]}}`)
	var s struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(result(2), &s); err != nil || s.SessionID == "" {
		t.Fatalf("session/new: %v", err)
	}
	armed.Store(true)
	for i, text := range []string{"one", "two"} {
		send(`{"jsonrpc":"2.0","id":` + string(rune('3'+i)) + `,"method":"session/prompt","params":{"sessionId":"` + s.SessionID + `","prompt":[{"type":"text","text":"` + text + `"}]}}`)
	}
	answered := map[int]string{}
	var inserted []string
	idle := 0
	for len(answered) < 2 || idle < 2 {
		f := next()
		switch {
		case f.Method == "" && f.ID != nil:
			var r struct {
				MessageID string `json:"messageId"`
			}
			if err := json.Unmarshal(f.Result, &r); err != nil || r.MessageID == "" {
				t.Fatalf("prompt %d answered %s", *f.ID, f.Result)
			}
			answered[*f.ID] = r.MessageID
		case f.Params.Update.SessionUpdate == "user_message":
			inserted = append(inserted, f.Params.Update.MessageID)
		case f.Params.Update.SessionUpdate == "state_update" && f.Params.Update.State == "idle":
			idle++
		}
	}
	if got, want := strings.Join(inserted, ","), answered[3]+","+answered[4]; got != want {
		t.Fatalf("user messages inserted as %s, want the first prompt's then the second's: %s", got, want)
	}
}
