//go:build !unix

package pathpolicy

// identity: Windows' os.FileInfo carries no link count or file index, so
// the hard-link check is not made there (see doc.go).
func identity(string) (fileID, uint64, bool) { return fileID{}, 0, false }
