package platform

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkDiscoverSkills walks 100 skills of 5 supporting files each, as
// every load_skill call and session start does.
func BenchmarkDiscoverSkills(b *testing.B) {
	wd := b.TempDir()
	for i := 0; i < 100; i++ {
		dir := filepath.Join(wd, ".agents/skills", fmt.Sprintf("skill-%03d", i))
		writeFileB(b, filepath.Join(dir, "SKILL.md"), skillMD(fmt.Sprintf("skill-%03d", i), "A skill", "Body $ARGUMENTS"))
		for j := 0; j < 5; j++ {
			writeFileB(b, filepath.Join(dir, "refs", fmt.Sprintf("f%d.md", j)), "reference")
		}
	}
	o := SkillDirs{WorkingDir: wd, Home: b.TempDir()}
	for b.Loop() {
		if n := len(DiscoverSkills(o)); n != 100 {
			b.Fatalf("%d skills", n)
		}
	}
}

func writeFileB(b *testing.B, path, content string) {
	b.Helper()
	t := &testing.T{}
	writeFile(t, path, content)
	if t.Failed() {
		b.Fatal("write failed")
	}
}
