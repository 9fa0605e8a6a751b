package httpapi

import (
	"io"
	"net/http"
	"sync"
	"time"
)

// bodyReadTimeout bounds how long a client may take to send a request
// body. It is not http.Server.ReadTimeout: that deadline stays on the
// connection while the handler runs, so the server's background read would
// hit it and cancel every SSE or WebSocket response older than the timeout.
// Here the deadline is lifted as soon as the body has been read to its end.
var bodyReadTimeout = 30 * time.Second

// serverIdleTimeout closes keep-alive connections idle between requests.
const serverIdleTimeout = 2 * time.Minute

// timeBody puts a read deadline on requests that carry a body and clears
// it once the body is fully read, so slow (or stalled) bodies fail with
// 408 while long streaming responses are never cut.
func timeBody(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			rc := http.NewResponseController(w)
			if rc.SetReadDeadline(time.Now().Add(bodyReadTimeout)) == nil {
				r = replaceBody(r, &deadlineBody{ReadCloser: r.Body, lift: func() { _ = rc.SetReadDeadline(time.Time{}) }})
			}
		}
		h.ServeHTTP(w, r)
	})
}

// deadlineBody lifts the connection's read deadline when the body ends.
type deadlineBody struct {
	io.ReadCloser
	once sync.Once
	lift func()
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.once.Do(b.lift)
	}
	return n, err
}

// replaceBody is a shallow copy of r with another body. The server keeps its
// own request, whose body it inspects after the handler: a body left unread
// (a request refused from its Content-Length) then ends the connection
// after a grace period that lets the client read the answer, instead of a
// reset that can discard it.
func replaceBody(r *http.Request, body io.ReadCloser) *http.Request {
	r = r.WithContext(r.Context())
	r.Body = body
	return r
}
