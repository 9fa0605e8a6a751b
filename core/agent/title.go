package agent

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/session"
)

// SessionNamePrompt is the title request's system prompt when the
// session_name.md template cannot be rendered.
const SessionNamePrompt = "Write a short title (four words or less) for this conversation. Reply with the title alone."

// The title request's user message frames the first user messages as
// goose 1.54 does (session/session_naming.rs, providers/cli_common.rs):
// CLI-backed providers find the messages between these markers.
const (
	namingBegin  = "---BEGIN USER MESSAGES---"
	namingEnd    = "---END USER MESSAGES---"
	namingSuffix = "Generate a short title for the above messages."
)

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
	if t.tail.partial {
		// The left-out messages hold more user messages than naming
		// looks at (a mark needs it): only the provisional title reads
		// them.
		if t.title.name != DefaultSessionName && t.title.name != "" {
			return
		}
		if err := t.tail.expand(t); err != nil {
			return
		}
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

// namingText is goose's title request text: the first user messages
// between its markers, then its request, built as one copy of the user
// texts, not two.
func namingText(users []string) string {
	n := len(namingBegin) + len(namingEnd) + len(namingSuffix) + len(users) + 4
	for _, u := range users {
		n += len(u)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(namingBegin)
	b.WriteByte('\n')
	for i, u := range users {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(u)
	}
	b.WriteByte('\n')
	b.WriteString(namingEnd)
	b.WriteString("\n\n")
	b.WriteString(namingSuffix)
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
	text := namingText(users)
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

// cleanTitle is goose 1.54's reading of the model's answer: tagged blocks
// (<think>…</think>) and stray tags dropped, whitespace collapsed, a long
// answer cut to the quoted title in it (else its last line), at most 100
// characters; surrounding quotes go.
func cleanTitle(s string) string {
	lastLine := ""
	for line := range strings.Lines(stripTags(s)) {
		if strings.TrimSpace(line) != "" {
			lastLine = strings.TrimSpace(line)
		}
	}
	s = strings.Join(strings.Fields(stripTags(s)), " ")
	if len(strings.Fields(s)) > 8 {
		if q := quotedTitle(s); q != "" {
			s = q
		} else {
			s = strings.Join(strings.Fields(lastLine), " ")
		}
	}
	s = strings.Trim(s, "\"'` ")
	if r := []rune(s); len(r) > 100 {
		s = string(r[:100])
	}
	return s
}

var (
	tagBlock = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?s)<([a-zA-Z][a-zA-Z0-9_]*)[^>]*>.*?</[a-zA-Z][a-zA-Z0-9_]*>`)
	})
	tag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`</?[a-zA-Z][a-zA-Z0-9_]*[^>]*>`) })
)

func stripTags(s string) string {
	return tag().ReplaceAllString(tagBlock().ReplaceAllString(s, ""), "")
}

// quotedTitle is the last 2-to-8-word phrase quoted in s (with ", ' or `,
// an opening quote not right after a letter or digit), "" if none.
func quotedTitle(s string) string {
	var found, cur string
	var quote rune
	var prev rune
	for _, r := range s {
		switch {
		case quote == 0:
			if (r == '"' || r == '\'' || r == '`') && !unicode.IsLetter(prev) && !unicode.IsDigit(prev) {
				quote, cur = r, ""
			}
		case r == quote:
			if n := len(strings.Fields(cur)); n >= 2 && n <= 8 {
				found = strings.TrimSpace(cur)
			}
			quote = 0
		default:
			cur += string(r)
		}
		prev = r
	}
	return found
}
