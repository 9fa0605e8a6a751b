// Command stamped prints the version earlyinfo and internal/buildinfo
// report, for earlyinfo's test of the release build's -X stamp.
package main

import (
	"fmt"

	"github.com/goose-acp/goose-acp/internal/buildinfo"
	"github.com/goose-acp/goose-acp/internal/earlyinfo"
)

func main() {
	fmt.Println(earlyinfo.Version(), buildinfo.Version())
}
