package conversation

import (
	"encoding/json"
	"fmt"
)

// ActionType tags the data of an actionRequired item.
type ActionType string

const (
	ActionToolConfirmation    ActionType = "toolConfirmation"
	ActionElicitation         ActionType = "elicitation"
	ActionElicitationResponse ActionType = "elicitationResponse"
)

// ActionRequired asks the user for something: a tool approval, an
// elicitation, or carries the user's answer to one.
type ActionRequired struct {
	Data ActionData `json:"data"`
}

// ActionData is internally tagged on "actionType"; the fields of that type
// are set. Elicitation fields keep goose's snake_case names.
type ActionData struct {
	ActionType ActionType
	ID         string
	// toolConfirmation
	ToolName  string
	Arguments map[string]any
	Prompt    *string
	// elicitation
	Message         string
	RequestedSchema json.RawMessage
	// URL-mode elicitation (MCP's mode "url": the user is sent to URL,
	// ElicitationID names the flow). goose's JSON has no form of it: these
	// travel with the live event only and are never written.
	Mode, URL, ElicitationID string
	// elicitationResponse
	UserData json.RawMessage
}

type toolConfirmationData struct {
	ActionType ActionType     `json:"actionType"`
	ID         string         `json:"id"`
	ToolName   string         `json:"toolName"`
	Arguments  map[string]any `json:"arguments"`
	Prompt     *string        `json:"prompt"`
}

type elicitationData struct {
	ActionType      ActionType      `json:"actionType"`
	ID              string          `json:"id"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requested_schema"`
}

type elicitationResponseData struct {
	ActionType ActionType      `json:"actionType"`
	ID         string          `json:"id"`
	UserData   json.RawMessage `json:"user_data"`
}

// MarshalJSON writes the form of the action type.
func (d ActionData) MarshalJSON() ([]byte, error) {
	switch d.ActionType {
	case ActionToolConfirmation:
		args := d.Arguments
		if args == nil {
			args = map[string]any{}
		}
		return Marshal(toolConfirmationData{d.ActionType, d.ID, d.ToolName, args, d.Prompt})
	case ActionElicitation:
		return Marshal(elicitationData{d.ActionType, d.ID, d.Message, rawOrNull(d.RequestedSchema)})
	case ActionElicitationResponse:
		return Marshal(elicitationResponseData{d.ActionType, d.ID, rawOrNull(d.UserData)})
	}
	return nil, fmt.Errorf("conversation: unknown action type %q", d.ActionType)
}

// UnmarshalJSON reads any of the three forms.
func (d *ActionData) UnmarshalJSON(b []byte) error {
	tag, err := actionTag(b)
	if err != nil {
		return err
	}
	*d = ActionData{ActionType: tag}
	switch tag {
	case ActionToolConfirmation:
		var v toolConfirmationData
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		d.ID, d.ToolName, d.Arguments, d.Prompt = v.ID, v.ToolName, v.Arguments, v.Prompt
	case ActionElicitation:
		var v elicitationData
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		d.ID, d.Message, d.RequestedSchema = v.ID, v.Message, v.RequestedSchema
	case ActionElicitationResponse:
		var v elicitationResponseData
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		d.ID, d.UserData = v.ID, v.UserData
	default:
		return fmt.Errorf("conversation: unknown action type %q", tag)
	}
	return nil
}

// actionTag reads "actionType" with a key scan, or a full decode where the
// scan cannot be exact.
func actionTag(b []byte) (ActionType, error) {
	if obj, ok := scanObject(b, tagKeyActionType); ok {
		switch t := ActionType(obj.tag); t {
		case ActionToolConfirmation, ActionElicitation, ActionElicitationResponse:
			return t, nil // the typed decode that follows checks the syntax
		}
		if json.Valid(b) {
			return ActionType(obj.tag), nil
		}
	}
	var tag struct {
		ActionType ActionType `json:"actionType"`
	}
	if err := json.Unmarshal(b, &tag); err != nil {
		return "", err
	}
	return tag.ActionType, nil
}

// ToolConfirmation returns an actionRequired item asking to approve a call.
func ToolConfirmation(id, toolName string, args map[string]any, prompt *string) Content {
	return Content{Type: TypeActionRequired, ActionRequired: &ActionRequired{Data: ActionData{
		ActionType: ActionToolConfirmation, ID: id, ToolName: toolName, Arguments: args, Prompt: prompt,
	}}}
}

// Elicitation returns an actionRequired item asking the user for input.
func Elicitation(id, message string, schema json.RawMessage) Content {
	return Content{Type: TypeActionRequired, ActionRequired: &ActionRequired{Data: ActionData{
		ActionType: ActionElicitation, ID: id, Message: message, RequestedSchema: schema,
	}}}
}

// URLElicitation returns an actionRequired item sending the user to url
// (MCP's URL-mode elicitation elicitationID).
func URLElicitation(id, message, url, elicitationID string) Content {
	return Content{Type: TypeActionRequired, ActionRequired: &ActionRequired{Data: ActionData{
		ActionType: ActionElicitation, ID: id, Message: message, Mode: ElicitURLMode, URL: url, ElicitationID: elicitationID,
	}}}
}

// ElicitURLMode is the Mode of a URL-mode elicitation.
const ElicitURLMode = "url"

// ElicitationResponse returns the user's answer to an elicitation.
func ElicitationResponse(id string, userData json.RawMessage) Content {
	return Content{Type: TypeActionRequired, ActionRequired: &ActionRequired{Data: ActionData{
		ActionType: ActionElicitationResponse, ID: id, UserData: userData,
	}}}
}

func rawOrNull(r json.RawMessage) json.RawMessage {
	if len(r) == 0 {
		return json.RawMessage("null")
	}
	return r
}
