package tree

import "github.com/sessiontree/sessiontree/core/internal/jsonx"

// RawMessage is a raw encoded JSON value, kept byte for byte (see
// jsonx.RawMessage): encoding copies it unchanged (nil encodes as null),
// decoding stores a copy of the value's bytes, with encoding/json and with
// core's own encoder alike.
type RawMessage = jsonx.RawMessage
