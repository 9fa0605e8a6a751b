package schedule

import (
	"testing"
	"time"
)

// Day-of-week 7 is Sunday, as in goose's cron parser (croner) and crontab.
func TestCronSundayAsSeven(t *testing.T) {
	tests := []struct {
		in, norm string
		// days are the weekdays it fires on in one week, Sunday first
		days string
	}{
		{"0 9 * * 7", "0 0 9 * * 0", "Sun"},
		{"0 9 * * 0", "0 0 9 * * 0", "Sun"},
		{"0 9 * * 5-7", "0 0 9 * * 5-6,0", "Sun Fri Sat"},
		{"0 9 * * 6-7", "0 0 9 * * 6,0", "Sun Sat"},
		{"0 9 * * 7-7", "0 0 9 * * 0", "Sun"},
		{"0 9 * * 1,7", "0 0 9 * * 1,0", "Sun Mon"},
		{"0 0 9 * * MON-FRI", "0 0 9 * * MON-FRI", "Mon Tue Wed Thu Fri"},
		{"0 0 9 * * 1-5 2030", "0 0 9 * * 1-5", "Mon Tue Wed Thu Fri"},
	}
	// 2025-06-01 is a Sunday; walk the next seven fires from Saturday night.
	from := time.Date(2025, 5, 31, 9, 30, 0, 0, time.UTC)
	for _, tc := range tests {
		norm, err := NormalizeCron(tc.in)
		if err != nil || norm != tc.norm {
			t.Errorf("NormalizeCron(%q) = %q, %v; want %q", tc.in, norm, err, tc.norm)
			continue
		}
		s, err := ParseCron(tc.in)
		if err != nil {
			t.Errorf("ParseCron(%q): %v", tc.in, err)
			continue
		}
		seen := map[time.Weekday]bool{}
		for next := s.Next(from); next.Before(from.Add(7 * 24 * time.Hour)); next = s.Next(next) {
			seen[next.Weekday()] = true
		}
		var got string
		for d := time.Sunday; d <= time.Saturday; d++ {
			if seen[d] {
				if got != "" {
					got += " "
				}
				got += d.String()[:3]
			}
		}
		if got != tc.days {
			t.Errorf("%q fires on %q, want %q", tc.in, got, tc.days)
		}
	}
	if _, err := ParseCron("0 9 * * 8"); err == nil {
		t.Error("day-of-week 8 accepted")
	}
}
