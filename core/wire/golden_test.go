package wire

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sessiontree/sessiontree/core"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnswersAreTheBytesOfBeforeTheMove replays wireScenario and compares
// every answer of Call, CallParsed and CallColumns with
// testdata/answers.golden, written by the same scenario against
// core.Store.CallParsed and core.Store.CallColumns before the encodings
// moved out of the store (commit da03edd): the same bytes, head, buffers
// and rows. The head's layout and prefix members came later (issue 15,
// TestCallColumnsHandsOverOnlyWhatFollowsAHeldLayout) and are cut off
// before the comparison.
func TestAnswersAreTheBytesOfBeforeTheMove(t *testing.T) {
	st := newStore(t)
	got := wireScenario(wireCalls{
		call:   st.Call,
		parsed: func(req []byte) []byte { return CallParsed(st, req) },
		columns: func(req []byte) (out, head, ascii, wide []byte, rows []int32, cache uint64) {
			out, cols := CallColumns(st, req)
			if cols == nil {
				return out, nil, nil, nil, nil, 0
			}
			cut := layoutMembers.ReplaceAll(cols.Head, []byte("}"))
			return nil, cut, cols.ASCII, cols.Wide, cols.Rows, cols.Cache
		},
	})
	f, err := os.Open("testdata/answers.golden")
	require.NoError(t, err)
	defer f.Close()
	var want []goldenLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l goldenLine
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l))
		want = append(want, l)
	}
	require.NoError(t, sc.Err())
	require.Len(t, got, len(want))
	for i := range want {
		// The lists of known operations and allowed fields in an error
		// grow with the table: they are not part of the encodings compared.
		assert.Equal(t, knownCut(want[i]), knownCut(got[i]), "answer %d: %s", i, want[i].Req)
	}
}

// knownOps is the list an "unknown operation" or "unknown field" error ends with.
var knownOps = regexp.MustCompile(`\((known|allowed): [a-zA-Z., ]*\)`)

// knownCut returns l with the list of known operations in its answers cut.
func knownCut(l goldenLine) goldenLine {
	for _, s := range []*string{&l.Call, &l.Parsed, &l.Out} {
		*s = knownOps.ReplaceAllString(*s, "($1: …)")
	}
	return l
}

// layoutMembers matches the head's last members, layout and prefix.
var layoutMembers = regexp.MustCompile(`,"layout":[0-9]+,"prefix":[0-9]+\}$`)

// newStore returns a store with a clock that ticks a millisecond a call
// and ids n0001, n0002, … (core's testStore).
func newStore(tb testing.TB) *core.Store {
	tb.Helper()
	clock := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	seq := 0
	return core.New(core.Options{
		Now: func() time.Time {
			clock = clock.Add(time.Millisecond)
			return clock
		},
		NewID: func() string {
			seq++
			id := strconv.Itoa(seq)
			return "n" + strings.Repeat("0", max(0, 4-len(id))) + id
		},
	})
}

// isASCII reports whether b holds only ASCII bytes.
func isASCII(b []byte) bool {
	return bytes.IndexFunc(b, func(r rune) bool { return r >= 0x80 }) < 0
}

// wireCalls are the three ways a store answers (see wireScenario).
type wireCalls struct {
	call    func(req []byte) []byte
	parsed  func(req []byte) []byte
	columns func(req []byte) (out, head, ascii, wide []byte, rows []int32, cache uint64)
}

// goldenLine is one answer of wireScenario: texts over 2 KB as their
// length and SHA-256.
type goldenLine struct {
	Req     string `json:"req"`
	Call    string `json:"call"`
	Parsed  string `json:"parsed"`
	Out     string `json:"columnsOut,omitempty"`
	Head    string `json:"head,omitempty"`
	ASCII   string `json:"ascii,omitempty"`
	Wide    string `json:"wide,omitempty"`
	Rows    string `json:"rows,omitempty"`
	IsCache bool   `json:"isCache,omitempty"`
}

func goldenText(b []byte) string {
	if len(b) <= 2048 {
		return string(b)
	}
	return "len " + strconv.Itoa(len(b)) + " sha256 " + hexSum(b)
}

func hexSum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func goldenRows(rows []int32) string {
	var b []byte
	for _, r := range rows {
		b = strconv.AppendInt(b, int64(r), 10)
		b = append(b, ' ')
	}
	return goldenText(b)
}

// wireScenario sends a fixed series of requests to a new store and
// records, for each, what Call, CallParsed and CallColumns answer.
func wireScenario(c wireCalls) []goldenLine {
	var lines []goldenLine
	send := func(req string) { c.call([]byte(req)) }
	ask := func(req string) {
		l := goldenLine{Req: req, Call: goldenText(c.call([]byte(req))), Parsed: goldenText(c.parsed([]byte(req)))}
		out, head, ascii, wide, rows, cache := c.columns([]byte(req))
		l.Out, l.Head, l.ASCII, l.Wide, l.Rows, l.IsCache = goldenText(out), goldenText(head), goldenText(ascii), goldenText(wide), goldenRows(rows), cache != 0
		if len(l.Req) > 200 {
			l.Req = l.Req[:200]
		}
		l.Req = strings.ToValidUTF8(l.Req, "\uFFFD") // as JSON writes it
		lines = append(lines, l)
	}
	appendMsg := func(session, m string) {
		send(`{"operation":"append","sessionId":"` + session + `","message":` + m + `}`)
	}
	send(`{"operation":"create","sessionId":"s","title":"café"}`)
	for _, m := range []string{
		`{"role":"user","content":"plain ASCII"}`,
		`{"role":"assistant","content":"café, 漢字 and 🎉 (a pair in UTF-16)"}`,
		`{"role":"user","content":"escapes: \n \t \" \\ \/ \b \f \r \u0041 \u00e9 \u20ac \u2028"}`,
		`{"content":"content first","role":"user"}`,
		`{"role":"user","content":""}`,
		`{"role":"tool","content":"a new role"}`,
		`{"role":"user","content":"an escaped pair \ud83c\udf89"}`,
		`{"role":"user","content":"a lone surrogate \ud800 stays JSON"}`,
		`{"role":"user","content":[{"type":"text","text":"parts é"}]}`,
		`{"role":"assistant","content":"with a name","name":"bot"}`,
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}`,
		`{"role":"us\"er","content":"an escaped role"}`,
		`{"role":"user","content":"ünïcödé again after JSON ones"}`,
	} {
		appendMsg("s", m)
	}
	send(`{"operation":"branch.summary","sessionId":"s","nodeId":"n0013","branch":"b","summary":"a summary node: «résumé»"}`)
	appendMsg("s", `{"role":"user","content":"after the summary"}`)
	send(`{"operation":"label","sessionId":"s","nodeId":"n0002","label":"étiquette"}`)
	for _, r := range []string{
		`{"operation":"context","sessionId":"s"}`,
		`{"operation":"context","sessionId":"s"}`,
		`{"operation":"node","sessionId":"s","nodeId":"n0003"}`,
		`{"operation":"tree","sessionId":"s"}`,
		`{"operation":"list","sessionId":"s"}`,
		`{"operation":"session","sessionId":"s"}`,
	} {
		ask(r)
	}
	send(`{"operation":"jump","sessionId":"s","nodeId":"n0002"}`)
	appendMsg("s", `{"role":"user","content":"a short branch, é"}`)
	ask(`{"operation":"context","sessionId":"s"}`)

	send(`{"operation":"create","sessionId":"c"}`)
	for i := 0; i < 4; i++ {
		appendMsg("c", `{"role":"user","content":"before `+strconv.Itoa(i)+` ü"}`)
	}
	send(`{"operation":"append","sessionId":"c","entry":{"kind":"compaction","summary":"squeezed «text»","firstKeptNodeId":"n0019","tokensBefore":100}}`)
	send(`{"operation":"append","sessionId":"c","entry":{"kind":"model_change","provider":"p","model":"m «é»"}}`)
	appendMsg("c", `{"role":"assistant","content":"after"}`)
	ask(`{"operation":"context","sessionId":"c"}`)
	send(`{"operation":"create","sessionId":"e"}`)
	ask(`{"operation":"context","sessionId":"e"}`)

	for _, big := range []struct{ id, content string }{
		{"ascii", strings.Repeat("deploy the pipeline again ", 6) + "café 🙂"},
		{"zh", strings.Repeat("这是一个关于部署流水线失败的中文消息", 4)},
	} {
		send(`{"operation":"create","sessionId":"` + big.id + `"}`)
		for i := 0; i < 700; i++ {
			appendMsg(big.id, `{"role":"user","content":"`+big.content+` `+strconv.Itoa(i)+`"}`)
		}
		for _, r := range []string{
			`{"operation":"context","sessionId":"` + big.id + `"}`,
			`{"operation":"snapshot.save","sessionId":"` + big.id + `"}`,
			`{"operation":"tree","sessionId":"` + big.id + `"}`,
			`{"operation":"list","sessionId":"` + big.id + `"}`,
			`{"operation":"tree.rows","sessionId":"` + big.id + `","offset":0,"limit":500}`,
		} {
			ask(r)
		}
	}
	// Messages that are not plain, enough for a head past 64 KiB.
	send(`{"operation":"create","sessionId":"other"}`)
	for i := 0; i < 700; i++ {
		appendMsg("other", `{"role":"user","content":"`+strings.Repeat("not plain, ", 10)+`é","n":`+strconv.Itoa(i)+`}`)
	}
	ask(`{"operation":"context","sessionId":"other"}`)
	for _, r := range []string{
		`{"operation":"context","sessionId":"missing"}`,
		`{"operation":"context"}`,
		`{"operation":"context","sessionId":"e","extra":1}`,
		`not json`,
		"{\"operation\":\"context\",\"sessionId\":\"\xff\"}",
		`{"operation":"sessions"}`,
		`{"operation":"restore","snapshot":{}}`,
		`{"operation":"sync.forget","sessionId":"s"}`,
		`{"operation":"sync.merge","sessionId":"s","nodes":[]}`,
		`{"operation":"context","sessionId":"s"}`,
	} {
		ask(r)
	}
	return lines
}
