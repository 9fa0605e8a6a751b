package conversation

import (
	"encoding/json"
	"testing"
)

// benchWire is a 200-turn tool-using conversation as stored JSON.
func benchWire(b *testing.B) []byte {
	b.Helper()
	wire, err := json.Marshal(benchConversation(200))
	if err != nil {
		b.Fatal(err)
	}
	return wire
}

// BenchmarkUnmarshalConversation decodes 403 messages (200 tool round
// trips), the shape that dominates loading a long session.
func BenchmarkUnmarshalConversation(b *testing.B) {
	wire := benchWire(b)
	b.SetBytes(int64(len(wire)))
	b.ReportAllocs()
	for b.Loop() {
		var msgs []Message
		if err := json.Unmarshal(wire, &msgs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnmarshalContentVariants decodes one item of every variant.
func BenchmarkUnmarshalContentVariants(b *testing.B) {
	items := make([][]byte, len(goldenContents))
	for i, g := range goldenContents {
		w, err := json.Marshal(g.value)
		if err != nil {
			b.Fatal(err)
		}
		items[i] = w
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, w := range items {
			var c Content
			if err := json.Unmarshal(w, &c); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkMarshalConversation encodes the same 403 messages.
func BenchmarkMarshalConversation(b *testing.B) {
	msgs := benchConversation(200)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(msgs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMarshalConversationGoose encodes them with Marshal (goose's
// bytes: no HTML escaping).
func BenchmarkMarshalConversationGoose(b *testing.B) {
	msgs := benchConversation(200)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Marshal(msgs); err != nil {
			b.Fatal(err)
		}
	}
}
