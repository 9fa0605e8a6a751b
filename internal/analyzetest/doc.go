// Package analyzetest builds the real goose-acp-analyze helper for tests
// that run analyze through it (developer, developer/analyze, e2e).
package analyzetest
