package acp

import (
	"context"
	"encoding/json"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// Elicitation modes: an MCP server's question reaches the client only in a
// mode the client advertised (clientCapabilities.elicitation.form / .url,
// each {} when supported); any other is declined at once, as ACP requires.
// A form asks for values (requestedSchema); a URL sends the user to a page
// (elicitationId names the flow, and elicitation/complete reports its end
// when the server says so). The session's MCP servers hear that we take
// URL mode only when the client does (agent.StartOptions.ElicitURL).

// elicitationModes are the modes a client takes.
type elicitationModes struct{ form, url bool }

// elicitationModesOf reads clientCapabilities.elicitation: a mode counts
// when its key is present and not null.
func elicitationModesOf(caps ClientCapabilities) elicitationModes {
	if caps.Elicitation == nil {
		return elicitationModes{}
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(*caps.Elicitation, &m) != nil {
		return elicitationModes{}
	}
	set := func(k string) bool { v, ok := m[k]; return ok && string(v) != "null" }
	return elicitationModes{form: set("form"), url: set("url")}
}

// elicitationFor is the elicitation/create a server's question becomes for
// a client taking modes; false when the client does not take its mode.
func elicitationFor(sessionID string, modes elicitationModes, d conversation.ActionData) (ElicitationRequest, bool) {
	if d.Mode == conversation.ElicitURLMode {
		return ElicitationRequest{SessionID: sessionID, Mode: "url", Message: d.Message, URL: d.URL, ElicitationID: d.ElicitationID}, modes.url
	}
	var schema any
	_ = json.Unmarshal(d.RequestedSchema, &schema)
	return ElicitationRequest{SessionID: sessionID, Mode: "form", Message: d.Message, RequestedSchema: schema}, modes.form
}

// elicitationComplete tells a client that takes URL mode that a flow it
// was sent to has ended.
func (p *promptAPI) elicitationComplete(ctx context.Context, id string) {
	if !elicitationModesOf(p.caps()).url {
		return
	}
	if err := p.peer.Notify(ctx, "elicitation/complete", map[string]string{"elicitationId": id}); err != nil {
		p.log.Debug("elicitation/complete not sent", "err", err)
	}
}
