//go:build linux

package screen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"slices"
	"testing"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"go.uber.org/goleak"

	"github.com/goose-acp/goose-acp/developer/internal/xvfbtest"
)

func TestNoDisplay(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	const missing = "no X11 display: DISPLAY is not set (start an X server such as Xvfb and set DISPLAY)"
	ctx := context.Background()
	_, err := ListWindows(ctx)
	checkErr(t, err, "Failed to list windows: "+missing, ErrNoDisplay)
	_, err = Capture(ctx, 0, "")
	checkErr(t, err, "Failed to access monitors: "+missing, ErrNoDisplay)
	_, err = Capture(ctx, 0, "Some window")
	checkErr(t, err, "Failed to list windows: "+missing, ErrNoDisplay)

	t.Setenv("WAYLAND_DISPLAY", "wayland-0")
	_, err = ListWindows(ctx)
	checkErr(t, err, "Failed to list windows: no X11 display: DISPLAY is not set; this Wayland session needs XWayland for screen capture", ErrNoDisplay)
}

func TestUnreachableDisplay(t *testing.T) {
	n := xvfbtest.FreeDisplay(t)
	t.Setenv("DISPLAY", fmt.Sprintf(":%d", n))
	_, err := ListWindows(context.Background())
	if !errors.Is(err, ErrNoDisplay) {
		t.Fatalf("err = %v, want ErrNoDisplay", err)
	}
}

func checkErr(t *testing.T, err error, msg string, kind error) {
	t.Helper()
	if err == nil || err.Error() != msg || !errors.Is(err, kind) {
		t.Errorf("err = %v, want %q matching %v", err, msg, kind)
	}
}

// openWindow creates and maps a window with a solid background and a title
// (WM_NAME, or _NET_WM_NAME as UTF-8 when utf8 is set).
func openWindow(t *testing.T, c *xgb.Conn, title string, utf8 bool, r image.Rectangle, rgb uint32) xproto.Window {
	t.Helper()
	scr := xproto.Setup(c).DefaultScreen(c)
	wid, err := xproto.NewWindowId(c)
	if err != nil {
		t.Fatal(err)
	}
	err = xproto.CreateWindowChecked(c, 0, wid, scr.Root, int16(r.Min.X), int16(r.Min.Y), uint16(r.Dx()), uint16(r.Dy()),
		0, xproto.WindowClassInputOutput, scr.RootVisual, xproto.CwBackPixel|xproto.CwOverrideRedirect, []uint32{rgb, 1}).Check()
	if err != nil {
		t.Fatal(err)
	}
	var prop, typ xproto.Atom = xproto.AtomWmName, xproto.AtomString
	if utf8 {
		prop, typ = internAtom(t, c, "_NET_WM_NAME"), internAtom(t, c, "UTF8_STRING")
	}
	if err := xproto.ChangePropertyChecked(c, xproto.PropModeReplace, wid, prop, typ, 8, uint32(len(title)), []byte(title)).Check(); err != nil {
		t.Fatal(err)
	}
	if err := xproto.MapWindowChecked(c, wid).Check(); err != nil {
		t.Fatal(err)
	}
	return wid
}

func internAtom(t *testing.T, c *xgb.Conn, name string) xproto.Atom {
	t.Helper()
	r, err := xproto.InternAtom(c, false, uint16(len(name)), name).Reply()
	if err != nil {
		t.Fatal(err)
	}
	return r.Atom
}

func decodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("capture is not a PNG: %v", err)
	}
	return img
}

func wantColor(t *testing.T, img image.Image, x, y int, rgb uint32) {
	t.Helper()
	r, g, b, _ := img.At(x, y).RGBA()
	got := (r>>8)<<16 | (g>>8)<<8 | b>>8
	if got != rgb {
		t.Errorf("pixel (%d,%d) = %06x, want %06x", x, y, got, rgb)
	}
}

func TestXvfb(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	display := xvfbtest.Start(t)
	c, err := xgb.NewConnDisplay(display)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const title, utf8Title = "goose-acp test window", "Ünïcode — window ✓"
	openWindow(t, c, title, false, image.Rect(50, 40, 250, 160), 0xff0000)
	green := openWindow(t, c, utf8Title, true, image.Rect(300, 200, 400, 260), 0x00ff00)
	ctx := context.Background()

	titles, err := ListWindows(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(titles, title) || !slices.Contains(titles, utf8Title) {
		t.Fatalf("ListWindows = %q, want both test windows", titles)
	}

	win, err := Capture(ctx, 0, title)
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, win)
	if b := img.Bounds(); b.Dx() != 200 || b.Dy() != 120 {
		t.Errorf("window capture is %dx%d, want 200x120", b.Dx(), b.Dy())
	}
	wantColor(t, img, 100, 60, 0xff0000)

	greenPNG, err := Capture(ctx, 0, utf8Title)
	if err != nil {
		t.Fatal(err)
	}
	wantColor(t, decodePNG(t, greenPNG), 10, 10, 0x00ff00)

	full, err := Capture(ctx, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	img = decodePNG(t, full)
	if b := img.Bounds(); b.Dx() != 640 || b.Dy() != 480 {
		t.Errorf("display capture is %dx%d, want 640x480", b.Dx(), b.Dy())
	}
	wantColor(t, img, 60, 50, 0xff0000)
	wantColor(t, img, 350, 230, 0x00ff00)

	_, err = Capture(ctx, 3, "")
	checkErr(t, err, "3 was not an available monitor, 1 found.", ErrNoMonitor)
	_, err = Capture(ctx, 0, "no such window")
	checkErr(t, err, "No window found with title 'no such window'", ErrWindowNotFound)

	// Act as an EWMH window manager that manages only the green window:
	// the client list then decides what is listed.
	root := xproto.Setup(c).DefaultScreen(c).Root
	ids := make([]byte, 4)
	xgb.Put32(ids, uint32(green))
	err = xproto.ChangePropertyChecked(c, xproto.PropModeReplace, root, internAtom(t, c, "_NET_CLIENT_LIST"),
		xproto.AtomWindow, 32, 1, ids).Check()
	if err != nil {
		t.Fatal(err)
	}
	titles, err = ListWindows(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(titles, []string{utf8Title}) {
		t.Errorf("with _NET_CLIENT_LIST, ListWindows = %q, want only %q", titles, utf8Title)
	}
}
