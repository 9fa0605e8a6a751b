package acp

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/goose-acp/goose-acp/core/attach"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

// promptMessage converts prompt blocks to a user message: text and images
// as they are, embedded text resources wrapped as goose does, file links
// attached by core/attach under the session's path policy (read through
// the editor when it offers fs, so unsaved buffers count).
func (p *promptAPI) promptMessage(ctx context.Context, as *acpSession, blocks []ContentBlock) (conversation.Message, error) {
	if len(blocks) == 0 {
		return conversation.Message{}, invalidParams("prompt is empty")
	}
	msg := conversation.NewMessage(conversation.RoleUser, timeNow().Unix())
	pol := p.pathPolicy(as)
	var notes []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			msg = msg.WithText(b.Text)
		case "image":
			if b.Data == "" || b.MimeType == "" {
				return conversation.Message{}, invalidParams("image block needs data and mimeType")
			}
			msg = msg.With(conversation.Image(b.Data, b.MimeType))
		case "audio":
			msg = msg.WithText(fmt.Sprintf("[audio attachment (%s) omitted: this agent does not accept audio]", b.MimeType))
		case "resource":
			var note string
			msg, note = embedResource(msg, pol, b.Resource)
			notes = appendNote(notes, note)
		case "resource_link":
			res := attach.Attach(ctx, pol, b.Name, b.URI, p.linkOptions(as))
			msg = msg.With(linkText(res.Text, b))
			notes = appendNote(notes, res.Note)
		default:
			return conversation.Message{}, invalidParams("unsupported content block type %q", b.Type)
		}
	}
	p.tellNotes(ctx, as, notes)
	return msg, nil
}

// embedResource adds an embedded resource; note is set when the policy
// refused it (the user is told).
func embedResource(msg conversation.Message, pol *pathpolicy.Policy, r *EmbeddedResource) (conversation.Message, string) {
	if r == nil {
		return msg, ""
	}
	if note, ok := attach.Embedded(pol, "", r.URI); !ok {
		return msg.WithText(note), note
	}
	switch {
	case r.Text != nil:
		return msg.WithText(fmt.Sprintf("--- Resource: %s ---\n%s\n---\n", r.URI, *r.Text)), ""
	case r.Blob != nil && strings.HasPrefix(r.MimeType, "image/"):
		return msg.With(conversation.Image(*r.Blob, r.MimeType)), ""
	}
	return msg.WithText(fmt.Sprintf("[binary resource %s (%s) attached]", r.URI, r.MimeType)), ""
}

// pathPolicy is the session's path policy: its cwd, its
// additionalDirectories and goose's global .gooseignore — the same one the
// developer tools of the session apply.
func (p *promptAPI) pathPolicy(as *acpSession) *pathpolicy.Policy {
	as.mu.Lock()
	roots := as.roots
	as.mu.Unlock()
	cwd := as.translator.workingDir()
	return pathpolicy.New(pathpolicy.Options{WorkingDir: cwd, Roots: roots, ConfigDir: pathpolicy.DefaultConfigDir(os.Getenv)})
}

// sessionPolicy is the policy of a session's fs/* delegation: it follows
// the session's current cwd (_goose/working_dir/update moves it), and
// until the session is tracked, the cwd and roots it is created with.
func (p *promptAPI) sessionPolicy(id, cwd string, roots []string) func() *pathpolicy.Policy {
	return func() *pathpolicy.Policy {
		if as, err := p.loaded.lookup(id); err == nil {
			return p.pathPolicy(as)
		}
		return pathpolicy.New(pathpolicy.Options{WorkingDir: cwd, Roots: roots, ConfigDir: pathpolicy.DefaultConfigDir(os.Getenv)})
	}
}

// linkOptions are how a session's links are attached: through the
// editor's fs/read_text_file when it offers one (a file it does not
// manage, -32002 from Zed, is read from disk), fetching http(s) links
// only when the user allowed it (attach.FetchLinksKey).
func (p *promptAPI) linkOptions(as *acpSession) attach.Options {
	var o attach.Options
	if p.caps().FS.ReadTextFile {
		o.Editor = &fileIO{peer: p.peer, sessionID: as.id, canRead: true, local: linkDisk{}}
	}
	if p.agent != nil {
		o.FetchHTTP = p.agent.FetchLinks()
	}
	return o
}

// setRoots records the session's additionalDirectories.
func (as *acpSession) setRoots(roots []string) {
	as.mu.Lock()
	defer as.mu.Unlock()
	as.roots = roots
}

// linkDisk reads a linked file from disk when the editor does not manage
// it, bounded as attach bounds its own reads (one byte over the limit, so
// attach sees that it was cut).
type linkDisk struct{}

func (linkDisk) ReadTextFile(ctx context.Context, path string, _, _ int) (string, error) {
	text, _, err := pathpolicy.ReadText(ctx, path, attach.MaxLinkedFileBytes+1)
	return text, err
}

func (linkDisk) WriteTextFile(context.Context, string, string) error {
	return fmt.Errorf("links are only read")
}
