package google

import (
	"io"

	"github.com/goose-acp/goose-acp/core/provider/sse"
)

// maxSSELine bounds one line of the event stream (genai's limit too).
const maxSSELine = 256 << 20

// newSSEReader reads a Server-Sent Events stream as Gemini sends it
// (?alt=sse), failing on a line longer than maxLine bytes. Any line that
// is no SSE field means the body is not an event stream (an error page, a
// bare JSON error) and ends it with an *sse.LineError; at the end of the
// body, an event still missing its blank line is returned rather than
// dropped. Gemini names no events, so callers read only the data.
func newSSEReader(r io.Reader, maxLine int) *sse.Reader {
	return sse.NewReader(r, sse.Options{MaxLine: maxLine, Strict: true, KeepUnfinished: true})
}

// nextData returns the data of the next event that has any, or io.EOF at
// the end of the stream, or the error that ended it.
func nextData(r *sse.Reader) ([]byte, error) {
	for {
		ev, err := r.Next()
		if err != nil || ev.HasData {
			return ev.Data, err
		}
	}
}
