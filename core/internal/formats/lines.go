package formats

import (
	"errors"
	"strings"
	"time"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// What the readers of JSON lines (pi.go, claudecode.go) share: a line is
// read with the validating scanner in one pass, its message checked where
// it stands (lineMessage), instead of decoding the line into a struct or
// a map of members and each field again (issue 15 measured Pi at 82 MB/s
// natively against ChatGPT's 227, most of it in those passes).

// errFast stops a one-pass read that met something it leaves to the
// decoding path (a line's fields, read again). errors.New, not
// jsonx.TextError: see msgtext's errNotParts.
var errFast = errors.New("not the common shape")

// lineString decodes the string token tok; ok is false for any other
// value.
func lineString(tok []byte) (s string, ok bool) {
	if len(tok) == 0 || tok[0] != '"' {
		return "", false
	}
	switch string(tok) { // the common types and roles without an allocation
	case `"message"`:
		return "message", true
	case `"user"`:
		return "user", true
	case `"assistant"`:
		return "assistant", true
	}
	if body, plain := jsonx.PlainString(tok); plain {
		return string(body), true
	}
	return jsonx.ParseString(tok)
}

// lineParent is lineString for a parent link, which names the previous
// line's record in a chain: when tok holds prev as it is, prev is given
// again rather than a copy (one allocation less per line).
func lineParent(tok []byte, prev string) (s string, ok bool) {
	if len(tok) == len(prev)+2 && tok[0] == '"' && string(tok[1:len(tok)-1]) == prev && !strings.Contains(prev, "\\") {
		return prev, true
	}
	return lineString(tok)
}

// lineMessage reads, in place, the message at the scanner when it is one
// core's validateMessage takes as it stands, and gives its bytes and role:
// an object with "role" a string not only white space and "content" a
// string, an array of objects, or null for role "assistant", each once.
// Any other value is errFast (or the scanner's syntax error): the decoding
// path then hands the message to Model.Message, which says what is wrong
// with it.
func lineMessage(sc *jsonx.Scanner) (msg []byte, role string, err error) {
	sc.SkipSpace()
	if sc.Peek() != '{' {
		return nil, "", errFast
	}
	start := sc.Pos
	var roleTok, content []byte
	err = sc.Object(func(key []byte) error {
		k := string(key)
		if k == "content" {
			if content != nil {
				return errFast
			}
			sc.SkipSpace()
			if sc.Peek() == '[' {
				at := sc.Pos
				if err := sc.Array(func(int) error {
					if sc.Peek() != '{' {
						return errFast
					}
					return skipValue(sc)
				}); err != nil {
					return err
				}
				content = sc.Data[at:sc.Pos]
				return nil
			}
		}
		v, _, serr := sc.Value()
		if serr != nil {
			return serr
		}
		switch k {
		case "role":
			if roleTok != nil {
				return errFast
			}
			roleTok = v
		case "content":
			content = v
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	if roleTok == nil || content == nil {
		return nil, "", errFast
	}
	switch string(roleTok) { // the common roles without an allocation
	case `"user"`:
		role = "user"
	case `"assistant"`:
		role = "assistant"
	default:
		var ok bool
		if role, ok = lineString(roleTok); !ok {
			return nil, "", errFast
		}
	}
	if strings.TrimSpace(role) == "" || content[0] == 'n' && role != "assistant" ||
		content[0] != '"' && content[0] != '[' && content[0] != 'n' {
		return nil, "", errFast
	}
	msg = sc.Data[start:sc.Pos]
	return msg[:len(msg):len(msg)], role, nil
}

// skipValue moves the scanner past one value.
func skipValue(sc *jsonx.Scanner) error {
	if _, _, serr := sc.Value(); serr != nil {
		return serr
	}
	return nil
}

// lineTimes returns unixSeconds(raw) and isoStamp(raw) with one parse of
// a timestamp string; one already in TimeLayout is read by hand (and is
// its own stamp), anything else by time.Parse.
func lineTimes(raw []byte) (float64, string) {
	body, ok := jsonx.PlainString(raw)
	if !ok {
		return unixSeconds(raw), isoStamp(raw)
	}
	text := string(body)
	if t, ok := layoutTime(text); ok {
		return float64(t.UnixNano()) / 1e9, text
	}
	t, err := time.Parse(time.RFC3339Nano, text)
	if err != nil {
		return 0, ""
	}
	return float64(t.UnixNano()) / 1e9, t.UTC().Format(TimeLayout)
}

// layoutTime reads s when it is a valid time written in TimeLayout
// (2006-01-02T15:04:05.000Z), as time.Parse would; ok is false for
// anything else (time.Parse then says what it is).
func layoutTime(s string) (t time.Time, ok bool) {
	if len(s) != len(TimeLayout) {
		return time.Time{}, false
	}
	for i := 0; i < len(s); i++ {
		if l := TimeLayout[i]; l >= '0' && l <= '9' {
			if s[i] < '0' || s[i] > '9' {
				return time.Time{}, false
			}
		} else if s[i] != l {
			return time.Time{}, false
		}
	}
	num := func(i, n int) int {
		v := 0
		for _, c := range []byte(s[i : i+n]) {
			v = v*10 + int(c-'0')
		}
		return v
	}
	year, month, day := num(0, 4), time.Month(num(5, 2)), num(8, 2)
	hour, minute, sec, ms := num(11, 2), num(14, 2), num(17, 2), num(20, 3)
	if month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	if day > time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC).Day() { // the month's last day
		return time.Time{}, false
	}
	return time.Date(year, month, day, hour, minute, sec, ms*1e6, time.UTC), true
}

// appendRecord appends rec to recs, doubling the capacity when it is
// full: append grows a large slice by a quarter, so the 29,000 records
// (200 bytes each) of a 20 MB Pi file were allocated and copied about five
// times their size.
func appendRecord(recs []Record, rec Record) []Record {
	if len(recs) == cap(recs) {
		grown := make([]Record, len(recs), max(64, 2*cap(recs)))
		copy(grown, recs)
		recs = grown
	}
	return append(recs, rec)
}
