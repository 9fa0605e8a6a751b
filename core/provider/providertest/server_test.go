package providertest

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no server or stream goroutine outlives the tests of
// any format in this package.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestServerEnv(t *testing.T) {
	s := Start(OpenAI, NewScript())
	defer s.Close()
	env := s.Env()
	if len(env) != 4 || env[0] != "GOOSE_PROVIDER=openai" || env[2] != "OPENAI_HOST="+s.URL {
		t.Fatalf("%v", env)
	}
}
