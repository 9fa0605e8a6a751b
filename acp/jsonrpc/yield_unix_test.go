//go:build unix

package jsonrpc

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"syscall"
	"testing"
)

// BenchmarkRequestOverBlockingPipe is the time from a request written to
// a blocking pipe, as an editor's stdin is, to its answer, with two Ps of
// which another goroutine keeps one busy (a fresh process's early store
// open beside its first session/new). The reader yields its P to the
// handler before it blocks in its next read.
func BenchmarkRequestOverBlockingPipe(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		b.Fatal(err)
	}
	inR, inW := os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "editor")
	outR, outW := io.Pipe()
	conn := NewConn(NewStream(inR, outW, inR), echo())
	var wg sync.WaitGroup
	wg.Go(func() { _ = conn.Run(context.Background()) })
	stop := make(chan struct{})
	wg.Go(func() { busy(stop) })
	sc := bufio.NewScanner(outR)
	b.ResetTimer()
	for i := range b.N {
		if _, err := fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":%d,"method":"echo","params":{}}`+"\n", i); err != nil {
			b.Fatal(err)
		}
		if !sc.Scan() {
			b.Fatal("no answer", sc.Err())
		}
	}
	b.StopTimer()
	close(stop)
	inW.Close()
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	wg.Wait()
	outW.Close()
}

// busy keeps a P until stop is closed, preemptible as any loop is.
func busy(stop <-chan struct{}) {
	x := 0
	for {
		select {
		case <-stop:
			return
		default:
		}
		for i := range 1000 {
			x += i
		}
	}
}
