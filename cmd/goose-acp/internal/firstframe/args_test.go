package firstframe

import "testing"

func TestServesACPOnStdio(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, true},
		{[]string{"acp"}, true},
		{[]string{"acp", "--with-builtin", "developer,todo"}, true},
		{[]string{"acp", "--with-builtin=todo"}, true},
		{[]string{"--log-level", "debug"}, true},
		{[]string{"--log-file=/tmp/x.log", "acp"}, true},
		{[]string{"--http", "127.0.0.1:3000"}, false},
		{[]string{"--log-level", "debug", "--http=127.0.0.1:3000"}, false},
		{[]string{"--log-level"}, false},
		{[]string{"--version"}, false},
		{[]string{"--help"}, false},
		{[]string{"serve"}, false},
		{[]string{"mcp", "developer"}, false},
		{[]string{"run", "-t", "hi"}, false},
		{[]string{"acp", "--help"}, false},
		{[]string{"acp", "foo"}, false},
		{[]string{"acp", "--with-builtin"}, false},
		{[]string{"acp", "--with-builtin", "todo", "extra"}, false},
		{[]string{"-test.v", "-test.run=X"}, false},
		{[]string{"__proctree_supervisor"}, false},
	} {
		if got := ServesACPOnStdio(tc.args); got != tc.want {
			t.Errorf("ServesACPOnStdio(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
