package jsonx

import "strconv"

// Delim is a delimiter token: '[', ']', '{' or '}' (json.Delim).
type Delim byte

// String returns the delimiter as a one-character string.
func (d Delim) String() string { return string(rune(d)) }

// Tokens reads a JSON text token by token, as json.Decoder's Token,
// more and Decode(&RawMessage) do (commas and colons are skipped), for
// walks that must not recurse or re-read a subtree.
type Tokens struct{ s Scanner }

// NewTokens returns a Tokens reading data from its first byte.
func NewTokens(data []byte) *Tokens { return &Tokens{s: Scanner{Data: data}} }

// sep skips white space and one ',' or ':' with the white space after it.
func (t *Tokens) sep() {
	t.s.SkipSpace()
	if c := t.s.Peek(); c == ',' || c == ':' {
		t.s.Pos++
		t.s.SkipSpace()
	}
}

// More reports whether the current array or object has another element.
func (t *Tokens) More() bool {
	t.sep()
	c := t.s.Peek()
	return t.s.Pos < len(t.s.Data) && c != ']' && c != '}'
}

// Peek returns the first byte of the next token without reading it
// ('{', '[', '"', a digit, 't', ']', …; 0 at the end of the text).
func (t *Tokens) Peek() byte {
	t.sep()
	return t.s.Peek()
}

// Token returns the next token: a Delim, or a string, float64, bool or
// nil for a scalar (an object key is a string).
func (t *Tokens) Token() (any, error) {
	t.sep()
	switch c := t.s.Peek(); c {
	case '[', ']', '{', '}':
		t.s.Pos++
		return Delim(c), nil
	}
	raw, err := t.Raw()
	if err != nil {
		return nil, err
	}
	return scalar(raw)
}

// scalar decodes the valid scalar raw as Unmarshal does into an `any`: a
// string, a float64 (a number out of its range is a *TypeError), a bool
// or nil.
func scalar(raw []byte) (any, error) {
	switch raw[0] {
	case '"':
		s, _ := ParseString(raw)
		return s, nil
	case 't':
		return true, nil
	case 'f':
		return false, nil
	case 'n':
		return nil, nil
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return nil, &TypeError{Value: "number " + string(raw), Type: "float64", Offset: int64(len(raw))}
	}
	return f, nil
}

// Raw returns the bytes of the next whole value.
func (t *Tokens) Raw() (RawMessage, error) {
	t.sep()
	raw, _, err := t.s.Value()
	if err != nil {
		return nil, err
	}
	return raw, nil
}
