package providertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
)

func init() {
	handlers[Google] = serveGoogle
	modelLists[Google] = serveGoogleModels
}

var googleRespSeq atomic.Int64

// serveGoogle answers POST /v1beta/models/{model}:streamGenerateContent
// ?alt=sse as Gemini streams: data-only SSE chunks, each a
// GenerateContentResponse with one candidate. Thoughts are parts with
// "thought":true; the thought signature rides on the first functionCall
// part when there are calls, else on the last thought part. Function calls
// arrive whole, all in one chunk (args is the scripted JSON verbatim, so
// non-object arguments make a malformed chunk, as from a broken proxy).
// The last chunk carries finishReason and the full usageMetadata. A turn
// with ErrorBody but no Status streams its content and then an
// {"error":{…}} chunk, as Gemini reports failures mid-stream.
func serveGoogle(w http.ResponseWriter, r *http.Request, t Turn) {
	model := strings.TrimPrefix(r.URL.Path, "/v1beta/models/")
	model, _, _ = strings.Cut(model, ":")
	id := fmt.Sprintf("resp-providertest-%d", googleRespSeq.Add(1))
	ew := newEventWriter(w, r, t, "text/event-stream")
	for _, c := range googleChunks(id, model, t) {
		if !ew.sse("", c) {
			return
		}
	}
	if t.ErrorBody == "" {
		return
	}
	body := []byte(t.ErrorBody)
	if !json.Valid(body) {
		body, _ = json.Marshal(map[string]any{"error": map[string]any{"code": 500, "message": t.ErrorBody, "status": "INTERNAL"}})
	}
	ew.sse("", body)
}

// googleChunks returns the encoded chunks of a turn, the error chunk
// excluded.
func googleChunks(id, model string, t Turn) [][]byte {
	u := t.Usage
	if u == nil {
		u = &Usage{}
	}
	chunk := func(parts []string, final bool) []byte {
		usage := fmt.Sprintf(`{"promptTokenCount":%d,"totalTokenCount":%d}`, u.Input, u.Input)
		finish := ""
		if final {
			usage = fmt.Sprintf(`{"promptTokenCount":%d,"candidatesTokenCount":%d,"totalTokenCount":%d,"cachedContentTokenCount":%d}`,
				u.Input, u.Output, u.Input+u.Output, u.CacheRead)
			finish = fmt.Sprintf(`,"finishReason":%q`, googleFinishReason(t))
		}
		return fmt.Appendf(nil, `{"candidates":[{"content":{"parts":[%s],"role":"model"}%s,"index":0}],"usageMetadata":%s,"modelVersion":%q,"responseId":%q}`,
			strings.Join(parts, ","), finish, usage, model, id)
	}
	var out [][]byte
	for i, s := range t.Thinking {
		sig := ""
		if i == len(t.Thinking)-1 && len(t.ToolCalls) == 0 && t.ThinkingSignature != "" {
			sig = fmt.Sprintf(`,"thoughtSignature":%q`, t.ThinkingSignature)
		}
		out = append(out, chunk([]string{fmt.Sprintf(`{"text":%s,"thought":true%s}`, jsonString(s), sig)}, false))
	}
	for _, s := range t.Text {
		out = append(out, chunk([]string{fmt.Sprintf(`{"text":%s}`, jsonString(s))}, false))
	}
	if len(t.ToolCalls) > 0 {
		out = append(out, chunk(googleCallParts(t), false))
	}
	if t.ErrorBody != "" {
		return out
	}
	return append(out, chunk([]string{`{"text":""}`}, true))
}

func googleCallParts(t Turn) []string {
	parts := make([]string, len(t.ToolCalls))
	for i, tc := range t.ToolCalls {
		args := tc.Arguments
		if args == "" {
			args = "{}"
		}
		sig := ""
		if i == 0 && t.ThinkingSignature != "" {
			sig = fmt.Sprintf(`,"thoughtSignature":%q`, t.ThinkingSignature)
		}
		parts[i] = fmt.Sprintf(`{"functionCall":{"name":%q,"args":%s}%s}`, tc.Name, args, sig)
	}
	return parts
}

func googleFinishReason(t Turn) string {
	if t.StopReason != "" {
		return t.StopReason
	}
	return "STOP"
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// serveGoogleModels answers GET /v1beta/models.
func serveGoogleModels(w http.ResponseWriter, _ *http.Request, models []string) {
	list := make([]map[string]any, 0, len(models))
	for _, m := range models {
		list = append(list, map[string]any{"name": "models/" + m, "displayName": m,
			"supportedGenerationMethods": []string{"generateContent", "countTokens"}})
	}
	body, _ := json.Marshal(map[string]any{"models": list})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}
