// Package sse is the one Server-Sent Events reader of the providers
// (anthropic, google, openai). It splits a text/event-stream body into
// events; what differs between backends is a parameter (Options): the
// longest line accepted, whether a line that is no SSE field means the
// body is not an event stream, whether an event the body ends in before
// its blank line is kept, and whether each data line is an event of its
// own.
package sse
