package tree

import "github.com/sessiontree/sessiontree/core/internal/jsonx"

// Code is one of the six error codes of the envelope. They are the only codes
// any operation returns.
type Code string

// The error codes of SPEC.md.
const (
	// InvalidArgument: a malformed request or JSON, an unknown operation, a
	// missing or ill-typed field, a bad message, a bad name.
	InvalidArgument Code = "INVALID_ARGUMENT"
	// SessionNotFound: the named session does not exist.
	SessionNotFound Code = "SESSION_NOT_FOUND"
	// SessionAlreadyExists: create, fork, clone or import would reuse an id.
	SessionAlreadyExists Code = "SESSION_ALREADY_EXISTS"
	// NodeNotFound: the named node is not in the session.
	NodeNotFound Code = "NODE_NOT_FOUND"
	// InvalidSnapshot: snapshot.load was given something that is not a valid
	// version-1 snapshot; the message names the first fault.
	InvalidSnapshot Code = "INVALID_SNAPSHOT"
	// NotFound: an unknown branch or command.
	NotFound Code = "NOT_FOUND"
)

// Error is the error every operation returns: a code and a plain,
// lowercase message that names the field or node at fault.
//
// Two *Error values match under errors.Is when their codes are equal, so
// callers write errors.Is(err, core.ErrNodeNotFound).
type Error struct {
	Code    Code
	Message string
	// Reason is the failure's cause finer than its code, for a caller
	// that acts on it (see Reason); "" for most failures. The envelope
	// carries it as error.reason only when set.
	Reason Reason
	// Files is set by ImportFiles when no file gave a session: each file
	// with why nothing was read from it (the message joins the same), for
	// a caller that lists them one by one. The envelope carries it as
	// error.files only when set.
	Files []FileReport
}

// Error returns "CODE: message".
func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Sentinel errors for errors.Is; their messages are empty.
var (
	ErrInvalidArgument      = &Error{Code: InvalidArgument}
	ErrSessionNotFound      = &Error{Code: SessionNotFound}
	ErrSessionAlreadyExists = &Error{Code: SessionAlreadyExists}
	ErrNodeNotFound         = &Error{Code: NodeNotFound}
	ErrInvalidSnapshot      = &Error{Code: InvalidSnapshot}
	ErrNotFound             = &Error{Code: NotFound}
)

// Errorf and the other error constructors are kept out of line
// (go:noinline): they run only on failures, and inlining them at each of
// their hundreds of call sites cost about 16 KB gzip of wasm (issue 8).
//
//go:noinline
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: jsonx.Sprintf(format, args...)}
}

// Invalidf returns an INVALID_ARGUMENT *Error with the formatted message.
//
//go:noinline
func Invalidf(format string, args ...any) *Error {
	return Errorf(InvalidArgument, format, args...)
}

// Reason is the cause of a failure finer than its code, in the envelope
// as error.reason: a caller that acts on a cause reads this, never the
// message's wording. Most failures have none.
type Reason string

// FileReport says what became of one file: the tool that read it and how
// many sessions it gave, or Skipped, why nothing was read from it.
type FileReport struct {
	Path     string `json:"path"`
	Tool     string `json:"tool,omitempty"`
	Sessions int    `json:"sessions"`
	Skipped  string `json:"skipped,omitempty"`
}
