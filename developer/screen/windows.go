//go:build windows

package screen

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// psUser32 declares the user32 calls the scripts need.
const psUser32 = `[Console]::OutputEncoding = [Text.Encoding]::UTF8
Add-Type -AssemblyName System.Drawing, System.Windows.Forms
Add-Type @"
using System; using System.Text; using System.Runtime.InteropServices;
public static class GooseScreen {
  public delegate bool EnumProc(IntPtr h, IntPtr l);
  [DllImport("user32.dll")] public static extern bool EnumWindows(EnumProc f, IntPtr l);
  [DllImport("user32.dll")] public static extern bool IsWindowVisible(IntPtr h);
  [DllImport("user32.dll", CharSet=CharSet.Unicode)] public static extern int GetWindowText(IntPtr h, StringBuilder s, int n);
  [DllImport("user32.dll")] public static extern int GetWindowTextLength(IntPtr h);
  [DllImport("user32.dll")] public static extern bool GetWindowRect(IntPtr h, out RECT r);
  [StructLayout(LayoutKind.Sequential)] public struct RECT { public int Left, Top, Right, Bottom; }
}
"@
`

// psList prints "hwnd<TAB>title" for each visible titled window.
const psList = psUser32 + `[GooseScreen]::EnumWindows({ param($h, $l)
  if ([GooseScreen]::IsWindowVisible($h)) {
    $n = [GooseScreen]::GetWindowTextLength($h)
    if ($n -gt 0) {
      $sb = New-Object System.Text.StringBuilder ($n + 1)
      [void][GooseScreen]::GetWindowText($h, $sb, $sb.Capacity)
      Write-Output ("{0}` + "`t" + `{1}" -f $h.ToInt64(), $sb.ToString())
    }
  }
  return $true }, [IntPtr]::Zero) | Out-Null
`

// psSave copies screen rectangle $x,$y,$w,$h to the PNG at $env:GOOSE_SCREEN_OUT.
const psSave = `$bmp = New-Object System.Drawing.Bitmap $w, $h
$g = [System.Drawing.Graphics]::FromImage($bmp)
$g.CopyFromScreen($x, $y, 0, 0, $bmp.Size)
$bmp.Save($env:GOOSE_SCREEN_OUT, [System.Drawing.Imaging.ImageFormat]::Png)
$g.Dispose(); $bmp.Dispose()
`

const psWindow = psUser32 + `$r = New-Object GooseScreen+RECT
if (-not [GooseScreen]::GetWindowRect([IntPtr][long]$env:GOOSE_SCREEN_HWND, [ref]$r)) { throw "GetWindowRect failed" }
$x = $r.Left; $y = $r.Top; $w = $r.Right - $r.Left; $h = $r.Bottom - $r.Top
if ($w -le 0 -or $h -le 0) { throw "window has no visible area" }
` + psSave

// psDisplay prints "COUNT n" when the index is out of range, else saves
// the display; the primary display is number 0.
const psDisplay = psUser32 + `$s = @([System.Windows.Forms.Screen]::AllScreens | Sort-Object { -not $_.Primary })
$i = [int]$env:GOOSE_SCREEN_DISPLAY
if ($i -lt 0 -or $i -ge $s.Count) { Write-Output ("COUNT {0}" -f $s.Count); exit 0 }
$b = $s[$i].Bounds; $x = $b.X; $y = $b.Y; $w = $b.Width; $h = $b.Height
` + psSave

func powershell(ctx context.Context, env []string, script string) ([]byte, error) {
	return runTool(ctx, env, "powershell.exe", "-NoProfile", "-NonInteractive", "-Command", script)
}

type winWindow struct {
	hwnd  string
	title string
}

func winWindows(ctx context.Context) ([]winWindow, error) {
	out, err := powershell(ctx, nil, psList)
	if err != nil {
		return nil, err
	}
	var wins []winWindow
	for _, line := range strings.Split(strings.ReplaceAll(string(out), "\r\n", "\n"), "\n") {
		if hwnd, title, ok := strings.Cut(line, "\t"); ok && title != "" {
			wins = append(wins, winWindow{hwnd, title})
		}
	}
	return wins, nil
}

// osWindows lists the windows with how PowerShell grabs each one.
func osWindows(ctx context.Context) ([]osWindow, error) {
	wins, err := winWindows(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]osWindow, len(wins))
	for i, w := range wins {
		hwnd := w.hwnd
		out[i] = osWindow{title: w.title, capture: func() ([]byte, error) {
			return captureToFile(func(path string) error {
				_, err := powershell(ctx, []string{"GOOSE_SCREEN_HWND=" + hwnd, "GOOSE_SCREEN_OUT=" + path}, psWindow)
				return err
			})
		}}
	}
	return out, nil
}

func listWindows(ctx context.Context) ([]string, error) {
	wins, err := osWindows(ctx)
	return titles(wins), err
}

func captureWindow(ctx context.Context, title string) ([]byte, error) {
	wins, err := osWindows(ctx)
	return captureTitled(wins, err, title)
}

func captureDisplay(ctx context.Context, display int) ([]byte, error) {
	var count = -1
	png, err := captureToFile(func(path string) error {
		out, err := powershell(ctx, []string{"GOOSE_SCREEN_DISPLAY=" + strconv.Itoa(display), "GOOSE_SCREEN_OUT=" + path}, psDisplay)
		if err != nil {
			return err
		}
		if n, ok := strings.CutPrefix(strings.TrimSpace(string(out)), "COUNT "); ok {
			count, _ = strconv.Atoi(n)
		}
		return nil
	})
	switch {
	case count >= 0:
		return nil, monitorNotFound(display, count)
	case err != nil:
		return nil, fmt.Errorf("Failed to capture display %d: %w", display, err)
	}
	return png, nil
}
