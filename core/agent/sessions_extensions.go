package agent

import (
	"context"

	"github.com/goose-acp/goose-acp/core/config"
)

// SavedExtensions are the extensions stored with a session (its
// enabled_extensions.v0 state, as goose saves it); saved is false when the
// session has none stored (a session never loaded), or none that parse.
func (svc Sessions) SavedExtensions(ctx context.Context, id string) (exts []config.ExtensionConfig, saved bool, err error) {
	sess, err := svc.Get(ctx, id, false)
	if err != nil {
		return nil, false, err
	}
	exts, saved = savedExtensions(sess.ExtensionData)
	return exts, saved, nil
}
