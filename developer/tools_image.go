package developer

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"net/url"
	"strings"

	"github.com/goose-acp/goose-acp/developer/imageproc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const imageProcessorSchema = `{"type":"object","required":["path"],"properties":{"path":{"type":"string","description":"Absolute path to the image file to process"}}}`

const readImageSchema = `{"type":"object","required":["source"],"properties":{"source":{"type":"string","description":"Local file path (or file: URL) of the image to load."}}}`

const readImageDescription = "Read an image from a local file path and return it as image content for the model to inspect. The image is resized to at most 1024 px and sent as JPEG."

// ErrRemoteImage is returned for http(s) sources: this build reads local
// images only, so remote fetches (and their SSRF exposure) never happen.
var ErrRemoteImage = fmt.Errorf("reading images from http(s) URLs is not supported; download the image to a local file and pass its path")

func (s *service) registerImages(srv *mcp.Server, surface Surface) {
	if surface == Editor {
		srv.AddTool(&mcp.Tool{Name: "read_image", Description: readImageDescription, InputSchema: json.RawMessage(readImageSchema),
			Annotations: annotations("Read Image", true, false, true, false)}, s.handler(s.readImage))
		return
	}
	srv.AddTool(&mcp.Tool{Name: "image_processor", Description: imageproc.ToolDescription, InputSchema: json.RawMessage(imageProcessorSchema)},
		s.handler(s.imageProcessor))
}

// loadImage resolves and checks a local image path, then prepares it.
func (s *service) loadImage(raw string, cc callContext) (string, imageproc.Image, error) {
	p, err := s.resolveFile(raw, cc)
	if err != nil {
		return "", imageproc.Image{}, err
	}
	img, err := imageproc.FromFile(p)
	return p, img, err
}

func (s *service) imageProcessor(_ context.Context, cc callContext, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var a struct {
		Path string `json:"path"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	p, img, err := s.loadImage(a.Path, cc)
	if err != nil {
		return nil, internalError("%s", err.Error())
	}
	return &mcp.CallToolResult{Content: []mcp.Content{
		forAssistant(imageproc.SuccessMessage(p)),
		&mcp.ImageContent{Data: img.Data, MIMEType: img.MimeType, Annotations: &mcp.Annotations{Priority: 0}},
	}}, nil
}

func (s *service) readImage(_ context.Context, cc callContext, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var a struct {
		Source string `json:"source"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return toolError("Error: %s", errorText(err)), nil
	}
	src := strings.TrimSpace(a.Source)
	switch {
	case src == "":
		return toolError("Error: source cannot be empty"), nil
	case strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://"):
		return toolError("Error: %v", ErrRemoteImage), nil
	case strings.HasPrefix(src, "file:"):
		u, err := url.Parse(src)
		if err != nil || u.Path == "" {
			return toolError("Error: invalid file URL %q", src), nil
		}
		src = u.Path
	}
	_, img, err := s.loadImage(src, cc)
	if err != nil {
		return toolError("Error: %s", errorText(err)), nil
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(img.Data))
	if err != nil {
		return toolError("Error: failed to decode image: %v", err), nil
	}
	msg := fmt.Sprintf("Loaded image from %s (%d bytes, %s, %dx%d).", a.Source, len(img.Data), img.MimeType, cfg.Width, cfg.Height)
	return &mcp.CallToolResult{Content: []mcp.Content{text(msg), &mcp.ImageContent{Data: img.Data, MIMEType: img.MimeType}}}, nil
}
