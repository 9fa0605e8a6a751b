package schedule

import (
	"fmt"
	"strings"

	"github.com/robfig/cron/v3"
)

var cronParser = cron.NewParser(cron.Second | cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// NormalizeCron is goose's normalize_cron_expression: 5 fields get a
// leading seconds field ("0 "), 6 fields are seconds-first already, and 7
// fields drop the trailing year (goose passes only the first six on); a
// day-of-week 7 becomes 0 (both are Sunday). Descriptors ("@daily",
// "@every 1s") pass through. The stored expression stays as the user gave it.
func NormalizeCron(expr string) (string, error) {
	expr = strings.TrimSpace(expr)
	if strings.HasPrefix(expr, "@") {
		return expr, nil
	}
	fields := strings.Fields(expr)
	switch len(fields) {
	case 5:
		fields = append([]string{"0"}, fields...)
	case 6:
	case 7:
		fields = fields[:6]
	default:
		return "", &Error{Kind: ErrInvalidCron, msg: fmt.Sprintf("Invalid cron string: Invalid cron expression '%s': expected 5, 6 or 7 fields, got %d", expr, len(fields))}
	}
	fields[5] = sundaySeven(fields[5])
	return strings.Join(fields, " "), nil
}

// sundaySeven rewrites day-of-week 7 (Sunday, as goose's croner and most
// crons accept it) to 0, the only Sunday our parser knows: "7" → "0",
// "5-7" → "5-6,0". Stepped items are left for the parser to judge.
func sundaySeven(dow string) string {
	items := strings.Split(dow, ",")
	for i, item := range items {
		if strings.Contains(item, "/") {
			continue
		}
		switch lo, hi, isRange := strings.Cut(item, "-"); {
		case !isRange && item == "7":
			items[i] = "0"
		case isRange && hi == "7" && lo == "7":
			items[i] = "0"
		case isRange && hi == "7" && lo == "6":
			items[i] = "6,0"
		case isRange && hi == "7":
			items[i] = lo + "-6,0"
		}
	}
	return strings.Join(items, ",")
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
