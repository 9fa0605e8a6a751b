package agent

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPromptTemplatesRegistry(t *testing.T) {
	dir := t.TempDir()
	list := PromptTemplates(dir)
	var names []string
	for _, tp := range list {
		names = append(names, tp.Name)
		if tp.Description == "" || tp.DefaultContent == "" || tp.IsCustomized || tp.UserContent != nil {
			t.Fatalf("template %+v", tp)
		}
	}
	want := "system.md compaction.md recipe.md permission_judge.md session_name.md"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("names = %s", got)
	}
	b, _ := json.Marshal(list[0])
	if !strings.HasPrefix(string(b), `{"name":"system.md","description":"Main system prompt that defines goose's personality and behavior","default_content":`) ||
		!strings.HasSuffix(string(b), `"is_customized":false}`) {
		t.Fatalf("json = %.200s", b)
	}
}

func TestPromptTemplateSaveAndReset(t *testing.T) {
	dir := t.TempDir()
	if err := SavePromptTemplate(dir, "recipe.md", "Make a recipe."); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "prompts", "recipe.md"))
	if err != nil || string(b) != "Make a recipe." {
		t.Fatalf("file = %q, %v", b, err)
	}
	tp, err := PromptTemplate(dir, "recipe.md")
	if err != nil || !tp.IsCustomized || tp.Content() != "Make a recipe." || tp.DefaultContent == "Make a recipe." {
		t.Fatalf("template = %+v, %v", tp, err)
	}
	if err := ResetPromptTemplate(dir, "recipe.md"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "prompts", "recipe.md")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("override still there: %v", err)
	}
	if err := ResetPromptTemplate(dir, "recipe.md"); err != nil {
		t.Fatalf("second reset: %v", err)
	}
}

func TestPromptTemplateErrors(t *testing.T) {
	dir := t.TempDir()
	for _, err := range []error{
		SavePromptTemplate(dir, "nope.md", "x"),
		ResetPromptTemplate(dir, "../system.md"),
		func() error { _, err := PromptTemplate(dir, "plan.md"); return err }(),
	} {
		if !errors.Is(err, ErrUnknownTemplate) {
			t.Fatalf("err = %v", err)
		}
	}
	if err := SavePromptTemplate(dir, "system.md", "{{ .Broken"); !errors.Is(err, ErrInvalidTemplate) {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "prompts", "system.md")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("an invalid template was saved")
	}
}

func TestSystemPromptOverride(t *testing.T) {
	cfgDir := t.TempDir()
	if err := SavePromptTemplate(cfgDir, TemplateSystem, "Custom goose in {{.GooseMode}} mode."); err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, mapConfig{"GOOSE_MODE": "auto"}, func(o *Options) { o.ConfigDir = cfgDir }, say("ok"))
	h.start(StartOptions{})
	h.reply(context.Background(), "hi", nil)
	if sys := h.prov.request(0).System; sys != "Custom goose in auto mode." {
		t.Fatalf("system = %q", sys)
	}
}

func TestBrokenOverrideFallsBackToDefault(t *testing.T) {
	cfgDir := t.TempDir()
	// Parses, but fails at execution (no such field).
	if err := SavePromptTemplate(cfgDir, TemplateSystem, "{{.NoSuchField.X}}"); err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, nil, func(o *Options) { o.ConfigDir = cfgDir }, say("ok"))
	h.start(StartOptions{})
	h.reply(context.Background(), "hi", nil)
	if sys := h.prov.request(0).System; !strings.HasPrefix(sys, "You are a general-purpose AI agent called goose") {
		t.Fatalf("system = %.100q", sys)
	}
}

func TestSessionNameOverride(t *testing.T) {
	cfgDir := t.TempDir()
	if err := SavePromptTemplate(cfgDir, TemplateSessionName, "Title it in two words.\n"); err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, mapConfig{"GOOSE_DISABLE_SESSION_NAMING": "false"}, func(o *Options) { o.ConfigDir = cfgDir }, say("ok"))
	h.start(StartOptions{})
	h.reply(context.Background(), "plan a trip", nil)
	h.a.Wait()
	if len(h.prov.completes) == 0 || h.prov.completes[0].System != "Title it in two words." {
		t.Fatalf("completes = %+v", h.prov.completes)
	}
}
