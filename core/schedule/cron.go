package schedule

import (
	"fmt"
	"strings"

	"github.com/robfig/cron/v3"
)

var cronParser = cron.NewParser(cron.Second | cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// NormalizeCron is goose's normalize_cron_expression: 5 fields get a
// leading seconds field ("0 "), 6 fields are seconds-first already, and 7
// fields drop the trailing year (goose passes only the first six on).
// Descriptors ("@daily", "@every 1s") pass through.
func NormalizeCron(expr string) (string, error) {
	expr = strings.TrimSpace(expr)
	if strings.HasPrefix(expr, "@") {
		return expr, nil
	}
	fields := strings.Fields(expr)
	switch len(fields) {
	case 5:
		return "0 " + strings.Join(fields, " "), nil
	case 6:
		return strings.Join(fields, " "), nil
	case 7:
		return strings.Join(fields[:6], " "), nil
	}
	return "", &Error{Kind: ErrInvalidCron, msg: fmt.Sprintf("Invalid cron string: Invalid cron expression '%s': expected 5, 6 or 7 fields, got %d", expr, len(fields))}
}

// ParseCron normalises and parses a cron expression.
func ParseCron(expr string) (cron.Schedule, error) {
	norm, err := NormalizeCron(expr)
	if err != nil {
		return nil, err
	}
	s, err := cronParser.Parse(norm)
	if err != nil {
		return nil, &Error{Kind: ErrInvalidCron, msg: "Invalid cron string: " + err.Error()}
	}
	return s, nil
}
