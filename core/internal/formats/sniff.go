package formats

import (
	"bytes"
	"errors"
	"io"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Sniff is what detection looks at: the shape of the data and the fields
// of its first record, read without parsing the rest.
type Sniff struct {
	// shape is '{' (one JSON object), '[' (a JSON array) or 'l' (JSON
	// lines: one object per line).
	Shape byte
	// keys are the fields of the object, of the array's first element or
	// of the first line; lines holds the fields of up to 5 first lines.
	Keys  map[string]jsonx.RawMessage
	lines []map[string]jsonx.RawMessage
}

// has reports whether the first record has every named field.
func (sn *Sniff) has(fields ...string) bool {
	for _, f := range fields {
		if _, ok := sn.Keys[f]; !ok {
			return false
		}
	}
	return true
}

// str returns the first record's field as a string ("" when absent or not
// a string).
func (sn *Sniff) str(field string) string {
	var s string
	_ = jsonx.Unmarshal(sn.Keys[field], &s)
	return s
}

// SniffData finds the shape of data and the fields of its first record,
// reading no further than that record.
func SniffData(data []byte) (*Sniff, error) {
	sn := &Sniff{}
	switch data[0] {
	case '[':
		sn.Shape = '['
		arr := &ArrayReader{Scanner: jsonx.Scanner{Data: data}}
		_ = arr.Start()
		first, _, err := arr.Next()
		if err != nil && arr.Scanner.Pos < len(data) {
			// A broken first element; an array cut short is reported
			// by the import itself.
			return nil, jsonx.TextError("import data is not valid JSON: %s", JSONFault(data))
		}
		sn.Keys, _ = RawFields(first)
		return sn, nil
	case '{':
	default:
		return nil, jsonx.TextError("import data is not valid JSON: %s", JSONFault(data))
	}
	sc := jsonx.Scanner{Data: data}
	keys := map[string]jsonx.RawMessage{}
	if err := sc.Members(func(key string, raw []byte, _ bool) error {
		keys[key] = raw
		return nil
	}); err != nil {
		return nil, jsonx.TextError("import data is not valid JSON: %s", JSONFault(data))
	}
	sn.Keys = keys
	end := sc.Pos
	rest := data[end:]
	next := bytes.TrimLeft(rest, " \t\r\n")
	if len(next) == 0 {
		sn.Shape = '{'
		return sn, nil
	}
	if !bytes.ContainsRune(rest[:len(rest)-len(next)], '\n') {
		off := len(data) - len(next)
		return nil, jsonx.TextError("import data is not valid JSON: invalid character %q after top-level value (%s)", next[0], lineColumn(data, off))
	}
	sn.Shape = 'l'
	sn.lines = append(sn.lines, sn.Keys)
	for pos, n := end, 0; pos < len(data) && n < 4; n++ {
		line, next := NextLine(data, pos)
		pos = next
		if fields, err := RawFields(line); err == nil {
			sn.lines = append(sn.lines, fields)
		}
	}
	return sn, nil
}

// RawFields returns the members of the JSON object raw, values as
// sub-slices of raw (not compacted); an error when raw is not one object.
func RawFields(raw []byte) (map[string]jsonx.RawMessage, error) {
	if len(raw) == 0 || raw[0] != '{' {
		return nil, jsonx.TextError("not an object")
	}
	sc := jsonx.Scanner{Data: raw}
	fields := make(map[string]jsonx.RawMessage, 8)
	if err := sc.Members(func(key string, v []byte, _ bool) error {
		fields[key] = v
		return nil
	}); err != nil {
		return nil, err
	}
	if err := sc.End(); err != nil {
		return nil, err
	}
	return fields, nil
}

// NextLine returns the line of data starting at pos, without its line end
// and surrounding white space, and the position after it.
func NextLine(data []byte, pos int) ([]byte, int) {
	end := bytes.IndexByte(data[pos:], '\n')
	if end < 0 {
		return bytes.TrimSpace(data[pos:]), len(data)
	}
	return bytes.TrimSpace(data[pos : pos+end]), pos + end + 1
}

// ArrayReader steps through a top-level JSON array one element at a time,
// validating as it goes (one pass, no copies: elements are sub-slices).
type ArrayReader struct {
	Scanner jsonx.Scanner // Data is the whole text; Pos is the bytes read
	begun   bool
}

// Start moves past the opening bracket; an error when the text does not
// start with one.
func (a *ArrayReader) Start() error {
	a.Scanner.SkipSpace()
	if a.Scanner.Peek() != '[' {
		return a.Scanner.Fail("array expected")
	}
	a.Scanner.Pos++
	return nil
}

// Next returns the next element, or nil after the closing bracket (when
// nothing but white space follows it).
func (a *ArrayReader) Next() ([]byte, bool, error) {
	s := &a.Scanner
	s.SkipSpace()
	switch {
	case s.Peek() == ']':
		s.Pos++
		if err := s.End(); err != nil {
			return nil, false, err
		}
		return nil, false, nil
	case a.begun && s.Peek() == ',':
		s.Pos++
	case a.begun:
		return nil, false, s.Fail("',' or ']' expected in array")
	}
	a.begun = true
	raw, spaced, err := s.Value()
	if err != nil {
		return nil, false, err
	}
	return raw, spaced, nil
}

// describeJSONError names the line and column where data stops being JSON.
// err is the error a decoder met somewhere in data; since a stream
// decoder's offsets are not positions in data, the whole of data is
// checked again to find the first fault (this runs only on failure).
func describeJSONError(data []byte, err error) string {
	if err == nil {
		return "malformed JSON"
	}
	var se *jsonx.SyntaxError
	if !errors.As(err, &se) && err != io.EOF && err != io.ErrUnexpectedEOF {
		return err.Error()
	}
	var sink jsonx.RawMessage
	if full := jsonx.Unmarshal(data, &sink); errors.As(full, &se) {
		if se.Error() == "unexpected end of JSON input" {
			return jsonx.Sprintf("%v (%s)", se, lineColumn(data, len(data)))
		}
		return jsonx.Sprintf("%v (%s)", se, lineColumn(data, int(se.Offset)-1))
	}
	return jsonx.Sprintf("unexpected end of JSON input (%s)", lineColumn(data, len(data)))
}

// compactSource returns valid JSON without insignificant white space,
// copying only when there is some.
func compactSource(raw []byte) jsonx.RawMessage {
	if jsonx.HasInsignificantSpace(raw) {
		return jsonx.CompactBytes(raw)
	}
	return raw
}

// JSONFault describes the first syntax error in data, which is known not to
// be valid JSON, with its line and column.
func JSONFault(data []byte) string {
	return describeJSONError(data, io.ErrUnexpectedEOF)
}

// lineColumn names the line and column (both from 1, columns in bytes) of
// the byte at index off of data.
func lineColumn(data []byte, off int) string {
	off = min(max(off, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte{'\n'})
	col := off + 1
	if nl := bytes.LastIndexByte(data[:off], '\n'); nl >= 0 {
		col = off - nl
	}
	return jsonx.Sprintf("line %d, column %d", line, col)
}
