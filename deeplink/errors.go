package deeplink

// Code is a deep link error code.
type Code string

const (
	CodeInvalidScheme    Code = "DEEPLINK_INVALID_SCHEME"
	CodeUnsupportedRoute Code = "DEEPLINK_UNSUPPORTED_ROUTE"
	CodeInvalidPayload   Code = "DEEPLINK_INVALID_PAYLOAD"
	CodeParseFailed      Code = "DEEPLINK_PARSE_FAILED"
	CodeSecurityBlocked  Code = "DEEPLINK_SECURITY_BLOCKED"
	CodeDispatchFailed   Code = "DEEPLINK_DISPATCH_FAILED"
)

// Error is a classified deep link failure. Message never contains secrets,
// tokens, header or env values, or the link itself.
type Error struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Is matches another *Error with the same code, so callers can write
// errors.Is(err, &deeplink.Error{Code: deeplink.CodeSecurityBlocked}).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

func newError(code Code, msg string) *Error { return &Error{Code: code, Message: msg} }
