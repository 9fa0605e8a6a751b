package e2e

import (
	"slices"
	"strings"
	"testing"
)

// Boolean config options with the SDK client: a client that advertises
// session.configOptions.boolean gets, after the selects, one boolean per
// goose platform extension goose-acp runs (the enabled flag goose keeps
// for each), on for the session's; setting one ({type: boolean}) adds or
// removes the extension for the session — its tools come and go in the
// next model request. A client without the capability sees the options
// as before and cannot set a switch.
func TestBooleanConfigOptionsSwitchExtensions(t *testing.T) {
	t.Run("boolean client", func(t *testing.T) {
		env := newAgentEnv(t, textTurn("todo on"), textTurn("summon off"))
		r := runACP24(t, env, t.TempDir(), `{"session":{"configOptions":{"boolean":{}}}}`, "switches")
		var opened, todoOn, summonOff []string
		r.field(t, "switchesNew", &opened)
		r.field(t, "switchesTodoOn", &todoOn)
		r.field(t, "switchesSummonOff", &summonOff)
		want := []string{"provider:select", "mode:select", "model:select",
			"extension.todo:boolean=false", "extension.chatrecall:boolean=false", "extension.extensionmanager:boolean=true",
			"extension.tom:boolean=true", "extension.skills:boolean=true", "extension.summon:boolean=true", "extension.summarize:boolean=false"}
		if strings.Join(opened, " ") != strings.Join(want, " ") {
			t.Errorf("session/new configOptions\n got %q\nwant %q", opened, want)
		}
		if !slices.Contains(todoOn, "extension.todo:boolean=true") || !slices.Contains(summonOff, "extension.summon:boolean=false") {
			t.Errorf("after switching: %q / %q", todoOn, summonOff)
		}
		var updates [][]string
		r.field(t, "switchesUpdate", &updates)
		if len(updates) != 1 || !slices.Contains(updates[0], "extension.todo:boolean=true") {
			t.Errorf("config_option_update %q", updates)
		}
		var errs []int
		r.field(t, "switchesErrors", &errs)
		if !slices.Equal(errs, []int{-32602, -32602, -32602}) {
			t.Errorf("errors (string value, apps, unknown) %v", errs)
		}
		first, second := offeredTools(t, env, 0), offeredTools(t, env, 1)
		if !strings.Contains(first, "todo") || !strings.Contains(first, "delegate") {
			t.Errorf("tools with todo on: %s", first)
		}
		if strings.Contains(second, "delegate") || !strings.Contains(second, "todo") {
			t.Errorf("tools with summon off: %s", second)
		}
	})
	t.Run("client without booleans", func(t *testing.T) {
		r := runACP24(t, newAgentEnv(t), t.TempDir(), `{}`, "switchesplain")
		var opened []string
		var errs []int
		r.field(t, "switchesNew", &opened)
		r.field(t, "switchesErrors", &errs)
		if strings.Join(opened, " ") != "provider:select mode:select model:select" || !slices.Equal(errs, []int{-32602}) {
			t.Errorf("session/new configOptions %q, setting a switch %v", opened, errs)
		}
	})
}
