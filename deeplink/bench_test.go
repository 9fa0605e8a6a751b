package deeplink

import "testing"

func BenchmarkParseExtension(b *testing.B) {
	link := "goose://extension?cmd=npx&arg=-y&arg=%40modelcontextprotocol%2Fserver-github&name=GitHub&env=GITHUB_TOKEN&timeout=60"
	policy := Policy{Allowlist: []string{"npx -y @modelcontextprotocol/server-github"}}
	b.ReportAllocs()
	for b.Loop() {
		if !Parse(link, policy).OK {
			b.Fatal("not ok")
		}
	}
}

func BenchmarkParseRecipe(b *testing.B) {
	link := "goose://recipe?config=" + workedConfig + "&name=Alice&scheduledJob=nightly"
	b.ReportAllocs()
	for b.Loop() {
		if !Parse(link, Policy{}).OK {
			b.Fatal("not ok")
		}
	}
}
