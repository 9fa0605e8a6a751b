package developer

import (
	"context"
	"encoding/json"

	"github.com/goose-acp/goose-acp/developer/imageproc"
	"github.com/goose-acp/goose-acp/developer/screen"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const listWindowsSchema = `{"type":"object","properties":{}}`

const screenCaptureSchema = `{"type":"object","properties":{
"display":{"type":["integer","null"],"format":"uint64","minimum":0,"default":0,"description":"The display number to capture (0 is main display)"},
"window_title":{"type":["string","null"],"description":"Optional: the exact title of the window to capture. Use the list_windows tool to find the available windows."}}}`

// registerScreen adds the classic surface's window listing and capture.
func (s *service) registerScreen(srv registrar) {
	addTool(srv, &mcp.Tool{Name: "list_windows", Description: screen.ListWindowsDescription, InputSchema: json.RawMessage(listWindowsSchema)},
		s.handler(s.listWindows))
	addTool(srv, &mcp.Tool{Name: "screen_capture", Description: screen.CaptureDescription, InputSchema: json.RawMessage(screenCaptureSchema)},
		s.handler(s.screenCapture))
}

func (s *service) listWindows(ctx context.Context, _ callContext, _ json.RawMessage) (*mcp.CallToolResult, error) {
	titles, err := screen.ListWindows(ctx)
	if err != nil {
		return nil, internalError("%s", err.Error())
	}
	out := screen.ListWindowsText(titles)
	return &mcp.CallToolResult{Content: []mcp.Content{forAssistant(out), forUser(out, 0)}}, nil
}

func (s *service) screenCapture(ctx context.Context, _ callContext, raw json.RawMessage) (*mcp.CallToolResult, error) {
	var a struct {
		Display     *int    `json:"display"`
		WindowTitle *string `json:"window_title"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	display, title := 0, ""
	if a.Display != nil {
		display = *a.Display
	}
	if a.WindowTitle != nil {
		title = *a.WindowTitle // takes precedence over display, as in goose
	}
	pngBytes, err := screen.Capture(ctx, display, title)
	if err != nil {
		return nil, internalError("%s", err.Error())
	}
	img, err := imageproc.FromBytes(pngBytes)
	if err != nil {
		return nil, internalError("%s", err.Error())
	}
	return &mcp.CallToolResult{Content: []mcp.Content{
		forAssistant(screen.CapturedText),
		&mcp.ImageContent{Data: img.Data, MIMEType: img.MimeType},
	}}, nil
}
