package sources

import (
	"errors"
	"testing"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// A refused source request is Invalid with a detail a face shows as it is.
func TestInvalidDetail(t *testing.T) {
	err := Store{}.DeleteProject("/not/a/project.txt")
	if !errors.Is(err, ErrInvalid) || errkind.Of(err) != errkind.Invalid {
		t.Fatalf("%v: kind %v", err, errkind.Of(err))
	}
	if got := errkind.Detail(err); got != `Path "/not/a/project.txt" is not a project source` {
		t.Errorf("detail %q", got)
	}
}
