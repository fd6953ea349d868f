package importer

import (
	"bytes"

	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// readTextLine reads the next line of a text export (formats.TextReader):
// the line as it stands, without its line end ("\n" or "\r\n"), white
// space kept.
func (j *Job) readTextLine() {
	if j.pos >= len(j.data) {
		j.readDone = true
		convs, warns := j.text.Finish()
		j.warn(warns)
		for _, c := range convs {
			j.build(c)
		}
		return
	}
	rest := j.data[j.pos:]
	end := bytes.IndexByte(rest, '\n')
	line := rest
	if end >= 0 {
		line, j.pos = rest[:end], j.pos+end+1
	} else {
		j.pos = len(j.data)
	}
	j.lineNo++
	j.text.TextLine(bytes.TrimSuffix(line, []byte{'\r'}), j.lineNo)
}

// textMismatch is the error of an import whose named format and data do
// not agree on being text (shape 't') or JSON.
func textMismatch(name string, shape byte) *tree.Error {
	if shape == 't' {
		return tree.Invalidf("%s import: the data is text, but %s exports are JSON", name, name)
	}
	return tree.Invalidf("%s import: the data is JSON, but %s exports are text", name, name)
}
