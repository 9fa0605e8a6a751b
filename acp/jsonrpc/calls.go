package jsonrpc

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/sourcegraph/jsonrpc2"
)

// Call sends a request to the peer and waits for its answer; the result is
// decoded into result (may be nil). An error answer is a *jsonrpc2.Error.
// When ctx ends first, the peer is sent $/cancel_request for the call (a
// permission prompt or terminal wait nobody needs any more is withdrawn)
// and ctx's error is returned.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	id := c.nextID.Add(1)
	frame, err := requestFrame(id, method, params)
	if err != nil {
		return err
	}
	ch := make(chan *Message, 1)
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		return jsonrpc2.ErrClosed
	}
	c.pending[id] = ch
	c.mu.Unlock()
	if err := c.WriteFrame(frame, true); err != nil {
		c.forget(id)
		return err
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return jsonrpc2.ErrClosed
		}
		if m.Error != nil {
			return m.Error
		}
		if result == nil {
			return nil
		}
		return json.Unmarshal(m.Result, result)
	case <-ctx.Done():
		c.forget(id)
		_ = c.Notify(context.WithoutCancel(ctx), CancelRequestMethod, map[string]any{"requestId": id})
		return ctx.Err()
	}
}

// Notify sends a notification.
func (c *Conn) Notify(_ context.Context, method string, params any) error {
	frame, err := requestFrame(0, method, params)
	if err != nil {
		return err
	}
	return c.WriteFrame(frame, true)
}

func (c *Conn) forget(id uint64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// response hands a peer's answer to the Call waiting for it.
func (c *Conn) response(m *Message) {
	id, err := strconv.ParseUint(string(m.ID), 10, 64)
	c.mu.Lock()
	ch, ok := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if err != nil || !ok {
		c.log.Debug("ignoring a response to no request of ours", "id", string(m.ID))
		return
	}
	ch <- m
}
