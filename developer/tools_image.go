package developer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"net/url"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
	"github.com/goose-acp/goose-acp/developer/imageproc"
)

const imageProcessorSchema = `{"type":"object","required":["path"],"properties":{"path":{"type":"string","description":"Absolute path to the image file to process"}}}`

// readImageSchema is goose's ImageReadParams/CropParams schema
// (developer/image.rs, block/goose d23d340e = aaif-goose 13d5), inlined.
const readImageSchema = `{"type":"object","required":["source"],"properties":{
"source":{"type":"string","description":"Local file path or http(s) URL of the image to load."},
"crop":{"type":["object","null"],"description":"Optional crop rectangle in pixels. Coordinates are measured from the top-left corner.\nuse to zoom in and get more details.","default":null,"required":["x","y","width","height"],
"properties":{"x":{"type":"integer","format":"uint32","minimum":0,"description":"Left edge of the crop rectangle in pixels."},
"y":{"type":"integer","format":"uint32","minimum":0,"description":"Top edge of the crop rectangle in pixels."},
"width":{"type":"integer","format":"uint32","minimum":0,"description":"Width of the crop rectangle in pixels."},
"height":{"type":"integer","format":"uint32","minimum":0,"description":"Height of the crop rectangle in pixels."}}}}}`

const readImageDescription = "Read an image from a local file path or http(s) URL and return it as image content for the model to inspect. Supports png, jpeg, gif, and webp."

func (s *service) registerImages(srv registrar, surface Surface) {
	if surface == Editor {
		addTool(srv, &mcp.Tool{Name: "read_image", Description: readImageDescription, InputSchema: json.RawMessage(readImageSchema),
			Annotations: annotations("Read Image", false, false, true, true)}, s.handler(s.readImage))
		return
	}
	addTool(srv, &mcp.Tool{Name: "image_processor", Description: imageproc.ToolDescription, InputSchema: json.RawMessage(imageProcessorSchema)},
		s.handler(s.imageProcessor))
}

func (s *service) imageProcessor(_ context.Context, cc callContext, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var a struct {
		Path string `json:"path"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	p, err := s.resolveFile(a.Path, cc)
	if err != nil {
		return nil, internalError("%s", err.Error())
	}
	img, err := imageproc.FromFile(p)
	if err != nil {
		return nil, internalError("%s", err.Error())
	}
	return &mcp.CallToolResult{Content: []mcp.Content{
		forAssistant(imageproc.SuccessMessage(p)),
		&mcp.ImageContent{Data: img.Data, MIMEType: img.MimeType},
	}}, nil
}

type cropArgs struct {
	X, Y          int
	Width, Height int
}

// readImageOutput is read_image's structuredContent.
type readImageOutput struct {
	Source         string    `json:"source"`
	MimeType       string    `json:"mimeType"`
	Width          int       `json:"width"`
	Height         int       `json:"height"`
	Bytes          int       `json:"bytes"`
	OriginalWidth  int       `json:"originalWidth"`
	OriginalHeight int       `json:"originalHeight"`
	Crop           *cropArgs `json:"crop"`
}

func (s *service) readImage(ctx context.Context, cc callContext, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var a struct {
		Source string    `json:"source"`
		Crop   *cropArgs `json:"crop"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return toolError("Error: %s", errorText(err)), nil
	}
	data, err := s.imageBytes(ctx, cc, strings.TrimSpace(a.Source))
	if err != nil {
		return toolError("Error: %s", errorText(err)), nil
	}
	res, err := imageResult(a.Source, data, a.Crop)
	if err != nil {
		return toolError("Error: %s", err), nil
	}
	return res, nil
}

// imageResult is read_image's answer for the bytes loaded from source; its
// error is the text read_image shows after "Error: " (python's view_image
// words it its own way).
func imageResult(source string, data []byte, crop *cropArgs) (*mcp.CallToolResult, error) {
	src, format, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("failed to decode image: %w", err)
	}
	if format != "png" && format != "jpeg" && format != "gif" && format != "webp" {
		return nil, errors.New("unsupported image format; supported formats are png, jpeg, gif, and webp")
	}
	orig := src.Bounds()
	note := ""
	if crop != nil {
		if src, err = cropImage(src, *crop); err != nil {
			return nil, err
		}
		note = fmt.Sprintf(" Cropped from %dx%d to %dx%d.", orig.Dx(), orig.Dy(), crop.Width, crop.Height)
	}
	img, err := imageproc.FromImage(src)
	if err != nil {
		return nil, err
	}
	w, h := imageproc.TargetSize(src.Bounds().Dx(), src.Bounds().Dy())
	msg := fmt.Sprintf("Loaded image from %s (%d bytes, %s, %dx%d).%s", source, len(img.Data), img.MimeType, w, h, note)
	return &mcp.CallToolResult{
		Content: []mcp.Content{text(msg), &mcp.ImageContent{Data: img.Data, MIMEType: img.MimeType}},
		StructuredContent: readImageOutput{Source: source, MimeType: img.MimeType, Width: w, Height: h, Bytes: len(img.Data),
			OriginalWidth: orig.Dx(), OriginalHeight: orig.Dy(), Crop: crop},
	}, nil
}

// imageBytes loads an http(s) URL through the SSRF-guarded fetcher, or a
// local path (or file: URL) through the path policy and .gooseignore.
func (s *service) imageBytes(ctx context.Context, cc callContext, source string) ([]byte, error) {
	switch {
	case source == "":
		return nil, fmt.Errorf("source cannot be empty")
	case strings.HasPrefix(source, "http://") || strings.HasPrefix(source, "https://"):
		allow := s.allowAddr
		if allow == nil {
			allow = publicAddr
		}
		return imageFetcher{allow: allow}.fetch(ctx, source)
	case strings.HasPrefix(source, "file:"):
		u, err := url.Parse(source)
		if err != nil || u.Path == "" {
			return nil, fmt.Errorf("invalid file URL %q", source)
		}
		source = u.Path
	}
	p, err := s.resolveFile(source, cc)
	if err != nil {
		return nil, err
	}
	if fixed := screenshotFix(p); fixed != p {
		if p, err = s.resolveFile(fixed, cc); err != nil {
			return nil, err
		}
	}
	if fi, err := os.Stat(p); err == nil && fi.Size() > maxImageBytes {
		return nil, fmt.Errorf("image is too large: %d bytes exceeds %d byte limit", fi.Size(), maxImageBytes)
	}
	b, truncated, err := pathpolicy.ReadBytes(ctx, p, maxImageBytes)
	if err != nil {
		return nil, fmt.Errorf("failed to read image file: %w", err)
	}
	if truncated {
		return nil, fmt.Errorf("image is too large: more than %d bytes", maxImageBytes)
	}
	return b, nil
}

// cropImage validates goose's crop rules and returns the sub-image.
func cropImage(src image.Image, c cropArgs) (image.Image, error) {
	b := src.Bounds()
	if c.Width <= 0 || c.Height <= 0 {
		return nil, fmt.Errorf("crop width and height must be greater than zero")
	}
	if c.X < 0 || c.Y < 0 || c.X+c.Width > b.Dx() || c.Y+c.Height > b.Dy() {
		return nil, fmt.Errorf("crop rectangle %dx%d at %d,%d exceeds image bounds %dx%d", c.Width, c.Height, c.X, c.Y, b.Dx(), b.Dy())
	}
	r := image.Rect(b.Min.X+c.X, b.Min.Y+c.Y, b.Min.X+c.X+c.Width, b.Min.Y+c.Y+c.Height)
	if si, ok := src.(interface {
		SubImage(image.Rectangle) image.Image
	}); ok {
		return si.SubImage(r), nil
	}
	return nil, fmt.Errorf("crop is not supported for this image type")
}

// screenshotFix retries a missing macOS screenshot name with U+202F before
// AM/PM (goose's fix), only when the fixed name exists.
func screenshotFix(p string) string {
	if _, err := os.Lstat(p); err == nil {
		return p
	}
	if fixed := imageproc.NormalizeScreenshotPath(p); fixed != p {
		if _, err := os.Lstat(fixed); err == nil {
			return fixed
		}
	}
	return p
}
