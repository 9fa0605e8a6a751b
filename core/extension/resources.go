package extension

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/extension/inproc"
)

// directServer is the extension's in-process server when it is called
// directly, else nil.
func (m *Manager) directServer(ext string) *inproc.Server {
	e, err := m.get(ext)
	if err != nil {
		return nil
	}
	return e.direct
}

func (m *Manager) session(ext string) (*mcp.ClientSession, error) {
	e, err := m.get(ext)
	if err != nil {
		return nil, err
	}
	if e.direct != nil {
		return nil, fmt.Errorf("%w: %s serves no resources", ErrUnsupported, ext)
	}
	if e.session == nil {
		return nil, fmt.Errorf("%w: %s is a frontend extension", ErrUnsupported, ext)
	}
	return e.session, nil
}

// ListResources lists one extension's resources.
func (m *Manager) ListResources(ctx context.Context, ext string) ([]*mcp.Resource, error) {
	s, err := m.session(ext)
	if err != nil {
		return nil, err
	}
	var out []*mcp.Resource
	for r, err := range s.Resources(ctx, nil) {
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// ReadResource reads a resource from one extension.
func (m *Manager) ReadResource(ctx context.Context, ext, uri string) (*mcp.ReadResourceResult, error) {
	s, err := m.session(ext)
	if err != nil {
		return nil, err
	}
	return s.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
}

// Prompt is a prompt offered by an extension.
type Prompt struct {
	Extension string
	Prompt    *mcp.Prompt
}

// ListPrompts lists every extension's prompts (extensions without prompt
// support are skipped).
func (m *Manager) ListPrompts(ctx context.Context) ([]Prompt, error) {
	var out []Prompt
	for _, info := range m.Extensions() {
		if !info.HasPrompts {
			continue
		}
		if d := m.directServer(info.Key); d != nil {
			for _, p := range d.Prompts() {
				cp := *p
				out = append(out, Prompt{Extension: info.Key, Prompt: &cp})
			}
			continue
		}
		s, err := m.session(info.Key)
		if err != nil {
			continue
		}
		for p, err := range s.Prompts(ctx, nil) {
			if err != nil {
				m.log.Warn("listing prompts failed", "extension", info.Key, "error", err)
				break
			}
			out = append(out, Prompt{Extension: info.Key, Prompt: p})
		}
	}
	return out, nil
}

// GetPrompt renders a prompt.
func (m *Manager) GetPrompt(ctx context.Context, ext, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	if d := m.directServer(ext); d != nil {
		res, err := d.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
		if err != nil {
			return nil, fmt.Errorf("calling %q: %w", "prompts/get", wireError(err))
		}
		return res, nil
	}
	s, err := m.session(ext)
	if err != nil {
		return nil, err
	}
	return s.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
}
