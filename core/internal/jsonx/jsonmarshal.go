package jsonx

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A small reflection-based encoder that gives exactly the bytes
// encoding/json's Encoder gives with SetEscapeHTML(false) for the values
// operations return (encoding/json would add about 152 KB gzip of wasm,
// see doc.go). It knows what those values use: structs with `json:"name"`,
// `json:"name,omitempty"` and `json:"-"` tags (embedded structs are
// flattened), maps with string or integer keys (sorted), slices, arrays,
// pointers, interfaces, strings, bools, integers and floats, and types with
// a MarshalJSON method (RawMessage, Node, Tree, Context; its output is
// taken as is, where encoding/json would re-validate and compact it — all
// of core's are compact already). It recurses over the shape of a value,
// which is shallow for every operation's result; node chains are never
// nested values. []byte (base64 in encoding/json), channels, funcs and
// complex numbers are not supported and give an error.

// Appender is a value that appends its own JSON encoding to b, growing
// b once to the size it needs.
type Appender interface {
	AppendJSON(b []byte) []byte
}

type jsonMarshaler interface {
	MarshalJSON() ([]byte, error)
}

var (
	marshalerType = reflect.TypeFor[jsonMarshaler]()
	appenderType  = reflect.TypeFor[Appender]()
)

// Marshal encodes v like encoding/json without HTML escaping, so raw
// messages keep their exact bytes ("<" stays "<").
func Marshal(v any) ([]byte, error) {
	return appendValue(make([]byte, 0, 256), reflect.ValueOf(v))
}

func appendValue(b []byte, v reflect.Value) ([]byte, error) {
	if !v.IsValid() {
		return append(b, "null"...), nil
	}
	t := v.Type()
	if t.Implements(marshalerType) {
		if t.Kind() == reflect.Pointer && v.IsNil() {
			return append(b, "null"...), nil
		}
		if t.Implements(appenderType) {
			return v.Interface().(Appender).AppendJSON(b), nil
		}
		return appendMarshaler(b, v.Interface().(jsonMarshaler))
	}
	if t.Kind() != reflect.Pointer && v.CanAddr() && reflect.PointerTo(t).Implements(marshalerType) {
		p := v.Addr()
		if p.Type().Implements(appenderType) {
			return p.Interface().(Appender).AppendJSON(b), nil
		}
		return appendMarshaler(b, p.Interface().(jsonMarshaler))
	}
	switch v.Kind() {
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(b, v.Uint(), 10), nil
	case reflect.Float32, reflect.Float64:
		return appendFloat(b, v.Float(), t.Bits())
	case reflect.String:
		return appendStringEscaped(b, v.String(), true), nil
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		return appendValue(b, v.Elem())
	case reflect.Struct:
		return appendStruct(b, v)
	case reflect.Map:
		return appendMap(b, v)
	case reflect.Slice:
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		if t.Elem().Kind() == reflect.Uint8 {
			break
		}
		fallthrough
	case reflect.Array:
		b = append(b, '[')
		for i := range v.Len() {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendValue(b, v.Index(i)); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	return nil, errors.New("json: unsupported type: " + t.String())
}

func appendMarshaler(b []byte, m jsonMarshaler) ([]byte, error) {
	out, err := m.MarshalJSON()
	if err != nil {
		return nil, err
	}
	if len(out) == 0 { // encoding/json's compaction would refuse it
		return nil, errors.New("json: error calling MarshalJSON: unexpected end of JSON input")
	}
	return append(b, out...), nil
}

// appendFloat formats f as encoding/json does: the shortest representation,
// exponent form below 1e-6 and from 1e21 on (as ES6), NaN and ±Inf refused.
// It follows encoding/json's floatEncoder (encode.go, Go 1.26; Copyright
// The Go Authors, BSD-style licence in third_party/go/LICENSE).
func appendFloat(b []byte, f float64, bits int) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, errors.New("json: unsupported value: " + strconv.FormatFloat(f, 'g', -1, bits))
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if format == 'e' { // e-09 becomes e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// jsonField is one encoded field of a struct type.
type jsonField struct {
	index     []int
	name      string // the key
	key       string // `"name":`, escaped
	omitEmpty bool
}

// jsonFieldCache holds structFields' answers (a plain map under a mutex:
// sync.Map's generic internals cost more wasm than they save here).
var (
	jsonFieldMu    sync.Mutex
	jsonFieldCache = map[reflect.Type][]jsonField{}
)

// structFields lists the encoded fields of t in encoding/json's order,
// embedded structs without a tag name flattened in place.
func structFields(t reflect.Type) []jsonField {
	jsonFieldMu.Lock()
	defer jsonFieldMu.Unlock()
	if f, ok := jsonFieldCache[t]; ok {
		return f
	}
	var fields []jsonField
	type level struct {
		t     reflect.Type
		index []int
	}
	stack := []level{{t, nil}}
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var embedded []level
		for i := range l.t.NumField() {
			sf := l.t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			index := append(slices.Clip(l.index), i)
			if sf.Anonymous && name == "" {
				ft := sf.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					embedded = append(embedded, level{ft, index})
					continue
				}
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			fields = append(fields, jsonField{
				index:     index,
				name:      name,
				key:       string(appendStringEscaped(nil, name, true)) + ":",
				omitEmpty: opts == "omitempty" || strings.HasPrefix(opts, "omitempty,") || strings.Contains(opts, ",omitempty"),
			})
		}
		stack = append(stack, embedded...)
	}
	// encoding/json's order: by index sequence, so an embedded struct's
	// fields stand where it is embedded. (Its rules for two fields of one
	// name at different depths are not needed: no result type has them.)
	slices.SortFunc(fields, func(a, b jsonField) int { return slices.Compare(a.index, b.index) })
	jsonFieldCache[t] = fields
	return fields
}

func appendStruct(b []byte, v reflect.Value) ([]byte, error) {
	b = append(b, '{')
	first := true
	for _, f := range structFields(v.Type()) {
		fv, ok := fieldByIndex(v, f.index)
		if !ok || f.omitEmpty && isEmptyValue(fv) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, f.key...)
		var err error
		if b, err = appendValue(b, fv); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// fieldByIndex is v.FieldByIndex that reports a nil embedded pointer as
// absent instead of panicking.
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, bool) {
	for k, i := range index {
		if k > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(i)
	}
	return v, true
}

func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

func appendMap(b []byte, v reflect.Value) ([]byte, error) {
	if v.IsNil() {
		return append(b, "null"...), nil
	}
	type kv struct {
		key string
		val reflect.Value
	}
	entries := make([]kv, 0, v.Len())
	for it := v.MapRange(); it.Next(); {
		k := it.Key()
		var key string
		switch k.Kind() {
		case reflect.String:
			key = k.String()
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			key = strconv.FormatInt(k.Int(), 10)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			key = strconv.FormatUint(k.Uint(), 10)
		default:
			return nil, errors.New("json: unsupported type: " + v.Type().String())
		}
		entries = append(entries, kv{key, it.Value()})
	}
	slices.SortFunc(entries, func(a, b kv) int { return strings.Compare(a.key, b.key) })
	b = append(b, '{')
	for i, e := range entries {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendStringEscaped(b, e.key, true)
		b = append(b, ':')
		var err error
		if b, err = appendValue(b, e.val); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}
