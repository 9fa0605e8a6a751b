package agent

import "github.com/goose-acp/goose-acp/core/attach"

// FetchLinks reports whether a prompt's http(s) links may be fetched and
// attached (attach.FetchLinksKey: environment variable or config.yaml;
// off unless set to true).
func (a *Agent) FetchLinks() bool { return a.cfg.bool(attach.FetchLinksKey) }
