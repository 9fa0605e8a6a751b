package acp

import (
	"context"
	"sort"
	"strings"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/extension/platform"
	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

// Goose Desktop's "/" and "@" menus (_goose/unstable/slash-commands/list,
// agent-mentions/list) for a working dir or a session.

// menusAPI answers the menus from the agent's commands and sources; a
// session loaded on this connection gets the commands its editor sees.
type menusAPI struct {
	// agent has the loaded sessions' slash commands.
	agent   *agent.Agent
	sources agent.Sources
	store   agent.SessionReader
	loaded  *loadedSessions
}

func (a *menusAPI) methods() map[string]RequestHandler {
	const p = "_goose/unstable/"
	return map[string]RequestHandler{
		p + "slash-commands/list": typed(a.slashCommands),
		p + "agent-mentions/list": typed(a.agentMentions),
	}
}

func pathWithin(path, dir string) bool { return pathpolicy.Within(path, dir) }

type cwdOrSessionRequest struct {
	CWD       *string `json:"cwd"`
	SessionID *string `json:"sessionId"`
}

// resolve returns the trimmed session id (if any) and the working dir:
// cwd when given, else the session's stored working dir.
func (a *menusAPI) resolveCWD(ctx context.Context, req cwdOrSessionRequest) (string, string, error) {
	id, cwd := "", ""
	if req.SessionID != nil {
		id = strings.TrimSpace(*req.SessionID)
	}
	if req.CWD != nil {
		cwd = strings.TrimSpace(*req.CWD)
	}
	if id != "" {
		ss, err := a.store.Get(ctx, id, false)
		if err != nil {
			return "", "", storeErr(err, id)
		}
		if cwd == "" {
			cwd = ss.WorkingDir
		}
	}
	return id, cwd, nil
}

// commandMeta is goose's slash command _meta: commandType (Builtin,
// Recipe, Skill) and a recipe's sourcePath; Desktop's "/" menu shows only
// commands that have a type. An extension prompt has none, as in goose.
func commandMeta(c agent.Command) map[string]string {
	if c.Kind == "" {
		return nil
	}
	m := map[string]string{"commandType": c.Kind}
	if c.SourcePath != "" {
		m["sourcePath"] = c.SourcePath
	}
	return m
}

type slashCommandsResponse struct {
	AvailableCommands []AvailableCommand `json:"availableCommands"`
}

func (a *menusAPI) slashCommands(ctx context.Context, req cwdOrSessionRequest) (slashCommandsResponse, error) {
	id, cwd, err := a.resolveCWD(ctx, req)
	if err != nil {
		return slashCommandsResponse{}, err
	}
	if _, err := a.loaded.lookup(id); id != "" && err == nil {
		cmds, _ := a.agent.SlashCommands(id)
		kinds := map[string]agent.Command{}
		for _, c := range cmds {
			kinds[c.Name] = c
		}
		out := availableCommands(a.agent, id)
		for i := range out {
			out[i].Meta = commandMeta(kinds[out[i].Name])
		}
		return slashCommandsResponse{AvailableCommands: out}, nil
	}
	out := slashCommandsResponse{AvailableCommands: []AvailableCommand{}}
	for _, c := range a.sources.CommandsFor(id, cwd) {
		ac := AvailableCommand{Name: c.Name, Description: c.Description, Meta: commandMeta(c)}
		if c.Hint != "" {
			ac.Input = &CommandInput{Hint: c.Hint}
		}
		out.AvailableCommands = append(out.AvailableCommands, ac)
	}
	return out, nil
}

type agentMention struct {
	Name        string  `json:"name"`
	Description string  `json:"description"`
	SourceType  string  `json:"sourceType"`
	SourcePath  *string `json:"sourcePath"`
	Mention     string  `json:"mention"`
}

// agentMentions lists the "@" targets: the session recipe's
// sub-recipes, recipe files, and agents that have a body.
func (a *menusAPI) agentMentions(ctx context.Context, req cwdOrSessionRequest) (map[string][]agentMention, error) {
	id, cwd, err := a.resolveCWD(ctx, req)
	if err != nil {
		return nil, err
	}
	if cwd == "" {
		return nil, invalidParams("Either cwd or sessionId is required")
	}
	out := []agentMention{}
	for _, src := range a.sources.SourcesFor(id, cwd) {
		if src.Kind == platform.KindAgent && src.Content == "" {
			continue
		}
		m := agentMention{Name: src.Name, Description: src.Description, SourceType: src.Kind, Mention: "@" + src.Name}
		if src.Path != "" {
			p := src.Path
			m.SourcePath = &p
		}
		out = append(out, m)
	}
	return map[string][]agentMention{"agents": out}, nil
}

// availableCommands are the slash commands the editor can offer.
func availableCommands(ag *agent.Agent, sessionID string) []AvailableCommand {
	out := []AvailableCommand{
		{Name: "compact", Description: "Compact the conversation to free context"},
		{Name: "clear", Description: "Clear the conversation history"},
	}
	// A session the agent does not know has only the built-in commands.
	cmds, _ := ag.SlashCommands(sessionID)
	for _, c := range cmds {
		if c.Name == "compact" || c.Name == "clear" {
			continue
		}
		ac := AvailableCommand{Name: c.Name, Description: oneLine(c.Description)}
		if c.Hint != "" {
			ac.Input = &CommandInput{Hint: c.Hint}
		}
		out = append(out, ac)
	}
	sort.SliceStable(out[2:], func(i, j int) bool { return out[2+i].Name < out[2+j].Name })
	return out
}

// commandDescriptionLen bounds a slash command's description in the menu.
const commandDescriptionLen = 100

// oneLine is a command description for a menu row: the first non-blank
// line, cut to commandDescriptionLen characters. An MCP prompt's
// description is often its whole multi-line template (goose's developer
// prompts are), which editors would print in full.
func oneLine(desc string) string {
	for _, line := range strings.Split(desc, "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		if r := []rune(line); len(r) > commandDescriptionLen {
			line = string(r[:commandDescriptionLen-1]) + "…"
		}
		return line
	}
	return ""
}
