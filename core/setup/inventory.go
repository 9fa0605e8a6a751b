package setup

import (
	"context"
	"sync"
	"time"
)

// Inventory is what goose calls a provider's model inventory: the model
// list its last refresh fetched live, kept in memory for this process.
type Inventory struct {
	Models                   []string
	LastUpdated, LastAttempt time.Time
	LastError                string
	Refreshing               bool
}

// Stale reports whether the inventory is older than InventoryMaxAge or
// was never fetched.
func (inv Inventory) Stale(now time.Time) bool {
	return inv.LastUpdated.IsZero() || now.Sub(inv.LastUpdated) > InventoryMaxAge
}

// InventoryMaxAge is how long a fetched model list counts as current.
const InventoryMaxAge = time.Hour

// Reasons a refresh skips a provider (goose's RefreshSkipReason).
const (
	SkipUnknownProvider   = "unknown_provider"
	SkipNotConfigured     = "not_configured"
	SkipAlreadyRefreshing = "already_refreshing"
)

// RefreshSkip is a provider a refresh did not start, and why.
type RefreshSkip struct{ Provider, Reason string }

type inventories struct {
	mu      sync.Mutex
	entries map[string]*Inventory
	running sync.WaitGroup
}

// Inventory returns the provider's inventory (zero before any refresh).
func (s *Setup) Inventory(name string) Inventory {
	s.inv.mu.Lock()
	defer s.inv.mu.Unlock()
	if e := s.inv.entries[name]; e != nil {
		out := *e
		out.Models = append([]string(nil), e.Models...)
		return out
	}
	return Inventory{}
}

// RefreshInventory starts fetching the model list of each named provider
// (every provider when names is empty) in the background; providers that
// are unknown, not configured or already refreshing are skipped.
func (s *Setup) RefreshInventory(names []string) (started []string, skipped []RefreshSkip) {
	all := len(names) == 0
	if all {
		for _, md := range s.Providers() {
			names = append(names, md.Name)
		}
	}
	started = []string{}
	for _, name := range names {
		if _, err := s.Lookup(name); err != nil {
			skipped = append(skipped, RefreshSkip{name, SkipUnknownProvider})
			continue
		}
		if !s.Configured(name) {
			if !all {
				skipped = append(skipped, RefreshSkip{name, SkipNotConfigured})
			}
			continue
		}
		if !s.startRefresh(name) {
			skipped = append(skipped, RefreshSkip{name, SkipAlreadyRefreshing})
			continue
		}
		started = append(started, name)
	}
	return started, skipped
}

func (s *Setup) startRefresh(name string) bool {
	s.inv.mu.Lock()
	defer s.inv.mu.Unlock()
	if s.inv.entries == nil {
		s.inv.entries = map[string]*Inventory{}
	}
	e := s.inv.entries[name]
	if e == nil {
		e = &Inventory{}
		s.inv.entries[name] = e
	}
	if e.Refreshing {
		return false
	}
	e.Refreshing, e.LastAttempt = true, time.Now()
	s.inv.running.Add(1)
	go s.refresh(name)
	return true
}

// refresh runs outside any request: Desktop asks for it and reads the
// result later through providers/list.
func (s *Setup) refresh(name string) {
	defer s.inv.running.Done()
	models, err := s.Models(context.Background(), Choice{Provider: name})
	s.inv.mu.Lock()
	defer s.inv.mu.Unlock()
	e := s.inv.entries[name]
	e.Refreshing = false
	if err != nil {
		e.LastError = err.Error()
		s.opts.Logger.Warn("provider inventory refresh failed", "provider", name, "err", err)
		return
	}
	e.Models, e.LastUpdated, e.LastError = models, time.Now(), ""
}

// WaitRefreshes waits for the refreshes already started (tests, shutdown).
func (s *Setup) WaitRefreshes() { s.inv.running.Wait() }
