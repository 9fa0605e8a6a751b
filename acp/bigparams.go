package acp

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strings"
	"sync"
)

// A large session/prompt is decoded once. jsonrpc2 decodes a request's
// params three times over (into a map through a buffering Decoder, then
// re-marshals them), which made a 31 MB prompt peak at ~12× its size. So
// the Stream cuts the params of a large prompt out of the line (a
// sub-slice, no copy), hands jsonrpc2 the line with a short token in
// their place, and PromptRequest.UnmarshalJSON decodes the stashed bytes
// straight into the prompt's blocks and drops them.

// bigParamsMin is the line size from which a prompt's params are stashed.
const bigParamsMin = 64 << 10

// maxStashed bounds prompts whose params were stashed but never decoded
// (their request failed before decoding); the oldest is dropped.
const maxStashed = 8

const stashPrefix = "\x00acp-params:"

var stash = struct {
	sync.Mutex
	m     map[string][]byte
	order []string
}{m: map[string][]byte{}}

// stashPromptParams returns line with a large session/prompt request's
// params replaced by a token, or line unchanged.
func stashPromptParams(line []byte) []byte {
	if len(line) < bigParamsMin {
		return line
	}
	ms, me, ok := memberValue(line, "method")
	if !ok || string(line[ms:me]) != `"session/prompt"` {
		return line
	}
	if _, _, ok := memberValue(line, "id"); !ok {
		return line
	}
	start, end, ok := memberValue(line, "params")
	if !ok || line[start] != '{' {
		return line
	}
	var rnd [16]byte
	_, _ = rand.Read(rnd[:])
	token := stashPrefix + hex.EncodeToString(rnd[:])
	quoted, _ := json.Marshal(token)
	stash.Lock()
	stash.m[token] = line[start:end:end]
	stash.order = append(stash.order, token)
	if len(stash.order) > maxStashed {
		delete(stash.m, stash.order[0])
		stash.order = stash.order[1:]
	}
	stash.Unlock()
	out := make([]byte, 0, start+len(quoted)+len(line)-end)
	return append(append(append(out, line[:start]...), quoted...), line[end:]...)
}

// takeStashed returns and forgets the params a token stands for.
func takeStashed(token string) ([]byte, bool) {
	stash.Lock()
	defer stash.Unlock()
	b, ok := stash.m[token]
	if ok {
		delete(stash.m, token)
		for i, t := range stash.order {
			if t == token {
				stash.order = append(stash.order[:i], stash.order[i+1:]...)
				break
			}
		}
	}
	return b, ok
}

// UnmarshalJSON decodes a prompt, or the stashed params a token names.
func (r *PromptRequest) UnmarshalJSON(data []byte) error {
	type plain PromptRequest
	if len(data) > 0 && data[0] == '"' {
		var token string
		if err := json.Unmarshal(data, &token); err == nil && strings.HasPrefix(token, stashPrefix) {
			if raw, ok := takeStashed(token); ok {
				return json.Unmarshal(raw, (*plain)(r))
			}
		}
	}
	return json.Unmarshal(data, (*plain)(r))
}

// memberValue returns the byte range of the value of a top-level member of
// the JSON object in b (already validated). The key must be written
// without escapes; when it appears twice the first is returned, and since
// JSON decoders keep the last, a caller replacing it changes nothing.
func memberValue(b []byte, key string) (int, int, bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return 0, 0, false
	}
	i++
	for {
		i = skipSpace(b, i)
		if i >= len(b) || b[i] != '"' {
			return 0, 0, false
		}
		ks, ke := i, skipString(b, i)
		i = skipSpace(b, ke)
		if i >= len(b) || b[i] != ':' {
			return 0, 0, false
		}
		vs := skipSpace(b, i+1)
		ve := skipValue(b, vs)
		if ve <= vs {
			return 0, 0, false
		}
		if string(b[ks+1:ke-1]) == key {
			return vs, ve, true
		}
		i = skipSpace(b, ve)
		if i >= len(b) || b[i] != ',' {
			return 0, 0, false
		}
		i++
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] == '"'.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); {
		k := bytes.IndexAny(b[j:], `"\`)
		if k < 0 {
			return len(b)
		}
		j += k
		if b[j] == '\\' {
			j += 2
			continue
		}
		return j + 1
	}
	return len(b)
}

// skipValue returns the index after the value starting at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); {
			k := bytes.IndexAny(b[j:], `"{}[]`)
			if k < 0 {
				return len(b)
			}
			j += k
			switch b[j] {
			case '"':
				j = skipString(b, j)
				continue
			case '{', '[':
				depth++
			default:
				depth--
			}
			j++
			if depth == 0 {
				return j
			}
		}
		return len(b)
	}
	j := i
	for j < len(b) && !strings.ContainsRune(" \t\r\n,}]", rune(b[j])) {
		j++
	}
	return j
}
