package e2e

import "testing"

// todoConfig turns goose's todo extension on in config.yaml; it is off by
// default since goose 1.54.
const todoConfig = "extensions:\n  todo:\n    enabled: true\n    type: platform\n    name: todo\n    description: Enable a todo list for goose so it can keep track of what it is doing\n    display_name: Todo\n    bundled: true\n"

// enableTodo writes config.yaml with the todo extension on.
func (e *agentEnv) enableTodo(t *testing.T) {
	t.Helper()
	e.writeConfig(t, todoConfig)
}
