package screen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
)

// ListWindowsDescription is goose's description of the list_windows tool.
const ListWindowsDescription = "List all available window titles that can be used with screen_capture. Returns a list of window titles that can be used with the window_title parameter of the screen_capture tool."

// CaptureDescription is goose's description of the screen_capture tool.
const CaptureDescription = "Capture a screenshot of a specified display or window. You can capture either: 1. A full display (monitor) using the display parameter 2. A specific window by its title using the window_title parameter. Only one of display or window_title should be specified."

// Sentinel errors; returned errors carry goose's message and match these
// with errors.Is.
var (
	// ErrNoDisplay: there is no screen to talk to (headless machine).
	ErrNoDisplay = errors.New("no display available")
	// ErrWindowNotFound: no window has exactly the requested title.
	ErrWindowNotFound = errors.New("window not found")
	// ErrNoMonitor: the display index is out of range.
	ErrNoMonitor = errors.New("monitor not found")
)

type goError struct {
	msg  string
	kind error
}

func (e *goError) Error() string { return e.msg }
func (e *goError) Unwrap() error { return e.kind }

// ListWindowsText is goose's list_windows result text.
func ListWindowsText(titles []string) string {
	s := "Available windows:\n"
	for i, t := range titles {
		if i > 0 {
			s += "\n"
		}
		s += t
	}
	return s
}

// CapturedText is the text goose returns next to a screenshot.
const CapturedText = "Screenshot captured"

// ListWindows returns the titles of the windows on screen, in the window
// system's order, without empty titles.
func ListWindows(ctx context.Context) ([]string, error) {
	titles, err := listWindows(ctx)
	if err != nil {
		return nil, wrap("Failed to list windows", err)
	}
	return titles, nil
}

// Capture returns a PNG of the window whose title is exactly windowTitle,
// or, when windowTitle is empty, of display number display (0 is the main
// display). The tool layer turns it into goose's JPEG with imageproc.
func Capture(ctx context.Context, display int, windowTitle string) ([]byte, error) {
	if windowTitle != "" {
		return captureWindow(ctx, windowTitle)
	}
	return captureDisplay(ctx, display)
}

// osWindow is a listed window with how to capture it as a PNG.
type osWindow struct {
	title   string
	capture func() ([]byte, error)
}

// titles is list_windows over the listed windows.
func titles(wins []osWindow) []string {
	out := make([]string, len(wins))
	for i, w := range wins {
		out[i] = w.title
	}
	return out
}

// captureTitled captures the first window whose title is exactly title;
// listErr is the listing's failure, reported as goose does.
func captureTitled(wins []osWindow, listErr error, title string) ([]byte, error) {
	if listErr != nil {
		return nil, wrap("Failed to list windows", listErr)
	}
	for _, w := range wins {
		if w.title != title {
			continue
		}
		png, err := w.capture()
		if err != nil {
			return nil, fmt.Errorf("Failed to capture window '%s': %w", title, err)
		}
		return png, nil
	}
	return nil, windowNotFound(title)
}

// wrap prefixes goose's message and keeps the cause and its sentinel.
func wrap(msg string, err error) error {
	var ge *goError
	if errors.As(err, &ge) && ge.kind == ErrNoDisplay {
		return &goError{msg + ": " + ge.msg, ErrNoDisplay}
	}
	return fmt.Errorf("%s: %w", msg, err)
}

func windowNotFound(title string) error {
	return &goError{fmt.Sprintf("No window found with title '%s'", title), ErrWindowNotFound}
}

func monitorNotFound(display, count int) error {
	return &goError{fmt.Sprintf("%d was not an available monitor, %d found.", display, count), ErrNoMonitor}
}

func encodePNG(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, fmt.Errorf("encode PNG: %w", err)
	}
	return b.Bytes(), nil
}
