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

func listWindows(ctx context.Context) ([]string, error) {
	wins, err := macWindows(ctx)
	if err != nil {
		return nil, err
	}
	titles := make([]string, len(wins))
	for i, w := range wins {
		titles[i] = w.Title
	}
	return titles, nil
}

func captureWindow(ctx context.Context, title string) ([]byte, error) {
	wins, err := macWindows(ctx)
	if err != nil {
		return nil, wrap("Failed to list windows", err)
	}
	for _, w := range wins {
		if w.Title != title {
			continue
		}
		png, err := captureToFile(func(path string) error {
			_, err := runTool(ctx, nil, "screencapture", "-x", "-o", "-t", "png", "-l", strconv.Itoa(w.ID), path)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("Failed to capture window '%s': %w", title, err)
		}
		return png, nil
	}
	return nil, windowNotFound(title)
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
