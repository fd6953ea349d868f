package formats

import "github.com/sessiontree/sessiontree/core/internal/jsonx"

// rawList reads data, a whole file's text that may not be JSON, as an
// array of raw values (sub-slices of data): null gives nil. The error is
// the syntax error, or the *jsonx.TypeError of a value that is not an
// array, worded as jsonx.Unmarshal into a []jsonx.RawMessage words it
// (warnings quote it).
func rawList(data []byte) ([]jsonx.RawMessage, error) {
	if err := jsonx.CheckSyntax(data); err != nil {
		return nil, err
	}
	var list []jsonx.RawMessage
	if !jsonx.ReadRaws(data, &list) {
		return nil, jsonx.Mismatch(data, data, "[]jsonx.RawMessage", "", "")
	}
	return list, nil
}
