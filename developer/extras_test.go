package developer

import (
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
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
	for _, surface := range []Surface{Classic, Editor} {
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
	res = e.mustCall(t, "read_image", map[string]any{"source": "https://example.com/a.png"})
	if !res.IsError || texts(res)[0] != "Error: "+ErrRemoteImage.Error() {
		t.Fatalf("remote: %q", texts(res))
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
	xvfb, err := exec.LookPath("Xvfb")
	if err != nil || runtime.GOOS != "linux" {
		t.Skip("Xvfb not installed (Debian package xvfb); X11 capture path not exercised")
	}
	display := ":" + strconv.Itoa(90+os.Getpid()%100)
	cmd := exec.Command(xvfb, display, "-screen", "0", "640x480x24", "-nolisten", "tcp")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sock := "/tmp/.X11-unix/X" + strings.TrimPrefix(display, ":")
	for i := 0; i < 200; i++ {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Setenv("DISPLAY", display)
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
