package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func writeSkill(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSkillSlashCommandRoundTrip: skills on disk reach an ACP client as
// slash commands in available_commands_update (with the argument hint),
// and "/<skill> args" loads the skill, arguments applied, into the turn
// the model answers; the system prompt lists the skills as goose does and
// load_skill, load and delegate are offered by default.
func TestSkillSlashCommandRoundTrip(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t, textTurn("Hello, Ada!"))
	writeSkill(t, filepath.Join(env.Root, ".agents/skills/greet/SKILL.md"),
		"---\nname: greet\ndescription: Greet someone warmly\nmetadata:\n  argument-hint: <name>\n  arguments: [who]\n---\nSay hello to $who by name.\n")
	writeSkill(t, filepath.Join(work, ".claude/skills/review/SKILL.md"), "---\nname: review\ndescription: Review the diff\n---\nReview carefully.\n")
	writeSkill(t, filepath.Join(work, ".goose/skills/private/SKILL.md"), "---\nname: private\ndescription: ignored\n---\nsecret\n")
	writeSkill(t, filepath.Join(work, ".gooseignore"), ".goose/skills/private/\n")
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)

	var cmds []acp.AvailableCommand
	c.waitFor("available_commands_update", func() bool {
		for _, u := range c.updatesOf(sess.SessionID) {
			if u.SessionUpdate == acp.UpdateAvailableCommands {
				cmds = u.AvailableCommands
				return true
			}
		}
		return false
	})
	byName := map[string]acp.AvailableCommand{}
	for _, cmd := range cmds {
		byName[cmd.Name] = cmd
	}
	if g := byName["greet"]; g.Description != "Greet someone warmly" || g.Input == nil || g.Input.Hint != "<name>" {
		t.Fatalf("greet command = %+v (all: %+v)", g, cmds)
	}
	if r := byName["review"]; r.Description != "Review the diff" || r.Input != nil {
		t.Fatalf("review command = %+v", r)
	}
	if _, ok := byName["private"]; ok {
		t.Fatal("a skill under a .gooseignore'd directory was offered")
	}

	resp := c.prompt(sess.SessionID, "/greet Ada")
	if resp.StopReason != "end_turn" || c.agentText(sess.SessionID) != "Hello, Ada!" {
		t.Fatalf("turn: %+v %q\n%s", resp, c.agentText(sess.SessionID), c.stderr.String())
	}
	reqs := env.LLM.Requests()
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(reqs[len(reqs)-1].Body, &body); err != nil {
		t.Fatal(err)
	}
	system, _ := json.Marshal(body.Messages[0].Content)
	user, _ := json.Marshal(body.Messages[len(body.Messages)-1].Content)
	if !strings.Contains(string(system), `You have these skills at your disposal, when it is clear they can help you solve a problem or you are asked to use them:\n• greet - Greet someone warmly\n• review - Review the diff`) {
		t.Fatalf("system prompt lacks the skills listing: %.2000s", system)
	}
	if !strings.Contains(string(user), `# Loaded Skill: greet (skill)\n\nGreet someone warmly\n\n## Content\n\nSay hello to Ada by name.`) {
		t.Fatalf("user message is not the loaded skill: %s", user)
	}
	var tools []string
	for _, tool := range body.Tools {
		tools = append(tools, tool.Function.Name)
	}
	for _, want := range []string{"load_skill", "load", "delegate"} {
		if !slices.Contains(tools, want) {
			t.Errorf("default tools lack %s: %v", want, tools)
		}
	}
	t.Logf("default tools: %s", strings.Join(tools, " "))
}

// TestDelegateOverACP: a delegate call is one tool call whose updates
// stream the subagent's progress, and the subagent's summary reaches the
// parent's next request.
func TestDelegateOverACP(t *testing.T) {
	work := t.TempDir()
	summary, _ := json.Marshal(map[string]string{"final_output": `{"summary":"two files"}`})
	env := newAgentEnv(t,
		providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "call_del", Name: "delegate", Arguments: `{"instructions":"List the files"}`}}},
		providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "call_ls", Name: "shell", Arguments: `{"command":"ls"}`}}},
		providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "call_fin", Name: "final_output", Arguments: string(summary)}}},
		textTurn("The subagent found two files."),
	)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	if resp := c.prompt(sess.SessionID, "delegate it"); resp.StopReason != "end_turn" {
		t.Fatalf("stop %q\n%s", resp.StopReason, c.stderr.String())
	}
	var progress []string
	var final acp.SessionUpdate
	for _, u := range c.toolUpdates(sess.SessionID, "call_del") {
		if u.SessionUpdate == acp.UpdateToolCallUpdate && u.Status == "in_progress" && len(u.ToolContent) == 1 && u.ToolContent[0].Content != nil {
			progress = append(progress, u.ToolContent[0].Content.Text)
		}
		if u.Status == "completed" || u.Status == "failed" {
			final = u
		}
	}
	if len(progress) < 2 || !strings.HasPrefix(progress[0], "Running subagent ") || !strings.Contains(progress[len(progress)-1], "\n• Run ls\n") {
		t.Fatalf("progress = %q\n%s", progress, c.dump(sess.SessionID))
	}
	for _, u := range c.updatesOf(sess.SessionID) {
		if u.SessionUpdate == acp.UpdateToolCall && u.ToolCallID != "call_del" {
			t.Fatalf("the subagent's tool call %s leaked into the parent session as its own tool call", u.ToolCallID)
		}
	}
	if final.Status != "completed" || len(final.ToolContent) == 0 || !strings.Contains(final.ToolContent[0].Content.Text, `completed: {"summary":"two files"}`) {
		t.Fatalf("final update = %+v", final)
	}
	if !llmSaw(env, `completed: {"summary":"two files"}`) {
		t.Fatal("the parent's next request lacks the summary")
	}
	// The child session is listed with its parent.
	var list acp.ListSessionsResponse
	c.call("session/list", acp.ListSessionsRequest{}, &list)
	children := 0
	for _, s := range list.Sessions {
		if s.Meta["sessionType"] == "sub_agent" {
			children++
			if s.Meta["parentSessionId"] != sess.SessionID || s.Title != "Delegated task" {
				t.Fatalf("child session listed as %+v", s)
			}
		}
	}
	if children != 1 {
		t.Fatalf("%d subagent sessions listed: %+v", children, list.Sessions)
	}
}
