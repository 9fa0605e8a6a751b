package screen

import (
	"context"
	"errors"
	"testing"
)

func TestListWindowsText(t *testing.T) {
	if got := ListWindowsText([]string{"Terminal", "Editor — main.go"}); got != "Available windows:\nTerminal\nEditor — main.go" {
		t.Errorf("got %q", got)
	}
	if got := ListWindowsText(nil); got != "Available windows:\n" {
		t.Errorf("empty list: got %q", got)
	}
}

func TestGooseErrorTexts(t *testing.T) {
	tests := []struct {
		err  error
		msg  string
		kind error
	}{
		{windowNotFound("Docs"), "No window found with title 'Docs'", ErrWindowNotFound},
		{monitorNotFound(3, 1), "3 was not an available monitor, 1 found.", ErrNoMonitor},
		{wrap("Failed to list windows", &goError{"no X11 display", ErrNoDisplay}), "Failed to list windows: no X11 display", ErrNoDisplay},
		{wrap("Failed to list windows", context.Canceled), "Failed to list windows: context canceled", context.Canceled},
	}
	for _, tt := range tests {
		if tt.err.Error() != tt.msg || !errors.Is(tt.err, tt.kind) {
			t.Errorf("error %q (is %v = %v), want %q", tt.err, tt.kind, errors.Is(tt.err, tt.kind), tt.msg)
		}
	}
}
