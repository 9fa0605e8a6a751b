// Package pykernel runs goose's python session kernel: one interpreter
// running python_driver.py (JSON lines on stdin and on a private copy of
// stdout), started through internal/proctree so it dies with the agent,
// interrupted with SIGINT when a cell runs out of time (not on Windows,
// where the session is stopped instead), snapshotting its variables after
// every cell to Spec.StatePath and restoring them at its next start.
// developer's python tool keeps one Kernel per session and connection.
// It imports only internal/proctree of ours.
package pykernel
