package sqlite

// StagedWrites counts the writes that attached a staging database
// (stage.go), for the external tests.
func StagedWrites() int64 { return stageSeq.Load() }
