package agent

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension/platform"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func TestSkillSlashCommandLoadsTheSkillIntoTheTurn(t *testing.T) {
	home, wd := t.TempDir(), t.TempDir()
	writeTestFile(t, filepath.Join(home, ".agents/skills/migrate/SKILL.md"),
		"---\nname: migrate\ndescription: Migrate a component\nmetadata:\n  argument-hint: <component> <from> <to>\n  arguments: [component, from, to]\n---\nMigrate $component from $from to $to.\n")
	d := newDelegateEnv(t, nil, map[string]string{"HOME": home}, map[string][]providertest.Turn{"openai": {{Text: []string{"migrating"}}}})
	d.start(StartOptions{WorkingDir: wd, Extensions: []config.ExtensionConfig{{Type: config.ExtensionPlatform, Name: platform.Skills}}})
	cmds, err := d.a.SlashCommands(d.id)
	if err != nil {
		t.Fatal(err)
	}
	var found *Command
	for i := range cmds {
		if cmds[i].Name == "migrate" {
			found = &cmds[i]
		}
	}
	if found == nil || found.Description != "Migrate a component" || found.Hint != "<component> <from> <to>" {
		t.Fatalf("commands = %+v", cmds)
	}
	if out, _ := d.reply(context.Background(), `/migrate Button "old lib" new-lib`, nil); out.StopReason != EndTurn {
		t.Fatalf("stop = %v %v", out.StopReason, out.Err)
	}
	conv := d.store.conversationOf(d.id)
	want := "# Loaded Skill: migrate (skill)\n\nMigrate a component\n\n## Content\n\nMigrate Button from old lib to new-lib.\n"
	if len(conv) != 2 || conv[0].Role != conversation.RoleUser || conv[0].AsText() != want {
		t.Fatalf("stored turn = %+v", conv)
	}
	body := string(d.servers["openai"].Requests()[0].Body)
	if !strings.Contains(body, "Migrate Button from old lib to new-lib.") || !strings.Contains(body, "• migrate - Migrate a component") {
		t.Fatalf("request lacks the loaded skill or the listing: %.600s", body)
	}
	_, err = d.a.Reply(context.Background(), d.id, conversation.UserText(1, `/migrate "unclosed`), nil)
	var se *SkillArgumentsError
	if !errors.As(err, &se) || err.Error() != `Failed to parse skill arguments: unclosed quote in arguments: "unclosed` {
		t.Fatalf("bad arguments: %v", err)
	}
}
