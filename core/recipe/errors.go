package recipe

import (
	"fmt"
	"strings"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// Sentinel errors callers branch on. Messages are goose's.
var (
	// ErrDecode is goose's DecodeError::AllMethodsFailed.
	ErrDecode = errkind.New(errkind.Invalid, "Failed to decode recipe deeplink")
	// ErrNoPromptOrInstructions: neither field has non-blank text.
	ErrNoPromptOrInstructions = errkind.New(errkind.Invalid, "Recipe must specify at least one of `instructions` or `prompt`.")
	// ErrInvalid wraps every validation failure (use errors.Is).
	ErrInvalid = errkind.New(errkind.Invalid, "invalid recipe")
)

// MissingParamsError lists required parameters without a value; its text is
// goose's RecipeError::MissingParams.
type MissingParamsError struct{ Parameters []string }

func (e *MissingParamsError) Error() string {
	q := make([]string, len(e.Parameters))
	for i, p := range e.Parameters {
		q[i] = fmt.Sprintf("%q", p)
	}
	return "Missing required parameters: [" + strings.Join(q, ", ") + "]"
}

// ErrorKind: the caller left values out.
func (e *MissingParamsError) ErrorKind() errkind.Kind { return errkind.Invalid }

// invalidError is a validation failure with goose's exact text.
type invalidError struct{ msg string }

func (e *invalidError) Error() string { return e.msg }

// ErrorKind is ErrInvalid's.
func (e *invalidError) ErrorKind() errkind.Kind { return errkind.Invalid }
func (e *invalidError) Is(target error) bool {
	return target == ErrInvalid
}

func invalidf(format string, args ...any) error {
	return &invalidError{msg: fmt.Sprintf(format, args...)}
}
