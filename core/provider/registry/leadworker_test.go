package registry

import (
	"testing"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func leadWorkerFixture(t *testing.T, turns ...providertest.Turn) (*fixture, *providertest.Server, *LeadWorker) {
	t.Helper()
	s := serve(t, turns...)
	f := newFixture(t)
	f.env["OPENAI_HOST"] = s.URL
	f.config["GOOSE_LEAD_MODEL"] = "o3"
	f.config["GOOSE_LEAD_TURNS"] = 2
	f.config["GOOSE_LEAD_CONTEXT_LIMIT"] = "300000"
	p, err := f.registry().Create("openai", mustModel("gpt-4o-mini"))
	if err != nil {
		t.Fatal(err)
	}
	lw, ok := p.(*LeadWorker)
	if !ok {
		t.Fatalf("want *LeadWorker, got %T", p)
	}
	return f, s, lw
}

func models(t *testing.T, s *providertest.Server) []string {
	var out []string
	for _, r := range s.Requests() {
		out = append(out, requestModel(t, r))
	}
	return out
}

func TestLeadWorkerSwitchesAfterLeadTurns(t *testing.T) {
	ok := providertest.Turn{Text: []string{"fine"}}
	_, s, lw := leadWorkerFixture(t, ok, ok, ok, ok)
	if lead, worker := lw.Models(); lead != "o3" || worker != "gpt-4o-mini" || *lw.lead.ModelConfig().ContextLimit != 300_000 {
		t.Fatalf("%s %s", lead, worker)
	}
	if set := lw.Settings(); set.LeadTurns != 2 || set.FailureThreshold != 2 || set.FallbackTurns != 2 {
		t.Fatalf("%+v", set)
	}
	for range 4 {
		if _, err := reply(t, lw); err != nil {
			t.Fatal(err)
		}
	}
	if got := models(t, s); !equal(got, "o3", "o3", "gpt-4o-mini", "gpt-4o-mini") {
		t.Fatalf("models %v", got)
	}
	lw.Reset()
	if lw.ActiveModel() != "o3" {
		t.Fatal("reset must return to the lead")
	}
}

func TestLeadWorkerFallsBackAfterTaskFailures(t *testing.T) {
	ok := providertest.Turn{Text: []string{"fine"}}
	bad := providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "c", Name: "shell", Arguments: `{"broken`}}}
	_, s, lw := leadWorkerFixture(t, ok, ok, bad, bad, ok, ok, ok)
	for range 7 {
		if _, err := reply(t, lw); err != nil {
			t.Fatal(err)
		}
	}
	// two lead turns, two failing worker turns, two fallback lead turns, worker again
	if got := models(t, s); !equal(got, "o3", "o3", "gpt-4o-mini", "gpt-4o-mini", "o3", "o3", "gpt-4o-mini") {
		t.Fatalf("models %v", got)
	}
}

func TestLeadWorkerRetriesTechnicalFailureOnLead(t *testing.T) {
	ok := providertest.Turn{Text: []string{"fine"}}
	down := providertest.Turn{Status: 500, ErrorBody: `{"error":{"message":"down"}}`}
	_, s, lw := leadWorkerFixture(t, ok, ok, down, providertest.Turn{Text: []string{"lead saved it"}})
	for range 2 {
		if _, err := reply(t, lw); err != nil {
			t.Fatal(err)
		}
	}
	text, err := reply(t, lw)
	if err != nil || text != "lead saved it" {
		t.Fatalf("%q %v", text, err)
	}
	if got := models(t, s); !equal(got, "o3", "o3", "gpt-4o-mini", "o3") {
		t.Fatalf("models %v", got)
	}
}

func equal(got []string, want ...string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}
