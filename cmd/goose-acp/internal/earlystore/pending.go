package earlystore

import (
	"context"
	"sync"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/sqlite"
)

// Pending is the store an early open hands over before the open has
// finished. Every call waits for the open, then goes to the opened store,
// or returns the open's error. What sits on the store (the agent, the ACP
// server's options) is built while SQLite opens on the other core, and an
// editor's first session/new does everything up to its INSERT beside the
// open instead of after it: the process's options, the provider and model
// choice, the session's settings (tl probe: 0.25-0.3 ms of the first
// session/new's critical path, two goroutine hand-overs among them).
//
// It is the session.Store of the sessions database and the optional
// interfaces core/agent looks for, as *sqlite.Store is.
type Pending struct {
	e    *Store
	once sync.Once
}

var (
	_ session.Store          = (*Pending)(nil)
	_ session.Revisioner     = (*Pending)(nil)
	_ session.MetadataSetter = (*Pending)(nil)
	_ session.TailReader     = (*Pending)(nil)
	_ session.UsageTotaler   = (*Pending)(nil)
)

// Pending hands over the open of path without waiting for it; nil when
// there is none for path, or it was taken already.
func (e *Store) Pending(path string) *Pending {
	if e == nil || e.path != path {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.taken {
		return nil
	}
	e.taken = true
	return &Pending{e: e}
}

// store waits for the open (or ctx) and returns its store or error.
func (p *Pending) store(ctx context.Context) (*sqlite.Store, error) {
	select {
	case <-p.e.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	p.once.Do(func() {
		p.e.mu.Lock()
		defer p.e.mu.Unlock()
		p.e.handOverLogs()
		if p.e.err != nil && p.e.log != nil {
			// Once, as the server logged an Open that failed.
			p.e.log.Error("runtime failed to open", "err", p.e.err)
		}
	})
	return p.e.store, p.e.err
}

// Close closes the opened store (nothing when the open failed: its error
// went to the calls that needed the store).
func (p *Pending) Close() error {
	st, err := p.store(context.Background())
	if err != nil {
		return nil
	}
	return st.Close()
}

// Revision is the store's count of id's conversation writes: zero until
// the open is done, when nothing can have been written.
func (p *Pending) Revision(id string) uint64 {
	select {
	case <-p.e.done:
	default:
		return 0
	}
	if st, err := p.store(context.Background()); err == nil {
		return st.Revision(id)
	}
	return 0
}

func (p *Pending) Create(ctx context.Context, ns session.NewSession) (session.Session, error) {
	st, err := p.store(ctx)
	if err != nil {
		return session.Session{}, err
	}
	return st.Create(ctx, ns)
}

func (p *Pending) Get(ctx context.Context, id string, withMessages bool) (session.Session, error) {
	st, err := p.store(ctx)
	if err != nil {
		return session.Session{}, err
	}
	return st.Get(ctx, id, withMessages)
}

func (p *Pending) List(ctx context.Context, opts session.ListOptions) (session.Page, error) {
	st, err := p.store(ctx)
	if err != nil {
		return session.Page{}, err
	}
	return st.List(ctx, opts)
}

func (p *Pending) AppendMessage(ctx context.Context, id string, m conversation.Message) error {
	st, err := p.store(ctx)
	if err != nil {
		return err
	}
	return st.AppendMessage(ctx, id, m)
}

func (p *Pending) ReplaceConversation(ctx context.Context, id string, msgs []conversation.Message) error {
	st, err := p.store(ctx)
	if err != nil {
		return err
	}
	return st.ReplaceConversation(ctx, id, msgs)
}

func (p *Pending) Update(ctx context.Context, id string, u session.Update) error {
	st, err := p.store(ctx)
	if err != nil {
		return err
	}
	return st.Update(ctx, id, u)
}

func (p *Pending) Delete(ctx context.Context, id string) error {
	st, err := p.store(ctx)
	if err != nil {
		return err
	}
	return st.Delete(ctx, id)
}

func (p *Pending) Search(ctx context.Context, query string, limit int) ([]session.SearchHit, error) {
	st, err := p.store(ctx)
	if err != nil {
		return nil, err
	}
	return st.Search(ctx, query, limit)
}

func (p *Pending) Fork(ctx context.Context, id string) (session.Session, error) {
	st, err := p.store(ctx)
	if err != nil {
		return session.Session{}, err
	}
	return st.Fork(ctx, id)
}

func (p *Pending) Truncate(ctx context.Context, id string, fromCreated int64) error {
	st, err := p.store(ctx)
	if err != nil {
		return err
	}
	return st.Truncate(ctx, id, fromCreated)
}

func (p *Pending) Export(ctx context.Context, id string) ([]byte, error) {
	st, err := p.store(ctx)
	if err != nil {
		return nil, err
	}
	return st.Export(ctx, id)
}

func (p *Pending) Import(ctx context.Context, data []byte) (session.Session, error) {
	st, err := p.store(ctx)
	if err != nil {
		return session.Session{}, err
	}
	return st.Import(ctx, data)
}

func (p *Pending) Insights(ctx context.Context) (session.Insights, error) {
	st, err := p.store(ctx)
	if err != nil {
		return session.Insights{}, err
	}
	return st.Insights(ctx)
}

func (p *Pending) Row(ctx context.Context, id string) (session.Session, error) {
	st, err := p.store(ctx)
	if err != nil {
		return session.Session{}, err
	}
	return st.Row(ctx, id)
}

func (p *Pending) SetMessageMetadata(ctx context.Context, sessionID, messageID string, md conversation.Metadata) error {
	st, err := p.store(ctx)
	if err != nil {
		return err
	}
	return st.SetMessageMetadata(ctx, sessionID, messageID, md)
}

func (p *Pending) MarkTail(ctx context.Context, id, messageID string) (session.TailMark, error) {
	st, err := p.store(ctx)
	if err != nil {
		return session.TailMark{}, err
	}
	return st.MarkTail(ctx, id, messageID)
}

func (p *Pending) GetTail(ctx context.Context, id string, m session.TailMark) (session.Session, bool, error) {
	st, err := p.store(ctx)
	if err != nil {
		return session.Session{}, false, err
	}
	return st.GetTail(ctx, id, m)
}

func (p *Pending) UsageTotals(ctx context.Context, id string) (session.UsageTotals, error) {
	st, err := p.store(ctx)
	if err != nil {
		return session.UsageTotals{}, err
	}
	return st.UsageTotals(ctx, id)
}
