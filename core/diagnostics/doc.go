// Package diagnostics gathers what a bug report about goose-acp needs:
// the system (goose's SystemInfo, as goosed's /system_info and the
// diagnostics bundle report it) and a session's report for Goose
// Desktop's _goose/unstable/diagnostics/get.
package diagnostics
