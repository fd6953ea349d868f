// Package jsonx is sessiontree's JSON layer. It imports only the standard
// library, so that core's wasm build does not link encoding/json or fmt
// (measured in issue 14 on top of today's wasm: linking encoding/json's
// Marshal and Unmarshal adds 614 KB raw, 152 KB gzip -9; fmt.Sprintf 174 KB
// raw, 46 KB gzip -9).
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
//   - Decoding: the narrow readers (ReadObject, Match, ReadString,
//     ReadInt, ReadRaws, ReadList, …; fields.go), with which the importers
//     and requests read the few fields they need, written out per field
//     with encoding/json's rules (Mismatch words a misfit as
//     json.Unmarshal does, a *TypeError); RawArray; the Tokens reader
//     (json.Decoder's tokens); CompactRaw, Valid and CheckSyntax. There
//     is no reflection decoder: every reader names its fields. There is one grammar, the
//     Scanner's: every syntax error is a *SyntaxError with our own
//     message, the byte offset, and the line and column (from 1, columns
//     in bytes).
//   - RawMessage, and Sprintf, Fprintf and TextError (fmt's output for the
//     few verbs core uses).
//
// Offsets, lengths and sizes are in bytes unless a comment says otherwise;
// nothing here recurses over the nesting of its input except Marshal,
// whose depth the syntax check bounds.
package jsonx
