//go:build unix && !darwin

package screen

import (
	"context"
	"fmt"
	"image"
	"io"
	"log"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/randr"
	"github.com/jezek/xgb/xproto"
)

// x11 is one connection to the X server named by DISPLAY.
type x11 struct {
	conn   *xgb.Conn
	setup  *xproto.SetupInfo
	screen *xproto.ScreenInfo
}

var quietXGB sync.Once

// openX11 connects to $DISPLAY. No DISPLAY, or a server that does not
// answer, is ErrNoDisplay with a message naming what is missing.
func openX11() (*x11, error) {
	// xgb logs protocol trouble to stderr through a package logger; our
	// errors already say what went wrong.
	quietXGB.Do(func() { xgb.Logger = log.New(io.Discard, "", 0) })
	display := os.Getenv("DISPLAY")
	if display == "" {
		msg := "no X11 display: DISPLAY is not set (start an X server such as Xvfb and set DISPLAY)"
		if os.Getenv("WAYLAND_DISPLAY") != "" {
			msg = "no X11 display: DISPLAY is not set; this Wayland session needs XWayland for screen capture"
		}
		return nil, &goError{msg, ErrNoDisplay}
	}
	conn, err := xgb.NewConnDisplay(display)
	if err != nil {
		return nil, &goError{fmt.Sprintf("cannot connect to X11 display %q: %v", display, err), ErrNoDisplay}
	}
	setup := xproto.Setup(conn)
	return &x11{conn: conn, setup: setup, screen: setup.DefaultScreen(conn)}, nil
}

func listWindows(ctx context.Context) ([]string, error) {
	x, err := openX11()
	if err != nil {
		return nil, err
	}
	defer x.conn.Close()
	wins, err := x.osWindows(ctx)
	return titles(wins), err
}

func captureWindow(ctx context.Context, title string) ([]byte, error) {
	x, err := openX11()
	if err != nil {
		return nil, wrap("Failed to list windows", err)
	}
	defer x.conn.Close()
	wins, err := x.osWindows(ctx)
	return captureTitled(wins, err, title)
}

// osWindows lists the titled windows with how to capture each one.
func (x *x11) osWindows(ctx context.Context) ([]osWindow, error) {
	wins, err := x.windows(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]osWindow, len(wins))
	for i, w := range wins {
		id := w.id
		out[i] = osWindow{title: w.title, capture: func() ([]byte, error) { return x.captureWindow(id) }}
	}
	return out, nil
}

func captureDisplay(ctx context.Context, display int) ([]byte, error) {
	x, err := openX11()
	if err != nil {
		return nil, wrap("Failed to access monitors", err)
	}
	defer x.conn.Close()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	mons := x.monitors()
	if display < 0 || display >= len(mons) {
		return nil, monitorNotFound(display, len(mons))
	}
	png, err := x.capture(mons[display])
	if err != nil {
		return nil, fmt.Errorf("Failed to capture display %d: %w", display, err)
	}
	return png, nil
}

type window struct {
	id    xproto.Window
	title string
}

// windows lists titled windows: the window manager's _NET_CLIENT_LIST when
// there is one, else the viewable top-level windows (or, under a
// non-EWMH window manager, the first titled child of each frame).
func (x *x11) windows(ctx context.Context) ([]window, error) {
	ids, err := x.clientList()
	if err != nil {
		return nil, err
	}
	if ids == nil {
		if ids, err = x.topLevel(); err != nil {
			return nil, err
		}
	}
	var out []window
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if t := x.title(id); t != "" {
			out = append(out, window{id, t})
		}
	}
	return out, nil
}

// clientList returns nil when no EWMH window manager publishes the list.
func (x *x11) clientList() ([]xproto.Window, error) {
	atom, err := x.atom("_NET_CLIENT_LIST")
	if err != nil || atom == xproto.AtomNone {
		return nil, err
	}
	prop, err := xproto.GetProperty(x.conn, false, x.screen.Root, atom, xproto.AtomWindow, 0, 1<<16).Reply()
	if err != nil {
		return nil, fmt.Errorf("read _NET_CLIENT_LIST: %w", err)
	}
	if prop.Format != 32 || prop.ValueLen == 0 {
		return nil, nil
	}
	ids := make([]xproto.Window, prop.ValueLen)
	for i := range ids {
		ids[i] = xproto.Window(xgb.Get32(prop.Value[4*i:]))
	}
	return ids, nil
}

func (x *x11) topLevel() ([]xproto.Window, error) {
	tree, err := xproto.QueryTree(x.conn, x.screen.Root).Reply()
	if err != nil {
		return nil, fmt.Errorf("query window tree: %w", err)
	}
	var out []xproto.Window
	for _, w := range tree.Children {
		if !x.viewable(w) {
			continue
		}
		if x.title(w) != "" {
			out = append(out, w)
			continue
		}
		if sub, err := xproto.QueryTree(x.conn, w).Reply(); err == nil {
			for _, c := range sub.Children {
				if x.viewable(c) && x.title(c) != "" {
					out = append(out, c)
					break
				}
			}
		}
	}
	return out, nil
}

func (x *x11) viewable(w xproto.Window) bool {
	a, err := xproto.GetWindowAttributes(x.conn, w).Reply()
	return err == nil && a.MapState == xproto.MapStateViewable
}

// title is _NET_WM_NAME (UTF-8) or else WM_NAME.
func (x *x11) title(w xproto.Window) string {
	if atom, err := x.atom("_NET_WM_NAME"); err == nil && atom != xproto.AtomNone {
		if t := x.stringProp(w, atom); t != "" {
			return t
		}
	}
	return x.stringProp(w, xproto.AtomWmName)
}

func (x *x11) stringProp(w xproto.Window, atom xproto.Atom) string {
	p, err := xproto.GetProperty(x.conn, false, w, atom, xproto.GetPropertyTypeAny, 0, 1<<12).Reply()
	if err != nil || p.Format != 8 {
		return ""
	}
	return strings.TrimRight(string(p.Value), "\x00")
}

func (x *x11) atom(name string) (xproto.Atom, error) {
	r, err := xproto.InternAtom(x.conn, true, uint16(len(name)), name).Reply()
	if err != nil {
		return 0, fmt.Errorf("intern atom %s: %w", name, err)
	}
	return r.Atom, nil
}

// monitors are RandR's active monitors with the primary one first (goose's
// display 0 is the main display), or the whole root window when RandR 1.5
// is not available.
func (x *x11) monitors() []image.Rectangle {
	whole := []image.Rectangle{image.Rect(0, 0, int(x.screen.WidthInPixels), int(x.screen.HeightInPixels))}
	if err := randr.Init(x.conn); err != nil {
		return whole
	}
	r, err := randr.GetMonitors(x.conn, x.screen.Root, true).Reply()
	if err != nil || len(r.Monitors) == 0 {
		return whole
	}
	mons := slices.Clone(r.Monitors)
	slices.SortStableFunc(mons, func(a, b randr.MonitorInfo) int {
		switch {
		case a.Primary && !b.Primary:
			return -1
		case b.Primary && !a.Primary:
			return 1
		}
		return 0
	})
	out := make([]image.Rectangle, len(mons))
	for i, m := range mons {
		out[i] = image.Rect(int(m.X), int(m.Y), int(m.X)+int(m.Width), int(m.Y)+int(m.Height))
	}
	return out
}

// captureWindow grabs the window's on-screen area from the root window, so
// what is shown is what the user sees.
func (x *x11) captureWindow(w xproto.Window) ([]byte, error) {
	g, err := xproto.GetGeometry(x.conn, xproto.Drawable(w)).Reply()
	if err != nil {
		return nil, fmt.Errorf("get geometry: %w", err)
	}
	pos, err := xproto.TranslateCoordinates(x.conn, w, x.screen.Root, 0, 0).Reply()
	if err != nil {
		return nil, fmt.Errorf("translate coordinates: %w", err)
	}
	r := image.Rect(int(pos.DstX), int(pos.DstY), int(pos.DstX)+int(g.Width), int(pos.DstY)+int(g.Height))
	return x.capture(r)
}

func (x *x11) capture(r image.Rectangle) ([]byte, error) {
	r = r.Intersect(image.Rect(0, 0, int(x.screen.WidthInPixels), int(x.screen.HeightInPixels)))
	if r.Empty() {
		return nil, fmt.Errorf("area is not on screen")
	}
	img, err := x.grab(r)
	if err != nil {
		return nil, err
	}
	return encodePNG(img)
}

// grab reads r from the root window in strips, keeping each reply well
// under the X server's request limits.
func (x *x11) grab(r image.Rectangle) (*image.RGBA, error) {
	out := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	rows := max(1, (4<<20)/(4*r.Dx()))
	for y := r.Min.Y; y < r.Max.Y; y += rows {
		h := min(rows, r.Max.Y-y)
		reply, err := xproto.GetImage(x.conn, xproto.ImageFormatZPixmap, xproto.Drawable(x.screen.Root),
			int16(r.Min.X), int16(y), uint16(r.Dx()), uint16(h), ^uint32(0)).Reply()
		if err != nil {
			return nil, fmt.Errorf("get image: %w", err)
		}
		if err := x.decode(reply, out, y-r.Min.Y, r.Dx(), h); err != nil {
			return nil, err
		}
	}
	return out, nil
}
