package agent

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// Rewind commands: /rewind lists the user messages, /rewind N undoes the
// turn of message N and everything after it, /undo undoes the last turn.
const (
	CommandRewind = "rewind"
	CommandUndo   = "undo"

	RewindDescription = "Undo the conversation and file changes back to a message (/rewind lists them)"
	UndoDescription   = "Undo the last turn: its messages and the files it changed"
)

// Texts the rewind commands answer with.
const (
	RewindListHeader = "Send /rewind N to undo message N, everything after it, and the file changes they made:"
	RewindNothing    = "There is no message to rewind to."
	RewindNoFiles    = "No files were changed since that message."
	rewindLineRunes  = 60
)

// beginCheckpoints makes the file changes from now on belong to the user
// message id; a file too large to checkpoint is reported to the user as
// soon as it is written.
//
// The book keeps warn until the next turn begins, so warn holds only the
// turn's event queue, not the turn: the turn's conversation (all of an
// 8,000-message session) must not stay reachable from the session after
// the turn, nor after a close until the book goes.
func (t *turn) beginCheckpoints(id string) {
	a, q := t.a, t.q
	t.s.checkpoints.Begin(id, func(text string) {
		q.push(MessageEvent{Message: conversation.AssistantText(a.now().Unix(), text).WithID(a.msgID())})
	})
}

// rewindable are the indexes of the messages /rewind offers: the user's own
// visible messages (not tool results).
func rewindable(conv []conversation.Message) []int {
	var out []int
	for i, m := range conv {
		if m.Role != conversation.RoleUser || !m.Metadata.UserVisible || m.HasToolResponses() || m.AsText() == "" {
			continue
		}
		out = append(out, i)
	}
	return out
}

// rewindLine is a message as one line of the /rewind list.
func rewindLine(m conversation.Message) string {
	line, _, _ := strings.Cut(strings.TrimSpace(m.AsText()), "\n")
	if r := []rune(line); len(r) > rewindLineRunes {
		line = string(r[:rewindLineRunes]) + "…"
	}
	return line
}

// rewind runs /rewind [N] and /undo. Nothing here is stored in the
// conversation: the answers are shown to the user only.
func (t *turn) rewind(name, arg string) (Outcome, error) {
	sess, err := t.a.opts.Store.Get(t.ctx, t.s.id, true)
	if err != nil {
		return Outcome{}, fmt.Errorf("loading session: %w", err)
	}
	conv := sess.Conversation
	picks := rewindable(conv)
	if len(picks) == 0 {
		return t.say(RewindNothing), nil
	}
	n := len(picks)
	if name == CommandRewind {
		if arg == "" {
			return t.say(rewindList(conv, picks)), nil
		}
		n, err = strconv.Atoi(arg)
		if err != nil || n < 1 || n > len(picks) {
			return t.say(fmt.Sprintf("/rewind needs a message number from 1 to %d, not %q; send /rewind to see them.", len(picks), arg)), nil
		}
	}
	cut := picks[n-1]
	markers := map[string]bool{}
	for _, m := range conv[cut:] {
		markers[m.IDOrEmpty()] = true
	}
	report, ferr := t.s.checkpoints.Rewind(t.ctx, markers)
	kept := append([]conversation.Message{}, conv[:cut]...)
	// By position, not by goose's timestamp Truncate: timestamps have
	// second precision, so a fast earlier turn would go too.
	if err := t.a.opts.Store.ReplaceConversation(t.ctx, t.s.id, kept); err != nil {
		return Outcome{}, fmt.Errorf("rewinding conversation: %w", err)
	}
	t.conv, t.tail.partial = kept, false
	t.emit(HistoryReplacedEvent{Conversation: kept})
	text := rewoundText(n, rewindLine(conv[cut]), report.Restored, report.Removed, report.NotRestored)
	if ferr != nil {
		text += fmt.Sprintf("\nThe checkpoints could not be updated: %v", ferr)
	}
	return t.say(text), nil
}

func (t *turn) say(text string) Outcome {
	t.emit(MessageEvent{Message: t.assistantText(text)})
	return Outcome{StopReason: EndTurn}
}

func rewindList(conv []conversation.Message, picks []int) string {
	var b strings.Builder
	b.WriteString(RewindListHeader)
	for i, at := range picks {
		fmt.Fprintf(&b, "\n%d. %s", i+1, rewindLine(conv[at]))
	}
	return b.String()
}

// rewoundText says what a rewind did, one file a line.
func rewoundText(n int, line string, restored, removed, failed []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Rewound to before message %d (%s).", n, line)
	if len(restored)+len(removed)+len(failed) == 0 {
		b.WriteString("\n" + RewindNoFiles)
	}
	for _, p := range restored {
		b.WriteString("\nRestored " + p)
	}
	for _, p := range removed {
		b.WriteString("\nRemoved " + p + " (it did not exist before)")
	}
	for _, p := range failed {
		b.WriteString("\nNot restored " + p)
	}
	return b.String()
}
