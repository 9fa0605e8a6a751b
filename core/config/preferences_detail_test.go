package config

import (
	"testing"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// A refused preference is Invalid with a detail a face shows as it is.
func TestPreferenceErrorDetail(t *testing.T) {
	_, err := preference("no_such")
	if errkind.Of(err) != errkind.Invalid || errkind.Detail(err) != `unknown preference "no_such"` {
		t.Errorf("%v: kind %v detail %q", err, errkind.Of(err), errkind.Detail(err))
	}
	if err.Error() != `invalid preference: unknown preference "no_such"` {
		t.Errorf("text %q", err.Error())
	}
}
