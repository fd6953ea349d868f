// Package jsonx is sessiontree's JSON layer. It imports only the standard
// library, so that core's wasm build does not link encoding/json or fmt
// (issue 8: about 280 KB and 170 KB gzip of wasm).
//
//   - Reading: Scanner, a byte-offset JSON scanner that hands out
//     sub-slices of its input (ScanMembers, ParseString, PlainString,
//     DecodeString for strings; SkipValid for text already known to be
//     valid), with word-at-a-time helpers (PlainRun, ValidUTF8).
//   - Writing: Append* helpers that append JSON to a byte slice and return
//     it (AppendString, AppendKey, AppendInt, AppendASCII for answers
//     escaped to ASCII), Marshal (encoding/json's bytes without HTML
//     escaping) and the Appender interface for values that write
//     themselves.
//   - Decoding: Unmarshal and the Tokens reader (encoding/json's results
//     and error wording, *SyntaxError and *TypeError), CompactRaw and
//     Valid (a port of encoding/json's scanner).
//   - RawMessage, and Sprintf, Fprintf and TextError (fmt's output for the
//     few verbs core uses).
//
// Offsets, lengths and sizes are in bytes unless a comment says otherwise;
// nothing here recurses over the nesting of its input except Marshal and
// Unmarshal, whose depth the syntax check bounds.
package jsonx
