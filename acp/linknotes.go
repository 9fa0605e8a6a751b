package acp

import "context"

// LinkNoticeTitle is the title of the notice that carries a link note.
const LinkNoticeTitle = "An attachment did not reach the model"

// appendNote keeps non-empty notes.
func appendNote(notes []string, note string) []string {
	if note == "" {
		return notes
	}
	return append(notes, note)
}

// tellNotes tells the user which attachments of their prompt the model
// did not get, and why (the model gets the same notes in the prompt): a
// warning notice for clients advertising session.notices, an
// agent_message_chunk before the reply otherwise.
func (p *promptAPI) tellNotes(ctx context.Context, as *acpSession, notes []string) {
	live := context.WithoutCancel(ctx)
	for _, n := range notes {
		if p.notes.wantsNotices() {
			p.notes.sendNotice(live, as.id, NoticeWarning, LinkNoticeTitle, n)
			continue
		}
		p.notify(live, as.id, SessionUpdate{SessionUpdate: UpdateAgentMessageChunk, Content: &ContentBlock{Type: "text", Text: n + "\n\n"}})
	}
}
