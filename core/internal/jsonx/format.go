package jsonx

import (
	"errors"
	"io"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// A tiny formatter for the verbs core's messages use, giving exactly what
// fmt gives for them (fmt would add about 46 KB gzip of wasm, see doc.go):
// %s and %v (an error's Error(), a String() method, strings, integers, floats in
// %v's shortest form, bools, nil as <nil>), %q (strconv.Quote of the text;
// an integer is quoted as a character, as fmt does), %d (integers), %t
// (bools) and %%. No flags, widths or precisions. A verb that does not fit
// its argument gives fmt's %!verb(type=value) form, a missing argument
// %!verb(MISSING).

// Sprintf is fmt.Sprintf for the verbs above.
//
//go:noinline
func Sprintf(format string, args ...any) string {
	return string(appendf(nil, format, args...))
}

// TextError is fmt.Errorf without %w: an error with sprintf's text.
//
//go:noinline
func TextError(format string, args ...any) error {
	return errors.New(Sprintf(format, args...))
}

// Fprintf writes sprintf's text to w (a strings.Builder, bytes.Buffer, …).
func Fprintf(w io.StringWriter, format string, args ...any) {
	_, _ = w.WriteString(Sprintf(format, args...))
}

// appendf appends sprintf's text to b.
func appendf(b []byte, format string, args ...any) []byte {
	n := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b = append(b, c)
			continue
		}
		if i+1 == len(format) {
			b = append(b, "%!(NOVERB)"...)
			continue
		}
		i++
		verb := format[i]
		if verb == '%' {
			b = append(b, '%')
			continue
		}
		if n >= len(args) {
			b = append(b, "%!"...)
			b = append(b, verb)
			b = append(b, "(MISSING)"...)
			continue
		}
		b = appendArg(b, verb, args[n])
		n++
	}
	if n < len(args) {
		b = append(b, "%!(EXTRA "...)
		for k, a := range args[n:] {
			if k > 0 {
				b = append(b, ", "...)
			}
			b = append(b, typeName(a)...)
			b = append(b, '=')
			b = appendArg(b, 'v', a)
		}
		b = append(b, ')')
	}
	return b
}

func typeName(a any) string {
	if a == nil {
		return "<nil>"
	}
	return reflect.TypeOf(a).String()
}

type stringer interface{ String() string }

// appendArg formats one argument.
func appendArg(b []byte, verb byte, a any) []byte {
	if a == nil {
		if verb == 'v' {
			return append(b, "<nil>"...)
		}
		return append(append(append(b, "%!"...), verb), "(<nil>)"...)
	}
	if verb == 's' || verb == 'v' || verb == 'q' {
		var text string
		handled := true
		switch x := a.(type) {
		case error:
			text = x.Error()
		case stringer:
			text = x.String()
		default:
			handled = false
		}
		if handled {
			if verb == 'q' {
				return strconv.AppendQuote(b, text)
			}
			return append(b, text...)
		}
	}
	v := reflect.ValueOf(a)
	switch v.Kind() {
	case reflect.String:
		switch verb {
		case 's', 'v':
			return append(b, v.String()...)
		case 'q':
			return strconv.AppendQuote(b, v.String())
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		switch verb {
		case 'd', 'v':
			return strconv.AppendInt(b, v.Int(), 10)
		case 'q':
			return appendQuotedRune(b, v.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		switch verb {
		case 'd', 'v':
			return strconv.AppendUint(b, v.Uint(), 10)
		case 'q':
			if v.Uint() > utf8.MaxRune {
				return appendQuotedRune(b, -1)
			}
			return appendQuotedRune(b, int64(v.Uint()))
		}
	case reflect.Float32, reflect.Float64:
		if verb == 'v' {
			return strconv.AppendFloat(b, v.Float(), 'g', -1, v.Type().Bits())
		}
	case reflect.Bool:
		if verb == 't' || verb == 'v' {
			return strconv.AppendBool(b, v.Bool())
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 && verb == 's' {
			return append(b, v.Bytes()...)
		}
	}
	b = append(append(append(b, "%!"...), verb), '(')
	b = append(b, typeName(a)...)
	b = append(b, '=')
	if k := v.Kind(); k == reflect.String || k >= reflect.Int && k <= reflect.Float64 || k == reflect.Bool {
		b = appendArg(b, 'v', a)
	} else {
		b = append(b, '?')
	}
	return append(b, ')')
}

// appendQuotedRune quotes r as a Go character literal, as fmt's %q does
// for integers (values beyond Unicode become U+FFFD).
func appendQuotedRune(b []byte, r int64) []byte {
	if r < 0 || r > utf8.MaxRune {
		r = utf8.RuneError
	}
	return strconv.AppendQuoteRune(b, rune(r))
}
