package jsonx

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
)

// A small reflection-based decoder that does what json.Unmarshal does for
// the values the ChatGPT reader decodes (the other readers and the
// requests use the narrow readers of fields.go, which keep its rules;
// encoding/json would add about 152 KB gzip of wasm, see doc.go): structs
// with `json` tags (keys matched exactly, else case-insensitively),
// strings, bools, numbers into floats
// and integers, slices, arrays, maps with string or integer keys, pointers,
// `any` (map[string]any, []any, float64, string, bool, nil) and types with
// an UnmarshalJSON method (RawMessage). As json.Unmarshal: the whole input
// is checked first (CheckSyntax: a *SyntaxError, with our own message and
// the line and column, where encoding/json rejects the same inputs); null
// sets pointers, maps, slices and interfaces to nil and leaves other values
// alone; a value of the wrong type is skipped with a *TypeError
// (worded as encoding/json's) and decoding goes on, the first such error
// being returned. It recurses over nesting, which the syntax check bounds at
// MaxDepth (10,000) levels as encoding/json does. []byte from base64 is not
// supported.

type jsonUnmarshaler interface {
	UnmarshalJSON([]byte) error
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

// Unmarshal decodes the JSON value data into v, which must be a non-nil
// pointer, as json.Unmarshal does.
func Unmarshal(data []byte, v any) error {
	if err := CheckSyntax(data); err != nil {
		return err
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return errors.New("json: Unmarshal(non-pointer or nil " + reflect.TypeOf(v).String() + ")")
	}
	d := jsonDecoder{data: data}
	d.value(rv)
	return d.err
}

type jsonDecoder struct {
	data   []byte
	pos    int
	err    error    // the first type error
	strct  string   // innermost struct type being filled, for errors
	fields []string // field path, for errors
}

func (d *jsonDecoder) skipSpace() {
	for d.pos < len(d.data) && IsSpace(d.data[d.pos]) {
		d.pos++
	}
}

// skip moves past one (valid) value and returns its bytes.
func (d *jsonDecoder) skip() []byte {
	s := Scanner{Data: d.data, Pos: d.pos}
	raw, _, _ := s.Value()
	d.pos = s.Pos
	return raw
}

func (d *jsonDecoder) typeError(what string, t reflect.Type) {
	if d.err == nil {
		d.err = &TypeError{Value: what, Type: t.String(), Offset: int64(d.pos), Struct: d.strct, Field: strings.Join(d.fields, ".")}
	}
}

// indirect walks down v, allocating nil pointers, until it reaches a
// non-pointer or a type with UnmarshalJSON (encoding/json's indirect).
// decodingNull stops at the last settable pointer, so null can clear it.
func indirect(v reflect.Value, decodingNull bool) (jsonUnmarshaler, reflect.Value) {
	if v.Kind() != reflect.Pointer && v.Type().Name() != "" && v.CanAddr() {
		v = v.Addr()
	}
	for {
		if v.Kind() == reflect.Interface && !v.IsNil() {
			if e := v.Elem(); e.Kind() == reflect.Pointer && !e.IsNil() && (!decodingNull || e.Elem().Kind() == reflect.Pointer) {
				v = e
				continue
			}
		}
		if v.Kind() != reflect.Pointer {
			return nil, v
		}
		if decodingNull && v.CanSet() {
			return nil, v
		}
		if v.Elem().Kind() == reflect.Interface && v.Elem().Elem().Equal(v) {
			return nil, v.Elem()
		}
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		if v.Type().NumMethod() > 0 && v.CanInterface() {
			if u, ok := v.Interface().(jsonUnmarshaler); ok {
				return u, reflect.Value{}
			}
		}
		v = v.Elem()
	}
}

func isEmptyInterface(v reflect.Value) bool {
	return v.Kind() == reflect.Interface && v.NumMethod() == 0
}

// value decodes the value at pos into v.
func (d *jsonDecoder) value(v reflect.Value) {
	d.skipSpace()
	c := d.data[d.pos]
	u, v := indirect(v, c == 'n')
	if u != nil {
		if err := u.UnmarshalJSON(d.skip()); err != nil && d.err == nil {
			d.err = err
		}
		return
	}
	switch c {
	case 'n':
		d.pos += 4
		switch v.Kind() {
		case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Slice:
			v.SetZero()
		}
	case '{':
		d.object(v)
	case '[':
		d.array(v)
	case '"':
		s := Scanner{Data: d.data, Pos: d.pos}
		escaped, _ := s.skipString()
		str := DecodeString(d.data[d.pos:s.Pos], escaped)
		d.pos = s.Pos
		switch {
		case v.Kind() == reflect.String:
			v.SetString(str)
		case isEmptyInterface(v):
			v.Set(reflect.ValueOf(str))
		default:
			d.typeError("string", v.Type())
		}
	case 't', 'f':
		b := c == 't'
		d.pos += 4
		if !b {
			d.pos++
		}
		switch {
		case v.Kind() == reflect.Bool:
			v.SetBool(b)
		case isEmptyInterface(v):
			v.Set(reflect.ValueOf(b))
		default:
			d.typeError("bool", v.Type())
		}
	default:
		d.number(v)
	}
}

func (d *jsonDecoder) number(v reflect.Value) {
	s := Scanner{Data: d.data, Pos: d.pos}
	_ = s.skipNumber()
	lit := string(d.data[d.pos:s.Pos])
	d.pos = s.Pos
	switch v.Kind() {
	case reflect.Interface:
		if v.NumMethod() != 0 {
			d.typeError("number", v.Type())
			return
		}
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil {
			d.typeError("number "+lit, reflect.TypeFor[float64]())
			return
		}
		v.Set(reflect.ValueOf(f))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(lit, 10, 64)
		if err != nil || v.OverflowInt(n) {
			d.typeError("number "+lit, v.Type())
			return
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n, err := strconv.ParseUint(lit, 10, 64)
		if err != nil || v.OverflowUint(n) {
			d.typeError("number "+lit, v.Type())
			return
		}
		v.SetUint(n)
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(lit, v.Type().Bits())
		if err != nil || v.OverflowFloat(f) {
			d.typeError("number "+lit, v.Type())
			return
		}
		v.SetFloat(f)
	default:
		d.typeError("number", v.Type())
	}
}

// members calls fn with each decoded key of the object at pos, fn decoding
// the value.
func (d *jsonDecoder) members(fn func(key string)) {
	d.pos++ // '{'
	for {
		d.skipSpace()
		if d.data[d.pos] == '}' {
			d.pos++
			return
		}
		if d.data[d.pos] == ',' {
			d.pos++
			d.skipSpace()
		}
		s := Scanner{Data: d.data, Pos: d.pos}
		escaped, _ := s.skipString()
		key := DecodeString(d.data[d.pos:s.Pos], escaped)
		d.pos = s.Pos
		d.skipSpace()
		d.pos++ // ':'
		fn(key)
	}
}

// elements calls fn for each element of the array at pos, fn decoding it.
func (d *jsonDecoder) elements(fn func(i int)) int {
	d.pos++ // '['
	for i := 0; ; i++ {
		d.skipSpace()
		if d.data[d.pos] == ']' {
			d.pos++
			return i
		}
		if d.data[d.pos] == ',' {
			d.pos++
		}
		fn(i)
	}
}

func (d *jsonDecoder) object(v reflect.Value) {
	t := v.Type()
	switch {
	case isEmptyInterface(v):
		v.Set(reflect.ValueOf(d.anyValue()))
	case v.Kind() == reflect.Map:
		kk := t.Key().Kind()
		if kk != reflect.String && !(kk >= reflect.Int && kk <= reflect.Uintptr) {
			d.typeError("object", t)
			d.skip()
			return
		}
		if v.IsNil() {
			v.Set(reflect.MakeMap(t))
		}
		d.members(func(key string) {
			elem := reflect.New(t.Elem()).Elem()
			d.value(elem)
			var kv reflect.Value
			switch {
			case kk == reflect.String:
				kv = reflect.ValueOf(key).Convert(t.Key())
			case kk <= reflect.Int64:
				n, err := strconv.ParseInt(key, 10, 64)
				if err != nil || reflect.Zero(t.Key()).OverflowInt(n) {
					d.typeError("number "+key, t.Key())
					return
				}
				kv = reflect.ValueOf(n).Convert(t.Key())
			default:
				n, err := strconv.ParseUint(key, 10, 64)
				if err != nil || reflect.Zero(t.Key()).OverflowUint(n) {
					d.typeError("number "+key, t.Key())
					return
				}
				kv = reflect.ValueOf(n).Convert(t.Key())
			}
			v.SetMapIndex(kv, elem)
		})
	case v.Kind() == reflect.Struct:
		fields := structFields(t)
		outer, depth := d.strct, len(d.fields)
		d.members(func(key string) {
			f := fieldNamed(fields, key)
			if f == nil {
				d.skip()
				return
			}
			fv := v
			for k, i := range f.index {
				if k > 0 && fv.Kind() == reflect.Pointer {
					if fv.IsNil() {
						if !fv.CanSet() {
							d.skip()
							return
						}
						fv.Set(reflect.New(fv.Type().Elem()))
					}
					fv = fv.Elem()
				}
				fv = fv.Field(i)
			}
			d.strct = t.Name()
			d.fields = append(d.fields[:depth], f.name)
			d.value(fv)
			d.strct, d.fields = outer, d.fields[:depth]
		})
	default:
		d.typeError("object", t)
		d.skip()
	}
}

// fieldNamed finds the field for key: its exact name, else the first whose
// name matches ignoring case (as encoding/json).
func fieldNamed(fields []jsonField, key string) *jsonField {
	for i := range fields {
		if fields[i].name == key {
			return &fields[i]
		}
	}
	for i := range fields {
		if strings.EqualFold(fields[i].name, key) {
			return &fields[i]
		}
	}
	return nil
}

func (d *jsonDecoder) array(v reflect.Value) {
	switch v.Kind() {
	case reflect.Interface:
		if v.NumMethod() != 0 {
			break
		}
		v.Set(reflect.ValueOf(d.anyValue()))
		return
	case reflect.Slice:
		n := d.elements(func(i int) {
			if i >= v.Len() {
				v.Grow(1)
				v.SetLen(i + 1)
			}
			d.value(v.Index(i))
		})
		if n < v.Len() {
			v.SetLen(n)
		}
		if n == 0 && v.IsNil() {
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		}
		return
	case reflect.Array:
		n := d.elements(func(i int) {
			if i < v.Len() {
				d.value(v.Index(i))
			} else {
				d.skip()
			}
		})
		for i := n; i < v.Len(); i++ {
			v.Index(i).SetZero()
		}
		return
	}
	d.typeError("array", v.Type())
	d.skip()
}

// anyValue decodes the value at pos as json.Unmarshal does into an `any`.
func (d *jsonDecoder) anyValue() any {
	d.skipSpace()
	switch d.data[d.pos] {
	case '{':
		m := map[string]any{}
		d.members(func(key string) { m[key] = d.anyValue() })
		return m
	case '[':
		a := []any{}
		d.elements(func(int) { a = append(a, d.anyValue()) })
		return a
	}
	var x any
	d.value(reflect.ValueOf(&x).Elem())
	return x
}
