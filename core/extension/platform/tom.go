package platform

import (
	"context"
	"io"
	"strings"
	"sync"

	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/extension/inproc"
	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

// Tom ("top of mind") adds user text to every turn's info message.
const Tom = "tom"

// tomMaxBytes bounds each of GOOSE_MOIM_MESSAGE_TEXT and the file.
const tomMaxBytes = 64 * 1024

// tomServer is tom's server, the same for every session: one per process.
var tomServer = sync.OnceValue(func() *inproc.Server { return newServer(Tom, "Top Of Mind", "") })

// tom has no tools: its server only exists so it is listed like the other
// platform extensions; its MOIM reads GOOSE_MOIM_MESSAGE_TEXT and the file
// named by GOOSE_MOIM_MESSAGE_FILE on every turn.
func (d Deps) tom(ctx context.Context, env extension.Env) (extension.Platform, error) {
	s := tomServer()
	moim := func(context.Context) string {
		var parts []string
		if t := strings.TrimSpace(clip(d.Getenv("GOOSE_MOIM_MESSAGE_TEXT"))); t != "" {
			parts = append(parts, t)
		}
		if p := d.Getenv("GOOSE_MOIM_MESSAGE_FILE"); p != "" {
			if t := strings.TrimSpace(readClipped(p)); t != "" {
				parts = append(parts, t)
			}
		}
		return strings.Join(parts, "\n")
	}
	return extension.Platform{Server: s, MOIM: moim}, nil
}

func clip(s string) string {
	if len(s) > tomMaxBytes {
		return s[:tomMaxBytes]
	}
	return s
}

func readClipped(path string) string {
	f, _, err := pathpolicy.OpenRegular(path) // a FIFO would block os.Open
	if err != nil {
		return ""
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, tomMaxBytes))
	return string(b)
}
