package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/recipe"
)

// Final-output tool names and texts (goose's final_output_tool.rs).
const (
	FinalOutputToolName     = "final_output"
	FinalOutputContinuation = "You MUST call the `final_output` tool with your final output for the user."
	FinalOutputCollected    = "Final output successfully collected."
	FinalOutputMissingParam = "Missing required 'final_output' parameter"
)

// ErrInvalidResponseSchema is returned for a recipe whose response schema
// is empty or not a valid JSON schema.
var ErrInvalidResponseSchema = errkind.New(errkind.Invalid, "invalid recipe response json_schema")

// finalOutputTool collects a recipe's structured final output.
type finalOutputTool struct {
	schema *recipe.ResponseSchema
	pretty string

	mu        sync.Mutex
	output    *string
	wasCalled bool
}

func newFinalOutputTool(raw json.RawMessage) (*finalOutputTool, error) {
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidResponseSchema, err)
	}
	if len(obj) == 0 {
		return nil, fmt.Errorf("%w: empty json_schema is not allowed", ErrInvalidResponseSchema)
	}
	sch, err := recipe.CompileSchema(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidResponseSchema, err)
	}
	pretty, _ := json.MarshalIndent(obj, "", "  ")
	return &finalOutputTool{schema: sch, pretty: string(pretty)}, nil
}

func finalOutputToolInfo(f *finalOutputTool) extension.Tool {
	ro, idem, f0 := false, true, false
	desc := "This tool collects the final output for a user and provides validation for structured JSON final output against a predefined schema.\n\n" +
		"This tool MUST be used for the final output to the user.\n\n" +
		"Purpose:\n- Collects the final output for a user\n- Ensures that final outputs conform to the expected JSON structure\n- Provides clear validation feedback when outputs don't match the schema\n\n" +
		"Usage:\n- Call the `final_output` tool with your JSON final output\n\n" +
		"The expected JSON schema format is:\n\n" + f.pretty + "\n\n" +
		"When validation fails, you'll receive:\n- Specific validation errors\n- The expected format\n"
	return extension.Tool{
		Name: FinalOutputToolName, Description: desc,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"final_output":{"type":"string","description":"The JSON string final output to validate and collect"}},"required":["final_output"]}`),
		Annotations: &provider.ToolAnnotations{Title: "Final Output", ReadOnlyHint: &ro, DestructiveHint: &f0, IdempotentHint: &idem, OpenWorldHint: &f0},
	}
}

// systemPrompt is goose's extra instruction (its "Ouptut" typo is kept).
func (f *finalOutputTool) systemPrompt() string {
	return "# Final Ouptut Instructions\n\nYou MUST use the `final_output` tool to collect the final output for a user.\n" +
		"The final output MUST be a valid JSON object that matches the following expected schema:\n\n" + f.pretty + "\n\n----\n"
}

// call validates and stores the output. Unlike goose (which stores the
// raw text before validating, so an invalid output still ends the turn),
// only valid output is collected.
func (f *finalOutputTool) call(args map[string]any) toolResult {
	f.mu.Lock()
	f.wasCalled = true
	f.mu.Unlock()
	raw, ok := args["final_output"].(string)
	if !ok {
		return conversation.Err[conversation.CallToolResult](FinalOutputMissingParam)
	}
	var inst any
	if err := json.Unmarshal([]byte(raw), &inst); err != nil {
		return conversation.Err[conversation.CallToolResult](fmt.Sprintf("Invalid JSON format: %s\n\nExpected format:\n%s\n\nPlease provide valid JSON that matches the expected schema.", err, f.pretty))
	}
	if err := f.schema.Validate(inst); err != nil {
		return conversation.Err[conversation.CallToolResult](fmt.Sprintf("Validation failed:\n%s\n\nExpected format:\n%s\n\nPlease correct your output to match the expected JSON schema and try again.", validationLines(err), f.pretty))
	}
	compact, _ := json.Marshal(inst)
	out := string(compact)
	f.mu.Lock()
	f.output = &out
	f.mu.Unlock()
	return conversation.TextResult(FinalOutputCollected)
}

// validationLines is goose's "- <instance path>: <error>" list.
func validationLines(err error) string {
	var se *recipe.SchemaError
	if !errors.As(err, &se) {
		return "- : " + err.Error()
	}
	return fmt.Sprintf("- %s: %s", se.InstancePath, se.Message)
}

func (f *finalOutputTool) called() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.wasCalled
}

// take returns the collected output, if any.
func (f *finalOutputTool) take() (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.output == nil {
		return "", false
	}
	return *f.output, true
}

// consume clears the collected output once it has been shown, so the
// next user message starts a fresh collection.
func (f *finalOutputTool) consume() {
	f.mu.Lock()
	f.output, f.wasCalled = nil, false
	f.mu.Unlock()
}

func (s *sessionState) finalOutput() (string, bool) {
	if s.final == nil {
		return "", false
	}
	return s.final.take()
}
