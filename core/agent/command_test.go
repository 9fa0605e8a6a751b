package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
)

func TestPromptSlashCommand(t *testing.T) {
	h := newHarness(t, nil, say("reviewed"))
	h.start(StartOptions{})
	cmds, err := h.a.SlashCommands(h.id)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name+"("+c.Hint+")")
	}
	if strings.Join(names, ",") != "compact(),clear(),rewind(message number),undo(),review(file)" {
		t.Fatalf("commands = %v", names)
	}
	h.reply(context.Background(), "/review main.go", nil)
	conv := h.store.conversationOf(h.id)
	if conv[0].AsText() != "Please review main.go" || conv[1].AsText() != "reviewed" {
		t.Fatalf("stored = %s", toJSON(t, conv))
	}
}

func TestRecipeSlashCommand(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "greet.yaml")
	recipeYAML := "version: 1.0.0\ntitle: Greet\ndescription: Greets\ninstructions: Be kind.\nprompt: Say hi to {{ who }}\nparameters:\n  - key: who\n    input_type: string\n    requirement: required\n    description: who\n"
	if err := os.WriteFile(path, []byte(recipeYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := mapConfig{SlashCommandsKey: []any{map[string]any{"command": "Greet", "recipe_path": path}}}
	h := newHarness(t, cfg, say("hi Bob"))
	h.start(StartOptions{})
	h.reply(context.Background(), "/greet who=Bob", nil)
	conv := h.store.conversationOf(h.id)
	if len(conv) != 2 || conv[0].AsText() != "Be kind.\n\nSay hi to Bob" {
		t.Fatalf("stored = %s", toJSON(t, conv))
	}
	// A missing parameter is an error, and nothing runs.
	if _, err := h.a.Reply(context.Background(), h.id, conversationUser("/greet"), nil); err == nil {
		t.Fatal("missing parameter accepted")
	}
}

func conversationUser(text string) conversation.Message { return conversation.UserText(1, text) }
