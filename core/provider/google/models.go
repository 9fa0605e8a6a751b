package google

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// modelsPageSize is how many models one models.list page asks for.
const modelsPageSize = "1000"

// FetchModels lists the model names (without the "models/" prefix),
// sorted, following models.list's pages.
func (p *Provider) FetchModels(ctx context.Context) ([]string, error) {
	var out []string
	token := ""
	for {
		page, err := p.modelsPage(ctx, token)
		if err != nil {
			return nil, p.classify(ctx, err)
		}
		for _, m := range page.Models {
			out = append(out, strings.TrimPrefix(m.Name, "models/"))
		}
		if page.NextPageToken == "" {
			break
		}
		token = page.NextPageToken
	}
	slices.Sort(out)
	return out, nil
}

// modelsPage fetches one page of GET /v1beta/models.
func (p *Provider) modelsPage(ctx context.Context, token string) (*listModelsResponse, error) {
	q := url.Values{"pageSize": {modelsPageSize}}
	if token != "" {
		q.Set("pageToken", token)
	}
	u, err := p.endpoint("models", q.Encode())
	if err != nil {
		return nil, err
	}
	resp, err := p.do(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("reading the model list: %w", err)
	}
	var page listModelsResponse
	if err := json.Unmarshal(body, &page); err != nil {
		return nil, &malformedError{what: "model list", err: err}
	}
	return &page, nil
}
