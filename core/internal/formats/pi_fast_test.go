package formats

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestThePiOnePassReaderKnowsEveryFieldOfTheDecodingPath(t *testing.T) {
	var tags []string
	typ := reflect.TypeFor[piLine]()
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		tags = append(tags, name)
	}
	assert.ElementsMatch(t, tags, piLineKeys, "piLineKeys are piLine's json names")
	assert.Equal(t, []string{"type", "id", "parentId", "timestamp", "branch", "message"}, piLineKeys[:6], "the fields the one-pass reader reads come first")
}

func TestTheCommonPiMessageLineIsReadInOnePass(t *testing.T) {
	line := `{"type":"message","id":"b","parentId":"a","timestamp":"2026-01-02T03:04:09.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Day 1"}],"timestamp":1}}`
	l, ok := readPiFast([]byte(line), "")
	assert.True(t, ok, "the common shape is read in one pass")
	assert.Equal(t, piFastLine{id: "b", parent: "a", timestamp: []byte(`"2026-01-02T03:04:09.000Z"`),
		message: []byte(`{"role":"assistant","content":[{"type":"text","text":"Day 1"}],"timestamp":1}`), role: "assistant"}, l)
	_, ok = readPiFast([]byte(strings.Replace(line, `"id"`, `"Id"`, 1)), "")
	assert.False(t, ok, "a key that matches a field only ignoring case is left to the decoding path")
}
