package pathpolicy

import (
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// maxLinkWalk bounds the walk that collects the ignored files' identities:
// past it the set is incomplete, and a hard-linked file is refused rather
// than guessed safe.
const maxLinkWalk = 200_000

// linkSetTTL is how long a collected set is reused (a turn's reads share one
// walk; a .env created meanwhile is seen within this time).
const linkSetTTL = 2 * time.Second

// fileID is a file's device and inode.
type fileID struct{ dev, ino uint64 }

type linkSet struct {
	ids      map[fileID]string
	complete bool
	at       time.Time
}

var linkSets = struct {
	sync.Mutex
	m map[string]*linkSet
}{m: map[string]*linkSet{}}

// checkHardlink refuses a regular file with more than one link when one of
// the ignored files in the roots is the same file: a hard link is another
// name for the ignored content, which .gooseignore can only see by name.
func (p *Policy) checkHardlink(real, display string) error {
	id, nlink, ok := identity(real)
	if !ok || nlink < 2 {
		return nil
	}
	set := p.ignoredIDs()
	if name, hit := set.ids[id]; hit {
		return refuse(ErrIgnored, "Access to '%s' is restricted by .gooseignore: it is a hard link to '%s'", display, name)
	}
	if !set.complete {
		return refuse(ErrIgnored, "Access to '%s' is refused: it has %d hard links and the allowed roots hold more than %d entries, too many to prove none of them is restricted by .gooseignore", display, nlink, maxLinkWalk)
	}
	return nil
}

// ignoredIDs collects the identity of every ignored regular file in the
// roots (cached briefly per session shape).
func (p *Policy) ignoredIDs() *linkSet {
	rules := p.Ignore()
	key := p.configDir + "\x00" + strings.Join(p.AllRoots(), "\x00")
	linkSets.Lock()
	defer linkSets.Unlock()
	if s, ok := linkSets.m[key]; ok && time.Since(s.at) < linkSetTTL {
		return s
	}
	s := &linkSet{ids: map[fileID]string{}, complete: true, at: time.Now()}
	budget := maxLinkWalk
	for _, root := range p.AllRoots() {
		walkIgnored(root, rules, s, &budget)
	}
	linkSets.m[key] = s
	return s
}

func walkIgnored(root string, rules *Rules, s *linkSet, budget *int) {
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if *budget--; *budget < 0 {
			s.complete = false
			return filepath.SkipAll
		}
		if !d.Type().IsRegular() || !rules.Match(path, false) {
			return nil
		}
		if id, _, ok := identity(path); ok {
			s.ids[id] = path
		}
		return nil
	})
}
