package agent

import (
	"context"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/session"
)

// SessionNamePrompt asks for goose's short session description.
const SessionNamePrompt = "Based on the conversation so far, provide a concise description of this session in 4 words or less. This will be used for finding the session later in a UI with limited space - reply *ONLY* with the description"

// namingUserMessages is how many user messages goose keeps renaming for.
const namingUserMessages = 3

const namingTimeout = 60 * time.Second

// maybeNameSession titles a session the user did not name: at its first
// user message the message itself becomes the title (cut to
// provisionalTitleLen characters), so sessions can be told apart at once
// and also when naming is disabled; then, unless
// GOOSE_DISABLE_SESSION_NAMING, background naming replaces it for the
// first user messages, as goose does.
func (t *turn) maybeNameSession() {
	if !t.title.read {
		sess, err := t.a.opts.Store.Get(t.ctx, t.s.id, false)
		if err != nil {
			return
		}
		t.title.name, t.title.userSet, t.title.read = sess.Name, sess.UserSetName, true
	}
	if t.title.userSet {
		return
	}
	var users []string
	for _, m := range t.conv {
		if m.Role == conversation.RoleUser && m.Metadata.UserVisible && !m.HasToolResponses() {
			if txt := strings.TrimSpace(m.AsText()); txt != "" {
				users = append(users, txt)
			}
		}
	}
	if len(users) == 0 {
		return
	}
	if t.title.name == DefaultSessionName || t.title.name == "" {
		t.provisionalTitle(users[0])
	}
	if len(users) > namingUserMessages || t.a.cfg.bool("GOOSE_DISABLE_SESSION_NAMING") {
		return
	}
	a, id, prov := t.a, t.s.id, t.prov
	a.bg.Go(func() { a.nameSession(id, prov, users) })
}

// provisionalTitleLen is how much of the first user message titles a
// session until a title is generated.
const provisionalTitleLen = 60

// provisionalTitle stores the first user message, on one line and cut to
// provisionalTitleLen characters, as the session's (not user-set) name and
// announces it with the turn's events.
func (t *turn) provisionalTitle(first string) {
	name := oneLinePrefix(first, provisionalTitleLen+1)
	if r := []rune(name); len(r) > provisionalTitleLen {
		name = strings.TrimSpace(string(r[:provisionalTitleLen]))
	}
	if err := t.a.opts.Store.Update(t.ctx, t.s.id, session.Update{Name: &name}); err != nil {
		t.a.log.Warn("saving session title failed", "session", t.s.id, "error", err)
		return
	}
	t.emit(TitleEvent{Title: name})
}

// namingText is strings.Join(users, "\n") + "\n\n" + prompt built as one
// copy of the user texts, not two.
func namingText(users []string, prompt string) string {
	n := len(users) + 1 + len(prompt)
	for _, u := range users {
		n += len(u)
	}
	var b strings.Builder
	b.Grow(n)
	for i, u := range users {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(u)
	}
	b.WriteString("\n\n")
	b.WriteString(prompt)
	return b.String()
}

// oneLinePrefix is strings.Join(strings.Fields(s), " ") cut after its
// first n runes, built without splitting or copying the rest of s (a
// 31 MB first message would otherwise cost a rune slice four times its
// size).
func oneLinePrefix(s string, n int) string {
	var b strings.Builder
	runes := 0
	for word := range strings.FieldsSeq(s) {
		if runes >= n {
			break
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
			runes++
		}
		for i := range word { // an invalid byte counts as one rune, as in []rune
			if runes >= n {
				b.WriteString(word[:i])
				return b.String()
			}
			runes++
		}
		b.WriteString(word)
	}
	return b.String()
}

func (a *Agent) nameSession(id string, prov provider.Provider, users []string) {
	ctx, cancel := context.WithTimeout(a.bgCtx, namingTimeout)
	defer cancel()
	prompt := a.plainPrompt(TemplateSessionName)
	if prompt == "" {
		prompt = SessionNamePrompt
	}
	text := namingText(users, prompt)
	msg, _, err := prov.Complete(ctx, provider.Request{
		System:   prompt,
		Messages: []conversation.Message{conversation.UserText(a.now().Unix(), text)},
	})
	if err != nil {
		a.log.Debug("session naming failed", "session", id, "error", err)
		return
	}
	name := cleanTitle(msg.AsText())
	if name == "" {
		return
	}
	// Re-check: the user may have named the session meanwhile.
	if sess, err := a.opts.Store.Get(ctx, id, false); err != nil || sess.UserSetName {
		return
	}
	if err := a.opts.Store.Update(ctx, id, session.Update{Name: &name}); err != nil {
		a.log.Warn("saving session name failed", "session", id, "error", err)
		return
	}
	// During a turn the title goes out with the turn's events; after it,
	// to the session's holders.
	if s, err := a.session(id); err == nil && !s.outOfBand(TitleEvent{Title: name}) {
		s.toHolders(TitleEvent{Title: name})
	}
}

func cleanTitle(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s = strings.Trim(s, "\"'` ")
	if r := []rune(s); len(r) > 100 {
		s = string(r[:100])
	}
	return s
}
