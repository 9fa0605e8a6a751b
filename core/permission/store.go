package permission

import "github.com/goose-acp/goose-acp/core/config"

// FromConfig adapts config.Permissions (permission.yaml) to Store.
func FromConfig(p *config.Permissions) Store { return configStore{p} }

type configStore struct{ p *config.Permissions }

func (s configStore) User(tool string) Level  { return level(s.p.User(tool)) }
func (s configStore) Smart(tool string) Level { return level(s.p.Smart(tool)) }

func (s configStore) SetUser(tool string, l Level) error {
	return s.p.SetUser(tool, config.PermissionLevel(l))
}

func (s configStore) SetSmart(tool string, l Level) error {
	return s.p.SetSmart(tool, config.PermissionLevel(l))
}

func level(l config.PermissionLevel, ok bool) Level {
	if !ok {
		return LevelNone
	}
	return Level(l)
}
