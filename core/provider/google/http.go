package google

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/provider/jsonbody"
)

// apiVersion is the Gemini API version (genai's default for the Gemini
// API, kept).
const apiVersion = "v1beta"

// maxErrorBody bounds how much of a failed answer is read.
const maxErrorBody = 1 << 20

// endpoint returns {BaseURL}/v1beta/{path}?{query}. Joining parses the
// path as genai did: "models/x y" is sent as models/x%20y.
func (p *Provider) endpoint(path, query string) (string, error) {
	u, err := url.Parse(strings.TrimSuffix(p.opts.BaseURL, "/") + "/")
	if err != nil {
		return "", fmt.Errorf("parsing GOOGLE_HOST: %w", err)
	}
	u = u.JoinPath(apiVersion, path)
	u.RawQuery = query
	return u.String(), nil
}

// modelPath is a model's resource name: "models/{name}" unless the name
// already is one (models/… or tunedModels/…). Names that would change the
// URL's query or climb out of the path are refused, as genai did.
func modelPath(name string) (string, error) {
	if name == "" {
		return "", errors.New("model name is empty")
	}
	if strings.ContainsAny(name, "?&") || strings.Contains(name, "..") {
		return "", fmt.Errorf("invalid model name %q", name)
	}
	if strings.HasPrefix(name, "models/") || strings.HasPrefix(name, "tunedModels/") {
		return name, nil
	}
	return "models/" + name, nil
}

// do sends one request with the configured headers, the API key in
// x-goog-api-key and, when the call has a deadline, its seconds in
// x-server-timeout. A non-2xx answer comes back as a *failure.
func (p *Provider) do(ctx context.Context, method, url string, body *jsonbody.Body) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return nil, fmt.Errorf("building request: %w", err)
	}
	if body != nil {
		req.Body, req.ContentLength = io.NopCloser(body.Reader()), body.Len()
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(body.Reader()), nil }
	}
	for k, v := range p.opts.Headers {
		req.Header.Set(k, v)
	}
	if s := p.timeout(ctx).Seconds(); s > 0 {
		req.Header.Set("x-server-timeout", strconv.FormatInt(int64(math.Ceil(s)), 10))
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-goog-api-key", p.opts.APIKey)
	resp, err := p.opts.HTTPClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("sending request: %w", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		return nil, readFailure(resp)
	}
	return resp, nil
}

// timeout is the smaller of the client's timeout and the time left before
// ctx's deadline; zero when neither is set.
func (p *Provider) timeout(ctx context.Context) time.Duration {
	t := p.opts.HTTPClient.Timeout
	if deadline, ok := ctx.Deadline(); ok {
		left := time.Until(deadline)
		if t == 0 {
			t = left
		} else {
			t = min(t, left)
		}
	}
	return t
}

// failure is an error answer from the API: a non-2xx response (status and
// header set) or an error object in the stream (status 0). Body is what
// the server sent; api is its error object, or for a body that has none,
// the status and the body as message.
type failure struct {
	status int
	header http.Header
	body   []byte
	api    apiError
}

func (f *failure) Error() string { return f.api.Error() }

func readFailure(resp *http.Response) error {
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	if err != nil {
		return fmt.Errorf("reading the %s answer: %w", resp.Status, err)
	}
	f := &failure{status: resp.StatusCode, header: resp.Header, body: body}
	if !errorObject(body, &f.api) {
		f.api = apiError{Code: resp.StatusCode, Status: resp.Status, Message: string(body)}
	}
	return f
}

// eventFailure is an error object that arrived in place of a chunk.
func eventFailure(data []byte) (*failure, bool) {
	f := &failure{body: data}
	return f, errorObject(data, &f.api)
}

// errorObject reads {"error":{…}} from body into e, reporting whether
// body is a JSON object with a non-null error.
func errorObject(body []byte, e *apiError) bool {
	var v struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &v) != nil || len(v.Error) == 0 || string(v.Error) == "null" {
		return false
	}
	_ = json.Unmarshal(v.Error, e)
	return true
}
