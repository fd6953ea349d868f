//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"
	"unsafe"

	"github.com/sessiontree/sessiontree/core"
	"github.com/sessiontree/sessiontree/core/wire"
)

// The conversions between JS values and what core takes and gives.

// uint8Array and uint8ClampedArray are the JS constructors of the byte
// arrays js.CopyBytesToGo and js.CopyBytesToJS take.
var (
	uint8Array        = js.Global().Get("Uint8Array")
	uint8ClampedArray = js.Global().Get("Uint8ClampedArray")
)

// argIs reports whether args[i] exists and has type t.
func argIs(args []js.Value, i int, t js.Type) bool {
	return i < len(args) && args[i].Type() == t
}

// argString returns args[i] when it is a string.
func argString(args []js.Value, i int) (string, bool) {
	if !argIs(args, i, js.TypeString) {
		return "", false
	}
	return args[i].String(), true
}

// argInt returns args[i] as an int (truncated toward zero) when it is a
// number, else 0 (an id that names nothing, a budget or size hint that
// means the default).
func argInt(args []js.Value, i int) int {
	if !argIs(args, i, js.TypeNumber) {
		return 0
	}
	return args[i].Int()
}

// argBytes returns the UTF-8 bytes of args[i], a string or a Uint8Array.
// Bytes cross with one copy and no transcoding; a string goes through
// js.Value.String (TextEncoder, then two copies into Go memory, and
// measured about twice the cost of bytes even for a 200-byte append), so
// the shim sends every request as bytes; strings still work for callers
// of the handle itself.
// argLayouts reads args[i], an array of cache and layout numbers in turn
// (at most 16 pairs; whole, non-negative), as wire.Layouts: none when
// the argument is missing or undefined; ok false for anything else.
func argLayouts(args []js.Value, i int) (held []wire.Layout, ok bool) {
	if i >= len(args) || args[i].IsUndefined() {
		return nil, true
	}
	a := args[i]
	if a.Type() != js.TypeObject || !a.InstanceOf(js.Global().Get("Array")) {
		return nil, false
	}
	n := a.Length()
	if n%2 != 0 || n > 32 {
		return nil, false
	}
	held = make([]wire.Layout, 0, n/2)
	for k := 0; k < n; k += 2 {
		c, l := a.Index(k), a.Index(k+1)
		if c.Type() != js.TypeNumber || l.Type() != js.TypeNumber || c.Float() < 0 || l.Float() < 0 {
			return nil, false
		}
		held = append(held, wire.Layout{Cache: uint64(c.Float()), Layout: uint64(l.Float())})
	}
	return held, true
}

func argBytes(args []js.Value, i int) ([]byte, bool) {
	if i >= len(args) {
		return nil, false
	}
	v := args[i]
	switch t := v.Type(); {
	case t == js.TypeString:
		// The string's bytes are used as they are (core never writes to a
		// request): no third copy.
		s := v.String()
		if s == "" {
			return nil, true
		}
		return unsafe.Slice(unsafe.StringData(s), len(s)), true
	case t != js.TypeObject || !v.InstanceOf(uint8Array):
		return nil, false
	}
	b := make([]byte, v.Length())
	js.CopyBytesToGo(b, v)
	return b, true
}

// bytesString returns b as a string without copying it; b must not be
// written to afterwards (core hands over a fresh envelope on every call).
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// badArgument is the INVALID_ARGUMENT envelope with message msg.
func badArgument(msg string) string {
	return string(core.ErrorEnvelope(&core.Error{Code: core.InvalidArgument, Message: msg}))
}

// lastColumns holds the buffers of the last context answered in columns,
// so the collector leaves them alone until the shim has read them (it does
// before it calls again).
var lastColumns *wire.Columns

// columnsHeader is the answer of the handle's context for a context in
// columns: {"ok":true,"columns":{"ascii":[address,bytes],"wide":[address,
// bytes],"rows":[address,count],"cache":id,…Head's members}}, where an
// address is a byte offset into the wasm memory (Go's pointers in wasm are
// such offsets), rows' count is in int32 (4-aligned, as Go aligns
// []int32), cache is wire.Columns.Cache, and the rest is
// wire.Columns.Head. The shim reads the buffers before
// the wasm runs again.
func columnsHeader(c *wire.Columns) string {
	span := func(b []byte, p unsafe.Pointer, n int) []byte {
		b = append(b, '[')
		b = strconv.AppendUint(b, uint64(uintptr(p)), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(n), 10)
		return append(b, ']')
	}
	h := append(make([]byte, 0, 128+len(c.Head)), `{"ok":true,"columns":{"ascii":`...)
	h = span(h, unsafe.Pointer(unsafe.SliceData(c.ASCII)), len(c.ASCII))
	h = append(h, `,"wide":`...)
	h = span(h, unsafe.Pointer(unsafe.SliceData(c.Wide)), len(c.Wide))
	h = append(h, `,"rows":`...)
	h = span(h, unsafe.Pointer(unsafe.SliceData(c.Rows)), len(c.Rows))
	h = append(h, `,"cache":`...)
	h = strconv.AppendUint(h, c.Cache, 10)
	h = append(h, ',')
	h = append(h, c.Head[1:]...)
	return bytesString(append(h, '}'))
}
