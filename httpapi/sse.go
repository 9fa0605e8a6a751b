package httpapi

import (
	"net/http"
	"time"
)

// sseWriter writes an event stream and flushes it.
type sseWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

// startSSE sends goosed's stream headers and lifts any server write
// deadline, so long streams are not cut.
func startSSE(w http.ResponseWriter) *sseWriter {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "keep-alive")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{})
	_ = rc.Flush()
	return &sseWriter{w: w, rc: rc}
}

func (s *sseWriter) write(frame []byte) error {
	if err := s.writeNoFlush(frame); err != nil {
		return err
	}
	return s.flush()
}

func (s *sseWriter) writeNoFlush(frame []byte) error {
	_, err := s.w.Write(frame)
	return err
}

func (s *sseWriter) flush() error { return s.rc.Flush() }
