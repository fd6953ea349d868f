package formats

import "github.com/sessiontree/sessiontree/core/internal/jsonx"

// Pi's one-pass line reader (see lines_fast.go): a message entry of a
// version 3 file, {"type":"message","id","parentId","timestamp",
// "message":{"role","content",…}}, compact and with a message core takes
// as it is, is read straight into its record. The decoding path (Line
// after the piLine struct) reads every other line and gives every warning:
// an entry of another type, a field named only ignoring case (the struct
// decoder's match), a field twice, an id or parent that is missing or not
// a string, white space between tokens, a message core refuses or one
// converted (bashExecution, custom, version 2's hookMessage).

// piLineKeys are piLine's fields as the decoder names them: the one-pass
// reader reads the first six and leaves a line with any other to the
// decoding path (a test holds the list to piLine's tags).
var piLineKeys = []string{"type", "id", "parentId", "timestamp", "branch", "message",
	"thinkingLevel", "provider", "modelId", "tools", "summary", "firstKeptEntryId", "firstKeptEntryIndex",
	"tokensBefore", "customType", "data", "content", "display", "details", "name", "targetId", "label"}

// piFastLine is what the one-pass reader takes of a message entry line.
type piFastLine struct {
	id, parent string
	timestamp  []byte
	branch     *string
	message    []byte // checked by lineMessage
	role       string
}

// RawLine is formats.RawLiner's: a message entry line after the header
// is read in one pass (lineFast), with nothing split out first.
func (r *piReader) RawLine(raw []byte, _ int) bool {
	if r.header == nil || !r.lineFast(raw) {
		return false
	}
	r.lines++
	return true
}

// lineFast reads the entry line raw when it is a message entry of the
// common shape (see the top of this file) and reports whether it did;
// false leaves the line, untouched, to the decoding path.
func (r *piReader) lineFast(raw []byte) bool {
	if !LinesOnePass || r.version < 3 || raw[0] != '{' {
		return false
	}
	l, ok := readPiFast(raw, r.last)
	if !ok {
		return false
	}
	if l.role == "bashExecution" || l.role == "custom" {
		return false
	}
	r.index = append(r.index, l.id)
	r.last = l.id
	t, stamp := lineTimes(l.timestamp)
	rec := Record{ID: l.id, ParentID: l.parent, Time: t, Stamp: stamp,
		Source: raw[:len(raw):len(raw)], Message: l.message, Written: true, Role: l.role}
	if l.branch != nil {
		rec.Branch = *l.branch
		r.branches++
	}
	r.entries++
	if l.role == "user" && (r.firstText == "" || rec.Time < r.firstTime) {
		r.firstText, r.firstTime = r.model.Preview(rec.Message, 60), rec.Time
	}
	r.recs = appendRecord(r.recs, rec)
	return true
}

// readPiFast reads a message entry line in one pass; ok is false when it
// is not one of the common shape. last is the previous entry's id.
func readPiFast(raw []byte, last string) (l piFastLine, ok bool) {
	sc := jsonx.Scanner{Data: raw}
	var seen fastField
	err := sc.Object(func(key []byte) error {
		bit, ok := fastKey(key, piLineKeys[:6], &seen)
		if !ok || bit == 0 && foldsTo(key, piLineKeys[6:]) {
			return errFast
		}
		if bit == 1<<5 {
			var err error
			l.message, l.role, err = lineMessage(&sc)
			return err
		}
		v, _, serr := sc.Value()
		if serr != nil {
			return serr
		}
		switch bit {
		case 1 << 0:
			if string(v) != `"message"` {
				return errFast
			}
		case 1 << 1:
			if l.id, ok = lineString(v); !ok || l.id == "" {
				return errFast
			}
		case 1 << 2:
			if string(v) != "null" {
				if l.parent, ok = lineParent(v, last); !ok {
					return errFast
				}
			}
		case 1 << 3:
			l.timestamp = v
		case 1 << 4:
			if string(v) != "null" {
				b, ok := lineString(v)
				if !ok {
					return errFast
				}
				l.branch = &b
			}
		}
		return nil
	})
	const need = 1<<0 | 1<<1 | 1<<2 | 1<<5 // type, id, parentId, message
	if err != nil || sc.End() != nil || sc.Spaced || seen&need != need {
		return piFastLine{}, false
	}
	return l, true
}
