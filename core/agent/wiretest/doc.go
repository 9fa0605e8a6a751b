// Package wiretest drives the agent loop against the real provider
// backends talking to the providertest mock servers (OpenAI Chat
// Completions SSE and Anthropic Messages events), so the loop is checked
// end to end over each wire format. It holds tests only.
package wiretest
