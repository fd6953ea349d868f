package jsonx

import "strings"

// ErrorText turns a decoding error of this package into plain text: a
// *SyntaxError gives its message with line and column, a *TypeError its
// plain words (TypeError.Plain) with the byte offset where the value
// stands ("… at byte N"); any other error gives its Error().
func ErrorText(err error) string {
	if e, ok := err.(*TypeError); ok {
		return Sprintf("%s at byte %d", e.Plain(), e.Offset)
	}
	return err.Error()
}

// Plain says what e found and what was expected in words a person reads,
// naming the field but no Go type: `"time.created" must be a number, not
// a string`; `the value must be an array, not an object` (no field);
// `"n" must be a whole number in range, not the number 1.5`. Error keeps
// encoding/json's wording, which the decoder's tests compare against.
func (e *TypeError) Plain() string {
	subject := "the value"
	if e.Field != "" {
		subject = Sprintf("%q", e.Field)
	}
	return subject + " must be " + typeWords(e.Type) + ", not " + valueWords(e.Value)
}

// typeWords names what a Go type of TypeError.Type holds, as a JSON value.
func typeWords(goType string) string {
	goType = strings.TrimLeft(goType, "*")
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case goType == "string":
		return "a string"
	case goType == "bool":
		return "true or false"
	case goType == "float32" || goType == "float64":
		return "a number in range"
	case numericType(goType):
		return "a whole number in range"
	}
	return "an object" // a struct or a map
}

// valueWords names a JSON value as TypeError.Value gives it.
func valueWords(v string) string {
	switch v {
	case "string", "number":
		return "a " + v
	case "bool":
		return "true or false"
	case "object", "array":
		return "an " + v
	}
	if n, ok := strings.CutPrefix(v, "number "); ok {
		return "the number " + n
	}
	return v
}
