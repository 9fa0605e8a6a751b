// Package sessiontest is the contract suite every session.Store must pass:
// Run it from a store's tests with a factory for fresh stores.
package sessiontest
