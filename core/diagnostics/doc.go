// Package diagnostics gathers what a bug report about goose-acp needs:
// the system (goose's SystemInfo, as goosed's /system_info and the
// diagnostics bundle report it), a session's report for Goose Desktop's
// _goose/unstable/diagnostics/get, and goosed's bug-report zip (Bundle:
// which files go in, and how much of each).
package diagnostics
