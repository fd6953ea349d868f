package formats

import (
	"slices"
	"strconv"
	"time"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// SillyTavern chats (data/<user>/chats/<character>/<chat>.jsonl): JSON
// lines, first a header {"user_name","character_name","create_date",
// "chat_metadata":{…}}, then one message per line
//
//	{"name","is_user","is_system","send_date","mes","swipes":[text…],"swipe_id","swipe_info":[{send_date,extra}…],"extra":{"reasoning"?,"type"?…}}
//
// The chat is one line of messages; a message with swipes (the replies a
// user swiped through) has one alternative per swipe. Mapping: every swipe
// is a sibling node under the previous message's chosen swipe, the chosen
// one (swipe_id) on the path to the cursor, which is the last message;
// is_user gives role user, extra.type "narrator" role system, else
// assistant; extra.reasoning (and a swipe's own) becomes a thinking part
// before the text; a message marked is_system is hidden from the model
// in SillyTavern, so it is kept as a custom entry "sillytavern/hidden"
// that does not reach context. Messages carry no ids: each node's id is
// derived from the chat, the line and the swipe, so a grown chat keeps
// its ids. Field names as in SillyTavern's public/script.js and the chat
// files other tools read (see core/testdata/imports/PROVENANCE.md).

// detectSillyTavern reports whether the first line is a SillyTavern chat
// header (user_name, character_name or chat_metadata, and no mes), or a
// message line with mes and is_user.
func detectSillyTavern(sn *Sniff) bool {
	first := sn.Keys
	if sn.Shape == 'l' && len(sn.lines) > 0 {
		first = sn.lines[0]
	}
	if sn.Shape == '[' {
		return false
	}
	_, mes := first["mes"]
	_, user := first["is_user"]
	_, un := first["user_name"]
	_, cn := first["character_name"]
	_, meta := first["chat_metadata"]
	return mes && user || !mes && (un && cn || meta)
}

type sillyTavernMessage struct {
	Name      string
	IsUser    bool
	IsSystem  bool
	SendDate  jsonx.RawMessage
	Mes       *string
	Swipes    []jsonx.RawMessage
	SwipeID   *int
	SwipeInfo []sillyTavernSwipe
	Extra     sillyTavernExtra
	bad       []string // the keys of the fields read could not take, in order
}

// sillyTavernExpected says what each field of sillyTavernMessageFields
// must be, in the words of a warning ("" for send_date, read as it is).
var sillyTavernExpected = []string{"a string", "true or false", "true or false", "", "a string", "an array", "a whole number", "an array of objects", "an object"}

// sillyTavernSwipe is what the reader reads of a swipe_info element.
type sillyTavernSwipe struct {
	SendDate jsonx.RawMessage
	Extra    sillyTavernExtra
}

// sillyTavernExtra is what the reader reads of a message's "extra".
type sillyTavernExtra struct {
	Reasoning, Type string
}

// The keys of the fields of sillyTavernMessage, sillyTavernSwipe and
// sillyTavernExtra, in order.
var (
	sillyTavernMessageFields = []string{"name", "is_user", "is_system", "send_date", "mes", "swipes", "swipe_id", "swipe_info", "extra"}
	sillyTavernSwipeFields   = []string{"send_date", "extra"}
	sillyTavernExtraFields   = []string{"reasoning", "type"}
)

// read reads the message object raw and reports whether every field it
// reads has the right type (the line is skipped otherwise).
func (m *sillyTavernMessage) read(raw []byte) bool {
	ok := true
	ok = jsonx.ReadObject(raw, sillyTavernMessageFields, func(field int, v []byte) {
		good := true
		switch field {
		case 0:
			good = jsonx.ReadString(v, &m.Name)
		case 1:
			good = jsonx.ReadBool(v, &m.IsUser)
		case 2:
			good = jsonx.ReadBool(v, &m.IsSystem)
		case 3:
			m.SendDate = v
		case 4:
			good = jsonx.ReadStringPtr(v, &m.Mes)
		case 5:
			good = jsonx.ReadRaws(v, &m.Swipes)
		case 6:
			good = jsonx.ReadIntPtr(v, &m.SwipeID)
		case 7:
			good = jsonx.ReadList(v, &m.SwipeInfo, readSillyTavernSwipe)
		case 8:
			good = m.Extra.read(v, true)
		}
		if !good && !slices.Contains(m.bad, sillyTavernMessageFields[field]) {
			m.bad = append(m.bad, sillyTavernMessageFields[field])
		}
		ok = good && ok
	}) && ok
	return ok
}

// leaveOut resets the field of sillyTavernMessageFields named key to
// its zero value (read left it as far as it got).
func (m *sillyTavernMessage) leaveOut(key string) {
	switch key {
	case "name":
		m.Name = ""
	case "swipes":
		m.Swipes = nil
	case "swipe_id":
		m.SwipeID = nil
	case "swipe_info":
		m.SwipeInfo = nil
	case "extra":
		m.Extra = sillyTavernExtra{}
	}
}

// readSillyTavernSwipe reads a swipe_info element el into sw.
func readSillyTavernSwipe(el []byte, sw *sillyTavernSwipe) bool {
	ok := true
	ok = jsonx.ReadObject(el, sillyTavernSwipeFields, func(field int, v []byte) {
		if field == 0 {
			sw.SendDate = v
		} else {
			ok = sw.Extra.read(v, false) && ok
		}
	}) && ok
	return ok
}

// read reads an "extra" object (null leaves it); withType says whether
// its "type" is read (a swipe's extra has only "reasoning").
func (e *sillyTavernExtra) read(v []byte, withType bool) bool {
	if jsonx.IsNull(v) {
		return true
	}
	names := sillyTavernExtraFields
	if !withType {
		names = names[:1]
	}
	ok := true
	ok = jsonx.ReadObject(v, names, func(field int, v []byte) {
		if field == 0 {
			ok = jsonx.ReadString(v, &e.Reasoning) && ok
		} else {
			ok = jsonx.ReadString(v, &e.Type) && ok
		}
	}) && ok
	return ok
}

// message reads line n (raw, its fields f) as a message. A field the
// message needs (its text, whose it is) of another type skips the line,
// warned; another such field is left out, warned, the message kept.
func (r *sillyTavernReader) message(raw []byte, f map[string]jsonx.RawMessage, n int) (m sillyTavernMessage, ok bool) {
	if f == nil {
		r.warn("line %d is not a SillyTavern message (not a JSON object); skipped", n)
		return m, false
	}
	if !m.read(raw) {
		for _, key := range m.bad {
			if i := slices.Index(sillyTavernMessageFields, key); key == "mes" || key == "is_user" || key == "is_system" {
				r.warn("line %d: its %q must be %s; skipped", n, key, sillyTavernExpected[i])
				return m, false
			}
		}
		for _, key := range m.bad {
			r.warn("line %d: its %q must be %s; it is left out", n, key, sillyTavernExpected[slices.Index(sillyTavernMessageFields, key)])
			m.leaveOut(key)
		}
	}
	if m.Mes == nil {
		r.warn("line %d is not a SillyTavern message (it has no mes); skipped", n)
		return m, false
	}
	return m, true
}

// sillyTavernReader reads a chat line by line into one conversation.
type sillyTavernReader struct {
	model    *Model
	header   map[string]jsonx.RawMessage
	lines    int
	key      []byte // what names the chat: the header's fixed fields, else the first message
	recs     []Record
	prev     string // the chosen node of the previous message
	title    string
	firstMsg string
	warnings
	created float64
}

func newSillyTavernReader(model *Model) LineReader { return &sillyTavernReader{model: model} }

func (r *sillyTavernReader) Line(raw []byte, f map[string]jsonx.RawMessage, n int) {
	if r.lines++; r.lines == 1 && f != nil && f["mes"] == nil {
		r.header = f
		// The chat's name: the header's fields that never change as the
		// chat grows (chat_metadata does).
		if date := f["create_date"]; date != nil {
			r.key = []byte("sillytavern")
			for _, k := range []string{"user_name", "character_name", "create_date"} {
				r.key = append(append(r.key, 0), f[k]...)
			}
		}
		if name, ok := jsonx.ParseString(f["character_name"]); ok && name != "unused" {
			r.title = name
		}
		r.created = sillyTavernTime(f["create_date"])
		return
	}
	m, ok := r.message(raw, f, n)
	if !ok {
		return
	}
	if r.key == nil {
		r.key = append([]byte("sillytavern\x00"), raw...) // a chat without header
	}
	role := "assistant"
	switch {
	case m.IsUser:
		role = "user"
	case m.Extra.Type == "narrator":
		role = "system"
	}
	if r.firstMsg == "" && m.IsUser {
		r.firstMsg = *m.Mes
	}
	// The alternatives: every swipe, or the message alone.
	texts := []string{*m.Mes}
	chosen := 0
	if len(m.Swipes) > 0 {
		texts = texts[:0]
		for _, s := range m.Swipes {
			t, _ := jsonx.ParseString(s)
			texts = append(texts, t)
		}
		if m.SwipeID != nil && *m.SwipeID >= 0 && *m.SwipeID < len(texts) {
			chosen = *m.SwipeID
		} else {
			r.warn("line %d: swipe_id does not name one of its %d swipes; the swipe equal to mes is chosen", n, len(texts))
			chosen = -1
			for i, t := range texts {
				if t == *m.Mes && chosen < 0 {
					chosen = i
				}
			}
			if chosen < 0 {
				texts, chosen = append(texts, *m.Mes), len(texts)
			}
		}
	}
	src := compactSource(raw)
	next := ""
	for i, text := range texts {
		reasoning := m.Extra.Reasoning
		when := m.SendDate
		if i < len(m.SwipeInfo) && len(m.Swipes) > 0 {
			if i != chosen || m.SwipeInfo[i].Extra.Reasoning != "" {
				reasoning = m.SwipeInfo[i].Extra.Reasoning
			}
			if m.SwipeInfo[i].SendDate != nil {
				when = m.SwipeInfo[i].SendDate
			}
		} else if i != chosen {
			reasoning = "" // the message's reasoning is the chosen swipe's
		}
		id := hashID("st-", append(append([]byte{}, r.key...), strconv.Itoa(n)+"/"+strconv.Itoa(i)+"\x00"+text...))[:12]
		rec := Record{ID: id, ParentID: r.prev, Time: sillyTavernTime(when), Source: src}
		rec.noteTime("send_date", when)
		msg := sillyTavernMessageJSON(role, text, reasoning)
		if m.IsSystem {
			data := append(jsonx.AppendString([]byte(`{"name":`), m.Name), `,"message":`...)
			data = append(append(data, msg...), '}')
			rec.Kind, rec.Entry = KindCustom, &Entry{CustomType: "sillytavern/hidden", Data: data}
		} else {
			rec.Message = msg
		}
		r.recs = append(r.recs, rec)
		if i == chosen {
			next = id
		}
	}
	r.prev = next
}

// sillyTavernMessageJSON returns {"role","content"}: the text, with a
// thinking part before it when there is reasoning.
func sillyTavernMessageJSON(role, text, reasoning string) jsonx.RawMessage {
	b := jsonx.AppendString([]byte(`{"role":`), role)
	b = append(b, `,"content":`...)
	if reasoning == "" {
		return append(jsonx.AppendString(b, text), '}')
	}
	b = jsonx.AppendString(append(b, `[{"type":"thinking","thinking":`...), reasoning)
	b = jsonx.AppendString(append(b, `},{"type":"text","text":`...), text)
	return append(b, "}]}"...)
}

// sillyTavernTime reads a send_date or create_date: Unix milliseconds, an
// RFC 3339 string, or SillyTavern's humanized "2024-01-15 @14h 30m 15s
// 123ms" (UTC assumed); 0 when unreadable.
func sillyTavernTime(raw jsonx.RawMessage) float64 {
	if t := unixSeconds(raw); t > 0 {
		return t
	}
	s, ok := jsonx.ParseString(raw)
	if !ok {
		return 0
	}
	var y, mo, d, h, mi, sec, ms int
	n, _ := sscanHumanDate(s, &y, &mo, &d, &h, &mi, &sec, &ms)
	if n < 3 || mo < 1 || mo > 12 || d < 1 || d > 31 {
		return 0
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, ms*1e6, time.UTC)
	return float64(t.UnixMilli()) / 1e3
}

// sscanHumanDate reads the numbers of "2024-01-15 @14h 30m 15s 123ms" in
// order into vals and returns how many it found.
func sscanHumanDate(s string, vals ...*int) (int, error) {
	k := 0
	for i := 0; i < len(s) && k < len(vals); {
		if s[i] < '0' || s[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		v, err := strconv.Atoi(s[i:j])
		if err != nil {
			return k, err
		}
		*vals[k] = v
		k++
		i = j
	}
	return k, nil
}

func (r *sillyTavernReader) Finish() ([]Conversation, []Warning) {
	c := Conversation{Records: r.recs, Current: r.prev, Title: r.title, Created: r.created}
	if c.Title == "" && r.firstMsg != "" {
		c.Title = r.model.Preview(append(jsonx.AppendString([]byte(`{"role":"user","content":`), r.firstMsg), '}'), 60)
	}
	c.ID = hashID("sillytavern-", r.key)
	return finishSession(c, r.warns, "messages", r.header != nil)
}
