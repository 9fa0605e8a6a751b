package conversation

import (
	"bytes"
	"encoding/json"
	"sync"
)

// Marshal encodes v the way goose's serde_json writes it: "<", ">" and "&"
// are not HTML-escaped and U+2028/U+2029 stay raw. Use it (or an Encoder
// with SetEscapeHTML(false)) wherever bytes must match goose's, e.g. rows
// in sessions.db. Plain json.Marshal re-escapes the output of every
// MarshalJSON method, so through it the same values come out as valid JSON
// of equal value but with \u003c, \u003e, \u0026, \u2028 and \u2029.
func Marshal(v any) ([]byte, error) {
	e := encoderPool.Get().(*noEscapeEncoder)
	defer e.release()
	e.buf.Reset()
	if err := e.enc.Encode(v); err != nil {
		return nil, err
	}
	out := bytes.TrimSuffix(e.buf.Bytes(), []byte("\n"))
	return copyRawSeparators(out), nil
}

// noEscapeEncoder is a reusable Encoder writing into its own buffer;
// MarshalJSON methods nest, so each call takes its own from the pool.
type noEscapeEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var encoderPool = sync.Pool{New: func() any {
	e := &noEscapeEncoder{}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}}

// maxPooledBuffer keeps one huge message from pinning its buffer forever.
const maxPooledBuffer = 64 << 10

func (e *noEscapeEncoder) release() {
	if e.buf.Cap() <= maxPooledBuffer {
		encoderPool.Put(e)
	}
}

// copyRawSeparators returns a copy of the encoder output b with the
// \u2028 and \u2029 escapes (which encoding/json always writes) replaced by
// the raw characters, as serde_json leaves them.
func copyRawSeparators(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u202`)) {
		return bytes.Clone(b)
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 >= len(b) {
			out = append(out, c)
			continue
		}
		// Every backslash in encoder output starts an escape, so this
		// never mistakes an escaped backslash followed by "u2028".
		if i+5 < len(b) && string(b[i+1:i+5]) == "u202" && (b[i+5] == '8' || b[i+5] == '9') {
			out = append(out, 0xE2, 0x80, 0xA8+(b[i+5]-'8'))
			i += 5
			continue
		}
		out = append(out, c, b[i+1])
		i++
	}
	return out
}
