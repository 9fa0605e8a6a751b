package config

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Get returns the value of key: the environment variable KEY (uppercased)
// parsed by ParseEnvValue if set, else the merged file value.
func (c *Config) Get(key string) (any, error) {
	if v := c.getenv(strings.ToUpper(key)); v != "" {
		return ParseEnvValue(v), nil
	}
	values, err := c.load()
	if err != nil {
		return nil, err
	}
	v, ok := values[key]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, key)
	}
	return deepCopy(v), nil
}

// Lookup is Get for readers that only ask whether key is set: false when
// it is set nowhere or the files cannot be read. Unlike Get it builds no
// error for a missing key (a new session's provider check asks for a
// dozen unset keys, each a formatted error before).
func (c *Config) Lookup(key string) (any, bool) {
	if v := c.getenv(strings.ToUpper(key)); v != "" {
		return ParseEnvValue(v), true
	}
	values, err := c.load()
	if err != nil {
		return nil, false
	}
	v, ok := values[key]
	if !ok {
		return nil, false
	}
	return deepCopy(v), true
}

// GetAll returns the merged file values without environment overrides
// (goosed's GET /config).
func (c *Config) GetAll() (map[string]any, error) {
	values, err := c.load()
	if err != nil {
		return nil, err
	}
	return deepCopy(values).(map[string]any), nil
}

// Decode reads key into out (a pointer) through JSON, as goose's get_param
// does: when the stored value is a string that does not fit out (YAML
// "300" read as a number), the string is parsed like an env value and
// tried again.
func (c *Config) Decode(key string, out any) error {
	v, err := c.Get(key)
	if err != nil {
		return err
	}
	return decodeValue(key, v, out)
}

func decodeValue(key string, v, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("config: %s: %w", key, err)
	}
	firstErr := json.Unmarshal(b, out)
	if firstErr == nil {
		return nil
	}
	if s, ok := v.(string); ok {
		if b, err := json.Marshal(ParseEnvValue(s)); err == nil && json.Unmarshal(b, out) == nil {
			return nil
		}
	}
	return fmt.Errorf("config: %s: %w", key, firstErr)
}

// GetString returns key as a string (numbers and booleans are formatted).
func (c *Config) GetString(key string) (string, error) {
	v, err := c.Get(key)
	if err != nil {
		return "", err
	}
	switch x := v.(type) {
	case string:
		return x, nil
	case bool, int64, float64:
		return fmt.Sprint(x), nil
	}
	return "", fmt.Errorf("config: %s is not a string", key)
}

// GetBool returns key as a bool ("true"/"false" strings accepted).
func (c *Config) GetBool(key string) (bool, error) {
	var b bool
	err := c.Decode(key, &b)
	return b, err
}

// GetInt returns key as an integer ("300" strings accepted).
func (c *Config) GetInt(key string) (int64, error) {
	var n int64
	err := c.Decode(key, &n)
	return n, err
}

// ParseEnvValue is goose's parse_env_value: JSON first, then true/false
// (any case, trimmed), then an integer, then a finite float, else the
// string itself.
func ParseEnvValue(s string) any {
	if json.Valid([]byte(s)) {
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err == nil {
			return normalizeJSON(v)
		}
	}
	t := strings.TrimSpace(s)
	switch strings.ToLower(t) {
	case "true":
		return true
	case "false":
		return false
	}
	if n, err := strconv.ParseInt(t, 10, 64); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(t, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) && !strings.ContainsAny(t, "xX_") {
		return f
	}
	return s
}

// normalizeJSON turns json.Number into int64 when integral, else float64.
func normalizeJSON(v any) any {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeJSON(e)
		}
	case []any:
		for i := range x {
			x[i] = normalizeJSON(x[i])
		}
	}
	return v
}
