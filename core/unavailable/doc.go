// Package unavailable names the goose features goose-acp does not ship
// and says why, once, for every face: the ACP _goose/unstable/* methods
// and goosed routes behind them answer with Feature.Error's text.
package unavailable
