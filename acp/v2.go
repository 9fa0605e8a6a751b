package acp

import (
	"context"
	"encoding/json"

	"github.com/sourcegraph/jsonrpc2"
)

// ACP v2 is a draft, served to a client whose initialize asks for it; v1
// clients see no change. The v2 face is a translation at this adapter's
// edges (v2*.go): the handshake on the Server (initialize, auth), the
// rest on v2API — the method table (v2API.methods), the frames it sends
// (v2_update.go), the prompt lifecycle (v2_prompt.go) — and the agent's
// own requests (v2_peer.go). Moving to the next draft is a change in these
// files; the version it follows is named once, here.
const (
	// ProtocolVersion2 is the draft's protocol version.
	ProtocolVersion2 = 2
	// V2Draft is the draft schema followed: the one
	// @agentclientprotocol/sdk 2.4.0 ships (schema/v2/schema.json).
	V2Draft = "schema-v2.0.0-alpha.3"
)

// v1Methods are gone from v2: session/load (session/resume replays),
// modes and the legacy model list (config options), authenticate
// (auth/login), and fork (not in the draft's stable surface).
var v1Methods = map[string]bool{
	"session/load": true, "session/set_mode": true, "session/set_model": true,
	"authenticate": true, "session/fork": true,
	// v2 steers with session/prompt itself (held prompts, v2_prompt.go).
	"_session/steering": true,
}

// isV2 reports whether the client negotiated v2.
func (s *Server) isV2() bool { return s.proto.Load() == ProtocolVersion2 }

// v2InitializeRequest is v2's initialize (role-agnostic info and
// capabilities).
type v2InitializeRequest struct {
	ProtocolVersion int                  `json:"protocolVersion"`
	Info            *Implementation      `json:"info"`
	Capabilities    v2ClientCapabilities `json:"capabilities"`
	Meta            Meta                 `json:"_meta,omitempty"`
}

type v2ClientCapabilities struct {
	Auth struct {
		// Terminal is {} when the client can run a terminal auth method.
		Terminal *json.RawMessage `json:"terminal,omitempty"`
	} `json:"auth"`
	Elicitation *json.RawMessage `json:"elicitation,omitempty"`
	Meta        Meta             `json:"_meta,omitempty"`
}

type v2InitializeResponse struct {
	ProtocolVersion int                 `json:"protocolVersion"`
	Info            Implementation      `json:"info"`
	Capabilities    v2AgentCapabilities `json:"capabilities"`
	AuthMethods     []v2AuthMethod      `json:"authMethods"`
}

type v2AgentCapabilities struct {
	Session v2SessionCapabilities `json:"session"`
}

// v2SessionCapabilities: {} means supported. List, resume and close are
// part of v2 itself.
type v2SessionCapabilities struct {
	Prompt                v2PromptCapabilities `json:"prompt"`
	MCP                   v2MCPCapabilities    `json:"mcp"`
	Delete                struct{}             `json:"delete"`
	AdditionalDirectories struct{}             `json:"additionalDirectories"`
}

type v2PromptCapabilities struct {
	Image           struct{} `json:"image"`
	EmbeddedContext struct{} `json:"embeddedContext"`
}

type v2MCPCapabilities struct {
	Stdio struct{} `json:"stdio"`
	HTTP  struct{} `json:"http"`
}

// v2AuthMethod is v1's method with v2's names (type required, methodId).
type v2AuthMethod struct {
	Type        string   `json:"type"`
	MethodID    string   `json:"methodId"`
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Args        []string `json:"args,omitempty"`
	Meta        Meta     `json:"_meta,omitempty"`
}

// initialize negotiates the version: 2 or more gets v2 (the highest this
// agent supports at or below the client's), anything else v1 as before.
// The latest successful initialize is authoritative.
func (s *Server) initialize(ctx context.Context, raw json.RawMessage) (any, error) {
	var probe struct {
		ProtocolVersion int `json:"protocolVersion"`
	}
	_ = json.Unmarshal(raw, &probe)
	if probe.ProtocolVersion < ProtocolVersion2 {
		s.proto.Store(ProtocolVersion)
		return typed(s.initializeV1)(ctx, raw)
	}
	return typed(s.initializeV2)(ctx, raw)
}

func (s *Server) initializeV2(_ context.Context, req v2InitializeRequest) (v2InitializeResponse, error) {
	if req.Info == nil {
		return v2InitializeResponse{}, invalidParams("info is required")
	}
	s.startOpen()
	// v2 clients run no commands and hold no files for the agent (no
	// fs/* or terminal/* delegation); shell output is shown in
	// agent-owned display terminals, which this adapter produces from the
	// display-terminal frames (_meta.terminal_*) it would send Zed.
	auth := req.Capabilities.Auth.Terminal
	caps := ClientCapabilities{Auth: AuthCapabilities{Terminal: auth != nil && string(*auth) != "null"},
		Elicitation: req.Capabilities.Elicitation, Meta: Meta{"terminal_output": true}}
	s.caps.Store(&caps)
	s.proto.Store(ProtocolVersion2)
	var methods []v2AuthMethod
	for _, m := range s.authMethods(caps) {
		t := m.Type
		if t == "" {
			t = "agent"
		}
		methods = append(methods, v2AuthMethod{Type: t, MethodID: m.ID, Name: m.Name, Description: m.Description, Args: m.Args, Meta: m.Meta})
	}
	return v2InitializeResponse{
		ProtocolVersion: ProtocolVersion2,
		Info:            Implementation{Name: "goose-acp", Title: "goose", Version: s.version},
		AuthMethods:     methods,
	}, nil
}

// versioned makes table serve both versions: v1's methods that v2 has
// not answer -32601 to a v2 client, v2's (v2) answer a v2 client in place
// of v1's and -32601 to a v1 client.
func (s *Server) versioned(table, v2 map[string]RequestHandler) {
	for method, h := range table {
		if v1Methods[method] {
			table[method] = s.forVersion(ProtocolVersion, method, h, nil)
		}
	}
	for method, h := range v2 {
		table[method] = s.forVersion(ProtocolVersion2, method, h, table[method])
	}
}

// forVersion answers with h when the client negotiated version, with
// other (nil: method not found) when it did not.
func (s *Server) forVersion(version int32, method string, h, other RequestHandler) RequestHandler {
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		if (s.proto.Load() == ProtocolVersion2) == (version == ProtocolVersion2) {
			return h(ctx, raw)
		}
		if other != nil {
			return other(ctx, raw)
		}
		e := &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "Method not found"}
		e.SetError(method)
		return nil, e
	}
}
