// Package configureui is the interactive `goose-acp configure`: huh forms
// on the terminal that ask for the provider, its key and host, and the
// model, then test and save them through core/setup. Only the helper
// cmd/goose-acp-configure links it, so goose-acp itself carries no
// terminal UI (huh, bubbletea, bubbles, clipboard) and editors' processes
// do not initialise one.
package configureui
