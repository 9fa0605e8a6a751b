package setup

import (
	"errors"
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/errkind"
)

// Refused provider settings are Invalid with details a face shows as they
// are.
func TestRefusalDetails(t *testing.T) {
	s := newFixture(t).setup(t)
	err := s.DeleteProviderSecret("nope")
	if !errors.Is(err, ErrInvalidSecretID) || errkind.Of(err) != errkind.Invalid || errkind.Detail(err) != "Invalid provider secret id: 'nope'" {
		t.Errorf("secret id: %v (kind %v, detail %q)", err, errkind.Of(err), errkind.Detail(err))
	}
	err = s.SaveFields("openai", []config.KeyValue{{Key: "NOT_A_FIELD", Value: "x"}})
	if !errors.Is(err, ErrInvalidField) || errkind.Detail(err) != "Unsupported provider config field: NOT_A_FIELD" {
		t.Errorf("field: %v (detail %q)", err, errkind.Detail(err))
	}
	_, err = s.Lookup("no-such-provider")
	if !errors.Is(err, ErrUnknownProvider) || errkind.Of(err) != errkind.NotFound {
		t.Errorf("lookup: %v (kind %v)", err, errkind.Of(err))
	}
}

// Status's "not configured" reasons are AuthRequired, so faces ask the
// user to sign in.
func TestNotConfiguredIsAuthRequired(t *testing.T) {
	err := notConfigured("no provider is configured")
	if !errors.Is(err, ErrNotConfigured) || errkind.Of(err) != errkind.AuthRequired || errkind.Detail(err) != "no provider is configured" {
		t.Errorf("%v: kind %v", err, errkind.Of(err))
	}
}
