package schedule

import (
	"errors"
	"fmt"
)

// Sentinel kinds callers branch on with errors.Is.
var (
	ErrJobExists   = errors.New("job already exists")
	ErrJobNotFound = errors.New("job not found")
	ErrInvalidCron = errors.New("invalid cron")
	ErrJobRunning  = errors.New("job is running")
	ErrNotRunning  = errors.New("job is not running")
	ErrRecipe      = errors.New("recipe load error")
	ErrRunFailed   = errors.New("job run failed")
	ErrClosed      = errors.New("scheduler closed")
)

// Error carries goose's message text and a sentinel kind.
type Error struct {
	Kind error
	msg  string
	err  error
}

func (e *Error) Error() string { return e.msg }

// Is matches the kind.
func (e *Error) Is(target error) bool { return target == e.Kind }

// Unwrap returns the cause, if any.
func (e *Error) Unwrap() error { return e.err }

func jobExists(id string) error {
	return &Error{Kind: ErrJobExists, msg: fmt.Sprintf("Job ID '%s' already exists.", id)}
}

func jobNotFound(id string) error {
	return &Error{Kind: ErrJobNotFound, msg: fmt.Sprintf("Job ID '%s' not found.", id)}
}
