package openai

import (
	"encoding/json"
	"slices"
	"sort"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
)

// toolAccumulator assembles streamed tool calls. Deltas are matched by
// index when the server sends one; servers that omit it (some
// OpenAI-compatible ones) start a new call whenever a delta carries a new
// id, and otherwise continue the latest call. A reused index with a
// different id also starts a new call, so parallel calls never merge.
type toolAccumulator struct {
	slots   []toolSlot
	indexes []int // indexes[i] is the wire index of slots[i], -1 if none
}

type toolSlot struct {
	id, name string
	args     []byte
	extra    json.RawMessage
}

func (a *toolAccumulator) add(d *wireToolDelta) {
	s := a.slotFor(d)
	if s.id == "" && !d.ID.empty() {
		s.id = d.ID.String()
	}
	if s.name == "" && !d.Function.Name.empty() {
		s.name = d.Function.Name.String()
	}
	s.args = d.Function.Arguments.appendTo(s.args)
	if s.extra == nil && len(d.ExtraContent) > 0 && string(d.ExtraContent) != "null" {
		s.extra = append(json.RawMessage(nil), d.ExtraContent...)
	}
}

func (a *toolAccumulator) slotFor(d *wireToolDelta) *toolSlot {
	newID := !d.ID.empty()
	if d.Index.set {
		for i := len(a.slots) - 1; i >= 0; i-- {
			if a.indexes[i] != d.Index.v {
				continue
			}
			if newID && a.slots[i].id != "" && !d.ID.is(a.slots[i].id) {
				break // the server reused an index for a new call
			}
			return &a.slots[i]
		}
		return a.push(d.Index.v)
	}
	if n := len(a.slots); n > 0 && (!newID || d.ID.is(a.slots[n-1].id)) {
		return &a.slots[n-1]
	}
	return a.push(-1)
}

func (a *toolAccumulator) push(index int) *toolSlot {
	a.slots = append(a.slots, toolSlot{})
	a.indexes = append(a.indexes, index)
	return &a.slots[len(a.slots)-1]
}

func (a *toolAccumulator) pending() bool { return len(a.slots) > 0 }

// flush returns the finished calls as tool-request contents in arrival
// order (which is index order for servers that send indexes) and resets.
// Arguments that are not valid JSON become an error item the model sees.
func (a *toolAccumulator) flush() []conversation.Content {
	if !slices.Contains(a.indexes, -1) {
		sort.Stable(byIndex{a})
	}
	out := make([]conversation.Content, 0, len(a.slots))
	for _, s := range a.slots {
		c := provider.ToolRequest(s.id, s.name, string(s.args))
		if s.extra != nil {
			c.ToolRequest.Metadata = map[string]any{"extra_content": s.extra}
		}
		out = append(out, c)
	}
	a.slots, a.indexes = a.slots[:0], a.indexes[:0]
	return out
}

type byIndex struct{ a *toolAccumulator }

func (b byIndex) Len() int           { return len(b.a.slots) }
func (b byIndex) Less(i, j int) bool { return b.a.indexes[i] < b.a.indexes[j] }
func (b byIndex) Swap(i, j int) {
	b.a.slots[i], b.a.slots[j] = b.a.slots[j], b.a.slots[i]
	b.a.indexes[i], b.a.indexes[j] = b.a.indexes[j], b.a.indexes[i]
}
