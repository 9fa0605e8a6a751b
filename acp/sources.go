package acp

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/sources"
)

// Goose Desktop's sources methods (_goose/unstable/sources/*): skills and
// projects through core/sources, discovery through core/agent.

// sourcesAPI answers the sources methods: the agent's source store and
// its discovery of skills, recipes and agents.
type sourcesAPI struct {
	sources agent.Sources
}

func (a *sourcesAPI) methods() map[string]RequestHandler {
	const p = "_goose/unstable/sources/"
	return map[string]RequestHandler{
		p + "list":   typed(a.list),
		p + "create": typed(a.create),
		p + "update": typed(a.update),
		p + "delete": typed(a.delete),
		p + "export": typed(a.export),
		p + "import": typed(a.importSource),
	}
}

type sourcesListRequest struct {
	Type                  *string `json:"type"`
	ProjectDir            *string `json:"projectDir"`
	IncludeProjectSources bool    `json:"includeProjectSources"`
}

type sourcesResponse struct {
	Sources []sources.Entry `json:"sources"`
}

// list: no type lists skills and projects; skill lists the
// skills of projectDir (global ones too) and, with includeProjectSources,
// of every project's working dirs; builtinSkill lists none (goose-acp
// ships no built-in skills); recipe, subrecipe and agent list summon's.
func (a *sourcesAPI) list(_ context.Context, req sourcesListRequest) (sourcesResponse, error) {
	dir := ""
	if req.ProjectDir != nil {
		dir = strings.TrimSpace(*req.ProjectDir)
	}
	kinds := []string{sources.TypeSkill, sources.TypeProject}
	if req.Type != nil {
		kinds = []string{*req.Type}
	}
	store := a.sources.Store()
	out := sourcesResponse{Sources: []sources.Entry{}}
	for _, kind := range kinds {
		switch kind {
		case sources.TypeSkill:
			out.Sources = append(out.Sources, a.skillEntries(store, dir, req.IncludeProjectSources)...)
		case sources.TypeProject:
			out.Sources = append(out.Sources, store.ListProjects()...)
		case sources.TypeBuiltinSkill:
		case sources.TypeRecipe, sources.TypeSubrecipe, sources.TypeAgent:
			for _, src := range a.sources.SourcesFor("", dir) {
				if src.Kind == kind {
					out.Sources = append(out.Sources, sources.Entry{Type: kind, Name: src.Name, Description: src.Description,
						Content: src.Content, Path: src.Path, Global: dir == "" || !pathWithin(src.Path, dir),
						SupportingFiles: []string{}, Properties: map[string]any{}})
				}
			}
		default:
			return sourcesResponse{}, invalidParams("unknown source type %q", kind)
		}
	}
	return out, nil
}

func (a *sourcesAPI) skillEntries(store sources.Store, dir string, withProjects bool) []sources.Entry {
	seen := map[string]bool{}
	var out []sources.Entry
	add := func(wd string) {
		for _, sk := range a.sources.SkillsFor(wd) {
			if !seen[sk.Dir] {
				seen[sk.Dir] = true
				out = append(out, sources.SkillEntry(sk))
			}
		}
	}
	add(dir)
	if withProjects {
		for _, p := range store.ListProjects() {
			for _, wd := range store.ProjectWorkingDirs(p.Name) {
				add(wd)
			}
		}
	}
	return out
}

// sourceScope is goose's SourceScope: global, a project dir, or a project
// (its first working dir).
type sourceScope struct {
	Scope      string `json:"scope"`
	ProjectDir string `json:"projectDir"`
	ProjectID  string `json:"projectId"`
}

// skillsBase is where a skill of this scope lives.
func (sc sourceScope) skillsBase(store sources.Store) (string, error) {
	switch sc.Scope {
	case "global":
		if store.Home == "" {
			return "", errors.New("global skills are not available: no home directory")
		}
		return store.GlobalSkillsDir(), nil
	case "projectDir":
		if !filepath.IsAbs(sc.ProjectDir) {
			return "", invalidParams("projectDir must be an absolute path: %q", sc.ProjectDir)
		}
		return sources.ProjectSkillsDir(sc.ProjectDir), nil
	case "projectId":
		dirs := store.ProjectWorkingDirs(sc.ProjectID)
		if len(dirs) == 0 {
			return "", invalidParams("Project %q has no working directories configured", sc.ProjectID)
		}
		return sources.ProjectSkillsDir(dirs[0]), nil
	}
	return "", invalidParams("unknown scope %q (global, projectDir or projectId)", sc.Scope)
}

type sourceWriteRequest struct {
	Type        string          `json:"type"`
	Path        string          `json:"path"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Content     string          `json:"content"`
	Target      sourceScope     `json:"target"`
	Properties  json.RawMessage `json:"properties"`
}

func (r sourceWriteRequest) props() (map[string]any, error) {
	if len(r.Properties) == 0 || string(r.Properties) == "null" {
		return nil, nil
	}
	var m map[string]any
	if err := json.Unmarshal(r.Properties, &m); err != nil {
		return nil, invalidParams("properties must be an object")
	}
	return m, nil
}

type sourceResponse struct {
	Source sources.Entry `json:"source"`
}

func (a *sourcesAPI) create(_ context.Context, req sourceWriteRequest) (sourceResponse, error) {
	store := a.sources.Store()
	props, err := req.props()
	if err != nil {
		return sourceResponse{}, err
	}
	var e sources.Entry
	switch req.Type {
	case sources.TypeSkill:
		base, berr := req.Target.skillsBase(store)
		if berr != nil {
			return sourceResponse{}, berr
		}
		e, err = store.CreateSkill(base, req.Name, req.Description, req.Content)
	case sources.TypeProject:
		e, err = store.CreateProject(req.Name, req.Description, req.Content, props)
	default:
		return sourceResponse{}, invalidParams("Source type '%s' is not supported for mutation.", req.Type)
	}
	return sourceResponse{Source: e}, err
}

func (a *sourcesAPI) update(_ context.Context, req sourceWriteRequest) (sourceResponse, error) {
	store := a.sources.Store()
	props, err := req.props()
	if err != nil {
		return sourceResponse{}, err
	}
	var e sources.Entry
	switch req.Type {
	case sources.TypeSkill:
		e, err = store.UpdateSkill(req.Path, req.Name, req.Description, req.Content)
	case sources.TypeProject:
		e, err = store.UpdateProject(req.Path, req.Name, req.Description, req.Content, props)
	default:
		return sourceResponse{}, invalidParams("Source type '%s' is not supported for mutation.", req.Type)
	}
	return sourceResponse{Source: e}, err
}

func (a *sourcesAPI) delete(_ context.Context, req sourceWriteRequest) (struct{}, error) {
	store := a.sources.Store()
	switch req.Type {
	case sources.TypeSkill:
		return struct{}{}, store.DeleteSkill(req.Path)
	case sources.TypeProject:
		return struct{}{}, store.DeleteProject(req.Path)
	}
	return struct{}{}, invalidParams("Source type '%s' is not supported for mutation.", req.Type)
}

func (a *sourcesAPI) export(_ context.Context, req sourceWriteRequest) (map[string]string, error) {
	data, name, err := a.sources.Store().Export(req.Type, req.Path)
	if err != nil {
		return nil, err
	}
	return map[string]string{"json": data, "filename": name}, nil
}

type sourceImportRequest struct {
	Data   string      `json:"data"`
	Target sourceScope `json:"target"`
}

func (a *sourcesAPI) importSource(_ context.Context, req sourceImportRequest) (sourcesResponse, error) {
	store := a.sources.Store()
	base, err := req.Target.skillsBase(store)
	if err != nil {
		return sourcesResponse{}, err
	}
	out, err := store.ImportSource(req.Data, base)
	if err != nil {
		return sourcesResponse{}, err
	}
	return sourcesResponse{Sources: out}, nil
}
