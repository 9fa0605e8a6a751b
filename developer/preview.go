package developer

// ProposedEdit is the whole file the edit tools would write for replacing
// before by after in content: the same unique (then fuzzy) match, BOM and
// line endings. A host previews an edit with it before approving the
// call; the error is the tool's own refusal (no match, several matches,
// no change).
func ProposedEdit(content, before, after string) (string, error) {
	ed, err := replaceUnique(content, before, after)
	if err != nil {
		return "", err
	}
	return ed.content, nil
}
