package importer

import (
	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/importplan"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// sniffImport sniffs data (UTF-8, trimmed) for an import in format, and
// reads two damaged kinds of file as what they were: lines ended by CR
// alone (read as lines: JSON that reads as it stands is left so, a CR
// there being space), and one JSON object cut off, an unfinished
// download, when a one-document importer knows its whole members
// (closeCutObject: Chatbot UI's history before its prompts). It returns
// the data to read (data, or the lines, or the object closed), notes for
// the report saying which was done, and the sniff's error when neither
// reads.
func sniffImport(data []byte, format string) (sn *formats.Sniff, out []byte, notes []formats.Warning, err error) {
	sn, err = formats.SniffData(data)
	if err != nil || sn.Shape == 't' {
		if lines := importplan.CROnly(data); lines != nil {
			if sn2, err2 := formats.SniffData(lines); err2 == nil && (err != nil || sn2.Shape == 't') {
				return sn2, lines, []formats.Warning{{Message: importplan.CROnlyNote}}, nil
			}
		}
	}
	if err != nil {
		if closed, note, ok := closeCutObject(data); ok {
			if sn2, err2 := formats.SniffData(closed); err2 == nil && wholeOnly(sn2, format) {
				return sn2, closed, []formats.Warning{note}, nil
			}
		}
	}
	return sn, data, nil, err
}

// importerFor returns the importer named format, or for "" and "auto"
// the first whose Detect accepts sn (a text importer for text, a JSON
// one otherwise); nil when there is none.
func importerFor(sn *formats.Sniff, format string) *formats.Importer {
	for k := range formats.Importers {
		im := &formats.Importers[k]
		if format == "" || format == "auto" {
			if (im.Text != nil) == (sn.Shape == 't') && im.Detect(sn) {
				return im
			}
		} else if im.Name == format {
			return im
		}
	}
	return nil
}

// wholeOnly reports whether the importer that reads sn (importerFor)
// reads one JSON document only (Whole, no JSON lines reader): only such
// an import reads a cut-off object's whole members, since a JSON-lines
// importer would take the closed first line for a record.
func wholeOnly(sn *formats.Sniff, format string) bool {
	im := importerFor(sn, format)
	return im != nil && im.Whole != nil && im.Lines == nil && im.Name != "snapshot"
}

// closeCutObject reads data as a JSON object that was cut off (an
// unfinished download or copy) and returns it closed after its last whole
// top-level member, with a warning naming where the data ends: inside a
// member (its key and the line it begins on) or after the last whole one.
// ok is false when data is not an object that merely ends early (another
// syntax error, a whole object) or when no member is whole: then nothing
// can be read from it. Whole-document importers (Chatbot UI's
// {version, history, folders, prompts}, LobeChat) read the closed
// object; the array form is cutShort's.
func closeCutObject(data []byte) (closed []byte, warning formats.Warning, ok bool) {
	s := jsonx.Scanner{Data: data}
	s.SkipSpace()
	if s.Peek() != '{' {
		return nil, formats.Warning{}, false
	}
	s.Pos++
	last, inside, begins := -1, "", 0
	for {
		s.SkipSpace()
		if s.Pos >= len(data) {
			break // between members
		}
		if last >= 0 { // after a member: a comma, or the end
			switch s.Peek() {
			case ',':
				s.Pos++
				s.SkipSpace()
			case '}':
				return nil, formats.Warning{}, false // whole: its fault is elsewhere
			default:
				return nil, formats.Warning{}, false
			}
			if s.Pos >= len(data) {
				break // after a comma
			}
		}
		start := s.Pos
		key, cut, bad := objectMember(&s)
		if bad {
			return nil, formats.Warning{}, false // garbled, not cut
		}
		if cut {
			if name, ok := jsonx.ParseString(key); ok {
				inside, begins = name, start
			}
			break
		}
		last = s.Pos
	}
	if last < 0 {
		return nil, formats.Warning{}, false
	}
	closed = append(append(make([]byte, 0, last+1), data[:last]...), '}')
	if inside == "" {
		return closed, formats.Warning{Message: "the data ends without the closing '}' after its last whole member: the file is cut off, so what came after may be missing; the members before are read"}, true
	}
	line := 1
	for _, c := range data[:begins] {
		if c == '\n' {
			line++
		}
	}
	return closed, formats.Warning{Message: jsonx.Sprintf("the data ends inside its %q (it begins on line %d): the file is cut off; what that member held, and anything after it, is missing; the members before it are read", inside, line)}, true
}

// objectMember moves s past one member of an object ("key": value, s at
// its key): key is the key's JSON when it was read whole; cut says the
// data ends inside the member, bad that it is not JSON there.
func objectMember(s *jsonx.Scanner) (key []byte, cut, bad bool) {
	key, _, err := s.Value()
	if err == nil {
		s.SkipSpace()
		switch {
		case s.Pos >= len(s.Data):
			return key, true, false
		case s.Peek() != ':':
			return key, false, true
		}
		s.Pos++
		if s.SkipSpace(); s.Pos >= len(s.Data) {
			return key, true, false
		}
		_, _, err = s.Value()
	}
	if err != nil {
		return key, err.Offset >= len(s.Data), err.Offset < len(s.Data)
	}
	return key, false, false
}
