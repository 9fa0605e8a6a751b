//go:build darwin

package screen

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// jxaWindows lists on-screen, titled, normal-layer windows with their
// CGWindowIDs as JSON. Titles need the Screen Recording permission.
const jxaWindows = `ObjC.import('CoreGraphics');
var list = ObjC.castRefToObject($.CGWindowListCopyWindowInfo($.kCGWindowListOptionOnScreenOnly | $.kCGWindowListExcludeDesktopElements, $.kCGNullWindowID));
var out = [];
for (var i = 0; i < list.count; i++) {
  var w = list.objectAtIndex(i);
  var name = ObjC.unwrap(w.objectForKey('kCGWindowName'));
  if (!name || ObjC.unwrap(w.objectForKey('kCGWindowLayer')) !== 0) continue;
  out.push({id: ObjC.unwrap(w.objectForKey('kCGWindowNumber')), title: name});
}
JSON.stringify(out);`

// jxaScreens prints the number of displays.
const jxaScreens = `ObjC.import('AppKit'); $.NSScreen.screens.count;`

type macWindow struct {
	ID    int    `json:"id"`
	Title string `json:"title"`
}

func macWindows(ctx context.Context) ([]macWindow, error) {
	out, err := runTool(ctx, nil, "osascript", "-l", "JavaScript", "-e", jxaWindows)
	if err != nil {
		return nil, err
	}
	var wins []macWindow
	if err := json.Unmarshal(out, &wins); err != nil {
		return nil, fmt.Errorf("parse osascript output: %w", err)
	}
	return wins, nil
}

// osWindows lists the windows with how screencapture grabs each one.
func osWindows(ctx context.Context) ([]osWindow, error) {
	wins, err := macWindows(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]osWindow, len(wins))
	for i, w := range wins {
		id := strconv.Itoa(w.ID)
		out[i] = osWindow{title: w.Title, capture: func() ([]byte, error) {
			return captureToFile(func(path string) error {
				_, err := runTool(ctx, nil, "screencapture", "-x", "-o", "-t", "png", "-l", id, path)
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
	out, err := runTool(ctx, nil, "osascript", "-l", "JavaScript", "-e", jxaScreens)
	if err != nil {
		return nil, wrap("Failed to access monitors", err)
	}
	count, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return nil, fmt.Errorf("Failed to access monitors: parse %q: %w", out, err)
	}
	if display < 0 || display >= count {
		return nil, monitorNotFound(display, count)
	}
	png, err := captureToFile(func(path string) error {
		// screencapture numbers displays from 1, the main display first.
		_, err := runTool(ctx, nil, "screencapture", "-x", "-t", "png", "-D", strconv.Itoa(display+1), path)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("Failed to capture display %d: %w", display, err)
	}
	return png, nil
}
