package acp

import (
	"context"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
	"github.com/goose-acp/goose-acp/core/toolinfo"
	"github.com/goose-acp/goose-acp/developer"
)

// sessionFiles is the session's FileIO as its tools use it: the editor's
// fs/* when offered (so unsaved buffer text counts), local disk otherwise,
// under the session's path policy.
func (p *promptAPI) sessionFiles(as *acpSession) *fileIO {
	return &fileIO{
		peer: p.peer, sessionID: as.id, local: p.local,
		canRead: p.caps().FS.ReadTextFile, canWrite: p.caps().FS.WriteTextFile,
		policy: func() *pathpolicy.Policy { return p.pathPolicy(as) },
	}
}

// proposedDiff previews the change a write or edit call proposes as the
// whole file before and after, read through the session's FileIO: a
// write over an existing file shows what it replaces; an edit shows the
// whole file with the replacement applied, as the tool will make it.
// What it replaces is what the write itself will see
// (developer.PriorText): a file missing on disk is new without a read,
// one on disk the editor cannot read is read from the disk. A file
// refused by the path policy is not read: a write shows a new file (no
// oldText), an edit the fragments it was asked to replace. When an edit
// would not apply (no or several matches) the fragments are shown too,
// which is what the tool was asked to do.
func (p *promptAPI) proposedDiff(ctx context.Context, as *acpSession, info toolinfo.Info, args map[string]any, path string) *ToolCallContent {
	c, ok := info.ChangeOf(args)
	if !ok {
		return nil
	}
	files := p.sessionFiles(as)
	exists, current := false, ""
	if files.check(path) == nil {
		current, exists = developer.PriorText(ctx, files, path)
	}
	switch {
	case c.Before == nil && exists:
		return &ToolCallContent{Type: "diff", Path: path, OldText: &current, NewText: &c.After}
	case c.Before == nil:
		return &ToolCallContent{Type: "diff", Path: path, NewText: &c.After}
	case exists:
		if after, err := developer.ProposedEdit(current, *c.Before, c.After); err == nil {
			return &ToolCallContent{Type: "diff", Path: path, OldText: &current, NewText: &after}
		}
	}
	return &ToolCallContent{Type: "diff", Path: path, OldText: c.Before, NewText: &c.After}
}
