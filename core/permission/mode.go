package permission

import (
	"fmt"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// Mode is goose's GooseMode.
type Mode string

const (
	ModeAuto         Mode = "auto"
	ModeApprove      Mode = "approve"
	ModeSmartApprove Mode = "smart_approve"
	ModeChat         Mode = "chat"
)

// DefaultMode is what the agent uses when GOOSE_MODE is unset.
const DefaultMode = ModeAuto

// ErrInvalidMode is returned (wrapped) by ParseMode.
var ErrInvalidMode = errkind.New(errkind.Invalid, "invalid mode")

// ParseMode reads a GOOSE_MODE value; the error text is goose's
// "invalid mode: {v}".
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case ModeAuto, ModeApprove, ModeSmartApprove, ModeChat:
		return m, nil
	}
	return "", fmt.Errorf("%w: %s", ErrInvalidMode, s)
}

// Decision is the user's answer to a tool confirmation (goose's Permission,
// snake_case on the wire).
type Decision string

const (
	AllowOnce   Decision = "allow_once"
	AlwaysAllow Decision = "always_allow"
	DenyOnce    Decision = "deny_once"
	AlwaysDeny  Decision = "always_deny"
	Cancel      Decision = "cancel"
)

// ErrInvalidDecision is returned (wrapped) by ParseDecision.
var ErrInvalidDecision = errkind.New(errkind.Invalid, "invalid permission decision")

// ParseDecision reads a decision string.
func ParseDecision(s string) (Decision, error) {
	switch d := Decision(s); d {
	case AllowOnce, AlwaysAllow, DenyOnce, AlwaysDeny, Cancel:
		return d, nil
	}
	return "", fmt.Errorf("%w: %q", ErrInvalidDecision, s)
}

// Allows reports whether the tool may run.
func (d Decision) Allows() bool { return d == AllowOnce || d == AlwaysAllow }

// Level is a permission.yaml level; LevelNone means "not listed".
type Level string

const (
	LevelNone        Level = ""
	LevelAlwaysAllow Level = "always_allow"
	LevelAskBefore   Level = "ask_before"
	LevelNeverAllow  Level = "never_allow"
)

// Store is permission.yaml: the user's explicit choices and the
// smart-approve cache. Reads fail closed (an unreadable file reads as
// LevelNeverAllow), as goose's do.
type Store interface {
	User(tool string) Level
	Smart(tool string) Level
	SetUser(tool string, l Level) error
	SetSmart(tool string, l Level) error
}

// PersistedLevel returns the permission.yaml user level a decision writes,
// or LevelNone when it writes nothing.
func (d Decision) PersistedLevel() Level {
	switch d {
	case AlwaysAllow:
		return LevelAlwaysAllow
	case AlwaysDeny:
		return LevelNeverAllow
	}
	return LevelNone
}
