package developer

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/developer/internal/xvfbtest"
)

func writePNG(t *testing.T, p string, w, h int) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		img.Set(x, x%h, color.RGBA{R: 200, A: 255})
	}
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

func TestAnalyzeToolBothSurfaces(t *testing.T) {
	for _, surface := range []Surface{Classic, Analyze} {
		h := newHarness(t, Options{Surface: surface})
		os.WriteFile(filepath.Join(h.dir, "main.go"), []byte("package main\n\nfunc helper() int { return 1 }\n\nfunc main() { helper() }\n"), 0o644)
		res := h.mustCall(t, "analyze", map[string]any{"path": "main.go"})
		if res.IsError || !strings.Contains(texts(res)[0], "helper") {
			t.Fatalf("surface %d: %q", surface, texts(res))
		}
		os.WriteFile(filepath.Join(h.dir, ".gooseignore"), []byte("main.go\n"), 0o644)
		res, err := h.call(t, "analyze", map[string]any{"path": "main.go"})
		want := "Access to '" + filepath.Join(h.dir, "main.go") + "' is restricted by .gooseignore"
		if surface == Classic {
			rpcError(t, err, jsonrpc.CodeInternalError, want)
		} else if err != nil || !res.IsError || texts(res)[0] != "Error: "+want {
			t.Fatalf("editor ignored: %v %q", err, texts(res))
		}
	}
}

func TestImageTools(t *testing.T) {
	h := newHarness(t, Options{})
	p := filepath.Join(h.dir, "shot.png")
	writePNG(t, p, 2048, 512)
	res := h.mustCall(t, "image_processor", map[string]any{"path": p})
	img, ok := res.Content[1].(*mcp.ImageContent)
	if texts(res)[0] != "Successfully processed image from "+p || !ok || img.MIMEType != "image/jpeg" {
		t.Fatalf("image_processor: %q %T", texts(res), res.Content[1])
	}
	_, err := h.call(t, "image_processor", map[string]any{"path": filepath.Join(h.dir, "missing.png")})
	rpcError(t, err, jsonrpc.CodeInternalError, "File '"+filepath.Join(h.dir, "missing.png")+"' does not exist")

	e := newHarness(t, Options{Surface: Editor, WorkingDir: h.dir})
	res = e.mustCall(t, "read_image", map[string]any{"source": "shot.png"})
	if got := texts(res)[0]; !strings.HasPrefix(got, "Loaded image from shot.png (") || !strings.HasSuffix(got, ", image/jpeg, 1024x256).") {
		t.Fatalf("read_image: %q", got)
	}
	res = e.mustCall(t, "read_image", map[string]any{"source": "shot.png", "crop": map[string]any{"x": 0, "y": 0, "width": 100, "height": 50}})
	if got := texts(res)[0]; !strings.HasSuffix(got, ", image/jpeg, 100x50). Cropped from 2048x512 to 100x50.") {
		t.Fatalf("crop: %q", got)
	}
	res = e.mustCall(t, "read_image", map[string]any{"source": "shot.png", "crop": map[string]any{"x": 2000, "y": 0, "width": 100, "height": 50}})
	if got := texts(res)[0]; got != "Error: crop rectangle 100x50 at 2000,0 exceeds image bounds 2048x512" {
		t.Fatalf("crop bounds: %q", got)
	}
	res = e.mustCall(t, "read_image", map[string]any{"source": ""})
	if got := texts(res)[0]; got != "Error: source cannot be empty" {
		t.Fatalf("empty: %q", got)
	}
}

func TestScreenToolsWithoutDisplayFailClearly(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	h := newHarness(t, Options{})
	tools, err := h.cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, ","); got != "analyze,image_processor,list_windows,screen_capture,shell,text_editor" {
		t.Fatalf("classic tools = %s", got)
	}
	if runtime.GOOS != "linux" {
		t.Skip("the no-display path is X11-specific")
	}
	_, err = h.call(t, "list_windows", map[string]any{})
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != jsonrpc.CodeInternalError || !strings.HasPrefix(je.Message, "Failed to list windows") {
		t.Fatalf("list_windows without display: %v", err)
	}
}

func TestScreenCaptureUnderXvfb(t *testing.T) {
	xvfbtest.Start(t)
	h := newHarness(t, Options{})
	res := h.mustCall(t, "screen_capture", map[string]any{"display": 0})
	img, ok := res.Content[1].(*mcp.ImageContent)
	if texts(res)[0] != "Screenshot captured" || !ok || img.MIMEType != "image/jpeg" || len(img.Data) == 0 {
		t.Fatalf("capture: %q %T", texts(res), res.Content[1])
	}
	res = h.mustCall(t, "list_windows", map[string]any{})
	if !strings.HasPrefix(texts(res)[0], "Available windows:") {
		t.Fatalf("list_windows: %q", texts(res))
	}
}

func TestReadImageFromURL(t *testing.T) {
	p := filepath.Join(t.TempDir(), "img.png")
	writePNG(t, p, 64, 32)
	pngData, _ := os.ReadFile(p)
	mux := http.NewServeMux()
	mux.HandleFunc("/img.png", func(w http.ResponseWriter, _ *http.Request) { w.Write(pngData) })
	mux.HandleFunc("/to-file", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/big", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(maxImageBytes+10))
		w.Write(make([]byte, maxImageBytes+10))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	blocked := newHarness(t, Options{Surface: Editor})
	res := blocked.mustCall(t, "read_image", map[string]any{"source": srv.URL + "/img.png"})
	if got := texts(res)[0]; got != "Error: refusing to fetch image from non-public address for host 127.0.0.1: loopback, private, link-local, and cloud-metadata targets are blocked" {
		t.Fatalf("loopback: %q", got)
	}
	res = blocked.mustCall(t, "read_image", map[string]any{"source": "http://localhost:" + strings.Split(srv.URL, ":")[2] + "/img.png"})
	if got := texts(res)[0]; !strings.Contains(got, "refusing to fetch image from non-public address for host localhost") {
		t.Fatalf("resolved loopback: %q", got)
	}

	open := newHarness(t, Options{Surface: Editor})
	open.svc.allowAddr = func(netip.Addr) bool { return true }
	res = open.mustCall(t, "read_image", map[string]any{"source": srv.URL + "/img.png"})
	if got := texts(res)[0]; res.IsError || !strings.HasSuffix(got, ", image/jpeg, 64x32).") {
		t.Fatalf("fetch: %q", got)
	}
	for path, want := range map[string]string{
		"/to-file": "Error: refusing to follow redirect to file scheme",
		"/loop":    "Error: too many redirects while fetching image (max 5)",
		"/big":     fmt.Sprintf("Error: image is too large: %d bytes exceeds 20971520 byte limit", maxImageBytes+10),
	} {
		res = open.mustCall(t, "read_image", map[string]any{"source": srv.URL + path})
		if got := texts(res)[0]; got != want {
			t.Fatalf("%s: %q, want %q", path, got, want)
		}
	}
}

func TestPublicAddr(t *testing.T) {
	cases := map[string]bool{
		"8.8.8.8": true, "1.1.1.1": true, "2606:4700::1111": true,
		"127.0.0.1": false, "10.1.2.3": false, "172.16.0.1": false, "192.168.1.1": false, "169.254.169.254": false,
		"0.0.0.0": false, "255.255.255.255": false, "100.64.0.1": false, "192.0.0.8": false, "198.18.0.1": false,
		"192.0.2.1": false, "::1": false, "fc00::1": false, "fe80::1": false, "2001:db8::1": false, "::ffff:127.0.0.1": false,
		"224.0.0.1": false,
	}
	for ip, want := range cases {
		if got := publicAddr(netip.MustParseAddr(ip)); got != want {
			t.Errorf("publicAddr(%s) = %v, want %v", ip, got, want)
		}
	}
}
