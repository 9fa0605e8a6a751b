package providertest

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"time"
)

// PacedClient is an HTTP client that answers every request with 200 OK,
// contentType and a recorded body (see Record), from memory, one wire unit
// at a time: an SSE event when contentType is text/event-stream, else one
// line. It waits gap before each unit and gives up when the request's
// context ends.
//
// Run under testing/synctest, the gaps are the bubble's virtual time, so a
// test of an idle watchdog (events every 40 ms, a 100 ms watchdog that
// must not fire) gives the same answer on an idle or a loaded machine.
func PacedClient(contentType string, body []byte, gap time.Duration) *http.Client {
	return &http.Client{Transport: paced{contentType: contentType, units: splitUnits(contentType, body), gap: gap}}
}

// Units is how many wire units a body recorded for contentType holds, as
// PacedClient sends them.
func Units(contentType string, body []byte) int { return len(splitUnits(contentType, body)) }

func splitUnits(contentType string, body []byte) [][]byte {
	sep := []byte("\n")
	if strings.HasPrefix(contentType, "text/event-stream") {
		sep = []byte("\n\n")
	}
	var units [][]byte
	for len(body) > 0 {
		i := bytes.Index(body, sep)
		if i < 0 {
			return append(units, body)
		}
		units = append(units, body[:i+len(sep)])
		body = body[i+len(sep):]
	}
	return units
}

type paced struct {
	contentType string
	units       [][]byte
	gap         time.Duration
}

func (p paced) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {p.contentType}},
		Body: &pacedBody{req: req, units: p.units, gap: p.gap}, Request: req}, nil
}

type pacedBody struct {
	req   *http.Request
	units [][]byte
	cur   []byte
	gap   time.Duration
}

func (b *pacedBody) Read(out []byte) (int, error) {
	if len(b.cur) == 0 {
		if len(b.units) == 0 {
			return 0, io.EOF
		}
		timer := time.NewTimer(b.gap)
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-b.req.Context().Done():
			return 0, b.req.Context().Err()
		}
		b.cur, b.units = b.units[0], b.units[1:]
	}
	n := copy(out, b.cur)
	b.cur = b.cur[n:]
	return n, nil
}

func (b *pacedBody) Close() error { return nil }
