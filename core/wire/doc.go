// Package wire writes core.Store's answers in the two encodings the
// browser binding (package wasm) uses besides Call's JSON, which only pay
// in a browser:
//
//   - CallParsed: the envelope with every non-ASCII character escaped,
//     when that pays, for a caller that parses the answer at once
//     (a TextDecoder makes a string of ASCII about four times faster than
//     of UTF-8 with a few accents or emoji in it; see jsonx.AppendASCII);
//   - CallColumns: a context laid out in columns (Columns) for a caller
//     that builds the messages array from the bytes itself.
//
// The store knows nothing of these: its operations return values
// (core.Store.Run), and wire chooses how to write them. wire is pure Go
// and imports only core and core/internal/jsonx.
package wire
