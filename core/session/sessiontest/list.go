package sessiontest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

func list(t *testing.T, st session.Store, opts session.ListOptions) session.Page {
	t.Helper()
	p, err := st.List(context.Background(), opts)
	if err != nil {
		t.Fatalf("List(%+v): %v", opts, err)
	}
	return p
}

func testListFilters(t *testing.T, st session.Store, clock *Clock) {
	mk := func(typ session.Type, dir string) string {
		clock.Advance(time.Second)
		return create(t, st, session.NewSession{WorkingDir: dir, SessionType: typ}).ID
	}
	user := mk(session.TypeUser, "/a")
	sched := mk(session.TypeScheduled, "/b")
	sub := mk(session.TypeSubAgent, "/a")
	acp := mk(session.TypeACP, "/a")
	mk(session.TypeHidden, "/a")
	appendMsg(t, st, user, conversation.UserText(1, "x"))
	appendMsg(t, st, user, conversation.UserText(2, "y"))

	got := list(t, st, session.ListOptions{})
	// user was touched last by its appends.
	if g := ids(got.Sessions); !slices.Equal(g, []string{user, sched}) || got.NextCursor != "" {
		t.Errorf("default List: %v cursor %q, want [%s %s] and no cursor", g, got.NextCursor, user, sched)
	}
	if got.Sessions[0].MessageCount != 2 || got.Sessions[1].MessageCount != 0 {
		t.Errorf("message counts %d, %d", got.Sessions[0].MessageCount, got.Sessions[1].MessageCount)
	}
	typed := list(t, st, session.ListOptions{Types: []session.Type{session.TypeSubAgent, session.TypeACP}})
	if g := ids(typed.Sessions); !slices.Equal(g, []string{acp, sub}) {
		t.Errorf("typed List: %v", g)
	}
	inDir := list(t, st, session.ListOptions{WorkingDir: "/a",
		Types: []session.Type{session.TypeUser, session.TypeScheduled, session.TypeSubAgent}})
	if g := ids(inDir.Sessions); !slices.Equal(g, []string{user, sub}) {
		t.Errorf("List in /a: %v", g)
	}
}

// testListPagination walks every page size over sessions that share
// updated_at values four at a time, so ties are broken by id as text (as
// SQLite compares it): "…_9" sorts before "…_12".
func testListPagination(t *testing.T, st session.Store, clock *Clock) {
	for i := range 12 {
		if i%4 == 0 {
			clock.Advance(time.Second)
		}
		create(t, st, session.NewSession{WorkingDir: "/w"})
	}
	var full []string
	for _, n := range []string{"9", "12", "11", "10", "8", "7", "6", "5", "4", "3", "2", "1"} {
		full = append(full, "20250304_"+n)
	}
	if got := ids(list(t, st, session.ListOptions{}).Sessions); !slices.Equal(got, full) {
		t.Fatalf("full list %v, want %v", got, full)
	}
	for size := 1; size <= 13; size++ {
		var walked []string
		cursor, pages := "", 0
		for {
			p := list(t, st, session.ListOptions{Limit: size, Cursor: cursor})
			pages++
			if len(p.Sessions) > size {
				t.Fatalf("size %d: page of %d", size, len(p.Sessions))
			}
			walked = append(walked, ids(p.Sessions)...)
			if p.NextCursor == "" {
				break
			}
			if pages > 20 {
				t.Fatalf("size %d: cursor never ends", size)
			}
			cursor = p.NextCursor
		}
		if !slices.Equal(walked, full) {
			t.Errorf("size %d: walked %v, want %v", size, walked, full)
		}
		if wantPages := (len(full) + size - 1) / size; pages != wantPages {
			t.Errorf("size %d: %d pages, want %d (no empty trailing page)", size, pages, wantPages)
		}
	}
}

func testListBadCursor(t *testing.T, st session.Store, _ *Clock) {
	create(t, st, session.NewSession{WorkingDir: "/w"})
	for _, c := range []string{"not base64!", "bm90IGpzb24", session.Cursor{Key: "x"}.Encode()} {
		_, err := st.List(context.Background(), session.ListOptions{Limit: 1, Cursor: c})
		wantErr(t, "List(cursor "+c+")", err, session.ErrInvalidCursor)
	}
}

// testListQueryArchiveSnippets: Desktop's history search (a word in the
// name or in message text, any case), the archive filter and the last
// message snippet.
func testListQueryArchiveSnippets(t *testing.T, st session.Store, clock *Clock) {
	ctx := context.Background()
	mk := func(name string) string {
		clock.Advance(time.Second)
		return create(t, st, session.NewSession{WorkingDir: "/q", SessionType: session.TypeUser, Name: name}).ID
	}
	pg := mk("Database chat")
	other := mk("Other")
	archived := mk("Old")
	appendMsg(t, st, pg, conversation.UserText(1, "How do I tune Postgres?"))
	long := strings.Repeat("word ", 40)
	appendMsg(t, st, other, conversation.UserText(1, "hi\n\n  there"))
	appendMsg(t, st, archived, conversation.UserText(1, long))
	at := clock.Now()
	if err := st.Update(ctx, archived, session.Update{ArchivedAt: &at}); err != nil {
		t.Fatal(err)
	}
	q := func(opts session.ListOptions) []string {
		opts.WorkingDir = "/q"
		g := ids(list(t, st, opts).Sessions)
		slices.Sort(g)
		return g
	}
	sorted := func(s ...string) []string { slices.Sort(s); return s }
	if g := q(session.ListOptions{Query: "POSTGRES"}); !slices.Equal(g, []string{pg}) {
		t.Errorf("query in message text: %v", g)
	}
	if g := q(session.ListOptions{Query: "database nothing-matches"}); !slices.Equal(g, []string{pg}) {
		t.Errorf("query in the name (any word): %v", g)
	}
	if g := q(session.ListOptions{Archived: session.ArchivedHidden}); !slices.Equal(g, sorted(pg, other)) {
		t.Errorf("archived hidden: %v", g)
	}
	if g := q(session.ListOptions{Archived: session.ArchivedOnly}); !slices.Equal(g, []string{archived}) {
		t.Errorf("archived only: %v", g)
	}
	if g := q(session.ListOptions{}); !slices.Equal(g, sorted(pg, other, archived)) {
		t.Errorf("archived included: %v", g)
	}
	snips := map[string]string{}
	for _, s := range list(t, st, session.ListOptions{WorkingDir: "/q", Snippets: true}).Sessions {
		snips[s.ID] = s.LastMessageSnippet
	}
	want := strings.TrimSpace(strings.Repeat("word ", 26)[:128]) + "…"
	if snips[pg] != "How do I tune Postgres?" || snips[other] != "hi there" || snips[archived] != want {
		t.Errorf("snippets %q", snips)
	}
}
