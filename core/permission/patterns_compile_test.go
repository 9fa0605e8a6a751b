package permission

import "testing"

// Patterns compile lazily; a bad expression must still fail a test, not
// the first user's shell command.
func TestEveryPatternCompiles(t *testing.T) {
	for _, p := range Patterns {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("pattern %s does not compile: %v", p.Name, r)
				}
			}()
			p.re()
		}()
	}
	if !driveTarget().MatchString("/dev/sda1") {
		t.Error("driveTarget does not match /dev/sda1")
	}
}
