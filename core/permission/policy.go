package permission

import "github.com/goose-acp/goose-acp/core/toolinfo"

// Action is what an inspector wants done with a tool call.
type Action int

const (
	Allow Action = iota
	RequireApproval
	Deny
)

func (a Action) String() string {
	switch a {
	case Allow:
		return "allow"
	case RequireApproval:
		return "require_approval"
	case Deny:
		return "deny"
	}
	return "unknown"
}

// ManageExtensionsTool is the only tool that always asks in approve modes.
const ManageExtensionsTool = "extensionmanager__manage_extensions"

// Reason texts goose's permission inspector records.
const (
	ReasonAuto               = "Auto mode - all tools approved"
	ReasonUserAlwaysAllow    = "User permission: always allow"
	ReasonUserNeverAllow     = "User permission: never allow"
	ReasonUserAskBefore      = "User permission: ask before"
	ReasonReadOnlyAnnotation = "Tool annotated as read-only"
	ReasonLLMReadOnly        = "LLM detected as read-only"
	ReasonNeedsApproval      = "Tool requires user approval"
	// ReasonSessionNotes is ours: a think tool (the todo list) changes
	// nothing but the session's own notes, so no mode asks for it.
	ReasonSessionNotes = "Tool only writes the session's notes"
	// ExtensionManagementPrompt is shown to the user for manage_extensions.
	ExtensionManagementPrompt = "Extension management requires approval for security"
)

// Call is a tool call as the inspectors see it.
type Call struct {
	ID string
	// Name is the tool's public name ("shell").
	Name string
	// Prefixed is the tool's "<extension>__<tool>" name when that differs
	// from Name ("developer__shell"): permission.yaml rules written before
	// goose 1.54 made the first-class tools' names bare still apply.
	Prefixed string
	Args     map[string]any
	// ReadOnly is the tool's MCP readOnlyHint annotation being true.
	ReadOnly bool
	// Kind is the tool's declared kind (core/toolinfo); the security
	// inspector scans the calls of execute tools.
	Kind string
}

// Result is one inspector's verdict on one call.
type Result struct {
	RequestID string
	Action    Action
	// Prompt is the user-facing text of a RequireApproval (nil: none).
	Prompt     *string
	Reason     string
	Confidence float64
	Inspector  string
	FindingID  string
}

// Facts are everything the permission rule looks at for one call.
type Facts struct {
	Mode Mode
	// User and Smart are the call's permission.yaml levels.
	User, Smart Level
	ReadOnly    bool
	// Kind is the tool's declared kind (core/toolinfo).
	Kind string
	// LLMReadOnly is the smart-approve judge's answer; nil when the judge
	// was not (or could not be) asked.
	LLMReadOnly *bool
}

// Verdict is the permission rule's answer. Skip means the inspector returns
// nothing for the call (chat mode). AskLLM means smart_approve wants the
// judge consulted before deciding; call Evaluate again with LLMReadOnly set.
type Verdict struct {
	Action Action
	Prompt *string
	Reason string
	Skip   bool
	AskLLM bool
}

// Evaluate is goose's PermissionInspector rule for one call, as a pure
// function (see the package test for the full table).
func Evaluate(name string, f Facts) Verdict {
	switch f.Mode {
	case ModeChat:
		return Verdict{Skip: true}
	case ModeApprove, ModeSmartApprove:
	default: // auto, and anything unknown, approves like goose's Auto
		return Verdict{Action: Allow, Reason: ReasonAuto}
	}
	switch f.User {
	case LevelAlwaysAllow:
		return Verdict{Action: Allow, Reason: ReasonUserAlwaysAllow}
	case LevelNeverAllow:
		return Verdict{Action: Deny, Reason: ReasonUserNeverAllow}
	case LevelAskBefore:
		return Verdict{Action: RequireApproval, Reason: ReasonUserAskBefore}
	}
	if f.ReadOnly {
		return Verdict{Action: Allow, Reason: ReasonReadOnlyAnnotation}
	}
	if f.Kind == toolinfo.Think {
		return Verdict{Action: Allow, Reason: ReasonSessionNotes}
	}
	if name == ManageExtensionsTool {
		p := ExtensionManagementPrompt
		return Verdict{Action: RequireApproval, Prompt: &p, Reason: ExtensionManagementPrompt}
	}
	if f.Mode == ModeSmartApprove && f.Smart == LevelNone {
		if f.LLMReadOnly == nil {
			return Verdict{AskLLM: true}
		}
		if *f.LLMReadOnly {
			return Verdict{Action: Allow, Reason: ReasonLLMReadOnly}
		}
	}
	return Verdict{Action: RequireApproval, Reason: ReasonNeedsApproval}
}

// Split is the outcome of merging all inspector results.
type Split struct {
	Approved      []Call
	NeedsApproval []Call
	Denied        []Call
	// Prompts holds the user-facing text of the RequireApproval that put a
	// call in NeedsApproval (security findings), by request id.
	Prompts map[string]string
}

// Merge combines inspector results as goose does: the permission
// inspector's results are the baseline (a call without one needs approval);
// every other inspector's Deny moves the call to Denied, its
// RequireApproval moves an approved call to NeedsApproval, and Allow never
// relaxes anything. Call order is preserved within each list.
func Merge(calls []Call, permissionResults []Result, others []Result) Split {
	state := make(map[string]Action, len(calls))
	prompts := map[string]string{}
	for _, r := range permissionResults {
		state[r.RequestID] = r.Action
		if r.Action == RequireApproval && r.Prompt != nil {
			prompts[r.RequestID] = *r.Prompt
		}
	}
	for _, c := range calls {
		if _, ok := state[c.ID]; !ok {
			state[c.ID] = RequireApproval
		}
	}
	for _, r := range others {
		cur, ok := state[r.RequestID]
		if !ok {
			continue
		}
		switch r.Action {
		case Deny:
			state[r.RequestID] = Deny
		case RequireApproval:
			if cur == Allow {
				state[r.RequestID] = RequireApproval
			}
			if cur != Deny && r.Prompt != nil {
				prompts[r.RequestID] = *r.Prompt
			}
		}
	}
	var s Split
	for _, c := range calls {
		switch state[c.ID] {
		case Allow:
			s.Approved = append(s.Approved, c)
		case Deny:
			s.Denied = append(s.Denied, c)
		default:
			s.NeedsApproval = append(s.NeedsApproval, c)
		}
	}
	s.Prompts = prompts
	return s
}
