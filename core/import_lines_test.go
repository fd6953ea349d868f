package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// importAnswer imports data as format and returns what the import
// answers: its report (or error) and the snapshot.save answer of every
// session it made, as TestFixtureSnapshotsGolden writes them.
func importAnswer(tb testing.TB, data []byte, format string) string {
	tb.Helper()
	st := testStore(tb)
	res, err := st.Import(data, format)
	if err != nil {
		return "error: " + string(err.Code) + ": " + err.Message
	}
	var out strings.Builder
	report, merr := jsonx.Marshal(res)
	if merr != nil {
		tb.Fatal(merr)
	}
	out.Write(report)
	for _, s := range res.Sessions {
		out.WriteByte('\n')
		out.Write(st.Call([]byte(`{"operation":"snapshot.save","sessionId":` + string(jsonx.AppendString(nil, s.SessionID)) + `}`)))
	}
	return out.String()
}

// spacedLines returns data with a space after every ',', ':', '{' and '['
// outside strings on each line after the first non-blank one that is
// valid JSON (the first, hashed, names a file without a session id): the same records,
// which each reader must import as it imports the compact lines (the
// message and the line are then compacted, not taken as they stand).
func spacedLines(data []byte) []byte {
	var out []byte
	seen := false // the first line that is not blank, which stays as it is
	for pos := 0; pos < len(data); {
		end := bytes.IndexByte(data[pos:], '\n')
		if end < 0 {
			end = len(data) - pos
		}
		line := data[pos : pos+end]
		first := !seen && len(bytes.TrimSpace(line)) > 0
		seen = seen || first
		pos += end + 1
		if first || !jsonx.Valid(line) {
			out = append(out, line...)
		} else {
			inString, escaped := false, false
			for _, c := range line {
				out = append(out, c)
				switch {
				case escaped:
					escaped = false
				case inString && c == '\\':
					escaped = true
				case c == '"':
					inString = !inString
				case !inString && (c == ',' || c == ':' || c == '{' || c == '['):
					out = append(out, ' ')
				}
			}
		}
		if pos <= len(data) {
			out = append(out, '\n')
		}
	}
	return out
}

// piLineShapes are Pi entry lines the one-pass reader must read as the
// decoding path does, or leave to it: the common shape and its edges.
var piLineShapes = []string{
	`{"type":"message","id":"x","parentId":"m1","timestamp":"2026-01-02T03:04:20.000Z","message":{"role":"user","content":[{"type":"text","text":"hi \"there\"\n\u00e9"}],"timestamp":1767323060000}}`,
	`{"type":"message","id":"x","parentId":"m1","timestamp":"2026-01-02T03:04:20Z","message":{"role":"assistant","content":null,"stopReason":"stop"}}`,
	`{"type":"message","id":"x","parentId":"m1","timestamp":"2026-01-02T05:04:20.5+02:00","message":{"role":"user","content":"plain"}}`,
	`{"type":"message","id":"x","parentId":"m1","timestamp":1767323060000,"message":{"role":"user","content":"ms"}}`,
	`{"type":"message","id":"x","parentId":"m1","timestamp":"\u0032026-01-02T03:04:20.000Z","message":{"role":"user","content":"escaped stamp"}}`,
	`{"type":"message","id":"x","parentId":"m1","timestamp":"2026-02-30T03:04:20.000Z","message":{"role":"user","content":"no such day"}}`,
	`{"type":"message","id":"x","parentId":"m1","timestamp":"yesterday","message":{"role":"user","content":"bad stamp"}}`,
	`{"type":"message","id":"x","parentId":null,"message":{"role":"user","content":"a second root"}}`,
	`{"type":"message","id":"x","message":{"role":"user","content":"no parentId"}}`,
	`{"type":"message","id":"x","parentId":5,"message":{"role":"user","content":"parent not a string"}}`,
	`{"type":"message","id":"","parentId":"m1","message":{"role":"user","content":"empty id"}}`,
	`{"type":"message","id":null,"parentId":"m1","message":{"role":"user","content":"null id"}}`,
	`{"type":"message","id":7,"parentId":"m1","message":{"role":"user","content":"number id"}}`,
	`{"type":"message","parentId":"m1","message":{"role":"user","content":"no id"}}`,
	`{"type":"message","id":"m1","parentId":null,"message":{"role":"user","content":"an id again"}}`,
	`{"type":"message","id":"x","parentId":"m1","branch":"side","message":{"role":"user","content":"branch"}}`,
	`{"type":"message","id":"x","parentId":"m1","branch":null,"message":{"role":"user","content":"null branch"}}`,
	`{"type":"message","id":"x","parentId":"m1","branch":3,"message":{"role":"user","content":"number branch"}}`,
	`{"Type":"message","id":"x","parentId":"m1","message":{"role":"user","content":"case"}}`,
	`{"type":"message","ID":"x","id":"y","parentId":"m1","message":{"role":"user","content":"case"}}`,
	`{"type":"message","id":"x","parentId":"m1","meſſage":{"role":"user","content":"folded long s"}}`,
	`{"type":"message","id":"x","id":"y","parentId":"m1","message":{"role":"user","content":"twice"}}`,
	`{"type":"message","\u0069d":"x","parentId":"m1","message":{"role":"user","content":"escaped key"}}`,
	`{"type":"message","id":"x","parentId":"m1","summary":"s","message":{"role":"user","content":"another field"}}`,
	`{"type":"message","id":"x","parentId":"m1","extra":{"a":[1,2]},"message":{"role":"user","content":"unknown field"}}`,
	`{"type":"message","id":"x","parentId":"m1","firstKeptEntryIndex":"no","message":{"role":"user","content":"bad field"}}`,
	`{"type":"message","id":"x","parentId":"m1"}`,
	`{"type":"message","id":"x","parentId":"m1","message":null}`,
	`{"type":"message","id":"x","parentId":"m1","message":"text"}`,
	`{"type":"message","id":"x","parentId":"m1","message":{"content":"no role"}}`,
	`{"type":"message","id":"x","parentId":"m1","message":{"role":5,"content":"role"}}`,
	`{"type":"message","id":"x","parentId":"m1","message":{"role":" \t","content":"blank role"}}`,
	`{"type":"message","id":"x","parentId":"m1","message":{"role":"\u0075ser","content":"escaped role"}}`,
	`{"type":"message","id":"x","parentId":"m1","message":{"role":"user","role":"assistant","content":"two roles"}}`,
	`{"type":"message","id":"x","parentId":"m1","message":{"role":"user"}}`,
	`{"type":"message","id":"x","parentId":"m1","message":{"role":"user","content":null}}`,
	`{"type":"message","id":"x","parentId":"m1","message":{"role":"user","content":5}}`,
	`{"type":"message","id":"x","parentId":"m1","message":{"role":"user","content":[1]}}`,
	`{"type":"message","id":"x","parentId":"m1","message":{"role":"user","content":[]}}`,
	`{"type":"message","id":"x","parentId":"m1","message":{"role":"user","content":"a","content":"b"}}`,
	`{"type":"message","id":"x","parentId":"m1","message":{"role":"user","content":{"text":"object"}}}`,
	`{"type":"message","id":"x","parentId":"m1","message":{"role":"bashExecution","command":"ls","output":"","exitCode":1}}`,
	`{"type":"message","id":"x","parentId":"m1","message":{"role":"bashExecution","command":"ls","excludeFromContext":true}}`,
	`{"type":"message","id":"x","parentId":"m1","message":{"role":"custom","customType":"n","content":"c","display":true}}`,
	`{"type":"message","id":"x","parentId":"m1","message":{"role":"hookMessage","content":"hook"}}`,
	`{ "type" : "message", "id":"x","parentId":"m1","message":{"role":"user","content":"spaced"}}`,
	`{"type":"message","id":"x","parentId":"m1","message":{ "role":"user","content":[ {"type":"text","text":"spaced inside"} ] }}`,
	"{\"type\":\"message\",\"id\":\"bad\xffbyte\",\"parentId\":\"m1\",\"message\":{\"role\":\"user\",\"content\":\"bad \xfe byte\"}}",
	`{"type":"message","id":"x","parentId":"m1","message":{"role":"user","content":"lone \ud800 surrogate"}}`,
	`{"type":"mess\u0061ge","id":"x","parentId":"m1","message":{"role":"user","content":"escaped type"}}`,
	`{"type":"message","id":"a\\nb","parentId":"m2","message":{"role":"user","content":"an id with a backslash"}}` + "\n" +
		`{"type":"message","id":"c","parentId":"a\nb","message":{"role":"user","content":"a parent that only looks like it"}}`,
	`{"type":"session","id":"again"}`,
	`["not","an","object"]`,
}

// piFile is a version-v Pi session: a header, two messages (m1 and its
// child m2), then line.
func piFile(v, line string) string {
	return `{"type":"session","version":` + v + `,"id":"pi-both","timestamp":"2026-01-02T03:04:05.000Z","cwd":"/p"}` + "\n" +
		`{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-02T03:04:08.000Z","message":{"role":"user","content":"Plan the trip","timestamp":1767323048000}}` + "\n" +
		`{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-01-02T03:04:09.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Day 1"}]}}` + "\n" +
		line + "\n"
}

// fuzzSeeds returns the inputs of the fuzz corpus testdata/fuzz/<target>.
func fuzzSeeds(tb testing.TB, target string) []string {
	tb.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", "fuzz", target, "*"))
	var seeds []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(tb, err)
		_, body, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
		if q, ok := strings.CutPrefix(body, "[]byte("); ok {
			if s, err := strconv.Unquote(strings.TrimSuffix(q, ")")); err == nil {
				seeds = append(seeds, s)
			}
		}
	}
	return seeds
}

// piShapeFiles are the Pi files the line shapes make, with the fuzz
// corpus of FuzzImportPi.
func piShapeFiles(tb testing.TB) []string {
	var files []string
	for _, line := range piLineShapes {
		files = append(files, piFile("3", line), piFile("2", line))
	}
	files = append(files, piV3, strings.Join(piLineShapes, "\n"))
	return append(files, fuzzSeeds(tb, "FuzzImportPi")...)
}

// linesGolden compares the answers of importing files as format, each
// compact and spaced (see spacedLines), with the golden file name: the
// answers the decoding path gave before the readers became one
// (testdata/lines-*.txt, written by the two readers' decoding path).
func linesGolden(t *testing.T, name, format string, files []string) {
	var all strings.Builder
	for i, data := range files {
		got := importAnswer(t, []byte(data), format)
		spaced := importAnswer(t, spacedLines([]byte(data)), format)
		assert.Equal(t, got, spaced, "file %d, its lines spaced:\n%.2000s", i, data)
		fmt.Fprintf(&all, "=== file %d\n%s\n", i, got)
	}
	golden(t, name, all.String())
}

func TestThePiReaderGivesTheAnswersOfTheDecodingPath(t *testing.T) {
	linesGolden(t, "lines-pi.txt", "pi", piShapeFiles(t))
}

// claudeCodeLineShapes are Claude Code lines the one-pass reader must read
// as the decoding path does, or leave to it.
var claudeCodeLineShapes = []string{
	`{"parentUuid":"a1","isSidechain":false,"userType":"external","sessionId":"s1","uuid":"x","timestamp":"2025-10-09T08:54:27.351Z","type":"user","message":{"role":"user","content":"hi \"there\"\n\u00e9"}}`,
	`{"parentUuid":"a1","isSidechain":false,"sessionId":"s1","uuid":"x","timestamp":"2025-10-09T08:54:27Z","type":"assistant","message":{"id":"m","type":"message","role":"assistant","content":[{"type":"text","text":"yo"}],"usage":{"input_tokens":3}},"requestId":"r"}`,
	`{"parentUuid":"a1","isSidechain":true,"sessionId":"s1","uuid":"x","type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"side"}]}}`,
	`{"parentUuid":"a1","isSidechain":"true","sessionId":"s1","uuid":"x","type":"user","message":{"role":"user","content":"sidechain as a string"}}`,
	`{"parentUuid":"a1","sessionId":"s1","uuid":"x","type":"user","isMeta":true,"message":{"role":"user","content":"meta"}}`,
	`{"parentUuid":"a1","sessionId":"s1","uuid":"x","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"out"}]}}`,
	`{"parentUuid":"a1","sessionId":"s1","uuid":"x","type":"user","message":{"role":"user","content":"<command-name>/init</command-name><command-args>now</command-args>"}}`,
	`{"parentUuid":null,"sessionId":"s1","uuid":"x","type":"user","message":{"role":"user","content":"a second root"}}`,
	`{"parentUuid":null,"logicalParentUuid":"a1","sessionId":"s1","uuid":"x","type":"user","message":{"role":"user","content":"continued"}}`,
	`{"parentUuid":null,"logicalParentUuid":"","sessionId":"s1","uuid":"x","type":"user","message":{"role":"user","content":"empty logical"}}`,
	`{"parentUuid":null,"logicalParentUuid":5,"sessionId":"s1","uuid":"x","type":"user","message":{"role":"user","content":"number logical"}}`,
	`{"sessionId":"s1","uuid":"x","type":"user","message":{"role":"user","content":"no parentUuid"}}`,
	`{"parentUuid":5,"sessionId":"s1","uuid":"x","type":"user","message":{"role":"user","content":"parent not a string"}}`,
	`{"parentUuid":"a1","sessionId":"s1","type":"user","message":{"role":"user","content":"no uuid"}}`,
	`{"parentUuid":"a1","sessionId":"s1","uuid":"","type":"user","message":{"role":"user","content":"empty uuid"}}`,
	`{"parentUuid":"a1","sessionId":"s1","uuid":7,"type":"user","message":{"role":"user","content":"number uuid"}}`,
	`{"parentUuid":"a1","sessionId":"s1","uuid":"a1","type":"user","message":{"role":"user","content":"a uuid again"}}`,
	`{"parentUuid":"a1","sessionId":"other","uuid":"x","type":"user","message":{"role":"user","content":"another session"}}`,
	`{"parentUuid":"a1","sessionId":5,"uuid":"x","type":"user","message":{"role":"user","content":"number session"}}`,
	`{"parentUuid":"a1","uuid":"x","uuid":"y","type":"user","message":{"role":"user","content":"twice"}}`,
	`{"parentUuid":"a1","UUID":"x","type":"user","message":{"role":"user","content":"case"}}`,
	`{"parentUuid":"a1","\u0075uid":"x","type":"user","message":{"role":"user","content":"escaped key"}}`,
	`{"parentUuid":"a1","uuid":"x","type":"User","message":{"role":"user","content":"type case"}}`,
	`{"parentUuid":"a1","uuid":"x","type":"user","subtype":"compact_boundary","message":{"role":"user","content":"boundary user"}}`,
	`{"parentUuid":"a1","uuid":"x","type":"user","subtype":"compact\u005fboundary","message":{"role":"user","content":"escaped subtype"}}`,
	`{"parentUuid":"x","uuid":"y","type":"user","isCompactSummary":false,"message":{"role":"user","content":"not a summary"}}`,
	`{"parentUuid":"a1","uuid":"x","type":"user"}`,
	`{"parentUuid":"a1","uuid":"x","type":"user","message":null}`,
	`{"parentUuid":"a1","uuid":"x","type":"user","message":{"content":"no role"}}`,
	`{"parentUuid":"a1","uuid":"x","type":"user","message":{"role":"","content":"empty role"}}`,
	`{"parentUuid":"a1","uuid":"x","type":"user","message":{"role":"user","content":null}}`,
	`{"parentUuid":"a1","uuid":"x","type":"assistant","message":{"role":"assistant","content":null}}`,
	`{"parentUuid":"a1","uuid":"x","type":"user","message":{"role":"user","content":["text"]}}`,
	`{"parentUuid":"a1","uuid":"x","type":"user","message":{"role":"user","content":"a","content":"b"}}`,
	`{"parentUuid":"a1","uuid":"x","type":"user","message":{"role":"user","content":"a"},"message":{"role":"user","content":"b"}}`,
	`{"parentUuid":"a1","uuid":"x","type":"user","timestamp":1760000000,"message":{"role":"user","content":"number time"}}`,
	`{"parentUuid":"a1","uuid":"x","type":"user","timestamp":"soon","message":{"role":"user","content":"bad time"}}`,
	`{"parentUuid":"a1","uuid":"x","type":"system","subtype":"compact_boundary","content":"Conversation compacted","logicalParentUuid":"a1"}`,
	`{"parentUuid":"b0","uuid":"x","type":"user","isCompactSummary":true,"message":{"role":"user","content":"the summary"}}`,
	`{"type":"summary","summary":"A title","leafUuid":"a1"}`,
	`{"type":"file-history-snapshot","messageId":"m","snapshot":{}}`,
	`{ "parentUuid" : "a1", "uuid":"x","type":"user","message":{"role":"user","content":"spaced"}}`,
	`{"parentUuid":"a1","uuid":"x","type":"user","message":{"role":"user","content":[ {"type":"text","text":"spaced inside"} ]}}`,
	"{\"parentUuid\":\"a1\",\"uuid\":\"bad\xffbyte\",\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"bad \xfe byte\"}}",
	`{"parentUuid":"a1","uuid":"a\\nb","type":"user","message":{"role":"user","content":"a uuid with a backslash"}}` + "\n" +
		`{"parentUuid":"a\nb","uuid":"c","type":"user","message":{"role":"user","content":"a parent that only looks like it"}}`,
	`["not","an","object"]`,
	`"a string"`,
}

// claudeCodeFile is a Claude Code transcript: a user message a1 and a
// compact_boundary line b0 as its child, then line.
func claudeCodeFile(line string) string {
	return `{"parentUuid":null,"isSidechain":false,"sessionId":"s1","uuid":"a1","timestamp":"2025-10-09T08:53:56.974Z","type":"user","message":{"role":"user","content":"First question"}}` + "\n" +
		`{"parentUuid":"a1","isSidechain":false,"sessionId":"s1","uuid":"b0","timestamp":"2025-10-09T08:53:57.000Z","type":"system","subtype":"compact_boundary","content":"Conversation compacted"}` + "\n" +
		line + "\n"
}

// claudeCodeShapeFiles are the Claude Code files the line shapes make,
// with the fuzz corpus of FuzzImportClaudeCode.
func claudeCodeShapeFiles(tb testing.TB) []string {
	var files []string
	for _, line := range claudeCodeLineShapes {
		files = append(files, claudeCodeFile(line), line+"\n"+claudeCodeFile(line))
	}
	files = append(files, strings.Join(claudeCodeLineShapes, "\n"))
	return append(files, fuzzSeeds(tb, "FuzzImportClaudeCode")...)
}

func TestTheClaudeCodeReaderGivesTheAnswersOfTheDecodingPath(t *testing.T) {
	linesGolden(t, "lines-claude-code.txt", "claude-code", claudeCodeShapeFiles(t))
}

// fuzzSpacedLines checks that the reader of format imports data as it
// imports the same lines spaced: a message taken as it stands and one
// compacted first give the same session.
func fuzzSpacedLines(t *testing.T, data []byte, format string) {
	got, spaced := importAnswer(t, data, format), importAnswer(t, spacedLines(data), format)
	if strings.HasPrefix(got, "error: ") && strings.HasPrefix(spaced, "error: ") {
		return // a file that is not read at all: its error may name a column spacing moved
	}
	if got != spaced {
		t.Fatalf("the %s reader imports %q and its lines spaced differently:\n%s\n%s", format, data, got, spaced)
	}
}

func FuzzPiOnePass(f *testing.F) {
	for _, line := range piLineShapes {
		f.Add([]byte(piFile("3", line)))
	}
	f.Add([]byte(piV3))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzSpacedLines(t, data, "pi") })
}

func FuzzClaudeCodeOnePass(f *testing.F) {
	for _, line := range claudeCodeLineShapes {
		f.Add([]byte(claudeCodeFile(line)))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzSpacedLines(t, data, "claude-code") })
}

func TestThePiHeaderEntryTakesAnIDNoEntryHas(t *testing.T) {
	data := `{"type":"session","version":3,"id":"pi-ids","timestamp":"2026-01-02T03:04:05.000Z","cwd":"/p"}
{"type":"message","id":"session","parentId":null,"timestamp":"2026-01-02T03:04:06.000Z","message":{"role":"user","content":"read in one pass"}}
{"type":"model_change","id":"session-2","parentId":"session","timestamp":"2026-01-02T03:04:07.000Z","provider":"p","modelId":"m"}
`
	for _, spaced := range []bool{false, true} {
		st := testStore(t)
		if spaced {
			mustImport(t, st, spacedLines([]byte(data)), "pi")
		} else {
			mustImport(t, st, []byte(data), "pi")
		}
		var snap struct {
			Nodes []struct {
				ID       string
				ParentID *string
			}
		}
		require.NoError(t, json.Unmarshal([]byte(snapshot(t, st, "pi-ids")), &snap))
		require.Len(t, snap.Nodes, 3)
		assert.Equal(t, "session-3", snap.Nodes[0].ID, "spaced %v: the header's entry", spaced)
		assert.Equal(t, "session-3", *snap.Nodes[1].ParentID, "spaced %v: the file's root hangs off the header", spaced)
	}
}
