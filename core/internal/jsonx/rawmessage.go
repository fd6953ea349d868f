package jsonx

import "errors"

// RawMessage is a raw encoded JSON value, kept byte for byte. It has the
// semantics of encoding/json's RawMessage (core does not link encoding/json
// into the wasm build, issue 8): encoding copies it unchanged (nil encodes
// as null), decoding stores a copy of the value's bytes. Callers using
// encoding/json (tests, native tools) get the same behaviour through
// MarshalJSON and UnmarshalJSON.
type RawMessage []byte

// MarshalJSON returns m, or null when m is nil.
func (m RawMessage) MarshalJSON() ([]byte, error) {
	if m == nil {
		return []byte("null"), nil
	}
	return m, nil
}

// UnmarshalJSON sets *m to a copy of data.
func (m *RawMessage) UnmarshalJSON(data []byte) error {
	if m == nil {
		return errors.New("core.RawMessage: UnmarshalJSON on nil pointer")
	}
	*m = append((*m)[0:0], data...)
	return nil
}
