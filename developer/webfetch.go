package developer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// web_fetch follows goose's developer/web.rs (goose-platform-extensions.md
// §3a): texts, schema, limits and error strings are goose's.
const webFetchDescription = "Fetch the body of an http(s) URL. Returns the response inline for small text or JSON bodies, or a path to a temp file for large or binary bodies. Use `save_as` to pick text (default), json (validates parse), or binary."

const webFetchSchema = `{"type":"object","required":["url"],"properties":{
"url":{"type":"string","description":"Absolute http:// or https:// URL to fetch."},
"save_as":{"description":"How to handle the response body. Defaults to ` + "`text`" + `.","default":"text","oneOf":[
{"type":"string","const":"text","description":"Decode body as UTF-8 text."},
{"type":"string","const":"json","description":"Decode body as UTF-8 text and validate it parses as JSON."},
{"type":"string","const":"binary","description":"Treat body as raw bytes; always saved to a temp file."}]}}}`

const (
	// webInlineLimit: bodies up to this size come back inline (goose's
	// INLINE_BYTE_LIMIT).
	webInlineLimit = 64 << 10
	// webMaxBody bounds what one fetch writes to disk; goose has no bound
	// (it reads the whole body into memory), we stream and stop here.
	webMaxBody = 256 << 20
	// webTimeout is goose's REQUEST_TIMEOUT for the whole request.
	webTimeout   = 30 * time.Second
	webAccept    = "text/markdown, text/html, application/json, */*"
	webAcceptLng = "en-US,en;q=0.9"
)

func (s *service) registerWebFetch(srv registrar) {
	addTool(srv, &mcp.Tool{Name: "web_fetch", Description: webFetchDescription, InputSchema: json.RawMessage(webFetchSchema),
		Annotations: annotations("WebFetch", true, false, true, true)}, s.handler(s.webFetch))
}

type webFetchArgs struct {
	URL    *string `json:"url"`
	SaveAs *string `json:"save_as"`
}

// decodeWebFetchArgs reports bad arguments the way goose's serde does.
func decodeWebFetchArgs(raw json.RawMessage) (url, saveAs string, err error) {
	var a webFetchArgs
	if err := json.Unmarshal(raw, &a); err != nil {
		return "", "", fmt.Errorf("Failed to parse arguments: %w", err)
	}
	if a.URL == nil {
		return "", "", errors.New("Failed to parse arguments: missing field `url`")
	}
	saveAs = "text"
	if a.SaveAs != nil {
		saveAs = *a.SaveAs
	}
	switch saveAs {
	case "text", "json", "binary":
	default:
		return "", "", fmt.Errorf("Failed to parse arguments: unknown variant `%s`, expected one of `text`, `json`, `binary`", saveAs)
	}
	return *a.URL, saveAs, nil
}

func (s *service) webFetch(ctx context.Context, _ callContext, raw json.RawMessage) (*mcp.CallToolResult, error) {
	rawURL, saveAs, err := decodeWebFetchArgs(raw)
	if err != nil {
		return toolError("Error: %v", err), nil
	}
	target := strings.TrimSpace(rawURL)
	if target == "" {
		return toolError("URL cannot be empty."), nil
	}
	if !strings.HasPrefix(target, "http://") && !strings.HasPrefix(target, "https://") {
		return toolError("URL must start with http:// or https://, got: %s", target), nil
	}
	ctx, cancel := context.WithTimeout(ctx, webTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return toolError("Failed to fetch URL: builder error: %v", err), nil
	}
	req.Header.Set("User-Agent", imageUserAgent)
	req.Header.Set("Accept", webAccept)
	req.Header.Set("Accept-Language", webAcceptLng)
	resp, err := webClient.Do(req)
	if err != nil {
		return toolError("Failed to fetch URL: %s", fetchErrorText(target, err)), nil
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return toolError("HTTP request failed with status: %s", statusText(resp.StatusCode)), nil
	}
	return deliverBody(resp.Body, saveAs), nil
}

// webClient is a plain client (goose's web_fetch has no SSRF guard: a
// local dev server is a legitimate target); proxies come from the
// environment as with goose's reqwest client.
var webClient = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}

// fetchErrorText is reqwest's "error sending request for url (…)" with the
// cause appended, so an offline model learns why.
func fetchErrorText(target string, err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("error sending request for url (%s): operation timed out", target)
	}
	return fmt.Sprintf("error sending request for url (%s): %v", target, err)
}

// statusText is how goose prints a status: "404 Not Found".
func statusText(code int) string {
	reason := http.StatusText(code)
	if reason == "" {
		reason = "<unknown status code>"
	}
	return fmt.Sprintf("%d %s", code, reason)
}

// deliverBody reads at most webInlineLimit+1 bytes into memory; a small
// UTF-8 text or JSON body comes back inline, anything else streams to a
// kept temp file goose-web-*.{txt,json,bin}. A text body that is not
// UTF-8 (or holds NUL bytes) is binary: it goes to a .bin file rather
// than inline as replacement characters.
func deliverBody(body io.Reader, saveAs string) *mcp.CallToolResult {
	head, err := io.ReadAll(io.LimitReader(body, webInlineLimit+1))
	if err != nil {
		return toolError("%s: %v", readFailure(saveAs), err)
	}
	small := len(head) <= webInlineLimit
	switch saveAs {
	case "text":
		if small && utf8.Valid(head) && !bytes.ContainsRune(head, 0) {
			return &mcp.CallToolResult{Content: []mcp.Content{text(string(head))}}
		}
		ext := "txt"
		if small || !utf8.Valid(head[:validPrefix(head)]) || bytes.ContainsRune(head, 0) {
			ext = "bin"
		}
		return saveBody(head, body, ext, saveAs)
	case "json":
		if small {
			if err := validJSON(bytes.NewReader(head)); err != nil {
				return toolError("Invalid JSON response: %v", err)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{text(string(head))}}
		}
		return saveBody(head, body, "json", saveAs)
	default:
		return saveBody(head, body, "bin", saveAs)
	}
}

// readFailure is goose's prefix for a body that broke off mid-read.
func readFailure(saveAs string) string {
	if saveAs == "binary" {
		return "Failed to read body bytes"
	}
	return "Failed to read body as text"
}

// validPrefix trims an incomplete trailing UTF-8 sequence (the inline
// probe may cut a character in two).
func validPrefix(b []byte) int {
	for i := 0; i < utf8.UTFMax && i < len(b); i++ {
		if r, _ := utf8.DecodeLastRune(b[:len(b)-i]); r != utf8.RuneError {
			return len(b) - i
		}
	}
	return len(b)
}

// saveBody writes head and the rest of body to a kept temp file, at most
// webMaxBody bytes, validating JSON from the file for save_as json.
func saveBody(head []byte, rest io.Reader, ext, saveAs string) *mcp.CallToolResult {
	f, err := os.CreateTemp("", "goose-web-*."+ext)
	if err != nil {
		return toolError("Failed to write temp file: %v", err)
	}
	path := f.Name()
	fail := func(r *mcp.CallToolResult) *mcp.CallToolResult { f.Close(); os.Remove(path); return r }
	if _, err := f.Write(head); err != nil {
		return fail(toolError("Failed to write temp file: %v", err))
	}
	n, err := io.Copy(f, io.LimitReader(rest, webMaxBody-int64(len(head))+1))
	total := int64(len(head)) + n
	switch {
	case err != nil:
		return fail(toolError("%s: %v", readFailure(saveAs), err))
	case total > webMaxBody:
		return fail(toolError("%s: the response exceeds %d bytes", readFailure(saveAs), webMaxBody))
	}
	if saveAs == "json" {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return fail(toolError("Failed to write temp file: %v", err))
		}
		if err := validJSON(f); err != nil {
			return fail(toolError("Invalid JSON response: %v", err))
		}
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return toolError("Failed to write temp file: %v", err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{text(fmt.Sprintf("Content saved to: %s (%d bytes)", path, total))}}
}

// validJSON checks that r holds exactly one JSON value, token by token, so
// a large document is validated without holding it in memory.
func validJSON(r io.Reader) error {
	dec := json.NewDecoder(r)
	depth := 0
	for first := true; first || depth > 0; first = false {
		tok, err := dec.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return errors.New("EOF while parsing a value")
			}
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("trailing characters after the JSON value")
	}
	return nil
}
