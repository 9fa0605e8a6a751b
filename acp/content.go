package acp

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// maxLinkedFileBytes bounds a file attached by resource_link.
const maxLinkedFileBytes = 1 << 20

// promptMessage converts prompt blocks to a user message: text and images
// as they are, embedded text resources wrapped as goose does, file links
// read (through the editor when it offers fs, so unsaved buffers count).
func (s *Server) promptMessage(ctx context.Context, as *acpSession, blocks []ContentBlock) (conversation.Message, error) {
	if len(blocks) == 0 {
		return conversation.Message{}, invalidParams("prompt is empty")
	}
	msg := conversation.NewMessage(conversation.RoleUser, timeNow().Unix())
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
			msg = embedResource(msg, b.Resource)
		case "resource_link":
			msg = msg.WithText(s.linkedFile(ctx, as, b))
		default:
			return conversation.Message{}, invalidParams("unsupported content block type %q", b.Type)
		}
	}
	return msg, nil
}

func embedResource(msg conversation.Message, r *EmbeddedResource) conversation.Message {
	if r == nil {
		return msg
	}
	switch {
	case r.Text != nil:
		return msg.WithText(fmt.Sprintf("--- Resource: %s ---\n%s\n---\n", r.URI, *r.Text))
	case r.Blob != nil && strings.HasPrefix(r.MimeType, "image/"):
		return msg.With(conversation.Image(*r.Blob, r.MimeType))
	}
	return msg.WithText(fmt.Sprintf("[binary resource %s (%s) attached]", r.URI, r.MimeType))
}

// linkedFile returns the text goose appends for a file:// link, or a short
// reference for other links and unreadable files.
func (s *Server) linkedFile(ctx context.Context, as *acpSession, b ContentBlock) string {
	u, err := url.Parse(b.URI)
	if err != nil || u.Scheme != "file" {
		return fmt.Sprintf("[%s](%s)", b.Name, b.URI)
	}
	path := filepath.FromSlash(u.Path)
	fio := &fileIO{peer: s.peer, sessionID: as.id, canRead: s.caps.FS.ReadTextFile, local: s.opts.LocalFiles}
	text, err := fio.ReadTextFile(ctx, path, 0, 0)
	if err != nil {
		return fmt.Sprintf("[%s](%s) (could not be read: %v)", b.Name, b.URI, err)
	}
	if len(text) > maxLinkedFileBytes {
		text = text[:maxLinkedFileBytes] + "\n[truncated]"
	}
	return fmt.Sprintf("\n\n# %s\n```\n%s\n```", path, text)
}
