package entries

import (
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// ModelState is the model in force: the provider and model of the newest
// model_change on the path.
type ModelState struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

// State is the configuration in force at a node: for each setting, the
// newest entry that set it on the root→node path, or null when none did.
// ActiveTools is [] after an entry that turned every tool off.
type State struct {
	Model         *ModelState `json:"model"`
	ThinkingLevel *string     `json:"thinkingLevel"`
	ActiveTools   *[]string   `json:"activeTools"`
	SessionName   *string     `json:"sessionName"`
}

// AppendJSON appends the state as
// {"model":{"provider":…,"model":…}|null,"thinkingLevel":…|null,"activeTools":[…]|null,"sessionName":…|null}.
func (st State) AppendJSON(b []byte) []byte {
	b = append(b, `{"model":`...)
	if st.Model == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, `{"provider":`...)
		b = jsonx.AppendString(b, st.Model.Provider)
		b = append(b, `,"model":`...)
		b = jsonx.AppendString(b, st.Model.Model)
		b = append(b, '}')
	}
	b = append(b, `,"thinkingLevel":`...)
	b = jsonx.AppendOptString(b, st.ThinkingLevel)
	b = append(b, `,"activeTools":`...)
	if st.ActiveTools == nil || *st.ActiveTools == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, t := range *st.ActiveTools {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonx.AppendString(b, t)
		}
		b = append(b, ']')
	}
	b = append(b, `,"sessionName":`...)
	b = jsonx.AppendOptString(b, st.SessionName)
	return append(b, '}')
}

// Apply takes an entry of kind with fields e, when it is a configuration
// change, into st; any other kind (a message, a summary, a compaction, a
// custom entry) leaves st as it is, and e may then be nil.
func (st *State) Apply(kind string, e *formats.Entry) {
	switch kind {
	case formats.KindModelChange:
		st.Model = &ModelState{Provider: e.Provider, Model: e.Model}
	case formats.KindThinkingLevelChange:
		st.ThinkingLevel = &e.Level
	case formats.KindActiveToolsChange:
		tools := e.Tools
		st.ActiveTools = &tools
	case formats.KindSessionInfo:
		if e.Name == "" {
			st.SessionName = nil
		} else {
			st.SessionName = &e.Name
		}
	}
}

// Describe is the one-line text of the state, for commands: "model
// p/m, thinking high, tools [a, b], name \"x\"", or "(defaults)" when
// nothing is set.
func (st State) Describe() string {
	var parts []string
	if st.Model != nil {
		parts = append(parts, "model "+st.Model.Provider+"/"+st.Model.Model)
	}
	if st.ThinkingLevel != nil {
		parts = append(parts, "thinking "+*st.ThinkingLevel)
	}
	if st.ActiveTools != nil {
		parts = append(parts, jsonx.Sprintf("tools [%s]", strings.Join(*st.ActiveTools, ", ")))
	}
	if st.SessionName != nil {
		parts = append(parts, jsonx.Sprintf("name %q", *st.SessionName))
	}
	if len(parts) == 0 {
		return "(defaults)"
	}
	return strings.Join(parts, ", ")
}
