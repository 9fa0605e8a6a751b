package acp

import "testing"

func TestGitPatch(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\n"
	for _, c := range []struct {
		name string
		old  *string
		new  string
		want string
	}{
		{"modify", &old, "a\nb\nc\nd\nE\nf\ng\nh\n",
			"diff --git a/p/x.go b/p/x.go\n--- a/p/x.go\n+++ b/p/x.go\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n"},
		{"new file", nil, "one\ntwo",
			"diff --git a/p/x.go b/p/x.go\nnew file mode 100644\n--- /dev/null\n+++ b/p/x.go\n@@ -0,0 +1,2 @@\n+one\n+two\n\\ No newline at end of file\n"},
		{"append", &old, old + "i\n",
			"diff --git a/p/x.go b/p/x.go\n--- a/p/x.go\n+++ b/p/x.go\n@@ -6,3 +6,4 @@\n f\n g\n h\n+i\n"},
		{"unchanged", &old, old, "diff --git a/p/x.go b/p/x.go\n--- a/p/x.go\n+++ b/p/x.go\n"},
	} {
		if got := gitPatch("/p/x.go", c.old, c.new); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
