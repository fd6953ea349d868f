package core

import (
	"errors"
	"strconv"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Small readers of one JSON value (a raw sub-slice the scanner handed
// out), for the narrow readers of internal requests: each takes exactly
// the type it names, null where it says so, and fails otherwise.

// errFieldType is what a field of the wrong type gives; the caller names
// the field in its own message.
var errFieldType = errors.New("a field has the wrong type")

// stringValue reads a JSON string; null reads as "" when nullOK.
func stringValue(raw []byte, nullOK bool) (string, error) {
	if nullOK && string(raw) == "null" {
		return "", nil
	}
	s, ok := jsonx.ParseString(raw)
	if !ok {
		return "", errFieldType
	}
	return s, nil
}

// nullableString reads a JSON string or null (nil).
func nullableString(raw []byte) (*string, error) {
	if string(raw) == "null" {
		return nil, nil
	}
	s, err := stringValue(raw, false)
	return &s, err
}

// intValue reads a JSON integer written without fraction or exponent.
func intValue(raw []byte) (int, error) {
	n, err := strconv.Atoi(string(raw))
	if err != nil {
		return 0, errFieldType
	}
	return n, nil
}
