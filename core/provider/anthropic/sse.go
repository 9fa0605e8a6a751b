package anthropic

import (
	"io"

	"github.com/goose-acp/goose-acp/core/provider/sse"
)

// sseOptions read the Messages API stream: lines up to 32 MiB (the limit
// anthropic-sdk-go's decoder had; a longer line fails the stream), unknown
// fields ignored, and an event the body ends in before its blank line
// dropped, as the SSE specification says.
var sseOptions = sse.Options{MaxLine: 32 << 20}

func newSSEReader(r io.Reader) *sse.Reader { return sse.NewReader(r, sseOptions) }
