package main

import (
	"slices"
	"testing"
)

func TestTitleHubDeliversToSubscribersUntilUnsubscribed(t *testing.T) {
	var h titleHub
	var a, b []string
	stopA := h.subscribe(func(id, title string) { a = append(a, id+":"+title) })
	h.subscribe(func(id, title string) { b = append(b, id+":"+title) })
	h.publish("s1", "Fix the build")
	stopA()
	h.publish("s2", "Write docs")
	if !slices.Equal(a, []string{"s1:Fix the build"}) || !slices.Equal(b, []string{"s1:Fix the build", "s2:Write docs"}) {
		t.Fatalf("a=%v b=%v", a, b)
	}
}
