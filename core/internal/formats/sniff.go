package formats

import (
	"bytes"
	"slices"
	"strings"

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
	// Text is the start of data that is not JSON (Shape 't', text a
	// format with a Text reader detects; see sniffText).
	Text []byte
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
	_ = jsonx.ReadString(sn.Keys[field], &s)
	return s
}

// SniffData finds the shape of data and the fields of its first record,
// reading no further than that record. JSON lines whose first line is
// damaged (cut off, garbled) are still JSON lines when most of the lines
// after it are objects (sniffPastDamage): the line readers then skip line
// 1 with a warning, as any other damaged line, instead of the whole file
// failing. Errors: the data is not JSON, JSON lines or a text format.
func SniffData(data []byte) (*Sniff, error) {
	sn, err := sniffFirst(data)
	// A first line that is a whole JSON value but no object ("[1,2,3]")
	// reads as an array holding none; the rest then is not an array.
	damaged := err != nil || (sn.Shape == '[' && sn.Keys == nil && jsonx.CheckSyntax(data) != nil)
	if damaged {
		if past := sniffPastDamage(data); past != nil {
			return past, nil
		}
	}
	return sn, err
}

// linesPastDamage is how many lines after a damaged first line
// sniffPastDamage looks at.
const linesPastDamage = 5

// sniffPastDamage reads data as JSON lines whose first line is damaged:
// of the (up to linesPastDamage) non-empty lines after it, more than half
// must be JSON objects, the first of them the record detection reads. A
// pretty-printed JSON document has few lines that are whole objects, so
// it is never taken for lines. Nil when data is not such lines.
func sniffPastDamage(data []byte) *Sniff {
	_, pos := NextLine(data, 0)
	var objects []map[string]jsonx.RawMessage
	seen := 0
	for pos < len(data) && seen < linesPastDamage {
		line, next := NextLine(data, pos)
		pos = next
		if len(line) == 0 {
			continue
		}
		seen++
		if fields, err := RawFields(line); err == nil {
			objects = append(objects, fields)
		}
	}
	if len(objects) == 0 || 2*len(objects) <= seen {
		return nil
	}
	return &Sniff{Shape: 'l', Keys: objects[0], lines: objects}
}

// sniffFirst is SniffData without its reading past a damaged first line.
func sniffFirst(data []byte) (*Sniff, error) {
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
		if sn := sniffText(data); sn != nil {
			return sn, nil
		}
		if jsonx.Valid(data) {
			return nil, jsonx.TextError("import data must be a JSON object, an array or JSON lines")
		}
		// Not even the start of JSON (a Markdown note, a text file, a
		// binary file): say what it is not and how it begins, keeping the
		// JSON reader's fault for a JSON file with a stray first character.
		if !strings.ContainsRune(`"-0123456789tfn`, rune(data[0])) {
			return nil, jsonx.TextError("import data is not JSON, JSON lines or an Aider chat history: it begins %q (as JSON: %s)", firstWords(data), JSONFault(data))
		}
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
	// More after the object on the same line, or after an object that
	// spans lines (a JSON line is one line): a document with something
	// after it (junk, a file cut and padded), not JSON lines.
	if !bytes.ContainsRune(rest[:len(rest)-len(next)], '\n') || bytes.ContainsRune(data[:end], '\n') {
		return nil, jsonx.TextError("import data is not valid JSON: %s", sc.End())
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
		return nil, false, s.Unexpected("after array element, expected ',' or ']'")
	}
	a.begun = true
	raw, spaced, err := s.Value()
	if err != nil {
		return nil, false, err
	}
	return raw, spaced, nil
}

// compactSource returns valid JSON without insignificant white space,
// copying only when there is some.
func compactSource(raw []byte) jsonx.RawMessage {
	if jsonx.HasInsignificantSpace(raw) {
		return jsonx.CompactBytes(raw)
	}
	return raw
}

// firstWords returns the start of data for a message: its first line, at
// most 24 characters of it (whole UTF-8 characters; bytes that are not
// UTF-8 as U+FFFD).
func firstWords(data []byte) string {
	line, _, _ := bytes.Cut(data, []byte{'\n'})
	s := strings.ToValidUTF8(strings.TrimRight(string(line), "\r"), "\uFFFD")
	if r := []rune(s); len(r) > 24 {
		s = string(r[:24]) + "…"
	}
	return s
}

// JSONFault describes the first syntax error in data, which is known not to
// be valid JSON: jsonx.CheckSyntax's message with its line and column.
func JSONFault(data []byte) string {
	if err := jsonx.CheckSyntax(data); err != nil {
		return err.Error()
	}
	return "no syntax error found" // data was valid JSON after all
}

// Undetected describes data that no importer detects: what it looks like
// (its shape and the keys of its first record, up to 12, sorted; for JSON
// lines the first line's) and what each format that was tried looks for.
// It is the reason of the import's error.
func Undetected(sn *Sniff) string {
	keys := func(m map[string]jsonx.RawMessage) string {
		if len(m) == 0 {
			return "no keys"
		}
		names := make([]string, 0, len(m))
		for k := range m {
			names = append(names, jsonx.Sprintf("%q", k))
		}
		slices.Sort(names)
		more := ""
		if len(names) > 12 {
			more = jsonx.Sprintf(" and %d more", len(names)-12)
			names = names[:12]
		}
		return "the keys " + strings.Join(names, ", ") + more
	}
	var looks string
	switch sn.Shape {
	case '{':
		looks = "a JSON object with " + keys(sn.Keys)
	case '[':
		looks = "a JSON array whose first element has " + keys(sn.Keys)
		if sn.Keys == nil {
			looks = "a JSON array whose first element is not an object"
		}
	default:
		looks = jsonx.Sprintf("JSON lines (%d read) whose first line has %s", len(sn.lines), keys(sn.Keys))
	}
	tried := make([]string, 0, len(Importers))
	for _, im := range Importers {
		tried = append(tried, im.Name+" ("+im.Looks+")")
	}
	return "it is " + looks + "; tried: " + strings.Join(tried, "; ")
}
