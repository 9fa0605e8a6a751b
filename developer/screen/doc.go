// Package screen implements goose's list_windows and screen_capture tools:
// it lists window titles and captures a display or a window as PNG.
//
// Linux and the BSDs speak the X11 protocol directly in pure Go
// (github.com/jezek/xgb): titles come from _NET_CLIENT_LIST (or the
// top-level windows when no EWMH window manager runs) with _NET_WM_NAME or
// WM_NAME, displays from RandR monitors, pixels from GetImage. macOS uses
// `screencapture` and `osascript` (JXA over CoreGraphics); Windows uses
// PowerShell with System.Drawing. Without a display (no DISPLAY on Linux,
// Wayland without XWayland) every call fails with ErrNoDisplay and a message
// that says what is missing.
package screen
