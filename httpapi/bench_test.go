package httpapi

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
)

// BenchmarkEventsFanout: 50 sessions at once, each streaming a 500-chunk
// reply through GET /sessions/{id}/events; every stream must see ids
// 1, 2, 3, … with no gap and end with Finish.
func BenchmarkEventsFanout(b *testing.B) {
	const sessions, chunks = 50, 500
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		text := make([]string, chunks)
		for j := range text {
			text[j] = "c" + strconv.Itoa(j) + " "
		}
		steps := make([]step, sessions)
		for j := range steps {
			steps[j] = say(text...)
		}
		e := newBenchEnv(b, steps...)
		ids := make([]string, sessions)
		for j := range ids {
			ids[j] = e.startSession()
		}
		b.StartTimer()
		var wg sync.WaitGroup
		errs := make(chan error, sessions)
		for _, id := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- e.streamTurn(id, chunks)
			}()
		}
		wg.Wait()
		b.StopTimer()
		close(errs)
		for err := range errs {
			if err != nil {
				b.Fatal(err)
			}
		}
		e.close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*sessions*(chunks+1)), "ns/event")
}

// streamTurn submits a turn and checks its event stream.
func (e *testEnv) streamTurn(id string, chunks int) error {
	req, _ := http.NewRequest("GET", e.http.URL+"/sessions/"+id+"/events", nil)
	req.Header.Set("X-Secret-Key", testSecret)
	resp, err := e.http.Client().Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	rid := uuid.NewString()
	body := fmt.Sprintf(`{"request_id":%q,"user_message":%s}`, rid, mustJSON(conversation.UserText(1, "go")))
	preq, _ := http.NewRequest("POST", e.http.URL+"/sessions/"+id+"/reply", strings.NewReader(body))
	preq.Header.Set("X-Secret-Key", testSecret)
	preq.Header.Set("Content-Type", "application/json")
	presp, err := e.http.Client().Do(preq)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, presp.Body)
	presp.Body.Close()
	r := newSSEReader(resp)
	want, texts := 1, 0
	for {
		f, ok := <-r.frames
		if !ok {
			return fmt.Errorf("session %s: stream ended after %d events", id, want-1)
		}
		if f.Data == "" {
			continue
		}
		if f.ID != strconv.Itoa(want) {
			return fmt.Errorf("session %s: event id %s, want %d", id, f.ID, want)
		}
		want++
		if strings.Contains(f.Data, `"type":"Finish"`) {
			break
		}
		if strings.Contains(f.Data, `"text":"c`+strconv.Itoa(texts)+` "`) {
			texts++
		}
	}
	if texts != chunks {
		return fmt.Errorf("session %s: %d chunks in order, want %d", id, texts, chunks)
	}
	return nil
}

// BenchmarkEventOverhead is the server's CPU cost per event: translating
// an agent message event, framing and buffering it on the bus, handing it
// to a subscriber and writing the frame (to io.Discard here).
func BenchmarkEventOverhead(b *testing.B) {
	bus := newEventBus()
	sub := bus.subscribe(0, false).sub
	tk := &tokens{state: TokenState{InputTokens: 1200, OutputTokens: 35, TotalTokens: 1235}}
	msg := conversation.AssistantText(1747040000, "a streamed chunk of text").WithID("msg_0196c0de")
	ev := agent.MessageEvent{Message: msg}
	rid := uuid.NewString()
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		we, _ := tk.translate(ctx, ev)
		bus.publish(rid, we)
		e := <-sub.ch
		_, _ = io.Discard.Write(e.frame)
	}
	b.StopTimer()
	bus.unsubscribe(sub)
}

// BenchmarkStatus measures GET /status over loopback TCP: 4 keep-alive
// connections, each a lean raw HTTP/1.1 client (so the load generator
// does not eat the CPU it measures). The req/s metric is the goal
// (≥ 10,000).
func BenchmarkStatus(b *testing.B) {
	e := newBenchEnv(b)
	defer e.close()
	addr := strings.TrimPrefix(e.http.URL, "http://")
	const conns = 4
	req := []byte("GET /status HTTP/1.1\r\nHost: " + addr + "\r\nX-Secret-Key: x\r\n\r\n")
	var next atomic.Int64
	b.ResetTimer()
	var wg sync.WaitGroup
	for c := 0; c < conns; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				b.Error(err)
				return
			}
			defer conn.Close()
			br := bufio.NewReader(conn)
			for next.Add(1) <= int64(b.N) {
				if _, err := conn.Write(req); err != nil {
					b.Error(err)
					return
				}
				resp, err := http.ReadResponse(br, nil)
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Errorf("status %d", resp.StatusCode)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}
