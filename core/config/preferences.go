package config

import (
	"errors"
	"math"
	"strings"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// ErrInvalidPreference wraps every refused preference value.
var ErrInvalidPreference = errkind.New(errkind.Invalid, "invalid preference")

// Preference is one of goose Desktop's allowlisted user preferences: a
// camelCase name on the wire, a config.yaml key on disk, and the check
// (and normalisation) a value passes before it is stored.
type Preference struct {
	Name      string
	ConfigKey string
	prepare   func(name string, v any) (any, error)
}

// Preferences are goose's, in its order.
var Preferences = []Preference{
	{"autoCompactThreshold", "GOOSE_AUTO_COMPACT_THRESHOLD", prepareThreshold},
	{"gooseThinkingEffort", "GOOSE_THINKING_EFFORT", prepareEffort},
	{"voiceAutoSubmitPhrases", "VOICE_AUTO_SUBMIT_PHRASES", prepareString},
	{"voiceDictationProvider", "VOICE_DICTATION_PROVIDER", prepareDictationProvider},
	{"voiceDictationPreferredMic", "VOICE_DICTATION_PREFERRED_MIC", prepareNonEmpty},
}

// PreferenceValue is a preference's current or new value (nil: unset).
type PreferenceValue struct {
	Name  string
	Value any
}

func preference(name string) (Preference, error) {
	for _, p := range Preferences {
		if p.Name == name {
			return p, nil
		}
	}
	return Preference{}, errkind.Wrapf(ErrInvalidPreference, "unknown preference %q", name)
}

// ReadPreferences returns the named preferences (all when names is empty)
// from config.yaml and the environment; unset ones have a nil Value.
func (c *Config) ReadPreferences(names []string) ([]PreferenceValue, error) {
	if len(names) == 0 {
		for _, p := range Preferences {
			names = append(names, p.Name)
		}
	}
	out := make([]PreferenceValue, 0, len(names))
	for _, name := range names {
		p, err := preference(name)
		if err != nil {
			return nil, err
		}
		v, err := c.Get(p.ConfigKey)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return nil, err
		}
		out = append(out, PreferenceValue{Name: name, Value: v})
	}
	return out, nil
}

// SavePreferences checks every value, then writes them all in one rewrite
// of the user file: one bad value stores nothing.
func (c *Config) SavePreferences(values []PreferenceValue) error {
	pairs := make([]KeyValue, 0, len(values))
	for _, pv := range values {
		p, err := preference(pv.Name)
		if err != nil {
			return err
		}
		v, err := p.prepare(pv.Name, pv.Value)
		if err != nil {
			return err
		}
		pairs = append(pairs, KeyValue{Key: p.ConfigKey, Value: v})
	}
	if len(pairs) == 0 {
		return nil
	}
	return c.SetMany(pairs)
}

func invalid(format string, args ...any) error {
	return errkind.Wrapf(ErrInvalidPreference, format, args...)
}

func prepareThreshold(name string, v any) (any, error) {
	f, ok := v.(float64)
	if !ok {
		if n, isInt := v.(int); isInt {
			f, ok = float64(n), true
		}
	}
	if !ok {
		return nil, invalid("%s must be a number", name)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || f <= 0 || f > 1 {
		return nil, invalid("%s must be greater than 0 and at most 1", name)
	}
	return v, nil
}

// thinkingEfforts are goose's ThinkingEffort values.
var thinkingEfforts = []string{"off", "low", "medium", "high", "max"}

func prepareEffort(name string, v any) (any, error) {
	s, ok := v.(string)
	if !ok {
		return nil, invalid("%s must be a string", name)
	}
	e := strings.ToLower(strings.TrimSpace(s))
	for _, known := range thinkingEfforts {
		if e == known {
			return e, nil
		}
	}
	return nil, invalid("Invalid %s: %q (one of %s)", name, s, strings.Join(thinkingEfforts, ", "))
}

func prepareString(name string, v any) (any, error) {
	if _, ok := v.(string); !ok {
		return nil, invalid("%s must be a string", name)
	}
	return v, nil
}

func prepareNonEmpty(name string, v any) (any, error) {
	s, ok := v.(string)
	if !ok {
		return nil, invalid("%s must be a string", name)
	}
	if s == "" {
		return nil, invalid("%s must be non-empty", name)
	}
	return v, nil
}

func prepareDictationProvider(name string, v any) (any, error) {
	s, ok := v.(string)
	if !ok {
		return nil, invalid("%s must be a string", name)
	}
	switch s {
	case "openai", "groq", "elevenlabs", "local", "__disabled__":
		return v, nil
	}
	return nil, invalid("%s is not supported", name)
}
