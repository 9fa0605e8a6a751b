package unavailable

import (
	"errors"
	"fmt"
	"testing"
)

func TestFeatureErrorNamesTheFeatureAndSurvivesWrapping(t *testing.T) {
	err := fmt.Errorf("dictation/config: %w", Dictation.Error())
	if !errors.Is(err, ErrUnavailable) {
		t.Fatal("a wrapped feature error is not ErrUnavailable")
	}
	f, ok := FeatureOf(err)
	if !ok || f != Dictation {
		t.Fatalf("FeatureOf = %+v, %v", f, ok)
	}
	want := "Dictation is not available in goose-acp: " + Dictation.Why
	if Dictation.Message() != want || Dictation.Error().Error() != want {
		t.Errorf("message %q, want %q", Dictation.Error(), want)
	}
	if _, ok := FeatureOf(errors.New("other")); ok {
		t.Error("an unrelated error has a feature")
	}
}
