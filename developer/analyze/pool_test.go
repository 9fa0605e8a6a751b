package analyze_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/developer/analyze"
)

// Calls from many goroutines at once are all answered, each with its own
// analysis (the same text as alone), by at most MaxHelpers processes, of
// which at most MaxIdle stay.
func TestConcurrentCalls(t *testing.T) {
	root := fixture(t)
	reqs := []analyze.Request{
		{Path: "main.go"},
		{Path: "app/util/strings.rb"},
		{Path: ".", MaxDepth: 3},
		{Path: ".", Focus: "helper", FollowDepth: 2, MaxDepth: 3},
		{Path: filepath.Join("..", "langs", "native", "widget.cpp")},
		{Path: "nope"},
	}
	type result struct{ text, err string }
	run := func(req analyze.Request) result {
		req.WorkingDir = root
		text, err := analyze.Run(context.Background(), helper, req)
		if err != nil {
			return result{err: err.Error()}
		}
		return result{text: text}
	}
	want := make([]result, len(reqs))
	for i, req := range reqs {
		want[i] = run(req)
	}
	if want[0].text != golden(t, "file_go.txt", root) || !strings.HasPrefix(want[5].err, "Path '") {
		t.Fatalf("alone: %+v", want)
	}
	const rounds = 4
	got := make([]result, rounds*len(reqs))
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = run(reqs[i%len(reqs)]) })
	}
	wg.Wait()
	for i, r := range got {
		if w := want[i%len(reqs)]; r != w {
			t.Errorf("call %d (%s): got %+v\nwant %+v", i, reqs[i%len(reqs)].Path, r, w)
		}
	}
	if idle := analyze.IdlePIDs(helper); len(idle) == 0 || len(idle) > analyze.MaxIdle {
		t.Errorf("idle helpers %v, want 1 to %d", idle, analyze.MaxIdle)
	}
}

// A call waiting for a helper (all MaxHelpers busy) ends when its context
// does.
func TestWaitForAHelperIsCancellable(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a shell script stands in for the helper")
	}
	dir := t.TempDir()
	slow := filepath.Join(dir, "slow-helper")
	// Each run leaves a mark, then waits.
	if err := os.WriteFile(slow, []byte("#!/bin/sh\n: > \"$0.$$\"\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range analyze.MaxHelpers {
		wg.Go(func() { analyze.Run(ctx, slow, analyze.Request{Path: "x"}) })
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if marks, _ := filepath.Glob(slow + ".*"); len(marks) == analyze.MaxHelpers {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the stand-in helpers never all started")
		}
	}
	waiting, stop := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { _, err := analyze.Run(waiting, slow, analyze.Request{Path: "x"}); errc <- err }()
	stop()
	err := <-errc
	cancel()
	wg.Wait()
	if want := "analyze: " + context.Canceled.Error(); err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

// One helper process answers request after request, one line each.
func TestHelperServesRequestLines(t *testing.T) {
	root := fixture(t)
	cmd := exec.Command(helper)
	cmd.Stdin = strings.NewReader(fmt.Sprintf("{\"path\":\"main.go\",\"working_dir\":%q}\n\n{\"path\":\"nope\",\"working_dir\":%q}\n{\"path\":\"main.go\",\"working_dir\":%q}\n", root, root, root))
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(golden(t, "file_go.txt", root))
	text := string(b)
	want := `{"text":` + text + "}\n" +
		`{"text":"","error":{"kind":"not_found","message":"Path '` + filepath.Join(root, "nope") + `' does not exist"}}` + "\n" +
		`{"text":` + text + "}\n"
	if string(out) != want {
		t.Errorf("stdout =\n%s\nwant\n%s", out, want)
	}
}
