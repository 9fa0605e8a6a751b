package release

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

// iconProblems checks an SVG as the ACP registry's build does
// (build_registry.py validate_icon): valid XML with an <svg> root, no
// comments, a 16×16 square size, and fill/stroke only currentColor, none
// or inherit, with currentColor used at least once.
func iconProblems(svg []byte) []string {
	var problems []string
	if bytes.Contains(svg, []byte("<!--")) {
		problems = append(problems, "has an HTML comment")
	}
	dec := xml.NewDecoder(bytes.NewReader(svg))
	root, current := true, false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return append(problems, "not XML: "+err.Error())
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		attr := map[string]string{}
		for _, a := range el.Attr {
			attr[a.Name.Local] = a.Value
		}
		if root {
			root = false
			if el.Name.Local != "svg" {
				return append(problems, "root is <"+el.Name.Local+">")
			}
			if attr["width"] != "16" || attr["height"] != "16" || attr["viewBox"] != "0 0 16 16" {
				problems = append(problems, "not 16×16: "+attr["width"]+"×"+attr["height"]+" viewBox "+attr["viewBox"])
			}
		}
		if el.Name.Local == "style" || attr["style"] != "" {
			problems = append(problems, "styles are not checked here; use fill/stroke attributes")
		}
		for _, key := range []string{"fill", "stroke"} {
			v, set := attr[key]
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "currentcolor":
				current = true
			case "none", "inherit":
			default:
				if set {
					problems = append(problems, "hard-coded "+key+"="+v)
				}
			}
		}
	}
	if !current {
		problems = append(problems, "never uses currentColor")
	}
	return problems
}

func TestIconMeetsRegistryRules(t *testing.T) {
	if p := iconProblems(Icon); len(p) != 0 {
		t.Fatalf("icon.svg: %v", p)
	}
	files := releaseFiles("1.2.3", []byte("{}"), nil)
	if !bytes.Equal(files["icon.svg"], Icon) {
		t.Fatal("a release does not write icon.svg")
	}
	// The checker itself refuses what the registry refuses.
	for _, bad := range []string{
		`<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><path fill="currentColor" d="M0 0h1v1z"/></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><path fill="#f00" d="M0 0h1v1z"/></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><path d="M0 0h1v1z"/></svg>`,
		`<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><!-- x --><path fill="currentColor" d="M0 0h1v1z"/></svg>`,
	} {
		if len(iconProblems([]byte(bad))) == 0 {
			t.Errorf("checker accepted %s", bad)
		}
	}
}
