package deeplink

import (
	"errors"
	"strings"
	"testing"
)

// secretMarker stands for a token, key or password inside a link.
const secretMarker = "S3CR3T"

// No error message ever repeats a header or env value, a share token, a
// recipe config, credentials or any other part of the link a user might
// paste a secret into (links end up in logs and toasts).
func TestErrorMessagesNeverCarrySecrets(t *testing.T) {
	links := []string{
		// extension: secrets in header/env values, next to each failure
		"goose://extension?name=x&url=https%3A%2F%2Fh.example&header=Authorization%3DBearer+" + secretMarker + "%25zz",
		"goose://extension?name=x&url=https%3A%2F%2Fh.example&header=%3D" + secretMarker,
		"goose://extension?name=x&url=ftp%3A%2F%2F" + secretMarker + "%40h&header=A%3D" + secretMarker,
		"goose://extension?name=x&url=https%3A%2F%2Fuser%3A" + secretMarker + "%40h.example&timeout=-1",
		"goose://extension?name=x&cmd=npx&env=API_KEY%3D" + secretMarker + "&timeout=abc",
		"goose://extension?name=&cmd=npx&env=API_KEY%3D" + secretMarker,
		"goose://extension?name=x&env=API_KEY%3D" + secretMarker,
		"goose://extension?name=x&cmd=npx&arg=-c&arg=" + secretMarker,
		"goose://extension?name=x&url=https%3A%2F%2Fh.example%2F%3Ftoken%3D" + secretMarker,
		// sessions: the token itself, on every failing form
		"GOOSE://sessions/" + secretMarker,
		"goose://sessions" + secretMarker,
		"goose://user:" + secretMarker + "@sessions/x",
		"goose://sessions:99999999/" + secretMarker,
		"goose://[::1]/" + secretMarker,
		"http://sessions/" + secretMarker,
		// recipe: config and parameters
		"goose://recipe?config=" + secretMarker,
		"goose://recipe?config=%zz" + secretMarker,
		"goose://recipe?config=eyJ0aXRsZSI6IiJ9&key=" + secretMarker,
		"goose://bot?config=" + secretMarker + "%",
		// routes and raw garbage
		"goose://" + secretMarker + "?token=" + secretMarker,
		"goose://extension\x00?" + secretMarker,
		"goose://ext ension/" + secretMarker,
		"goose://%zz" + secretMarker,
		"goose://extension#" + secretMarker,
		strings.Repeat("a", 100_000) + secretMarker,
		"goose:" + secretMarker,
	}
	blocked := Policy{Allowlist: []string{"uvx only"}}
	failures := 0
	for _, link := range links {
		for _, policy := range []Policy{{}, blocked, {LoadErr: errors.New("fetch https://a:" + secretMarker + "@h failed")}} {
			res := Parse(link, policy)
			if res.Error == nil {
				continue
			}
			failures++
			if strings.Contains(res.Error.Message, secretMarker) {
				t.Errorf("%.80q: error %s %q repeats the secret", link, res.Error.Code, res.Error.Message)
			}
		}
	}
	// Nearly every link above is rejected; a test that saw no errors would
	// prove nothing.
	if failures < 3*len(links)-6 {
		t.Fatalf("only %d of %d parses failed", failures, 3*len(links))
	}
}
