package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// Differential fuzz targets: encoding/json is the oracle (test-only; the
// package itself never imports it). make test-fuzz runs each for a few
// seconds; go test runs their seeds.
//
// What is held equal:
//   - Valid and json.Valid, on every input;
//   - CheckSyntax's error and encoding/json's syntax error: both or
//     neither, at the same byte (see syntaxErrorsDiffer for how the two
//     offsets relate), and for an ASCII offending byte the same quoted
//     character; the wording is our own;
//   - CompactRaw and json.Compact, byte for byte;
//   - Unmarshal and json.Unmarshal into any and into structs shaped like
//     core's: the same value, both failing or neither, the same type error
//     text;
//   - AppendString of any Go string decodes (with encoding/json) to the
//     string itself when it is valid UTF-8, else to the string with each
//     byte that is not UTF-8 replaced by U+FFFD (string([]rune(s))); Marshal
//     of a string gives encoding/json's bytes (HTML escaping off);
//   - the trusted path (Scanner.Valid, SkipValid) finds the same value as
//     the validating one on compact input, and ScanMembers the members
//     encoding/json finds (compacted) in UTF-8 input.

// seedShapes are inputs shaped like what the package reads: requests,
// snapshot nodes, import records, and broken variants of them.
var seedShapes = []string{
	`{"operation":"append","sessionId":"demo","message":{"role":"user","content":"hi"}}`,
	`{"operation":"search","query":"tea","limit":20,"roles":["user","assistant"]}`,
	`{"id":"a1b2c3d4","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"é \ud83d\ude00 \u2028"}]}}`,
	`{"mapping":{"n1":{"id":"n1","message":{"author":{"role":"user"},"create_time":1700000000.5,"content":{"content_type":"text","parts":["q"]}},"parent":null,"children":["n2"]}},"current_node":"n1","title":"t"}`,
	`{"type":"message","id":"e1","parentId":"d2","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"x"}}`,
	"{ \"a\" : [ 1 , -0.5e+10 , true , false , null ] ,\n \"b\" : { } }\n",
	`[1,2`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `{} x`, `"\x"`, "\"a\x01\"", `tru`, `-`, `1.e5`, `01`, `"\u12g4"`,
	"\"a\xffb\"", "\xef\xbb\xbf{}", `"\ud800"`, ``, ` `, `{"NAME":1}`, `1e999`, `[[[[[[[[]]]]]]]]`,
}

func addSeeds(f *testing.F) {
	for _, s := range seedShapes {
		f.Add([]byte(s))
	}
	for _, name := range []string{"../../testdata/entries.snapshot.json", "../../testdata/annotations.snapshot.json"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatalf("seed %s: %v", name, err)
		}
		f.Add(data)
		f.Add(data[:len(data)/2]) // cut off
	}
}

// syntaxErrorsDiffer compares got (ours, from CheckSyntax, Unmarshal or
// CompactRaw) with want (encoding/json's for the same data) and says how
// they differ, or "" when they agree. encoding/json's Offset counts the
// bytes read including the offending one; ours is the offset of that byte,
// so ours + 1 = theirs. At an unexpected end both are len(data); there
// encoding/json, which feeds a space at the end of input, may instead say
// "invalid character ' ' in literal true" or "… in numeric literal" (the
// text `tru`, `-`), where ours says "unexpected end of JSON input".
func syntaxErrorsDiffer(data []byte, got, want error) string {
	if (got == nil) != (want == nil) {
		return fmt.Sprintf("syntax of %q: error %v, encoding/json's %v", data, got, want)
	}
	if want == nil {
		return ""
	}
	var wse *json.SyntaxError
	if !errors.As(want, &wse) {
		return fmt.Sprintf("syntax of %q: encoding/json's error %v is no *json.SyntaxError", data, want)
	}
	se, ok := got.(*SyntaxError)
	if !ok {
		return fmt.Sprintf("syntax of %q: error %#v is no *SyntaxError", data, got)
	}
	wantMsg := wse.Error()
	if se.Offset == len(data) { // our unexpected end
		if se.Msg != "unexpected end of JSON input" || wse.Offset != int64(len(data)) ||
			wantMsg != "unexpected end of JSON input" && !strings.HasPrefix(wantMsg, "invalid character ' ' ") {
			return fmt.Sprintf("syntax of %q: %q at byte %d, encoding/json's %q after %d bytes", data, se.Msg, se.Offset, wantMsg, wse.Offset)
		}
	} else if int64(se.Offset)+1 != wse.Offset || wantMsg == "unexpected end of JSON input" {
		return fmt.Sprintf("syntax of %q: %q at byte %d, encoding/json's %q after %d bytes", data, se.Msg, se.Offset, wantMsg, wse.Offset)
	}
	line := 1 + bytes.Count(data[:se.Offset], []byte("\n"))
	col := se.Offset - bytes.LastIndexByte(data[:se.Offset], '\n')
	if se.Line != line || se.Column != col {
		return fmt.Sprintf("syntax of %q: byte %d at line %d, column %d, want line %d, column %d", data, se.Offset, se.Line, se.Column, line, col)
	}
	if se.Offset < len(data) && data[se.Offset] < utf8.RuneSelf && strings.HasPrefix(se.Msg, "invalid character ") {
		// encoding/json quotes an ASCII byte as strconv.QuoteRune does.
		q := strings.Fields(strings.TrimPrefix(wantMsg, "invalid character "))[0]
		if !strings.HasPrefix(se.Msg, "invalid character "+q+" ") {
			return fmt.Sprintf("syntax of %q: %q names another character than encoding/json's %q", data, se.Msg, wantMsg)
		}
	}
	return ""
}

// unmarshalErrorsDiffer compares Unmarshal's error with json.Unmarshal's:
// syntax errors as syntaxErrorsDiffer does, any other by its text.
func unmarshalErrorsDiffer(data []byte, got, want error) string {
	var wse *json.SyntaxError
	if errors.As(want, &wse) {
		return syntaxErrorsDiffer(data, got, want)
	}
	if (got == nil) != (want == nil) || want != nil && got.Error() != want.Error() {
		return fmt.Sprintf("unmarshal(%q): error %v, encoding/json's %v", data, got, want)
	}
	return ""
}

// FuzzValid holds Valid, CheckSyntax, CompactRaw and the trusted scan to
// encoding/json on any input.
func FuzzValid(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Valid(data), json.Valid(data); got != want {
			t.Fatalf("Valid(%q) = %v, want %v", data, got, want)
		}
		var sink json.RawMessage
		if msg := syntaxErrorsDiffer(data, CheckSyntax(data), json.Unmarshal(data, &sink)); msg != "" {
			t.Fatal(msg)
		}
		// json.Compact's syntax errors all have Offset 0 (it does not count
		// bytes), so only failing is compared: the place is checked above.
		var buf bytes.Buffer
		wantErr := json.Compact(&buf, data)
		got, err := CompactRaw(data)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("CompactRaw(%q): error %v, json.Compact's %v", data, err, wantErr)
		}
		if wantErr != nil {
			return
		}
		if !bytes.Equal(got, buf.Bytes()) {
			t.Fatalf("CompactRaw(%q) = %q, want %q", data, got, buf.Bytes())
		}
		if bytes.Equal(got, data) && len(data) > 0 && !IsSpace(data[0]) {
			s := Scanner{Data: got, Valid: true}
			if raw, _, _ := s.Value(); !bytes.Equal(raw, got) || s.Pos != len(got) {
				t.Fatalf("the trusted scan of %q reads %q, up to %d", got, raw, s.Pos)
			}
		}
		// ScanMembers hands out keys as written: a key that is not UTF-8
		// stays so (encoding/json turns its bad bytes into U+FFFD), by
		// design: keys are matched against ASCII names, and requests are
		// checked to be UTF-8 first. So keys are compared on UTF-8 input.
		if got[0] == '{' && utf8.Valid(data) {
			members, err := ScanMembers[RawMessage](data, false, nil)
			var want map[string]json.RawMessage
			if jerr := json.Unmarshal(data, &want); err != nil || jerr != nil || len(members) != len(want) {
				t.Fatalf("ScanMembers(%q) = %q, %v; encoding/json %q, %v", data, members, err, want, jerr)
			}
			for k, v := range want {
				var c bytes.Buffer
				_ = json.Compact(&c, v)
				if !bytes.Equal(members[k], c.Bytes()) {
					t.Fatalf("ScanMembers(%q)[%q] = %q, want %q", data, k, members[k], c.Bytes())
				}
			}
		}
	})
}

// piLineShape and chatgptNodeShape mirror the structs the importers fill
// (formats.piLine, formats.chatgptNode and chatgptMessage).
type piLineShape struct {
	Type                string     `json:"type"`
	ID                  *string    `json:"id"`
	ParentID            RawMessage `json:"parentId"`
	Timestamp           RawMessage `json:"timestamp"`
	Message             RawMessage `json:"message"`
	FirstKeptEntryIndex *int       `json:"firstKeptEntryIndex"`
}

type chatgptNodeShape struct {
	ID      string `json:"id"`
	Message *struct {
		Author *struct {
			Role string `json:"role"`
		} `json:"author"`
		CreateTime *float64 `json:"create_time"`
		Content    struct {
			ContentType string       `json:"content_type"`
			Parts       []RawMessage `json:"parts"`
		} `json:"content"`
	} `json:"message"`
	Parent   *string  `json:"parent"`
	Children []string `json:"children"`
}

// FuzzAppendString writes any Go string with the append helpers and reads
// it back with encoding/json.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "q\"b\\s/", "\b\f\n\r\t\x00\x1f\x7f", "é😀\u2028\u2029", "<&>", "a\xffb", "\xed\xa0\x80", "\uFFFD"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := s
		if !utf8.ValidString(s) {
			want = string([]rune(s)) // each byte that is not UTF-8 becomes U+FFFD
		}
		out := AppendString(nil, s)
		var back string
		if err := json.Unmarshal(out, &back); err != nil || back != want {
			t.Fatalf("AppendString(%q) = %s, which encoding/json reads as %q, %v; want %q", s, out, back, err, want)
		}
		if key := AppendKey(nil, s); string(key) != string(out)+":" {
			t.Fatalf("AppendKey(%q) = %s, want %s:", s, key, out)
		}
		if got, ok := ParseString(out); !ok || got != want {
			t.Fatalf("ParseString(%s) = %q, %v; want %q", out, got, ok, want)
		}
		var enc bytes.Buffer
		e := json.NewEncoder(&enc)
		e.SetEscapeHTML(false)
		if err := e.Encode(s); err != nil {
			t.Fatal(err)
		}
		if m, err := Marshal(s); err != nil || string(m)+"\n" != enc.String() {
			t.Fatalf("Marshal(%q) = %s, %v; encoding/json %s", s, m, err, enc.Bytes())
		}
		if ascii, ok := AppendASCII(nil, out, &ASCIIBudget{}); ok {
			var a string
			if err := json.Unmarshal(ascii, &a); err != nil || a != want {
				t.Fatalf("AppendASCII(%s) = %s, read as %q, %v; want %q", out, ascii, a, err, want)
			}
			for _, c := range ascii {
				if c >= utf8.RuneSelf {
					t.Fatalf("AppendASCII(%s) = %q is not ASCII", out, ascii)
				}
			}
		}
	})
}
