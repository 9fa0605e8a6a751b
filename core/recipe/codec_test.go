package recipe

import (
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	workedJSON   = `{"version":"1.0.0","title":"Test Recipe","description":"A test recipe for deeplink encoding/decoding","instructions":"Act as a helpful assistant"}`
	workedConfig = "eyJ2ZXJzaW9uIjoiMS4wLjAiLCJ0aXRsZSI6IlRlc3QgUmVjaXBlIiwiZGVzY3JpcHRpb24iOiJBIHRlc3QgcmVjaXBlIGZvciBkZWVwbGluayBlbmNvZGluZy9kZWNvZGluZyIsImluc3RydWN0aW9ucyI6IkFjdCBhcyBhIGhlbHBmdWwgYXNzaXN0YW50In0"
	plusJSON     = `{"version":"1.0.0","title":"Who?>","description":"d","instructions":"Be brief?>"}`
	plusConfig   = "eyJ2ZXJzaW9uIjoiMS4wLjAiLCJ0aXRsZSI6Ildobz8-IiwiZGVzY3JpcHRpb24iOiJkIiwiaW5zdHJ1Y3Rpb25zIjoiQmUgYnJpZWY_PiJ9"
)

func TestEncodeMatchesGoose(t *testing.T) {
	for _, tc := range []struct{ json, want string }{{workedJSON, workedConfig}, {plusJSON, plusConfig}} {
		r, err := FromJSON([]byte(tc.json))
		if err != nil {
			t.Fatal(err)
		}
		got, err := Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("Encode = %s, want %s", got, tc.want)
		}
		url, _ := DeeplinkURL(r)
		if url != "goose://recipe?config="+tc.want {
			t.Errorf("DeeplinkURL = %s", url)
		}
	}
}

func TestDecode(t *testing.T) {
	std := base64.StdEncoding.EncodeToString([]byte(plusJSON))
	tests := []struct {
		name, in, wantTitle string
	}{
		{"current", workedConfig, "Test Recipe"},
		{"current with -/_", plusConfig, "Who?>"},
		{"legacy padded", workedConfig + "=", "Test Recipe"},
		{"legacy percent-encoded padding", workedConfig + "%3D", "Test Recipe"},
		{"legacy standard alphabet", std, "Who?>"},
		{"legacy percent-encoded standard", strings.NewReplacer("+", "%2B", "/", "%2F", "=", "%3D").Replace(std), "Who?>"},
		{"version defaults", base64.RawURLEncoding.EncodeToString([]byte(`{"title":"t","description":"d","prompt":"p"}`)), "t"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Decode(tc.in)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if r.Title != tc.wantTitle || r.Version != "1.0.0" {
				t.Errorf("got title %q version %q", r.Title, r.Version)
			}
		})
	}
}

func TestDecodeFailures(t *testing.T) {
	for name, in := range map[string]string{
		"empty":                   "",
		"garbage":                 "!!!",
		"url-safe with padding":   plusConfig + "==",
		"plus turned into space":  strings.ReplaceAll(base64.StdEncoding.EncodeToString([]byte(plusJSON)), "+", " "),
		"params left on config":   workedConfig + "&name=Alice",
		"missing title":           base64.RawURLEncoding.EncodeToString([]byte(`{"description":"d","prompt":"p"}`)),
		"title not a string":      base64.RawURLEncoding.EncodeToString([]byte(`{"title":1,"description":"d"}`)),
		"not json":                base64.RawURLEncoding.EncodeToString([]byte("hello")),
		"invalid utf-8":           base64.RawURLEncoding.EncodeToString([]byte{0xff, 0xfe}),
		"newline inside":          workedConfig[:10] + "\n" + workedConfig[10:],
		"bad percent escape":      "%ZZ",
		"non-canonical last bits": workedConfig[:len(workedConfig)-1] + "1",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Decode(in)
			if !errors.Is(err, ErrDecode) || err.Error() != "Failed to decode recipe deeplink" {
				t.Fatalf("Decode(%q) err = %v", in, err)
			}
		})
	}
}

// TestExampleRecipesRoundTrip: every example parses, validates, and
// encode → decode → encode is byte-stable.
func TestExampleRecipesRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/recipes/*.yaml")
	jsonFiles, _ := filepath.Glob("testdata/recipes/*.json")
	files = append(files, jsonFiles...)
	if len(files) < 4 {
		t.Fatalf("expected example recipes, found %v", files)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			r, err := ValidateTemplate(string(b), filepath.Dir(f))
			if err != nil {
				t.Fatalf("ValidateTemplate: %v", err)
			}
			first, err := Encode(r)
			if err != nil {
				t.Fatal(err)
			}
			decoded, err := Decode(first)
			if err != nil {
				t.Fatal(err)
			}
			second, _ := Encode(decoded)
			if first != second {
				t.Fatalf("unstable round trip:\n%s\n%s", first, second)
			}
			if inheritanceRe().Match(b) {
				return // rendered while parsing: its variables are gone, as in goose
			}
			y, err := ToYAML(decoded)
			if err != nil {
				t.Fatal(err)
			}
			again, err := ValidateTemplate(y, filepath.Dir(f))
			if err != nil {
				t.Fatalf("decoded recipe no longer validates: %v", err)
			}
			third, _ := Encode(again)
			if third != first {
				t.Fatalf("re-validated recipe encodes differently:\n%s\n%s", first, third)
			}
		})
	}
}

func FuzzDecodeRecipe(f *testing.F) {
	for _, s := range []string{workedConfig, plusConfig, workedConfig + "=", workedConfig + "%3D", "", "%", "%%41", "eyJ0aXRsZSI6"} {
		f.Add(s)
	}
	if b, err := os.ReadFile("testdata/recipes/code-review.yaml"); err == nil {
		if r, err := FromContent(string(b)); err == nil {
			enc, _ := Encode(r)
			f.Add(enc)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Decode(s)
		if err != nil {
			if !errors.Is(err, ErrDecode) {
				t.Fatalf("unexpected error type %v", err)
			}
			return
		}
		enc, err := Encode(r)
		if err != nil {
			t.Fatalf("decoded recipe does not encode: %v", err)
		}
		r2, err := Decode(enc)
		if err != nil {
			t.Fatalf("re-decode failed: %v", err)
		}
		if enc2, _ := Encode(r2); enc2 != enc {
			t.Fatalf("unstable: %s vs %s", enc, enc2)
		}
	})
}

// A recipe field of the wrong JSON type is reported in serde's words
// (no "json: " prefix), with the field's path.
func TestFromJSONTypeErrorWording(t *testing.T) {
	_, err := FromJSON([]byte(`{"title":"t","description":"d","extensions":"x"}`))
	if err == nil {
		t.Fatal("no error")
	}
	const want = "cannot unmarshal string into Go struct field Recipe.extensions of type []config.ExtensionConfig"
	if err.Error() != want {
		t.Fatalf("error %q, want %q", err, want)
	}
}
