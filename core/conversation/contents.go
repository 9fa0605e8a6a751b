package conversation

// textItemPrefix opens a bare text item as goose writes it.
const textItemPrefix = `{"type":"text","text":`

// plainText returns the text of a bare text item (no annotations, no
// _meta), the only variant encoded without Marshal: it is the one that
// carries huge prompts.
func (c Content) plainText() (string, bool) {
	if c.Type != TypeText || c.Text == nil || len(c.Text.Annotations) > 0 || len(c.Text.Meta) > 0 {
		return "", false
	}
	return c.Text.Text, true
}

// plainTextJSON encodes a bare text item into one buffer of its exact size.
func plainTextJSON(text string) []byte {
	out := make([]byte, 0, len(textItemPrefix)+quotedLen(text)+1)
	return append(appendQuoted(append(out, textItemPrefix...), text), '}')
}

// MarshalContents returns exactly Marshal(cs) (an empty or nil list is
// []) in one allocation of the final size: bare text items are quoted
// straight into it, other items are encoded with Marshal first (they are
// small, and their variants have maps whose bytes Marshal defines).
func MarshalContents(cs []Content) ([]byte, error) {
	encoded := make([][]byte, len(cs)) // nil for bare text items
	n := 2 + max(len(cs)-1, 0)
	for i, c := range cs {
		if text, ok := c.plainText(); ok {
			n += len(textItemPrefix) + quotedLen(text) + 1
			continue
		}
		b, err := Marshal(c)
		if err != nil {
			return nil, err
		}
		encoded[i] = b
		n += len(b)
	}
	out := make([]byte, 0, n)
	out = append(out, '[')
	for i, c := range cs {
		if i > 0 {
			out = append(out, ',')
		}
		if encoded[i] != nil {
			out = append(out, encoded[i]...)
			continue
		}
		text, _ := c.plainText()
		out = append(appendQuoted(append(out, textItemPrefix...), text), '}')
	}
	return append(out, ']'), nil
}
