package screen

import (
	"errors"
	"strings"
	"testing"
)

// captureTitled is the window lookup every OS backend shares.
func TestCaptureTitled(t *testing.T) {
	var captured []string
	win := func(title string, err error) osWindow {
		return osWindow{title: title, capture: func() ([]byte, error) {
			captured = append(captured, title)
			return []byte("png:" + title), err
		}}
	}
	wins := []osWindow{win("Editor", nil), win("Term", nil), win("Term", nil), win("Broken", errors.New("BadMatch"))}
	if got := strings.Join(titles(wins), "|"); got != "Editor|Term|Term|Broken" {
		t.Fatalf("titles = %s", got)
	}
	png, err := captureTitled(wins, nil, "Term")
	if err != nil || string(png) != "png:Term" || len(captured) != 1 {
		t.Fatalf("capture Term = %q, %v (captured %v)", png, err, captured)
	}
	if _, err := captureTitled(wins, nil, "term"); err == nil || err.Error() != "No window found with title 'term'" || !errors.Is(err, ErrWindowNotFound) {
		t.Fatalf("case-different title: %v", err)
	}
	if _, err := captureTitled(wins, nil, "Broken"); err == nil || err.Error() != "Failed to capture window 'Broken': BadMatch" {
		t.Fatalf("capture failure: %v", err)
	}
	noDisplay := &goError{"cannot connect to X11 display \":9\"", ErrNoDisplay}
	if _, err := captureTitled(nil, noDisplay, "x"); err == nil || !errors.Is(err, ErrNoDisplay) ||
		err.Error() != "Failed to list windows: cannot connect to X11 display \":9\"" {
		t.Fatalf("list failure: %v", err)
	}
}
