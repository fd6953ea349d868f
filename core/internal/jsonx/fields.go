package jsonx

import (
	"strconv"
	"strings"
)

// Narrow readers: the few typed reads an importer or a request makes of a
// value the Scanner has handed out (so already valid JSON), written out per
// field instead of found by reflection. They keep encoding/json's Unmarshal
// rules, so a reader built on them accepts, skips and fails exactly where
// the reflection decoder they replaced did:
// an object's keys name fields as encoding/json matches them (the exact
// name, else ignoring case; a later duplicate wins), null leaves a value
// alone (and sets a pointer, a slice or a map to nil), and a value of
// another type is reported (false from the Read functions; a *TypeError in
// encoding/json's wording from Mismatch, for the messages that quote it).
//
// Every function takes v, one JSON value, white space around it allowed.
// Text that is not JSON after all reads as a misfit (false), never a
// panic; run CheckSyntax first where a message must quote the syntax
// error.

// Match returns the index in names (ASCII field names) of the field an
// object key fills, as Unmarshal matches a key to struct fields: the exact
// name, else the first name equal to it ignoring case; -1 when no name
// matches.
func Match(key []byte, names []string) int {
	for i, name := range names {
		if string(key) == name {
			return i
		}
	}
	// A key of ASCII letters can only fold to a name of its length (the
	// names are ASCII; a non-ASCII key may fold to one, the long s "ſ" to
	// "s"), so most unknown keys are settled by their length.
	ascii := true
	for _, c := range key {
		ascii = ascii && c < 0x80
	}
	for i, name := range names {
		if (!ascii || len(key) == len(name)) && strings.EqualFold(string(key), name) {
			return i
		}
	}
	return -1
}

// ReadObject calls fn, in the object's order, for each member of the
// object v whose key matches one of names (see Match), with the field's
// index and the member's value; other members are skipped. It reports
// false, calling nothing, when v is not an object (and false, having
// called fn for the members before the fault, when v is not valid JSON
// after all).
func ReadObject(v []byte, names []string, fn func(field int, v []byte)) bool {
	s := Scanner{Data: v}
	s.SkipSpace()
	if s.Peek() != '{' {
		return false
	}
	err := s.Object(func(key []byte) error {
		field := Match(key, names)
		raw, _, err := s.Value()
		if err != nil {
			return err
		}
		if field >= 0 {
			fn(field, raw)
		}
		return nil
	})
	return err == nil && s.End() == nil
}

// ReadMembers calls fn for each member of the object v with its decoded
// key (only valid during the call) and its value. It reports false,
// calling nothing, when v is not an object (see ReadObject for invalid v).
func ReadMembers(v []byte, fn func(key []byte, v []byte)) bool {
	s := Scanner{Data: v}
	s.SkipSpace()
	if s.Peek() != '{' {
		return false
	}
	err := s.Object(func(key []byte) error {
		raw, _, err := s.Value()
		if err != nil {
			return err
		}
		fn(key, raw)
		return nil
	})
	return err == nil && s.End() == nil
}

// ReadArray calls fn for each element of the array v with its index and
// value. It reports false, calling nothing, when v is not an array (see
// ReadObject for invalid v).
func ReadArray(v []byte, fn func(i int, v []byte)) bool {
	s := Scanner{Data: v}
	s.SkipSpace()
	if s.Peek() != '[' {
		return false
	}
	err := s.Elements(func(i int, raw []byte, _ bool) error {
		fn(i, raw)
		return nil
	})
	return err == nil && s.End() == nil
}

// first returns the first byte of v after white space, 0 when none.
func first(v []byte) byte {
	for _, c := range v {
		if !IsSpace(c) {
			return c
		}
	}
	return 0
}

// trim returns v without the white space around it.
func trim(v []byte) []byte {
	for len(v) > 0 && IsSpace(v[0]) {
		v = v[1:]
	}
	for len(v) > 0 && IsSpace(v[len(v)-1]) {
		v = v[:len(v)-1]
	}
	return v
}

// IsNull reports whether v is the JSON null.
func IsNull(v []byte) bool { return string(trim(v)) == "null" }

// ReadString stores the string v in *dst. Null leaves *dst alone; any
// other value reports false.
func ReadString(v []byte, dst *string) bool {
	v = trim(v)
	switch first(v) {
	case '"':
		s, ok := ParseString(v)
		if ok {
			*dst = s
		}
		return ok
	case 'n':
		return IsNull(v)
	}
	return false
}

// ReadStringPtr stores the string v in **dst, allocating *dst when nil,
// or sets *dst to nil for null; any other value reports false (leaving a
// pointer to "" when *dst was nil, as Unmarshal does).
func ReadStringPtr(v []byte, dst **string) bool {
	if IsNull(v) {
		*dst = nil
		return true
	}
	if *dst == nil {
		*dst = new(string)
	}
	return first(v) == '"' && ReadString(v, *dst)
}

// ReadBool stores the bool v in *dst. Null leaves *dst alone; any other
// value reports false.
func ReadBool(v []byte, dst *bool) bool {
	switch string(trim(v)) {
	case "true":
		*dst = true
	case "false":
		*dst = false
	case "null":
	default:
		return false
	}
	return true
}

// number returns v's text when it is a JSON number.
func number(v []byte) (string, bool) {
	v = trim(v)
	s := Scanner{Data: v}
	if len(v) == 0 || s.skipNumber() != nil || s.Pos != len(v) {
		return "", false
	}
	return string(v), true
}

// readNumber stores the number v in *dst as parse reads its text. Null
// leaves *dst alone; another value, or one parse refuses, reports false.
func readNumber[T any](v []byte, dst *T, parse func(string) (T, error)) bool {
	if IsNull(v) {
		return true
	}
	lit, ok := number(v)
	if !ok {
		return false
	}
	n, err := parse(lit)
	if err != nil {
		return false
	}
	*dst = n
	return true
}

// ReadFloat stores the number v in *dst. Null leaves *dst alone; another
// value, or a number out of float64's range, reports false.
func ReadFloat(v []byte, dst *float64) bool {
	return readNumber(v, dst, func(lit string) (float64, error) { return strconv.ParseFloat(lit, 64) })
}

// ReadInt stores the number v in *dst when it is an integer that fits in
// an int (written without a fraction or an exponent, as Unmarshal wants
// it). Null leaves *dst alone; any other value reports false.
func ReadInt(v []byte, dst *int) bool {
	return readNumber(v, dst, func(lit string) (int, error) {
		n, err := strconv.ParseInt(lit, 10, strconv.IntSize)
		return int(n), err
	})
}

// ReadUint stores the number v in *dst when it is a non-negative integer
// that fits in a uint64 (written without a fraction or an exponent). Null
// leaves *dst alone; any other value reports false.
func ReadUint(v []byte, dst *uint64) bool {
	return readNumber(v, dst, func(lit string) (uint64, error) { return strconv.ParseUint(lit, 10, 64) })
}

// ReadIntPtr is ReadInt into a pointer: null sets it to nil; any other
// value allocates it first when nil (so a value that does not fit leaves
// a pointer to 0 and reports false, as Unmarshal does).
func ReadIntPtr(v []byte, dst **int) bool {
	if IsNull(v) {
		*dst = nil
		return true
	}
	if *dst == nil {
		*dst = new(int)
	}
	return ReadInt(v, *dst)
}

// ReadRaws stores the elements of the array v in *dst, as sub-slices of
// v (capped, so appending to one copies it): an empty array gives an empty
// slice, null nil; any other value reports false.
func ReadRaws(v []byte, dst *[]RawMessage) bool {
	switch first(v) {
	case 'n':
		if !IsNull(v) {
			return false
		}
		*dst = nil
		return true
	case '[':
		list := (*dst)[:0]
		if list == nil {
			list = []RawMessage{}
		}
		if !ReadArray(v, func(_ int, raw []byte) {
			list = append(list, raw[:len(raw):len(raw)])
		}) {
			return false
		}
		*dst = list
		return true
	}
	return false
}

// ReadRawMap stores the members of the object v in *dst (made when nil;
// a later duplicate key wins), values as sub-slices of v; null sets *dst
// to nil; any other value reports false.
func ReadRawMap(v []byte, dst *map[string]RawMessage) bool {
	switch first(v) {
	case 'n':
		if !IsNull(v) {
			return false
		}
		*dst = nil
		return true
	case '{':
		m := *dst
		if m == nil {
			m = map[string]RawMessage{}
		}
		if !ReadMembers(v, func(key []byte, raw []byte) {
			m[string(key)] = raw[:len(raw):len(raw)]
		}) {
			return false
		}
		*dst = m
		return true
	}
	return false
}

// ReadStrings stores the array of strings v in *dst (an empty array gives
// an empty slice, null nil). An element that is not a string is left ""
// and reports false, the others are read; a value that is not an array
// reports false.
func ReadStrings(v []byte, dst *[]string) bool {
	switch first(v) {
	case 'n':
		if !IsNull(v) {
			return false
		}
		*dst = nil
		return true
	case '[':
		list := (*dst)[:0]
		if list == nil {
			list = []string{}
		}
		old, ok := *dst, true
		if !ReadArray(v, func(i int, raw []byte) {
			var s string
			if i < len(old) {
				s = old[i] // null leaves an element alone
			}
			ok = ReadString(raw, &s) && ok
			list = append(list, s)
		}) {
			return false
		}
		*dst = list
		return ok
	}
	return false
}

// Mismatch returns the *TypeError Unmarshal gives for the JSON value v
// (a sub-slice of data, the text Unmarshal was given) that does not fit
// a Go value of type goType (as reflect names it: "[]jsonx.RawMessage",
// "string"). strct and field name the struct field it was read for, as
// in the message ("ocSession", "time.created"); both "" for a value that
// is not a field. Its offset is where Unmarshal would have stopped: after
// a string, number or bool, at the start of an object or array; a number
// that does not fit a numeric type is quoted ("number 1.5").
func Mismatch(data, v []byte, goType, strct, field string) *TypeError {
	v = trim(v)
	at := cap(data) - cap(v)
	if at < 0 || at > len(data) {
		at = 0
	}
	what := "number"
	switch first(v) {
	case '"':
		what = "string"
	case 't', 'f':
		what = "bool"
	case '{':
		what = "object"
	case '[':
		what = "array"
	}
	if what != "object" && what != "array" {
		at += len(v)
	}
	if what == "number" && numericType(goType) {
		what = "number " + string(v) // a number that does not fit the type
	}
	return &TypeError{Value: what, Type: goType, Offset: int64(at), Struct: strct, Field: field}
}

// ReadList stores the array v in *list as Unmarshal stores one in a slice
// of structs: each element is read by read into the element already at
// its index (a repeated key reads into the first's), else into a zero
// one; a null element is left as it is. Null sets *list to nil, an empty
// array gives an empty slice; a value that is not an array leaves *list
// alone. It reports false when v is not an array or null, or when read
// reported false for an element (the other elements are read all the
// same).
func ReadList[T any](v []byte, list *[]T, read func(el []byte, t *T) bool) bool {
	if IsNull(v) {
		*list = nil
		return true
	}
	old, ok := *list, true
	out := old[:0]
	if out == nil {
		out = []T{}
	}
	if !ReadArray(v, func(i int, el []byte) {
		var t T
		if i < len(old) {
			t = old[i]
		}
		if !IsNull(el) {
			ok = read(el, &t) && ok
		}
		out = append(out, t)
	}) {
		return false
	}
	*list = out
	return ok
}

// numericType reports whether goType names one of Go's integer or float
// types, whose misfits Unmarshal words with the number.
func numericType(goType string) bool {
	switch goType {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "float32", "float64":
		return true
	}
	return false
}

// RawArray parses data, a text that may not be JSON, as an array of raw
// values (sub-slices of data; null gives nil), with Unmarshal's errors
// into a []RawMessage: the *SyntaxError, or a *TypeError for a value that
// is not an array.
func RawArray(data []byte) ([]RawMessage, error) {
	if err := CheckSyntax(data); err != nil {
		return nil, err
	}
	var list []RawMessage
	if !ReadRaws(data, &list) {
		return nil, Mismatch(data, data, "[]jsonx.RawMessage", "", "")
	}
	return list, nil
}

// A TypeError is a JSON value that does not fit the Go value it is
// decoded into (json.UnmarshalTypeError).
type TypeError struct {
	Value  string // "string", "number 1.5", "object", …
	Type   string // the Go type it could not be assigned to ("[]string")
	Offset int64  // input bytes read when it was met
	Struct string // name of the struct type holding the field
	Field  string // dotted path of the field
}

// Error gives encoding/json's wording ("json: cannot unmarshal …").
func (e *TypeError) Error() string {
	if e.Struct != "" || e.Field != "" {
		return "json: cannot unmarshal " + e.Value + " into Go struct field " + e.Struct + "." + e.Field + " of type " + e.Type
	}
	return "json: cannot unmarshal " + e.Value + " into Go value of type " + e.Type
}
