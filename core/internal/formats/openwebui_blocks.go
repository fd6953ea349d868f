package formats

import (
	"strconv"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Open WebUI keeps an assistant message's reasoning and tool calls inside
// its content string, as <details> blocks its chat view folds:
//
//	<details type="reasoning" done="true" duration="3"><summary>Thought for 3 seconds</summary>&gt; text</details>
//	<details type="tool_calls" done="true" id="call_1" name="get_weather" arguments="{&quot;city&quot;:…}" result="&quot;18C&quot;" files="" embeds="">
//	<summary>Tool Executed</summary>
//	</details>
//
// (attribute values escaped by Python's html.escape; older versions, and
// some tools, put the result in the block's body instead of a result
// attribute). Block shapes as written by Open WebUI's
// backend/open_webui/utils/middleware.py, serialize_content_blocks.

// The opening tags of the blocks openWebUIBlocks turns into parts.
const (
	owuiReasoning = `<details type="reasoning"`
	owuiToolCalls = `<details type="tool_calls"`
)

// openWebUIBlocks splits a content string holding reasoning or tool-call
// blocks into content parts: a reasoning block becomes
// {"type":"thinking","thinking":text} (its HTML entities decoded and the
// "> " quote markup Open WebUI shows it with removed); a tool-call block
// becomes {"type":"tool_use","id","name","input"} and, when it has a
// result, {"type":"tool_result","tool_use_id","name","content"}
// (owuiToolParts); the text around them {"type":"text"} parts. output is
// the record's raw "output" items (nil when absent): a block that names
// no tool takes the name, id, arguments and result of the function call
// at its place there. ok is false when the content holds no block. An
// unclosed block stays text.
func openWebUIBlocks(raw jsonx.RawMessage, output []byte) (jsonx.RawMessage, bool) {
	text, ok := jsonx.ParseString(raw)
	if !ok || (!strings.Contains(text, owuiReasoning) && !strings.Contains(text, owuiToolCalls)) {
		return nil, false
	}
	calls := owuiOutputCalls(output)
	b := []byte{'['}
	part := func(p []byte) {
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(b, p...)
	}
	textPart := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			part(append(jsonx.AppendString([]byte(`{"type":"text","text":`), s), '}'))
		}
	}
	for k := 0; ; {
		i, open := owuiNextBlock(text)
		if i < 0 {
			break
		}
		end := strings.Index(text[i:], "</details>")
		if end < 0 {
			break
		}
		textPart(text[:i])
		block := text[i : i+end]
		tag, body := block, ""
		if g := strings.IndexByte(block, '>'); g >= 0 {
			tag, body = block[:g], block[g+1:]
		}
		if s := strings.Index(body, "</summary>"); s >= 0 {
			body = body[s+len("</summary>"):]
		}
		if open == owuiReasoning {
			if s := unquoteReasoning(htmlUnescape(body)); s != "" {
				part(append(jsonx.AppendString([]byte(`{"type":"thinking","thinking":`), s), '}'))
			}
		} else {
			var call owuiCall
			if k < len(calls) {
				call = calls[k]
			}
			k++
			for _, p := range owuiToolParts(owuiAttrs(tag[len(open):]), htmlUnescape(strings.TrimSpace(body)), call, k) {
				part(p)
			}
		}
		text = text[i+end+len("</details>"):]
	}
	textPart(text)
	return append(b, ']'), true
}

// owuiNextBlock returns where the first reasoning or tool-call block of
// text starts and its opening, or -1.
func owuiNextBlock(text string) (int, string) {
	r, t := strings.Index(text, owuiReasoning), strings.Index(text, owuiToolCalls)
	switch {
	case r < 0 && t < 0:
		return -1, ""
	case t < 0 || (r >= 0 && r < t):
		return r, owuiReasoning
	default:
		return t, owuiToolCalls
	}
}

// owuiAttrs reads the name="value" attributes of an opening tag (after
// its type), the values' entities decoded. A value left unclosed ends
// the reading.
func owuiAttrs(s string) map[string]string {
	attrs := map[string]string{}
	for {
		eq := strings.Index(s, `="`)
		if eq < 0 {
			return attrs
		}
		name := strings.TrimSpace(s[:eq])
		rest := s[eq+2:]
		q := strings.IndexByte(rest, '"')
		if q < 0 {
			return attrs
		}
		attrs[name] = htmlUnescape(rest[:q])
		s = rest[q+1:]
	}
}

// owuiCall is a function call of a record's output items, with its result.
type owuiCall struct {
	id, name, arguments, result string
}

// owuiOutputCalls reads the function calls of a record's output items
// ({"type":"function_call","call_id","name","arguments"}), in order, each
// with the text of its {"type":"function_call_output","call_id","output"}
// (a string, or a list of {"text"} items). Nil when there are none or
// output is not a list.
func owuiOutputCalls(output []byte) []owuiCall {
	if len(output) == 0 || output[0] != '[' {
		return nil
	}
	var calls []owuiCall
	results := map[string]string{}
	jsonx.ReadArray(output, func(_ int, item []byte) {
		f, err := RawFields(item)
		if err != nil {
			return
		}
		typ, _ := jsonx.ParseString(f["type"])
		id, _ := jsonx.ParseString(f["call_id"])
		switch typ {
		case "function_call":
			name, _ := jsonx.ParseString(f["name"])
			args, _ := jsonx.ParseString(f["arguments"])
			calls = append(calls, owuiCall{id: id, name: name, arguments: args})
		case "function_call_output":
			results[id] = owuiOutputText(f["output"])
		}
	})
	for i := range calls {
		calls[i].result = results[calls[i].id]
	}
	return calls
}

// owuiOutputText returns a function_call_output's output as text: a
// string as it is, a list's "text" members joined by newlines.
func owuiOutputText(raw []byte) string {
	if s, ok := jsonx.ParseString(raw); ok {
		return s
	}
	var texts []string
	jsonx.ReadArray(raw, func(_ int, item []byte) {
		jsonx.ReadObject(item, []string{"text"}, func(_ int, v []byte) {
			if s, ok := jsonx.ParseString(v); ok {
				texts = append(texts, s)
			}
		})
	})
	return strings.Join(texts, "\n")
}

// owuiToolParts returns the tool_use part of a tool-call block and, when
// it has a result, its tool_result part. Each field comes from the tag's
// attributes, else from the output item at the block's place (call): id
// (else "call_<k>", k the block's number in the message, so the two
// parts still pair), name, arguments (the input: its JSON when it is
// JSON, else the text; {} when empty) and result (else the block's
// body). A result that is a JSON string (html.escape(json.dumps(r))) is
// decoded; error="true" marks the result is_error.
func owuiToolParts(attrs map[string]string, body string, call owuiCall, k int) [][]byte {
	pick := func(key, fallback string) string {
		if v := attrs[key]; v != "" {
			return v
		}
		return fallback
	}
	id := pick("id", call.id)
	if id == "" {
		id = "call_" + strconv.Itoa(k)
	}
	name := pick("name", call.name)
	args := strings.TrimSpace(pick("arguments", call.arguments))
	use := jsonx.AppendString([]byte(`{"type":"tool_use","id":`), id)
	use = jsonx.AppendString(append(use, `,"name":`...), name)
	use = append(use, `,"input":`...)
	switch {
	case args == "":
		use = append(use, `{}`...)
	case jsonx.Valid([]byte(args)):
		use = append(use, jsonx.CompactBytes([]byte(args))...)
	default:
		use = jsonx.AppendString(use, args)
	}
	parts := [][]byte{append(use, '}')}
	result := pick("result", body)
	if result == "" {
		result = call.result
	}
	if result == "" {
		return parts
	}
	if s, ok := jsonx.ParseString([]byte(result)); ok {
		result = s
	}
	res := jsonx.AppendString([]byte(`{"type":"tool_result","tool_use_id":`), id)
	res = jsonx.AppendString(append(res, `,"name":`...), name)
	res = jsonx.AppendString(append(res, `,"content":`...), result)
	if attrs["error"] == "true" {
		res = append(res, `,"is_error":true`...)
	}
	return append(parts, append(res, '}'))
}
