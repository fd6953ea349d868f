package formats

import "github.com/sessiontree/sessiontree/core/internal/jsonx"

// The records of a LobeChat export (see lobechat.go), read field by field.
// The export's reader takes what fits: a field of another type is left
// empty and the rest of the record is read (a session, topic or message
// that is not an object reads as an empty one).

type lobeSession struct {
	ID         string
	SystemRole string // config.systemRole
	Title      string // meta.title
	CreatedAt  jsonx.RawMessage
	CreateAt   jsonx.RawMessage
}

type lobeTopic struct {
	ID        string
	Title     string
	SessionID string
	CreatedAt jsonx.RawMessage
	CreateAt  jsonx.RawMessage
}

type lobeMessage struct {
	ID         string
	Role       string
	Content    jsonx.RawMessage
	SessionID  string
	TopicID    string
	ParentID   string
	CreatedAt  jsonx.RawMessage
	CreateAt   jsonx.RawMessage
	ToolCallID string
	Name       string
	Tools      []lobeTool
	raw        jsonx.RawMessage
	time       float64
}

// lobeTool is one of an assistant message's plugin calls.
type lobeTool struct {
	ID, APIName, Arguments string
}

// The keys of each record's fields, in the order of its read's switch.
var (
	lobeSessionFields = []string{"id", "config", "meta", "createdAt", "createAt"}
	lobeTopicFields   = []string{"id", "title", "sessionId", "createdAt", "createAt"}
	lobeMessageFields = []string{"id", "role", "content", "sessionId", "topicId", "parentId", "createdAt", "createAt", "tool_call_id", "name", "tools"}
	lobeToolFields    = []string{"id", "apiName", "arguments"}
	lobeConfigFields  = []string{"systemRole"}
	lobeMetaFields    = []string{"title"}
)

// read reads what fits of the session v.
func (s *lobeSession) read(v []byte) {
	jsonx.ReadObject(v, lobeSessionFields, func(field int, v []byte) {
		switch field {
		case 0:
			_ = jsonx.ReadString(v, &s.ID)
		case 1:
			jsonx.ReadObject(v, lobeConfigFields, func(_ int, v []byte) { _ = jsonx.ReadString(v, &s.SystemRole) })
		case 2:
			jsonx.ReadObject(v, lobeMetaFields, func(_ int, v []byte) { _ = jsonx.ReadString(v, &s.Title) })
		case 3:
			s.CreatedAt = v
		case 4:
			s.CreateAt = v
		}
	})
}

// read reads what fits of the topic v.
func (t *lobeTopic) read(v []byte) {
	jsonx.ReadObject(v, lobeTopicFields, func(field int, v []byte) {
		switch field {
		case 0:
			_ = jsonx.ReadString(v, &t.ID)
		case 1:
			_ = jsonx.ReadString(v, &t.Title)
		case 2:
			_ = jsonx.ReadString(v, &t.SessionID)
		case 3:
			t.CreatedAt = v
		case 4:
			t.CreateAt = v
		}
	})
}

// read reads what fits of the message v.
func (m *lobeMessage) read(v []byte) {
	strs := [...]*string{0: &m.ID, 1: &m.Role, 3: &m.SessionID, 4: &m.TopicID, 5: &m.ParentID, 8: &m.ToolCallID, 9: &m.Name}
	jsonx.ReadObject(v, lobeMessageFields, func(field int, v []byte) {
		switch field {
		case 2:
			m.Content = v
		case 6:
			m.CreatedAt = v
		case 7:
			m.CreateAt = v
		case 10:
			_ = jsonx.ReadList(v, &m.Tools, readLobeTool)
		default:
			_ = jsonx.ReadString(v, strs[field])
		}
	})
}

// readLobeTool reads what fits of a tool call el into tc.
func readLobeTool(el []byte, tc *lobeTool) bool {
	strs := [...]*string{&tc.ID, &tc.APIName, &tc.Arguments}
	jsonx.ReadObject(el, lobeToolFields, func(field int, v []byte) { _ = jsonx.ReadString(v, strs[field]) })
	return true
}
