package errkind

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"testing"
)

var errThing = New(NotFound, "thing not found")
var errName = New(Invalid, "invalid name")

func TestOfFollowsWrapping(t *testing.T) {
	cases := []struct {
		err  error
		want Kind
	}{
		{nil, Internal},
		{errors.New("plain"), Internal},
		{errThing, NotFound},
		{fmt.Errorf("%w: 42", errThing), NotFound},
		{fmt.Errorf("loading: %w", fmt.Errorf("%w: 42", errThing)), NotFound},
		{Wrapf(errName, "Name cannot be empty"), Invalid},
		{fmt.Errorf("renaming: %w", Wrapf(errName, "too long")), Invalid},
		{Errorf(Busy, "try later"), Busy},
		{errors.Join(errors.New("a"), errThing), NotFound},
		{context.Canceled, Cancelled},
		{fmt.Errorf("turn: %w", context.DeadlineExceeded), Timeout},
		// A kind above a context error wins.
		{Wrapf(errName, "cancelled: %w", context.Canceled), Invalid},
	}
	for _, c := range cases {
		if got := Of(c.err); got != c.want {
			t.Errorf("Of(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

func TestWrapfKeepsTextAndSentinel(t *testing.T) {
	err := Wrapf(errName, "Session name too long (max %d characters)", 200)
	if got, want := err.Error(), "invalid name: Session name too long (max 200 characters)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(err, errName) {
		t.Error("Wrapf error is not its sentinel")
	}
	if got, want := Detail(err), "Session name too long (max 200 characters)"; got != want {
		t.Errorf("Detail = %q, want %q", got, want)
	}
	if got, want := Detail(fmt.Errorf("rename 7: %w", err)), "Session name too long (max 200 characters)"; got != want {
		t.Errorf("Detail through a wrapper = %q, want %q", got, want)
	}
}

func TestWrapfWrapsItsCause(t *testing.T) {
	err := Wrapf(errName, "reading %s: %w", "x.yaml", fs.ErrNotExist)
	if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, errName) {
		t.Fatalf("%v does not wrap both its sentinel and its cause", err)
	}
	if got, want := Detail(err), "reading x.yaml: file does not exist"; got != want {
		t.Errorf("Detail = %q, want %q", got, want)
	}
	if Of(err) != Invalid {
		t.Errorf("Of = %v, want the sentinel's kind", Of(err))
	}
}

func TestDetailWithoutADetailIsTheWholeText(t *testing.T) {
	for _, err := range []error{errThing, fmt.Errorf("%w: 42", errThing), errors.New("disk full")} {
		if Detail(err) != err.Error() {
			t.Errorf("Detail(%v) = %q", err, Detail(err))
		}
	}
	if Detail(nil) != "" {
		t.Error("Detail(nil) is not empty")
	}
	err := Errorf(Conflict, "job %q already exists", "nightly")
	if err.Error() != `job "nightly" already exists` || Detail(err) != err.Error() || !Is(err, Conflict) {
		t.Errorf("Errorf: %q / %q / %v", err.Error(), Detail(err), Of(err))
	}
}

// An error type outside this package carries a kind by implementing
// ErrorKind.
type authErr struct{}

func (authErr) Error() string   { return "key rejected" }
func (authErr) ErrorKind() Kind { return AuthRequired }

func TestForeignKindedType(t *testing.T) {
	if Of(fmt.Errorf("turn: %w", authErr{})) != AuthRequired {
		t.Error("a foreign ErrorKind is not found")
	}
}

func TestKindStrings(t *testing.T) {
	for k := Internal; k <= Cancelled; k++ {
		if s := k.String(); s == "" || s[0] == 'K' {
			t.Errorf("Kind %d has no name: %q", k, s)
		}
	}
	if Kind(200).String() != "Kind(200)" {
		t.Error(Kind(200).String())
	}
}
